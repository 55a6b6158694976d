/*
 * Copyright The apiserver4j authors.
 * SPDX-License-Identifier: Apache-2.0
 */
package io.apiserver4j.podsecurity;

import static org.assertj.core.api.Assertions.assertThat;

import io.apiserver4j.admission.AdmissionAttributes;
import io.apiserver4j.admission.Operation;
import io.apiserver4j.admission.matching.NamespaceLookup;
import io.apiserver4j.core.GroupVersionKind;
import io.apiserver4j.core.GroupVersionResource;
import io.apiserver4j.core.MapValue;
import io.apiserver4j.core.Nested;
import io.apiserver4j.core.Value;
import io.apiserver4j.core.Yaml;
import java.time.Clock;
import java.time.Duration;
import java.time.Instant;
import java.time.ZoneId;
import java.time.ZoneOffset;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.stream.Stream;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.Arguments;
import org.junit.jupiter.params.provider.MethodSource;

/**
 * kube's {@code admission/admission_test.go} TestValidateNamespace, as a table: label validation
 * on create and update, the exempt-namespace warning, and the dry run of a tightened enforce
 * level over the existing pods (with kube's test evaluator: a pod fails with the reason in its
 * {@code error} annotation), bounded to 4 pods and one second of a clock the lister and the
 * evaluator advance instead of sleeping.
 */
class NamespaceValidationTest {
  static final String ENFORCE = Policy.ENFORCE_LEVEL_LABEL;
  static final String ENFORCE_VERSION = Policy.ENFORCE_VERSION_LABEL;
  static final String AUDIT = Policy.AUDIT_LEVEL_LABEL;
  static final String WARN = Policy.WARN_LEVEL_LABEL;

  /** A clock that only moves when told to. */
  static final class StepClock extends Clock {
    private Instant now = Instant.parse("2026-01-01T00:00:00Z");

    void advance(Duration d) {
      now = now.plus(d);
    }

    @Override
    public ZoneId getZone() {
      return ZoneOffset.UTC;
    }

    @Override
    public Clock withZone(ZoneId zone) {
      return this;
    }

    @Override
    public Instant instant() {
      return now;
    }
  }

  record Case(String name, List<String> exemptNamespaces, List<String> exemptRuntimeClasses,
      Policy defaultPolicy, Map<String, String> newLabels, Map<String, String> oldLabels,
      List<MapValue> pods, Duration delayList, Duration delayEvaluation, boolean expectAllowed,
      String expectError, boolean expectListPods, LevelVersion expectEvaluate,
      List<String> expectWarnings) {
    @Override
    public String toString() {
      return name;
    }
  }

  static final class CaseBuilder {
    String name;
    List<String> exemptNamespaces = List.of();
    List<String> exemptRuntimeClasses = List.of();
    Policy defaultPolicy = Policy.PRIVILEGED;
    Map<String, String> newLabels = Map.of();
    Map<String, String> oldLabels;
    List<MapValue> pods;
    Duration delayList = Duration.ZERO;
    Duration delayEvaluation = Duration.ZERO;
    boolean allowed;
    String error = "";
    boolean listPods;
    LevelVersion evaluate;
    List<String> warnings = List.of();

    CaseBuilder(String name) {
      this.name = name;
    }

    Case build() {
      return new Case(name, exemptNamespaces, exemptRuntimeClasses, defaultPolicy, newLabels,
          oldLabels, pods, delayList, delayEvaluation, allowed, error, listPods, evaluate,
          warnings);
    }
  }

  static CaseBuilder c(String name) {
    return new CaseBuilder(name);
  }

  static MapValue pod(String yaml) {
    return (MapValue) Yaml.read(yaml);
  }

  static final LevelVersion RESTRICTED_LATEST = LevelVersion.latest(Level.RESTRICTED);

