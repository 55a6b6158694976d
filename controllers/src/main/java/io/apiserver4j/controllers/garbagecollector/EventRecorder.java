/*
 * Copyright The apiserver4j authors.
 * SPDX-License-Identifier: Apache-2.0
 */
package io.apiserver4j.controllers.garbagecollector;

import io.apiserver4j.apiserver.ResourceClient;
import io.apiserver4j.core.GroupVersionResource;
import io.apiserver4j.core.MapValue;
import io.apiserver4j.core.Meta;
import io.apiserver4j.core.Value;
import io.apiserver4j.core.errors.StatusException;
import io.apiserver4j.admission.UserInfo;
import io.apiserver4j.controllers.internal.ControllerContext;
import java.time.Instant;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * client-go's legacy event recorder: one {@code v1} Event per call, named
 * {@code <object>.<hex nanoseconds>} in the object's namespace ({@code default} for
 * cluster-scoped objects), from the given component. A failed write is logged and dropped, as
 * the recorder drops events it cannot write.
 */
final class EventRecorder {
  private static final Logger LOG = LoggerFactory.getLogger(EventRecorder.class);
  private static final GroupVersionResource EVENTS = new GroupVersionResource("", "v1", "events");

  private final ControllerContext context;
  private final UserInfo user;
  private final String component;

  EventRecorder(ControllerContext context, UserInfo user, String component) {
    this.context = context;
    this.user = user;
    this.component = component;
  }

  void warning(ObjectReference about, String reason, String message) {
    record(about, "Warning", reason, message);
  }

  void record(ObjectReference about, String type, String reason, String message) {
    Instant now = context.clock().instant();
    long nanos = now.getEpochSecond() * 1_000_000_000L + now.getNano();
    String namespace = about.namespace().isEmpty() ? "default" : about.namespace();
    String time = Meta.formatTime(now);
    MapValue event = MapValue.ofEntries(
        "apiVersion", Value.of("v1"), "kind", Value.of("Event"),
        "metadata", MapValue.ofEntries("name", Value.of(about.name() + "."
            + Long.toHexString(nanos)), "namespace", Value.of(namespace)),
        "involvedObject", MapValue.ofEntries("kind", Value.of(about.kind()),
            "namespace", Value.of(about.namespace()), "name", Value.of(about.name()),
            "uid", Value.of(about.uid()), "apiVersion", Value.of(about.apiVersion())),
        "reason", Value.of(reason), "message", Value.of(message),
        "source", MapValue.ofEntries("component", Value.of(component)),
        "firstTimestamp", Value.of(time), "lastTimestamp", Value.of(time),
        "count", Value.of(1L), "type", Value.of(type),
        "eventTime", Value.nullValue(), "reportingComponent", Value.of(component),
        "reportingInstance", Value.of(""));
    try {
      ResourceClient events = context.client(EVENTS, user).namespace(namespace);
      events.create(event);
    } catch (StatusException e) {
      LOG.warn("could not record the event {} on {}: {}", reason, about, e.getMessage());
    }
  }
}
