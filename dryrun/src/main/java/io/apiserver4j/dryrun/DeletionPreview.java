/*
 * Copyright The apiserver4j authors.
 * SPDX-License-Identifier: Apache-2.0
 */
package io.apiserver4j.dryrun;

import static java.util.Objects.requireNonNull;

import io.apiserver4j.core.IntegerValue;
import io.apiserver4j.core.ListValue;
import io.apiserver4j.core.MapValue;
import io.apiserver4j.core.Meta;
import io.apiserver4j.core.StringValue;
import io.apiserver4j.core.Value;
import io.apiserver4j.dryrun.DeleteSettings.PropagationPolicy;
import java.time.Instant;
import java.time.OffsetDateTime;
import java.time.format.DateTimeParseException;
import java.time.temporal.ChronoUnit;
import java.util.ArrayList;
import java.util.LinkedHashSet;
import java.util.List;

/**
 * What a delete does to an object, computed without changing anything: the response of a
 * dry-run delete. Follows kube-apiserver's generic registry ({@code BeforeDelete}, finalizer
 * handling, {@code markAsDeleting}):
 *
 * <ul>
 *   <li>No finalizers and no grace period: {@link Outcome#REMOVED}, the object as it is.
 *   <li>Pending finalizers (after the propagation policy added or removed {@code orphan} /
 *       {@code foregroundDeletion}): {@link Outcome#MARKED_FOR_DELETION}, with
 *       {@code deletionTimestamp} now (an earlier one is kept),
 *       {@code deletionGracePeriodSeconds: 0} and {@code generation} + 1 when positive.
 *   <li>Graceful deletion with a positive grace period: {@link Outcome#MARKED_FOR_DELETION}, with
 *       {@code deletionTimestamp} now + grace, {@code deletionGracePeriodSeconds} = grace,
 *       {@code generation} + 1 when positive; a shorter grace on an object already being deleted
 *       gracefully moves its timestamp earlier (never before now).
 *   <li>Graceful deletion already pending and not shortened: {@link Outcome#ALREADY_DELETING},
 *       the object unchanged.
 * </ul>
 * Timestamps have one-second granularity, as {@code metav1.Time}. Without a propagation policy
 * the first of {@code orphan} and {@code foregroundDeletion} present decides (the other is
 * dropped), which is kube's behaviour for resources whose default garbage-collection policy
 * deletes dependents in the background (all but a few legacy ones).
 *
 * @param outcome what the delete does
 * @param object the object a delete returns: its new state, or its current state if removed
 */
public record DeletionPreview(Outcome outcome, MapValue object) {
  /** kube's orphan finalizer. */
  public static final String ORPHAN_FINALIZER = "orphan";
  /** kube's foreground-deletion finalizer. */
  public static final String FOREGROUND_FINALIZER = "foregroundDeletion";

  /** What a delete does. */
  public enum Outcome {
    /** The object would be removed from storage now. */
    REMOVED,
    /** The object would stay, marked as being deleted. */
    MARKED_FOR_DELETION,
    /** A graceful deletion is already under way; nothing would change. */
    ALREADY_DELETING
  }

  /**
   * Checks that no component is null.
   *
   * @param outcome see the record component
   * @param object see the record component
   * @throws NullPointerException when a component is null
   */
  public DeletionPreview {
    requireNonNull(outcome, "outcome");
    requireNonNull(object, "object");
  }

  /**
   * Whether the object would still exist after the delete.
   *
   * @return true unless the outcome is {@link Outcome#REMOVED}
   */
  public boolean objectStays() {
    return outcome != Outcome.REMOVED;
  }

