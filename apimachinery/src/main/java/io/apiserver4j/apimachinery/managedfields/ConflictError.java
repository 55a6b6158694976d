/*
 * Copyright The apiserver4j authors.
 * SPDX-License-Identifier: Apache-2.0
 */
package io.apiserver4j.apimachinery.managedfields;

import io.apiserver4j.core.errors.ConflictException;
import io.apiserver4j.core.GoStrings;
import io.apiserver4j.core.Json;
import io.apiserver4j.core.MapValue;
import io.apiserver4j.core.Meta;
import io.apiserver4j.core.errors.Status;
import io.apiserver4j.core.errors.StatusCause;
import io.apiserver4j.core.errors.StatusDetails;
import io.apiserver4j.core.errors.StatusReason;
import io.apiserver4j.core.Value;
import io.apiserver4j.core.Values;
import io.apiserver4j.fieldpath.FieldPath;
import io.apiserver4j.merge.Conflict;
import java.util.ArrayList;
import java.util.List;
import java.util.TreeMap;

/** kube's conflict.go: the 409 of an apply that conflicts with other managers. */
final class ConflictError {
  private ConflictError() {}

  /** kube's {@code NewConflictError}: reason Conflict, one cause per conflicting field. */
  static ConflictException of(List<Conflict> conflicts) {
    List<StatusCause> causes = new ArrayList<>();
    for (Conflict c : conflicts) {
      causes.add(new StatusCause("FieldManagerConflict", "conflict with "
          + printManager(c.manager()), c.path().toString()));
    }
    return new ConflictException(Status.failure(StatusReason.CONFLICT, message(conflicts),
        new StatusDetails("", "", "", "", causes, 0)));
  }

  private static String message(List<Conflict> conflicts) {
    if (conflicts.size() == 1) {
      Conflict c = conflicts.get(0);
      return "Apply failed with 1 conflict: conflict with " + printManager(c.manager()) + ": "
          + c.path();
    }
    TreeMap<String, List<FieldPath>> byManager = new TreeMap<>(Values::compareStrings);
    for (Conflict c : conflicts) {
      byManager.computeIfAbsent(c.manager(), k -> new ArrayList<>()).add(c.path());
    }
    List<String> lines = new ArrayList<>();
    byManager.forEach((m, paths) -> {
      lines.add("conflicts with " + printManager(m) + ":");
      paths.forEach(p -> lines.add("- " + p));
    });
    return "Apply failed with " + conflicts.size() + " conflicts: " + String.join("\n", lines);
  }

  /**
   * kube's {@code printManager}: the name quoted, the subresource, and the version (and time) of
   * an update. Like kube it reads the identifier back; this runs only for a rejected apply.
   */
  static String printManager(String key) {
    Value v;
    try {
      v = Json.read(key);
    } catch (RuntimeException e) {
      return GoStrings.quote(key);
    }
    if (!(v instanceof MapValue m)) {
      return GoStrings.quote(key);
    }
    StringBuilder sb = new StringBuilder(GoStrings.quote(Meta.string(m, "manager")));
    String sub = Meta.string(m, "subresource");
    if (!sub.isEmpty()) {
      sb.append(" with subresource ").append(GoStrings.quote(sub));
    }
    if (Meta.string(m, "operation").equals("Update")) {
      sb.append(" using ").append(Meta.string(m, "apiVersion"));
      String time = Meta.string(m, "time");
      if (!time.isEmpty()) {
        sb.append(" at ").append(time);
      }
    }
    return sb.toString();
  }
}
