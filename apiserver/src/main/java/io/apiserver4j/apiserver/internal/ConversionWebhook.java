/*
 * Copyright The apiserver4j authors.
 * SPDX-License-Identifier: Apache-2.0
 */
package io.apiserver4j.apiserver.internal;

import io.apiserver4j.admission.webhook.WebhookClient;
import io.apiserver4j.apiserver.ResourceStrategy;
import io.apiserver4j.core.GroupVersionKind;
import io.apiserver4j.core.ListValue;
import io.apiserver4j.core.MapValue;
import io.apiserver4j.core.Meta;
import io.apiserver4j.core.Nested;
import io.apiserver4j.core.Status;
import io.apiserver4j.core.StatusException;
import io.apiserver4j.core.StatusReason;
import io.apiserver4j.core.Value;
import java.time.Duration;
import java.util.List;
import java.util.UUID;
import java.util.concurrent.CompletionException;
import java.util.concurrent.ExecutionException;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.TimeoutException;

/**
 * A CRD's conversion strategy Webhook: a {@code ConversionReview} (the first of the CRD's
 * conversionReviewVersions this server speaks, v1 or v1beta1) POSTed over HTTPS to the
 * webhook's clientConfig, and kube's checks of the answer (uid, result, one object of the
 * desired version and the same kind, name, namespace and uid; metadata other than labels and
 * annotations restored). A failure is kube's unreasoned 500 {@code conversion webhook for
 * <group/version, Kind=kind> failed: ...}.
 */
final class ConversionWebhook implements ResourceStrategy.Converter {
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
    String from = GroupVersionKind.of(Meta.string(object, "apiVersion"),
        Meta.string(object, "kind")).toString();
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
            "objects", ListValue.of(List.of(object))));
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
    if (converted.size() != 1) {
      throw fail("conversion webhook for " + from + " failed, no objects returned");
    }
    if (!(converted.get(0) instanceof MapValue out)) {
      // what Go's JSON decoder says of a converted object that is not one
      Value v = converted.get(0);
      String type = v instanceof io.apiserver4j.core.StringValue ? "string"
          : v instanceof ListValue ? "array"
          : v instanceof io.apiserver4j.core.BooleanValue ? "bool" : "number";
      if (v.isNull()) {
        throw fail("Object 'Kind' is missing in 'null'");
      }
      throw fail("json: cannot unmarshal " + type + " into Go value of type"
          + " map[string]interface {}");
    }
    String invalid = "conversion webhook for " + from + " returned invalid object";
    String got = Meta.string(out, "apiVersion");
    if (!got.equals(apiVersion)) {
      throw fail(invalid + " at index 0: invalid groupVersion (expected " + apiVersion
          + ", received " + got + ")");
    }
    if (!Meta.string(out, "kind").equals(Meta.string(object, "kind"))) {
      throw fail(invalid + " at index 0: invalid kind (expected " + Meta.string(object, "kind")
          + ", received " + Meta.string(out, "kind") + ")");
    }
    for (String field : List.of("name", "namespace", "uid")) {
      String e = Meta.metaString(object, field);
      String a = Meta.metaString(out, field);
      if (!e.equals(a)) {
        String label = field.equals("uid") ? "UID" : field;
        throw fail(invalid + ": must have the same " + label + ": " + e + " != " + a);
      }
    }
    return restoreMetadata(object, out, from);
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

  /** kube's restoreObjectMeta: the original metadata with the webhook's labels/annotations. */
  private static MapValue restoreMetadata(MapValue original, MapValue converted, String from) {
    if (!(converted.getOrNull("metadata") instanceof MapValue answered)) {
      throw fail("conversion webhook for " + from + " returned invalid metadata: "
          + (converted.getOrNull("metadata") == null ? "missing metadata in converted object"
              : "invalid metadata in converted object"));
    }
    MapValue meta = Nested.map(original, "metadata");
    for (String field : List.of("labels", "annotations")) {
      Value v = answered.getOrNull(field);
      if (v == null || v.isNull()) {
        meta = meta.without(field);
      } else if (v instanceof MapValue m) {
        for (int i = 0; i < m.size(); i++) {
          if (!(m.valueAt(i) instanceof io.apiserver4j.core.StringValue)) {
            throw fail("conversion webhook for " + from + " returned invalid metadata: metadata."
                + field + "[" + m.keyAt(i) + "] must be a string");
          }
        }
        meta = meta.with(field, m);
      } else {
        throw fail("conversion webhook for " + from + " returned invalid metadata: invalid"
            + " metadata." + field + " in converted object");
      }
    }
    return converted.with("metadata", meta);
  }

  private static StatusException fail(String message) {
    return StatusException.of(Status.failure(StatusReason.UNKNOWN, message));
  }
}
