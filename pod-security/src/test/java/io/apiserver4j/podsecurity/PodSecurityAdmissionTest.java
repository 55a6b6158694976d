/*
 * Copyright The apiserver4j authors.
 * SPDX-License-Identifier: Apache-2.0
 */
package io.apiserver4j.podsecurity;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import io.apiserver4j.admission.AdmissionAttributes;
import io.apiserver4j.admission.AdmissionContext;
import io.apiserver4j.admission.Operation;
import io.apiserver4j.admission.SideEffects;
import io.apiserver4j.core.GroupVersionKind;
import io.apiserver4j.core.GroupVersionResource;
import io.apiserver4j.core.MapValue;
import io.apiserver4j.core.Yaml;
import io.apiserver4j.core.errors.ForbiddenException;
import java.time.Clock;
import java.util.LinkedHashMap;
import java.util.Map;
import java.util.Optional;
import org.junit.jupiter.api.Test;

/**
 * The plugin on the admission SPI, as kube's {@code plugin/pkg/admission/security/podsecurity}
 * wraps the library: CREATE and UPDATE of pods, namespaces and workloads only; warnings go to the
 * request, audit annotations get the {@code pod-security.kubernetes.io/} prefix, a denial is a
 * 403 with kube's message.
 */
class PodSecurityAdmissionTest {
  static final MapValue NS = (MapValue) Yaml.read("metadata: {name: ns, labels: {"
      + "pod-security.kubernetes.io/enforce: baseline, pod-security.kubernetes.io/enforce-version:"
      + " v1.30, pod-security.kubernetes.io/warn: restricted,"
      + " pod-security.kubernetes.io/audit: restricted}}");
  static final PodSecurityAdmission PLUGIN = PodSecurityAdmission.create(
      PodSecurityConfiguration.defaults(),
      name -> name.equals("ns") ? Optional.of(NS) : Optional.empty(), PodLister.NONE,
      Clock.systemUTC());

  static AdmissionAttributes.Builder pod(String yaml) {
    return AdmissionAttributes.builder().operation(Operation.CREATE)
        .resource(new GroupVersionResource("", "v1", "pods"))
        .kind(new GroupVersionKind("", "v1", "Pod")).namespace("ns").name("p")
        .object((MapValue) Yaml.read(yaml));
  }

  @Test
  void nameAndSideEffects() {
    assertThat(PLUGIN.name()).isEqualTo("PodSecurity");
    assertThat(PLUGIN.sideEffects()).isEqualTo(SideEffects.NONE);
  }

  @Test
  void handlesCreateAndUpdateOfPodsNamespacesAndWorkloads() {
    AdmissionAttributes create = pod("metadata: {name: p}").build();
    assertThat(PLUGIN.handles(create)).isTrue();
    assertThat(PLUGIN.handles(create.newBuilder().operation(Operation.DELETE).noObject()
        .oldObject(MapValue.empty()).build())).isFalse();
    for (String[] r : new String[][] {{"", "namespaces"}, {"", "replicationcontrollers"},
        {"", "podtemplates"}, {"apps", "replicasets"}, {"apps", "deployments"},
        {"apps", "statefulsets"}, {"apps", "daemonsets"}, {"batch", "jobs"},
        {"batch", "cronjobs"}}) {
      assertThat(PLUGIN.handles(create.newBuilder()
          .resource(new GroupVersionResource(r[0], "v1", r[1])).build())).as(r[1]).isTrue();
    }
    assertThat(PLUGIN.handles(create.newBuilder()
        .resource(new GroupVersionResource("", "v1", "services")).build())).isFalse();
    assertThat(PLUGIN.handles(create.newBuilder()
        .resource(new GroupVersionResource("apps", "v1", "foobars")).build())).isFalse();
  }

