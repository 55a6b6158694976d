/*
 * Copyright The apiserver4j authors.
 * SPDX-License-Identifier: Apache-2.0
 */
package io.apiserver4j.controllers.internal;

import static java.util.Objects.requireNonNull;

import io.apiserver4j.core.labels.LabelSelector;
import io.apiserver4j.core.MapValue;
import io.apiserver4j.core.Meta;
import io.apiserver4j.core.Nested;
import java.time.Duration;
import java.util.Optional;
import java.util.function.Function;

/**
 * The Pod event handler of kube's workload controllers (ReplicaSet's, DaemonSet's and
 * StatefulSet's {@code addPod}, {@code updatePod} and {@code deletePod}): a Pod's change queues
 * the owner its controllerRef names (resolved in the owners' cache, same UID), or, for an
 * orphan, every owner whose selector matches it so one can adopt it; creations and deletions
 * are recorded in the owner's {@link Expectations} where the controller keeps them; a Pod that
 * turns Ready queues its owner again after {@code minReadySeconds} so availability is counted.
 *
 * <p>The three controllers differ in small ways kube has, each a builder setting.
 */
public final class OwnedPodHandler implements ResourceEventHandler {
  /** What an update to a Pod being deleted does. */
  public enum TerminatingUpdate {
    /** Handled as any update (StatefulSet). */
    AS_UPDATE,
    /** Handled as the Pod's deletion (DaemonSet). */
    AS_DELETE,
    /** As the Pod's deletion, and also the old state's when the labels changed (ReplicaSet). */
    AS_DELETE_OF_BOTH_IF_RELABELLED
  }

  private final Informer owners;
  private final String ownerKind;
  private final WorkQueue<String> queue;
  private final Function<MapValue, Optional<LabelSelector>> selector;
  private final Expectations expectations;
  private final TerminatingUpdate terminatingUpdate;
  private final Duration readyMargin;

  private OwnedPodHandler(Builder b) {
    this.owners = b.owners;
    this.ownerKind = b.ownerKind;
    this.queue = b.queue;
    this.selector = b.selector;
    this.expectations = b.expectations;
    this.terminatingUpdate = b.terminatingUpdate;
    this.readyMargin = b.readyMargin;
  }

  /**
   * A handler for the Pods owned by objects of {@code ownerKind} held by {@code owners}, queueing
   * their {@code namespace/name} keys on {@code queue}.
   */
  public static Builder builder(Informer owners, String ownerKind, WorkQueue<String> queue) {
    return new Builder(owners, ownerKind, queue);
  }

  @Override
  public void onAdd(MapValue pod) {
    if (Nested.has(pod, "metadata", "deletionTimestamp")) {
      // a restarted informer can list a Pod already being deleted
      onDelete(pod);
      return;
    }
    Optional<MapValue> ref = Pods.controllerRef(pod);
    if (ref.isPresent()) {
      resolve(Meta.metaString(pod, "namespace"), ref.get()).ifPresent(owner -> {
        String key = Pods.key(owner);
        if (expectations != null) {
          expectations.creationObserved(key);
        }
        queue.add(key);
      });
      return;
    }
    queueMatchingOwners(pod);
  }

  @Override
  public void onUpdate(MapValue old, MapValue pod) {
    if (Meta.metaString(old, "resourceVersion").equals(Meta.metaString(pod, "resourceVersion"))) {
      // a resync: nothing changed
      return;
    }
    boolean labelsChanged = !Meta.labels(old).equals(Meta.labels(pod));
    if (terminatingUpdate != TerminatingUpdate.AS_UPDATE
        && Nested.has(pod, "metadata", "deletionTimestamp")) {
      // graceful deletion: the Pod counts as gone now, so a replacement starts at once
      onDelete(pod);
      if (labelsChanged && terminatingUpdate == TerminatingUpdate.AS_DELETE_OF_BOTH_IF_RELABELLED) {
        onDelete(old);
      }
      return;
    }
    Optional<MapValue> oldRef = Pods.controllerRef(old);
    Optional<MapValue> ref = Pods.controllerRef(pod);
    boolean refChanged = !oldRef.equals(ref);
    if (refChanged && oldRef.isPresent()) {
      resolve(Meta.metaString(old, "namespace"), oldRef.get())
          .ifPresent(owner -> queue.add(Pods.key(owner)));
    }
    if (ref.isPresent()) {
      resolve(Meta.metaString(pod, "namespace"), ref.get()).ifPresent(owner -> {
        String key = Pods.key(owner);
        queue.add(key);
        long minReady = Nested.integer(owner, "spec", "minReadySeconds");
        if (!Pods.ready(old) && Pods.ready(pod) && minReady > 0) {
          queue.addAfter(key, Duration.ofSeconds(minReady).plus(readyMargin));
        }
      });
      return;
    }
    if (labelsChanged || refChanged) {
      queueMatchingOwners(pod);
    }
  }

  @Override
  public void onDelete(MapValue pod) {
    Pods.controllerRef(pod).flatMap(r -> resolve(Meta.metaString(pod, "namespace"), r))
        .ifPresent(owner -> {
          String key = Pods.key(owner);
          if (expectations != null) {
            expectations.deletionObserved(key, Pods.key(pod));
          }
          queue.add(key);
        });
  }

  private Optional<MapValue> resolve(String namespace, MapValue ref) {
    return owners.resolveControllerRef(namespace, ref, ownerKind);
  }

  private void queueMatchingOwners(MapValue pod) {
    for (MapValue owner : owners.selecting(pod, selector)) {
      queue.add(Pods.key(owner));
    }
  }

  /** Builds an {@link OwnedPodHandler}; by default it has the StatefulSet controller's ways. */
  public static final class Builder {
    private final Informer owners;
    private final String ownerKind;
    private final WorkQueue<String> queue;
    private Function<MapValue, Optional<LabelSelector>> selector = Informer::specSelector;
    private Expectations expectations;
    private TerminatingUpdate terminatingUpdate = TerminatingUpdate.AS_UPDATE;
    private Duration readyMargin = Duration.ZERO;

    private Builder(Informer owners, String ownerKind, WorkQueue<String> queue) {
      this.owners = requireNonNull(owners, "owners");
      this.ownerKind = requireNonNull(ownerKind, "ownerKind");
      this.queue = requireNonNull(queue, "queue");
    }

    /** How an owner selects Pods (default: its {@code spec.selector} as a label selector). */
    public Builder selector(Function<MapValue, Optional<LabelSelector>> selector) {
      this.selector = requireNonNull(selector, "selector");
      return this;
    }

    /** The owners' expectations, told of every Pod creation and deletion observed. */
    public Builder expectations(Expectations expectations) {
      this.expectations = requireNonNull(expectations, "expectations");
      return this;
    }

    /** What an update to a Pod being deleted does (default: handled as any update). */
    public Builder terminatingUpdate(TerminatingUpdate terminatingUpdate) {
      this.terminatingUpdate = requireNonNull(terminatingUpdate, "terminatingUpdate");
      return this;
    }

    /**
     * Added to {@code minReadySeconds} before a Pod that turned Ready queues its owner again
     * (kube's ReplicaSet and DaemonSet controllers add a second so the Pod is available then).
     */
    public Builder readyMargin(Duration readyMargin) {
      this.readyMargin = requireNonNull(readyMargin, "readyMargin");
      return this;
    }

    /** The handler. */
    public OwnedPodHandler build() {
      return new OwnedPodHandler(this);
    }
  }
}
