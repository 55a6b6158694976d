/*
 * Copyright The apiserver4j authors.
 * SPDX-License-Identifier: Apache-2.0
 */
package io.apiserver4j.admission.webhook;

import static io.apiserver4j.core.Meta.string;
import static java.util.Objects.requireNonNull;

import io.apiserver4j.core.BooleanValue;
import io.apiserver4j.core.DecodeException;
import io.apiserver4j.core.GoStrings;
import io.apiserver4j.core.Json;
import io.apiserver4j.core.ListValue;
import io.apiserver4j.core.MapValue;
import io.apiserver4j.core.errors.Status;
import io.apiserver4j.core.errors.StatusReason;
import io.apiserver4j.core.StringValue;
import io.apiserver4j.core.Value;
import java.util.ArrayList;
import java.util.Base64;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Optional;

/**
 * A webhook's answer: the {@code response} of an admission.k8s.io/v1 {@code AdmissionReview}.
 *
 * @param uid must equal the request's uid
 * @param allowed whether the request may proceed
 * @param result the denial's status (its message, code and reason); ignored when allowed
 * @param patch a JSON Patch (RFC 6902, patchType {@code JSONPatch}) to apply to the object;
 *     mutating webhooks only
 * @param warnings warnings for the client
 * @param auditAnnotations annotations for the audit event
 */
