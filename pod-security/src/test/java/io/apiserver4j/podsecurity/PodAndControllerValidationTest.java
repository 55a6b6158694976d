/*
 * Copyright The apiserver4j authors.
 * SPDX-License-Identifier: Apache-2.0
 */
package io.apiserver4j.podsecurity;

import static org.assertj.core.api.Assertions.assertThat;

import io.apiserver4j.admission.AdmissionAttributes;
import io.apiserver4j.admission.Operation;
import io.apiserver4j.admission.UserInfo;
import io.apiserver4j.admission.matching.NamespaceLookup;
import io.apiserver4j.core.GroupVersionKind;
import io.apiserver4j.core.GroupVersionResource;
import io.apiserver4j.core.MapValue;
import io.apiserver4j.core.Nested;
import io.apiserver4j.core.Value;
import io.apiserver4j.core.Yaml;
import io.apiserver4j.core.errors.StatusReason;
import java.time.Clock;
import java.util.ArrayList;
import java.util.LinkedHashSet;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import java.util.Set;
import java.util.stream.Stream;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.Arguments;
import org.junit.jupiter.params.provider.MethodSource;

/**
 * kube's {@code admission/admission_test.go} TestValidatePodAndController (each pod case also run
 * as a Deployment whose template is the pod: never refused, no enforce annotation),
 * TestPrioritizePods' ordering through {@link PodSecurityAdmission#prioritizePods} and
 * TestExemptNamespaceWarning. kube's cases whose object fails to decode have no counterpart here
 * (admission attributes carry decoded objects); a missing old object stands for an undecodable one.
 */
class PodAndControllerValidationTest {
  static final String POD_NAME = "test-pod";

  static MapValue yaml(String s) {
    return (MapValue) Yaml.read(s);
  }

  static final String META = "metadata: {name: test-pod, labels: {foo: bar}}\n";
  static final MapValue RESTRICTED_POD = yaml(META + """
      spec:
        securityContext: {runAsNonRoot: true, seccompProfile: {type: RuntimeDefault}}
        initContainers: [{name: initcontainer1, image: registry.k8s.io/pause, securityContext:
          {allowPrivilegeEscalation: false, capabilities: {drop: [ALL]}}}]
        containers: [{name: container1, image: registry.k8s.io/pause, securityContext:
          {allowPrivilegeEscalation: false, capabilities: {drop: [ALL]}}}]
      """);
  static final MapValue BASELINE_POD = yaml(META + """
      spec:
        initContainers: [{name: initcontainer1, image: registry.k8s.io/pause}]
        containers: [{name: container1, image: registry.k8s.io/pause}]
      """);
  static final MapValue PRIVILEGED_POD = yaml(META + """
      spec:
        initContainers: [{name: initcontainer1, image: registry.k8s.io/pause}]
        containers: [{name: container1, image: registry.k8s.io/pause,
          securityContext: {privileged: true}}]
      """);
  static final MapValue EXEMPT_RC_POD = Nested.set(PRIVILEGED_POD,
      Value.of("exempt-runtimeclass"), "spec", "runtimeClassName");
  static final MapValue TOLERANT_POD = Nested.set(PRIVILEGED_POD,
      Yaml.read("[{operator: Exists}]"), "spec", "tolerations");
  static final MapValue DIFFERENT_PRIVILEGED_POD = yaml(META + """
      spec:
        initContainers: [{name: initcontainer1, image: registry.k8s.io/pause}]
        containers: [{name: container1, image: https://example.com/a-different-image,
          securityContext: {privileged: true}}]
      """);
  static final MapValue DIFFERENT_RESTRICTED_POD = yaml(META + """
      spec:
        securityContext: {runAsNonRoot: true, seccompProfile: {type: RuntimeDefault}}
        initContainers: [{name: initcontainer1, image: registry.k8s.io/pause, securityContext:
          {allowPrivilegeEscalation: false, capabilities: {drop: [ALL]}}}]
        containers: [{name: container1, image: https://example.com/a-different-image,
          securityContext: {allowPrivilegeEscalation: false, capabilities: {drop: [ALL]}}}]
      """);
  static final MapValue EMPTY_DEPLOYMENT = yaml(META + "spec: {}");

