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
  void aClientCertificateUserCarriesItsCredentialIdAsKubesX509Authenticator(
      @org.junit.jupiter.api.io.TempDir java.nio.file.Path dir) throws Exception {
    // kube's x509 authenticator: the user is the subject's CN, the groups its Os, and the extra
    // names the certificate by the SHA-256 of its DER bytes, in lower-case hex
    java.nio.file.Path store = dir.resolve("client.p12");
    Process keytool = new ProcessBuilder(java.nio.file.Path.of(System.getProperty("java.home"),
        "bin", "keytool").toString(), "-genkeypair", "-keystore", store.toString(),
        "-storetype", "PKCS12", "-storepass", "changeit", "-alias", "client", "-keyalg", "EC",
        "-dname", "CN=jane, O=My Org", "-validity", "2").redirectErrorStream(true).start();
    assertThat(keytool.waitFor()).isZero();
    java.security.KeyStore ks = java.security.KeyStore.getInstance("PKCS12");
    try (java.io.InputStream in = java.nio.file.Files.newInputStream(store)) {
      ks.load(in, "changeit".toCharArray());
    }
    java.security.cert.X509Certificate cert =
        (java.security.cert.X509Certificate) ks.getCertificate("client");
    String sha256 = java.util.HexFormat.of().formatHex(
        java.security.MessageDigest.getInstance("SHA-256").digest(cert.getEncoded()));

    AuthenticationResult r = Authenticators.clientCertificates().authenticate(
        new AuthenticationRequest(Map.of(), List.of(cert),
            InetSocketAddress.createUnresolved("127.0.0.1", 1234)));

    assertThat(r).isEqualTo(AuthenticationResult.authenticated(new UserInfo("jane", "",
        List.of("My Org"), Map.of("authentication.kubernetes.io/credential-id", List.of(
            "X509SHA256=" + sha256)))));
  }
}
