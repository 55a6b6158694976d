/*
 * Copyright The apiserver4j authors.
 * SPDX-License-Identifier: Apache-2.0
 */
package io.apiserver4j.junit;

import static io.apiserver4j.junit.ApiServerAssertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import io.apiserver4j.apiserver.ApiRequest;
import io.apiserver4j.apiserver.ApiResponse;
import io.apiserver4j.apiserver.ApiServer;
import io.apiserver4j.apiserver.ApiWatch;
import io.apiserver4j.apiserver.ResourceClient;
import io.apiserver4j.apimachinery.patch.PatchType;
import io.apiserver4j.core.errors.ConflictException;
import io.apiserver4j.core.GroupVersionResource;
import io.apiserver4j.core.MapValue;
import io.apiserver4j.core.errors.StatusReason;
import io.apiserver4j.junit.ApiServerTest.Lifecycle;
import java.time.Duration;
import org.junit.jupiter.api.Test;

@ApiServerTest(lifecycle = Lifecycle.RESET_PER_METHOD)
class ApiServerAssertionsTest {
  static final GroupVersionResource DEPLOYMENTS =
      new GroupVersionResource("apps", "v1", "deployments");
  static final String DEPLOYMENT = """
      apiVersion: apps/v1
      kind: Deployment
      metadata: {name: web}
      spec:
        replicas: %d
        selector: {matchLabels: {app: web}}
        template:
          metadata: {labels: {app: web}}
          spec: {containers: [{name: main, image: nginx}]}
      """;

  ApiServer api;

  ApiResponse apply(String manager, String yaml) {
    return api.handle(ApiRequest.builder(ApiRequest.Verb.PATCH, DEPLOYMENTS).namespace("default")
        .name("web").fieldManager(manager).patch(PatchType.APPLY_YAML, yaml).build());
  }

  @Test
  void fieldOwnership() {
    ResourceClient deployments = api.resources("apps/v1", "deployments").namespace("default");
    deployments.apply("gitops", DEPLOYMENT.formatted(2));
    MapValue scaled = deployments.fieldManager("hpa-controller").patch("web",
        PatchType.MERGE_PATCH, "{\"spec\":{\"replicas\":5}}");

    assertThat(scaled).hasManager("gitops").hasManager("hpa-controller")
        .field(".spec.replicas").isOwnedBy("hpa-controller").isOwnedOnlyBy("hpa-controller")
        .isNotOwnedBy("gitops").and()
        .field(".spec.template.spec.containers[name=\"main\"].image").isAppliedBy("gitops")
        .and().field(".spec.paused").isUnowned();

    assertThatThrownBy(() -> assertThat(scaled).field(".spec.replicas").isOwnedBy("gitops"))
        .isInstanceOf(AssertionError.class).hasMessage("expected .spec.replicas of Deployment"
            + " default/web to be owned by \"gitops\" but it is owned by [\"hpa-controller\""
            + " (Update)]");
    assertThatThrownBy(() -> assertThat(scaled).field(".spec.nothing").isOwnedBy("gitops"))
        .isInstanceOf(AssertionError.class).hasMessageStartingWith("expected .spec.nothing of"
            + " Deployment default/web to be owned by \"gitops\" but no manager owns it");
    assertThatThrownBy(() -> assertThat(scaled).hasManager("kubectl"))
        .isInstanceOf(AssertionError.class).hasMessageContaining("but the managers are");
  }

  @Test
  void applyConflicts() {
    assertThat(apply("alice", DEPLOYMENT.formatted(2))).isSuccess();
    ApiResponse conflict = apply("bob", DEPLOYMENT.formatted(3).replace("nginx", "httpd"));

    assertThat(conflict).hasReason(StatusReason.CONFLICT)
        .isConflictOn(".spec.replicas").with("alice")
        .isConflictOn(".spec.template.spec.containers[name=\"main\"].image").with("alice")
        .and().isConflictOnlyOn(".spec.replicas",
            ".spec.template.spec.containers[name=\"main\"].image");

    assertThatThrownBy(() -> assertThat(conflict).isConflictOn(".spec.replicas").with("carol"))
        .isInstanceOf(AssertionError.class).hasMessage("expected the conflict on .spec.replicas"
            + " to be with \"carol\" but it is [.spec.replicas (conflict with \"alice\")]");
    assertThatThrownBy(() -> assertThat(conflict).isConflictOn(".metadata.labels"))
        .isInstanceOf(AssertionError.class)
        .hasMessageStartingWith("expected a conflict on .metadata.labels but the conflicts are");
    assertThatThrownBy(() -> assertThat(apply("alice", DEPLOYMENT.formatted(2)))
        .isConflictOn(".spec.replicas")).isInstanceOf(AssertionError.class)
        .hasMessage("expected a Conflict failure but the response 200 was a success (200)");
  }

  @Test
  void conflictsThrownByResourceClient() {
    ResourceClient configMaps = api.resources("v1", "configmaps").namespace("default");
    configMaps.apply("alice", "{apiVersion: v1, kind: ConfigMap, metadata: {name: c}, data: {a: '1'}}");
    ConflictException e = org.junit.jupiter.api.Assertions.assertThrows(ConflictException.class,
        () -> configMaps.apply("bob",
            "{apiVersion: v1, kind: ConfigMap, metadata: {name: c}, data: {a: '2'}}"));
    assertThat(e).isConflictOn(".data.a").with("alice").and()
        .hasMessage("Apply failed with 1 conflict: conflict with \"alice\": .data.a");
  }

  @Test
  void watchEventSequences() {
    ResourceClient configMaps = api.resources("v1", "configmaps").namespace("default");
    try (ApiWatch watch = configMaps.watch()) {
      configMaps.apply("a", "{apiVersion: v1, kind: ConfigMap, metadata: {name: w}}");
      configMaps.apply("a", "{apiVersion: v1, kind: ConfigMap, metadata: {name: w}, data: {x: z}}");
      configMaps.delete("w");
      configMaps.apply("a", "{apiVersion: v1, kind: ConfigMap, metadata: {name: v}}");
      assertThat(watch).emits("ADDED", "MODIFIED").emitsEvents("DELETED w", "ADDED v");
      assertThatThrownBy(() -> assertThat(watch).within(Duration.ofMillis(50)).emits("ADDED"))
          .isInstanceOf(AssertionError.class)
          .hasMessage("expected 1 events but got [] within PT0.05S each");
    }
  }
}
