/*
 * Copyright The apiserver4j authors.
 * SPDX-License-Identifier: Apache-2.0
 */
package io.apiserver4j.registry.internal;

import io.apiserver4j.apimachinery.validation.KubeValidation;
import io.apiserver4j.core.GroupVersionResource;
import io.apiserver4j.core.IntegerValue;
import io.apiserver4j.core.MapValue;
import io.apiserver4j.core.Nested;
import io.apiserver4j.core.errors.Status;
import io.apiserver4j.core.errors.StatusErrors;
import io.apiserver4j.core.errors.StatusException;
import io.apiserver4j.core.errors.StatusReason;
import java.util.List;
import java.util.Optional;

/**
 * How kube-apiserver reaches a Node's kubelet ({@code pkg/kubelet/client}'s
 * {@code NodeConnectionInfoGetter} with the default {@code --kubelet-preferred-address-types}
 * and port 10250), and the errors it answers when nothing listens there. No kubelet of this
 * server listens: a request that would be sent to one fails as kube's fails on a refused
 * connection, with the address kube would have dialled.
 */
public final class Kubelets {
  /** The core group's nodes. */
  public static final GroupVersionResource NODES = new GroupVersionResource("", "v1", "nodes");
  /** kube-apiserver's default {@code --kubelet-preferred-address-types}. */
  private static final List<String> PREFERRED_ADDRESS_TYPES =
      List.of("Hostname", "InternalDNS", "InternalIP", "ExternalDNS", "ExternalIP");
  private static final int DEFAULT_PORT = 10250;

  private Kubelets() {}

  /**
   * Where a Node's kubelet is reached.
   *
   * @param host the preferred address as kube picks it (a name or an IP)
   * @param port the kubelet port
   * @param dialed what a dial of {@code host} connects to: the IP it resolves to, or empty
   *     when the name does not resolve
   */
  public record Connection(String host, int port, Optional<String> dialed) {
    /** {@code host:port} as Go's {@code net.JoinHostPort} writes it. */
    public String hostPort() {
      return joinHostPort(host, String.valueOf(port));
    }

    /**
     * What Go's dialer says when the kubelet cannot be reached: the refused connection to the
     * resolved address, or the failed lookup of the name.
     */
    public String dialError() {
      return dialError(host, dialed, port);
    }

    /** The dial error for another port of the same host (a proxied port of the Node). */
    public String dialError(int otherPort) {
      return dialError(host, dialed, otherPort);
    }

    private static String dialError(String host, Optional<String> dialed, int port) {
      return dialed.map(ip -> "dial tcp " + joinHostPort(ip, String.valueOf(port))
          + ": connect: connection refused")
          .orElse("dial tcp: lookup " + host + ": no such host");
    }
  }

  /**
   * The kubelet connection of Node {@code nodeName}, read through {@code server}.
   *
   * @throws StatusException {@code nodes "<name>" not found}, or kube's 500 when the Node
   *     reports none of the preferred address types
   */
  public static Connection connection(Loopback server, String nodeName) {
    MapValue node = server.get(NODES, "", nodeName);
    List<MapValue> addresses = KubeValidation.items(Nested.getOrNull(node, "status",
        "addresses"));
    String host = null;
    String type = null;
    for (String preferred : PREFERRED_ADDRESS_TYPES) {
      for (MapValue a : addresses) {
        if (preferred.equals(Nested.str(a, "type"))) {
          host = Nested.str(a, "address");
          type = preferred;
          break;
        }
      }
      if (host != null) {
        break;
      }
    }
    if (host == null) {
      StringBuilder known = new StringBuilder("[");
      for (MapValue a : addresses) {
        if (known.length() > 1) {
          known.append(' ');
        }
        known.append('{').append(Nested.str(a, "type")).append(' ')
            .append(Nested.str(a, "address")).append('}');
      }
      throw unknown("no preferred addresses found; known addresses: " + known + "]");
    }
    int port = DEFAULT_PORT;
    if (Nested.getOrNull(node, "status", "daemonEndpoints", "kubeletEndpoint", "Port")
        instanceof IntegerValue p && p.value() > 0) {
      port = (int) p.value();
    }
    Optional<String> dialed;
    if (isIp(host)) {
      dialed = Optional.of(host);
    } else {
      // a Node's names resolve to its IPs, as a cluster's DNS or hosts file makes them
      dialed = Optional.empty();
      for (String ipType : List.of("InternalIP", "ExternalIP")) {
        for (MapValue a : addresses) {
          if (dialed.isEmpty() && ipType.equals(Nested.str(a, "type"))
              && isIp(Nested.str(a, "address"))) {
            dialed = Optional.of(Nested.str(a, "address"));
          }
        }
      }
    }
    return new Connection(host, port, dialed);
  }

  /**
   * kube's answer to an error that is no Status ({@code ErrorToAPIStatus}): 500 with no reason
   * and the error's text.
   */
  public static StatusException unknown(String message) {
    return StatusException.of(Status.failure(StatusReason.UNKNOWN, message));
  }

  /** kube's error of an upgrade request whose backend cannot be dialled. */
  public static StatusException dialFailed(String dialError) {
    return unknown("error dialing backend: " + dialError);
  }

  /** Whether {@code s} is an IP literal (Go's {@code net.ParseIP} sloppy form). */
  public static boolean isIp(String s) {
    return io.apiserver4j.apimachinery.validation.GroupRules.parseIp(s).isPresent();
  }

  /** Go's {@code net.JoinHostPort}: IPv6 hosts in brackets. */
  public static String joinHostPort(String host, String port) {
    return host.contains(":") ? "[" + host + "]:" + port : host + ":" + port;
  }

  /** The 400 of kube's upgrade-aware proxy for a plain request where an upgrade is needed. */
  public static StatusException upgradeRequired() {
    return StatusErrors.badRequest("Upgrade request required");
  }
}
