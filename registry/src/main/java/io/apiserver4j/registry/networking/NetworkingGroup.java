/*
 * Copyright The apiserver4j authors.
 * SPDX-License-Identifier: Apache-2.0
 */
package io.apiserver4j.registry.networking;

import io.apiserver4j.core.GroupVersionKind;
import io.apiserver4j.registry.internal.BuiltinKind;
import io.apiserver4j.registry.networking.ingress.IngressPrinter;
import io.apiserver4j.registry.networking.ingress.IngressStrategy;
import io.apiserver4j.registry.networking.ingressclass.IngressClassPrinter;
import io.apiserver4j.registry.networking.ingressclass.IngressClassStrategy;
import io.apiserver4j.registry.networking.ipaddress.IpAddressPrinter;
import io.apiserver4j.registry.networking.ipaddress.IpAddressStrategy;
import io.apiserver4j.registry.networking.networkpolicy.NetworkPolicyPrinter;
import io.apiserver4j.registry.networking.networkpolicy.NetworkPolicyStrategy;
import io.apiserver4j.registry.networking.servicecidr.ServiceCidrPrinter;
import io.apiserver4j.registry.networking.servicecidr.ServiceCidrStrategy;
import java.util.List;

/** The kinds of the {@code networking} API group with their registry behaviour (kube's pkg/registry/networking). */
public final class NetworkingGroup {
  private NetworkingGroup() {}

  /** The kinds of the group this registry declares, each from its own package. */
  public static List<BuiltinKind> kinds() {
    return List.of(
        BuiltinKind.of(networking("Ingress"), IngressStrategy.strategy(), IngressPrinter::printer),
        BuiltinKind.of(networking("IngressClass"), IngressClassStrategy.strategy(), IngressClassPrinter::printer),
        BuiltinKind.of(networking("NetworkPolicy"), NetworkPolicyStrategy.strategy(), NetworkPolicyPrinter::printer),
        BuiltinKind.of(networking("IPAddress"), IpAddressStrategy.strategy(), IpAddressPrinter::printer),
        BuiltinKind.of(networking("ServiceCIDR"), ServiceCidrStrategy.strategy(), ServiceCidrPrinter::printer));
  }

  private static GroupVersionKind networking(String kind) {
    return new GroupVersionKind("networking.k8s.io", "v1", kind);
  }
}
