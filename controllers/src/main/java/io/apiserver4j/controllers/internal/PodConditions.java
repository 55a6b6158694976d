/*
 * Copyright The apiserver4j authors.
 * SPDX-License-Identifier: Apache-2.0
 */
package io.apiserver4j.controllers.internal;

import io.apiserver4j.core.MapValue;
import io.apiserver4j.core.Meta;
import io.apiserver4j.core.Nested;
import io.apiserver4j.core.Value;
import java.time.Instant;
import java.util.ArrayList;
import java.util.List;
import java.util.Optional;

/** kube's {@code UpdatePodCondition} (pkg/api/v1/pod/util.go) over the API's condition maps. */
public final class PodConditions {
  private PodConditions() {}

  /**
   * The Pod's {@code status.conditions} with {@code condition} (type, status, reason, message)
   * set at {@code now}: appended when the type is new, else replacing the old one, whose
   * {@code lastTransitionTime} is kept when the status did not change; empty when nothing
   * changed (status, reason, message, probe and transition times all equal).
   */
  public static Optional<List<Value>> update(List<Value> conditions, String type, String status,
      String reason, String message, Instant now) {
    List<Value> out = new ArrayList<>(conditions);
    for (int i = 0; i < out.size(); i++) {
      Value old = out.get(i);
      if (!Nested.str(old, "type").equals(type)) {
        continue;
      }
      String transition = Nested.str(old, "status").equals(status)
          ? Nested.str(old, "lastTransitionTime") : Meta.formatTime(now);
      boolean equal = Nested.str(old, "status").equals(status)
          && Nested.str(old, "reason").equals(reason)
          && Nested.str(old, "message").equals(message)
          && Nested.str(old, "lastTransitionTime").equals(transition);
      if (equal) {
        return Optional.empty();
      }
      // the old condition's other fields (probe time, observed generation) stay
      MapValue updated = ((MapValue) old).with("status", Value.of(status))
          .with("lastTransitionTime", Value.of(transition));
      updated = reason.isEmpty() ? updated.without("reason")
          : updated.with("reason", Value.of(reason));
      updated = message.isEmpty() ? updated.without("message")
          : updated.with("message", Value.of(message));
      out.set(i, updated);
      return Optional.of(out);
    }
    MapValue.Builder b = MapValue.builder();
    b.put("type", Value.of(type));
    b.put("status", Value.of(status));
    b.put("lastTransitionTime", Value.of(Meta.formatTime(now)));
    if (!reason.isEmpty()) {
      b.put("reason", Value.of(reason));
    }
    if (!message.isEmpty()) {
      b.put("message", Value.of(message));
    }
    out.add(b.build());
    return Optional.of(out);
  }
}
