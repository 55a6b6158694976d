/*
 * Copyright The apiserver4j authors.
 * SPDX-License-Identifier: Apache-2.0
 */
package io.apiserver4j.apiserver.internal;

import io.apiserver4j.apiserver.informer.CommitListener;
import io.apiserver4j.apiserver.ResourceDefinition;
import io.apiserver4j.core.MapValue;
import io.apiserver4j.core.Meta;
import io.apiserver4j.storage.ObjectKey;
import java.util.Optional;
import java.util.concurrent.CopyOnWriteArrayList;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * Told of every write that reached storage, after it did: how the server's controllers (CRD
 * naming and finalization, namespace finalization) follow what clients write. Never told of a
 * dry run.
 */
@FunctionalInterface
interface WriteListener {
  WriteListener NONE = (def, outcome) -> { };

  void committed(ResourceDefinition def, WriteOutcome outcome);

  /**
   * Tells this listener of {@code outcome} and never fails: the write is already stored, so a
   * listener's failure (a controller's, which kube runs apart from the request) is logged with
   * its stack and must not turn the committed request into an error.
   */
  default void committedQuietly(ResourceDefinition def, WriteOutcome outcome) {
    try {
      committed(def, outcome);
    } catch (RuntimeException e) {
      org.slf4j.LoggerFactory.getLogger(WriteListener.class).error(
          "a controller failed to follow a write to {}", def.resource(), e);
    }
  }

  /** This listener, then {@code next}. */
  default WriteListener andThen(WriteListener next) {
    return (def, outcome) -> {
      committedQuietly(def, outcome);
      next.committedQuietly(def, outcome);
    };
  }

  /** Tells the public {@link CommitListener}s of each committed write in its stored form. */
  final class ToCommitListeners implements WriteListener {
    private static final Logger LOG = LoggerFactory.getLogger(ToCommitListeners.class);

    private final CopyOnWriteArrayList<CommitListener> listeners = new CopyOnWriteArrayList<>();

    void add(CommitListener listener) {
      listeners.add(listener);
    }

    void remove(CommitListener listener) {
      listeners.remove(listener);
    }

    @Override
    public void committed(ResourceDefinition def, WriteOutcome outcome) {
      if (listeners.isEmpty()) {
        return;
      }
      MapValue object = outcome.object();
      Optional<MapValue> stored;
      long revision;
      if (outcome instanceof WriteOutcome.Deleted deleted) {
        stored = Optional.empty();
        revision = deleted.revision();
      } else {
        stored = Optional.of(outcome.stored() != null ? outcome.stored().object()
            : StorageForm.toStorage(def, object));
        revision = revision(Meta.metaString(object, "resourceVersion"));
      }
      if (revision <= 0) {
        return; // unknown: the store's watch tells followers
      }
      ObjectKey key = new ObjectKey(def.kind().group(), def.plural(),
          def.namespaced() ? Meta.metaString(object, "namespace") : "",
          Meta.metaString(object, "name"));
      for (CommitListener l : listeners) {
        try {
          l.committed(key, stored, revision);
        } catch (RuntimeException e) {
          LOG.error("a commit listener failed on {}", key, e);
        }
      }
    }

    private static long revision(String resourceVersion) {
      try {
        return Long.parseLong(resourceVersion);
      } catch (NumberFormatException e) {
        return 0;
      }
    }
  }
}
