/*
 * Copyright The apiserver4j authors.
 * SPDX-License-Identifier: Apache-2.0
 */
package io.apiserver4j.registry.apps;

import io.apiserver4j.apiserver.ResourceStrategy;
import io.apiserver4j.core.GroupVersionKind;
import io.apiserver4j.registry.apps.controllerrevision.ControllerRevisionPrinter;
import io.apiserver4j.registry.apps.daemonset.DaemonSetPrinter;
import io.apiserver4j.registry.apps.daemonset.DaemonSetStrategy;
import io.apiserver4j.registry.apps.deployment.DeploymentPrinter;
import io.apiserver4j.registry.apps.deployment.DeploymentStrategy;
import io.apiserver4j.registry.apps.replicaset.ReplicaSetPrinter;
import io.apiserver4j.registry.apps.replicaset.ReplicaSetStrategy;
import io.apiserver4j.registry.apps.statefulset.StatefulSetPrinter;
import io.apiserver4j.registry.apps.statefulset.StatefulSetStrategy;
import io.apiserver4j.registry.internal.BuiltinKind;
import java.util.List;

/** The kinds of the {@code apps} API group with their registry behaviour (kube's pkg/registry/apps). */
public final class AppsGroup {
  private AppsGroup() {}

  /** The kinds of the group this registry declares, each from its own package. */
  public static List<BuiltinKind> kinds() {
    return List.of(
        BuiltinKind.of(apps("Deployment"), DeploymentStrategy.strategy(),
            DeploymentPrinter::printer),
        BuiltinKind.of(apps("ReplicaSet"), ReplicaSetStrategy.strategy(),
            ReplicaSetPrinter::printer),
        BuiltinKind.of(apps("StatefulSet"), StatefulSetStrategy.strategy(),
            StatefulSetPrinter::printer),
        BuiltinKind.of(apps("DaemonSet"), DaemonSetStrategy.strategy(),
            DaemonSetPrinter::printer),
        // no rules of its own yet: only its columns
        BuiltinKind.of(apps("ControllerRevision"), ResourceStrategy.defaults(),
            ControllerRevisionPrinter::printer));
  }

  private static GroupVersionKind apps(String kind) {
    return new GroupVersionKind("apps", "v1", kind);
  }
}
