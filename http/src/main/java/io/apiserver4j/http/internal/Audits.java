/*
 * Copyright The apiserver4j authors.
 * SPDX-License-Identifier: Apache-2.0
 */
package io.apiserver4j.http.internal;

import io.apiserver4j.core.DecodeLimits;
import io.apiserver4j.core.Json;
import io.apiserver4j.core.Value;
import io.apiserver4j.core.Yaml;
import java.net.InetAddress;
import java.net.InetSocketAddress;
import java.net.SocketAddress;
import java.net.UnknownHostException;
import java.nio.charset.StandardCharsets;
import java.security.cert.X509Certificate;
import java.util.ArrayList;
import java.util.List;
import java.util.Locale;
import java.util.regex.Pattern;
import org.eclipse.jetty.server.Request;

/** What the audit of a request is told about it, read as kube-apiserver reads it. */
final class Audits {
  private static final int MAX_USER_AGENT = 1024;
  private static final Pattern IPV4 = Pattern.compile("\\d{1,3}(\\.\\d{1,3}){3}");
  private static final Pattern IPV6 = Pattern.compile("[0-9A-Fa-f:.]*:[0-9A-Fa-f:.]*");

  private Audits() {}

  /** kube's {@code maybeTruncateUserAgent}: at most 1024 bytes, then a marker. */
  static String userAgent(String ua) {
    byte[] bytes = ua.getBytes(StandardCharsets.UTF_8);
    if (bytes.length <= MAX_USER_AGENT) {
      return ua;
    }
    return new String(bytes, 0, MAX_USER_AGENT, StandardCharsets.UTF_8) + "...TRUNCATED";
  }

  /**
   * kube's {@code utilnet.SourceIPs}: the valid addresses of {@code X-Forwarded-For}, then
   * {@code X-Real-Ip} unless already listed, then the peer unless it is the last one listed.
   */
  static List<String> sourceIps(Request request) {
    List<String> out = new ArrayList<>();
    String forwarded = request.getHeaders().get("X-Forwarded-For");
    if (forwarded != null && !forwarded.isEmpty()) {
      for (String part : forwarded.split(",", -1)) {
        String ip = ip(part.trim());
        if (ip != null) {
          out.add(ip);
        }
      }
    }
    String real = request.getHeaders().get("X-Real-Ip");
    if (real != null && !real.isEmpty()) {
      String ip = ip(real);
      if (ip != null && !out.contains(ip)) {
        out.add(ip);
      }
    }
    SocketAddress remote = request.getConnectionMetaData().getRemoteSocketAddress();
    if (remote instanceof InetSocketAddress i && i.getAddress() != null) {
      String ip = format(i.getAddress());
      if (out.isEmpty() || !out.get(out.size() - 1).equals(ip)) {
        out.add(ip);
      }
    }
    return out;
  }

  /** The address as Go's {@code net.IP.String()} prints it, or null when not an IP literal. */
  static String ip(String s) {
    if (!IPV4.matcher(s).matches() && !IPV6.matcher(s).matches()) {
      return null;
    }
    try {
      return format(InetAddress.getByName(s));
    } catch (UnknownHostException e) {
      return null;
    }
  }

  /** Go's IP text: dotted IPv4 (also for IPv4-mapped), RFC 5952 IPv6 (longest zero run ::). */
  static String format(InetAddress address) {
    return io.apiserver4j.core.IpAddresses.format(address.getAddress());
  }

  /** kube's {@code getAuthMethods}: the credentials a request tried, in kube's words. */
  static String authenticationMethods(Request request, List<X509Certificate> certs) {
    List<String> methods = new ArrayList<>();
    String auth = request.getHeaders().get("Authorization");
    auth = auth == null ? "" : auth.trim();
    String[] parts = auth.split(" ", -1);
    if (parts.length > 1 && parts[0].equalsIgnoreCase("basic")) {
      methods.add("basic");
    }
    if (parts.length > 1 && parts[0].equalsIgnoreCase("bearer")) {
      methods.add("bearer");
    }
    String token = Request.extractQueryParameters(request).getValue("access_token");
    if (token != null && !token.trim().isEmpty()) {
      methods.add("access_token");
    }
    if (!certs.isEmpty()) {
      methods.add("x509");
    }
    return methods.isEmpty() ? "Authentication failed, no credentials provided"
        : "Authentication failed, attempted: " + String.join(", ", methods);
  }

  /** A JSON or YAML body as a value (throws when it does not decode). */
  static Value decode(byte[] body, String mediaType) {
    if (mediaType.equals("application/yaml")) {
      return Yaml.read(new String(body, StandardCharsets.UTF_8));
    }
    try {
      return Json.read(body, DecodeLimits.DEFAULT);
    } catch (RuntimeException e) {
      // an apply patch may be YAML; YAML reads JSON too
      return Yaml.read(new String(body, StandardCharsets.UTF_8));
    }
  }
}
