package io.apiserver4j.apiserver.internal;

import java.math.BigInteger;
import java.util.Optional;

/**
 * IP addresses and CIDRs as numbers, parsed without name resolution (never
 * {@code InetAddress.getByName} on a hostname): what kube's {@code netutils.ParseIPSloppy} and
 * {@code ParseCIDRSloppy} accept. Stateless.
 */
final class IpAddresses {
  static final String INVALID_IP = "must be a valid IP address, (e.g. 10.9.8.7 or 2001:db8::ffff)";

  private IpAddresses() {}

  /** An address: its value and whether it is IPv6. */
  record Ip(BigInteger value, boolean v6) {
    int bits() {
      return v6 ? 128 : 32;
    }

    @Override
    public String toString() {
      return v6 ? formatV6(value) : formatV4(value.longValueExact());
    }
  }

  /** A CIDR: its first address and prefix length. */
  record Cidr(Ip base, int prefix) {
    /** The number of addresses. */
    BigInteger size() {
      return BigInteger.ONE.shiftLeft(base.bits() - prefix);
    }

    boolean contains(Ip ip) {
      return ip.v6() == base.v6() && ip.value().compareTo(base.value()) >= 0
          && ip.value().compareTo(base.value().add(size())) < 0;
    }

    Ip at(BigInteger offset) {
      return new Ip(base.value().add(offset), base.v6());
    }

    @Override
    public String toString() {
      return base + "/" + prefix;
    }
  }

  static Optional<Ip> parse(String s) {
    if (s.isEmpty() || s.chars().anyMatch(c -> c == '%' || Character.isWhitespace(c))) {
      return Optional.empty();
    }
    if (s.contains(":")) {
      return parseV6(s);
    }
    String[] parts = s.split("\\.", -1);
    if (parts.length != 4) {
      return Optional.empty();
    }
    long v = 0;
    for (String p : parts) {
      if (p.isEmpty() || p.length() > 3 || !p.chars().allMatch(Character::isDigit)) {
        return Optional.empty();
      }
      int n = Integer.parseInt(p);
      if (n > 255) {
        return Optional.empty();
      }
      v = v << 8 | n;
    }
    return Optional.of(new Ip(BigInteger.valueOf(v), false));
  }

  static boolean isIpv6(String s) {
    return parse(s).map(Ip::v6).orElse(false);
  }

  static Optional<Cidr> parseCidr(String s) {
    int slash = s.indexOf('/');
    if (slash < 0) {
      return Optional.empty();
    }
    Optional<Ip> ip = parse(s.substring(0, slash));
    String bits = s.substring(slash + 1);
    if (ip.isEmpty() || bits.isEmpty() || bits.length() > 3
        || !bits.chars().allMatch(Character::isDigit)) {
      return Optional.empty();
    }
    int prefix = Integer.parseInt(bits);
    if (prefix > ip.get().bits()) {
      return Optional.empty();
    }
    int host = ip.get().bits() - prefix;
    BigInteger masked = ip.get().value().shiftRight(host).shiftLeft(host);
    return Optional.of(new Cidr(new Ip(masked, ip.get().v6()), prefix));
  }

  private static Optional<Ip> parseV6(String s) {
    int dbl = s.indexOf("::");
    if (dbl >= 0 && s.indexOf("::", dbl + 1) >= 0) {
      return Optional.empty();
    }
    String head = dbl >= 0 ? s.substring(0, dbl) : s;
    String tail = dbl >= 0 ? s.substring(dbl + 2) : "";
    java.util.List<Integer> left = new java.util.ArrayList<>();
    java.util.List<Integer> right = new java.util.ArrayList<>();
    if (!groups(head, left) || !groups(tail, right)) {
      return Optional.empty();
    }
    int total = left.size() + right.size();
    if ((dbl < 0 && total != 8) || (dbl >= 0 && total > 7)) {
      return Optional.empty();
    }
    BigInteger l = BigInteger.ZERO;
    for (int g : left) {
      l = l.shiftLeft(16).or(BigInteger.valueOf(g));
    }
    BigInteger r = BigInteger.ZERO;
    for (int g : right) {
      r = r.shiftLeft(16).or(BigInteger.valueOf(g));
    }
    // the groups before "::" are the high ones, those after it the low ones
    BigInteger v = l.shiftLeft(16 * (8 - left.size())).or(r);
    return Optional.of(new Ip(v, true));
  }

  private static boolean groups(String s, java.util.List<Integer> out) {
    if (s.isEmpty()) {
      return true;
    }
    String[] parts = s.split(":", -1);
    for (int i = 0; i < parts.length; i++) {
      String p = parts[i];
      if (i == parts.length - 1 && p.contains(".")) {
        Optional<Ip> v4 = parse(p);
        if (v4.isEmpty() || v4.get().v6()) {
          return false;
        }
        long n = v4.get().value().longValueExact();
        out.add((int) (n >> 16));
        out.add((int) (n & 0xffff));
        continue;
      }
      if (p.isEmpty() || p.length() > 4) {
        return false;
      }
      try {
        out.add(Integer.parseInt(p, 16));
      } catch (NumberFormatException e) {
        return false;
      }
    }
    return true;
  }

  private static String formatV4(long v) {
    return (v >> 24 & 255) + "." + (v >> 16 & 255) + "." + (v >> 8 & 255) + "." + (v & 255);
  }

  // RFC 5952: lower case, the longest run of two or more zero groups as "::"
  private static String formatV6(BigInteger v) {
    int[] g = new int[8];
    for (int i = 7; i >= 0; i--) {
      g[7 - i] = v.shiftRight(16 * i).intValue() & 0xffff;
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
}