  static Stream<Arguments> cases() {
    List<Case> out = new ArrayList<>();
    // creation tests, just validate labels
    out.add(b(c("create privileged"), x -> {
      x.newLabels = Map.of(ENFORCE, "privileged", ENFORCE_VERSION, "v1.0");
      x.allowed = true;
    }));
    out.add(b(c("create baseline"), x -> {
      x.newLabels = Map.of(ENFORCE, "baseline");
      x.allowed = true;
    }));
    out.add(b(c("create restricted"), x -> {
      x.newLabels = Map.of(ENFORCE, "restricted");
      x.allowed = true;
    }));
    out.add(b(c("create restricted exempt"), x -> {
      x.newLabels = Map.of(ENFORCE, "restricted");
      x.exemptNamespaces = List.of("test");
      x.allowed = true;
      x.warnings = List.of("namespace \"test\" is exempt from Pod Security, and the policy"
          + " (enforce=restricted:latest) will be ignored");
    }));
    out.add(b(c("create malformed level"), x -> {
      x.newLabels = Map.of(ENFORCE, "unknown");
      x.error = "must be one of privileged, baseline, restricted";
    }));
    out.add(b(c("create malformed version"), x -> {
      x.newLabels = Map.of(ENFORCE, "privileged", ENFORCE_VERSION, "unknown");
      x.error = "must be \"latest\" or \"v1.x\"";
    }));
    // update tests that don't tighten effective policy, no pod list/evaluate
    out.add(b(c("update no-op"), x -> {
      x.newLabels = Map.of(ENFORCE, "restricted", ENFORCE_VERSION, "v1.0");
      x.oldLabels = Map.of(ENFORCE, "restricted", ENFORCE_VERSION, "v1.0");
      x.allowed = true;
    }));
    out.add(b(c("update no-op malformed level"), x -> {
      x.newLabels = Map.of(ENFORCE, "unknown");
      x.oldLabels = Map.of(ENFORCE, "unknown");
      x.allowed = true;
    }));
    out.add(b(c("update no-op malformed version"), x -> {
      x.newLabels = Map.of(ENFORCE, "baseline", ENFORCE_VERSION, "unknown");
      x.oldLabels = Map.of(ENFORCE, "baseline", ENFORCE_VERSION, "unknown");
      x.allowed = true;
    }));
    out.add(b(c("update relax level identical version"), x -> {
      x.newLabels = Map.of(ENFORCE, "baseline", ENFORCE_VERSION, "v1.0");
      x.oldLabels = Map.of(ENFORCE, "restricted", ENFORCE_VERSION, "v1.0");
      x.allowed = true;
    }));
    out.add(b(c("update relax level explicit latest"), x -> {
      x.newLabels = Map.of(ENFORCE, "baseline", ENFORCE_VERSION, "latest");
      x.oldLabels = Map.of(ENFORCE, "restricted", ENFORCE_VERSION, "latest");
      x.allowed = true;
    }));
    out.add(b(c("update relax level implicit latest"), x -> {
      x.newLabels = Map.of(ENFORCE, "baseline");
      x.oldLabels = Map.of(ENFORCE, "restricted");
      x.allowed = true;
    }));
    out.add(b(c("update to explicit privileged"), x -> {
      x.newLabels = Map.of(ENFORCE, "privileged");
      x.oldLabels = Map.of(ENFORCE, "restricted", ENFORCE_VERSION, "v1.0");
      x.allowed = true;
    }));
    out.add(b(c("update to implicit privileged"), x -> {
      x.newLabels = Map.of();
      x.oldLabels = Map.of(ENFORCE, "restricted", ENFORCE_VERSION, "v1.0");
      x.allowed = true;
    }));
    out.add(b(c("update exempt to restricted"), x -> {
      x.exemptNamespaces = List.of("test");
      x.newLabels = Map.of(ENFORCE, "restricted", ENFORCE_VERSION, "v1.0", AUDIT, "restricted",
          WARN, "baseline");
      x.oldLabels = Map.of();
      x.allowed = true;
      x.warnings = List.of("namespace \"test\" is exempt from Pod Security, and the policy"
          + " (enforce=restricted:v1.0, audit=restricted:latest, warn=baseline:latest) will be"
          + " ignored");
    }));
    // update tests that introduce labels errors
    out.add(b(c("update malformed level"), x -> {
      x.newLabels = Map.of(ENFORCE, "unknown");
      x.oldLabels = Map.of(ENFORCE, "restricted", ENFORCE_VERSION, "v1.0");
      x.error = "must be one of privileged, baseline, restricted";
    }));
    out.add(b(c("update malformed version"), x -> {
      x.newLabels = Map.of(ENFORCE, "privileged", ENFORCE_VERSION, "unknown");
      x.oldLabels = Map.of(ENFORCE, "restricted", ENFORCE_VERSION, "v1.0");
      x.error = "must be \"latest\" or \"v1.x\"";
    }));
    // update tests that tighten effective policy
    out.add(b(c("update to implicit restricted"), x -> {
      x.newLabels = Map.of();
      x.oldLabels = Map.of(ENFORCE, "baseline", ENFORCE_VERSION, "v1.0");
      x.defaultPolicy = new Policy(RESTRICTED_LATEST, LevelVersion.latest(Level.PRIVILEGED),
          LevelVersion.latest(Level.PRIVILEGED));
      x.allowed = true;
      x.listPods = true;
      x.evaluate = RESTRICTED_LATEST;
      x.warnings = List.of("existing pods in namespace \"test\" violate the new PodSecurity"
          + " enforce level \"restricted:latest\"", "noruntimeclasspod (and 2 other pods): message",
          "runtimeclass3pod: message, message2");
    }));
    out.add(b(c("update with runtimeclass exempt pods"), x -> {
      x.exemptRuntimeClasses = List.of("runtimeclass1");
      x.newLabels = Map.of(ENFORCE, "restricted");
      x.oldLabels = Map.of(ENFORCE, "baseline");
      x.allowed = true;
      x.listPods = true;
      x.evaluate = RESTRICTED_LATEST;
      x.warnings = List.of("existing pods in namespace \"test\" violate the new PodSecurity"
          + " enforce level \"restricted:latest\"", "noruntimeclasspod (and 1 other pod): message",
          "runtimeclass3pod: message, message2");
    }));
    out.add(b(c("timeout on list"), x -> {
      x.newLabels = Map.of(ENFORCE, "restricted");
      x.oldLabels = Map.of(ENFORCE, "baseline");
      x.delayList = Duration.ofMillis(1100);
      x.allowed = true;
      x.listPods = true;
      x.warnings = List.of("failed to list pods while checking new PodSecurity enforce level");
    }));
    out.add(b(c("timeout on evaluate"), x -> {
      x.newLabels = Map.of(ENFORCE, "restricted");
      x.oldLabels = Map.of(ENFORCE, "baseline");
      x.delayEvaluation = Duration.ofMillis(550);
      x.allowed = true;
      x.listPods = true;
      x.evaluate = RESTRICTED_LATEST;
      x.warnings = List.of("new PodSecurity enforce level only checked against the first 2 of 4"
          + " existing pods", "existing pods in namespace \"test\" violate the new PodSecurity"
          + " enforce level \"restricted:latest\"", "noruntimeclasspod (and 1 other pod): message");
    }));
    out.add(b(c("bound number of pods"), x -> {
      x.newLabels = Map.of(ENFORCE, "restricted");
      x.oldLabels = Map.of(ENFORCE, "baseline");
      x.pods = List.of(pod("metadata: {name: pod1, annotations: {error: message}}"),
          pod("metadata: {name: pod2, annotations: {error: message}}"),
          pod("metadata: {name: pod3, annotations: {error: message}}"),
          pod("metadata: {name: pod4, annotations: {error: message}}"),
          pod("metadata: {name: pod5, annotations: {error: message}}"));
      x.allowed = true;
      x.listPods = true;
      x.evaluate = RESTRICTED_LATEST;
      x.warnings = List.of("new PodSecurity enforce level only checked against the first 4 of 5"
          + " existing pods", "existing pods in namespace \"test\" violate the new PodSecurity"
          + " enforce level \"restricted:latest\"", "pod1 (and 3 other pods): message");
    }));
    out.add(b(c("prioritized pods"), x -> {
      x.exemptRuntimeClasses = List.of("runtimeclass1");
      x.newLabels = Map.of(ENFORCE, "restricted");
      x.oldLabels = Map.of(ENFORCE, "baseline");
      List<MapValue> pods = new ArrayList<>();
      for (int i = 1; i <= 4; i++) {
        pods.add(pod("{metadata: {name: exemptpod" + i + ", annotations: {error: message1}},"
            + " spec: {runtimeClassName: runtimeclass1}}"));
      }
      for (int rs = 1; rs <= 2; rs++) {
        for (int i = 1; i <= 4; i++) {
          pods.add(pod("metadata: {name: replicaset" + rs + "pod" + i + ", annotations: {error:"
              + " replicaset" + rs + "error}, ownerReferences: [{uid: '" + rs + "', controller:"
              + " true}]}"));
        }
      }
      for (int i = 1; i <= 4; i++) {
        pods.add(pod("metadata: {name: uniquepod" + i + ", annotations: {error: uniquemessage" + i
            + "}}"));
      }
      x.pods = pods;
      x.allowed = true;
      x.listPods = true;
      x.evaluate = RESTRICTED_LATEST;
      x.warnings = List.of("new PodSecurity enforce level only checked against the first 4 of 12"
          + " existing pods", "existing pods in namespace \"test\" violate the new PodSecurity"
          + " enforce level \"restricted:latest\"", "replicaset1pod1: replicaset1error",
          "replicaset2pod1: replicaset2error", "uniquepod1: uniquemessage1",
          "uniquepod2: uniquemessage2");
    }));
    return out.stream().map(Arguments::of);
  }

