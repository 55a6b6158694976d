/*
 * Copyright The apiserver4j authors.
 * SPDX-License-Identifier: Apache-2.0
 */
package io.apiserver4j.apiserver.kubelet;

import io.apiserver4j.core.MapValue;
import java.util.Optional;

/**
 * Where {@code pods/log} reads a container's log from, in place of the kubelet kube-apiserver
 * would ask ({@code GET /containerLogs/<ns>/<pod>/<container>}). The server has already
 * validated the options and the container and found the Pod bound to a Node; a simulated cluster
 * installs one ({@link io.apiserver4j.apiserver.ApiServer#installPodLogs}).
 *
 * <p>Implementations are thread-safe and must not block on the server.
 */
@FunctionalInterface
public interface PodLogs {
  /** No source: every Pod's kubelet is unreachable, as for a Node no kubelet runs on. */
  PodLogs NONE = (pod, container, options) -> Optional.empty();

  /**
   * The log of {@code container} of {@code pod}, honouring the options the kubelet honours
   * ({@code tailLines}, {@code limitBytes}, {@code timestamps}, ...).
   *
   * @param pod the Pod as stored
   * @param container the container, an existing one of the Pod
   * @param options the validated options
   * @return the text, or empty when the Pod's kubelet cannot be reached (the server then
   *     answers the error kube-apiserver answers for an unreachable kubelet)
   * @throws io.apiserver4j.core.errors.StatusException what the kubelet would answer instead
   */
  Optional<String> read(MapValue pod, String container, PodLogOptions options);
}
