/*
 * Copyright The apiserver4j authors.
 * SPDX-License-Identifier: Apache-2.0
 */
package io.apiserver4j.controllers.internal;

import static java.util.Objects.requireNonNull;

import io.apiserver4j.admission.UserInfo;
import io.apiserver4j.apiserver.ResourceClient;
import io.apiserver4j.core.GroupVersionResource;
import io.apiserver4j.core.MapValue;
import io.apiserver4j.core.Meta;
import io.apiserver4j.core.Value;
import io.apiserver4j.core.errors.StatusException;
import java.time.Instant;
import java.util.concurrent.atomic.AtomicLong;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * client-go's legacy event recorder (tools/record): one {@code v1} Event per call, named
 * {@code <object>.<hex nanoseconds>} (kept increasing per recorder) in the object's namespace ({@code default} for
 * cluster-scoped objects), from the given component, written as the controller's user. A failed
 * write is logged and dropped, as the recorder drops events it cannot write. Thread-safe.
 */
public final class EventRecorder {
  private static final Logger LOG = LoggerFactory.getLogger(EventRecorder.class);
  private static final GroupVersionResource EVENTS = new GroupVersionResource("", "v1", "events");
  /** client-go's {@code v1.EventTypeNormal}. */
  public static final String NORMAL = "Normal";
  /** client-go's {@code v1.EventTypeWarning}. */
  public static final String WARNING = "Warning";

  private final ControllerContext context;
  private final UserInfo user;
  private final String component;
  /**
   * The last nanosecond stamp used in a name: on a clock that stands still (a test's), two
   * events about one object would otherwise get the same name and the second would be lost.
   */
  private final AtomicLong lastNanos = new AtomicLong(Long.MIN_VALUE);

  /** A recorder writing as {@code user} with source component {@code component}. */
  public EventRecorder(ControllerContext context, UserInfo user, String component) {
    this.context = requireNonNull(context, "context");
    this.user = requireNonNull(user, "user");
    this.component = requireNonNull(component, "component");
  }

  /**
   * The object an event is about, as client-go's {@code GetReference} makes it
   * ({@code resourceVersion} empty when unknown, and then left out).
   */
  public record InvolvedObject(String apiVersion, String kind, String namespace, String name,
      String uid, String resourceVersion) {
    /** The reference to a stored object of that apiVersion and kind. */
    public static InvolvedObject of(String apiVersion, String kind, MapValue object) {
      return new InvolvedObject(apiVersion, kind, Meta.metaString(object, "namespace"),
          Meta.metaString(object, "name"), Meta.metaString(object, "uid"),
          Meta.metaString(object, "resourceVersion"));
    }
  }

  /** Records a {@code Warning} event. */
  public void warning(InvolvedObject about, String reason, String message) {
    record(about, WARNING, reason, message);
  }

  /** Records a {@code Normal} event. */
  public void normal(InvolvedObject about, String reason, String message) {
    record(about, NORMAL, reason, message);
  }

  /** Records an event of {@code type} at the server clock's now. */
  public void record(InvolvedObject about, String type, String reason, String message) {
    Instant now = context.clock().instant();
    long clockNanos = now.getEpochSecond() * 1_000_000_000L + now.getNano();
    long nanos = lastNanos.accumulateAndGet(clockNanos, (last, t) -> Math.max(last + 1, t));
    String namespace = about.namespace().isEmpty() ? "default" : about.namespace();
    String time = Meta.formatTime(now);
    MapValue.Builder involved = MapValue.builder();
    involved.put("kind", Value.of(about.kind()));
    involved.put("namespace", Value.of(about.namespace()));
    involved.put("name", Value.of(about.name()));
    involved.put("uid", Value.of(about.uid()));
    involved.put("apiVersion", Value.of(about.apiVersion()));
    if (!about.resourceVersion().isEmpty()) {
      involved.put("resourceVersion", Value.of(about.resourceVersion()));
    }
    MapValue event = MapValue.ofEntries(
        "apiVersion", Value.of("v1"), "kind", Value.of("Event"),
        "metadata", MapValue.ofEntries("name", Value.of(about.name() + "."
            + Long.toHexString(nanos)), "namespace", Value.of(namespace)),
        "involvedObject", involved.build(),
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
      // the recorder's broadcaster drops what it cannot write; the controller goes on
      LOG.warn("could not record the event {} on {}/{}: {}", reason, about.namespace(),
          about.name(), e.getMessage());
    }
  }
}
