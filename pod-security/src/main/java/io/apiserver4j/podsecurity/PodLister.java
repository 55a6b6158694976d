/*
 * Copyright The apiserver4j authors.
 * SPDX-License-Identifier: Apache-2.0
 */
package io.apiserver4j.podsecurity;

import io.apiserver4j.core.MapValue;
import java.util.List;

/**
 * Lists a namespace's pods for the dry run of a tightened enforce level (kube's
 * {@code admission.PodLister}, an informer's lister there). Implementations are thread-safe.
 */
@FunctionalInterface
public interface PodLister {
  /** A lister that finds no pods. */
  PodLister NONE = namespace -> List.of();

  /**
   * The pods of {@code namespace}, in any order.
   *
   * @param namespace the namespace
   * @return the pods as stored
   * @throws io.apiserver4j.core.errors.StatusException when they cannot be listed
   */
  List<MapValue> pods(String namespace);
}
