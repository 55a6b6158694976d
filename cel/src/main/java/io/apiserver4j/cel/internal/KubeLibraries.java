/*
 * Copyright The apiserver4j authors.
 * SPDX-License-Identifier: Apache-2.0
 */
package io.apiserver4j.cel.internal;

import com.google.common.collect.ImmutableList;
import com.google.common.collect.ImmutableMap;
import dev.cel.bundle.CelBuilder;
import dev.cel.common.CelFunctionDecl;
import dev.cel.common.CelOverloadDecl;
import dev.cel.common.types.CelType;
import dev.cel.common.types.ListType;
import dev.cel.common.types.MapType;
import dev.cel.common.types.OpaqueType;
import dev.cel.common.types.OptionalType;
import dev.cel.common.types.SimpleType;
import dev.cel.runtime.CelEvaluationException;
import dev.cel.runtime.CelFunctionBinding;
import io.apiserver4j.core.LabelValidation;
import java.math.BigDecimal;
import java.math.BigInteger;
import java.math.RoundingMode;
import java.net.InetAddress;
import java.net.URI;
import java.net.URISyntaxException;
import java.net.UnknownHostException;
import java.nio.charset.StandardCharsets;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import java.util.function.Function;
import java.util.regex.Matcher;
import java.util.regex.Pattern;

/**
 * Kubernetes' CEL libraries (k8s.io/apiserver/pkg/cel/library) that CRD rules use most: ip,
 * cidr, url, quantity, semver and format, with kube's function names, overload ids and error
 * messages, written on cel-java's declaration and binding API.
 */
final class KubeLibraries {
  static final CelType IP = OpaqueType.create("net.IP");
  static final CelType CIDR = OpaqueType.create("net.CIDR");
  static final CelType URL = OpaqueType.create("kubernetes.URL");
  static final CelType QUANTITY = OpaqueType.create("kubernetes.Quantity");
  static final CelType SEMVER = OpaqueType.create("kubernetes.Semver");
  static final CelType FORMAT = OpaqueType.create("kubernetes.NamedFormat");

  /** The type names kube's libraries declare, so that rules may name the types. */
  static final dev.cel.common.types.CelTypeProvider TYPE_PROVIDER =
      new dev.cel.common.types.CelTypeProvider() {
        private final com.google.common.collect.ImmutableList<CelType> types =
            com.google.common.collect.ImmutableList.of(IP, CIDR, URL, QUANTITY, SEMVER, FORMAT);

        @Override
        public com.google.common.collect.ImmutableCollection<CelType> types() {
          return types;
        }

        @Override
        public java.util.Optional<CelType> findType(String typeName) {
          return types.stream().filter(t -> t.name().equals(typeName)).findFirst();
        }
      };

  private KubeLibraries() {}

  static void addAll(CelBuilder b) {
    addIp(b);
    addCidr(b);
    addUrl(b);
    addQuantity(b);
    addSemver(b);
    addFormat(b);
    b.addFunctionDeclarations(CelFunctionDecl.newFunctionDeclaration("string",
        CelOverloadDecl.newGlobalOverload("ip_to_string", SimpleType.STRING, IP),
        CelOverloadDecl.newGlobalOverload("cidr_to_string", SimpleType.STRING, CIDR)));
    b.addFunctionBindings(
        CelFunctionBinding.from("ip_to_string", IpValue.class, IpValue::toString),
        CelFunctionBinding.from("cidr_to_string", CidrValue.class, CidrValue::toString));
  }

  private static CelFunctionDecl global(String name, String id, CelType result, CelType... args) {
    return CelFunctionDecl.newFunctionDeclaration(name,
        CelOverloadDecl.newGlobalOverload(id, result, args));
  }

  private static CelFunctionDecl member(String name, String id, CelType result, CelType... args) {
    return CelFunctionDecl.newFunctionDeclaration(name,
        CelOverloadDecl.newMemberOverload(id, result, args));
  }

  // --- ip ---------------------------------------------------------------------------------------

  /** An IP address as kube's CEL {@code net.IP}: netip.Addr without zones or 4-in-6. */
  record IpValue(byte[] bytes) {
    static IpValue parse(String raw) throws CelEvaluationException {
      if (raw.contains("%")) {
        throw new CelEvaluationException("IP address \"" + raw
            + "\" with zone value is not allowed");
      }
      byte[] b;
      try {
        b = parseAddrOrThrow(raw);
      } catch (AddrException e) {
        throw new CelEvaluationException("IP Address \"" + raw
            + "\" parse error during conversion from string: " + e.getMessage());
      }
      if (b.length == 16 && isMapped(b)) {
        throw new CelEvaluationException("IPv4-mapped IPv6 address \"" + raw
            + "\" is not allowed");
      }
      return new IpValue(b);
    }

    long family() {
      return bytes.length == 4 ? 4 : 6;
    }

    InetAddress address() {
      try {
        return InetAddress.getByAddress(bytes);
      } catch (UnknownHostException e) {
        throw new IllegalStateException(e);
      }
    }

    @Override
    public boolean equals(Object o) {
      return o instanceof IpValue other && Arrays.equals(bytes, other.bytes);
    }

    @Override
    public int hashCode() {
      return Arrays.hashCode(bytes);
    }

    @Override
    public String toString() {
      return canonicalIpv6(bytes);
    }
  }

