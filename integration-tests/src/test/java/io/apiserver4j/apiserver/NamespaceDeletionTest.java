/*
 * Copyright The apiserver4j authors.
 * SPDX-License-Identifier: Apache-2.0
 */
package io.apiserver4j.apiserver;

import static io.apiserver4j.apiserver.Fixtures.CONFIGMAPS;
import static io.apiserver4j.apiserver.Fixtures.NAMESPACES;
import static io.apiserver4j.apiserver.Fixtures.str;
import static io.apiserver4j.apiserver.Fixtures.yaml;
import static org.assertj.core.api.Assertions.assertThat;

import io.apiserver4j.admission.AdmissionChain;
import io.apiserver4j.admission.plugins.NamespaceLifecycle;
import io.apiserver4j.apimachinery.patch.PatchType;
import io.apiserver4j.core.MapValue;
import org.junit.jupiter.api.Test;

/** Namespace deletion: terminating, its contents deleted, then the namespace itself. */
class NamespaceDeletionTest {
  private final Fixtures f = new Fixtures(ApiServer.builder()
      .admission(ns -> AdmissionChain.builder().add(new NamespaceLifecycle(ns)).build()));

  private void setUp(boolean blockingFinalizer) {
    f.create(NAMESPACES, "", yaml("""
        apiVersion: v1
        kind: Namespace
        metadata: {name: team}
        """), "admin").orThrow();
    f.create(CONFIGMAPS, "team", yaml("""
        apiVersion: v1
        kind: ConfigMap
        metadata: {name: plain}
        """), "admin").orThrow();
    if (blockingFinalizer) {
      f.create(CONFIGMAPS, "team", yaml("""
          apiVersion: v1
          kind: ConfigMap
          metadata: {name: held, finalizers: [example.com/hold]}
          """), "admin").orThrow();
    }
  }

  @Test
  void aNamespaceIsCreatedActiveWithTheKubernetesFinalizer() {
    setUp(false);

    MapValue ns = f.get(NAMESPACES, "", "team").orThrow();

    assertThat(str(ns, "status", "phase")).isEqualTo("Active");
    assertThat(Fixtures.at(ns, "spec", "finalizers")).isEqualTo(Fixtures.json("[\"kubernetes\"]"));
  }

  @Test
  void deletingANamespaceDeletesItsContentsAndThenItself() {
    setUp(false);

    ApiResponse r = f.delete(NAMESPACES, "", "team");

    assertThat(r.code()).isEqualTo(200);
    assertThat(str(r.body(), "status", "phase")).isEqualTo("Terminating");
    assertThat(str(r.body(), "metadata", "deletionTimestamp")).isEqualTo("2024-01-02T03:04:05Z");
    assertThat(f.get(CONFIGMAPS, "team", "plain").code()).isEqualTo(404);
    assertThat(f.get(NAMESPACES, "", "team").code()).isEqualTo(404);
  }

  @Test
  void contentWithFinalizersKeepsTheNamespaceTerminatingUntilItGoes() {
    setUp(true);

    f.delete(NAMESPACES, "", "team").orThrow();

    assertThat(str(f.get(NAMESPACES, "", "team").orThrow(), "status", "phase"))
        .isEqualTo("Terminating");
    ApiResponse create = f.create(CONFIGMAPS, "team", yaml("""
        apiVersion: v1
        kind: ConfigMap
        metadata: {name: late}
        """), "admin");
    assertThat(create.code()).isEqualTo(403);
    assertThat(str(create.body(), "message")).isEqualTo("configmaps \"late\" is forbidden: unable"
        + " to create new content in namespace team because it is being terminated");
    ApiResponse again = f.delete(NAMESPACES, "", "team");
    assertThat(again.code()).isEqualTo(409);

    f.patch(CONFIGMAPS, "team", "held", PatchType.MERGE_PATCH,
        "{\"metadata\":{\"finalizers\":null}}", "admin").orThrow();

    assertThat(f.get(CONFIGMAPS, "team", "held").code()).isEqualTo(404);
    assertThat(f.get(NAMESPACES, "", "team").code()).isEqualTo(404);
  }

  @Test
  void immortalNamespacesCannotBeDeleted() {
    f.create(NAMESPACES, "", yaml("""
        apiVersion: v1
        kind: Namespace
        metadata: {name: default}
        """), "admin").orThrow();

    ApiResponse r = f.delete(NAMESPACES, "", "default");

    assertThat(r.code()).isEqualTo(403);
    assertThat(str(r.body(), "message")).isEqualTo("namespaces \"default\" is forbidden: this"
        + " namespace may not be deleted");
    assertThat(f.get(NAMESPACES, "", "default").code()).isEqualTo(200);
  }
}
