/*
 * Copyright The apiserver4j authors.
 * SPDX-License-Identifier: Apache-2.0
 */
package io.apiserver4j.controllers;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import java.nio.file.Path;
import java.time.Duration;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.CsvSource;

/**
 * kube-controller-manager's {@code TestValidateControllersOptions} cases of
 * {@code CSRSigningControllerOptions} (cmd/kube-controller-manager/app/options) and the file
 * choice of {@code get*SignerFiles} (cmd/kube-controller-manager/app/certificates.go).
 */
class ClusterSigningTest {

  /** One pair with one file: kube's message, with the name kube's Validate gives that pair. */
  @ParameterizedTest(name = "{0}")
  @CsvSource(delimiter = '|', value = {
      "cluster-signing-kubelet-serving-cert-file | \"cluster-signing-kubelet-serving\": cannot"
          + " specify cert without key",
      "cluster-signing-kubelet-serving-key-file | \"cluster-signing-kubelet-serving\": cannot"
          + " specify key without cert",
      "cluster-signing-kubelet-client-cert-file | \"cluster-signing-kube-apiserver-client\":"
          + " cannot specify cert without key",
      "cluster-signing-kube-apiserver-client-key-file | \"cluster-signing-kube-apiserver\":"
          + " cannot specify key without cert",
      "cluster-signing-legacy-unknown-cert-file | \"cluster-signing-legacy-unknown\": cannot"
          + " specify cert without key",
  })
  void aPairNeedsBothFiles(String flag, String message) {
    assertThatThrownBy(() -> ClusterSigning.builder().file(flag, "/f").build())
        .isInstanceOf(IllegalArgumentException.class).hasMessage(message);
  }

  /** kube's "specific file set along with cluster single signing file" case, and two errors. */
  @Test
  void singleFilesBesideSpecificOnesAreRefused() {
    assertThatThrownBy(() -> ClusterSigning.builder()
        .file("cluster-signing-cert-file", "/cluster-signing-cert-file")
        .file("cluster-signing-key-file", "/cluster-signing-key-file")
        .file("cluster-signing-kubelet-serving-cert-file",
            "/cluster-signing-kubelet-serving/cert-file")
        .file("cluster-signing-kubelet-serving-key-file",
            "/cluster-signing-kubelet-serving/key-file").build())
        .hasMessage("cannot specify --cluster-signing-{cert,key}-file and other"
            + " --cluster-signing-*-file flags at the same time");
    // utilerrors.NewAggregate prints several errors in brackets
    assertThatThrownBy(() -> ClusterSigning.builder()
        .file("cluster-signing-cert-file", "/cluster-signing-cert-file")
        .file("cluster-signing-key-file", "/cluster-signing-key-file")
        .file("cluster-signing-kubelet-serving-cert-file",
            "/cluster-signing-kubelet-serving/cert-file").build())
        .hasMessage("[\"cluster-signing-kubelet-serving\": cannot specify cert without key,"
            + " cannot specify --cluster-signing-{cert,key}-file and other"
            + " --cluster-signing-*-file flags at the same time]");
  }

  @Test
  void theSingleFilesSignForEverySigner() {
    ClusterSigning s = ClusterSigning.builder().file("cluster-signing-cert-file", "/ca.crt")
        .file("cluster-signing-key-file", "/ca.key").duration(Duration.ofHours(10)).build();
    assertThat(s.fromFiles()).isTrue();
    assertThat(s.duration()).isEqualTo(Duration.ofHours(10));
    for (String signer : new String[] {"kubernetes.io/kubelet-serving",
        "kubernetes.io/kube-apiserver-client-kubelet", "kubernetes.io/kube-apiserver-client",
        "kubernetes.io/legacy-unknown"}) {
      assertThat(s.files(signer)).contains(new ClusterSigning.CaFiles(Path.of("/ca.crt"),
          Path.of("/ca.key")));
    }
  }

  /** Any per-signer pair: the single files are not used, and signers without a pair sign none. */
  @Test
  void perSignerFilesSignForTheirSignerOnly() {
    ClusterSigning s = ClusterSigning.builder()
        .file("cluster-signing-kubelet-client-cert-file", "/client.crt")
        .file("cluster-signing-kubelet-client-key-file", "/client.key")
        .file("cluster-signing-legacy-unknown-cert-file", "")
        .build();
    assertThat(s.files("kubernetes.io/kube-apiserver-client-kubelet")).contains(
        new ClusterSigning.CaFiles(Path.of("/client.crt"), Path.of("/client.key")));
    assertThat(s.files("kubernetes.io/kubelet-serving")).isEmpty();
    assertThat(s.files("kubernetes.io/legacy-unknown")).isEmpty();
  }

  @Test
  void noFilesIsTheInMemoryCaAndKubesDefaultDuration() {
    ClusterSigning s = ClusterSigning.builder().build();
    assertThat(s.fromFiles()).isFalse();
    assertThat(s.duration()).isEqualTo(Duration.ofHours(8760));
    // a lone single file: kube skips the controller as if nothing were given
    assertThat(ClusterSigning.builder().file("cluster-signing-cert-file", "/ca.crt").build()
        .fromFiles()).isFalse();
    assertThatThrownBy(() -> ClusterSigning.builder().file("cluster-signing-x-cert-file", "/a"))
        .hasMessage("unknown flag --cluster-signing-x-cert-file");
    assertThatThrownBy(() -> ClusterSigning.builder().duration(Duration.ZERO))
        .hasMessageContaining("--cluster-signing-duration must be positive");
  }
}
