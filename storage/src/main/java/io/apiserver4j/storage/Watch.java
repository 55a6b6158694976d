/*
 * Copyright The apiserver4j authors.
 * SPDX-License-Identifier: Apache-2.0
 */
package io.apiserver4j.storage;

import java.time.Duration;
import java.util.Optional;

/**
 * A stream of {@link WatchEvent}s in revision order, consumed by one thread with
 * {@link #poll}. Events are buffered per watch up to a bound; a consumer that falls further
 * behind has its watch ended after the buffered events (like kube-apiserver terminating a slow
 * watcher), and resumes by watching again from the last revision it saw.
 *
 * <p>{@link #close()} may be called from any thread and wakes a blocked {@code poll}.
 */
public interface Watch extends AutoCloseable {
  /**
   * The next event, waiting up to {@code timeout}. Empty if none arrived in time or the watch
   * has ended (then {@link #isClosed()} is true and every later call returns empty at once).
   * A {@link WatchEvent.Failure} is always the last event.
   *
   * @throws InterruptedException if the thread is interrupted while waiting
   * @param timeout how long to wait at most
   * @return the event, or empty
   */
  Optional<WatchEvent> poll(Duration timeout) throws InterruptedException;

  /**
   * Whether the watch has ended and every event has been taken.
   *
   * @return true once {@link #poll} can only return empty
   */
  boolean isClosed();

  /** Ends the watch; further polls return empty. Idempotent. */
  @Override
  void close();
}
