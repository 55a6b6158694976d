/*
 * Copyright The apiserver4j authors.
 * SPDX-License-Identifier: Apache-2.0
 */
package io.apiserver4j.junit;

import io.apiserver4j.apiserver.ApiResponse;
import io.apiserver4j.apiserver.ApiWatch;
import io.apiserver4j.core.MapValue;
import io.apiserver4j.core.errors.Status;
import io.apiserver4j.core.errors.StatusException;
import io.apiserver4j.validate.Manifests;
import java.io.InputStream;
import java.nio.file.Path;

/**
 * AssertJ entry points for what only an API server with managed fields can answer: who owns a
 * field, which fields an apply conflicted on and with whom, and which events a watch delivers.
 *
 * <pre>{@code
 * assertThat(deployment).field(".spec.replicas").isOwnedBy("hpa-controller");
 * assertThat(response).isConflictOn(".data.a").with("alice");
 * assertThat(watch).emits("ADDED", "MODIFIED", "DELETED");
 * assertThatManifest(yaml).isRejectedWith(server, "Deployment.apps \"web\" is invalid: ...");
 * }</pre>
 *
 * <p>Static import these methods beside AssertJ's {@code Assertions.assertThat}: the overloads do
 * not clash.
 */
public final class ApiServerAssertions {
  private ApiServerAssertions() {}

  /** Assertions on an object as the server returned it, {@code metadata.managedFields} included. */
  public static ObjectAssert assertThat(MapValue object) {
    return new ObjectAssert(object);
  }

  /** Assertions on a response of {@link io.apiserver4j.apiserver.ApiServer#handle}. */
  public static StatusAssert assertThat(ApiResponse response) {
    return new StatusAssert(response.failure(), response.code(), "response " + response.code());
  }

  /** Assertions on the failure a {@link io.apiserver4j.apiserver.ResourceClient} threw. */
  public static StatusAssert assertThat(StatusException failure) {
    return new StatusAssert(java.util.Optional.of(failure.status()), failure.code(),
        failure.getClass().getSimpleName());
  }

  /** Assertions on a Status. */
  public static StatusAssert assertThat(Status status) {
    return new StatusAssert(java.util.Optional.of(status), status.code(), "status");
  }

  /**
   * Assertions on the objects of a YAML or JSON text (one or more documents, {@code List}s
   * contribute their items) as a server's dry run answers for them.
   */
  public static ManifestAssert assertThatManifest(String yamlOrJson) {
    String text = yamlOrJson.stripLeading();
    return new ManifestAssert("the manifest", Manifests.documents("manifest", yamlOrJson,
        text.startsWith("{")));
  }

  /** Assertions on the objects of a file or a directory, read as {@code kubectl apply -f}. */
  public static ManifestAssert assertThatManifest(Path fileOrDirectory) {
    return new ManifestAssert(fileOrDirectory.toString(),
        Manifests.read(fileOrDirectory.toString(), InputStream.nullInputStream()));
  }

  /** Assertions on the events a watch delivers from now on. */
  public static WatchAssert assertThat(ApiWatch watch) {
    return new WatchAssert(watch);
  }
}
