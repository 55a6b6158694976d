/*
 * Copyright The apiserver4j authors.
 * SPDX-License-Identifier: Apache-2.0
 */
package io.apiserver4j.controllers;

import static java.util.Objects.requireNonNull;

import io.apiserver4j.controllers.internal.SigningFiles;
import java.nio.file.Path;
import java.time.Duration;
import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Optional;

/**
 * The csrsigning controller's CA files and certificate duration, as kube-controller-manager's
 * {@code --cluster-signing-cert-file}/{@code --cluster-signing-key-file} (one CA for every
 * built-in signer), the per-signer {@code --cluster-signing-<signer>-cert-file}/{@code -key-file}
 * pairs ({@code kubelet-serving}, {@code kubelet-client}, {@code kube-apiserver-client},
 * {@code legacy-unknown}; a signer without its pair is then not signed for, as kube), and
 * {@code --cluster-signing-duration} (default one year). The files hold a PEM X.509 CA
 * certificate and a PEM RSA or ECDSA private key (PKCS#8, PKCS#1 or SEC 1), read when the
 * controller starts.
 *
 * <p>Without any file the controller signs with a CA it generates in memory (this project's
 * default; kube would not run the controller). Immutable and thread-safe.
 */
public final class ClusterSigning {
  /** kube-controller-manager's {@code --cluster-signing-duration} default. */
  public static final Duration DEFAULT_DURATION = Duration.ofHours(8760);
  /** The per-signer flag prefixes, to the signer each configures, in kube's order. */
  private static final Map<String, String> SIGNERS = Map.of(
      "cluster-signing-kubelet-serving", "kubernetes.io/kubelet-serving",
      "cluster-signing-kubelet-client", "kubernetes.io/kube-apiserver-client-kubelet",
      "cluster-signing-kube-apiserver-client", "kubernetes.io/kube-apiserver-client",
      "cluster-signing-legacy-unknown", "kubernetes.io/legacy-unknown");
  /** kube's {@code Validate} names each pair in its messages by these (sic: two are off). */
  private static final Map<String, String> VALIDATION_NAMES = Map.of(
      "cluster-signing-kubelet-serving", "cluster-signing-kubelet-serving",
      "cluster-signing-kubelet-client", "cluster-signing-kube-apiserver-client",
      "cluster-signing-kube-apiserver-client", "cluster-signing-kube-apiserver",
      "cluster-signing-legacy-unknown", "cluster-signing-legacy-unknown");
  private static final List<String> ORDER = List.of("cluster-signing-kubelet-serving",
      "cluster-signing-kubelet-client", "cluster-signing-kube-apiserver-client",
      "cluster-signing-legacy-unknown");

  /** A CA certificate file and its private key file. */
  public record CaFiles(Path certFile, Path keyFile) {
    /** Both paths are required. */
    public CaFiles {
      requireNonNull(certFile, "certFile");
      requireNonNull(keyFile, "keyFile");
    }
  }

  private final Map<String, CaFiles> bySigner;
  private final Duration duration;

  private ClusterSigning(Map<String, CaFiles> bySigner, Duration duration) {
    this.bySigner = Map.copyOf(bySigner);
    this.duration = duration;
  }

  /** No CA files (an in-memory CA) and kube's default duration. */
  public static ClusterSigning defaults() {
    return new ClusterSigning(Map.of(), DEFAULT_DURATION);
  }

  /** A builder taking kube-controller-manager's flag names. */
  public static Builder builder() {
    return new Builder();
  }

  /** The longest validity a signed certificate gets ({@code --cluster-signing-duration}). */
  public Duration duration() {
    return duration;
  }

  /** The form the controllers read. */
  SigningFiles signingFiles() {
    Map<String, SigningFiles.CaFiles> out = new LinkedHashMap<>();
    bySigner.forEach((k, v) -> out.put(k, new SigningFiles.CaFiles(v.certFile(), v.keyFile())));
    return new SigningFiles(out, duration);
  }

  /** Whether CA files were given: otherwise an in-memory CA signs for every signer. */
  public boolean fromFiles() {
    return !bySigner.isEmpty();
  }

