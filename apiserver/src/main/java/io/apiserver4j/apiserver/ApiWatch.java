/*
 * Copyright The apiserver4j authors.
 * SPDX-License-Identifier: Apache-2.0
 */
package io.apiserver4j.apiserver;

import java.time.Duration;
import java.util.Optional;

/**
 * A watch opened with {@link ApiServer#watch}: the events of a collection (or one object) in
 * resourceVersion order, as kube-apiserver streams them, with objects at the requested version.
 * Consumed by one thread; {@link #close()} may be called from any thread.
 */
public interface ApiWatch extends AutoCloseable {
  /**
   * The next event, waiting up to {@code timeout}; empty if none arrived in time or the watch
   * ended. An {@code ERROR} event is always the last one.
   *
   * @throws InterruptedException if interrupted while waiting
   */
  Optional<ApiWatchEvent> poll(Duration timeout) throws InterruptedException;

  /** Whether the watch has ended and every event has been taken. */
  boolean isClosed();

  @Override
  void close();
}
