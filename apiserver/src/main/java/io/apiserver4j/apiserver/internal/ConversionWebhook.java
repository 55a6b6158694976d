/*
 * Copyright The apiserver4j authors.
 * SPDX-License-Identifier: Apache-2.0
 */
package io.apiserver4j.apiserver.internal;

import io.apiserver4j.apiserver.strategy.Converter;
import io.apiserver4j.admission.webhook.WebhookClient;
import io.apiserver4j.core.BooleanValue;
import io.apiserver4j.core.errors.FieldError;
import io.apiserver4j.core.GroupVersion;
import io.apiserver4j.core.GroupVersionKind;
import io.apiserver4j.core.IntegerValue;
import io.apiserver4j.core.Json;
import io.apiserver4j.core.ListValue;
import io.apiserver4j.core.MapValue;
import io.apiserver4j.core.Meta;
import io.apiserver4j.core.Nested;
import io.apiserver4j.core.errors.Status;
import io.apiserver4j.core.errors.StatusException;
import io.apiserver4j.core.errors.StatusReason;
import io.apiserver4j.core.StringValue;
import io.apiserver4j.core.Value;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.UUID;
import java.util.concurrent.CompletionException;
import java.util.concurrent.ExecutionException;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.TimeoutException;
import io.apiserver4j.apimachinery.validation.MetaValidation;

/**
 * A CRD's conversion strategy Webhook: a {@code ConversionReview} (the first of the CRD's
 * conversionReviewVersions this server speaks, v1 or v1beta1) POSTed over HTTPS to the
 * webhook's clientConfig, and kube's checks of the answer (uid, result, as many objects as sent,
 * each of the desired version and the same kind, name, namespace and uid; metadata other than
 * labels and annotations restored, changed labels and annotations validated). A list is one
 * review of all its items not yet at the desired version, as kube's webhook converter does for
 * an {@code UnstructuredList}. A failure is kube's unreasoned 500 {@code conversion webhook for
 * <group/version, Kind=kind> ...}, naming the list's kind for a list.
 */
final class ConversionWebhook implements Converter {
  private static final Duration TIMEOUT = Duration.ofSeconds(30);

  private final WebhookClient client;
  private final String clientError;
  private final String reviewVersion;

  private ConversionWebhook(WebhookClient client, String clientError, String reviewVersion) {
    this.client = client;
    this.clientError = clientError;
    this.reviewVersion = reviewVersion;
  }

  /** The webhook of a CRD's {@code spec.conversion.webhook}. */
  static ConversionWebhook of(MapValue webhook) {
    String review = "";
    for (String v : Meta.stringList(Nested.getOrNull(webhook, "conversionReviewVersions"))) {
      if (v.equals("v1") || v.equals("v1beta1")) {
        review = v;
        break;
      }
    }
    try {
      return new ConversionWebhook(WebhookClient.of(Nested.getOrNull(webhook, "clientConfig")),
          "", review);
    } catch (RuntimeException e) {
      return new ConversionWebhook(null, e.getMessage() == null ? e.toString() : e.getMessage(),
          review);
    }
  }

  @Override
  public MapValue convert(MapValue object, String apiVersion) {
    if (Meta.string(object, "apiVersion").equals(apiVersion)) {
      return object;
    }
    String from = kindOf(object);
    List<Value> converted = review(List.of(object), apiVersion, from);
    String invalid = "conversion webhook for " + from + " returned invalid object";
    MapValue out = decoded(converted.get(0), "");
    String problem = typeProblem(object, out, apiVersion);
    if (!problem.isEmpty()) {
      throw fail(invalid + " at index 0: " + problem);
    }
    problem = metaProblem(object, out);
    if (!problem.isEmpty()) {
      throw fail(invalid + ": " + problem);
    }
    return restored(object, out, "conversion webhook for " + from
        + " returned invalid metadata: ");
  }