  static MapValue ns(String enforce, String warn, String audit) {
    StringBuilder labels = new StringBuilder();
    if (!enforce.isEmpty()) {
      labels.append(Policy.ENFORCE_LEVEL_LABEL).append(": ").append(enforce).append(", ");
    }
    if (!warn.isEmpty()) {
      labels.append(Policy.WARN_LEVEL_LABEL).append(": ").append(warn).append(", ");
    }
    if (!audit.isEmpty()) {
      labels.append(Policy.AUDIT_LEVEL_LABEL).append(": ").append(audit).append(", ");
    }
    return yaml("metadata: {labels: {" + labels + "}}");
  }

  static final Map<String, MapValue> NAMESPACES = Map.of(
      "exempt-ns", ns("restricted", "restricted", "restricted"),
      "implicit-ns", ns("", "", ""),
      "privileged-ns", ns("privileged", "privileged", "privileged"),
      "baseline-ns", ns("baseline", "baseline", "baseline"),
      "baseline-warn-ns", ns("", "baseline", ""),
      "baseline-audit-ns", ns("", "", "baseline"),
      "restricted-ns", ns("restricted", "restricted", "restricted"),
      "invalid-ns", ns("not-a-valid-level", "", ""));

  static final PodSecurityConfiguration CONFIG = new PodSecurityConfiguration("privileged",
      "latest", "privileged", "latest", "privileged", "latest", List.of("exempt-user"),
      List.of("exempt-ns"), List.of("exempt-runtimeclass"));

  /** One of kube's pod cases; null levels mean "not expected". */
  record Case(String desc, String namespace, String username, MapValue pod, MapValue oldPod,
      Operation operation, String subresource, boolean skipPod, boolean skipDeployment,
      boolean expectAllowed, StatusReason expectReason, boolean expectExempt, boolean expectError,
      boolean expectEnforce, boolean expectWarning, boolean expectAudit) {}

  static Case c(String desc, String namespace, MapValue pod, boolean allowed) {
    return new Case(desc, namespace, "test-user", pod, null, Operation.CREATE, "", false, false,
        allowed, null, false, false, false, false, false);
  }

  static Stream<Arguments> cases() {
    List<Case> pods = List.of(
        with(c("ignored subresource", "restricted-ns", PRIVILEGED_POD, true), "status"),
        exempt(c("exempt namespace", "exempt-ns", PRIVILEGED_POD, true)),
        exempt(user(c("exempt user", "restricted-ns", PRIVILEGED_POD, true))),
        exempt(c("exempt runtimeClass", "restricted-ns", EXEMPT_RC_POD, true)),
        error(denied(c("namespace not found", "missing-ns", RESTRICTED_POD, false),
            StatusReason.INTERNAL_ERROR)),
        enforce(c("short-circuit privileged:latest (implicit)", "implicit-ns", PRIVILEGED_POD,
            true)),
        enforce(c("short-circuit privileged:latest (explicit)", "privileged-ns", PRIVILEGED_POD,
            true)),
        podOnly(error(denied(update(c("failed decode old object", "baseline-ns",
            RESTRICTED_POD, false), null), StatusReason.BAD_REQUEST))),
        podOnly(update(c("insignificant update", "restricted-ns", TOLERANT_POD, true),
            PRIVILEGED_POD)),
        audit(warn(enforce(denied(update(c("significant update denied", "restricted-ns",
            DIFFERENT_PRIVILEGED_POD, false), PRIVILEGED_POD), StatusReason.FORBIDDEN)))),
        enforce(update(c("significant update allowed", "restricted-ns", DIFFERENT_RESTRICTED_POD,
            true), RESTRICTED_POD)),
        error(enforce(denied(c("invalid namespace labels", "invalid-ns", BASELINE_POD, false),
            StatusReason.FORBIDDEN))),
        audit(warn(enforce(denied(c("enforce deny", "restricted-ns", PRIVILEGED_POD, false),
            StatusReason.FORBIDDEN)))),
        enforce(c("enforce allow", "baseline-ns", BASELINE_POD, true)),
        warn(enforce(c("warn deny", "baseline-warn-ns", PRIVILEGED_POD, true))),
        audit(enforce(c("audit deny", "baseline-audit-ns", PRIVILEGED_POD, true))),
        deploymentOnly(c("no pod template", "restricted-ns", EMPTY_DEPLOYMENT, true)));
    List<Arguments> out = new ArrayList<>();
    for (Case tc : pods) {
      if (!tc.skipPod) {
        out.add(Arguments.of("pod:" + tc.desc, tc, false));
      }
      if (!tc.skipDeployment) {
        out.add(Arguments.of("deployment:" + tc.desc, tc, true));
      }
    }
    return out.stream();
  }

