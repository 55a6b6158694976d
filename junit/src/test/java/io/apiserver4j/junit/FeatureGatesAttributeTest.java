/*
 * Copyright The apiserver4j authors.
 * SPDX-License-Identifier: Apache-2.0
 */
package io.apiserver4j.junit;

import static org.assertj.core.api.Assertions.assertThat;

import io.apiserver4j.apiserver.ApiServer;
import io.apiserver4j.core.MapValue;
import io.apiserver4j.core.Nested;
import io.apiserver4j.core.Yaml;
import io.apiserver4j.kubeapi.KubeVersion;
import org.junit.jupiter.api.Test;

/**
 * {@code @ApiServerTest(featureGates = ...)} sets kube-apiserver's {@code --feature-gates} at the
 * emulated release: here ConstrainedImpersonation (alpha in 1.35) on and PodLevelResources off,
 * whose {@code spec.resources} a Pod then loses as kube drops it.
 */
@ApiServerTest(kubernetesVersion = "1.35",
    featureGates = "ConstrainedImpersonation=true,PodLevelResources=false")
class FeatureGatesAttributeTest {
  ApiServer api;

  @Test
  void theServerHasTheGates() {
    assertThat(api.featureGates().version()).isEqualTo(KubeVersion.V1_35);
    assertThat(api.featureGates().enabled("ConstrainedImpersonation")).isTrue();
    assertThat(api.featureGates().enabled("PodLevelResources")).isFalse();
    MapValue pod = api.resources("v1", "pods").namespace("default").create((MapValue) Yaml.read(
        "{apiVersion: v1, kind: Pod, metadata: {name: p}, spec: {containers: [{name: c,"
            + " image: nginx}], resources: {requests: {cpu: 100m}}}}"));
    assertThat(Nested.has(pod, "spec", "resources")).isFalse();
  }
}
