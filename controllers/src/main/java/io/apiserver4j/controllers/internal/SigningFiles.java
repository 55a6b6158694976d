/*
 * Copyright The apiserver4j authors.
 * SPDX-License-Identifier: Apache-2.0
 */
package io.apiserver4j.controllers.internal;

import static java.util.Objects.requireNonNull;

import java.nio.file.Path;
import java.time.Duration;
import java.util.Map;
import java.util.Optional;

/**
 * What the csrsigning controller is given of kube-controller-manager's {@code --cluster-signing-*}
 * flags (the public form is {@code ClusterSigning}): the CA files of each built-in signer that
 * signs from files, by signer name (none: an in-memory CA), and the longest certificate validity.
 *
 * @param bySigner the CA files by signer name, e.g. {@code kubernetes.io/kubelet-serving}
 * @param duration {@code --cluster-signing-duration}
 */
public record SigningFiles(Map<String, CaFiles> bySigner, Duration duration) {
  /** A CA certificate file and its private key file. */
  public record CaFiles(Path certFile, Path keyFile) {
    /** Both paths are required. */
    public CaFiles {
      requireNonNull(certFile, "certFile");
      requireNonNull(keyFile, "keyFile");
    }
  }

  /** Copies the map. */
  public SigningFiles {
    bySigner = Map.copyOf(bySigner);
    requireNonNull(duration, "duration");
  }

  /** Whether any file was given: otherwise an in-memory CA signs for every signer. */
  public boolean fromFiles() {
    return !bySigner.isEmpty();
  }

  /** The files {@code signer} signs with, if it signs from files. */
  public Optional<CaFiles> files(String signer) {
    return Optional.ofNullable(bySigner.get(signer));
  }
}
