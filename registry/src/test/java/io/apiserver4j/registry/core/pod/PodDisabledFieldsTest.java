/*
 * Copyright The apiserver4j authors.
 * SPDX-License-Identifier: Apache-2.0
 */
package io.apiserver4j.registry.core.pod;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import io.apiserver4j.apiserver.strategy.DisabledFields;
import io.apiserver4j.core.MapValue;
import io.apiserver4j.core.Nested;
import io.apiserver4j.core.Yaml;
import io.apiserver4j.kubeapi.FeatureGates;
import io.apiserver4j.kubeapi.KubeVersion;
import java.util.ArrayList;
import java.util.List;
import java.util.Optional;
import java.util.stream.Stream;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.Arguments;
import org.junit.jupiter.params.provider.MethodSource;

/**
 * kube's {@code pkg/api/pod/util_test.go} drop tests ({@code TestDropInPlacePodVerticalScaling},
 * {@code TestDropPodLevelResources}, {@code TestDropDynamicResourceAllocation},
 * {@code TestDropDisabledMatchLabelKeysFieldInTopologySpread} and the status ones) in their
 * common shape: for the gate on and off, every old pod (using the field, not using it, none)
 * against every new pod (using it, not using it); the new pod is unchanged when the gate is on or
 * the old pod uses the field, else it loses the field (becomes the pod without it). The same
 * matrix runs on pod templates through {@link PodDisabledFields#inTemplate} at each kind's
 * template path, where only the spec fields apply.
 */
class PodDisabledFieldsTest {
  /**
   * One gate's case.
   *
   * @param gate the gate
   * @param on gates with it on
   * @param off gates with it off
   * @param with a pod using the gate's fields
   * @param without the same pod without them
   * @param status whether the pods differ in their status only (no template case)
   */
  record GateCase(String gate, FeatureGates on, FeatureGates off, MapValue with,
      MapValue without, boolean status) {
    @Override
    public String toString() {
      return gate;
    }
  }

  private static MapValue yaml(String text) {
    return (MapValue) Yaml.read(text);
  }

  private static FeatureGates gates(KubeVersion version, String flag) {
    return FeatureGates.parse(version, flag);
  }

  private static final String CONTAINER = "  containers:\n  - name: c1\n    image: image\n"
      + "    resources: {requests: {cpu: 100m}, limits: {cpu: 200m}}\n";

