/*
 * Copyright The apiserver4j authors.
 * SPDX-License-Identifier: Apache-2.0
 */
package io.apiserver4j.storage;

/**
 * Whether a watch starts with synthetic {@code ADDED} events for the current state, after kube's
 * {@code sendInitialEvents} parameter.
 */
public enum InitialEvents {
  /**
   * kube's behaviour when {@code sendInitialEvents} is not given: synthetic ADDED events for the
   * current state if and only if the watch starts at resource version 0 (unset or {@code "0"}).
   */
  DEFAULT,
  /**
   * Synthetic ADDED events for the current state, then (with bookmarks allowed) a BOOKMARK
   * marked {@link WatchEvent.Bookmark#initialEventsEnd()}; as {@code sendInitialEvents=true}.
   */
  SEND,
  /** No synthetic events; only changes after the start revision. */
  SKIP
}
