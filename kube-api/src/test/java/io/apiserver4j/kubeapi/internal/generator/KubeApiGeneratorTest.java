/*
 * Copyright The apiserver4j authors.
 * SPDX-License-Identifier: Apache-2.0
 */
package io.apiserver4j.kubeapi.internal.generator;

import static org.assertj.core.api.Assertions.assertThat;

import io.apiserver4j.core.Json;
import io.apiserver4j.core.ListValue;
import io.apiserver4j.core.MapValue;
import io.apiserver4j.core.Value;
import java.io.IOException;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.stream.Stream;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.MethodSource;

/** The committed data of every release is exactly what the generator makes of ../shared. */
class KubeApiGeneratorTest {
  private static final Path COMMITTED = Path.of("src/main/resources/io/apiserver4j/kubeapi");
  private static final Path GO_TYPE_NAMES = Path.of("src/go/go-type-names.txt");
  private static final Path FIELD_HINTS = Path.of("src/proto/go-field-hints.txt");

  static Path shared() {
    return Path.of(System.getProperty("apiserver4j.shared", "../../shared"));
  }

  static Path sharedApi() {
    return shared().resolve("api");
  }

  static Stream<String> releases() {
    return KubeApiGenerator.RELEASES.stream();
  }

  @ParameterizedTest
  @MethodSource("releases")
  void committedOutputIsRegeneratedByteForByte(String release) throws IOException {
    Map<String, byte[]> expected = KubeApiGenerator.generate(release, shared(), GO_TYPE_NAMES,
        FIELD_HINTS);
    if (release.equals(KubeApiGenerator.LATEST)) {
      assertThat(expected).containsOnlyKeys("resources.json", "schema.json.gz",
          "schema-types.jsonl.gz", "openapi.json.gz");
    } else {
      assertThat(expected).containsOnlyKeys("resources.json", "schema.json.gz",
          "schema-types.jsonl.gz", "openapi.json.gz", "proto-descriptors.json");
    }
    Path dir = KubeApiGenerator.outputDirectory(COMMITTED, release);
    for (String name : expected.keySet()) {
      assertThat(Files.readAllBytes(dir.resolve(name)))
          .as("%s/%s is stale: run KubeApiGenerator (see its javadoc)", release, name)
          .isEqualTo(expected.get(name));
    }
  }

  @Test
  void mainWritesWhatGenerateReturns(@TempDir Path tmp) throws IOException {
    KubeApiGenerator.main(new String[] {shared().toString(), tmp.toString(),
        GO_TYPE_NAMES.toString(), FIELD_HINTS.toString()});
    for (String release : KubeApiGenerator.RELEASES) {
      Map<String, byte[]> expected = KubeApiGenerator.generate(release, shared(), GO_TYPE_NAMES,
          FIELD_HINTS);
      for (String name : expected.keySet()) {
        assertThat(Files.readAllBytes(KubeApiGenerator.outputDirectory(tmp, release)
            .resolve(name))).as("%s/%s", release, name).isEqualTo(expected.get(name));
      }
    }
  }

  /**
   * Hashes of ../shared/api/discovery that encode another storage version than kube 1.36's,
   * by file: the version of the file, then kube 1.36's per its
   * {@code test/integration/etcd/data.go} (EndpointSlices have no {@code ExpectedGVK} there, so
   * are stored as served, at v1; MutatingAdmissionPolicies and their bindings expect v1beta1,
   * the file was written when they were stored at v1).
   */
  private static final Map<String, List<String[]>> STALE_HASHES = Map.of(
      "apis__discovery.k8s.io__v1.json", List.<String[]>of(new String[] {
          "discovery.k8s.io/v1beta1/EndpointSlice", "discovery.k8s.io/v1/EndpointSlice"}),
      "apis__admissionregistration.k8s.io__v1.json", List.of(new String[] {
          "admissionregistration.k8s.io/v1/MutatingAdmissionPolicy",
          "admissionregistration.k8s.io/v1beta1/MutatingAdmissionPolicy"}, new String[] {
          "admissionregistration.k8s.io/v1/MutatingAdmissionPolicyBinding",
          "admissionregistration.k8s.io/v1beta1/MutatingAdmissionPolicyBinding"}));

