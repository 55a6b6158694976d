/*
 * Copyright The apiserver4j authors.
 * SPDX-License-Identifier: Apache-2.0
 */
package io.apiserver4j.apiserver.internal;

import io.apiserver4j.apiserver.ApiWatch;
import io.apiserver4j.apiserver.ApiWatchEvent;
import io.apiserver4j.apiserver.ResourceDefinition;
import io.apiserver4j.core.MapValue;
import io.apiserver4j.core.Value;
import io.apiserver4j.storage.Watch;
import io.apiserver4j.storage.WatchEvent;
import java.time.Duration;
import java.util.Optional;

/** A storage watch seen through an endpoint: objects at its version, bookmarks of its kind. */
final class WatchAdapter implements ApiWatch {
  private final Watch watch;
  private final ResourceDefinition def;

  WatchAdapter(Watch watch, ResourceDefinition def) {
    this.watch = watch;
    this.def = def;
  }

  @Override
  public Optional<ApiWatchEvent> poll(Duration timeout) throws InterruptedException {
    Optional<WatchEvent> e = watch.poll(timeout);
    if (e.isEmpty()) {
      return Optional.empty();
    }
    WatchEvent event = e.get();
    if (event instanceof WatchEvent.ObjectChange change) {
      if (StorageForm.servedAsStored(def)) {
        // decoded only if the front end needs the tree; JSON is written from the stored bytes
        return Optional.of(ApiWatchEvent.of(change.type().name(), change.object()));
      }
      return Optional.of(new ApiWatchEvent(change.type().name(),
          StorageForm.fromStorage(def, change.object().object())));
    }
    if (event instanceof WatchEvent.Bookmark b) {
      MapValue meta = MapValue.ofEntries("resourceVersion",
          Value.of(Long.toString(b.resourceVersion())));
      if (b.initialEventsEnd()) {
        meta = meta.with("annotations",
            MapValue.ofEntries("k8s.io/initial-events-end", Value.of("true")));
      }
      return Optional.of(new ApiWatchEvent("BOOKMARK", MapValue.ofEntries(
          "kind", Value.of(def.kind().kind()), "apiVersion", Value.of(def.kind().apiVersion()),
          "metadata", meta)));
    }
    WatchEvent.Failure f = (WatchEvent.Failure) event;
    return Optional.of(new ApiWatchEvent("ERROR", f.status().toValue()));
  }

  @Override
  public boolean isClosed() {
    return watch.isClosed();
  }

  @Override
  public void close() {
    watch.close();
  }
}