  static MapValue toDeployment(MapValue pod) {
    if (pod == EMPTY_DEPLOYMENT) {
      return pod;
    }
    MapValue meta = Nested.map(pod, "metadata");
    return MapValue.empty().with("metadata", meta).with("spec", MapValue.empty()
        .with("template", MapValue.empty().with("metadata", meta)
            .with("spec", Nested.map(pod, "spec"))));
  }

  @ParameterizedTest(name = "{0}")
  @MethodSource("cases")
  void validatePodAndController(String desc, Case tc, boolean deployment) {
    NamespaceLookup lookup = name -> Optional.ofNullable(NAMESPACES.get(name));
    PodSecurityAdmission admission = PodSecurityAdmission.create(CONFIG, lookup,
        PodLister.NONE, Clock.systemUTC());
    AdmissionAttributes.Builder b = AdmissionAttributes.builder().name(POD_NAME)
        .namespace(tc.namespace).operation(tc.operation).subresource(tc.subresource)
        .userInfo(new UserInfo(tc.username, "", List.of(), Map.of()));
    if (deployment) {
      b.resource(new GroupVersionResource("apps", "v1", "deployments"))
          .kind(new GroupVersionKind("apps", "v1", "Deployment")).object(toDeployment(tc.pod));
      if (tc.oldPod != null) {
        b.oldObject(toDeployment(tc.oldPod));
      }
    } else {
      b.resource(new GroupVersionResource("", "v1", "pods"))
          .kind(new GroupVersionKind("", "v1", "Pod")).object(tc.pod);
      if (tc.oldPod != null) {
        b.oldObject(tc.oldPod);
      }
    }
    PodSecurityResponse response = admission.evaluate(b.build());
    // workloads are never refused and never enforced
    boolean allowed = deployment || tc.expectAllowed;
    assertThat(response.allowed()).isEqualTo(allowed);
    if (!allowed) {
      assertThat(response.denial().get().reason()).isEqualTo(tc.expectReason);
    }
    boolean expectWarning = tc.expectWarning && allowed;
    assertThat(response.warnings().isEmpty()).as("warnings %s", response.warnings())
        .isEqualTo(!expectWarning);
    Set<String> keys = new LinkedHashSet<>();
    if (tc.expectEnforce && !deployment) {
      keys.add("enforce-policy");
    }
    if (tc.expectAudit) {
      keys.add("audit-violations");
    }
    if (tc.expectError) {
      keys.add("error");
    }
    if (tc.expectExempt) {
      keys.add("exempt");
    }
    assertThat(response.auditAnnotations().keySet()).containsExactlyInAnyOrderElementsOf(keys);
  }

  static Case with(Case c, String subresource) {
    return new Case(c.desc, c.namespace, c.username, c.pod, c.oldPod, c.operation, subresource,
        c.skipPod, c.skipDeployment, c.expectAllowed, c.expectReason, c.expectExempt,
        c.expectError, c.expectEnforce, c.expectWarning, c.expectAudit);
  }