  /**
   * Computes what deleting {@code current} with {@code settings} at {@code now} does.
   *
   * @param current the stored object; not changed
   * @param settings the resource's deletion behaviour and the request's options
   * @param now the time of the delete, truncated to seconds
   * @return the outcome and the object the delete would return
   * @throws IllegalArgumentException if the object's {@code deletionTimestamp} is not RFC 3339
   */
  public static DeletionPreview of(MapValue current, DeleteSettings settings, Instant now) {
    requireNonNull(current, "current");
    requireNonNull(settings, "settings");
    requireNonNull(now, "now");
    Instant second = now.truncatedTo(ChronoUnit.SECONDS);
    MapValue object = current;
    boolean deleting = Meta.hasMeta(object, "deletionTimestamp");
    Long requestedGrace = settings.gracePeriodSeconds().map(g -> g < 0 ? 1L : g).orElse(null);
    boolean graceful = false;
    long lastGrace = 0;

    if (settings.gracefulDeletion()) {
      if (deleting) {
        long existingGrace = existingGrace(object);
        if (existingGrace != 0) {
          if (requestedGrace == null || requestedGrace >= existingGrace) {
            return new DeletionPreview(Outcome.ALREADY_DELETING, current);
          }
          Instant moved = parseTime(Meta.metaString(object, "deletionTimestamp"))
              .minusSeconds(existingGrace).plusSeconds(requestedGrace);
          long period = requestedGrace;
          if (moved.isBefore(second)) {
            moved = second;
            // the whole grace period has passed: keep it graceful with the shortest period
            period = period == 0 ? 0 : 1;
          }
          object = Meta.withMeta(object, "deletionTimestamp", Value.of(format(moved)));
          object = Meta.withMeta(object, "deletionGracePeriodSeconds", Value.of(period));
          graceful = true;
          lastGrace = requestedGrace;
        }
      } else if (requestedGrace != null) {
        object = Meta.withMeta(object, "deletionTimestamp",
            Value.of(format(second.plusSeconds(requestedGrace))));
        object = Meta.withMeta(object, "deletionGracePeriodSeconds", Value.of(requestedGrace));
        object = bumpGeneration(object);
        graceful = true;
        lastGrace = requestedGrace;
      }
    }

    object = applyPropagation(object, settings);
    boolean pendingFinalizers = !finalizers(object).isEmpty();
    if (!graceful) {
      if (!pendingFinalizers) {
        return new DeletionPreview(Outcome.REMOVED, current);
      }
      return new DeletionPreview(Outcome.MARKED_FOR_DELETION, markAsDeleting(object, second));
    }
    // kube writes the graceful marks before it removes the object: the removed object has them
    return new DeletionPreview(pendingFinalizers || lastGrace > 0 ? Outcome.MARKED_FOR_DELETION
        : Outcome.REMOVED, object);
  }

  private static MapValue markAsDeleting(MapValue object, Instant now) {
    MapValue out = object;
    String existing = Meta.metaString(object, "deletionTimestamp");
    if (existing.isEmpty()) {
      out = bumpGeneration(out);
    }
    if (existing.isEmpty() || parseTime(existing).isAfter(now)) {
      out = Meta.withMeta(out, "deletionTimestamp", Value.of(format(now)));
    }
    return Meta.withMeta(out, "deletionGracePeriodSeconds", Value.of(0L));
  }

  private static MapValue applyPropagation(MapValue object, DeleteSettings settings) {
    List<String> existing = finalizers(object);
    List<String> updated = new ArrayList<>();
    for (String f : existing) {
      if (!f.equals(ORPHAN_FINALIZER) && !f.equals(FOREGROUND_FINALIZER)) {
        updated.add(f);
      }
    }
    // Without a policy the first of the two garbage-collection finalizers decides, as kube's
    // shouldOrphanDependents and shouldDeleteDependents read them.
    PropagationPolicy policy = settings.propagationPolicy().orElseGet(() -> existing.stream()
        .filter(f -> f.equals(ORPHAN_FINALIZER) || f.equals(FOREGROUND_FINALIZER)).findFirst()
        .map(f -> f.equals(ORPHAN_FINALIZER) ? PropagationPolicy.ORPHAN
            : PropagationPolicy.FOREGROUND)
        .orElse(PropagationPolicy.BACKGROUND));
    switch (policy) {
      case ORPHAN: updated.add(ORPHAN_FINALIZER); break;
      case FOREGROUND: updated.add(FOREGROUND_FINALIZER); break;
      default: break;
    }
    // kube only rewrites the list when the set of finalizers changes
    if (new LinkedHashSet<>(existing).equals(new LinkedHashSet<>(updated))) {
      return object;
    }
    if (updated.isEmpty()) {
      return Meta.withoutMeta(object, "finalizers");
    }
    return Meta.withMeta(object, "finalizers",
        ListValue.of(updated.stream().map(Value::of).toList()));
  }

  private static List<String> finalizers(MapValue object) {
    List<String> out = new ArrayList<>();
    if (Meta.metadata(object).getOrNull("finalizers") instanceof ListValue l) {
      for (Value v : l.items()) {
        if (v instanceof StringValue s) {
          out.add(s.value());
        }
      }
    }
    return out;
  }

  private static MapValue bumpGeneration(MapValue object) {
    long generation = Meta.generation(object);
    return generation > 0 ? Meta.withMeta(object, "generation", Value.of(generation + 1))
        : object;
  }

  private static long existingGrace(MapValue object) {
    if (Meta.metadata(object).getOrNull("deletionGracePeriodSeconds") instanceof IntegerValue i) {
      return i.value() < 0 ? 1 : i.value();
    }
    return 0;
  }

  private static Instant parseTime(String rfc3339) {
    try {
      return OffsetDateTime.parse(rfc3339).toInstant();
    } catch (DateTimeParseException e) {
      throw new IllegalArgumentException(
          "metadata.deletionTimestamp is not an RFC 3339 time: \"" + rfc3339 + "\"", e);
    }
  }

  /** metav1.Time's JSON form: RFC 3339 in UTC, whole seconds. */
  static String format(Instant instant) {
    return instant.truncatedTo(ChronoUnit.SECONDS).toString();
  }
}
