/*
 * Copyright The apiserver4j authors.
 * SPDX-License-Identifier: Apache-2.0
 */
package io.apiserver4j.controllers.persistentvolume;

import static org.assertj.core.api.Assertions.assertThat;

import io.apiserver4j.core.Json;
import io.apiserver4j.core.MapValue;
import io.apiserver4j.core.Meta;
import io.apiserver4j.core.Nested;
import io.apiserver4j.core.Value;
import io.apiserver4j.core.Yaml;
import java.io.IOException;
import java.io.InputStream;
import java.nio.charset.StandardCharsets;
import java.util.ArrayList;
import java.util.List;
import java.util.Optional;
import java.util.stream.Stream;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.Arguments;
import org.junit.jupiter.params.provider.MethodSource;

/**
 * Kube's index tests (pkg/controller/volume/persistentvolume/index_test.go): TestMatchVolume as
 * the table in {@code volume-matching.yaml}, and TestMatchingWithBoundVolumes,
 * TestFindingVolumeWithDifferentAccessModes and TestFindingPreboundVolumes step by step.
 */
class VolumeMatchingTest {
  private static MapValue fixture() throws IOException {
    try (InputStream in = VolumeMatchingTest.class.getResourceAsStream("volume-matching.yaml")) {
      return (MapValue) Yaml.read(new String(in.readAllBytes(), StandardCharsets.UTF_8));
    }
  }

  static Stream<Arguments> matchVolume() throws IOException {
    MapValue f = fixture();
    List<MapValue> volumes = new ArrayList<>();
    for (Value v : Nested.list(f, "volumes")) {
      MapValue spec = MapValue.ofEntries("capacity", MapValue.ofEntries("storage",
          Value.of(Nested.str(v, "size"))), "accessModes", Nested.getOrNull(v, "modes"));
      if (!Nested.str(v, "claimUid").isEmpty()) {
        spec = spec.with("claimRef", MapValue.ofEntries("uid", Value.of(Nested.str(v,
            "claimUid"))));
      }
      MapValue meta = MapValue.ofEntries("name", Value.of(Nested.str(v, "name")));
      if (Nested.has(v, "labels")) {
        meta = meta.with("labels", Nested.map(v, "labels"));
      }
      if (!Nested.str(v, "class").isEmpty()) {
        meta = meta.with("annotations", MapValue.ofEntries(VolumeMatching.ANN_BETA_CLASS,
            Value.of(Nested.str(v, "class"))));
      }
      volumes.add(MapValue.ofEntries("metadata", meta, "spec", spec,
          "status", MapValue.ofEntries("phase", Value.of("Available"))));
    }
    return Nested.list(f, "cases").stream().map(c -> Arguments.of(Nested.str(c, "name"),
        (MapValue) c, volumes));
  }

  @ParameterizedTest(name = "{0}")
  @MethodSource
  void matchVolume(String name, MapValue scenario, List<MapValue> volumes) {
    MapValue spec = MapValue.ofEntries("accessModes", Nested.has(scenario, "modes")
        ? Nested.getOrNull(scenario, "modes")
        : Json.read("[\"ReadOnlyMany\",\"ReadWriteOnce\"]"),
        "resources", MapValue.ofEntries("requests", MapValue.ofEntries("storage",
            Value.of(Nested.str(scenario, "size")))));
    if (Nested.has(scenario, "selector")) {
      spec = spec.with("selector", MapValue.ofEntries("matchLabels",
          Nested.map(scenario, "selector")));
    }
    MapValue meta = MapValue.ofEntries("name", Value.of("claim01"), "namespace",
        Value.of("myns"));
    if (!Nested.str(scenario, "class").isEmpty()) {
      meta = meta.with("annotations", MapValue.ofEntries(VolumeMatching.ANN_BETA_CLASS,
          Value.of(Nested.str(scenario, "class"))));
    }
    Optional<MapValue> match = VolumeMatching.findBestMatch(MapValue.ofEntries("metadata", meta,
        "spec", spec), volumes, false);
    assertThat(match.map(v -> Meta.metaString(v, "name")).orElse(""))
        .isEqualTo(Nested.str(scenario, "match"));
  }

  private static MapValue volume(String name, String size, String modes, String extra) {
    return (MapValue) Json.read("{\"metadata\":{\"name\":\"" + name + "\"},"
        + "\"spec\":{\"capacity\":{\"storage\":\"" + size + "\"},\"accessModes\":[" + modes
        + "]" + extra + "},"
        + "\"status\":{\"phase\":\"Available\"}}");
  }

  private static MapValue claim(String size, String modes) {
    return (MapValue) Json.read("{\"metadata\":{\"name\":\"claim01\",\"namespace\":"
        + "\"myns\",\"uid\":\"claim-uid\"},\"spec\":{\"accessModes\":[" + modes + "],\"resources\":"
        + "{\"requests\":{\"storage\":\"" + size + "\"}}}}");
  }

  private static String best(MapValue claim, MapValue... volumes) {
    return VolumeMatching.findBestMatch(claim, List.of(volumes), false)
        .map(v -> Meta.metaString(v, "name")).orElse("");
  }

  @Test
  void matchingWithBoundVolumes() {
    MapValue bound = volume("gce001", "1G", "\"ReadWriteOnce\",\"ReadOnlyMany\"",
        ",\"claimRef\":{\"uid\":\"abc123\"}");
    MapValue free = volume("gce002", "1G", "\"ReadWriteOnce\",\"ReadOnlyMany\"", "");
    assertThat(best(claim("1G", "\"ReadOnlyMany\",\"ReadWriteOnce\""), bound, free))
        .isEqualTo("gce002");
  }