  static Case exempt(Case c) {
    return new Case(c.desc, c.namespace, c.username, c.pod, c.oldPod, c.operation,
        c.subresource, c.skipPod, c.skipDeployment, c.expectAllowed, c.expectReason, true,
        c.expectError, c.expectEnforce, c.expectWarning, c.expectAudit);
  }

  static Case user(Case c) {
    return new Case(c.desc, c.namespace, "exempt-user", c.pod, c.oldPod, c.operation,
        c.subresource, c.skipPod, c.skipDeployment, c.expectAllowed, c.expectReason,
        c.expectExempt, c.expectError, c.expectEnforce, c.expectWarning, c.expectAudit);
  }

  static Case error(Case c) {
    return new Case(c.desc, c.namespace, c.username, c.pod, c.oldPod, c.operation,
        c.subresource, c.skipPod, c.skipDeployment, c.expectAllowed, c.expectReason,
        c.expectExempt, true, c.expectEnforce, c.expectWarning, c.expectAudit);
  }

  static Case denied(Case c, StatusReason reason) {
    return new Case(c.desc, c.namespace, c.username, c.pod, c.oldPod, c.operation,
        c.subresource, c.skipPod, c.skipDeployment, false, reason, c.expectExempt,
        c.expectError, c.expectEnforce, c.expectWarning, c.expectAudit);
  }

  static Case enforce(Case c) {
    return new Case(c.desc, c.namespace, c.username, c.pod, c.oldPod, c.operation,
        c.subresource, c.skipPod, c.skipDeployment, c.expectAllowed, c.expectReason,
        c.expectExempt, c.expectError, true, c.expectWarning, c.expectAudit);
  }

  static Case warn(Case c) {
    return new Case(c.desc, c.namespace, c.username, c.pod, c.oldPod, c.operation,
        c.subresource, c.skipPod, c.skipDeployment, c.expectAllowed, c.expectReason,
        c.expectExempt, c.expectError, c.expectEnforce, true, c.expectAudit);
  }

  static Case audit(Case c) {
    return new Case(c.desc, c.namespace, c.username, c.pod, c.oldPod, c.operation,
        c.subresource, c.skipPod, c.skipDeployment, c.expectAllowed, c.expectReason,
        c.expectExempt, c.expectError, c.expectEnforce, c.expectWarning, true);
  }

  static Case update(Case c, MapValue oldPod) {
    return new Case(c.desc, c.namespace, c.username, c.pod, oldPod, Operation.UPDATE,
        c.subresource, c.skipPod, c.skipDeployment, c.expectAllowed, c.expectReason,
        c.expectExempt, c.expectError, c.expectEnforce, c.expectWarning, c.expectAudit);
  }

  static Case podOnly(Case c) {
    return new Case(c.desc, c.namespace, c.username, c.pod, c.oldPod, c.operation,
        c.subresource, c.skipPod, true, c.expectAllowed, c.expectReason, c.expectExempt,
        c.expectError, c.expectEnforce, c.expectWarning, c.expectAudit);
  }

  static Case deploymentOnly(Case c) {
    return new Case(c.desc, c.namespace, c.username, c.pod, c.oldPod, c.operation,
        c.subresource, true, c.skipDeployment, c.expectAllowed, c.expectReason, c.expectExempt,
        c.expectError, c.expectEnforce, c.expectWarning, c.expectAudit);
  }

