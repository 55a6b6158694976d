/*
 * Copyright The apiserver4j authors.
 * SPDX-License-Identifier: Apache-2.0
 */
package io.apiserver4j.dryrun;

/** kubectl's {@code --dry-run} strategies. */
public enum DryRunStrategy {
  /** Send the request normally. */
  NONE,
  /** Print the object that would be sent, without sending it. */
  CLIENT,
  /** Send the request with {@code dryRun=All}: the server runs it without persisting. */
  SERVER
}
