/*
 * Copyright The apiserver4j authors.
 * SPDX-License-Identifier: Apache-2.0
 */
package io.apiserver4j.registry.internal;

import io.apiserver4j.apiserver.ConnectCall;
import io.apiserver4j.apiserver.answer.ConnectResponse;
import io.apiserver4j.apiserver.SubresourceConnect;
import io.apiserver4j.core.GoStrings;
import io.apiserver4j.core.GroupVersionResource;
import io.apiserver4j.core.IntegerValue;
import io.apiserver4j.core.MapValue;
import io.apiserver4j.core.Nested;
import io.apiserver4j.core.Value;
import io.apiserver4j.core.errors.StatusErrors;
import io.apiserver4j.core.errors.StatusException;
import java.util.List;
import java.util.Optional;
import java.util.Set;
import java.util.function.Function;

/**
 * The {@code proxy} subresources of Nodes and Services (kube's {@code node/rest/proxy.go} with
 * {@code node.ResourceLocation}, and the Service storage's {@code ResourceLocation}): the target
 * is found as kube finds it, with kube's errors, and the proxied request then fails as kube's
 * upgrade-aware proxy fails on a refused connection, since nothing of the simulated cluster
 * listens.
 */
public final class ProxyConnect implements SubresourceConnect {
  private static final GroupVersionResource SERVICES =
      new GroupVersionResource("", "v1", "services");
  private static final GroupVersionResource ENDPOINTS =
      new GroupVersionResource("", "v1", "endpoints");

  private final Function<ConnectCall, String> dialError;

  private ProxyConnect(Function<ConnectCall, String> dialError) {
    this.dialError = dialError;
  }

  /** {@code nodes/proxy}. */
  public static SubresourceConnect nodes() {
    return new ProxyConnect(ProxyConnect::nodeTarget);
  }

  /** {@code services/proxy}. */
  public static SubresourceConnect services() {
    return new ProxyConnect(ProxyConnect::serviceTarget);
  }

  @Override
  public ConnectResponse connect(ConnectCall call) {
    String error = dialError.apply(call);
    throw call.upgrade() == ConnectCall.Upgrade.YES ? Kubelets.dialFailed(error)
        : Kubelets.unknown(error);
  }

  @Override
  public Set<String> methods() {
    return PROXY_METHODS;
  }

  @Override
  public boolean takesPath() {
    return true;
  }

  /**
   * Go's {@code utilnet.SplitSchemeNamePort}: {@code name}, {@code name:port} or
   * {@code scheme:name:port} with scheme http, https or empty.
   *
   * @return scheme, name and port; empty when invalid
   */
  public static Optional<String[]> splitSchemeNamePort(String id) {
    String[] parts = id.split(":", -1);
    String[] out;
    switch (parts.length) {
      case 1 -> out = new String[] {"", parts[0], ""};
      case 2 -> out = new String[] {"", parts[0], parts[1]};
      case 3 -> out = new String[] {parts[0], parts[1], parts[2]};
      default -> {
        return Optional.empty();
      }
    }
    boolean scheme = out[0].isEmpty() || out[0].equals("http") || out[0].equals("https");
    return !out[1].isEmpty() && scheme ? Optional.of(out) : Optional.empty();
  }

  private static String[] split(ConnectCall call, String kind) {
    return splitSchemeNamePort(call.name()).orElseThrow(() -> StatusErrors.badRequest(
        "invalid " + kind + " request " + GoStrings.quote(call.name())));
  }

  /** kube's {@code node.ResourceLocation}: the kubelet, or another port of the Node. */
  private static String nodeTarget(ConnectCall call) {
    String[] id = split(call, "node");
    Kubelets.Connection kubelet = Kubelets.connection(new Loopback(call.server(), call.user()),
        id[1]);
    if (kubelet.dialed().isEmpty()) {
      // kube's isProxyableHostname resolves the name first
      throw StatusErrors.badRequest("lookup " + kubelet.host() + ": no such host");
    }
    if (id[2].isEmpty() || id[2].equals(Integer.toString(kubelet.port()))) {
      return kubelet.dialError();
    }
    return kubelet.dialError(portNumber(id[2]));
  }

  private static int portNumber(String port) {
    try {
      return Integer.parseInt(port);
    } catch (NumberFormatException e) {
      // Go's dialer looks a named port up in /etc/services and finds none
      throw Kubelets.unknown("dial tcp: lookup port " + port + ": unknown port");
    }
  }

  /** kube's Service {@code ResourceLocation}: a ready address of the Service's Endpoints. */
  private static String serviceTarget(ConnectCall call) {
    String[] id = split(call, "service");
    Loopback server = new Loopback(call.server(), call.user());
    String name = id[1];
    String portName = id[2];
    if (!portName.isEmpty() && portName.chars().allMatch(Character::isDigit)) {
      MapValue svc = server.get(SERVICES, call.namespace(), name);
      long number = Long.parseLong(portName);
      Optional<String> found = Optional.empty();
      for (Value p : Nested.list(svc, "spec", "ports")) {
        if (Nested.getOrNull(p, "port") instanceof IntegerValue n && n.value() == number) {
          found = Optional.of(Nested.str(p, "name"));
          break;
        }
      }
      portName = found.orElseThrow(() -> StatusErrors.serviceUnavailable("no service port "
          + number + " found for service " + GoStrings.quote(name)));
    }
    MapValue endpoints = server.get(ENDPOINTS, call.namespace(), name);
    List<Value> subsets = Nested.list(endpoints, "subsets");
    if (subsets.isEmpty()) {
      throw noEndpoints(name);
    }
    for (Value subset : subsets) {
      List<Value> addresses = Nested.list(subset, "addresses");
      if (addresses.isEmpty()) {
        continue;
      }
      for (Value port : Nested.list(subset, "ports")) {
        if (Nested.str(port, "name").equals(portName)) {
          return "dial tcp " + Kubelets.joinHostPort(Nested.str(addresses.get(0), "ip"),
              Long.toString(Nested.integer(port, "port"))) + ": connect: connection refused";
        }
      }
    }
    throw noEndpoints(call.name());
  }

  private static StatusException noEndpoints(String service) {
    return StatusErrors.serviceUnavailable("no endpoints available for service "
        + GoStrings.quote(service));
  }
}
