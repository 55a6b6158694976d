/*
 * Copyright The apiserver4j authors.
 * SPDX-License-Identifier: Apache-2.0
 */
package io.apiserver4j.server;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import io.apiserver4j.http.Kubectl;
import io.apiserver4j.http.TestCertificates;
import java.nio.file.Files;
import java.nio.file.Path;
import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * {@code scripts/serve --authorization-mode=RBAC --token-auth-file ... --tls-cert-file ...}
 * through the real kubectl: the written kubeconfig is the admin's, a token-file user gets only
 * what kube's bootstrap policy gives every authenticated user.
 */
class ServeRbacTest {
  @TempDir
  static Path dir;
  static Serve.Running running;
  static Kubectl admin;
  static Kubectl bob;

  @BeforeAll
  static void start() throws Exception {
    TestCertificates pki = TestCertificates.create(Files.createDirectories(dir.resolve("pki")));
    Path tokens = Files.writeString(dir.resolve("tokens.csv"), "bob-token,bob,uid-bob,\"dev\"\n");
    ServeOptions options = ServeOptions.parse("--secure-port", "0", "--authorization-mode=RBAC",
        "--token-auth-file", tokens.toString(), "--tls-cert-file", pki.serverCert.toString(),
        "--tls-private-key-file", pki.serverKey.toString());
    running = Serve.start(options);
    admin = new Kubectl(Files.createDirectories(dir.resolve("admin")),
        running.kubeconfig(options));
    String ca = Files.readString(pki.serverCert);
    bob = new Kubectl(Files.createDirectories(dir.resolve("bob")),
        running.http().kubeconfig().certificateAuthority(ca).token("bob-token").build());
  }

  @AfterAll
  static void stop() {
    running.close();
  }

  @Test
  void theKubeconfigIsTheAdminsAndTokenUsersAreHeldToRbac() {
    assertThat(admin.ok("auth", "whoami", "-o", "jsonpath={.status.userInfo.groups}"))
        .isEqualTo("[\"system:masters\",\"system:authenticated\"]");
    assertThat(admin.ok("get", "clusterrolebinding", "cluster-admin", "-o",
        "jsonpath={.subjects[0].name}")).isEqualTo("system:masters");
    assertThat(bob.run("get", "pods").stderr()).contains("pods is forbidden: User \"bob\""
        + " cannot list resource \"pods\" in API group \"\" in the namespace \"default\"");
    assertThat(bob.run("auth", "can-i", "create", "pods").stdout().trim()).isEqualTo("no");

    admin.ok("create", "rolebinding", "bob-edits", "--clusterrole=edit", "--user=bob");
    assertThat(bob.run("auth", "can-i", "create", "pods").stdout().trim()).isEqualTo("yes");
  }

  @Test
  void withoutTlsFilesAuthenticationServesASelfSignedCertificateAsKube() throws Exception {
    ServeOptions options = ServeOptions.parse("--secure-port", "0", "--authorization-mode=RBAC",
        "--cert-dir", dir.resolve("certs").toString());
    try (Serve.Running generated = Serve.start(options)) {
      assertThat(generated.http().url().getScheme()).isEqualTo("https");
      assertThat(dir.resolve("certs/apiserver.crt")).exists();
      // the written kubeconfig trusts the generated certificate
      Kubectl kubectl = new Kubectl(Files.createDirectories(dir.resolve("generated")),
          generated.kubeconfig(options));
      assertThat(kubectl.ok("auth", "whoami", "-o", "jsonpath={.status.userInfo.username}"))
          .isEqualTo("admin");
    }
    assertThatThrownBy(() -> ServeOptions.parse("--authorization-mode", "Webhook"))
        .hasMessage("--authorization-mode: one of AlwaysAllow, RBAC, got: Webhook");
  }
}