  static boolean isMapped(byte[] b) {
    for (int i = 0; i < 10; i++) {
      if (b[i] != 0) {
        return false;
      }
    }
    return (b[10] & 0xff) == 0xff && (b[11] & 0xff) == 0xff;
  }

  /** A Go netip parse error: the message and the unparsed rest it points at. */
  static final class AddrException extends Exception {
    private static final long serialVersionUID = 1L;

    AddrException(String in, String msg, String at) {
      super("ParseAddr(" + quote(in) + "): " + msg + (at.isEmpty() ? "" : " (at " + quote(at) + ")"));
    }
  }

  static String quote(String s) {
    return "\"" + s.replace("\\", "\\\\").replace("\"", "\\\"") + "\"";
  }

  /** Go's netip.ParseAddr, with its error messages; null-free. */
  static byte[] parseAddrOrThrow(String s) throws AddrException {
    for (int i = 0; i < s.length(); i++) {
      char c = s.charAt(i);
      if (c == '.') {
        return parseIpv4(s, s);
      }
      if (c == ':') {
        return parseIpv6(s);
      }
      if (c == '%') {
        throw new AddrException(s, "missing IPv6 address", "");
      }
    }
    throw new AddrException(s, "unable to parse IP", "");
  }

  static byte[] parseAddr(String s) {
    try {
      return parseAddrOrThrow(s);
    } catch (AddrException e) {
      return null;
    }
  }

  private static byte[] parseIpv4(String in, String s) throws AddrException {
    byte[] out = new byte[4];
    int fields = 0;
    int val = 0;
    int digits = 0;
    for (int i = 0; i < s.length(); i++) {
      char c = s.charAt(i);
      if (c >= '0' && c <= '9') {
        if (digits == 1 && val == 0) {
          throw new AddrException(in, "IPv4 field has octet with leading zero", "");
        }
        val = val * 10 + (c - '0');
        digits++;
        if (val > 255) {
          throw new AddrException(in, "IPv4 field has value >255", "");
        }
      } else if (c == '.') {
        if (i == 0 || i == s.length() - 1 || s.charAt(i - 1) == '.') {
          throw new AddrException(in, "IPv4 field must have at least one digit", s.substring(i));
        }
        if (fields == 3) {
          throw new AddrException(in, "IPv4 address too long", "");
        }
        out[fields++] = (byte) val;
        val = 0;
        digits = 0;
      } else {
        throw new AddrException(in, "unexpected character", s.substring(i));
      }
    }
    if (fields < 3) {
      throw new AddrException(in, "IPv4 address too short", "");
    }
    out[3] = (byte) val;
    return out;
  }

  private static byte[] parseIpv6(String in) throws AddrException {
    String s = in;
    byte[] ip = new byte[16];
    int ellipsis = -1;
    int i = 0;
    if (s.length() >= 2 && s.charAt(0) == ':' && s.charAt(1) == ':') {
      ellipsis = 0;
      s = s.substring(2);
      if (s.isEmpty()) {
        return ip;
      }
    }
    while (i < 16) {
      int off = 0;
      int acc = 0;
      while (off < s.length()) {
        int d = Character.digit(s.charAt(off), 16);
        if (d < 0) {
          break;
        }
        acc = acc * 16 + d;
        off++;
        if (off > 4) {
          throw new AddrException(in, "each colon-separated field must have at most 4 hex digits",
              s);
        }
      }
      if (off == 0) {
        throw new AddrException(in, "each colon-separated field must have at least one digit", s);
      }
      if (off < s.length() && s.charAt(off) == '.') {
        if (ellipsis < 0 && i != 12) {
          throw new AddrException(in,
              "embedded IPv4 address must replace the final 2 fields of the address", s);
        }
        if (i + 4 > 16) {
          throw new AddrException(in,
              "too many hex fields to fit an embedded IPv4 at the end of the address", s);
        }
        byte[] v4 = parseIpv4(in, s);
        System.arraycopy(v4, 0, ip, i, 4);
        i += 4;
        s = "";
        break;
      }
      ip[i] = (byte) (acc >> 8);
      ip[i + 1] = (byte) acc;
      i += 2;
      s = s.substring(off);
      if (s.isEmpty()) {
        break;
      }
      if (s.charAt(0) != ':') {
        throw new AddrException(in, "unexpected character, want colon", s);
      } else if (s.length() == 1) {
        throw new AddrException(in, "colon must be followed by more characters", s);
      }
      s = s.substring(1);
      if (s.charAt(0) == ':') {
        if (ellipsis >= 0) {
          throw new AddrException(in, "multiple :: in address", s);
        }
        ellipsis = i;
        s = s.substring(1);
        if (s.isEmpty()) {
          break;
        }
      }
    }
    if (!s.isEmpty()) {
      throw new AddrException(in, "trailing garbage after address", s);
    }
    if (i < 16) {
      if (ellipsis < 0) {
        throw new AddrException(in, "address string too short", "");
      }
      int n = 16 - i;
      for (int j = i - 1; j >= ellipsis; j--) {
        ip[j + n] = ip[j];
      }
      for (int j = ellipsis + n - 1; j >= ellipsis; j--) {
        ip[j] = 0;
      }
    } else if (ellipsis >= 0) {
      throw new AddrException(in, "the :: must expand to at least one field of zeros", "");
    }
    return ip;
  }

