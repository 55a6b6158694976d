/*
 * Copyright The apiserver4j authors.
 * SPDX-License-Identifier: Apache-2.0
 */
package io.apiserver4j.controllers.certificates.approver;

import static org.assertj.core.api.Assertions.assertThat;

import io.apiserver4j.controllers.certificates.CertificateRequest;
import io.apiserver4j.controllers.certificates.TestCsrs;
import io.apiserver4j.core.Json;
import io.apiserver4j.core.MapValue;
import java.security.KeyPair;
import java.util.ArrayList;
import java.util.List;
import java.util.function.Consumer;
import java.util.stream.Stream;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.Arguments;
import org.junit.jupiter.params.provider.MethodSource;

/**
 * kube's {@code TestRecognizers} (pkg/controller/certificates/approver/sarapprove_test.go): a
 * kubelet client request as kube's test builds it (CN {@code system:node:foo}, O
 * {@code system:nodes}, requested by {@code system:node:foo}, key encipherment, digital
 * signature and client auth, signer {@code kubernetes.io/kube-apiserver-client-kubelet}) with
 * one change per case, and whether each recognizer matches, as kube expects.
 */
class CsrApprovingControllerTest {
  private static final KeyPair KEY = TestCsrs.key();

  /** kube's test {@code csrBuilder}. */
  static final class Builder {
    String cn = "system:node:foo";
    List<String> orgs = List.of("system:nodes");
    String requestor = "system:node:foo";
    List<String> usages = new ArrayList<>(List.of("key encipherment", "digital signature",
        "client auth"));
    List<String> dns = List.of();
    String signer = "kubernetes.io/kube-apiserver-client-kubelet";
  }

  private static Arguments c(String name, Consumer<Builder> change, boolean node,
      boolean self) {
    return Arguments.of(name, change, node, self);
  }

  static Stream<Arguments> recognizers() {
    return Stream.of(
        c("good", b -> { }, true, true),
        c("cn mike", b -> b.cn = "mike", false, false),
        c("no orgs", b -> b.orgs = List.of(), false, false),
        c("org system:master", b -> b.orgs = List.of("system:master"), false, false),
        c("server auth usage too", b -> b.usages.add("server auth"), false, false),
        c("requestor joe", b -> b.requestor = "joe", true, false),
        c("cn system:node:bar", b -> b.cn = "system:node:bar", true, false),
        // helpers.go: the usages without key encipherment (non-RSA keys) are kubelet's too
        c("no key encipherment", b -> b.usages.remove("key encipherment"), true, true),
        c("DNS name", b -> b.dns = List.of("node.example"), false, false),
        c("another signer", b -> b.signer = "kubernetes.io/kube-apiserver-client", false,
            false));
  }

  @ParameterizedTest(name = "{0}")
  @MethodSource
  void recognizers(String name, Consumer<Builder> change, boolean node, boolean self) {
    Builder b = new Builder();
    change.accept(b);
    String request = TestCsrs.request(KEY, b.cn, b.orgs, b.dns);
    MapValue csr = (MapValue) Json.read("{\"spec\":{\"request\":\"" + request + "\","
        + "\"signerName\":\"" + b.signer + "\",\"username\":\"" + b.requestor + "\","
        + "\"usages\":" + Json.write(io.apiserver4j.core.ListValue.of(b.usages.stream()
        .map(io.apiserver4j.core.Value::of).toList())) + "}}");
    CertificateRequest x509cr = CertificateRequest.parse(request);
    assertThat(CsrApprovingController.isNodeClientCert(csr, x509cr)).isEqualTo(node);
    assertThat(CsrApprovingController.isSelfNodeClientCert(csr, x509cr)).isEqualTo(self);
  }
}
