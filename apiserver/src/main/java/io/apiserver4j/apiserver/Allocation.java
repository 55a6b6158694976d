/*
 * Copyright The apiserver4j authors.
 * SPDX-License-Identifier: Apache-2.0
 */
package io.apiserver4j.apiserver;

import io.apiserver4j.storage.Store;
import java.time.Instant;
import java.util.Optional;
import java.util.Random;

/** What an {@link Allocator} allocates from: the server's storage and settings. */
public interface Allocation {
  /** Whether the request is a dry run (kube's dry-run allocators persist nothing). */
  boolean dryRun();

  /**
   * A server setting by its kube-apiserver flag name (e.g.
   * {@code service-cluster-ip-range}); empty when the server has no value for it.
   */
  Optional<String> setting(String flag);

  /**
   * Runs a request as the server itself, as kube's allocators write API objects (IPAddresses)
   * through the server's loopback client; never a dry run.
   */
  ApiResponse loopback(ApiRequest request);

  /**
   * The server's storage, for allocation state that is no API object (kube keeps its node port
   * bitmap under {@code /registry/ranges}); writes to it are never dry runs, so a dry-run
   * allocation must not write.
   */
  Store storage();

  /** The server's source of randomness (where kube starts scanning a range). */
  Random random();

  /** The server clock's current time. */
  Instant now();
}
