/*
 * Copyright The apiserver4j authors.
 * SPDX-License-Identifier: Apache-2.0
 */
package io.apiserver4j.authz;

import static java.util.Objects.requireNonNull;

import io.apiserver4j.admission.UserInfo;
import java.security.cert.X509Certificate;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import javax.naming.InvalidNameException;
import javax.naming.ldap.LdapName;
import javax.naming.ldap.Rdn;

/** The standard {@link Authenticator}s. */
public final class Authenticators {
  /** The user extra key naming the credential that authenticated the request (kube's). */
  public static final String CREDENTIAL_ID = "authentication.kubernetes.io/credential-id";

  private Authenticators() {}

  /**
   * Static bearer tokens, like kube's {@code --token-auth-file}: {@code Authorization: Bearer
   * <token>} identifies the mapped user; an unknown token is rejected.
   *
   * @param tokens the users by token
   * @return the authenticator
   */
  public static Authenticator bearerTokens(Map<String, UserInfo> tokens) {
    Map<String, UserInfo> copy = Map.copyOf(requireNonNull(tokens, "tokens"));
    return request -> {
      Optional<String> token = request.bearerToken();
      if (token.isEmpty()) {
        return AuthenticationResult.noCredentials();
      }
      UserInfo user = copy.get(token.get());
      return user == null ? AuthenticationResult.rejected("invalid bearer token")
          : AuthenticationResult.authenticated(user);
    };
  }

  /**
   * X.509 client certificates, like kube's {@code --client-ca-file} authenticator: the leaf
   * certificate's subject Common Name is the user name, its Organization values the groups,
   * and, as kube's x509 authenticator ({@code CommonNameUserConversion}), the extra
   * {@code authentication.kubernetes.io/credential-id} is {@code X509SHA256=} and the lower-case
   * hex of the SHA-256 of the leaf certificate's DER encoding. The chain has already been
   * verified against the client CA by the TLS handshake.
   *
   * @return the authenticator
   */
  public static Authenticator clientCertificates() {
    return request -> {
      List<X509Certificate> chain = request.clientCertificates();
      if (chain.isEmpty()) {
        return AuthenticationResult.noCredentials();
      }
      X509Certificate leaf = chain.get(0);
      String name = "";
      List<String> groups = new ArrayList<>();
      try {
        LdapName dn = new LdapName(leaf.getSubjectX500Principal().getName());
        for (Rdn rdn : dn.getRdns()) {
          if (rdn.getType().equalsIgnoreCase("CN")) {
            name = String.valueOf(rdn.getValue());
          } else if (rdn.getType().equalsIgnoreCase("O")) {
            groups.add(String.valueOf(rdn.getValue()));
          }
        }
      } catch (InvalidNameException e) {
        return AuthenticationResult.rejected("unreadable certificate subject");
      }
      if (name.isEmpty()) {
        return AuthenticationResult.rejected("client certificate without a common name");
      }
      // getRdns() is in the certificate's own (ASN.1) order, the order kube reports groups in
      String credentialId;
      try {
        credentialId = "X509SHA256=" + java.util.HexFormat.of().formatHex(
            java.security.MessageDigest.getInstance("SHA-256").digest(leaf.getEncoded()));
      } catch (java.security.GeneralSecurityException e) {
        return AuthenticationResult.rejected("unreadable client certificate");
      }
      return AuthenticationResult.authenticated(new UserInfo(name, "", groups,
          Map.of(CREDENTIAL_ID, List.of(credentialId))));
    };
  }

  /**
   * Asks each authenticator in turn: the first identified user wins; a rejection by one is
   * remembered and returned if no later one identifies the user.
   *
   * @param authenticators the authenticators, in order
   * @return the combined authenticator
   */
  public static Authenticator firstOf(Authenticator... authenticators) {
    List<Authenticator> list = List.of(authenticators);
    return request -> {
      AuthenticationResult rejected = null;
      for (Authenticator a : list) {
        AuthenticationResult r = requireNonNull(a.authenticate(request),
            "authenticator returned null");
        if (r instanceof AuthenticationResult.Authenticated) {
          return r;
        }
        if (r instanceof AuthenticationResult.Rejected && rejected == null) {
          rejected = r;
        }
      }
      return rejected != null ? rejected : AuthenticationResult.noCredentials();
    };
  }
}
