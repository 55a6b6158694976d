/*
 * Copyright The apiserver4j authors.
 * SPDX-License-Identifier: Apache-2.0
 */
package io.apiserver4j.controllers.internal;

/**
 * One controller of the manager. It is built from a {@link ControllerContext} (asking for its
 * informers and adding their handlers then), started once the informers have listed, and closed
 * before the informers are.
 */
public interface Controller extends AutoCloseable {
  /** Starts its workers. */
  void start();

  /**
   * Called by a reset in place ({@code ControllerManager.reset}) while the workers are paused,
   * after every queue, timer, backoff and expectation of the manager was dropped and the
   * informers were brought to the restored storage: re-arms what {@link #start} arms besides
   * the workers (a periodic loop's first item, a resync timer) and forgets what the controller
   * keeps besides its informers' caches, so that it then behaves as one just started. The
   * default does nothing: a controller whose state is its informers' caches and its queues.
   */
  default void resetInPlace() {}

  /** Stops its workers and waits for them. */
  @Override
  void close();
}
