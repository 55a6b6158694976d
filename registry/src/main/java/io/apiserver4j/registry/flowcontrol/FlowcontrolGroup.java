/*
 * Copyright The apiserver4j authors.
 * SPDX-License-Identifier: Apache-2.0
 */
package io.apiserver4j.registry.flowcontrol;

import io.apiserver4j.core.GroupVersionKind;
import io.apiserver4j.registry.flowcontrol.flowschema.FlowSchemaPrinter;
import io.apiserver4j.registry.flowcontrol.flowschema.FlowSchemaStrategy;
import io.apiserver4j.registry.flowcontrol.prioritylevelconfiguration.PriorityLevelConfigurationPrinter;
import io.apiserver4j.registry.flowcontrol.prioritylevelconfiguration.PriorityLevelConfigurationStrategy;
import io.apiserver4j.registry.internal.BuiltinKind;
import java.util.List;

/** The kinds of the {@code flowcontrol} API group with their registry behaviour (kube's pkg/registry/flowcontrol). */
public final class FlowcontrolGroup {
  private FlowcontrolGroup() {}

  /** The kinds of the group this registry declares, each from its own package. */
  public static List<BuiltinKind> kinds() {
    return List.of(
        BuiltinKind.of(flowcontrol("FlowSchema"), FlowSchemaStrategy.strategy(),
            FlowSchemaPrinter::printer),
        BuiltinKind.of(flowcontrol("PriorityLevelConfiguration"),
            PriorityLevelConfigurationStrategy.strategy(),
            PriorityLevelConfigurationPrinter::printer));
  }

  private static GroupVersionKind flowcontrol(String kind) {
    return new GroupVersionKind("flowcontrol.apiserver.k8s.io", "v1", kind);
  }
}