  /**
   * The generated 1.36 discovery documents are kube's own files of ../shared/api/discovery,
   * byte for byte, where those files are current: {@code api__v1.json} is a 1.28–1.31 file (see
   * the next test), and {@link #STALE_HASHES} lists the hashes of older storage versions.
   */
  @Test
  void discoveryOf136IsKubesFilesWhereTheyAreCurrent() throws IOException {
    Map<String, byte[]> generated = KubeApiGenerator.discovery("1.36", shared());
    Path upstream = sharedApi().resolve("discovery");
    List<String> files = new ArrayList<>();
    try (Stream<Path> list = Files.list(upstream)) {
      list.map(p -> p.getFileName().toString())
          .filter(n -> !n.equals("aggregated_v2.json")).sorted().forEach(files::add);
    }
    assertThat(generated.keySet()).containsExactlyElementsOf(files);
    for (String file : files) {
      if (file.equals("api__v1.json")) {
        continue;
      }
      String ours = new String(generated.get(file), StandardCharsets.UTF_8);
      String kube = Files.readString(upstream.resolve(file), StandardCharsets.UTF_8);
      for (String[] stale : STALE_HASHES.getOrDefault(file, List.of())) {
        String kubeFile = "\"storageVersionHash\": \""
            + KubeApiGenerator.storageVersionHash(stale[0]) + "\"";
        String kube136 = "\"storageVersionHash\": \""
            + KubeApiGenerator.storageVersionHash(stale[1]) + "\"";
        assertThat(kube).as(file).contains(kubeFile);
        assertThat(ours).as(file).contains(kube136);
        ours = ours.replace(kube136, kubeFile);
      }
      assertThat(ours).as(file).isEqualTo(kube);
    }
  }

  /** Outside the two facts it predates, the core file agrees with the generated one. */
  @Test
  void coreDiscoveryDiffersFromTheOld136FileOnlyByWhatItPredates() throws IOException {
    MapValue ours = (MapValue) Json.read(KubeApiGenerator.discovery("1.36", shared())
        .get("api__v1.json"));
    MapValue kube = (MapValue) Json.read(Files.readAllBytes(sharedApi()
        .resolve("discovery/api__v1.json")));
    List<Value> oursWithoutResize = new ArrayList<>();
    for (Value r : ((ListValue) ours.getOrNull("resources")).items()) {
      MapValue m = (MapValue) r;
      if (!m.getOrNull("name").equals(Value.of("pods/resize"))) {
        oursWithoutResize.add(m.without("storageVersionHash"));
      }
    }
    List<Value> kubeWithoutHash = new ArrayList<>();
    for (Value r : ((ListValue) kube.getOrNull("resources")).items()) {
      kubeWithoutHash.add(((MapValue) r).without("storageVersionHash"));
    }
    assertThat(oursWithoutResize).isEqualTo(kubeWithoutHash);
    assertThat(ours.without("apiVersion").without("resources"))
        .isEqualTo(kube.without("resources"));
  }

  /**
   * Storage versions of an emulated release follow kube's rule: a storage version introduced
   * after the minimum compatibility version (emulated minus one) falls back to the group's
   * first version introduced by then (data.go's {@code storageVersionAtEmulationVersion}).
   */
  @Test
  void storageVersionsFollowTheEmulatedRelease() {
    assertThat(hash("1.33", "networking.k8s.io__v1", "ipaddresses"))
        .isEqualTo(KubeApiGenerator.storageVersionHash("networking.k8s.io/v1beta1/IPAddress"));
    assertThat(hash("1.34", "networking.k8s.io__v1", "ipaddresses"))
        .isEqualTo(KubeApiGenerator.storageVersionHash("networking.k8s.io/v1/IPAddress"));
    assertThat(hash("1.34", "resource.k8s.io__v1", "resourceclaims"))
        .isEqualTo(KubeApiGenerator.storageVersionHash("resource.k8s.io/v1beta2/ResourceClaim"));
    assertThat(hash("1.35", "resource.k8s.io__v1", "resourceclaims"))
        .isEqualTo(KubeApiGenerator.storageVersionHash("resource.k8s.io/v1/ResourceClaim"));
    assertThat(hash("1.34", "storage.k8s.io__v1", "volumeattributesclasses")).isEqualTo(
        KubeApiGenerator.storageVersionHash("storage.k8s.io/v1beta1/VolumeAttributesClass"));
    assertThat(hash("1.35", "storage.k8s.io__v1", "volumeattributesclasses")).isEqualTo(
        KubeApiGenerator.storageVersionHash("storage.k8s.io/v1/VolumeAttributesClass"));
    assertThat(hash("1.33", "discovery.k8s.io__v1", "endpointslices"))
        .isEqualTo(KubeApiGenerator.storageVersionHash("discovery.k8s.io/v1/EndpointSlice"));
  }

  private static String hash(String release, String file, String resource) {
    MapValue doc = (MapValue) Json.read(KubeApiGenerator.discovery(release, shared())
        .get("apis__" + file + ".json"));
    for (Value r : ((ListValue) doc.getOrNull("resources")).items()) {
      MapValue m = (MapValue) r;
      if (m.getOrNull("name").equals(Value.of(resource))) {
        return ((io.apiserver4j.core.StringValue) m.getOrNull("storageVersionHash")).value();
      }
    }
    throw new AssertionError(resource + " not in " + file);
  }
}
