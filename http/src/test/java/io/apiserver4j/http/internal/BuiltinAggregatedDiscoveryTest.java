/*
 * Copyright The apiserver4j authors.
 * SPDX-License-Identifier: Apache-2.0
 */
package io.apiserver4j.http.internal;

import static org.assertj.core.api.Assertions.assertThat;

import io.apiserver4j.apiserver.BuiltinResources;
import io.apiserver4j.core.Json;
import io.apiserver4j.core.ListValue;
import io.apiserver4j.core.MapValue;
import io.apiserver4j.core.Nested;
import io.apiserver4j.core.Value;
import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.HashSet;
import java.util.List;
import java.util.Set;
import org.junit.jupiter.api.Test;

/**
 * Our aggregated discovery ({@code apidiscovery.k8s.io/v2}) of the built-in groups against
 * kube-apiserver's {@code aggregated_v2.json}. That document is from 1.33, so only the group
 * versions whose resources 1.36 did not change are compared (those that gained resources since,
 * such as admissionregistration and storage, and resource.k8s.io/v1, are left out), entry for
 * entry.
 */
class BuiltinAggregatedDiscoveryTest {

  @Test
  void unchangedGroupVersionsMatchKubeApiserver() throws IOException {
    String p = System.getProperty("apiserver4j.shared");
    MapValue theirs = (MapValue) Json.read(Files.readString(Path.of(p == null ? "../shared" : p)
        .resolve("api/discovery/aggregated_v2.json")));
    MapValue ours = new DiscoveryDocuments(BuiltinResources.definitions()).aggregated(false, "v2");
    assertThat(ours.getOrNull("apiVersion")).isEqualTo(theirs.getOrNull("apiVersion"));

    List<String> compared = new ArrayList<>();
    for (Value group : ((ListValue) ours.getOrNull("items")).items()) {
      String name = Nested.str(group, "metadata", "name");
      for (Value version : Nested.list(group, "versions")) {
        MapValue upstream = find(theirs, name, Nested.str(version, "version"));
        if (upstream == null || !names(upstream).equals(names(version))) {
          continue;
        }
        assertThat(Json.read(Json.write(version))).as(name).isEqualTo(upstream);
        compared.add(name + "/" + Nested.str(version, "version"));
      }
    }
    assertThat(compared).hasSizeGreaterThanOrEqualTo(17).contains("apps/v1", "batch/v1",
        "rbac.authorization.k8s.io/v1", "autoscaling/v2", "networking.k8s.io/v1");
  }

  private static MapValue find(MapValue doc, String group, String version) {
    for (Value g : ((ListValue) doc.getOrNull("items")).items()) {
      if (Nested.str(g, "metadata", "name").equals(group)) {
        for (Value v : Nested.list(g, "versions")) {
          if (Nested.str(v, "version").equals(version)) {
            return (MapValue) v;
          }
        }
      }
    }
    return null;
  }

  private static Set<String> names(Value version) {
    Set<String> out = new HashSet<>();
    for (Value r : Nested.list(version, "resources")) {
      out.add(Nested.str(r, "resource"));
    }
    return out;
  }
}