  // Go's netip text: an IPv4-mapped address keeps its dotted tail
  private static String canonicalIpv6(byte[] b) {
    if (b.length == 16 && isMapped(b)) {
      return "::ffff:" + (b[12] & 0xff) + "." + (b[13] & 0xff) + "." + (b[14] & 0xff) + "."
          + (b[15] & 0xff);
    }
    return io.apiserver4j.core.IpAddresses.format(b);
  }

  private static void addIp(CelBuilder b) {
    b.addFunctionDeclarations(
        global("ip", "string_to_ip", IP, SimpleType.STRING),
        global("isIP", "is_ip", SimpleType.BOOL, SimpleType.STRING),
        global("ip.isCanonical", "ip_is_canonical", SimpleType.BOOL, SimpleType.STRING),
        member("family", "ip_family", SimpleType.INT, IP),
        member("isUnspecified", "ip_is_unspecified", SimpleType.BOOL, IP),
        member("isLoopback", "ip_is_loopback", SimpleType.BOOL, IP),
        member("isLinkLocalMulticast", "ip_is_link_local_multicast", SimpleType.BOOL, IP),
        member("isLinkLocalUnicast", "ip_is_link_local_unicast", SimpleType.BOOL, IP),
        member("isGlobalUnicast", "ip_is_global_unicast", SimpleType.BOOL, IP));
    b.addFunctionBindings(
        CelFunctionBinding.from("string_to_ip", String.class, IpValue::parse),
        CelFunctionBinding.from("is_ip", String.class, s -> {
          try {
            IpValue.parse(s);
            return true;
          } catch (CelEvaluationException e) {
            return false;
          }
        }),
        CelFunctionBinding.from("ip_is_canonical", String.class,
            s -> IpValue.parse(s).toString().equals(s)),
        CelFunctionBinding.from("ip_family", IpValue.class, IpValue::family),
        CelFunctionBinding.from("ip_is_unspecified", IpValue.class,
            ip -> ip.address().isAnyLocalAddress()),
        CelFunctionBinding.from("ip_is_loopback", IpValue.class,
            ip -> ip.address().isLoopbackAddress()),
        CelFunctionBinding.from("ip_is_link_local_multicast", IpValue.class,
            ip -> ip.family() == 4 ? (ip.bytes()[0] & 0xff) == 224 && ip.bytes()[1] == 0
                && ip.bytes()[2] == 0
                : (ip.bytes()[0] & 0xff) == 0xff && (ip.bytes()[1] & 0x0f) == 0x02),
        CelFunctionBinding.from("ip_is_link_local_unicast", IpValue.class,
            ip -> ip.address().isLinkLocalAddress()),
        CelFunctionBinding.from("ip_is_global_unicast", IpValue.class, ip -> {
          InetAddress a = ip.address();
          boolean broadcast = ip.family() == 4 && Arrays.equals(ip.bytes(),
              new byte[] {(byte) 255, (byte) 255, (byte) 255, (byte) 255});
          return !a.isAnyLocalAddress() && !a.isLoopbackAddress() && !a.isMulticastAddress()
              && !a.isLinkLocalAddress() && !broadcast;
        }));
  }

  // --- cidr -------------------------------------------------------------------------------------

  /** A network prefix as kube's CEL {@code net.IPPrefix}. */
  record CidrValue(IpValue ip, int bits) {
    static CidrValue parse(String raw) throws CelEvaluationException {
      int slash = raw.lastIndexOf('/');
      String error = "network address parse error during conversion from string: "
          + "network address parse error during conversion from string: "
          + "netip.ParsePrefix(" + quote(raw) + "): ";
      if (slash < 0) {
        throw new CelEvaluationException(error + "no '/'");
      }
      String addr = raw.substring(0, slash);
      String len = raw.substring(slash + 1);
      if (addr.contains("%")) {
        throw new CelEvaluationException(error + "IPv6 zones cannot be present in a prefix");
      }
      byte[] b;
      try {
        b = parseAddrOrThrow(addr);
      } catch (AddrException e) {
        throw new CelEvaluationException(error + e.getMessage());
      }
      if (b.length == 16 && isMapped(b)) {
        throw new CelEvaluationException("IPv4-mapped IPv6 address \"" + raw
            + "\" is not allowed");
      }
      int max = b.length * 8;
      if (len.isEmpty() || len.length() > 3 || !len.chars().allMatch(Character::isDigit)
          || (len.length() > 1 && len.charAt(0) == '0') || Integer.parseInt(len) > max) {
        throw new CelEvaluationException(error + "bad bits after slash: \"" + len + "\"");
      }
      return new CidrValue(new IpValue(b), Integer.parseInt(len));
    }

    boolean contains(IpValue other) {
      byte[] a = ip.bytes();
      byte[] o = other.bytes();
      if (a.length != o.length) {
        return false;
      }
      for (int i = 0; i < bits; i++) {
        int mask = 0x80 >> (i % 8);
        if ((a[i / 8] & mask) != (o[i / 8] & mask)) {
          return false;
        }
      }
      return true;
    }

    CidrValue masked() {
      byte[] a = ip.bytes().clone();
      for (int i = bits; i < a.length * 8; i++) {
        a[i / 8] &= (byte) ~(0x80 >> (i % 8));
      }
      return new CidrValue(new IpValue(a), bits);
    }

    @Override
    public String toString() {
      return ip + "/" + bits;
    }
  }

