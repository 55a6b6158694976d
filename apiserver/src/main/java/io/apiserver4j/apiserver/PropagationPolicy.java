/*
 * Copyright The apiserver4j authors.
 * SPDX-License-Identifier: Apache-2.0
 */
package io.apiserver4j.apiserver;

/**
 * kube's {@code DeleteOptions.propagationPolicy}: what happens to the dependents of a deleted
 * object (the objects whose {@code ownerReferences} name it).
 */
public enum PropagationPolicy {
  /** The dependents stay, with the owner reference removed. */
  ORPHAN("Orphan"),
  /** The owner goes at once; the garbage collector deletes the dependents afterwards. */
  BACKGROUND("Background"),
  /**
   * The owner stays, with the {@code foregroundDeletion} finalizer, until the garbage collector
   * has deleted the dependents that block it.
   */
  FOREGROUND("Foreground");

  private final String wireName;

  PropagationPolicy(String wireName) {
    this.wireName = wireName;
  }

  /** The value on the wire, e.g. {@code Orphan}. */
  public String wireName() {
    return wireName;
  }

  /**
   * The policy of a wire name.
   *
   * @throws IllegalArgumentException naming the value when it is none of kube's three
   */
  public static PropagationPolicy fromWireName(String name) {
    for (PropagationPolicy p : values()) {
      if (p.wireName.equals(name)) {
        return p;
      }
    }
    throw new IllegalArgumentException("unknown propagation policy \"" + name
        + "\"; expected Orphan, Background or Foreground");
  }
}
