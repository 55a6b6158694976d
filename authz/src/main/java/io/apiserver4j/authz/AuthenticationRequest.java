/*
 * Copyright The apiserver4j authors.
 * SPDX-License-Identifier: Apache-2.0
 */
package io.apiserver4j.authz;

import static java.util.Objects.requireNonNull;

import java.net.InetSocketAddress;
import java.security.cert.X509Certificate;
import java.util.List;
import java.util.Locale;
import java.util.Map;
import java.util.Optional;
import java.util.TreeMap;

/**
 * What an {@link Authenticator} sees of a request: its headers, the client certificate chain
 * verified by the TLS layer against the client CA (empty without TLS or without a client
 * certificate), and the peer address.
 *
 * <p>Immutable.
 */
public final class AuthenticationRequest {
  private final Map<String, List<String>> headers;
  private final List<X509Certificate> clientCertificates;
  private final InetSocketAddress remoteAddress;

  /**
   * @param headers header values by name (names are matched case-insensitively)
   * @param clientCertificates the verified chain, leaf first
   * @param remoteAddress the peer
   */
  public AuthenticationRequest(Map<String, List<String>> headers,
      List<X509Certificate> clientCertificates, InetSocketAddress remoteAddress) {
    TreeMap<String, List<String>> h = new TreeMap<>(String.CASE_INSENSITIVE_ORDER);
    requireNonNull(headers, "headers").forEach((k, v) -> h.put(k, List.copyOf(v)));
    this.headers = java.util.Collections.unmodifiableMap(h);
    this.clientCertificates = List.copyOf(requireNonNull(clientCertificates,
        "clientCertificates"));
    this.remoteAddress = requireNonNull(remoteAddress, "remoteAddress");
  }

  /**
   * The first value of header {@code name}.
   *
   * @param name the header name, case-insensitive
   * @return the value; empty when the header is absent
   */
  public Optional<String> header(String name) {
    List<String> v = headers.get(requireNonNull(name, "name"));
    return v == null || v.isEmpty() ? Optional.empty() : Optional.of(v.get(0));
  }

  /**
   * All headers (case-insensitive keys).
   *
   * @return the headers, each with its values in order
   */
  public Map<String, List<String>> headers() {
    return headers;
  }

  /**
   * The token of an {@code Authorization: Bearer <token>} header, as kube's bearer-token
   * authenticator reads it (scheme case-insensitive, surrounding blanks ignored).
   *
   * @return the token; empty without such a header
   */
  public Optional<String> bearerToken() {
    return header("Authorization").flatMap(a -> {
      String s = a.trim();
      if (s.length() > 7 && s.substring(0, 7).toLowerCase(Locale.ROOT).equals("bearer ")) {
        String token = s.substring(7).trim();
        return token.isEmpty() ? Optional.empty() : Optional.of(token);
      }
      return Optional.empty();
    });
  }

  /**
   * The TLS client certificate chain, verified by the handshake.
   *
   * @return the chain, leaf first; empty without client certificate
   */
  public List<X509Certificate> clientCertificates() {
    return clientCertificates;
  }

  /**
   * The peer's address.
   *
   * @return the remote address of the connection
   */
  public InetSocketAddress remoteAddress() {
    return remoteAddress;
  }
}
