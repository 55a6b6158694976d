/*
 * Copyright The apiserver4j authors.
 * SPDX-License-Identifier: Apache-2.0
 */
package io.apiserver4j.kubeapi;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import io.apiserver4j.core.BooleanValue;
import io.apiserver4j.core.MapValue;
import io.apiserver4j.core.Nested;
import io.apiserver4j.core.Value;
import io.apiserver4j.core.Yaml;
import io.apiserver4j.kubeapi.FeatureGates.Spec;
import io.apiserver4j.kubeapi.FeatureGates.Stage;
import java.io.IOException;
import java.io.InputStream;
import java.nio.charset.StandardCharsets;
import java.util.Map;
import java.util.stream.Stream;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.Arguments;
import org.junit.jupiter.params.provider.CsvSource;
import org.junit.jupiter.params.provider.MethodSource;

/**
 * {@code --feature-gates} parsing with component-base's cases ({@code feature-gate-flags.yaml})
 * and the gates' defaults per release against kube's versioned specs.
 */
class FeatureGatesTest {

  static Stream<Arguments> flagCases() throws IOException {
    try (InputStream in = FeatureGatesTest.class.getResourceAsStream("feature-gate-flags.yaml")) {
      String yaml = new String(in.readAllBytes(), StandardCharsets.UTF_8);
      return ((io.apiserver4j.core.ListValue) Yaml.read(yaml)).items().stream().map(v -> {
        MapValue c = (MapValue) v;
        return Arguments.of(Nested.str(c, "flag"), Nested.str(c, "version"),
            Nested.map(c, "expect"), Nested.str(c, "error"));
      }).toList().stream();
    }
  }

  @ParameterizedTest(name = "[{index}] {0} at {1}")
  @MethodSource("flagCases")
  void flag(String flag, String version, MapValue expect, String error) {
    KubeVersion v = version.isEmpty() ? KubeVersion.latest() : KubeVersion.parse(version);
    if (!error.isEmpty()) {
      assertThatThrownBy(() -> FeatureGates.parse(v, flag))
          .isInstanceOf(IllegalArgumentException.class).hasMessage(error);
      return;
    }
    FeatureGates gates = FeatureGates.parse(v, flag);
    for (int i = 0; i < expect.size(); i++) {
      Value want = expect.valueAt(i);
      assertThat(gates.enabled(expect.keyAt(i))).as(expect.keyAt(i))
          .isEqualTo(((BooleanValue) want).value());
    }
  }

  /**
   * Defaults and stages read off kube's versioned specs: {@code ConstrainedImpersonation}
   * (k8s.io/apiserver v0.36.3: alpha off 1.35, beta on 1.36), {@code MutatingAdmissionPolicy}
   * (alpha 1.32, beta off 1.34, GA on 1.36), {@code WatchList} (beta on 1.32, off 1.33, on
   * 1.34), {@code CRDObservedGenerationTracking} (apiextensions v0.36.3: beta off 1.35, on 1.36),
   * {@code PodLevelResources} (kube: alpha 1.32, beta on 1.34), {@code DynamicResourceAllocation}
   * (beta off 1.32, GA on 1.34, locked 1.35), {@code ComponentStatusz} (component-base v0.36.3:
   * alpha 1.32, beta on 1.36), {@code NativeHistograms} (alpha 1.36).
   */
  @ParameterizedTest(name = "{0} at {1}")
  @CsvSource({
      "ConstrainedImpersonation, 1.33, PRE_ALPHA, false, false",
      "ConstrainedImpersonation, 1.35, ALPHA, false, false",
      "ConstrainedImpersonation, 1.36, BETA, true, false",
      "MutatingAdmissionPolicy, 1.33, ALPHA, false, false",
      "MutatingAdmissionPolicy, 1.34, BETA, false, false",
      "MutatingAdmissionPolicy, 1.36, GA, true, false",
      "WatchList, 1.33, BETA, false, false",
      "WatchList, 1.34, BETA, true, false",
      "CRDObservedGenerationTracking, 1.34, PRE_ALPHA, false, false",
      "CRDObservedGenerationTracking, 1.35, BETA, false, false",
      "CRDObservedGenerationTracking, 1.36, BETA, true, false",
      "PodLevelResources, 1.33, ALPHA, false, false",
      "PodLevelResources, 1.34, BETA, true, false",
      "PodLevelResources, 1.36, BETA, true, false",
      "DynamicResourceAllocation, 1.33, BETA, false, false",
      "DynamicResourceAllocation, 1.34, GA, true, false",
      "DynamicResourceAllocation, 1.36, GA, true, true",
      "ComponentStatusz, 1.35, ALPHA, false, false",
      "ComponentStatusz, 1.36, BETA, true, false",
      "NativeHistograms, 1.35, PRE_ALPHA, false, false",
      "NativeHistograms, 1.36, ALPHA, false, false",
      "AggregatedDiscoveryRemoveBetaType, 1.34, DEPRECATED, true, false",
      "AggregatedDiscoveryRemoveBetaType, 1.35, DEPRECATED, true, true",
      "AllAlpha, 1.33, ALPHA, false, false",
  })
  void defaultsFollowKubesVersionedSpecs(String gate, String version, Stage stage,
      boolean on, boolean locked) {
    FeatureGates gates = FeatureGates.defaults(KubeVersion.parse(version));
    assertThat(gates.spec(gate)).isEqualTo(new Spec(gate, stage, on, locked));
    assertThat(gates.enabled(gate)).isEqualTo(on);
  }

  @Test
  void stageLabelsAreKubes() {
    assertThat(Stage.GA.label()).isEmpty();
    assertThat(Stage.PRE_ALPHA.label()).isEqualTo("PRE-ALPHA");
    assertThat(Stage.BETA.label()).isEqualTo("BETA");
  }

  @Test
  void valueSemantics() {
    FeatureGates a = FeatureGates.parse(KubeVersion.V1_35, "PodLevelResources=false");
    assertThat(a).isEqualTo(FeatureGates.of(KubeVersion.V1_35, Map.of("PodLevelResources",
        false)));
    assertThat(a).isNotEqualTo(FeatureGates.defaults(KubeVersion.V1_35));
    assertThat(a.toString()).isEqualTo("PodLevelResources=false");
    assertThat(a.explicit()).containsExactly(Map.entry("PodLevelResources", false));
    assertThat(a.version()).isEqualTo(KubeVersion.V1_35);
    assertThat(a.known()).contains("AllAlpha", "PodLevelResources", "WatchList");
    assertThatThrownBy(() -> a.enabled("NoSuchGate"))
        .isInstanceOf(IllegalArgumentException.class)
        .hasMessage("feature \"NoSuchGate\" is not registered in FeatureGate");
  }
}
