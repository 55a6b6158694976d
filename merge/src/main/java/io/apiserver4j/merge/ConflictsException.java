/*
 * Copyright The apiserver4j authors.
 * SPDX-License-Identifier: Apache-2.0
 */
package io.apiserver4j.merge;

import static java.util.Objects.requireNonNull;

import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.TreeMap;

/**
 * A non-forced apply would change fields owned by other managers; nothing was changed. The
 * message has SMD's format: {@code conflict with "m": .path} for one conflict, otherwise
 * {@code conflicts with "m":} followed by {@code - .path} lines, grouped by sorted manager.
 */
public final class ConflictsException extends RuntimeException {
  private static final long serialVersionUID = 1L;

  private final transient List<Conflict> conflicts;

  /**
   * An exception listing the conflicts, with SMD's message.
   *
   * @param conflicts the conflicts; copied
   * @throws IllegalArgumentException when the list is empty
   */
  public ConflictsException(List<Conflict> conflicts) {
    super(message(requireNonNull(conflicts, "conflicts")));
    if (conflicts.isEmpty()) {
      throw new IllegalArgumentException("a ConflictsException needs at least one conflict");
    }
    this.conflicts = List.copyOf(conflicts);
  }

  /**
   * The conflicts, grouped by manager in the order the updater found them.
   *
   * @return the conflicts, never empty
   */
  public List<Conflict> conflicts() {
    return conflicts;
  }

  private static String message(List<Conflict> conflicts) {
    if (conflicts.size() == 1) {
      return conflicts.get(0).toString();
    }
    Map<String, List<String>> byManager = new TreeMap<>(io.apiserver4j.core.Values::compareStrings);
    for (Conflict c : conflicts) {
      byManager.computeIfAbsent(c.manager(), k -> new ArrayList<>()).add(c.path().toString());
    }
    StringBuilder sb = new StringBuilder();
    byManager.forEach((manager, paths) -> {
      if (sb.length() > 0) {
        sb.append('\n');
      }
      sb.append("conflicts with ").append(io.apiserver4j.core.GoStrings.quote(manager)).append(':');
      for (String p : paths) {
        sb.append("\n- ").append(p);
      }
    });
    return sb.toString();
  }
}
