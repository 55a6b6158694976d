/*
 * Copyright The apiserver4j authors.
 * SPDX-License-Identifier: Apache-2.0
 */
package io.apiserver4j.http.internal;

import static org.assertj.core.api.Assertions.assertThat;

import io.apiserver4j.apiserver.BuiltinResources;
import io.apiserver4j.core.GroupVersion;
import io.apiserver4j.core.Json;
import io.apiserver4j.core.ListValue;
import io.apiserver4j.core.MapValue;
import io.apiserver4j.core.StringValue;
import io.apiserver4j.core.Value;
import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.stream.Stream;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.MethodSource;

/**
 * The legacy discovery documents of the built-in resources against kube-apiserver's own, the
 * per-group-version {@code APIResourceList}s of {@code ../shared/api/discovery} (every GA group
 * version 1.36 serves). The one documented difference: {@code api__v1.json} was generated before
 * 1.32 added {@code pods/resize}, which 1.36 serves (its swagger has it), so that entry is
 * checked separately; and the files of EndpointSlices and MutatingAdmissionPolicies (and their
 * bindings) were generated while they were stored at another version than 1.36 stores them in
 * (kube's test/integration/etcd/data.go at 1.36: discovery.k8s.io/v1, and v1beta1 in the release
 * MutatingAdmissionPolicies went GA), so their storageVersionHash is kube's hash of that one.
 */
class BuiltinDiscoveryTest {
  private static final DiscoveryDocuments DOCS =
      new DiscoveryDocuments(BuiltinResources.definitions());

  static Stream<String> files() throws IOException {
    try (Stream<Path> s = Files.list(dir())) {
      return s.map(p -> p.getFileName().toString())
          .filter(n -> n.startsWith("api")).sorted().toList().stream();
    }
  }

  private static Path dir() {
    String p = System.getProperty("apiserver4j.shared");
    return Path.of(p == null ? "../shared" : p).resolve("api/discovery");
  }

  @ParameterizedTest(name = "{0}")
  @MethodSource("files")
  void matchesKubeApiserver(String file) throws IOException {
    MapValue theirs = (MapValue) Json.read(Files.readAllBytes(dir().resolve(file)));
    String groupVersion = ((StringValue) theirs.getOrNull("groupVersion")).value();
    int slash = groupVersion.indexOf('/');
    GroupVersion gv = slash < 0 ? new GroupVersion("", groupVersion)
        : new GroupVersion(groupVersion.substring(0, slash), groupVersion.substring(slash + 1));

    MapValue ours = DOCS.apiResourceList(gv).orElseThrow();

    List<Value> resources = new ArrayList<>(((ListValue) ours.getOrNull("resources")).items());
    if (file.equals("api__v1.json")) {
      MapValue resize = (MapValue) resources.stream()
          .filter(r -> ((MapValue) r).getOrNull("name").equals(Value.of("pods/resize")))
          .findFirst().orElseThrow();
      // as the 1.36 swagger declares it: PATCH, PUT and GET of a Pod
      assertThat(Json.read(Json.write(resize))).isEqualTo(Json.read("{\"name\":\"pods/resize\","
          + "\"singularName\":\"\",\"namespaced\":true,\"kind\":\"Pod\","
          + "\"verbs\":[\"get\",\"patch\",\"update\"]}"));
      resources.remove(resize);
    }
    MapValue comparable = ours.with("resources", ListValue.of(resources));
    assertThat(Json.read(Json.write(comparable))).isEqualTo(storedAs136(theirs));
  }

  private static final java.util.Map<String, String> STORAGE_GVK_1_36 = java.util.Map.of(
      "endpointslices", "discovery.k8s.io/v1/EndpointSlice",
      "mutatingadmissionpolicies",
      "admissionregistration.k8s.io/v1beta1/MutatingAdmissionPolicy",
      "mutatingadmissionpolicybindings",
      "admissionregistration.k8s.io/v1beta1/MutatingAdmissionPolicyBinding");

  private static MapValue storedAs136(MapValue list) {
    List<Value> resources = new ArrayList<>();
    for (Value r : ((ListValue) list.getOrNull("resources")).items()) {
      String name = ((StringValue) ((MapValue) r).getOrNull("name")).value();
      resources.add(STORAGE_GVK_1_36.containsKey(name) ? ((MapValue) r).with(
          "storageVersionHash", Value.of(hash(STORAGE_GVK_1_36.get(name)))) : r);
    }
    return list.with("resources", ListValue.of(resources));
  }

  // kube-apiserver's StorageVersionHash: base64 of sha256("group/version/Kind")[:8]
  private static String hash(String groupVersionKind) {
    try {
      byte[] sum = java.security.MessageDigest.getInstance("SHA-256").digest(
          groupVersionKind.getBytes(java.nio.charset.StandardCharsets.UTF_8));
      return java.util.Base64.getEncoder().encodeToString(java.util.Arrays.copyOf(sum, 8));
    } catch (java.security.NoSuchAlgorithmException e) {
      throw new IllegalStateException(e);
    }
  }
}
