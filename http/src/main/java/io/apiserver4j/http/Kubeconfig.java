/*
 * Copyright The apiserver4j authors.
 * SPDX-License-Identifier: Apache-2.0
 */
package io.apiserver4j.http;

import static java.util.Objects.requireNonNull;

import io.apiserver4j.core.ListValue;
import io.apiserver4j.core.MapValue;
import io.apiserver4j.core.Value;
import io.apiserver4j.core.Yaml;
import java.io.IOException;
import java.io.UncheckedIOException;
import java.net.URI;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.nio.file.StandardCopyOption;
import java.util.Base64;
import java.util.Optional;

/**
 * A kubeconfig file pointing kubectl (or any client) at a server: one cluster, one user, one
 * context, made current. Credentials are embedded ({@code token}, {@code *-data}), so the file
 * stands alone.
 *
 * <p>Immutable; build with {@link #builder(URI)}.
 */
public final class Kubeconfig {
  private final URI server;
  private final String name;
  private final String namespace;
  private final Optional<String> token;
  private final Optional<String> certificateAuthorityPem;
  private final Optional<String> clientCertificatePem;
  private final Optional<String> clientKeyPem;

  private Kubeconfig(Builder b) {
    this.server = b.server;
    this.name = b.name;
    this.namespace = b.namespace;
    this.token = b.token;
    this.certificateAuthorityPem = b.certificateAuthorityPem;
    this.clientCertificatePem = b.clientCertificatePem;
    this.clientKeyPem = b.clientKeyPem;
  }

  /** A kubeconfig for the server at {@code server}, e.g. {@code http://127.0.0.1:8080}. */
  public static Builder builder(URI server) {
    return new Builder(requireNonNull(server, "server"));
  }

  /** The kubeconfig document. */
  public String toYaml() {
    MapValue.Builder cluster = MapValue.builder().put("server", Value.of(server.toString()));
    certificateAuthorityPem.ifPresent(ca -> cluster.put("certificate-authority-data",
        Value.of(base64(ca))));
    MapValue.Builder user = MapValue.builder();
    token.ifPresent(t -> user.put("token", Value.of(t)));
    clientCertificatePem.ifPresent(c -> user.put("client-certificate-data", Value.of(base64(c))));
    clientKeyPem.ifPresent(k -> user.put("client-key-data", Value.of(base64(k))));
    MapValue doc = MapValue.builder()
        .put("apiVersion", Value.of("v1"))
        .put("kind", Value.of("Config"))
        .put("clusters", ListValue.of(java.util.List.of(MapValue.builder()
            .put("name", Value.of(name)).put("cluster", cluster.build()).build())))
        .put("contexts", ListValue.of(java.util.List.of(MapValue.builder()
            .put("name", Value.of(name))
            .put("context", MapValue.builder()
                .put("cluster", Value.of(name))
                .put("user", Value.of(name))
                .put("namespace", Value.of(namespace))
                .build())
            .build())))
        .put("current-context", Value.of(name))
        .put("users", ListValue.of(java.util.List.of(MapValue.builder()
            .put("name", Value.of(name)).put("user", user.build()).build())))
        .put("preferences", MapValue.empty())
        .build();
    return Yaml.write(doc);
  }

  /**
   * Writes the file (readable by the owner only where the file system supports it), replacing
   * an existing one atomically.
   *
   * @throws UncheckedIOException if it cannot be written
   */
  public void write(Path file) {
    requireNonNull(file, "file");
    try {
      Path abs = file.toAbsolutePath();
      if (abs.getParent() != null) {
        Files.createDirectories(abs.getParent());
      }
      Path tmp = Files.createTempFile(abs.getParent(), ".kubeconfig", ".tmp");
      try {
        tmp.toFile().setReadable(false, false);
        tmp.toFile().setReadable(true, true);
        tmp.toFile().setWritable(true, true);
        Files.writeString(tmp, toYaml(), StandardCharsets.UTF_8);
        Files.move(tmp, abs, StandardCopyOption.REPLACE_EXISTING,
            StandardCopyOption.ATOMIC_MOVE);
      } finally {
        Files.deleteIfExists(tmp);
      }
    } catch (IOException e) {
      throw new UncheckedIOException("cannot write kubeconfig " + file, e);
    }
  }

  private static String base64(String pem) {
    return Base64.getEncoder().encodeToString(pem.getBytes(StandardCharsets.UTF_8));
  }

  /** Mutable builder of {@link Kubeconfig}; not thread-safe. */
  public static final class Builder {
    private final URI server;
    private String name = "apiserver4j";
    private String namespace = "default";
    private Optional<String> token = Optional.empty();
    private Optional<String> certificateAuthorityPem = Optional.empty();
    private Optional<String> clientCertificatePem = Optional.empty();
    private Optional<String> clientKeyPem = Optional.empty();

    private Builder(URI server) {
      this.server = server;
    }

    /** The name of the cluster, user and context; default {@code apiserver4j}. */
    public Builder name(String n) {
      requireNonNull(n, "name");
      if (n.isEmpty()) {
        throw new IllegalArgumentException("name must not be empty");
      }
      this.name = n;
      return this;
    }

    /** The context's namespace; default {@code default}. */
    public Builder namespace(String ns) {
      this.namespace = requireNonNull(ns, "namespace");
      return this;
    }

    /** A bearer token for the user. */
    public Builder token(String t) {
      this.token = Optional.of(requireNonNull(t, "token"));
      return this;
    }

    /** The PEM CA bundle that signed the server's certificate (for https servers). */
    public Builder certificateAuthority(String pem) {
      this.certificateAuthorityPem = Optional.of(requireNonNull(pem, "pem"));
      return this;
    }

    /** A client certificate and its key, both PEM. */
    public Builder clientCertificate(String certificatePem, String keyPem) {
      this.clientCertificatePem = Optional.of(requireNonNull(certificatePem, "certificatePem"));
      this.clientKeyPem = Optional.of(requireNonNull(keyPem, "keyPem"));
      return this;
    }

    public Kubeconfig build() {
      return new Kubeconfig(this);
    }
  }
}
