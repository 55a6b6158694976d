/*
 * Copyright The apiserver4j authors.
 * SPDX-License-Identifier: Apache-2.0
 */
package io.apiserver4j.podsecurity;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import io.apiserver4j.core.MapValue;
import java.util.ArrayList;
import java.util.List;
import org.junit.jupiter.api.Test;

/**
 * kube's {@code policy/registry_test.go} and {@code checks_test.go}: which checks (and which of
 * their versions) each level and version evaluates, in kube's order, with overrides.
 */
class EvaluatorTest {
  static Check check(String id, Level level, String... versions) {
    List<Check.Versioned> out = new ArrayList<>();
    for (String v : versions) {
      PolicyVersion version = PolicyVersion.parse(v).orElseThrow();
      out.add(Check.Versioned.of(version, (m, s) -> CheckResult.forbid(id + ":" + version, "")));
    }
    return new Check(id, level, out);
  }

  static Check withOverrides(Check c, String... overrides) {
    return new Check(c.id(), c.level(), c.versions().stream()
        .map(v -> new Check.Versioned(v.minimumVersion(), v.check(), List.of(overrides)))
        .toList());
  }

  static List<String> reasons(Evaluator e, Level level, String version) {
    return e.evaluatePod(new LevelVersion(level, PolicyVersion.parse(version).orElseThrow()),
        MapValue.empty(), MapValue.empty()).stream().map(CheckResult::forbiddenReason).toList();
  }

  @Test
  void checkRegistry() {
    Check multi = check("i", Level.RESTRICTED, "v1.10", "v1.21");
    multi = new Check("i", Level.RESTRICTED, List.of(
        new Check.Versioned(multi.versions().get(0).minimumVersion(),
            multi.versions().get(0).check(), List.of("c")),
        new Check.Versioned(multi.versions().get(1).minimumVersion(),
            multi.versions().get(1).check(), List.of("d"))));
    Evaluator e = Evaluator.create(List.of(
        check("a", Level.BASELINE, "v1.0"),
        check("b", Level.BASELINE, "v1.10"),
        check("c", Level.BASELINE, "v1.0", "v1.5", "v1.10"),
        check("d", Level.BASELINE, "v1.11", "v1.15", "v1.20"),
        check("e", Level.RESTRICTED, "v1.0"),
        check("f", Level.RESTRICTED, "v1.12", "v1.16", "v1.21"),
        withOverrides(check("g", Level.RESTRICTED, "v1.10"), "a"),
        withOverrides(check("h", Level.RESTRICTED, "v1.0"), "b"),
        multi));
    assertThat(reasons(e, Level.PRIVILEGED, "v1.0")).isEmpty();
    assertThat(reasons(e, Level.PRIVILEGED, "latest")).isEmpty();
    assertThat(reasons(e, Level.BASELINE, "v1.0")).containsExactly("a:v1.0", "c:v1.0");
    assertThat(reasons(e, Level.BASELINE, "v1.4")).containsExactly("a:v1.0", "c:v1.0");
    assertThat(reasons(e, Level.BASELINE, "v1.5")).containsExactly("a:v1.0", "c:v1.5");
    assertThat(reasons(e, Level.BASELINE, "v1.10"))
        .containsExactly("a:v1.0", "b:v1.10", "c:v1.10");
    assertThat(reasons(e, Level.BASELINE, "v1.11"))
        .containsExactly("a:v1.0", "b:v1.10", "c:v1.10", "d:v1.11");
    assertThat(reasons(e, Level.BASELINE, "latest"))
        .containsExactly("a:v1.0", "b:v1.10", "c:v1.10", "d:v1.20");
    assertThat(reasons(e, Level.RESTRICTED, "v1.0"))
        .containsExactly("a:v1.0", "c:v1.0", "e:v1.0", "h:v1.0");
    assertThat(reasons(e, Level.RESTRICTED, "v1.4"))
        .containsExactly("a:v1.0", "c:v1.0", "e:v1.0", "h:v1.0");
    assertThat(reasons(e, Level.RESTRICTED, "v1.5"))
        .containsExactly("a:v1.0", "c:v1.5", "e:v1.0", "h:v1.0");
    assertThat(reasons(e, Level.RESTRICTED, "v1.10"))
        .containsExactly("e:v1.0", "g:v1.10", "h:v1.0", "i:v1.10");
    assertThat(reasons(e, Level.RESTRICTED, "v1.11"))
        .containsExactly("d:v1.11", "e:v1.0", "g:v1.10", "h:v1.0", "i:v1.10");
    assertThat(reasons(e, Level.RESTRICTED, "latest"))
        .containsExactly("c:v1.10", "e:v1.0", "f:v1.21", "g:v1.10", "h:v1.0", "i:v1.21");
    assertThat(reasons(e, Level.RESTRICTED, "v1.10000"))
        .containsExactly("c:v1.10", "e:v1.0", "f:v1.21", "g:v1.10", "h:v1.0", "i:v1.21");
  }