  private static void addCidr(CelBuilder b) {
    b.addFunctionDeclarations(
        global("cidr", "string_to_cidr", CIDR, SimpleType.STRING),
        global("isCIDR", "is_cidr", SimpleType.BOOL, SimpleType.STRING),
        CelFunctionDecl.newFunctionDeclaration("containsIP",
            CelOverloadDecl.newMemberOverload("cidr_contains_ip_string", SimpleType.BOOL, CIDR,
                SimpleType.STRING),
            CelOverloadDecl.newMemberOverload("cidr_contains_ip_ip", SimpleType.BOOL, CIDR, IP)),
        CelFunctionDecl.newFunctionDeclaration("containsCIDR",
            CelOverloadDecl.newMemberOverload("cidr_contains_cidr_string", SimpleType.BOOL, CIDR,
                SimpleType.STRING),
            CelOverloadDecl.newMemberOverload("cidr_contains_cidr", SimpleType.BOOL, CIDR, CIDR)),
        member("ip", "cidr_ip", IP, CIDR),
        member("prefixLength", "cidr_prefix_length", SimpleType.INT, CIDR),
        member("masked", "cidr_masked", CIDR, CIDR));
    b.addFunctionBindings(
        CelFunctionBinding.from("string_to_cidr", String.class, CidrValue::parse),
        CelFunctionBinding.from("is_cidr", String.class, s -> {
          try {
            CidrValue.parse(s);
            return true;
          } catch (CelEvaluationException e) {
            return false;
          }
        }),
        CelFunctionBinding.from("cidr_contains_ip_string", CidrValue.class, String.class,
            (c, s) -> c.contains(IpValue.parse(s))),
        CelFunctionBinding.from("cidr_contains_ip_ip", CidrValue.class, IpValue.class,
            CidrValue::contains),
        CelFunctionBinding.from("cidr_contains_cidr_string", CidrValue.class, String.class,
            (c, s) -> containsCidr(c, CidrValue.parse(s))),
        CelFunctionBinding.from("cidr_contains_cidr", CidrValue.class, CidrValue.class,
            KubeLibraries::containsCidr),
        CelFunctionBinding.from("cidr_ip", CidrValue.class, CidrValue::ip),
        CelFunctionBinding.from("cidr_prefix_length", CidrValue.class, c -> (long) c.bits()),
        CelFunctionBinding.from("cidr_masked", CidrValue.class, CidrValue::masked));
  }

  private static boolean containsCidr(CidrValue c, CidrValue other) {
    return other.bits() >= c.bits() && c.contains(other.ip());
  }

  // --- url --------------------------------------------------------------------------------------

  /** A URL as Go's url.ParseRequestURI reads it. */
  record UrlValue(URI uri) {
    static UrlValue parse(String raw) throws CelEvaluationException {
      try {
        // Go takes spaces in paths and queries as they are (and escapes them in the escaped
        // path); java.net.URI wants them escaped
        URI u = new URI(raw.replace(" ", "%20"));
        if (!u.isAbsolute() && !raw.startsWith("/")) {
          throw new CelEvaluationException("URL parse error during conversion from string: "
              + "parse \"" + raw + "\": invalid URI for request");
        }
        UrlValue url = new UrlValue(u);
        if (u.getRawAuthority() != null && u.getRawAuthority().contains("%20")) {
          throw new CelEvaluationException("URL parse error during conversion from string: "
              + "parse \"" + raw + "\": invalid character \" \" in host name");
        }
        String port = url.port();
        if (!port.chars().allMatch(Character::isDigit)) {
          throw new CelEvaluationException("URL parse error during conversion from string: "
              + "parse \"" + raw + "\": invalid port \":" + port + "\" after host");
        }
        return url;
      } catch (URISyntaxException e) {
        throw new CelEvaluationException("URL parse error during conversion from string: "
            + "parse \"" + raw + "\": " + e.getReason());
      }
    }

    String host() {
      String authority = uri.getRawAuthority();
      if (authority == null) {
        return "";
      }
      int at = authority.lastIndexOf('@');
      return at >= 0 ? authority.substring(at + 1) : authority;
    }

    String hostname() {
      String h = host();
      if (h.startsWith("[")) {
        int end = h.indexOf(']');
        return end < 0 ? h : h.substring(1, end);
      }
      int colon = h.lastIndexOf(':');
      return colon < 0 ? h : h.substring(0, colon);
    }

    String port() {
      String h = host();
      int bracket = h.lastIndexOf(']');
      int colon = h.lastIndexOf(':');
      return colon > bracket ? h.substring(colon + 1) : "";
    }
  }

