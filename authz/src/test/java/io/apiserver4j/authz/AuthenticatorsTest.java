/*
 * Copyright The apiserver4j authors.
 * SPDX-License-Identifier: Apache-2.0
 */
package io.apiserver4j.authz;

import static org.assertj.core.api.Assertions.assertThat;

import io.apiserver4j.admission.UserInfo;
import java.net.InetSocketAddress;
import java.util.List;
import java.util.Map;
import org.junit.jupiter.api.Test;

/** The standard authenticators and the request they read, without any HTTP server. */
class AuthenticatorsTest {
  private static final UserInfo ALICE = UserInfo.of("alice", "dev");

  private static AuthenticationRequest request(Map<String, List<String>> headers) {
    return new AuthenticationRequest(headers, List.of(),
        InetSocketAddress.createUnresolved("127.0.0.1", 1234));
  }

  @Test
  void bearerTokenIsReadAsKubeDoes() {
    assertThat(request(Map.of("authorization", List.of("  bEaReR  t0k  "))).bearerToken())
        .contains("t0k");
    assertThat(request(Map.of("Authorization", List.of("Basic abc"))).bearerToken()).isEmpty();
    assertThat(request(Map.of("Authorization", List.of("Bearer "))).bearerToken()).isEmpty();
  }

  @Test
  void bearerTokensIdentifyRejectOrPass() {
    Authenticator tokens = Authenticators.bearerTokens(Map.of("t0k", ALICE));
    assertThat(tokens.authenticate(request(Map.of("Authorization", List.of("Bearer t0k")))))
        .isEqualTo(AuthenticationResult.authenticated(ALICE));
    assertThat(tokens.authenticate(request(Map.of("Authorization", List.of("Bearer nope")))))
        .isInstanceOf(AuthenticationResult.Rejected.class);
    assertThat(tokens.authenticate(request(Map.of())))
        .isEqualTo(AuthenticationResult.noCredentials());
  }

  @Test
  void firstOfKeepsARejectionUnlessALaterOneIdentifies() {
    Authenticator rejects = r -> AuthenticationResult.rejected("bad");
    Authenticator identifies = r -> AuthenticationResult.authenticated(ALICE);
    Authenticator passes = r -> AuthenticationResult.noCredentials();
    assertThat(Authenticators.firstOf(rejects, identifies).authenticate(request(Map.of())))
        .isEqualTo(AuthenticationResult.authenticated(ALICE));
    assertThat(Authenticators.firstOf(passes, rejects, passes).authenticate(request(Map.of())))
        .isEqualTo(AuthenticationResult.rejected("bad"));
    assertThat(Authenticators.firstOf(passes).authenticate(request(Map.of())))
        .isEqualTo(AuthenticationResult.noCredentials());
  }

  @Test
  void attributesWithAnotherVerbKeepTheRest() {
    AuthorizationAttributes a = new AuthorizationAttributes(ALICE, "patch", true, "apps", "v1",
        "deployments", "", "ns", "web", "");
    assertThat(a.withVerb("create")).isEqualTo(new AuthorizationAttributes(ALICE, "create", true,
        "apps", "v1", "deployments", "", "ns", "web", ""));
    assertThat(Authorizer.allowAll().authorize(a)).isEqualTo(AuthorizationDecision.allow());
  }

  @Test
  void aClientCertificateUserCarriesItsCredentialIdAsKubesX509Authenticator() throws Exception {
    // kube's TestX509 case "server cert allowing non-client cert usages": the same certificate
    // and the user kube expects for it
    java.security.cert.X509Certificate cert;
    try (java.io.InputStream in = AuthenticatorsTest.class.getResourceAsStream(
        "kube-x509-server-cert.pem")) {
      cert = (java.security.cert.X509Certificate) java.security.cert.CertificateFactory
          .getInstance("X.509").generateCertificate(in);
    }
    AuthenticationResult r = Authenticators.clientCertificates().authenticate(
        new AuthenticationRequest(Map.of(), List.of(cert),
            InetSocketAddress.createUnresolved("127.0.0.1", 1234)));

    assertThat(r).isEqualTo(AuthenticationResult.authenticated(new UserInfo("127.0.0.1", "",
        List.of("My Org"), Map.of("authentication.kubernetes.io/credential-id", List.of(
            "X509SHA256=04adf2b65e6325a8c467256eb3a9a373d818398d9a1f1d9eca1cbc2c237fe75f")))));
  }
}
