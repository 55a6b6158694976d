/*
 * Copyright The apiserver4j authors.
 * SPDX-License-Identifier: Apache-2.0
 */
package io.apiserver4j.apimachinery.validation;

import io.apiserver4j.apimachinery.validation.IpAddresses.Cidr;
import java.math.BigInteger;

/**
 * kube-apiserver's {@code --service-cluster-ip-range} and {@code --service-node-port-range}:
 * their names as server settings, their defaults and their checks.
 */
public final class ServiceRanges {
  /** The setting of the range Services' cluster IPs come from. */
  public static final String CLUSTER_IP_RANGE_FLAG = "service-cluster-ip-range";
  /** The setting of the range of node ports. */
  public static final String NODE_PORT_RANGE_FLAG = "service-node-port-range";
  /**
   * The default cluster IP range: kube-apiserver's own {@code DefaultServiceIPCIDR}
   * (pkg/kubeapiserver/options); kubeadm's 10.96.0.0/12 is a kubeadm flag, not the server's.
   */
  public static final String DEFAULT_CLUSTER_IP_RANGE = "10.0.0.0/24";
  /** The default node port range. */
  public static final String DEFAULT_NODE_PORT_RANGE = "30000-32767";

  private ServiceRanges() {}

  /**
   * Checks a {@code --service-cluster-ip-range} value.
   *
   * @param cidr the CIDR
   * @throws IllegalArgumentException unless {@code cidr} is a CIDR of 8 addresses or more
   */
  public static void checkClusterIpRange(String cidr) {
    Cidr c = IpAddresses.parseCidr(cidr).orElseThrow(() -> new IllegalArgumentException(
        "service cluster IP range is no CIDR: " + cidr));
    if (c.size().compareTo(BigInteger.valueOf(8)) < 0) {
      throw new IllegalArgumentException("service cluster IP range " + cidr
          + " holds fewer than 8 addresses");
    }
  }

  /**
   * Checks a {@code --service-node-port-range} value.
   *
   * @param range the range
   * @throws IllegalArgumentException unless {@code range} is {@code min-max} of ports
   */
  public static void checkNodePortRange(String range) {
    int[] r = ports(range);
    if (r == null) {
      throw new IllegalArgumentException("service node port range is not min-max of ports: "
          + range);
    }
  }

  /**
   * The first usable address of {@code cidr}, the {@code kubernetes} Service's.
   *
   * @param cidr the service CIDR
   * @return the address
   */
  public static String firstAddress(String cidr) {
    Cidr c = IpAddresses.parseCidr(cidr).orElseThrow();
    return c.at(BigInteger.ONE).toString();
  }

  /**
   * The ports {@code min-max} of {@code range}.
   *
   * @param range the range
   * @return {@code [min, max]}, or null when it is no such range
   */
  public static int[] ports(String range) {
    int dash = range.indexOf('-');
    try {
      int min = Integer.parseInt(range.substring(0, dash).trim());
      int max = Integer.parseInt(range.substring(dash + 1).trim());
      return min >= 1 && max <= 65535 && min <= max ? new int[] {min, max} : null;
    } catch (RuntimeException e) {
      return null;
    }
  }
}