  private static void addUrl(CelBuilder b) {
    b.addFunctionDeclarations(
        global("url", "string_to_url", URL, SimpleType.STRING),
        global("isURL", "is_url_string", SimpleType.BOOL, SimpleType.STRING),
        member("getScheme", "url_get_scheme", SimpleType.STRING, URL),
        member("getHost", "url_get_host", SimpleType.STRING, URL),
        member("getHostname", "url_get_hostname", SimpleType.STRING, URL),
        member("getPort", "url_get_port", SimpleType.STRING, URL),
        member("getEscapedPath", "url_get_escaped_path", SimpleType.STRING, URL),
        member("getQuery", "url_get_query",
            MapType.create(SimpleType.STRING, ListType.create(SimpleType.STRING)), URL));
    b.addFunctionBindings(
        CelFunctionBinding.from("string_to_url", String.class, UrlValue::parse),
        CelFunctionBinding.from("is_url_string", String.class, s -> {
          try {
            UrlValue.parse(s);
            return true;
          } catch (CelEvaluationException e) {
            return false;
          }
        }),
        CelFunctionBinding.from("url_get_scheme", UrlValue.class,
            u -> u.uri().getScheme() == null ? "" : u.uri().getScheme()),
        CelFunctionBinding.from("url_get_host", UrlValue.class, UrlValue::host),
        CelFunctionBinding.from("url_get_hostname", UrlValue.class, UrlValue::hostname),
        CelFunctionBinding.from("url_get_port", UrlValue.class, UrlValue::port),
        CelFunctionBinding.from("url_get_escaped_path", UrlValue.class,
            u -> u.uri().getRawPath() == null ? "" : u.uri().getRawPath()),
        CelFunctionBinding.from("url_get_query", UrlValue.class, u -> query(u.uri())));
  }

  private static Map<String, List<String>> query(URI u) {
    Map<String, List<String>> out = new LinkedHashMap<>();
    String q = u.getRawQuery();
    if (q != null && !q.isEmpty()) {
      for (String part : q.split("[&;]")) {
        if (part.isEmpty()) {
          continue;
        }
        int eq = part.indexOf('=');
        String k = decode(eq < 0 ? part : part.substring(0, eq));
        String v = eq < 0 ? "" : decode(part.substring(eq + 1));
        out.computeIfAbsent(k, x -> new ArrayList<>()).add(v);
      }
    }
    ImmutableMap.Builder<String, List<String>> b = ImmutableMap.builder();
    out.forEach((k, v) -> b.put(k, ImmutableList.copyOf(v)));
    return b.build();
  }

  private static String decode(String s) {
    return java.net.URLDecoder.decode(s, StandardCharsets.UTF_8);
  }

  // --- quantity ---------------------------------------------------------------------------------

  private static final Pattern QUANTITY_RE =
      Pattern.compile("^([+-]?[0-9.]+)([eEinumkKMGTP]*[-+]?[0-9]*)$");

  /** A resource.Quantity: an exact decimal; equal quantities compare equal whatever the form. */
  record QuantityValue(BigDecimal value) {
    static QuantityValue parse(String raw) throws CelEvaluationException {
      Matcher m = QUANTITY_RE.matcher(raw);
      String number = m.matches() ? m.group(1) : null;
      BigDecimal multiplier = m.matches() ? suffix(m.group(2)) : null;
      if (number != null && multiplier == null) {
        throw new CelEvaluationException("unable to parse quantity's suffix");
      }
      if (number == null || number.equals(".")
          || number.chars().filter(c -> c == '.').count() > 1) {
        throw new CelEvaluationException("quantities must match the regular expression "
            + "'^([+-]?[0-9.]+)([eEinumkKMGTP]*[-+]?[0-9]*)$'");
      }
      return new QuantityValue(new BigDecimal(number).multiply(multiplier));
    }

    @Override
    public boolean equals(Object o) {
      return o instanceof QuantityValue q && q.value.compareTo(value) == 0;
    }

    @Override
    public int hashCode() {
      return value.stripTrailingZeros().hashCode();
    }

    @Override
    public String toString() {
      return value.stripTrailingZeros().toPlainString();
    }
  }

  private static BigDecimal suffix(String s) {
    switch (s) {
      case "": return BigDecimal.ONE;
      case "Ki": return BigDecimal.valueOf(1L << 10);
      case "Mi": return BigDecimal.valueOf(1L << 20);
      case "Gi": return BigDecimal.valueOf(1L << 30);
      case "Ti": return BigDecimal.valueOf(1L << 40);
      case "Pi": return BigDecimal.valueOf(1L << 50);
      case "Ei": return BigDecimal.valueOf(1L << 60);
      case "n": return BigDecimal.ONE.scaleByPowerOfTen(-9);
      case "u": return BigDecimal.ONE.scaleByPowerOfTen(-6);
      case "m": return BigDecimal.ONE.scaleByPowerOfTen(-3);
      case "k": return BigDecimal.ONE.scaleByPowerOfTen(3);
      case "M": return BigDecimal.ONE.scaleByPowerOfTen(6);
      case "G": return BigDecimal.ONE.scaleByPowerOfTen(9);
      case "T": return BigDecimal.ONE.scaleByPowerOfTen(12);
      case "P": return BigDecimal.ONE.scaleByPowerOfTen(15);
      case "E": return BigDecimal.ONE.scaleByPowerOfTen(18);
      default:
        if (s.length() > 1 && (s.charAt(0) == 'e' || s.charAt(0) == 'E')) {
          try {
            return BigDecimal.ONE.scaleByPowerOfTen(Integer.parseInt(s.substring(1)));
          } catch (NumberFormatException e) {
            return null;
          }
        }
        return null;
    }
  }

  private static final BigDecimal LONG_MAX = BigDecimal.valueOf(Long.MAX_VALUE);
  private static final BigDecimal LONG_MIN = BigDecimal.valueOf(Long.MIN_VALUE);

  private static boolean isInteger(QuantityValue q) {
    BigDecimal v = q.value();
    return v.signum() == 0 || (v.stripTrailingZeros().scale() <= 0
        && v.compareTo(LONG_MAX) <= 0 && v.compareTo(LONG_MIN) >= 0);
  }