  @Test
  void findingVolumeWithDifferentAccessModes() {
    MapValue gce = volume("gce", "10G", "\"ReadWriteOnce\",\"ReadOnlyMany\"", "");
    MapValue ebs = volume("ebs", "10G", "\"ReadWriteOnce\"", "");
    MapValue nfs = volume("nfs", "10G", "\"ReadWriteOnce\",\"ReadOnlyMany\",\"ReadWriteMany\"",
        "");
    assertThat(best(claim("1G", "\"ReadWriteOnce\""), gce, ebs, nfs)).isEqualTo("ebs");
    assertThat(best(claim("1G", "\"ReadWriteOnce\",\"ReadOnlyMany\""), gce, ebs, nfs))
        .isEqualTo("gce");
    // order of the requested modes should not matter
    assertThat(best(claim("1G", "\"ReadWriteMany\",\"ReadWriteOnce\",\"ReadOnlyMany\""), gce,
        ebs, nfs)).isEqualTo("nfs");
    // fewer modes requested should still match
    assertThat(best(claim("1G", "\"ReadWriteMany\""), gce, ebs, nfs)).isEqualTo("nfs");
    // the exact match bound: the next level up of modes
    MapValue ebsBound = ebs.with("spec", Nested.map(ebs, "spec").with("claimRef",
        MapValue.empty()));
    assertThat(best(claim("1G", "\"ReadWriteOnce\""), gce, ebsBound, nfs)).isEqualTo("gce");
    MapValue gceBound = gce.with("spec", Nested.map(gce, "spec").with("claimRef",
        MapValue.empty()));
    assertThat(best(claim("1G", "\"ReadWriteOnce\""), gceBound, ebsBound, nfs))
        .isEqualTo("nfs");
    // partial mode request
    assertThat(best(claim("1G", "\"ReadOnlyMany\""), gce, ebsBound, nfs)).isEqualTo("gce");
  }

  @Test
  void findingPreboundVolumes() {
    MapValue claim = claim("1Gi", "\"ReadWriteOnce\"");
    String claimRef = ",\"claimRef\":{\"kind\":\"PersistentVolumeClaim\",\"namespace\":\"myns\","
        + "\"name\":\"claim01\",\"uid\":\"claim-uid\"}";
    MapValue pv1 = volume("pv1", "1Gi", "\"ReadWriteOnce\"", "");
    MapValue pv5 = volume("pv5", "5Gi", "\"ReadWriteOnce\"", "");
    MapValue pv8 = volume("pv8", "8Gi", "\"ReadWriteOnce\"", "");
    MapValue badSize = volume("pvBadSize", "1Mi", "\"ReadWriteOnce\"", "");
    MapValue badMode = volume("pvBadMode", "1Gi", "\"ReadOnlyMany\"", "");
    // exact match on size
    assertThat(best(claim, pv1, pv5, pv8, badSize, badMode)).isEqualTo("pv1");
    // the exact match pre-bound elsewhere: the next size up
    MapValue pv1Elsewhere = volume("pv1", "1Gi", "\"ReadWriteOnce\"",
        ",\"claimRef\":{\"name\":\"foo\",\"namespace\":\"bar\"}");
    assertThat(best(claim, pv1Elsewhere, pv5, pv8, badSize, badMode)).isEqualTo("pv5");
    // the largest pre-bound to the claim wins
    MapValue pv8Prebound = volume("pv8", "8Gi", "\"ReadWriteOnce\"", claimRef);
    assertThat(best(claim, pv1, pv5, pv8Prebound, badSize, badMode)).isEqualTo("pv8");
    // pre-bound but too small, or of the wrong modes: the exact match
    MapValue badSizePrebound = volume("pvBadSize", "1Mi", "\"ReadWriteOnce\"", claimRef);
    assertThat(best(claim, pv1, pv5, pv8, badSizePrebound, badMode)).isEqualTo("pv1");
    MapValue badModePrebound = volume("pvBadMode", "1Gi", "\"ReadOnlyMany\"", claimRef);
    assertThat(best(claim, pv1, pv5, pv8, badSize, badModePrebound)).isEqualTo("pv1");
  }

  @Test
  void delayedBindingMatchesOnlyAPreboundVolume() {
    MapValue claim = claim("1Gi", "\"ReadWriteOnce\"");
    MapValue free = volume("free", "1Gi", "\"ReadWriteOnce\"", "");
    assertThat(VolumeMatching.findBestMatch(claim, List.of(free), true)).isEmpty();
    MapValue prebound = volume("prebound", "1Gi", "\"ReadWriteOnce\"",
        ",\"claimRef\":{\"namespace\":\"myns\",\"name\":\"claim01\"}");
    assertThat(VolumeMatching.findBestMatch(claim, List.of(free, prebound), true))
        .map(v -> Meta.metaString(v, "name")).contains("prebound");
  }

  @Test
  void volumeModesMustAgreeFilesystemByDefault() {
    MapValue block = volume("block", "1Gi", "\"ReadWriteOnce\"", ",\"volumeMode\":\"Block\"");
    MapValue fs = volume("fs", "2Gi", "\"ReadWriteOnce\"", "");
    assertThat(best(claim("1Gi", "\"ReadWriteOnce\""), block, fs)).isEqualTo("fs");
    MapValue blockClaim = claim("1Gi", "\"ReadWriteOnce\"");
    blockClaim = Nested.set(blockClaim, Value.of("Block"), "spec", "volumeMode");
    assertThat(best(blockClaim, block, fs)).isEqualTo("block");
  }
}