  static List<GateCase> cases() {
    List<GateCase> cases = new ArrayList<>();
    // TestDropInPlacePodVerticalScaling: the spec's resize policy and the container statuses'
    // resources are one case (the status keeps them while the old spec has a resize policy)
    cases.add(new GateCase("InPlacePodVerticalScaling",
        gates(KubeVersion.V1_34, ""), gates(KubeVersion.V1_34, "InPlacePodVerticalScaling=false"),
        yaml("spec:\n" + CONTAINER + "    resizePolicy:\n"
            + "    - {resourceName: cpu, restartPolicy: NotRequired}\n"
            + "    - {resourceName: memory, restartPolicy: RestartContainer}\n"
            + "status:\n  containerStatuses:\n  - name: c1\n    image: image\n"
            + "    allocatedResources: {cpu: 100m}\n"
            + "    resources: {requests: {cpu: 200m}, limits: {cpu: 300m}}\n"),
        yaml("spec:\n" + CONTAINER
            + "status:\n  containerStatuses:\n  - {name: c1, image: image}\n"), false));
    cases.add(new GateCase("PodLevelResources",
        gates(KubeVersion.V1_34, ""), gates(KubeVersion.V1_33, ""),
        yaml("spec:\n" + CONTAINER + "  resources: {requests: {cpu: 100m}, limits: {cpu: 200m}}\n"),
        yaml("spec:\n" + CONTAINER), false));
    cases.add(new GateCase("DynamicResourceAllocation",
        gates(KubeVersion.V1_34, ""), gates(KubeVersion.V1_33, ""),
        yaml("spec:\n  containers:\n  - name: c1\n    image: image\n"
            + "    resources: {claims: [{name: my-claim}]}\n"
            + "  resourceClaims:\n  - {name: my-claim, resourceClaimName: my-claim}\n"),
        yaml("spec:\n  containers:\n  - name: c1\n    image: image\n    resources: {}\n"), false));
    cases.add(new GateCase("MatchLabelKeysInPodTopologySpread",
        gates(KubeVersion.V1_36, ""),
        gates(KubeVersion.V1_36, "MatchLabelKeysInPodTopologySpread=false"),
        yaml("spec:\n" + CONTAINER + "  topologySpreadConstraints:\n"
            + "  - {maxSkew: 1, topologyKey: zone, whenUnsatisfiable: DoNotSchedule,"
            + " labelSelector: {matchLabels: {app: foo}}, matchLabelKeys: [pod-template-hash]}\n"),
        yaml("spec:\n" + CONTAINER + "  topologySpreadConstraints:\n"
            + "  - {maxSkew: 1, topologyKey: zone, whenUnsatisfiable: DoNotSchedule,"
            + " labelSelector: {matchLabels: {app: foo}}}\n"), false));
    cases.add(new GateCase("InPlacePodLevelResourcesVerticalScaling",
        gates(KubeVersion.V1_36, ""),
        gates(KubeVersion.V1_36, "InPlacePodLevelResourcesVerticalScaling=false"),
        yaml("spec:\n" + CONTAINER + "status:\n"
            + "  resources: {requests: {cpu: 100m}, limits: {cpu: 200m}}\n"
            + "  allocatedResources: {cpu: 100m}\n"),
        yaml("spec:\n" + CONTAINER + "status: {}\n"), true));
    cases.add(new GateCase("DRAExtendedResource",
        gates(KubeVersion.V1_36, ""), gates(KubeVersion.V1_35, ""),
        yaml("spec:\n" + CONTAINER + "status:\n  extendedResourceClaimStatus:\n"
            + "    resourceClaimName: pod-extended-resources-abcde\n    requestMappings:\n"
            + "    - {containerName: c1, resourceName: example.com/gpu, requestName: container-0}\n"),
        yaml("spec:\n" + CONTAINER + "status: {}\n"), true));
    // TestDropDynamicResourceAllocation's status: the claim statuses stay while the old spec
    // has claims
    cases.add(new GateCase("DynamicResourceAllocation (status)",
        gates(KubeVersion.V1_34, ""), gates(KubeVersion.V1_33, ""),
        yaml("spec:\n  containers:\n  - {name: c1, image: image}\n"
            + "  resourceClaims:\n  - {name: my-claim, resourceClaimName: my-claim}\n"
            + "status:\n  resourceClaimStatuses:\n  - {name: my-claim, resourceClaimName: c}\n"),
        yaml("spec:\n  containers:\n  - {name: c1, image: image}\nstatus: {}\n"), false));
    return cases;
  }

  /** The three old pods of kube's matrix: using the fields, not using them, none. */
  private static List<Optional<MapValue>> olds(GateCase c) {
    return List.of(Optional.of(c.with()), Optional.of(c.without()), Optional.empty());
  }

  static Stream<Arguments> podMatrix() {
    List<Arguments> args = new ArrayList<>();
    for (GateCase c : cases()) {
      for (boolean enabled : new boolean[] {true, false}) {
        for (Optional<MapValue> old : olds(c)) {
          for (MapValue fresh : List.of(c.with(), c.without())) {
            args.add(Arguments.of(c, enabled, old, fresh));
          }
        }
      }
    }
    return args.stream();
  }