  private static void addQuantity(CelBuilder b) {
    b.addFunctionDeclarations(
        global("quantity", "string_to_quantity", QUANTITY, SimpleType.STRING),
        global("isQuantity", "is_quantity_string", SimpleType.BOOL, SimpleType.STRING),
        member("sign", "quantity_sign", SimpleType.INT, QUANTITY),
        member("isGreaterThan", "quantity_is_greater_than", SimpleType.BOOL, QUANTITY, QUANTITY),
        member("isLessThan", "quantity_is_less_than", SimpleType.BOOL, QUANTITY, QUANTITY),
        member("compareTo", "quantity_compare_to", SimpleType.INT, QUANTITY, QUANTITY),
        member("asApproximateFloat", "quantity_get_float", SimpleType.DOUBLE, QUANTITY),
        member("asInteger", "quantity_get_int", SimpleType.INT, QUANTITY),
        member("isInteger", "quantity_is_integer", SimpleType.BOOL, QUANTITY),
        CelFunctionDecl.newFunctionDeclaration("add",
            CelOverloadDecl.newMemberOverload("quantity_add", QUANTITY, QUANTITY, QUANTITY),
            CelOverloadDecl.newMemberOverload("quantity_add_int", QUANTITY, QUANTITY,
                SimpleType.INT)),
        CelFunctionDecl.newFunctionDeclaration("sub",
            CelOverloadDecl.newMemberOverload("quantity_sub", QUANTITY, QUANTITY, QUANTITY),
            CelOverloadDecl.newMemberOverload("quantity_sub_int", QUANTITY, QUANTITY,
                SimpleType.INT)));
    b.addFunctionBindings(
        CelFunctionBinding.from("string_to_quantity", String.class, QuantityValue::parse),
        CelFunctionBinding.from("is_quantity_string", String.class, s -> {
          try {
            QuantityValue.parse(s);
            return true;
          } catch (CelEvaluationException e) {
            return false;
          }
        }),
        CelFunctionBinding.from("quantity_sign", QuantityValue.class,
            q -> (long) q.value().signum()),
        CelFunctionBinding.from("quantity_is_greater_than", QuantityValue.class,
            QuantityValue.class, (a, c) -> a.value().compareTo(c.value()) > 0),
        CelFunctionBinding.from("quantity_is_less_than", QuantityValue.class,
            QuantityValue.class, (a, c) -> a.value().compareTo(c.value()) < 0),
        CelFunctionBinding.from("quantity_compare_to", QuantityValue.class,
            QuantityValue.class, (a, c) -> (long) a.value().compareTo(c.value())),
        CelFunctionBinding.from("quantity_get_float", QuantityValue.class,
            q -> q.value().doubleValue()),
        CelFunctionBinding.from("quantity_get_int", QuantityValue.class, q -> {
          if (!isInteger(q)) {
            throw new CelEvaluationException("cannot convert value to integer");
          }
          return q.value().setScale(0, RoundingMode.UNNECESSARY).longValueExact();
        }),
        CelFunctionBinding.from("quantity_is_integer", QuantityValue.class,
            KubeLibraries::isInteger),
        CelFunctionBinding.from("quantity_add", QuantityValue.class, QuantityValue.class,
            (a, c) -> new QuantityValue(a.value().add(c.value()))),
        CelFunctionBinding.from("quantity_add_int", QuantityValue.class, Long.class,
            (a, c) -> new QuantityValue(a.value().add(BigDecimal.valueOf(c)))),
        CelFunctionBinding.from("quantity_sub", QuantityValue.class, QuantityValue.class,
            (a, c) -> new QuantityValue(a.value().subtract(c.value()))),
        CelFunctionBinding.from("quantity_sub_int", QuantityValue.class, Long.class,
            (a, c) -> new QuantityValue(a.value().subtract(BigDecimal.valueOf(c)))));
  }

  // --- semver -----------------------------------------------------------------------------------

  private static final Pattern SEMVER_RE = Pattern.compile(
      "^(0|[1-9]\\d*)\\.(0|[1-9]\\d*)\\.(0|[1-9]\\d*)(?:-([0-9A-Za-z-]+(?:\\.[0-9A-Za-z-]+)*))?"
      + "(?:\\+([0-9A-Za-z-]+(?:\\.[0-9A-Za-z-]+)*))?$");

  /** A semantic version (blang/semver), ordered by precedence. */
  record SemverValue(BigInteger major, BigInteger minor, BigInteger patch, List<String> pre) {
    static SemverValue parse(String raw, boolean normalize) throws CelEvaluationException {
      String s = raw;
      if (normalize) {
        s = s.startsWith("v") ? s.substring(1) : s;
        String core = s.split("[-+]", 2)[0];
        String rest = s.substring(core.length());
        String[] parts = core.split("\\.", -1);
        if (parts.length < 3 && !rest.isEmpty()) {
          throw new CelEvaluationException(
              "short version cannot contain PreRelease/Build meta data");
        }
        StringBuilder sb = new StringBuilder();
        for (int i = 0; i < 3; i++) {
          String p = i < parts.length ? parts[i] : "0";
          p = p.replaceFirst("^0+(?=\\d)", "");
          sb.append(i > 0 ? "." : "").append(p);
        }
        s = sb + rest;
      }
      Matcher m = SEMVER_RE.matcher(s);
      if (!m.matches()) {
        throw new CelEvaluationException("No Major.Minor.Patch elements found");
      }
      List<String> pre = m.group(4) == null ? List.of() : List.of(m.group(4).split("\\."));
      return new SemverValue(new BigInteger(m.group(1)), new BigInteger(m.group(2)),
          new BigInteger(m.group(3)), pre);
    }

