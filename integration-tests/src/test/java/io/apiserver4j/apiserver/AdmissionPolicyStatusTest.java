/*
 * Copyright The apiserver4j authors.
 * SPDX-License-Identifier: Apache-2.0
 */
package io.apiserver4j.apiserver;

import static org.assertj.core.api.Assertions.assertThat;

import io.apiserver4j.core.ListValue;
import io.apiserver4j.core.MapValue;
import io.apiserver4j.core.Nested;
import io.apiserver4j.core.StringValue;
import io.apiserver4j.core.Value;
import io.apiserver4j.core.Yaml;
import org.junit.jupiter.api.Test;

/**
 * A ValidatingAdmissionPolicy's status after it is written, as kube's e2e "should type check
 * validation expressions": {@code typeChecking} set (empty for a clean policy), warnings with
 * the expression's field path for one that selects a field the Deployment schema lacks.
 */
class AdmissionPolicyStatusTest {
  private static final String POLICY = """
      apiVersion: admissionregistration.k8s.io/v1
      kind: ValidatingAdmissionPolicy
      metadata: {name: %s}
      spec:
        matchConstraints:
          resourceRules:
          - {apiGroups: [apps], apiVersions: [v1], operations: [CREATE, UPDATE], resources: [deployments]}
        validations:
        - expression: "%s"
      """;

  @Test
  void typeCheckingIsWrittenToTheStatus() {
    try (ApiServer server = ApiServer.builder().build()) {
      ResourceClient policies = server.resources("admissionregistration.k8s.io/v1",
          "validatingadmissionpolicies");
      policies.create(Yaml.read(POLICY.formatted("correct", "object.spec.replicas > 1")));
      MapValue correct = policies.get("correct");
      assertThat(Nested.getOrNull(correct, "status", "typeChecking")).isEqualTo(MapValue.empty());

      policies.create(Yaml.read(POLICY.formatted("confused", "object.spec.replica > 1")));
      ListValue warnings = (ListValue) Nested.getOrNull(policies.get("confused"), "status",
          "typeChecking", "expressionWarnings");
      assertThat(warnings.size()).isEqualTo(1);
      assertThat(Nested.getOrNull(warnings.get(0), "fieldRef"))
          .isEqualTo(Value.of("spec.validations[0].expression"));
      assertThat(((StringValue) Nested.getOrNull(warnings.get(0), "warning")).value())
          .contains("apps/v1, Kind=Deployment: compilation failed: ERROR: <input>:1:12:"
              + " undefined field 'replica'");
    }
  }
}