public record AdmissionReviewResponse(
    String uid, boolean allowed, Optional<Status> result, Optional<ListValue> patch,
    List<String> warnings, Map<String, String> auditAnnotations) {

  /**
   * Checks the components and copies the warnings and annotations.
   *
   * @param uid see the record component
   * @param allowed see the record component
   * @param result see the record component
   * @param patch see the record component
   * @param warnings see the record component
   * @param auditAnnotations see the record component
   * @throws NullPointerException when a component is null
   */
  public AdmissionReviewResponse {
    requireNonNull(uid, "uid");
    requireNonNull(result, "result");
    requireNonNull(patch, "patch");
    warnings = List.copyOf(warnings);
    auditAnnotations = java.util.Collections.unmodifiableMap(new LinkedHashMap<>(auditAnnotations));
  }

  /**
   * Allows {@code request} unchanged.
   *
   * @param request the request answered
   * @return the response
   */
  public static AdmissionReviewResponse allow(AdmissionReviewRequest request) {
    return new AdmissionReviewResponse(request.uid(), true, Optional.empty(), Optional.empty(),
        List.of(), Map.of());
  }

  /**
   * Allows {@code request} with the object changed by {@code jsonPatch}.
   *
   * @param request the request answered
   * @param jsonPatch the RFC 6902 operations
   * @return the response
   */
  public static AdmissionReviewResponse patch(AdmissionReviewRequest request, ListValue jsonPatch) {
    return new AdmissionReviewResponse(request.uid(), true, Optional.empty(),
        Optional.of(jsonPatch), List.of(), Map.of());
  }

  /**
   * Denies {@code request} with 403 and {@code message}, as webhook SDKs commonly do.
   *
   * @param request the request answered
   * @param message the denial's message
   * @return the response
   */
  public static AdmissionReviewResponse deny(AdmissionReviewRequest request, String message) {
    return deny(request, Status.failure(StatusReason.FORBIDDEN, message));
  }

  /**
   * Denies {@code request} with {@code status}.
   *
   * @param request the request answered
   * @param status the denial's code, reason and message
   * @return the response
   */
  public static AdmissionReviewResponse deny(AdmissionReviewRequest request, Status status) {
    return new AdmissionReviewResponse(request.uid(), false, Optional.of(status),
        Optional.empty(), List.of(), Map.of());
  }

  /**
   * A copy with {@code more} warnings appended.
   *
   * @param more the warnings
   * @return the new response
   */
  public AdmissionReviewResponse withWarnings(String... more) {
    List<String> all = new ArrayList<>(warnings);
    all.addAll(List.of(more));
    return new AdmissionReviewResponse(uid, allowed, result, patch, all, auditAnnotations);
  }

  /**
   * The AdmissionReview carrying this response; the patch is base64-encoded JSON.
   *
   * @return the review as a map
   */
  public MapValue toValue() {
    MapValue.Builder r = MapValue.builder(7)
        .put("uid", Value.of(uid))
        .put("allowed", Value.of(allowed));
    result.ifPresent(s -> r.put("status", s.toValue()));
    patch.ifPresent(p -> {
      r.put("patch", Value.of(Base64.getEncoder().encodeToString(Json.writeBytes(p))));
      r.put("patchType", Value.of("JSONPatch"));
    });
    if (!auditAnnotations.isEmpty()) {
      MapValue.Builder a = MapValue.builder(auditAnnotations.size());
      auditAnnotations.forEach((k, v) -> a.put(k, Value.of(v)));
      r.put("auditAnnotations", a.build());
    }
    if (!warnings.isEmpty()) {
      r.put("warnings", ListValue.of(warnings.stream().map(Value::of).toList()));
    }
    return MapValue.builder(3)
        .put("kind", Value.of("AdmissionReview"))
        .put("apiVersion", Value.of("admission.k8s.io/v1"))
        .put("response", r.build())
        .build();
  }

  /**
   * Reads an admission.k8s.io/v1 AdmissionReview response as a webhook server sends it.
   *
   * @throws DecodeException naming what is wrong, with kube-apiserver's wording where it has
   *     one (e.g. {@code webhook response was absent})
   * @param review the parsed AdmissionReview
   * @return the response
   */
  public static AdmissionReviewResponse fromValue(Value review) {
    try {
      return fromValue(review, AdmissionReviewRequest.V1, true, Optional.empty());
    } catch (WebhookCallException e) {
      throw new DecodeException(e.detail());
    }
  }

  /**
   * Reads a response as kube's {@code VerifyAdmissionResponse}: for v1, the uid must be
   * {@code expectedUid} (when given) and the kind {@code AdmissionReview} of admission.k8s.io/v1,
   * a mutating webhook's patch comes with patchType {@code JSONPatch}, and a validating webhook
   * sends neither; v1beta1 responses are not checked for uid and kind, and a patch there is a
   * JSON patch.
   *
   * @throws WebhookCallException with kube's text
   */
  static AdmissionReviewResponse fromValue(Value review, String version, boolean mutating,
      Optional<String> expectedUid) {
    if (!(review instanceof MapValue m)) {
      throw WebhookCallException.invalidResponse("an AdmissionReview must be a JSON object");
    }
    if (!(m.getOrNull("response") instanceof MapValue r)) {
      throw WebhookCallException.invalidResponse("webhook response was absent");
    }
    boolean v1 = version.equals(AdmissionReviewRequest.V1);
    if (v1 && expectedUid.isPresent() && !expectedUid.get().equals(string(r, "uid"))) {
      throw WebhookCallException.invalidResponse("expected response.uid=\"" + expectedUid.get()
          + "\", got \"" + string(r, "uid") + "\"");
    }
    if (v1 && (!"admission.k8s.io/v1".equals(string(m, "apiVersion"))
        || !"AdmissionReview".equals(string(m, "kind")))) {
      throw WebhookCallException.invalidResponse(
          "expected webhook response of admission.k8s.io/v1, Kind="
          + "AdmissionReview, got " + gvkString(string(m, "apiVersion"), string(m, "kind")));
    }
    boolean allowed = r.getOrNull("allowed") instanceof BooleanValue b && b.value();
    Optional<Status> status = r.getOrNull("status") instanceof MapValue s
        ? Optional.of(Status.fromValue(s)) : Optional.empty();
    Value rawPatch = r.getOrNull("patch");
    Value patchType = r.getOrNull("patchType");
    if (rawPatch != null && !rawPatch.isNull() && !(rawPatch instanceof StringValue)) {
      throw WebhookCallException.invalidResponse("response.patch must be a base64 string");
    }
    boolean hasPatch = rawPatch instanceof StringValue p && !p.value().isEmpty();
    boolean hasPatchType = patchType != null && !patchType.isNull();
    Optional<ListValue> patch = Optional.empty();
    if (!mutating) {
      // v1beta1 validating responses had their patch ignored
      if (v1 && hasPatch) {
        throw WebhookCallException.invalidResponse(
            "validating webhook may not return response.patch");
      }
      if (v1 && hasPatchType) {
        throw WebhookCallException.invalidResponse(
            "validating webhook may not return response.patchType");
      }
    } else {
      if (v1 && hasPatch && !hasPatchType) {
        throw WebhookCallException.invalidResponse(
            "webhook returned response.patch but not response.patchType");
      }
      if (v1 && !hasPatch && hasPatchType) {
        throw WebhookCallException.invalidResponse(
            "webhook returned response.patchType but not response.patch");
      }
      if (v1 && hasPatchType && !(patchType instanceof StringValue t && !t.value().isEmpty())) {
        throw WebhookCallException.invalidResponse("webhook returned invalid response.patchType of "
            + Json.write(patchType));
      }
      if (v1 && hasPatch && !((StringValue) patchType).value().equals("JSONPatch")) {
        throw new WebhookCallException("", "unsupported patch type \""
            + ((StringValue) patchType).value() + "\"");
      }
      if (hasPatch) {
        patch = Optional.of(decodePatch(((StringValue) rawPatch).value()));
      }
    }
    Map<String, String> annotations = new LinkedHashMap<>();
    if (r.getOrNull("auditAnnotations") instanceof MapValue a) {
      a.forEach((k, v) -> annotations.put(k,
          v instanceof StringValue s ? s.value() : Json.write(v)));
    }
    List<String> warnings = new ArrayList<>();
    if (r.getOrNull("warnings") instanceof ListValue w) {
      for (Value v : w.items()) {
        if (v instanceof StringValue s) {
          warnings.add(s.value());
        }
      }
    }
    return new AdmissionReviewResponse(string(r, "uid"), allowed, status, patch, warnings,
        annotations);
  }

  private static ListValue decodePatch(String base64) {
    byte[] json;
    try {
      json = Base64.getDecoder().decode(base64);
    } catch (IllegalArgumentException e) {
      throw WebhookCallException.invalidResponse("illegal base64 data in response.patch: "
          + e.getMessage());
    }
    Value ops;
    try {
      ops = Json.read(json);
    } catch (DecodeException e) {
      throw new WebhookCallException("received undecodable patch in webhook response",
          e.getMessage());
    }
    if (!(ops instanceof ListValue list)) {
      throw new WebhookCallException("received undecodable patch in webhook response",
          "json: cannot unmarshal " + GoStrings.jsonKind(ops)
              + " into Go value of type jsonpatch.Patch");
    }
    return list;
  }


  /** Go's {@code GroupVersionKind.String()} of an apiVersion and kind. */
  private static String gvkString(String apiVersion, String kind) {
    int slash = apiVersion.indexOf('/');
    String group = slash < 0 ? "" : apiVersion.substring(0, slash);
    String version = slash < 0 ? apiVersion : apiVersion.substring(slash + 1);
    return group + "/" + version + ", Kind=" + kind;
  }

}
