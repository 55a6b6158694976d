/*
 * Copyright The apiserver4j authors.
 * SPDX-License-Identifier: Apache-2.0
 */
package io.apiserver4j.auth.audit;

import io.apiserver4j.admission.AuditAnnotations;
import io.apiserver4j.admission.UserInfo;
import io.apiserver4j.authz.AuditRecorder;
import io.apiserver4j.authz.AuditStart;
import io.apiserver4j.authz.AuthorizationAttributes;
import io.apiserver4j.core.IntegerValue;
import io.apiserver4j.core.ListValue;
import io.apiserver4j.core.MapValue;
import io.apiserver4j.core.Nested;
import io.apiserver4j.core.Value;
import java.time.Clock;
import java.time.Instant;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import java.util.function.Supplier;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * The audit of one request at a level above None: kube's audit context. It collects what the
 * HTTP layer reports and writes a snapshot of the event to the sinks at each stage the policy
 * keeps. Thread-safe (one lock per request).
 */
final class EventRecorder implements AuditRecorder {
  private static final Logger LOG = LoggerFactory.getLogger(EventRecorder.class);

  private final AuditPolicy.Decision decision;
  private final List<AuditSink> sinks;
  private final Clock clock;
  private final AuditStart start;
  private final boolean failedAuthentication;
  private final Map<String, String> annotations = new LinkedHashMap<>();
  private UserInfo impersonated;
  private String impersonationConstraint = "";
  private AuditEvent.ObjectReference objectRef;
  private MapValue responseStatus;
  private Value requestObject;
  private Value responseObject;
  private boolean codeSeen;
  private boolean done;

  private EventRecorder(AuditStart start, AuditPolicy.Decision decision, List<AuditSink> sinks,
      Clock clock) {
    this.start = start;
    this.decision = decision;
    this.sinks = sinks;
    this.clock = clock;
    this.failedAuthentication = start.authenticationFailure().isPresent();
    AuthorizationAttributes a = start.attributes();
    if (a.resourceRequest()) {
      objectRef = new AuditEvent.ObjectReference(a.resource(), a.namespace(), a.name(), "",
          a.apiGroup(), a.apiVersion(), "", a.subresource());
    }
    start.authenticationFailure().ifPresent(message -> responseStatus = status(
        Optional.empty(), Optional.of(message), Optional.empty(), Optional.empty(), 0));
  }

  /**
   * A recorder that has written the RequestReceived event (unless authentication failed: kube
   * audits those by their answer only).
   *
   * @throws RuntimeException from a sink that could not store RequestReceived
   */
  static EventRecorder start(AuditStart start, AuditPolicy.Decision decision,
      List<AuditSink> sinks, Clock clock) {
    EventRecorder r = new EventRecorder(start, decision, sinks, clock);
    if (!r.failedAuthentication) {
      synchronized (r) {
        r.emit(AuditStage.REQUEST_RECEIVED, true);
      }
    }
    return r;
  }

  @Override
  public synchronized void add(String key, String value) {
    AuditAnnotations.checkKey(key);
    String old = annotations.putIfAbsent(key, value);
    if (old != null && !old.equals(value)) {
      LOG.warn("Failed to set annotations[{}] to {} for audit:{}, it has already been set to {}",
          key, value, start.auditId(), old);
    }
  }

  @Override
  public synchronized void impersonated(UserInfo user) {
    impersonated = user;
  }

  @Override
  public synchronized void impersonated(UserInfo user, String constraint) {
    impersonated = user;
    impersonationConstraint = constraint;
  }

  @Override
  public void requestObject(Supplier<Value> decoded) {
    Optional<Value> value = decode(decoded);
    if (value.isEmpty()) {
      return;
    }
    synchronized (this) {
      Value v = value.get();
      if (v instanceof MapValue object && Nested.mapOrNull(object, "metadata") != null) {
        AuditEvent.ObjectReference r = objectRef != null ? objectRef
            : new AuditEvent.ObjectReference("", "", "", "", "", "", "", "");
        objectRef = new AuditEvent.ObjectReference(r.resource(),
            orElse(r.namespace(), Nested.str(object, "metadata", "namespace")),
            orElse(r.name(), Nested.str(object, "metadata", "name")),
            orElse(r.uid(), Nested.str(object, "metadata", "uid")),
            r.apiGroup(), r.apiVersion(),
            orElse(r.resourceVersion(), Nested.str(object, "metadata", "resourceVersion")),
            r.subresource());
      }
      if (decision.level().atLeast(AuditLevel.REQUEST)) {
        requestObject = withoutManagedFields(v);
      }
    }
  }

  @Override
  public void requestPatch(Supplier<Value> decoded) {
    if (!decision.level().atLeast(AuditLevel.REQUEST)) {
      return;
    }
    Optional<Value> value = decode(decoded);
    synchronized (this) {
      value.ifPresent(v -> requestObject = v);
    }
  }

  @Override
  public synchronized void responseObject(Value body) {
    if (done) {
      return;
    }
    if (body instanceof MapValue m && "Status".equals(Nested.str(m, "kind"))
        && "v1".equals(Nested.str(m, "apiVersion"))) {
      MapValue details = Nested.mapOrNull(m, "details");
      Value code = m.getOrNull("code");
      responseStatus = status(nonEmpty(Nested.str(m, "status")),
          nonEmpty(Nested.str(m, "message")), nonEmpty(Nested.str(m, "reason")),
          Optional.ofNullable(details),
          code instanceof IntegerValue i ? i.value() : 0);
    }
    if (decision.level().atLeast(AuditLevel.REQUEST_RESPONSE)) {
      responseObject = withoutManagedFields(body);
    }
  }

