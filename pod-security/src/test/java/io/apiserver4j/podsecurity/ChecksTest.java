/*
 * Copyright The apiserver4j authors.
 * SPDX-License-Identifier: Apache-2.0
 */
package io.apiserver4j.podsecurity;

import static org.assertj.core.api.Assertions.assertThat;

import io.apiserver4j.core.MapValue;
import io.apiserver4j.core.Nested;
import io.apiserver4j.core.Value;
import io.apiserver4j.core.Yaml;
import java.io.IOException;
import java.io.InputStream;
import java.nio.charset.StandardCharsets;
import java.util.stream.Stream;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.MethodSource;

/**
 * The tables of kube's {@code policy/check_*_test.go} ({@code checks.yaml}): one implementation
 * of a check on a pod gives kube's reason and detail.
 */
class ChecksTest {
  static Stream<MapValue> cases() throws IOException {
    try (InputStream in = ChecksTest.class.getResourceAsStream("checks.yaml")) {
      Value all = Yaml.read(new String(in.readAllBytes(), StandardCharsets.UTF_8));
      return Nested.list(MapValue.empty().with("l", all), "l").stream().map(MapValue.class::cast);
    }
  }

  /** The implementation of {@code id} that starts at {@code version}. */
  static PodCheck implementation(String id, String version) {
    PolicyVersion v = PolicyVersion.parse(version).orElseThrow();
    return Checks.check(id).versions().stream().filter(c -> c.minimumVersion().equals(v))
        .findFirst().orElseThrow(() -> new AssertionError(id + " has no version " + version))
        .check();
  }

  @ParameterizedTest(name = "{0}")
  @MethodSource("cases")
  void kubesReasonAndDetail(MapValue tc) {
    MapValue pod = Nested.map(tc, "pod");
    CheckResult result = implementation(Nested.str(tc, "check"), Nested.str(tc, "version"))
        .check(Nested.map(pod, "metadata"), Nested.map(pod, "spec"));
    assertThat(result.allowed()).as(Nested.str(tc, "test") + " " + Nested.str(tc, "name"))
        .isEqualTo(Nested.bool(tc, "allowed"));
    assertThat(result.forbiddenReason()).isEqualTo(Nested.str(tc, "reason"));
    assertThat(result.forbiddenDetail()).isEqualTo(Nested.str(tc, "detail"));
  }
}