  /** kube's webhook converter on an {@code UnstructuredList}: one review for the whole list. */
  @Override
  public MapValue convertList(MapValue list, String apiVersion) {
    List<Value> items = Nested.list(list, "items");
    List<Value> toConvert = new ArrayList<>();
    for (Value item : items) {
      if (!Nested.str(item, "apiVersion").equals(apiVersion)) {
        toConvert.add(item);
      }
    }
    MapValue out = list.with("apiVersion", Value.of(apiVersion));
    if (toConvert.isEmpty()) {
      return out;
    }
    String from = kindOf(list);
    List<Value> converted = review(toConvert, apiVersion, from);
    ListValue.Builder b = ListValue.builder(items.size());
    int index = 0;
    for (Value item : items) {
      MapValue original = (MapValue) item;
      if (Meta.string(original, "apiVersion").equals(apiVersion)) {
        b.add(original);
        continue;
      }
      String invalid = "conversion webhook for " + from
          + " returned invalid converted object at index " + index + ": ";
      MapValue one = decoded(converted.get(index), invalid);
      String problem = typeProblem(original, one, apiVersion);
      if (problem.isEmpty()) {
        problem = metaProblem(original, one);
      }
      if (!problem.isEmpty()) {
        throw fail(invalid + problem);
      }
      b.add(restored(original, one, "conversion webhook for " + from
          + " returned invalid metadata in object at index " + index + ": "));
      index++;
    }
    return out.with("items", b.build());
  }

  @Override
  public boolean convertsWholeLists() {
    return true;
  }

  private static String kindOf(MapValue object) {
    return GroupVersionKind.of(Meta.string(object, "apiVersion"), Meta.string(object, "kind"))
        .toString();
  }

  /** Sends one review of {@code objects}; the converted objects, as many as were sent. */
  private List<Value> review(List<Value> objects, String apiVersion, String from) {
    String failed = "conversion webhook for " + from + " failed: ";
    if (reviewVersion.isEmpty()) {
      throw fail("no supported conversion review versions");
    }
    if (client == null) {
      throw fail(failed + clientError);
    }
    String uid = UUID.randomUUID().toString();
    MapValue review = MapValue.ofEntries(
        "kind", Value.of("ConversionReview"),
        "apiVersion", Value.of("apiextensions.k8s.io/" + reviewVersion),
        "request", MapValue.ofEntries("uid", Value.of(uid),
            "desiredAPIVersion", Value.of(apiVersion),
            "objects", ListValue.of(objects)));
    Value answer;
    try {
      answer = client.post(review, TIMEOUT).get(TIMEOUT.toMillis() + 1000, TimeUnit.MILLISECONDS);
    } catch (ExecutionException | CompletionException e) {
      throw fail(failed + (e.getCause() == null ? e : e.getCause()).getMessage());
    } catch (TimeoutException e) {
      throw fail(failed + "context deadline exceeded");
    } catch (InterruptedException e) {
      Thread.currentThread().interrupt();
      throw fail(failed + "context canceled");
    }
    List<Value> converted = convertedObjects(answer, uid, failed, reviewVersion);
    if (converted.size() != objects.size()) {
      throw fail("conversion webhook for " + from + " returned " + converted.size()
          + " objects, expected " + objects.size());
    }
    return converted;
  }

  /**
   * A converted object as Go's {@code Unstructured.UnmarshalJSON} takes it: an object with a
   * kind. A JSON null reaches it as no bytes at all (RawExtension keeps none for null).
   */
  private static MapValue decoded(Value v, String prefix) {
    if (v instanceof MapValue m) {
      if (Meta.string(m, "kind").isEmpty()) {
        throw fail(prefix + "Object 'Kind' is missing in '" + Json.write(m) + "'");
      }
      return m;
    }
    if (v.isNull()) {
      throw fail(prefix + "unexpected end of JSON input");
    }
    throw fail(prefix + "json: cannot unmarshal " + goJsonType(v)
        + " into Go value of type map[string]interface {}");
  }

  private static String goJsonType(Value v) {
    return v instanceof StringValue ? "string" : v instanceof ListValue ? "array"
        : v instanceof BooleanValue ? "bool" : "number";
  }

  /** kube's groupVersion and kind checks of a converted object; empty when it passes. */
  private static String typeProblem(MapValue original, MapValue out, String apiVersion) {
    String got;
    try {
      got = GroupVersion.parse(Meta.string(out, "apiVersion")).toString();
    } catch (IllegalArgumentException e) {
      got = ""; // Go reads an unparsable apiVersion as the empty group/version
    }
    if (!got.equals(apiVersion)) {
      return "invalid groupVersion (expected " + apiVersion + ", received " + got + ")";
    }
    if (!Meta.string(out, "kind").equals(Meta.string(original, "kind"))) {
      return "invalid kind (expected " + Meta.string(original, "kind") + ", received "
          + Meta.string(out, "kind") + ")";
    }
    return "";
  }