  @Test
  void noBaselineNoRestrictedEmpty() {
    Evaluator noBaseline = Evaluator.create(List.of(
        check("e", Level.RESTRICTED, "v1.0"), check("f", Level.RESTRICTED, "v1.12")));
    assertThat(reasons(noBaseline, Level.BASELINE, "latest")).isEmpty();
    assertThat(reasons(noBaseline, Level.RESTRICTED, "latest")).containsExactly("e:v1.0",
        "f:v1.12");
    Evaluator noRestricted = Evaluator.create(List.of(
        check("a", Level.BASELINE, "v1.0"), check("b", Level.BASELINE, "v1.10")));
    assertThat(reasons(noRestricted, Level.RESTRICTED, "latest"))
        .isEqualTo(reasons(noRestricted, Level.BASELINE, "latest"))
        .containsExactly("a:v1.0", "b:v1.10");
    Evaluator empty = Evaluator.create(List.of());
    for (Level l : Level.values()) {
      assertThat(reasons(empty, l, "latest")).isEmpty();
    }
  }

  @Test
  void defaultChecksAreValid() {
    // kube's TestValidChecks: the default checks build an evaluator, ids are unique
    assertThat(Evaluator.create(Checks.defaultChecks())).isNotNull();
    assertThat(Checks.defaultChecks().stream().map(Check::id).distinct())
        .hasSize(Checks.defaultChecks().size());
  }

  @Test
  void invalidChecksAreRefusedNamingTheCheck() {
    assertThatThrownBy(() -> Evaluator.create(List.of(check("a", Level.BASELINE, "v1.0"),
        check("a", Level.RESTRICTED, "v1.0"))))
        .hasMessage("multiple checks registered for ID a");
    assertThatThrownBy(() -> Evaluator.create(List.of(check("a", Level.PRIVILEGED, "v1.0"))))
        .hasMessage("check a: invalid level privileged");
    assertThatThrownBy(() -> Evaluator.create(List.of(check("a", Level.BASELINE))))
        .hasMessage("check a: empty");
    assertThatThrownBy(() -> Evaluator.create(List.of(check("a", Level.BASELINE, "latest"))))
        .hasMessage("check a: version cannot be 'latest'");
    assertThatThrownBy(() -> Evaluator.create(List.of(check("a", Level.BASELINE, "v1.2",
        "v1.2")))).hasMessage("check a: duplicate version v1.2");
    assertThatThrownBy(() -> Evaluator.create(List.of(check("a", Level.BASELINE, "v1.2",
        "v1.1")))).hasMessage("check a: versions must be strictly increasing");
    assertThatThrownBy(() -> Evaluator.create(List.of(
        withOverrides(check("a", Level.BASELINE, "v1.0"), "b"))))
        .hasMessage("check a: only restricted checks may set overrides");
    assertThatThrownBy(() -> Evaluator.create(List.of(check("b", Level.RESTRICTED, "v1.0"),
        withOverrides(check("a", Level.RESTRICTED, "v1.0"), "b"))))
        .hasMessage("check a: overrides restricted check b");
  }

  @Test
  void hostProbesAndHostLifecycleUnderEmulation() {
    // kube's TestHostProbesAndHostLifecycleEmulation: a 1.33 server does not know the 1.34 check
    MapValue spec = (MapValue) io.apiserver4j.core.Yaml.read("containers: [{name: a,"
        + " livenessProbe: {httpGet: {host: evil.example, port: 80}}}]");
    Evaluator current = Evaluator.create(Checks.defaultChecks());
    Evaluator emulated = Evaluator.create(Checks.defaultChecks(), PolicyVersion.of(1, 33));
    LevelVersion latest = LevelVersion.latest(Level.BASELINE);
    assertThat(current.aggregate(latest, MapValue.empty(), spec).forbiddenDetail())
        .isEqualTo("probe or lifecycle host (container \"a\" uses probe or lifecycle host"
            + " \"evil.example\")");
    assertThat(emulated.aggregate(latest, MapValue.empty(), spec).allowed()).isTrue();
    assertThat(current.aggregate(new LevelVersion(Level.BASELINE, PolicyVersion.of(1, 33)),
        MapValue.empty(), spec).allowed()).isTrue();
  }
}
