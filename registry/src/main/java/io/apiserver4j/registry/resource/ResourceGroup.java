/*
 * Copyright The apiserver4j authors.
 * SPDX-License-Identifier: Apache-2.0
 */
package io.apiserver4j.registry.resource;

import io.apiserver4j.core.GroupVersionKind;
import io.apiserver4j.registry.internal.BuiltinKind;
import io.apiserver4j.registry.resource.deviceclass.DeviceClassPrinter;
import io.apiserver4j.registry.resource.deviceclass.DeviceClassStrategy;
import io.apiserver4j.registry.resource.resourceclaim.ResourceClaimPrinter;
import io.apiserver4j.registry.resource.resourceclaim.ResourceClaimStrategy;
import io.apiserver4j.registry.resource.resourceclaimtemplate.ResourceClaimTemplatePrinter;
import io.apiserver4j.registry.resource.resourceclaimtemplate.ResourceClaimTemplateStrategy;
import io.apiserver4j.registry.resource.resourceslice.ResourceSlicePrinter;
import io.apiserver4j.registry.resource.resourceslice.ResourceSliceStrategy;
import java.util.List;

/** The kinds of the {@code resource} API group with their registry behaviour (kube's pkg/registry/resource). */
public final class ResourceGroup {
  private ResourceGroup() {}

  /** The kinds of the group this registry declares, each from its own package. */
  public static List<BuiltinKind> kinds() {
    return List.of(
        BuiltinKind.of(resource("ResourceSlice"), ResourceSliceStrategy.strategy(),
            ResourceSlicePrinter::printer),
        BuiltinKind.of(resource("DeviceClass"), DeviceClassStrategy.strategy(),
            DeviceClassPrinter::printer),
        BuiltinKind.of(resource("ResourceClaim"), ResourceClaimStrategy.strategy(),
            ResourceClaimPrinter::printer),
        BuiltinKind.of(resource("ResourceClaimTemplate"),
            ResourceClaimTemplateStrategy.strategy(), ResourceClaimTemplatePrinter::printer));
  }

  private static GroupVersionKind resource(String kind) {
    return new GroupVersionKind("resource.k8s.io", "v1", kind);
  }
}