  /**
   * kube's {@code dropDisabledFields} and {@code dropDisabledPodStatusFields} together, as its
   * tests call them: the spec's drop as a Pod's create (no old pod) or update runs it, the
   * status' as its status endpoint does.
   */
  @ParameterizedTest(name = "{0} enabled={1} old={2} new={3}")
  @MethodSource("podMatrix")
  void pod(GateCase c, boolean enabled, Optional<MapValue> old, MapValue fresh) {
    FeatureGates gates = enabled ? c.on() : c.off();
    assertThat(gates.enabled(c.gate().split(" ")[0])).isEqualTo(enabled);
    MapValue got = PodDisabledFields.dropFromStatus(PodDisabledFields.drop(fresh, old, gates),
        old.orElse(MapValue.empty()), gates);
    boolean oldUses = old.isPresent() && old.get().equals(c.with());
    if (enabled || oldUses || fresh.equals(c.without())) {
      assertThat(got).isEqualTo(fresh);
    } else {
      assertThat(got).isEqualTo(c.without());
    }
  }

  /** The template paths of the kinds that embed a pod template, as kube's strategies pass them. */
  private static final List<List<String>> TEMPLATE_PATHS = List.of(
      List.of("spec", "template"),
      List.of("spec", "jobTemplate", "spec", "template"),
      List.of("template"));

  static Stream<Arguments> templateMatrix() {
    List<Arguments> args = new ArrayList<>();
    for (GateCase c : cases()) {
      if (c.status()) {
        continue;
      }
      for (List<String> path : TEMPLATE_PATHS) {
        for (boolean enabled : new boolean[] {true, false}) {
          for (Optional<MapValue> old : olds(c)) {
            for (MapValue fresh : List.of(c.with(), c.without())) {
              args.add(Arguments.of(c, String.join(".", path), enabled, old, fresh));
            }
          }
        }
      }
    }
    return args.stream();
  }

  /** kube's {@code DropDisabledTemplateFields}, as the workload kinds' strategies call it. */
  @ParameterizedTest(name = "{0} at {1} enabled={2} old={3} new={4}")
  @MethodSource("templateMatrix")
  void template(GateCase c, String path, boolean enabled, Optional<MapValue> old,
      MapValue fresh) {
    String[] at = path.split("\\.");
    FeatureGates gates = enabled ? c.on() : c.off();
    DisabledFields drop = PodDisabledFields.inTemplate(at);
    MapValue object = embed(fresh.without("status"), at);
    MapValue got = drop.drop(object, old.map(o -> embed(o.without("status"), at)), gates);
    boolean oldUses = old.isPresent() && old.get().equals(c.with());
    MapValue want = enabled || oldUses ? object : embed(c.without().without("status"), at);
    assertThat(got).isEqualTo(want);
  }

  /** An object of a kind with its pod template ({@code metadata} and {@code spec}) at {@code at}. */
  private static MapValue embed(MapValue podSpecHolder, String... at) {
    MapValue template = yaml("metadata: {labels: {app: foo}}")
        .with("spec", Nested.map(podSpecHolder, "spec"));
    return Nested.set(yaml("metadata: {name: x}"), template, at);
  }

  /** A kind's object without a template, and an old one without, are left alone. */
  @Test
  void objectsWithoutATemplateAreLeftAlone() {
    FeatureGates off = FeatureGates.defaults(KubeVersion.V1_33);
    MapValue noTemplate = yaml("metadata: {name: x}\nspec: {replicas: 1}");
    DisabledFields drop = PodDisabledFields.inTemplate("spec", "template");
    assertThat(drop.drop(noTemplate, Optional.empty(), off)).isSameAs(noTemplate);
    MapValue withResources = embed(yaml("spec:\n" + CONTAINER
        + "  resources: {requests: {cpu: 100m}}\n"), "spec", "template");
    assertThat(Nested.has(drop.drop(withResources, Optional.of(noTemplate), off), "spec",
        "template", "spec", "resources")).isFalse();
    assertThatThrownBy(PodDisabledFields::inTemplate)
        .isInstanceOf(IllegalArgumentException.class).hasMessage("templatePath is empty");
  }
}