  @Test
  void enforceViolationIsA403WithAnnotationsPrefixed() {
    Map<String, String> audit = new LinkedHashMap<>();
    AdmissionAttributes a = pod("{metadata: {name: p}, spec: {hostPID: true,"
        + " containers: [{name: x, image: i}]}}").auditAnnotations(audit::put).build();
    assertThatThrownBy(() -> PLUGIN.validate(a)).isInstanceOf(ForbiddenException.class)
        .hasMessage("pods \"p\" is forbidden: violates PodSecurity \"baseline:v1.30\": host"
            + " namespaces (hostPID=true)");
    assertThat(audit).containsOnlyKeys("pod-security.kubernetes.io/audit-violations",
        "pod-security.kubernetes.io/enforce-policy");
    assertThat(audit).containsEntry("pod-security.kubernetes.io/enforce-policy",
        "baseline:v1.30");
    assertThat(audit.get("pod-security.kubernetes.io/audit-violations")).startsWith(
        "would violate PodSecurity \"restricted:latest\": host namespaces (hostPID=true),"
            + " allowPrivilegeEscalation != false");
    // no warnings on a refused request
    assertThat(a.context().warnings()).isEmpty();
  }

  @Test
  void warnViolationIsAWarningOnTheRequest() {
    AdmissionContext context = AdmissionContext.create();
    PLUGIN.validate(pod("{metadata: {name: p}, spec: {securityContext: {runAsNonRoot: true,"
        + " seccompProfile: {type: RuntimeDefault}}, containers: [{name: x, image: i,"
        + " securityContext: {capabilities: {drop: [ALL]}}}]}}").context(context).build());
    assertThat(context.warnings()).containsExactly("would violate PodSecurity"
        + " \"restricted:latest\": allowPrivilegeEscalation != false (container \"x\" must set"
        + " securityContext.allowPrivilegeEscalation=false)");
  }

  @Test
  void cronJobTemplateIsEvaluated() {
    AdmissionContext context = AdmissionContext.create();
    PLUGIN.validate(AdmissionAttributes.builder().operation(Operation.CREATE)
        .resource(new GroupVersionResource("batch", "v1", "cronjobs"))
        .kind(new GroupVersionKind("batch", "v1", "CronJob")).namespace("ns").name("c")
        .context(context).object((MapValue) Yaml.read("{metadata: {name: c}, spec: {jobTemplate:"
            + " {spec: {template: {spec: {hostNetwork: true, containers: [{name: x}]}}}}}}"))
        .build());
    assertThat(context.warnings()).singleElement().asString()
        .startsWith("would violate PodSecurity \"restricted:latest\": host namespaces"
            + " (hostNetwork=true), allowPrivilegeEscalation != false");
  }

  @Test
  void podUpdateThatChangesNoImageIsNotEvaluated() {
    MapValue old = (MapValue) Yaml.read("{metadata: {name: p}, spec: {hostPID: true,"
        + " containers: [{name: x, image: i}]}}");
    MapValue changed = (MapValue) Yaml.read("{metadata: {name: p, labels: {a: b}}, spec:"
        + " {hostPID: true, containers: [{name: x, image: i}]}}");
    PLUGIN.validate(pod("{}").operation(Operation.UPDATE).object(changed).oldObject(old)
        .build());
    MapValue newImage = (MapValue) Yaml.read("{metadata: {name: p}, spec: {hostPID: true,"
        + " containers: [{name: x, image: j}]}}");
    assertThatThrownBy(() -> PLUGIN.validate(pod("{}").operation(Operation.UPDATE)
        .object(newImage).oldObject(old).build())).isInstanceOf(ForbiddenException.class);
    // an added ephemeral container counts
    MapValue ephemeral = (MapValue) Yaml.read("{metadata: {name: p}, spec: {hostPID: true,"
        + " containers: [{name: x, image: i}], ephemeralContainers: [{name: e, image: i}]}}");
    assertThatThrownBy(() -> PLUGIN.validate(pod("{}").operation(Operation.UPDATE)
        .subresource("ephemeralcontainers").object(ephemeral).oldObject(old).build()))
        .isInstanceOf(ForbiddenException.class);
  }
}
