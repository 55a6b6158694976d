/*
 * Copyright The apiserver4j authors.
 * SPDX-License-Identifier: Apache-2.0
 */
package io.apiserver4j.podsecurity;

import static org.assertj.core.api.Assertions.assertThat;

import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.stream.Stream;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.Arguments;
import org.junit.jupiter.params.provider.MethodSource;

/** kube's {@code api/helpers_test.go}: versions, levels and policies from namespace labels. */
class PolicyTest {
  static final LevelVersion PRIVILEGED = LevelVersion.latest(Level.PRIVILEGED);

  static LevelVersion lv(Level level, String version) {
    return new LevelVersion(level, PolicyVersion.parse(version).orElseThrow());
  }

  /** kube's makeLabels: prefixed keys plus an unrelated label. */
  static Map<String, String> labels(String... kvs) {
    Map<String, String> out = new LinkedHashMap<>();
    out.put("other-label", "foo-bar");
    for (int i = 0; i < kvs.length; i += 2) {
      out.put(Policy.LABEL_PREFIX + kvs[i], kvs[i + 1]);
    }
    return out;
  }

  static Stream<Arguments> policies() {
    return Stream.of(
        Arguments.of("simple enforce", labels("enforce", "baseline"),
            new Policy(lv(Level.BASELINE, "latest"), PRIVILEGED, lv(Level.BASELINE, "latest")),
            false),
        Arguments.of("simple warn", labels("warn", "restricted"),
            new Policy(PRIVILEGED, PRIVILEGED, lv(Level.RESTRICTED, "latest")), false),
        Arguments.of("simple audit", labels("audit", "baseline"),
            new Policy(PRIVILEGED, lv(Level.BASELINE, "latest"), PRIVILEGED), false),
        Arguments.of("enforce & warn", labels("enforce", "baseline", "warn", "restricted"),
            new Policy(lv(Level.BASELINE, "latest"), PRIVILEGED, lv(Level.RESTRICTED, "latest")),
            false),
        Arguments.of("enforce version", labels("enforce", "baseline", "enforce-version", "v1.22"),
            new Policy(lv(Level.BASELINE, "v1.22"), PRIVILEGED, lv(Level.BASELINE, "v1.22")),
            false),
        Arguments.of("enforce version & warn-version", labels("enforce", "baseline",
            "enforce-version", "v1.22", "warn-version", "latest"),
            new Policy(lv(Level.BASELINE, "v1.22"), PRIVILEGED, lv(Level.BASELINE, "latest")),
            false),
        Arguments.of("enforce & warn-version", labels("enforce", "baseline", "warn-version",
            "v1.23"),
            new Policy(lv(Level.BASELINE, "latest"), PRIVILEGED, lv(Level.BASELINE, "v1.23")),
            false),
        Arguments.of("fully specd", labels("enforce", "baseline", "enforce-version", "v1.20",
            "warn", "restricted", "warn-version", "v1.21", "audit", "restricted",
            "audit-version", "v1.22"),
            new Policy(lv(Level.BASELINE, "v1.20"), lv(Level.RESTRICTED, "v1.22"),
                lv(Level.RESTRICTED, "v1.21")), false),
        Arguments.of("enforce no warn", labels("enforce", "baseline", "warn", "privileged"),
            new Policy(lv(Level.BASELINE, "latest"), PRIVILEGED, PRIVILEGED), false),
        Arguments.of("enforce warn error", labels("enforce", "baseline", "warn", "foo"),
            new Policy(lv(Level.BASELINE, "latest"), PRIVILEGED, PRIVILEGED), true),
        Arguments.of("enforce error", labels("enforce", "foo"),
            new Policy(lv(Level.RESTRICTED, "latest"), PRIVILEGED, PRIVILEGED), true));
  }

  @ParameterizedTest(name = "{0}")
  @MethodSource("policies")
  void policyToEvaluate(String desc, Map<String, String> labels, Policy expect,
      boolean expectErr) {
    Policy.Evaluation e = Policy.fromLabels(labels, Policy.PRIVILEGED);
    assertThat(e.policy()).isEqualTo(expect);
    assertThat(e.errors().isEmpty()).isEqualTo(!expectErr);
  }

  @Test
  void invalidLabelsAreFieldErrorsWithKubesMessages() {
    Policy.Evaluation e = Policy.fromLabels(labels("enforce", "foo", "audit-version", "v2"),
        Policy.PRIVILEGED);
    assertThat(e.errors()).extracting(Object::toString).containsExactly(
        "metadata.labels[pod-security.kubernetes.io/enforce]: Invalid value: \"foo\": must be one"
            + " of privileged, baseline, restricted",
        "metadata.labels[pod-security.kubernetes.io/audit-version]: Invalid value: \"v2\": must"
            + " be \"latest\" or \"v1.x\"");
  }

  @Test
  void parseVersion() {
    assertThat(PolicyVersion.parse("latest")).contains(PolicyVersion.latest());
    assertThat(PolicyVersion.parse("v1.0")).contains(PolicyVersion.of(1, 0));
    assertThat(PolicyVersion.parse("v1.1")).contains(PolicyVersion.of(1, 1));
    assertThat(PolicyVersion.parse("v1.20")).contains(PolicyVersion.of(1, 20));
    assertThat(PolicyVersion.parse("v1.10000")).contains(PolicyVersion.of(1, 10000));
    for (String bad : List.of("foo", "", "v2.0", "v1", "1.1", "v1.01")) {
      assertThat(PolicyVersion.parse(bad)).as(bad).isEmpty();
    }
  }

  @Test
  void levelVersionEquivalence() {
    // kube's TestLevelVersionEquals and TestPolicyEquals
    assertThat(lv(Level.PRIVILEGED, "v1.0").equivalent(lv(Level.PRIVILEGED, "latest"))).isTrue();
    assertThat(lv(Level.BASELINE, "v1.0").equivalent(lv(Level.BASELINE, "v1.0"))).isTrue();
    assertThat(lv(Level.BASELINE, "v1.0").equivalent(lv(Level.BASELINE, "latest"))).isFalse();
    assertThat(lv(Level.BASELINE, "v1.0").equivalent(lv(Level.RESTRICTED, "v1.0"))).isFalse();
    assertThat(lv(Level.RESTRICTED, "latest").toString()).isEqualTo("restricted:latest");
    Policy p = new Policy(lv(Level.PRIVILEGED, "v1.0"), lv(Level.BASELINE, "v1.1"),
        lv(Level.RESTRICTED, "latest"));
    assertThat(p.equivalent(new Policy(lv(Level.PRIVILEGED, "latest"), lv(Level.BASELINE, "v1.1"),
        lv(Level.RESTRICTED, "latest")))).isTrue();
    assertThat(p.equivalent(new Policy(lv(Level.PRIVILEGED, "latest"), lv(Level.BASELINE, "v1.2"),
        lv(Level.RESTRICTED, "latest")))).isFalse();
  }
}