  /** kube's validateConvertedObject: the same name, namespace and uid; empty when it passes. */
  private static String metaProblem(MapValue original, MapValue out) {
    for (String field : List.of("name", "namespace", "uid")) {
      String e = Meta.metaString(original, field);
      String a = Meta.metaString(out, field);
      if (!e.equals(a)) {
        return "must have the same " + (field.equals("uid") ? "UID" : field) + ": " + e
            + " != " + a;
      }
    }
    return "";
  }

  // kube decodes the answer as the review version it sent; only v1 answers are checked for
  // their own kind and uid
  private static List<Value> convertedObjects(Value answer, String uid, String failed,
      String reviewVersion) {
    String apiVersion = Nested.str(answer, "apiVersion");
    String kind = Nested.str(answer, "kind");
    boolean v1 = reviewVersion.equals("v1");
    if (v1 && (!kind.equals("ConversionReview")
        || !apiVersion.equals("apiextensions.k8s.io/v1"))) {
      throw fail(failed + "expected webhook response of apiextensions.k8s.io/v1,"
          + " Kind=ConversionReview, got " + GroupVersionKind.of(apiVersion, kind));
    }
    if (!(Nested.getOrNull(answer, "response") instanceof MapValue response)) {
      throw fail(failed + "no response provided");
    }
    if (v1 && !Nested.str(response, "uid").equals(uid)) {
      throw fail(failed + "expected response.uid=\"" + uid + "\", got \""
          + Nested.str(response, "uid") + "\"");
    }
    String status = Nested.str(response, "result", "status");
    if (!status.equals("Success")) {
      String message = Nested.str(response, "result", "message");
      throw fail(failed + (message.isEmpty()
          ? "response.result.status was '" + status + "', not 'Success'" : message));
    }
    return Nested.list(response, "convertedObjects");
  }

  /**
   * kube's restoreObjectMeta: the original metadata with the webhook's labels and annotations,
   * which are validated when the webhook changed them. Failures are {@code prefix + error}.
   */
  private static MapValue restored(MapValue original, MapValue converted, String prefix) {
    Value answeredMeta = converted.getOrNull("metadata");
    if (answeredMeta == null) {
      throw fail(prefix + "missing metadata in converted object");
    }
    if (!(answeredMeta instanceof MapValue answered)) {
      throw fail(prefix + "invalid metadata of type " + goType(answeredMeta)
          + " in converted object");
    }
    MapValue meta = Nested.map(original, "metadata");
    for (String field : List.of("labels", "annotations")) {
      Value v = answered.getOrNull(field);
      if (v == null || v.isNull()) {
        meta = meta.without(field);
        continue;
      }
      if (!(v instanceof MapValue m)) {
        throw fail(prefix + "invalid metadata." + field + " of type " + goType(v)
            + " in converted object");
      }
      for (int i = 0; i < m.size(); i++) {
        if (!(m.valueAt(i) instanceof StringValue)) {
          throw fail(prefix + "metadata." + field + "[" + m.keyAt(i) + "] must be a string,"
              + " but is " + goType(m.valueAt(i)) + " in converted object");
        }
      }
      if (!m.equals(meta.getOrNull(field))) {
        // kube's path for annotations here is metadata.annotation
        List<FieldError> errs = field.equals("labels")
            ? MetaValidation.labels(m, "metadata.labels")
            : MetaValidation.annotations(m, "metadata.annotation");
        if (!errs.isEmpty()) {
          throw fail(prefix + aggregate(errs));
        }
      }
      meta = meta.with(field, m);
    }
    return converted.with("metadata", meta);
  }

  /** Go's {@code %T} of a decoded JSON value. */
  private static String goType(Value v) {
    if (v.isNull()) {
      return "<nil>";
    }
    return v instanceof StringValue ? "string" : v instanceof ListValue ? "[]interface {}"
        : v instanceof MapValue ? "map[string]interface {}"
        : v instanceof BooleanValue ? "bool" : v instanceof IntegerValue ? "int64" : "float64";
  }

  /** kube's {@code ErrorList.ToAggregate}: duplicates dropped, one alone, several bracketed. */
  private static String aggregate(List<FieldError> errs) {
    List<String> messages = errs.stream().map(FieldError::toString).distinct().toList();
    return messages.size() == 1 ? messages.get(0) : "[" + String.join(", ", messages) + "]";
  }

  private static StatusException fail(String message) {
    return StatusException.of(Status.failure(StatusReason.UNKNOWN, message));
  }
}
