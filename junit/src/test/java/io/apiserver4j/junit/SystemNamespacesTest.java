/*
 * Copyright The apiserver4j authors.
 * SPDX-License-Identifier: Apache-2.0
 */
package io.apiserver4j.junit;

import static org.assertj.core.api.Assertions.assertThat;

import io.apiserver4j.core.MapValue;
import io.apiserver4j.core.Meta;
import io.apiserver4j.junit.internal.TestServer;
import io.apiserver4j.kubeapi.KubeVersion;
import java.util.List;
import java.util.Map;
import org.junit.jupiter.api.Test;

/**
 * kube-apiserver's namespaces of a new server: created through the request pipeline by the first
 * server of a configuration, stored directly by the next ones, and the same to a test either
 * way (content, uids, timestamps, managed fields, resourceVersions).
 */
class SystemNamespacesTest {
  /** A configuration no other test uses, so that its first server here is its first at all. */
  private static final TestServer.Admission OWN = new TestServer.Admission(List.of(),
      List.of("ServiceAccount", "LimitRanger"), "");

  @Test
  void theNextServersNamespacesAreTheFirstOnes() {
    List<MapValue> first = namespaces();
    assertThat(first).hasSize(4);
    assertThat(first).extracting(n -> Meta.metaString(n, "uid"))
        .containsExactlyInAnyOrder("00000000-0000-4000-8000-000000000001",
            "00000000-0000-4000-8000-000000000002", "00000000-0000-4000-8000-000000000003",
            "00000000-0000-4000-8000-000000000004");
    assertThat(namespaces()).isEqualTo(first);
    assertThat(namespaces()).isEqualTo(first);
  }

  private static List<MapValue> namespaces() {
    try (TestServer server = TestServer.start(List.of(), SystemNamespacesTest.class
        .getClassLoader(), Map.of(), List.of(), OWN, KubeVersion.latest())) {
      return server.resources("v1", "namespaces").list();
    }
  }
}
