/*
 * Copyright The apiserver4j authors.
 * SPDX-License-Identifier: Apache-2.0
 */
package io.apiserver4j.cluster.internal;

import io.apiserver4j.admission.UserInfo;
import io.apiserver4j.controllers.internal.ControllerContext;
import io.apiserver4j.core.GroupVersionResource;
import io.apiserver4j.core.MapValue;
import io.apiserver4j.core.Meta;
import io.apiserver4j.core.errors.StatusException;
import java.time.Instant;
import java.util.concurrent.atomic.AtomicLong;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * client-go's {@code events.k8s.io/v1} recorder (tools/events), which kube-scheduler uses: one
 * Event per call named {@code <object>.<hex nanoseconds>}, with {@code reportingController} and
 * {@code reportingInstance}, {@code action} and {@code note}. A failed write is logged and
 * dropped, as the recorder drops what it cannot write. As kube's recorder, {@link #record} makes
 * the Event at the clock's now and hands its write to the runtime's event broadcaster, returning
 * at once; the quiescence wait waits for the write.
 */
public final class EventWriter {
  private static final Logger LOG = LoggerFactory.getLogger(EventWriter.class);
  private static final GroupVersionResource EVENTS =
      new GroupVersionResource("events.k8s.io", "v1", "events");

  private final ControllerContext context;
  private final UserInfo user;
  private final String controller;
  private final String instance;
  private final String fieldManager;
  /** Keeps names unique when the clock stands still, as it does in tests. */
  private final AtomicLong sequence = new AtomicLong();

  /**
   * A writer as {@code user} with field manager {@code fieldManager} for {@code controller}
   * ({@code instance} its running copy).
   */
  public EventWriter(ControllerContext context, UserInfo user, String fieldManager,
      String controller, String instance) {
    this.fieldManager = fieldManager;
    this.context = context;
    this.user = user;
    this.controller = controller;
    this.instance = instance;
  }

  /** Records an Event about {@code regarding} (an object with apiVersion, kind, metadata). */
  public void record(MapValue regarding, String type, String reason, String action,
      String note) {
    record(regarding, java.util.Optional.empty(), type, reason, action, note);
  }

  /**
   * Records an Event about {@code regarding} with the secondary object {@code related} (the
   * Event's {@code related} reference, as client-go's {@code Eventf(regarding, related, ...)}).
   */
  public void record(MapValue regarding, java.util.Optional<MapValue> related, String type,
      String reason, String action, String note) {
    Instant now = context.clock().instant();
    long nanos = now.getEpochSecond() * 1_000_000_000L + now.getNano()
        + sequence.getAndIncrement();
    String namespace = Meta.metaString(regarding, "namespace");
    if (namespace.isEmpty()) {
      namespace = "default";
    }
    MapValue event = Obj.map("apiVersion", "events.k8s.io/v1", "kind", "Event",
        "metadata", Obj.map("name", Meta.metaString(regarding, "name") + "."
            + Long.toHexString(nanos), "namespace", namespace),
        "eventTime", Obj.microTime(now), "reportingController", controller,
        "reportingInstance", instance, "action", action, "reason", reason,
        "regarding", reference(regarding),
        "related", related.map(EventWriter::reference).orElse(null),
        "note", note, "type", type);
    String ns = namespace;
    context.events().submit(() -> {
      try {
        context.api().resources(EVENTS).user(user).fieldManager(fieldManager)
            .namespace(ns).create(event);
      } catch (StatusException e) {
        LOG.warn("could not record the event {} on {}/{}: {}", reason, ns,
            Meta.metaString(regarding, "name"), e.getMessage());
      }
    });
  }

  /** The {@code ObjectReference} of {@code object}. */
  private static MapValue reference(MapValue object) {
    return Obj.map("kind", io.apiserver4j.core.Nested.str(object, "kind"),
        "namespace", Meta.metaString(object, "namespace").isEmpty() ? null
            : Meta.metaString(object, "namespace"),
        "name", Meta.metaString(object, "name"),
        "uid", Meta.metaString(object, "uid"),
        "apiVersion", io.apiserver4j.core.Nested.str(object, "apiVersion"),
        "resourceVersion", Meta.metaString(object, "resourceVersion"));
  }
}