  /**
   * The CA files that sign for {@code signerName} (e.g. {@code kubernetes.io/kubelet-serving}),
   * as kube's {@code get*SignerFiles}: the signer's own pair when any per-signer pair was given,
   * else the {@code --cluster-signing-{cert,key}-file} pair; empty when the signer is not signed
   * for from files.
   */
  public Optional<CaFiles> files(String signerName) {
    return Optional.ofNullable(bySigner.get(requireNonNull(signerName, "signerName")));
  }

  /**
   * Collects the flags; {@link #build} checks them as kube-controller-manager's
   * {@code CSRSigningControllerOptions.Validate}. Not thread-safe.
   */
  public static final class Builder {
    private final Map<String, String> files = new LinkedHashMap<>();
    private Duration duration = DEFAULT_DURATION;

    private Builder() {}

    /**
     * Sets the file flag {@code flag} (without dashes: {@code cluster-signing-cert-file},
     * {@code cluster-signing-kubelet-serving-key-file}, ...); an empty path is unset, as kube.
     *
     * @throws IllegalArgumentException for a name that is not one of kube's file flags
     */
    public Builder file(String flag, String path) {
      requireNonNull(flag, "flag");
      requireNonNull(path, "path");
      if (!flag.equals("cluster-signing-cert-file") && !flag.equals("cluster-signing-key-file")
          && !(flag.endsWith("-cert-file") && SIGNERS.containsKey(prefix(flag)))
          && !(flag.endsWith("-key-file") && SIGNERS.containsKey(prefix(flag)))) {
        throw new IllegalArgumentException("unknown flag --" + flag);
      }
      files.put(flag, path);
      return this;
    }

    /**
     * {@code --cluster-signing-duration}.
     *
     * @throws IllegalArgumentException if not positive
     */
    public Builder duration(Duration d) {
      requireNonNull(d, "d");
      if (d.isNegative() || d.isZero()) {
        throw new IllegalArgumentException("--cluster-signing-duration must be positive, got "
            + d);
      }
      this.duration = d;
      return this;
    }

    /**
     * The configuration.
     *
     * @throws IllegalArgumentException with kube's messages, comma separated in brackets as
     *     kube aggregates them when more than one: a per-signer pair with one file only
     *     ({@code "cluster-signing-kubelet-serving": cannot specify cert without key}), or
     *     {@code --cluster-signing-{cert,key}-file} beside a per-signer flag; a lone
     *     {@code --cluster-signing-cert-file} or {@code -key-file} is, as in kube, no
     *     configuration at all
     */
    public ClusterSigning build() {
      List<String> errors = new ArrayList<>();
      boolean anySpecific = false;
      for (String signer : ORDER) {
        String cert = files.getOrDefault(signer + "-cert-file", "");
        String key = files.getOrDefault(signer + "-key-file", "");
        anySpecific |= !cert.isEmpty() || !key.isEmpty();
        if (cert.isEmpty() != key.isEmpty()) {
          errors.add("\"" + VALIDATION_NAMES.get(signer) + "\": "
              + (cert.isEmpty() ? "cannot specify key without cert"
                  : "cannot specify cert without key"));
        }
      }
      String cert = files.getOrDefault("cluster-signing-cert-file", "");
      String key = files.getOrDefault("cluster-signing-key-file", "");
      if ((!cert.isEmpty() || !key.isEmpty()) && anySpecific) {
        errors.add("cannot specify --cluster-signing-{cert,key}-file and other "
            + "--cluster-signing-*-file flags at the same time");
      }
      if (errors.size() == 1) {
        throw new IllegalArgumentException(errors.get(0));
      }
      if (!errors.isEmpty()) {
        throw new IllegalArgumentException("[" + String.join(", ", errors) + "]");
      }
      Map<String, CaFiles> bySigner = new LinkedHashMap<>();
      for (String signer : ORDER) {
        String c = anySpecific ? files.getOrDefault(signer + "-cert-file", "") : cert;
        String k = anySpecific ? files.getOrDefault(signer + "-key-file", "") : key;
        // kube starts a signer when either file is set; both are by now, or neither
        if (!c.isEmpty() && !k.isEmpty()) {
          bySigner.put(SIGNERS.get(signer), new CaFiles(Path.of(c), Path.of(k)));
        }
      }
      return new ClusterSigning(bySigner, duration);
    }

    private static String prefix(String flag) {
      return flag.substring(0, flag.lastIndexOf(flag.endsWith("-cert-file") ? "-cert-file"
          : "-key-file"));
    }
  }
}
