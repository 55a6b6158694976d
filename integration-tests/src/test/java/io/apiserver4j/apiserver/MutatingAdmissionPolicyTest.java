/*
 * Copyright The apiserver4j authors.
 * SPDX-License-Identifier: Apache-2.0
 */
package io.apiserver4j.apiserver;

import static org.assertj.core.api.Assertions.assertThat;

import io.apiserver4j.core.ListValue;
import io.apiserver4j.core.MapValue;
import io.apiserver4j.core.Nested;
import io.apiserver4j.core.Value;
import io.apiserver4j.core.Yaml;
import org.junit.jupiter.api.Test;

/**
 * The sidecar example of kube's MutatingAdmissionPolicy documentation through the server: the
 * {@code Object{...}} is merged with the Pod schema, so the injected init container joins the
 * Pod's own (initContainers is a list keyed by name) instead of replacing them.
 */
class MutatingAdmissionPolicyTest {
  @Test
  void applyConfigurationIsMergedWithTheKindsSchema() {
    try (ApiServer server = ApiServer.builder().build()) {
      server.resources("admissionregistration.k8s.io/v1", "mutatingadmissionpolicies")
          .create(Yaml.read("""
              apiVersion: admissionregistration.k8s.io/v1
              kind: MutatingAdmissionPolicy
              metadata: {name: sidecar-policy.example.com}
              spec:
                matchConstraints:
                  resourceRules:
                  - {apiGroups: [""], apiVersions: [v1], operations: [CREATE], resources: [pods]}
                matchConditions:
                - name: does-not-already-have-sidecar
                  expression: "!has(object.spec.initContainers) || !object.spec.initContainers.exists(ic, ic.name == \\"mesh-proxy\\")"
                failurePolicy: Fail
                reinvocationPolicy: IfNeeded
                mutations:
                - patchType: ApplyConfiguration
                  applyConfiguration:
                    expression: >
                      Object{
                        spec: Object.spec{
                          initContainers: [
                            Object.spec.initContainers{
                              name: "mesh-proxy",
                              image: "mesh/proxy:v1.0.0",
                              args: ["proxy", "sidecar"],
                              restartPolicy: "Always"
                            }
                          ]
                        }
                      }
              """));
      server.resources("admissionregistration.k8s.io/v1", "mutatingadmissionpolicybindings")
          .create(Yaml.read("""
              apiVersion: admissionregistration.k8s.io/v1
              kind: MutatingAdmissionPolicyBinding
              metadata: {name: sidecar-binding-test.example.com}
              spec: {policyName: sidecar-policy.example.com}
              """));
      MapValue pod = server.resources("v1", "pods").namespace("default").create(Yaml.read("""
          apiVersion: v1
          kind: Pod
          metadata: {name: myapp, namespace: default}
          spec:
            initContainers:
            - {name: setup, image: busybox}
            containers:
            - {name: app, image: nginx}
          """));
      ListValue init = (ListValue) Nested.getOrNull(pod, "spec", "initContainers");
      assertThat(init.items()).extracting(c -> Nested.getOrNull(c, "name"))
          .containsExactly(Value.of("setup"), Value.of("mesh-proxy"));
      assertThat(Nested.getOrNull(init.get(1), "restartPolicy")).isEqualTo(Value.of("Always"));
    }
  }
}
