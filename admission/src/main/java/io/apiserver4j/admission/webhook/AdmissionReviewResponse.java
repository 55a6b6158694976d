package io.apiserver4j.admission.webhook;

import static java.util.Objects.requireNonNull;

import io.apiserver4j.core.DecodeException;
import io.apiserver4j.core.Json;
import io.apiserver4j.core.ListValue;
import io.apiserver4j.core.MapValue;
import io.apiserver4j.core.Status;
import io.apiserver4j.core.StatusReason;
import io.apiserver4j.core.StringValue;
import io.apiserver4j.core.BooleanValue;
import io.apiserver4j.core.Value;
import java.nio.charset.StandardCharsets;
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

  public AdmissionReviewResponse {
    requireNonNull(uid, "uid");
    requireNonNull(result, "result");
    requireNonNull(patch, "patch");
    warnings = List.copyOf(warnings);
    auditAnnotations = java.util.Collections.unmodifiableMap(new LinkedHashMap<>(auditAnnotations));
  }

  /** Allows {@code request} unchanged. */
  public static AdmissionReviewResponse allow(AdmissionReviewRequest request) {
    return new AdmissionReviewResponse(request.uid(), true, Optional.empty(), Optional.empty(),
        List.of(), Map.of());
  }

  /** Allows {@code request} with the object changed by {@code jsonPatch}. */
  public static AdmissionReviewResponse patch(AdmissionReviewRequest request, ListValue jsonPatch) {
    return new AdmissionReviewResponse(request.uid(), true, Optional.empty(),
        Optional.of(jsonPatch), List.of(), Map.of());
  }

  /** Denies {@code request} with 403 and {@code message}, as webhook SDKs commonly do. */
  public static AdmissionReviewResponse deny(AdmissionReviewRequest request, String message) {
    return deny(request, Status.failure(StatusReason.FORBIDDEN, message));
  }

  /** Denies {@code request} with {@code status}. */
  public static AdmissionReviewResponse deny(AdmissionReviewRequest request, Status status) {
    return new AdmissionReviewResponse(request.uid(), false, Optional.of(status),
        Optional.empty(), List.of(), Map.of());
  }

  /** A copy with {@code more} warnings appended. */
  public AdmissionReviewResponse withWarnings(String... more) {
    List<String> all = new ArrayList<>(warnings);
    all.addAll(List.of(more));
    return new AdmissionReviewResponse(uid, allowed, result, patch, all, auditAnnotations);
  }

  /** The AdmissionReview carrying this response; the patch is base64-encoded JSON. */
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
   */
  public static AdmissionReviewResponse fromValue(Value review) {
    if (!(review instanceof MapValue m)) {
      throw new DecodeException("an AdmissionReview must be a JSON object");
    }
    if (!"admission.k8s.io/v1".equals(str(m, "apiVersion"))
        || !"AdmissionReview".equals(str(m, "kind"))) {
      throw new DecodeException("expected webhook response of admission.k8s.io/v1, Kind="
          + "AdmissionReview, got " + str(m, "apiVersion") + ", Kind=" + str(m, "kind"));
    }
    if (!(m.getOrNull("response") instanceof MapValue r)) {
      throw new DecodeException("webhook response was absent");
    }
    boolean allowed = r.getOrNull("allowed") instanceof BooleanValue b && b.value();
    Optional<Status> status = r.getOrNull("status") instanceof MapValue s
        ? Optional.of(Status.fromValue(s)) : Optional.empty();
    Optional<ListValue> patch = Optional.empty();
    Value rawPatch = r.getOrNull("patch");
    Value patchType = r.getOrNull("patchType");
    if (rawPatch != null && !(rawPatch instanceof StringValue)) {
      throw new DecodeException("response.patch must be a base64 string");
    }
    if (rawPatch instanceof StringValue p && !p.value().isEmpty()) {
      if (patchType == null) {
        throw new DecodeException("webhook returned response.patch but not response.patchType");
      }
      if (!(patchType instanceof StringValue t) || !t.value().equals("JSONPatch")) {
        throw new DecodeException("webhook returned invalid response.patchType of "
            + Json.write(patchType));
      }
      byte[] json;
      try {
        json = Base64.getDecoder().decode(p.value());
      } catch (IllegalArgumentException e) {
        throw new DecodeException("response.patch is not valid base64: " + e.getMessage());
      }
      if (!(Json.read(json) instanceof ListValue ops)) {
        throw new DecodeException("response.patch is not a JSON Patch array: "
            + new String(json, StandardCharsets.UTF_8));
      }
      patch = Optional.of(ops);
    } else if (patchType != null && !patchType.isNull()) {
      throw new DecodeException("webhook returned response.patchType but not response.patch");
    }
    Map<String, String> annotations = new LinkedHashMap<>();
    if (r.getOrNull("auditAnnotations") instanceof MapValue a) {
      a.forEach((k, v) -> annotations.put(k, v instanceof StringValue s ? s.value() : Json.write(v)));
    }
    List<String> warnings = new ArrayList<>();
    if (r.getOrNull("warnings") instanceof ListValue w) {
      for (Value v : w.items()) {
        if (v instanceof StringValue s) {
          warnings.add(s.value());
        }
      }
    }
    return new AdmissionReviewResponse(str(r, "uid"), allowed, status, patch, warnings,
        annotations);
  }

  private static String str(MapValue m, String key) {
    return m.getOrNull(key) instanceof StringValue s ? s.value() : "";
  }
}
