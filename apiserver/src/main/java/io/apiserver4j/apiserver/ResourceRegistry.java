/*
 * Copyright The apiserver4j authors.
 * SPDX-License-Identifier: Apache-2.0
 */
package io.apiserver4j.apiserver;

import io.apiserver4j.core.GroupVersionKind;
import io.apiserver4j.core.GroupVersionResource;
import java.time.Duration;
import java.util.List;
import java.util.Objects;
import java.util.Optional;

/**
 * The resources an {@link ApiServer} serves: the built-in kinds, those given to the builder, and
 * the custom resources of the established CustomResourceDefinitions in storage. Discovery
 * documents are derived from it; {@link #addListener} reports every change so that they can be
 * refreshed.
 *
 * <p>Custom resources follow the CRDs in storage, whoever wrote them, as kube-apiserver's CRD
 * informer does: a CRD written through this server is served (or no longer served) when the
 * request returns; one written through another server sharing the storage once this server's
 * watch of CRDs has delivered the change, which {@link #awaitRevision} waits for.
 *
 * <p>Thread-safe; lookups see a consistent snapshot.
 */
public interface ResourceRegistry {
  /** The definition serving {@code resource}. */
  Optional<ResourceDefinition> find(GroupVersionResource resource);

  /** The definition serving {@code kind}. */
  Optional<ResourceDefinition> findByKind(GroupVersionKind kind);

  /** Every served definition, in registration order. */
  List<ResourceDefinition> all();

  /**
   * Calls {@code listener} after every later change, on the thread that made it: a request
   * creating, updating or deleting a CustomResourceDefinition through this server, or the
   * server's background watch of CRDs (changes made through other servers sharing the storage).
   */
  void addListener(RegistryListener listener);

  void removeListener(RegistryListener listener);

  /**
   * Waits until the registry reflects every CustomResourceDefinition change in storage up to
   * revision {@code resourceVersion} (e.g. the {@code metadata.resourceVersion} of a CRD read or
   * written through another server sharing the storage, or of any later write), without
   * sleeping: it returns as soon as that holds.
   *
   * <p>The default, for registries that do not follow storage, returns true at once.
   *
   * @return whether it does within {@code timeout}; false as well if the thread is interrupted
   *     (its interrupt status is kept) or the server is closed first
   * @throws IllegalArgumentException if {@code resourceVersion} or {@code timeout} is negative
   */
  default boolean awaitRevision(long resourceVersion, Duration timeout) {
    if (resourceVersion < 0) {
      throw new IllegalArgumentException("resourceVersion must not be negative: "
          + resourceVersion);
    }
    Objects.requireNonNull(timeout, "timeout");
    if (timeout.isNegative()) {
      throw new IllegalArgumentException("timeout must not be negative: " + timeout);
    }
    return true;
  }
}
