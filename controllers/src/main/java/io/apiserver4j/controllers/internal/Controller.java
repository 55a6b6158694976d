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

  /** Stops its workers and waits for them. */
  @Override
  void close();
}
