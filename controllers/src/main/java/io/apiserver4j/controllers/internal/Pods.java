/*
 * Copyright The apiserver4j authors.
 * SPDX-License-Identifier: Apache-2.0
 */
package io.apiserver4j.controllers.internal;

import io.apiserver4j.core.MapValue;
import io.apiserver4j.core.Meta;
import io.apiserver4j.core.Nested;
import io.apiserver4j.core.Value;
import java.time.Duration;
import java.time.Instant;
import java.util.Optional;

/** kube's Pod predicates (pkg/api/v1/pod and pkg/controller's controller_utils) on Pod values. */
public final class Pods {
  private Pods() {}

  /** {@code IsPodActive}: not Succeeded, not Failed, not being deleted. */
  public static boolean active(MapValue pod) {
    String phase = Nested.str(pod, "status", "phase");
    return !phase.equals("Succeeded") && !phase.equals("Failed")
        && !Nested.has(pod, "metadata", "deletionTimestamp");
  }

  /** {@code IsPodReady}: the Ready condition is True. */
  public static boolean ready(MapValue pod) {
    return readyCondition(pod).map(c -> Nested.str(c, "status").equals("True")).orElse(false);
  }

  /** The Ready condition's last transition of a ready Pod, if it has one. */
  public static Optional<Instant> readySince(MapValue pod) {
    if (!ready(pod)) {
      return Optional.empty();
    }
    return readyCondition(pod).flatMap(c -> time(c, "lastTransitionTime"));
  }

  /**
   * {@code IsPodAvailable}: ready, and for at least {@code minReadySeconds} (a Pod ready since
   * an unknown time counts when {@code minReadySeconds} is 0 only).
   */
  public static boolean available(MapValue pod, long minReadySeconds, Instant now) {
    if (!ready(pod)) {
      return false;
    }
    if (minReadySeconds == 0) {
      return true;
    }
    Optional<Instant> since = readyCondition(pod).flatMap(c -> time(c, "lastTransitionTime"));
    return since.isPresent()
        && since.get().plus(Duration.ofSeconds(minReadySeconds)).isBefore(now);
  }

  private static Optional<MapValue> readyCondition(MapValue pod) {
    for (Value c : Nested.list(pod, "status", "conditions")) {
      if (Nested.str(c, "type").equals("Ready") && c instanceof MapValue m) {
        return Optional.of(m);
      }
    }
    return Optional.empty();
  }

  /** The RFC 3339 time at {@code path}, empty when absent or malformed. */
  public static Optional<Instant> time(Value v, String... path) {
    String s = Nested.str(v, path);
    if (s.isEmpty()) {
      return Optional.empty();
    }
    try {
      return Optional.of(Instant.parse(s));
    } catch (java.time.format.DateTimeParseException e) {
      return Optional.empty();
    }
  }

  /** The Pod's owner reference with {@code controller: true}, if any. */
  public static Optional<MapValue> controllerRef(MapValue pod) {
    for (Value r : Nested.list(pod, "metadata", "ownerReferences")) {
      if (Nested.bool(r, "controller") && r instanceof MapValue m) {
        return Optional.of(m);
      }
    }
    return Optional.empty();
  }

  /** {@code namespace/name}: the key of a namespaced object. */
  public static String key(MapValue object) {
    return Meta.metaString(object, "namespace") + "/" + Meta.metaString(object, "name");
  }
}
