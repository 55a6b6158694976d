package io.apiserver4j.admission.webhook;

import static java.util.Objects.requireNonNull;

import io.apiserver4j.admission.AdmissionAttributes;
import io.apiserver4j.admission.Operation;
import io.apiserver4j.admission.UserInfo;
import io.apiserver4j.core.GroupVersionKind;
import io.apiserver4j.core.GroupVersionResource;
import io.apiserver4j.core.ListValue;
import io.apiserver4j.core.MapValue;
import io.apiserver4j.core.Value;
import java.util.Optional;

/**
 * What a webhook is asked: the {@code request} of an admission.k8s.io/v1
 * {@code AdmissionReview}. {@link #toValue()} gives the whole AdmissionReview as it goes over
 * the wire.
 *
 * <p>{@code dryRun} is always set, as kube-apiserver always sends it. The request kind,
 * resource and subresource equal the matched ones (no version conversion is done).
 *
 * @param uid identifies this call; the response must echo it
 * @param object the object (after earlier mutations); absent for DELETE
 * @param oldObject the stored object for UPDATE and DELETE
 * @param options CreateOptions / UpdateOptions / DeleteOptions, or empty
 */
public record AdmissionReviewRequest(
    String uid, GroupVersionKind kind, GroupVersionResource resource, String subResource,
    String name, String namespace, Operation operation, UserInfo userInfo,
    Optional<MapValue> object, Optional<MapValue> oldObject, boolean dryRun, MapValue options) {

  public AdmissionReviewRequest {
    requireNonNull(uid, "uid");
    requireNonNull(kind, "kind");
    requireNonNull(resource, "resource");
    requireNonNull(subResource, "subResource");
    requireNonNull(name, "name");
    requireNonNull(namespace, "namespace");
    requireNonNull(operation, "operation");
    requireNonNull(userInfo, "userInfo");
    requireNonNull(object, "object");
    requireNonNull(oldObject, "oldObject");
    requireNonNull(options, "options");
  }

  /** The request for {@code attributes}, with {@code object} as the current object. */
  static AdmissionReviewRequest of(
      String uid, AdmissionAttributes attributes, Optional<MapValue> object) {
    return new AdmissionReviewRequest(uid, attributes.kind(), attributes.resource(),
        attributes.subresource(), attributes.name(), attributes.namespace(),
        attributes.operation(), attributes.userInfo(), object, attributes.oldObject(),
        attributes.isDryRun(), attributes.options());
  }

  /** The AdmissionReview carrying this request, with Go's field order and omissions. */
  public MapValue toValue() {
    MapValue.Builder r = MapValue.builder(20)
        .put("uid", Value.of(uid))
        .put("kind", gvk(kind))
        .put("resource", gvr(resource));
    if (!subResource.isEmpty()) {
      r.put("subResource", Value.of(subResource));
    }
    r.put("requestKind", gvk(kind)).put("requestResource", gvr(resource));
    if (!subResource.isEmpty()) {
      r.put("requestSubResource", Value.of(subResource));
    }
    if (!name.isEmpty()) {
      r.put("name", Value.of(name));
    }
    if (!namespace.isEmpty()) {
      r.put("namespace", Value.of(namespace));
    }
    r.put("operation", Value.of(operation.wireName()))
        .put("userInfo", userInfo(userInfo))
        .put("object", object.<Value>map(o -> o).orElse(Value.nullValue()))
        .put("oldObject", oldObject.<Value>map(o -> o).orElse(Value.nullValue()))
        .put("dryRun", Value.of(dryRun))
        .put("options", options.isEmpty() ? Value.nullValue() : options);
    return MapValue.builder(3)
        .put("kind", Value.of("AdmissionReview"))
        .put("apiVersion", Value.of("admission.k8s.io/v1"))
        .put("request", r.build())
        .build();
  }

  private static MapValue gvk(GroupVersionKind k) {
    return MapValue.ofEntries("group", Value.of(k.group()), "version", Value.of(k.version()),
        "kind", Value.of(k.kind()));
  }

  private static MapValue gvr(GroupVersionResource r) {
    return MapValue.ofEntries("group", Value.of(r.group()), "version", Value.of(r.version()),
        "resource", Value.of(r.resource()));
  }

  private static MapValue userInfo(UserInfo u) {
    MapValue.Builder b = MapValue.builder(4);
    if (!u.name().isEmpty()) {
      b.put("username", Value.of(u.name()));
    }
    if (!u.uid().isEmpty()) {
      b.put("uid", Value.of(u.uid()));
    }
    if (!u.groups().isEmpty()) {
      b.put("groups", ListValue.of(u.groups().stream().map(Value::of).toList()));
    }
    if (!u.extra().isEmpty()) {
      MapValue.Builder extra = MapValue.builder(u.extra().size());
      u.extra().forEach((k, v) -> extra.put(k, ListValue.of(v.stream().map(Value::of).toList())));
      b.put("extra", extra.build());
    }
    return b.build();
  }
}
