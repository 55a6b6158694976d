/*
 * Copyright The apiserver4j authors.
 * SPDX-License-Identifier: Apache-2.0
 */
package io.apiserver4j.controllers.internal;

import io.apiserver4j.core.MapValue;
import io.apiserver4j.core.Meta;
import java.util.function.Consumer;

/**
 * client-go's {@code ResourceEventHandler}: what an informer tells a controller. Called on the
 * informer's thread, one call at a time per informer, under its lock: implementations only
 * record or queue work, never call the server.
 */
public interface ResourceEventHandler {
  /** {@code object} appeared (first list included). */
  void onAdd(MapValue object);

  /** {@code object} changed from {@code old}. */
  void onUpdate(MapValue old, MapValue object);

  /** {@code object} (its last state known) is gone. */
  void onDelete(MapValue object);

  /**
   * A handler that passes every object added or changed (its new state) to {@code changed} and
   * every object deleted (its last state known) to {@code deleted}.
   */
  static ResourceEventHandler of(Consumer<MapValue> changed, Consumer<MapValue> deleted) {
    return new ResourceEventHandler() {
      @Override
      public void onAdd(MapValue object) {
        changed.accept(object);
      }

      @Override
      public void onUpdate(MapValue old, MapValue object) {
        changed.accept(object);
      }

      @Override
      public void onDelete(MapValue object) {
        deleted.accept(object);
      }
    };
  }

  /**
   * A handler that queues the {@code namespace/name} key of every object added, changed or
   * deleted: what most controllers do with their own kind's events.
   */
  static ResourceEventHandler enqueueing(WorkQueue<String> queue) {
    return of(o -> queue.add(Pods.key(o)), o -> queue.add(Pods.key(o)));
  }

  /**
   * A handler that queues the name of every cluster-scoped object added, changed or deleted.
   */
  static ResourceEventHandler enqueueingNames(WorkQueue<String> queue) {
    return of(o -> queue.add(Meta.metaString(o, "name")),
        o -> queue.add(Meta.metaString(o, "name")));
  }
}
