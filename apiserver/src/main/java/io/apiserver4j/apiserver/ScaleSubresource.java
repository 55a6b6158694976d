/*
 * Copyright The apiserver4j authors.
 * SPDX-License-Identifier: Apache-2.0
 */
package io.apiserver4j.apiserver;

import static java.util.Objects.requireNonNull;

import java.util.Optional;

/**
 * Where a resource keeps what its {@code scale} subresource (an {@code autoscaling/v1 Scale})
 * shows: JSON paths in kube's CRD notation ({@code .spec.replicas}). The label selector path may
 * point to a string (as for custom resources) or to a {@code LabelSelector} map (as for
 * Deployments and StatefulSets, whose Scale shows the selector in its string form).
 *
 * @param specReplicasPath path of the desired replicas, e.g. {@code .spec.replicas}
 * @param statusReplicasPath path of the observed replicas, e.g. {@code .status.replicas}
 * @param labelSelectorPath path of the selector, if any
 */
public record ScaleSubresource(String specReplicasPath, String statusReplicasPath,
    Optional<String> labelSelectorPath) implements SubresourceHandler {

  public ScaleSubresource {
    requireNonNull(specReplicasPath, "specReplicasPath");
    requireNonNull(statusReplicasPath, "statusReplicasPath");
    requireNonNull(labelSelectorPath, "labelSelectorPath");
    checkPath("specReplicasPath", specReplicasPath);
    checkPath("statusReplicasPath", statusReplicasPath);
    labelSelectorPath.ifPresent(p -> checkPath("labelSelectorPath", p));
  }

  /** The paths of the built-in workload kinds: {@code .spec.replicas}, {@code .status.replicas}, {@code .spec.selector}. */
  public static ScaleSubresource builtinWorkload() {
    return new ScaleSubresource(".spec.replicas", ".status.replicas", Optional.of(".spec.selector"));
  }

  private static void checkPath(String what, String path) {
    // a segment may hold any character but '.', as kube reads the path ("[0]" is part of a key)
    if (!path.startsWith(".") || path.length() < 2 || path.contains("..") || path.endsWith(".")) {
      throw new IllegalArgumentException(what + " must be a simple dotted path like .spec.replicas: "
          + path);
    }
  }
}