    int compare(SemverValue o) {
      int c = major.compareTo(o.major);
      c = c != 0 ? c : minor.compareTo(o.minor);
      c = c != 0 ? c : patch.compareTo(o.patch);
      if (c != 0) {
        return c;
      }
      if (pre.isEmpty() || o.pre.isEmpty()) {
        return Boolean.compare(pre.isEmpty(), o.pre.isEmpty());
      }
      for (int i = 0; i < Math.min(pre.size(), o.pre.size()); i++) {
        String a = pre.get(i);
        String b = o.pre.get(i);
        boolean an = a.chars().allMatch(Character::isDigit);
        boolean bn = b.chars().allMatch(Character::isDigit);
        int r = an && bn ? new BigInteger(a).compareTo(new BigInteger(b))
            : an ? -1 : bn ? 1 : a.compareTo(b);
        if (r != 0) {
          return r;
        }
      }
      return Integer.compare(pre.size(), o.pre.size());
    }
  }

  private static void addSemver(CelBuilder b) {
    b.addFunctionDeclarations(
        CelFunctionDecl.newFunctionDeclaration("semver",
            CelOverloadDecl.newGlobalOverload("string_to_semver", SEMVER, SimpleType.STRING),
            CelOverloadDecl.newGlobalOverload("string_bool_to_semver", SEMVER, SimpleType.STRING,
                SimpleType.BOOL)),
        CelFunctionDecl.newFunctionDeclaration("isSemver",
            CelOverloadDecl.newGlobalOverload("is_semver_string", SimpleType.BOOL,
                SimpleType.STRING),
            CelOverloadDecl.newGlobalOverload("is_semver_string_bool", SimpleType.BOOL,
                SimpleType.STRING, SimpleType.BOOL)),
        member("isGreaterThan", "semver_is_greater_than", SimpleType.BOOL, SEMVER, SEMVER),
        member("isLessThan", "semver_is_less_than", SimpleType.BOOL, SEMVER, SEMVER),
        member("compareTo", "semver_compare_to", SimpleType.INT, SEMVER, SEMVER),
        member("major", "semver_major", SimpleType.INT, SEMVER),
        member("minor", "semver_minor", SimpleType.INT, SEMVER),
        member("patch", "semver_patch", SimpleType.INT, SEMVER));
    b.addFunctionBindings(
        CelFunctionBinding.from("string_to_semver", String.class,
            s -> SemverValue.parse(s, false)),
        CelFunctionBinding.from("string_bool_to_semver", String.class, Boolean.class,
            SemverValue::parse),
        CelFunctionBinding.from("is_semver_string", String.class, s -> isSemver(s, false)),
        CelFunctionBinding.from("is_semver_string_bool", String.class, Boolean.class,
            KubeLibraries::isSemver),
        CelFunctionBinding.from("semver_is_greater_than", SemverValue.class, SemverValue.class,
            (a, c) -> a.compare(c) > 0),
        CelFunctionBinding.from("semver_is_less_than", SemverValue.class, SemverValue.class,
            (a, c) -> a.compare(c) < 0),
        CelFunctionBinding.from("semver_compare_to", SemverValue.class, SemverValue.class,
            (a, c) -> (long) Integer.signum(a.compare(c))),
        CelFunctionBinding.from("semver_major", SemverValue.class, v -> v.major().longValue()),
        CelFunctionBinding.from("semver_minor", SemverValue.class, v -> v.minor().longValue()),
        CelFunctionBinding.from("semver_patch", SemverValue.class, v -> v.patch().longValue()));
  }

  private static boolean isSemver(String s, boolean normalize) {
    try {
      SemverValue.parse(s, normalize);
      return true;
    } catch (CelEvaluationException e) {
      return false;
    }
  }

  // --- format -----------------------------------------------------------------------------------

  /** A named format of kube's format library. */
  record FormatValue(String name, Function<String, List<String>> check) {}

  private static final String LABEL_FMT = "[a-z0-9]([-a-z0-9]*[a-z0-9])?";
  private static final String SUBDOMAIN_FMT = LABEL_FMT + "(\\." + LABEL_FMT + ")*";
  private static final String DNS1035_FMT = "[a-z]([-a-z0-9]*[a-z0-9])?";
  private static final Pattern LABEL = Pattern.compile(LABEL_FMT);
  private static final Pattern SUBDOMAIN = Pattern.compile(SUBDOMAIN_FMT);
  private static final Pattern DNS1035 = Pattern.compile(DNS1035_FMT);

  private static List<String> dnsLabel(String s, boolean prefix) {
    String v = prefix ? maskTrailingDash(s) : s;
    List<String> errs = new ArrayList<>();
    if (v.getBytes(StandardCharsets.UTF_8).length > 63) {
      errs.add("must be no more than 63 characters");
    }
    if (!LABEL.matcher(v).matches()) {
      errs.add(SUBDOMAIN.matcher(v).matches() ? "must not contain dots"
          : LabelValidation.regexError("a lowercase RFC 1123 label must consist of lower case"
              + " alphanumeric characters or '-', and must start and end with an alphanumeric"
              + " character", LABEL_FMT, "my-name", "123-abc"));
    }
    return errs;
  }

