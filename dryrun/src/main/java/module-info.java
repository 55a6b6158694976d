/*
 * Copyright The apiserver4j authors.
 * SPDX-License-Identifier: Apache-2.0
 */

/**
 * Dry run: the {@code dryRun} options, the store decorator that never writes, the
 * generated-values policy and deletion previews.
 */
module io.apiserver4j.dryrun {
  requires transitive io.apiserver4j.core;
  requires transitive io.apiserver4j.storage;

  exports io.apiserver4j.dryrun;
}
