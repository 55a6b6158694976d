/*
 * Copyright The apiserver4j authors.
 * SPDX-License-Identifier: Apache-2.0
 */
package io.apiserver4j.auth.audit;

import static java.util.Objects.requireNonNull;

import io.apiserver4j.admission.UserInfo;
import io.apiserver4j.core.Json;
import io.apiserver4j.core.ListValue;
import io.apiserver4j.core.MapValue;
import io.apiserver4j.core.Value;
import java.time.Instant;
import java.time.ZoneOffset;
import java.time.format.DateTimeFormatter;
import java.util.Collections;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import java.util.TreeMap;

/**
 * One audit event, kube's {@code audit.k8s.io/v1 Event}; {@link #toValue()} is the object as
 * kube-apiserver writes it (field order, omitted empty fields, microsecond timestamps).
 * Immutable.
 *
 * @param auditId the request's {@code Audit-ID} (one per request, shared by its stages)
 * @param requestUri the path and query as sent
 * @param verb kube's verb, or the lower-case HTTP method of a non-resource request
 * @param user the authenticated user (before impersonation)
 * @param impersonatedUser whom the request ran as, when impersonating
 * @param impersonationConstraint the constrained impersonation verb that allowed
 *     {@code impersonatedUser} (e.g. {@code impersonate:user-info}); empty for legacy
 *     impersonation. Written as {@code authenticationMetadata.impersonationConstraint}.
 * @param sourceIps forwarded-for addresses, then the peer
 * @param userAgent empty when absent
 * @param objectRef the resource of a resource request
 * @param responseStatus a {@code Status} without kind and apiVersion: {@code {metadata:{}, code}}
 *     for successes, with status, message, reason (and details) for failures
 * @param requestObject the request body, at level Request and up
 * @param responseObject the response body, at level RequestResponse
 * @param annotations sorted by key, as Go writes maps
 */
