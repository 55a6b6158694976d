/*
 * Copyright The apiserver4j authors.
 * SPDX-License-Identifier: Apache-2.0
 */
package io.apiserver4j.apiserver.internal;

import io.apiserver4j.apiserver.ResourceStrategy;
import io.apiserver4j.core.GroupResource;

/**
 * The handlers of the built-in subresources that are neither {@code status} nor {@code scale},
 * declared on the strategies of their resources as kube-apiserver registers them with the
 * resources' storage: {@code pods/eviction}, {@code pods/binding} and the legacy
 * {@code bindings}, {@code pods/ephemeralcontainers}, {@code pods/resize},
 * {@code certificatesigningrequests/approval}.
 */
final class SpecialSubresources {
  private SpecialSubresources() {}

  /** {@code strategy} with the special subresources of {@code resource}, if it has any. */
  static ResourceStrategy attach(GroupResource resource, ResourceStrategy strategy) {
    switch (resource.group() + "/" + resource.resource()) {
      case "/pods":
        return strategy.toBuilder()
            .subresourceCreate("eviction", new PodEviction())
            .subresourceCreate("binding", new PodBinding())
            .subresourceUpdate("ephemeralcontainers", PodUpdateSubresources.ephemeralContainers())
            .subresourceUpdate("resize", PodUpdateSubresources.resize())
            .build();
      case "certificates.k8s.io/certificatesigningrequests":
        return strategy.toBuilder().subresourceUpdate("approval", CsrApproval.rules())
            .subresourceUpdate("status", CsrApproval.statusRules()).build();
      case "policy/poddisruptionbudgets":
        // kube's PDB strategy keeps a generation, which eviction compares with the status's
        // observedGeneration
        return strategy.generationPolicy() != ResourceStrategy.GenerationPolicy.NONE ? strategy
            : strategy.toBuilder().generationPolicy(ResourceStrategy.GenerationPolicy.SPEC)
                .build();
      case "/bindings":
        return strategy.toBuilder().subresourceCreate("", new PodBinding()).build();
      default:
        return strategy;
    }
  }
}
