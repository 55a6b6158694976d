/*
 * Copyright The apiserver4j authors.
 * SPDX-License-Identifier: Apache-2.0
 */
package io.apiserver4j.core;

import java.util.ArrayList;
import java.util.List;
import java.util.Optional;

/**
 * IP addresses and CIDRs as kube's {@code netutils.ParseIPSloppy} and {@code ParseCIDRSloppy}
 * read them (IPv4 parts may have leading zeros), parsed without name resolution, and printed as
 * Go prints them. The one parser every module uses; each caller keeps its own kube message for a
 * value that is not an address. Stateless.
 */
public final class IpAddresses {
  private IpAddresses() {}

  /**
   * The 4 (IPv4) or 16 (IPv6) bytes of {@code s}.
   *
   * @param s the text
   * @return the bytes, or null when it is not an IP address
   */
  public static byte[] parse(String s) {
    return s.contains(":") ? parseIpv6(s) : parseIpv4(s);
  }

  /**
   * Whether {@code s} is an IPv4 address in dotted decimal.
   *
   * @param s the text
   * @return true for an IPv4 address
   */
  public static boolean isIpv4(String s) {
    return !s.contains(":") && parseIpv4(s) != null;
  }

  /**
   * Whether {@code s} is an IPv6 address.
   *
   * @param s the text
   * @return true for an IPv6 address
   */
  public static boolean isIpv6(String s) {
    return s.contains(":") && parseIpv6(s) != null;
  }

  /**
   * A CIDR: its network address (host bits cleared) and prefix length.
   *
   * @param ip the network address, 4 or 16 bytes
   * @param bits the prefix length
   */
  public record Cidr(byte[] ip, int bits) {
    /**
     * Whether an address is in this network.
     *
     * @param other the address bytes
     * @return true when of the same family and the prefix matches
     */
    public boolean contains(byte[] other) {
      if (other.length != ip.length) {
        return false;
      }
      for (int b = 0; b < bits; b++) {
        int mask = 0x80 >> (b % 8);
        if ((ip[b / 8] & mask) != (other[b / 8] & mask)) {
          return false;
        }
      }
      return true;
    }

    /**
     * Whether this is an IPv6 network.
     *
     * @return true for 16-byte addresses
     */
    public boolean ipv6() {
      return ip.length == 16;
    }
  }

  /**
   * Go's {@code ParseCIDRSloppy}.
   *
   * @param s the text
   * @return the CIDR; empty when {@code s} is not a CIDR
   */
  public static Optional<Cidr> parseCidr(String s) {
    int slash = s.indexOf('/');
    if (slash < 0) {
      return Optional.empty();
    }
    byte[] ip = parse(s.substring(0, slash));
    String len = s.substring(slash + 1);
    if (ip == null || len.isEmpty() || len.length() > 3
        || !len.chars().allMatch(c -> c >= '0' && c <= '9')) {
      return Optional.empty();
    }
    int bits = Integer.parseInt(len);
    if (bits > ip.length * 8) {
      return Optional.empty();
    }
    byte[] masked = ip.clone();
    for (int b = bits; b < masked.length * 8; b++) {
      masked[b / 8] &= (byte) ~(0x80 >> (b % 8));
    }
    return Optional.of(new Cidr(masked, bits));
  }

  /**
   * Go's text of an address: dotted decimal for 4 bytes, RFC 5952 for 16 (lower case, the
   * first longest run of two or more zero groups as {@code ::}; an IPv4-mapped address in
   * hex, so callers print those as their Go type does).
   *
   * @param b 4 or 16 bytes
   * @return the text
   */
  public static String format(byte[] b) {
    if (b.length == 4) {
      return (b[0] & 0xff) + "." + (b[1] & 0xff) + "." + (b[2] & 0xff) + "." + (b[3] & 0xff);
    }
    int[] g = new int[8];
    for (int i = 0; i < 8; i++) {
      g[i] = ((b[2 * i] & 0xff) << 8) | (b[2 * i + 1] & 0xff);
    }
    int bestStart = -1;
    int bestLen = 1;
    for (int i = 0; i < 8; ) {
      if (g[i] != 0) {
        i++;
        continue;
      }
      int j = i;
      while (j < 8 && g[j] == 0) {
        j++;
      }
      if (j - i > bestLen) {
        bestStart = i;
        bestLen = j - i;
      }
      i = j;
    }
    StringBuilder sb = new StringBuilder();
    for (int i = 0; i < 8; i++) {
      if (i == bestStart) {
        sb.append("::");
        i += bestLen - 1;
        continue;
      }
      if (sb.length() > 0 && sb.charAt(sb.length() - 1) != ':') {
        sb.append(':');
      }
      sb.append(Integer.toHexString(g[i]));
    }
    return sb.toString();
  }

  private static byte[] parseIpv4(String s) {
    String[] parts = s.split("\\.", -1);
    if (parts.length != 4) {
      return null;
    }
    byte[] out = new byte[4];
    for (int i = 0; i < 4; i++) {
      String p = parts[i];
      if (p.isEmpty() || p.length() > 3 || !p.chars().allMatch(c -> c >= '0' && c <= '9')) {
        return null;
      }
      int n = Integer.parseInt(p);
      if (n > 255) {
        return null;
      }
      out[i] = (byte) n;
    }
    return out;
  }

  private static byte[] parseIpv6(String s) {
    int dbl = s.indexOf("::");
    if (dbl >= 0 && s.indexOf("::", dbl + 1) >= 0) {
      return null;
    }
    List<Integer> head = new ArrayList<>();
    List<Integer> tail = new ArrayList<>();
    if (dbl >= 0) {
      // an embedded IPv4 address may only end the text
      if (!groups(s.substring(0, dbl), head, false) || !groups(s.substring(dbl + 2), tail, true)
          || head.size() + tail.size() > 7) {
        return null;
      }
    } else if (!groups(s, head, true) || head.size() != 8) {
      return null;
    }
    byte[] out = new byte[16];
    for (int i = 0; i < head.size(); i++) {
      out[2 * i] = (byte) (head.get(i) >> 8);
      out[2 * i + 1] = (byte) (int) head.get(i);
    }
    for (int i = 0; i < tail.size(); i++) {
      int at = 8 - tail.size() + i;
      out[2 * at] = (byte) (tail.get(i) >> 8);
      out[2 * at + 1] = (byte) (int) tail.get(i);
    }
    return out;
  }

  private static boolean groups(String s, List<Integer> out, boolean allowV4Tail) {
    if (s.isEmpty()) {
      return true;
    }
    String[] parts = s.split(":", -1);
    for (int i = 0; i < parts.length; i++) {
      String p = parts[i];
      if (allowV4Tail && i == parts.length - 1 && p.contains(".")) {
        byte[] v4 = parseIpv4(p);
        if (v4 == null) {
          return false;
        }
        out.add(((v4[0] & 0xff) << 8) | (v4[1] & 0xff));
        out.add(((v4[2] & 0xff) << 8) | (v4[3] & 0xff));
        continue;
      }
      if (p.isEmpty() || p.length() > 4) {
        return false;
      }
      for (char c : p.toCharArray()) {
        if (Character.digit(c, 16) < 0 || c > 'f') {
          return false;
        }
      }
      out.add(Integer.parseInt(p, 16));
    }
    return true;
  }
}
