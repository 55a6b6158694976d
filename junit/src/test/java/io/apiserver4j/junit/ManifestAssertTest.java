/*
 * Copyright The apiserver4j authors.
 * SPDX-License-Identifier: Apache-2.0
 */
package io.apiserver4j.junit;

import static io.apiserver4j.junit.ApiServerAssertions.assertThatManifest;
import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import io.apiserver4j.apiserver.ApiServer;
import io.apiserver4j.core.errors.StatusReason;
import io.apiserver4j.junit.ApiServerTest.Lifecycle;
import java.nio.file.Files;
import java.nio.file.Path;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/** Expected messages are kube-apiserver's for the same requests (its validation and CEL). */
@ApiServerTest(lifecycle = Lifecycle.RESET_PER_METHOD)
class ManifestAssertTest {
  static final String DEPLOYMENT = """
      apiVersion: apps/v1
      kind: Deployment
      metadata: {name: web, namespace: default}
      spec:
        replicas: %d
        selector: {matchLabels: {app: web}}
        template:
          metadata: {labels: {app: web}}
          spec: {containers: [{name: main, image: nginx}]}
      """;
  static final String CRD_AND_WIDGET = """
      apiVersion: apiextensions.k8s.io/v1
      kind: CustomResourceDefinition
      metadata: {name: widgets.example.com}
      spec:
        group: example.com
        scope: Namespaced
        names: {plural: widgets, singular: widget, kind: Widget}
        versions:
        - name: v1
          served: true
          storage: true
          schema:
            openAPIV3Schema:
              type: object
              properties:
                spec:
                  type: object
                  x-kubernetes-validations:
                  - rule: self.replicas <= 10
                    message: replicas must be at most 10
                  properties:
                    replicas: {type: integer}
      ---
      apiVersion: example.com/v1
      kind: Widget
      metadata: {name: w, namespace: default}
      spec: {replicas: %d}
      """;

  ApiServer api;

  @Test
  void aValidDeploymentIsAcceptedAndNotStored() {
    assertThatManifest(DEPLOYMENT.formatted(2)).isAcceptedBy(api);
    assertThat(api.resources("apps/v1", "deployments").namespace("default").find("web")).isEmpty();
  }

  @Test
  void anInvalidDeploymentIsRejectedWithKubesMessage() {
    assertThatManifest(DEPLOYMENT.formatted(-1)).isRejectedWith(api, "Deployment.apps \"web\""
        + " is invalid: spec.replicas: Invalid value: -1: must be greater than or equal to 0");
    assertThatManifest(DEPLOYMENT.formatted(-1)).isRejectedBy(api)
        .hasReason(StatusReason.INVALID);
    assertThatThrownBy(() -> assertThatManifest(DEPLOYMENT.formatted(-1)).isAcceptedBy(api))
        .isInstanceOf(AssertionError.class)
        .hasMessageContaining("spec.replicas: Invalid value: -1");
    assertThatThrownBy(() -> assertThatManifest(DEPLOYMENT.formatted(1)).isRejectedBy(api))
        .isInstanceOf(AssertionError.class).hasMessageContaining("the server accepted it");
  }

  @Test
  void aCustomResourceMeetsItsCrdsCelRule(@TempDir Path dir) throws Exception {
    assertThatManifest(CRD_AND_WIDGET.formatted(3)).isAcceptedBy(api);
    assertThatManifest(CRD_AND_WIDGET.formatted(11)).isRejectedWith(api,
        // kube 1.36 omits an object's value (field.OmitValueType in apiextensions' CEL validation)
        "Widget.example.com \"w\" is invalid: spec: Invalid value: replicas must be at most 10");
    Path file = dir.resolve("widget.yaml");
    Files.writeString(file, CRD_AND_WIDGET.formatted(12));
    assertThatManifest(file).isRejectedBy(api).hasReason(StatusReason.INVALID);
  }

  @Test
  void anEmptyManifestIsAnAssertionError() {
    assertThatThrownBy(() -> assertThatManifest("# nothing\n").isAcceptedBy(api))
        .isInstanceOf(AssertionError.class).hasMessageContaining("holds no object");
  }
}
