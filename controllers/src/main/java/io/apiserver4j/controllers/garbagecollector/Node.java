/*
 * Copyright The apiserver4j authors.
 * SPDX-License-Identifier: Apache-2.0
 */
package io.apiserver4j.controllers.garbagecollector;

import java.util.ArrayList;
import java.util.LinkedHashSet;
import java.util.List;
import java.util.Set;

/**
 * A vertex of the dependency graph (kube's {@code node}): an object, or a "virtual" owner known
 * only from its dependents' references until an informer observes it. Compared by identity, as
 * kube's queues hold node pointers. Every field is guarded by the graph's lock.
 */
final class Node {
  ObjectReference identity;
  final Set<Node> dependents = new LinkedHashSet<>();
  List<OwnerReference> owners;
  boolean beingDeleted;
  boolean deletingDependents;
  /** Not observed through an informer yet. */
  boolean virtual;

  Node(ObjectReference identity, List<OwnerReference> owners, boolean virtual) {
    this.identity = identity;
    this.owners = List.copyOf(owners);
    this.virtual = virtual;
  }

  /** A copy with the same dependents and state (kube replaces a virtual node by a clone). */
  Node copy() {
    Node n = new Node(identity, owners, virtual);
    n.dependents.addAll(dependents);
    n.beingDeleted = beingDeleted;
    n.deletingDependents = deletingDependents;
    return n;
  }

  /** The dependents whose reference to this node blocks its deletion. */
  List<Node> blockingDependents() {
    List<Node> out = new ArrayList<>();
    for (Node d : dependents) {
      for (OwnerReference r : d.owners) {
        if (r.uid().equals(identity.uid()) && r.blocks()) {
          out.add(d);
          break;
        }
      }
    }
    return out;
  }

  @Override
  public String toString() {
    return identity.toString();
  }
}