  static Case b(CaseBuilder builder, java.util.function.Consumer<CaseBuilder> f) {
    f.accept(builder);
    return builder.build();
  }

  static final List<MapValue> DEFAULT_PODS = List.of(
      pod("metadata: {name: noruntimeclasspod, annotations: {error: message}}"),
      pod("{metadata: {name: runtimeclass1pod, annotations: {error: message}},"
          + " spec: {runtimeClassName: runtimeclass1}}"),
      pod("{metadata: {name: runtimeclass2pod, annotations: {error: message}},"
          + " spec: {runtimeClassName: runtimeclass2}}"),
      pod("metadata: {name: runtimeclass3pod, annotations: {error: 'message, message2'}}"));

  static MapValue namespace(Map<String, String> labels) {
    MapValue.Builder l = MapValue.builder();
    labels.forEach((k, v) -> l.put(k, Value.of(v)));
    return MapValue.empty().with("apiVersion", Value.of("v1")).with("kind", Value.of("Namespace"))
        .with("metadata", MapValue.empty().with("name", Value.of("test"))
            .with("labels", l.build()));
  }

  @ParameterizedTest(name = "{0}")
  @MethodSource("cases")
  void validateNamespace(Case tc) {
    StepClock clock = new StepClock();
    boolean[] listed = new boolean[1];
    LevelVersion[] evaluated = new LevelVersion[1];
    PodLister lister = ns -> {
      listed[0] = true;
      clock.advance(tc.delayList());
      return tc.pods() == null ? DEFAULT_PODS : tc.pods();
    };
    Evaluator evaluator = (lv, meta, spec) -> {
      clock.advance(tc.delayEvaluation());
      evaluated[0] = lv;
      String error = Nested.str(meta, "annotations", "error");
      return List.of(error.isEmpty() ? CheckResult.allow() : CheckResult.forbid(error, ""));
    };
    PodSecurityConfiguration config = new PodSecurityConfiguration(
        tc.defaultPolicy().enforce().level().label(), tc.defaultPolicy().enforce().version()
            .toString(), tc.defaultPolicy().audit().level().label(),
        tc.defaultPolicy().audit().version().toString(), tc.defaultPolicy().warn().level().label(),
        tc.defaultPolicy().warn().version().toString(), List.of(), tc.exemptNamespaces(),
        tc.exemptRuntimeClasses());
    PodSecurityAdmission admission = new PodSecurityAdmission(config, evaluator,
        NamespaceLookup.NONE, lister, clock, 4, Duration.ofSeconds(1));
    AdmissionAttributes.Builder attributes = AdmissionAttributes.builder()
        .operation(tc.oldLabels() == null ? Operation.CREATE : Operation.UPDATE)
        .resource(new GroupVersionResource("", "v1", "namespaces"))
        .kind(new GroupVersionKind("", "v1", "Namespace")).name("test").namespace("test")
        .object(namespace(tc.newLabels()));
    if (tc.oldLabels() != null) {
      attributes.oldObject(namespace(tc.oldLabels()));
    }
    PodSecurityResponse response = admission.evaluate(attributes.build());
    assertThat(response.allowed()).isEqualTo(tc.expectAllowed());
    String error = response.denial().map(e -> e.status().message()).orElse("");
    assertThat(error.isEmpty()).isEqualTo(tc.expectError().isEmpty());
    assertThat(error).contains(tc.expectError());
    assertThat(listed[0]).as("listed pods").isEqualTo(tc.expectListPods());
    assertThat(evaluated[0]).as("evaluated").isEqualTo(tc.expectEvaluate());
    assertThat(response.warnings()).containsExactlyElementsOf(tc.expectWarnings());
  }
}
