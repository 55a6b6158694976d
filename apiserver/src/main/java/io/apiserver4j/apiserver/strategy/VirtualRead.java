/*
 * Copyright The apiserver4j authors.
 * SPDX-License-Identifier: Apache-2.0
 */
package io.apiserver4j.apiserver.strategy;

import io.apiserver4j.core.MapValue;
import java.util.List;
import java.util.Optional;

/**
 * The reads of a resource whose objects are computed from a source when asked and never
 * stored, as an aggregated API server computes them (metrics-server's {@code PodMetrics} and
 * {@code NodeMetrics}): the server answers {@code get} and {@code list} from it, filters lists by
 * the request's label and field selectors, and prints them with the definition's table printer.
 *
 * <p>Implementations are thread-safe; an object returned carries its full type and object meta
 * ({@code apiVersion}, {@code kind}, {@code metadata.name}, {@code metadata.namespace} when
 * namespaced, {@code metadata.labels} the selectors match).
 */
public interface VirtualRead {
  /**
   * The object {@code name} in {@code namespace} (empty for a cluster-scoped resource), or empty
   * when there is none (the server answers kube's 404 NotFound). It may instead throw a
   * {@link io.apiserver4j.core.errors.StatusException}, which the server answers as it is (an
   * aggregated server's own 404 text).
   */
  Optional<MapValue> get(String namespace, String name);

  /**
   * Every object in {@code namespace}, or in every namespace when it is empty, in the order a
   * list shows them.
   */
  List<MapValue> list(String namespace);
}
