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
import io.apiserver4j.core.Nested;
import io.apiserver4j.core.Value;
import io.apiserver4j.apimachinery.patch.PatchType;
import io.apiserver4j.core.Json;
import io.apiserver4j.core.errors.AlreadyExistsException;
import io.apiserver4j.core.errors.NotFoundException;
import io.apiserver4j.core.errors.StatusException;
import java.time.Instant;
import java.util.Optional;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * client-go's legacy event recorder (tools/record) with its sink's {@link EventCorrelator}: a
 * {@code v1} Event named {@code <object>.<hex nanoseconds>} (kept increasing per recorder) in the
 * object's namespace ({@code default} for cluster-scoped objects), from the given component,
 * written as the controller's user; a repeat of an event is a patch of the first one's
 * {@code count}, {@code lastTimestamp} and {@code message}, similar events within 10 minutes
 * are combined, and a source's events about one object are rate-limited, all on the server
 * clock as kube's correlator does on its clock. A failed write is logged and dropped, as the
 * recorder drops events it cannot write. As kube's recorder, {@link #record} only makes the
 * Event (its name and timestamps, at the clock's now) and hands it to the manager's
 * {@link EventBroadcaster}; correlation and the write happen on the broadcaster's worker, so a
 * sync never waits for them, and the manager's quiescence wait waits for them. Thread-safe.
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
  private final EventCorrelator correlator;
  /**
   * The last nanosecond stamp used in a name: on a clock that stands still (a test's), two
   * events about one object would otherwise get the same name and the second would be lost.
   * Guarded by this.
   */
  private long lastNanos = Long.MIN_VALUE;

  /** A recorder writing as {@code user} with source component {@code component}. */
  public EventRecorder(ControllerContext context, UserInfo user, String component) {
    this.context = requireNonNull(context, "context");
    this.user = requireNonNull(user, "user");
    this.component = requireNonNull(component, "component");
    this.correlator = new EventCorrelator(context.clock());
    context.onReset(this::forget);
  }

  /** Forgets every event recorded so far, as a new recorder: a reset in place deleted them. */
  private synchronized void forget() {
    correlator.clear();
    lastNanos = Long.MIN_VALUE;
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

  /**
   * Records an event of {@code type} at the server clock's now: queues it for the broadcaster
   * (kube's {@code generateEvent} and {@code ActionOrDrop}) and returns without waiting.
   */
  public void record(InvolvedObject about, String type, String reason, String message) {
    requireNonNull(about, "about");
    requireNonNull(type, "type");
    requireNonNull(reason, "reason");
    requireNonNull(message, "message");
    Instant now = context.clock().instant();
    String name = freshName(about, now);
    EventCorrelator.Event event = new EventCorrelator.Event(component, about, type, reason,
        message, name, now, now, 1);
    context.events().submit(() -> write(event));
  }

  /**
   * kube's {@code recordToSink}: correlates the event and creates or patches it. Runs on the
   * broadcaster's one worker, which keeps the correlator on one thread.
   */
  private void write(EventCorrelator.Event event) {
    InvolvedObject about = event.about();
    String name = event.name();
    String type = event.type();
    String reason = event.reason();
    // an aggregate event takes the name this one would have had, as kube's has the same stamp
    Optional<EventCorrelator.Result> result = correlator.correlate(event, name);
    if (result.isEmpty()) {
      return;
    }
    EventCorrelator.Event toWrite = result.get().event();
    String namespace = about.namespace().isEmpty() ? "default" : about.namespace();
    try {
      ResourceClient events = context.client(EVENTS, user).namespace(namespace);
      MapValue stored = null;
      if (result.get().existing().isPresent()) {
        MapValue patch = MapValue.ofEntries("count", Value.of(toWrite.count()),
            "lastTimestamp", Value.of(Meta.formatTime(toWrite.lastTimestamp())),
            "message", Value.of(toWrite.message()));
        try {
          stored = events.patch(toWrite.name(), PatchType.STRATEGIC_MERGE_PATCH,
              Json.write(patch));
        } catch (NotFoundException gone) {
          // someone deleted the first one: kube creates it again, count and all
        }
      }
      if (stored == null) {
        stored = createUniquelyNamed(events, toWrite, about, namespace);
      }
      correlator.updateState(new EventCorrelator.Event(component, about, type, reason,
          toWrite.message(), Meta.metaString(stored, "name"), toWrite.firstTimestamp(),
          toWrite.lastTimestamp(), Nested.integer(stored, "count")));
    } catch (StatusException e) {
      // the recorder's broadcaster drops what it cannot write; the controller goes on
      LOG.warn("could not record the event {} on {}/{}: {}", reason, about.namespace(),
          about.name(), e.getMessage());
    }
  }

  /**
   * Creates the event; when another recorder (another controller, on the same standing clock)
   * took its name, under the next free name, as kube's nanosecond stamps would differ.
   */
  private MapValue createUniquelyNamed(ResourceClient events, EventCorrelator.Event event,
      InvolvedObject about, String namespace) {
    EventCorrelator.Event e = event;
    for (int attempt = 0; ; attempt++) {
      try {
        return events.create(eventObject(e, namespace));
      } catch (AlreadyExistsException taken) {
        if (attempt >= 100) {
          throw taken;
        }
        e = new EventCorrelator.Event(e.component(), e.about(), e.type(), e.reason(),
            e.message(), freshName(about, context.clock().instant()), e.firstTimestamp(),
            e.lastTimestamp(), e.count());
      }
    }
  }

  /** kube's {@code <name>.<hex UnixNano>}, one nanosecond on when the clock has not moved. */
  private synchronized String freshName(InvolvedObject about, Instant now) {
    long clockNanos = now.getEpochSecond() * 1_000_000_000L + now.getNano();
    lastNanos = Math.max(lastNanos + 1, clockNanos);
    return about.name() + "." + Long.toHexString(lastNanos);
  }

  private MapValue eventObject(EventCorrelator.Event e, String namespace) {
    InvolvedObject about = e.about();
    MapValue.Builder involved = MapValue.builder();
    involved.put("kind", Value.of(about.kind()));
    involved.put("namespace", Value.of(about.namespace()));
    involved.put("name", Value.of(about.name()));
    involved.put("uid", Value.of(about.uid()));
    involved.put("apiVersion", Value.of(about.apiVersion()));
    if (!about.resourceVersion().isEmpty()) {
      involved.put("resourceVersion", Value.of(about.resourceVersion()));
    }
    return MapValue.ofEntries(
        "apiVersion", Value.of("v1"), "kind", Value.of("Event"),
        "metadata", MapValue.ofEntries("name", Value.of(e.name()),
            "namespace", Value.of(namespace)),
        "involvedObject", involved.build(),
        "reason", Value.of(e.reason()), "message", Value.of(e.message()),
        "source", MapValue.ofEntries("component", Value.of(component)),
        "firstTimestamp", Value.of(Meta.formatTime(e.firstTimestamp())),
        "lastTimestamp", Value.of(Meta.formatTime(e.lastTimestamp())),
        "count", Value.of(e.count()), "type", Value.of(e.type()),
        "eventTime", Value.nullValue(), "reportingComponent", Value.of(component),
        "reportingInstance", Value.of(""));
  }
}