  @Override
  public synchronized void responseStarted(int code) {
    if (done || codeSeen) {
      return;
    }
    codeSeen = true;
    responseStatus = withCode(responseStatus, code);
    if (start.longRunning()) {
      emit(AuditStage.RESPONSE_STARTED, false);
    }
  }

  @Override
  public synchronized void complete() {
    if (done || failedAuthentication) {
      done = true;
      return;
    }
    done = true;
    if (responseStatus == null) {
      // kube's stand-in when nothing was written
      responseStatus = status(Optional.of("Success"), Optional.of("Connection closed early"),
          Optional.empty(), Optional.empty(), 200);
      if (start.longRunning()) {
        emit(AuditStage.RESPONSE_STARTED, false);
      }
    }
    emit(AuditStage.RESPONSE_COMPLETE, false);
  }

  @Override
  public synchronized void panic(Throwable failure) {
    if (done) {
      return;
    }
    done = true;
    responseStatus = status(Optional.of("Failure"),
        Optional.of("APIServer panic'd: " + failure), Optional.of("InternalError"),
        Optional.empty(), 500);
    emit(AuditStage.PANIC, false);
  }

  /** Writes the event as it is now; sink failures fail the request only at RequestReceived. */
  private void emit(AuditStage stage, boolean propagate) {
    if (decision.omitStages().contains(stage)) {
      return;
    }
    Instant at = stage == AuditStage.REQUEST_RECEIVED ? start.received() : clock.instant();
    AuthorizationAttributes a = start.attributes();
    AuditEvent event = new AuditEvent(decision.level(), start.auditId(), stage,
        start.requestUri(), a.verb(), a.user(), Optional.ofNullable(impersonated),
        impersonationConstraint.isEmpty() ? Optional.empty()
            : Optional.of(impersonationConstraint),
        start.sourceIps(), start.userAgent(), Optional.ofNullable(objectRef),
        Optional.ofNullable(responseStatus), Optional.ofNullable(requestObject),
        Optional.ofNullable(responseObject), start.received(), at, annotations);
    for (AuditSink sink : sinks) {
      try {
        sink.process(event);
      } catch (RuntimeException e) {
        if (propagate) {
          throw e;
        }
        LOG.error("audit sink {} failed to store the {} event of {}", sink, stage.kubeName(),
            start.auditId(), e);
      }
    }
  }

  private Optional<Value> decode(Supplier<Value> decoded) {
    try {
      return Optional.of(decoded.get());
    } catch (RuntimeException e) {
      // kube logs only bodies that decoded; the request itself reports the decoding error
      return Optional.empty();
    }
  }

  /** kube's {@code copyWithoutManagedFields}: of an object, a list's items, a table's rows. */
  private Value withoutManagedFields(Value v) {
    if (!decision.omitManagedFields() || !(v instanceof MapValue m)) {
      return v;
    }
    MapValue out = m;
    if (Nested.mapOrNull(out, "metadata") != null
        && Nested.map(out, "metadata").getOrNull("managedFields") != null) {
      out = Nested.remove(out, "metadata", "managedFields");
    }
    if (out.getOrNull("items") instanceof ListValue) {
      out = Nested.updateListItems(out, item -> Nested.mapOrNull(item, "metadata") == null
          ? item : Nested.remove(item, "metadata", "managedFields"), "items");
    }
    if ("Table".equals(Nested.str(out, "kind")) && out.getOrNull("rows") instanceof ListValue) {
      out = Nested.updateListItems(out, row -> row.getOrNull("object") instanceof MapValue o
          && Nested.mapOrNull(o, "metadata") != null
          ? Nested.set(row, Nested.remove(o, "metadata", "managedFields"), "object") : row,
          "rows");
    }
    return out;
  }

  /** A metav1.Status as kube copies it into events: no kind, metadata always {}. */
  private static MapValue status(Optional<String> status, Optional<String> message,
      Optional<String> reason, Optional<MapValue> details, long code) {
    MapValue.Builder b = MapValue.builder().put("metadata", MapValue.empty());
    status.ifPresent(s -> b.put("status", Value.of(s)));
    message.ifPresent(s -> b.put("message", Value.of(s)));
    reason.ifPresent(s -> b.put("reason", Value.of(s)));
    details.ifPresent(d -> b.put("details", d));
    if (code != 0) {
      b.put("code", Value.of(code));
    }
    return b.build();
  }

  private static MapValue withCode(MapValue status, int code) {
    MapValue base = status == null ? MapValue.builder().put("metadata", MapValue.empty()).build()
        : status;
    MapValue.Builder b = MapValue.builder();
    for (int i = 0; i < base.size(); i++) {
      if (!base.keyAt(i).equals("code")) {
        b.put(base.keyAt(i), base.valueAt(i));
      }
    }
    return b.put("code", Value.of((long) code)).build();
  }

  private static Optional<String> nonEmpty(String s) {
    return s.isEmpty() ? Optional.empty() : Optional.of(s);
  }

  private static String orElse(String current, String fromObject) {
    return current.isEmpty() ? fromObject : current;
  }
}
