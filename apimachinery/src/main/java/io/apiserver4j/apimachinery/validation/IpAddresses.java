/*
 * Copyright The apiserver4j authors.
 * SPDX-License-Identifier: Apache-2.0
 */
package io.apiserver4j.apimachinery.validation;

import java.math.BigInteger;
import java.util.Optional;

/**
 * IP addresses and CIDRs as numbers, for range arithmetic (service IP allocation); parsing and
 * printing are core {@link io.apiserver4j.core.IpAddresses}'. Stateless.
 */
public final class IpAddresses {
  /**
   * kube's message for an invalid IP address.
   */
  public static final String INVALID_IP = "must be a valid IP address, (e.g. 10.9.8.7 or 2001:db8::ffff)";

  private IpAddresses() {}

  /**
   * An address: its value and whether it is IPv6.
   *
   * @param value the address as an unsigned number
   * @param v6 whether it is IPv6
   */
  public record Ip(BigInteger value, boolean v6) {
    /**
     * The address width.
     *
     * @return 32 or 128
     */
    public int bits() {
      return v6 ? 128 : 32;
    }

    @Override
    public String toString() {
      byte[] raw = value.toByteArray();
      byte[] b = new byte[bits() / 8];
      int n = Math.min(raw.length, b.length);
      System.arraycopy(raw, raw.length - n, b, b.length - n, n);
      return io.apiserver4j.core.IpAddresses.format(b);
    }
  }

  /**
   * A CIDR: its first address and prefix length.
   *
   * @param base the network address
   * @param prefix the prefix length
   */
  public record Cidr(Ip base, int prefix) {
    /**
     * The number of addresses.
     *
     * @return 2 to the power of the host bits
     */
    public BigInteger size() {
      return BigInteger.ONE.shiftLeft(base.bits() - prefix);
    }

    /**
     * Whether an address is in this CIDR.
     *
     * @param ip the address
     * @return true when of the same family and in range
     */
    public boolean contains(Ip ip) {
      return ip.v6() == base.v6() && ip.value().compareTo(base.value()) >= 0
          && ip.value().compareTo(base.value().add(size())) < 0;
    }

    /**
     * The address at an offset from the base.
     *
     * @param offset the offset, below {@link #size()}
     * @return the address
     */
    public Ip at(BigInteger offset) {
      return new Ip(base.value().add(offset), base.v6());
    }

    @Override
    public String toString() {
      return base + "/" + prefix;
    }
  }

  /**
   * Parses an address.
   *
   * @param s the text
   * @return the address; empty when {@code s} is not one
   */
  public static Optional<Ip> parse(String s) {
    byte[] b = io.apiserver4j.core.IpAddresses.parse(s);
    return b == null ? Optional.empty() : Optional.of(new Ip(new BigInteger(1, b), b.length == 16));
  }

  /**
   * Whether {@code s} is an IPv6 address.
   *
   * @param s the text
   * @return true for IPv6
   */
  public static boolean isIpv6(String s) {
    return parse(s).map(Ip::v6).orElse(false);
  }

  /**
   * Parses a CIDR as Go's {@code ParseCIDR}.
   *
   * @param s the text
   * @return the CIDR; empty when {@code s} is not one
   */
  public static Optional<Cidr> parseCidr(String s) {
    return io.apiserver4j.core.IpAddresses.parseCidr(s).map(c -> new Cidr(
        new Ip(new BigInteger(1, c.ip()), c.ipv6()), c.bits()));
  }
}