  private static List<String> dnsSubdomain(String s, boolean prefix) {
    String v = prefix ? maskTrailingDash(s) : s;
    List<String> errs = new ArrayList<>();
    if (v.getBytes(StandardCharsets.UTF_8).length > 253) {
      errs.add("must be no more than 253 characters");
    }
    if (!SUBDOMAIN.matcher(v).matches()) {
      errs.add(LabelValidation.regexError("a lowercase RFC 1123 subdomain must consist of lower"
          + " case alphanumeric characters, '-' or '.', and must start and end with an"
          + " alphanumeric character", SUBDOMAIN_FMT, "example.com"));
    }
    return errs;
  }

  private static List<String> dns1035(String s, boolean prefix) {
    String v = prefix ? maskTrailingDash(s) : s;
    List<String> errs = new ArrayList<>();
    if (v.getBytes(StandardCharsets.UTF_8).length > 63) {
      errs.add("must be no more than 63 characters");
    }
    if (!DNS1035.matcher(v).matches()) {
      errs.add(LabelValidation.regexError("a DNS-1035 label must consist of lower case"
          + " alphanumeric characters or '-', start with an alphabetic character, and end with"
          + " an alphanumeric character", DNS1035_FMT, "my-name", "abc-123"));
    }
    return errs;
  }

  private static String maskTrailingDash(String name) {
    if (name.length() > 1 && name.endsWith("-")) {
      return name.substring(0, name.length() - 2) + "a";
    }
    return name;
  }

  private static final Map<String, FormatValue> FORMATS = formats();

  private static Map<String, FormatValue> formats() {
    Map<String, FormatValue> m = new LinkedHashMap<>();
    m.put("dns1123Label", new FormatValue("DNS1123Label", s -> dnsLabel(s, false)));
    m.put("dns1123Subdomain", new FormatValue("DNS1123Subdomain", s -> dnsSubdomain(s, false)));
    m.put("dns1035Label", new FormatValue("DNS1035Label", s -> dns1035(s, false)));
    m.put("qualifiedName", new FormatValue("QualifiedName", LabelValidation::qualifiedName));
    m.put("dns1123LabelPrefix", new FormatValue("DNS1123LabelPrefix", s -> dnsLabel(s, true)));
    m.put("dns1123SubdomainPrefix",
        new FormatValue("DNS1123SubdomainPrefix", s -> dnsSubdomain(s, true)));
    m.put("dns1035LabelPrefix", new FormatValue("DNS1035LabelPrefix", s -> dns1035(s, true)));
    m.put("labelValue", new FormatValue("LabelValue", LabelValidation::labelValue));
    m.put("uri", new FormatValue("URI", s -> {
      try {
        UrlValue.parse(s);
        return List.of();
      } catch (CelEvaluationException e) {
        return List.of(e.getMessage().replace("URL parse error during conversion from string: ",
            ""));
      }
    }));
    m.put("uuid", new FormatValue("uuid", s -> s.matches(
        "(?i)^[0-9a-f]{8}-?[0-9a-f]{4}-?[0-9a-f]{4}-?[0-9a-f]{4}-?[0-9a-f]{12}$")
        ? List.of() : List.of("does not match the UUID format")));
    m.put("byte", new FormatValue("byte", s -> isBase64(s) ? List.of()
        : List.of("invalid base64")));
    m.put("date", new FormatValue("date", s -> {
      try {
        java.time.LocalDate.parse(s);
        return List.of();
      } catch (java.time.format.DateTimeParseException e) {
        return List.of("invalid date");
      }
    }));
    m.put("datetime", new FormatValue("datetime", s -> {
      try {
        java.time.OffsetDateTime.parse(s);
        return List.of();
      } catch (java.time.format.DateTimeParseException e) {
        return List.of("invalid datetime");
      }
    }));
    return m;
  }

  /** Go's base64.StdEncoding: padded, standard alphabet. */
  static boolean isBase64(String s) {
    if (s.length() % 4 != 0 || !s.matches("[A-Za-z0-9+/]*={0,2}")) {
      return false;
    }
    try {
      java.util.Base64.getDecoder().decode(s);
      return true;
    } catch (IllegalArgumentException e) {
      return false;
    }
  }

  private static void addFormat(CelBuilder b) {
    for (Map.Entry<String, FormatValue> f : FORMATS.entrySet()) {
      b.addFunctionDeclarations(global("format." + f.getKey(), "format-" + f.getKey(), FORMAT));
      FormatValue value = f.getValue();
      b.addFunctionBindings(CelFunctionBinding.from("format-" + f.getKey(), List.of(),
          args -> value));
    }
    b.addFunctionDeclarations(
        global("format.named", "format-named", OptionalType.create(FORMAT), SimpleType.STRING),
        member("validate", "format-validate",
            OptionalType.create(ListType.create(SimpleType.STRING)), FORMAT, SimpleType.STRING));
    b.addFunctionBindings(
        CelFunctionBinding.from("format-named", String.class,
            name -> Optional.ofNullable(FORMATS.get(name))),
        CelFunctionBinding.from("format-validate", FormatValue.class, String.class, (f, s) -> {
          List<String> errs = f.check().apply(s);
          return errs.isEmpty() ? Optional.empty() : Optional.of(ImmutableList.copyOf(errs));
        }));
  }
}