  @Test
  void prioritizePods() {
    // kube's TestPrioritizePods: exempt runtime classes dropped, one pod per controller first
    PodSecurityConfiguration config = new PodSecurityConfiguration("privileged", "latest",
        "privileged", "latest", "privileged", "latest", List.of(), List.of(),
        List.of("runtimeclass1"));
    PodSecurityAdmission a = PodSecurityAdmission.create(config, NamespaceLookup.NONE,
        PodLister.NONE, Clock.systemUTC());
    List<MapValue> pods = List.of(
        yaml("{metadata: {name: exempt1}, spec: {runtimeClassName: runtimeclass1}}"),
        yaml("metadata: {name: rs1a, ownerReferences: [{uid: '1', controller: true}]}"),
        yaml("metadata: {name: rs1b, ownerReferences: [{uid: '1', controller: true}]}"),
        yaml("metadata: {name: unique1}"),
        yaml("metadata: {name: rs2a, ownerReferences: [{uid: '2', controller: true}]}"),
        yaml("metadata: {name: notcontrolled, ownerReferences: [{uid: '1'}]}"),
        yaml("metadata: {name: rs2b, ownerReferences: [{uid: '2', controller: true}]}"));
    assertThat(a.prioritizePods(pods)).extracting(p -> Nested.str(p, "metadata", "name"))
        .containsExactly("rs1a", "unique1", "rs2a", "notcontrolled", "rs1b", "rs2b");
  }

  static Stream<Arguments> exemptWarnings() {
    Policy baseline = new Policy(new LevelVersion(Level.BASELINE, PolicyVersion.of(1, 23)),
        new LevelVersion(Level.BASELINE, PolicyVersion.of(1, 23)),
        new LevelVersion(Level.BASELINE, PolicyVersion.of(1, 23)));
    return Stream.of(
        Arguments.of("empty-case", Map.of(), Policy.PRIVILEGED, ""),
        Arguments.of("ignore-privileged", Map.of(Policy.ENFORCE_LEVEL_LABEL, "privileged",
            Policy.ENFORCE_VERSION_LABEL, "v1.24", Policy.WARN_VERSION_LABEL, "v1.25"),
            Policy.PRIVILEGED, ""),
        Arguments.of("warn-on-enforce", Map.of(Policy.ENFORCE_LEVEL_LABEL, "baseline"),
            Policy.PRIVILEGED, "(enforce=baseline:latest)"),
        Arguments.of("warn-on-warn", Map.of(Policy.WARN_LEVEL_LABEL, "baseline"),
            Policy.PRIVILEGED, "(warn=baseline:latest)"),
        Arguments.of("warn-on-audit", Map.of(Policy.AUDIT_LEVEL_LABEL, "restricted"),
            Policy.PRIVILEGED, "(audit=restricted:latest)"),
        Arguments.of("ignore-default-policy", Map.of(), baseline, ""),
        Arguments.of("warn-versions-default-policy", Map.of(Policy.WARN_VERSION_LABEL, "latest"),
            baseline, "(warn=baseline:latest)"));
  }

  @ParameterizedTest(name = "{0}")
  @MethodSource("exemptWarnings")
  void exemptNamespaceWarning(String name, Map<String, String> labels, Policy defaults,
      String contains) {
    Map<String, String> all = new java.util.HashMap<>(labels);
    all.put("qqincegidneocgu", "vpmxkpcjphxrcpx");
    PodSecurityConfiguration config = new PodSecurityConfiguration(
        defaults.enforce().level().label(), defaults.enforce().version().toString(),
        defaults.audit().level().label(), defaults.audit().version().toString(),
        defaults.warn().level().label(), defaults.warn().version().toString(),
        List.of(), List.of(), List.of());
    PodSecurityAdmission a = PodSecurityAdmission.create(config, NamespaceLookup.NONE,
        PodLister.NONE, Clock.systemUTC());
    Policy.Evaluation policy = Policy.fromLabels(all, defaults);
    assertThat(policy.errors()).isEmpty();
    Optional<String> warning = a.exemptNamespaceWarning(name, policy.policy(), all);
    if (contains.isEmpty()) {
      assertThat(warning).isEmpty();
      return;
    }
    assertThat(warning.get()).contains(contains).doesNotContain("qqincegidneocgu")
        .doesNotContain("vpmxkpcjphxrcpx")
        .isEqualTo("namespace \"" + name + "\" is exempt from Pod Security, and the policy "
            + contains + " will be ignored");
  }
}