public record AuditEvent(AuditLevel level, String auditId, AuditStage stage, String requestUri,
    String verb, UserInfo user, Optional<UserInfo> impersonatedUser,
    Optional<String> impersonationConstraint, List<String> sourceIps, String userAgent, Optional<ObjectReference> objectRef, Optional<MapValue> responseStatus,
    Optional<Value> requestObject, Optional<Value> responseObject,
    Instant requestReceivedTimestamp, Instant stageTimestamp, Map<String, String> annotations) {

  private static final DateTimeFormatter MICRO_TIME =
      DateTimeFormatter.ofPattern("yyyy-MM-dd'T'HH:mm:ss.SSSSSSXXX").withZone(ZoneOffset.UTC);

  public AuditEvent {
    requireNonNull(level, "level");
    requireNonNull(auditId, "auditId");
    requireNonNull(stage, "stage");
    requireNonNull(requestUri, "requestUri");
    requireNonNull(verb, "verb");
    requireNonNull(user, "user");
    requireNonNull(impersonatedUser, "impersonatedUser");
    requireNonNull(impersonationConstraint, "impersonationConstraint");
    sourceIps = List.copyOf(sourceIps);
    requireNonNull(userAgent, "userAgent");
    requireNonNull(objectRef, "objectRef");
    requireNonNull(responseStatus, "responseStatus");
    requireNonNull(requestObject, "requestObject");
    requireNonNull(responseObject, "responseObject");
    requireNonNull(requestReceivedTimestamp, "requestReceivedTimestamp");
    requireNonNull(stageTimestamp, "stageTimestamp");
    annotations = Collections.unmodifiableMap(new TreeMap<>(annotations));
  }

  /**
   * An event without an impersonation constraint (no or legacy impersonation).
   *
   * @param level see the record component
   * @param auditId see the record component
   * @param stage see the record component
   * @param requestUri see the record component
   * @param verb see the record component
   * @param user see the record component
   * @param impersonatedUser see the record component
   * @param sourceIps see the record component
   * @param userAgent see the record component
   * @param objectRef see the record component
   * @param responseStatus see the record component
   * @param requestObject see the record component
   * @param responseObject see the record component
   * @param requestReceivedTimestamp see the record component
   * @param stageTimestamp see the record component
   * @param annotations see the record component
   */
  public AuditEvent(AuditLevel level, String auditId, AuditStage stage, String requestUri,
      String verb, UserInfo user, Optional<UserInfo> impersonatedUser, List<String> sourceIps,
      String userAgent, Optional<ObjectReference> objectRef, Optional<MapValue> responseStatus,
      Optional<Value> requestObject, Optional<Value> responseObject,
      Instant requestReceivedTimestamp, Instant stageTimestamp, Map<String, String> annotations) {
    this(level, auditId, stage, requestUri, verb, user, impersonatedUser, Optional.empty(),
        sourceIps, userAgent, objectRef, responseStatus, requestObject, responseObject,
        requestReceivedTimestamp, stageTimestamp, annotations);
  }

  /**
   * What a resource request is about, kube's audit {@code ObjectReference}; empty strings are
   * left out of the JSON.
   */
  public record ObjectReference(String resource, String namespace, String name, String uid,
      String apiGroup, String apiVersion, String resourceVersion, String subresource) {
    public ObjectReference {
      requireNonNull(resource, "resource");
      requireNonNull(namespace, "namespace");
      requireNonNull(name, "name");
      requireNonNull(uid, "uid");
      requireNonNull(apiGroup, "apiGroup");
      requireNonNull(apiVersion, "apiVersion");
      requireNonNull(resourceVersion, "resourceVersion");
      requireNonNull(subresource, "subresource");
    }

    MapValue toValue() {
      MapValue.Builder b = MapValue.builder();
      putNonEmpty(b, "resource", resource);
      putNonEmpty(b, "namespace", namespace);
      putNonEmpty(b, "name", name);
      putNonEmpty(b, "uid", uid);
      putNonEmpty(b, "apiGroup", apiGroup);
      putNonEmpty(b, "apiVersion", apiVersion);
      putNonEmpty(b, "resourceVersion", resourceVersion);
      putNonEmpty(b, "subresource", subresource);
      return b.build();
    }
  }

  /** The event as kube-apiserver serializes it ({@code kind: Event}, {@code audit.k8s.io/v1}). */
  public MapValue toValue() {
    MapValue.Builder b = MapValue.builder()
        .put("kind", Value.of("Event"))
        .put("apiVersion", Value.of("audit.k8s.io/v1"))
        .put("level", Value.of(level.kubeName()))
        .put("auditID", Value.of(auditId))
        .put("stage", Value.of(stage.kubeName()))
        .put("requestURI", Value.of(requestUri))
        .put("verb", Value.of(verb))
        .put("user", user(user));
    impersonatedUser.ifPresent(u -> b.put("impersonatedUser", user(u)));
    impersonationConstraint.ifPresent(c -> b.put("authenticationMetadata",
        MapValue.builder().put("impersonationConstraint", Value.of(c)).build()));
    if (!sourceIps.isEmpty()) {
      b.put("sourceIPs", strings(sourceIps));
    }
    putNonEmpty(b, "userAgent", userAgent);
    objectRef.ifPresent(r -> b.put("objectRef", r.toValue()));
    responseStatus.ifPresent(s -> b.put("responseStatus", s));
    requestObject.ifPresent(o -> b.put("requestObject", o));
    responseObject.ifPresent(o -> b.put("responseObject", o));
    b.put("requestReceivedTimestamp", Value.of(microTime(requestReceivedTimestamp)));
    b.put("stageTimestamp", Value.of(microTime(stageTimestamp)));
    if (!annotations.isEmpty()) {
      MapValue.Builder a = MapValue.builder();
      annotations.forEach((k, v) -> a.put(k, Value.of(v)));
      b.put("annotations", a.build());
    }
    return b.build();
  }

  /** One line of kube's JSON audit log: the event and a newline. */
  public String toJsonLine() {
    return Json.write(toValue()) + "\n";
  }

  /** kube's {@code metav1.MicroTime} text: RFC 3339 in UTC with six fractional digits. */
  public static String microTime(Instant t) {
    return MICRO_TIME.format(t);
  }

  /** authentication/v1 UserInfo: every field omitted when empty. */
  private static MapValue user(UserInfo u) {
    MapValue.Builder b = MapValue.builder();
    putNonEmpty(b, "username", u.name());
    putNonEmpty(b, "uid", u.uid());
    if (!u.groups().isEmpty()) {
      b.put("groups", strings(u.groups()));
    }
    if (!u.extra().isEmpty()) {
      MapValue.Builder extra = MapValue.builder();
      new TreeMap<>(u.extra()).forEach((k, v) -> extra.put(k, strings(v)));
      b.put("extra", extra.build());
    }
    return b.build();
  }

  private static ListValue strings(List<String> values) {
    return ListValue.of(values.stream().map(Value::of).toList());
  }

  private static void putNonEmpty(MapValue.Builder b, String key, String value) {
    if (!value.isEmpty()) {
      b.put(key, Value.of(value));
    }
  }
}
