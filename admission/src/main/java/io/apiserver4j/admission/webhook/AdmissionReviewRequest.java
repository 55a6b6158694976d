/*
 * Copyright The apiserver4j authors.
 * SPDX-License-Identifier: Apache-2.0
 */
package io.apiserver4j.admission.webhook;

import static java.util.Objects.requireNonNull;

import io.apiserver4j.admission.AdmissionAttributes;
import io.apiserver4j.admission.Operation;
import io.apiserver4j.admission.UserInfo;
import io.apiserver4j.admission.matching.AdmissionRequests;
import io.apiserver4j.admission.matching.Match;
import io.apiserver4j.core.GroupVersionKind;
import io.apiserver4j.core.GroupVersionResource;
import io.apiserver4j.core.MapValue;
import io.apiserver4j.core.Value;
import java.util.Optional;

/**
 * What a webhook is asked: the {@code request} of an admission.k8s.io {@code AdmissionReview}.
 * {@link #toValue()} gives the whole AdmissionReview as it goes over the wire.
 *
 * <p>{@code kind}, {@code resource} and {@code subResource} are what the webhook's rules matched
 * (another version's under matchPolicy Equivalent, with the object converted to it);
 * {@code requestKind}, {@code requestResource} and {@code requestSubResource} the request's own.
 * {@code dryRun} is always set, as kube-apiserver always sends it.
 *
 * @param uid identifies this call; the response must echo it
 * @param object the object (after earlier mutations); absent for DELETE
 * @param oldObject the stored object for UPDATE and DELETE
 * @param options CreateOptions / UpdateOptions / DeleteOptions, or empty
 */
public record AdmissionReviewRequest(
    String uid, GroupVersionKind kind, GroupVersionResource resource, String subResource,
    GroupVersionKind requestKind, GroupVersionResource requestResource,
    String requestSubResource, String name, String namespace, Operation operation,
    UserInfo userInfo, Optional<MapValue> object, Optional<MapValue> oldObject, boolean dryRun,
    MapValue options) {

  /** The AdmissionReview versions kube-apiserver can send, in its order of preference. */
  static final String V1 = "v1";
  static final String V1BETA1 = "v1beta1";

  /**
   * Checks that no component is null.
   *
   * @param uid see the record component
   * @param kind see the record component
   * @param resource see the record component
   * @param subResource see the record component
   * @param requestKind see the record component
   * @param requestResource see the record component
   * @param requestSubResource see the record component
   * @param name see the record component
   * @param namespace see the record component
   * @param operation see the record component
   * @param userInfo see the record component
   * @param object see the record component
   * @param oldObject see the record component
   * @param dryRun see the record component
   * @param options see the record component
   * @throws NullPointerException when a component is null
   */
  public AdmissionReviewRequest {
    requireNonNull(uid, "uid");
    requireNonNull(kind, "kind");
    requireNonNull(resource, "resource");
    requireNonNull(subResource, "subResource");
    requireNonNull(requestKind, "requestKind");
    requireNonNull(requestResource, "requestResource");
    requireNonNull(requestSubResource, "requestSubResource");
    requireNonNull(name, "name");
    requireNonNull(namespace, "namespace");
    requireNonNull(operation, "operation");
    requireNonNull(userInfo, "userInfo");
    requireNonNull(object, "object");
    requireNonNull(oldObject, "oldObject");
    requireNonNull(options, "options");
  }

  /** The request for {@code attributes} matched as {@code match}, with the objects to send. */
  static AdmissionReviewRequest of(String uid, AdmissionAttributes a, Match match,
      Optional<MapValue> object, Optional<MapValue> oldObject) {
    return new AdmissionReviewRequest(uid, match.kind(), match.resource(), match.subresource(),
        a.kind(), a.resource(), a.subresource(), a.name(), a.namespace(), a.operation(),
        a.userInfo(), object, oldObject, a.isDryRun(), a.options());
  }

  /** The request for {@code attributes} as they are (no equivalent match). */
  static AdmissionReviewRequest of(
      String uid, AdmissionAttributes attributes, Optional<MapValue> object) {
    return of(uid, attributes, new Match(attributes.resource(), attributes.subresource(),
        attributes.kind()), object, attributes.oldObject());
  }

  /**
   * The admission.k8s.io/v1 AdmissionReview carrying this request.
   *
   * @return the review as a map
   */
  public MapValue toValue() {
    return toValue(V1);
  }

  /**
   * The AdmissionReview of version {@code reviewVersion} ({@code v1} or {@code v1beta1}, which
   * share the request's shape) carrying this request, with Go's field order and omissions.
   *
   * @param reviewVersion {@code v1} or {@code v1beta1}
   * @return the review as a map
   */
  public MapValue toValue(String reviewVersion) {
    MapValue.Builder r = MapValue.builder(20)
        .put("uid", Value.of(uid))
        .put("kind", AdmissionRequests.gvk(kind))
        .put("resource", AdmissionRequests.gvr(resource));
    if (!subResource.isEmpty()) {
      r.put("subResource", Value.of(subResource));
    }
    r.put("requestKind", AdmissionRequests.gvk(requestKind))
        .put("requestResource", AdmissionRequests.gvr(requestResource));
    if (!requestSubResource.isEmpty()) {
      r.put("requestSubResource", Value.of(requestSubResource));
    }
    if (!name.isEmpty()) {
      r.put("name", Value.of(name));
    }
    if (!namespace.isEmpty()) {
      r.put("namespace", Value.of(namespace));
    }
    r.put("operation", Value.of(operation.wireName()))
        .put("userInfo", AdmissionRequests.userInfo(userInfo))
        .put("object", object.<Value>map(o -> o).orElse(Value.nullValue()))
        .put("oldObject", oldObject.<Value>map(o -> o).orElse(Value.nullValue()))
        .put("dryRun", Value.of(dryRun))
        .put("options", options.isEmpty() ? Value.nullValue() : options);
    return MapValue.builder(3)
        .put("kind", Value.of("AdmissionReview"))
        .put("apiVersion", Value.of("admission.k8s.io/" + reviewVersion))
        .put("request", r.build())
        .build();
  }
}
