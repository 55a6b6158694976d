/*
 * Copyright The apiserver4j authors.
 * SPDX-License-Identifier: Apache-2.0
 */
package io.apiserver4j.admission.policy;

import static org.assertj.core.api.Assertions.assertThat;

import io.apiserver4j.cel.CelObjectType;
import io.apiserver4j.core.GroupVersionKind;
import io.apiserver4j.core.GroupVersionResource;
import io.apiserver4j.core.ListValue;
import io.apiserver4j.core.MapValue;
import io.apiserver4j.core.Value;
import io.apiserver4j.core.Yaml;
import java.util.Map;
import java.util.Optional;
import org.junit.jupiter.api.Test;

/** status.typeChecking of ValidatingAdmissionPolicies (kube's e2e "should type check"). */
class PolicyTypeCheckerTest {
  private static final GroupVersionKind DEPLOYMENT = new GroupVersionKind("apps", "v1",
      "Deployment");

  /** A type with the given fields, each open below. */
  private record Fields(Map<String, CelObjectType> fields) implements CelObjectType {
    @Override
    public Optional<CelObjectType> field(String name) {
      return Optional.ofNullable(fields.get(name));
    }

    @Override
    public boolean open() {
      return false;
    }
  }

  private static final CelObjectType DEPLOYMENT_TYPE = new Fields(Map.of(
      "apiVersion", CelObjectType.dynamic(), "kind", CelObjectType.dynamic(),
      "metadata", CelObjectType.dynamic(), "status", CelObjectType.dynamic(),
      "spec", new Fields(Map.of("replicas", CelObjectType.dynamic(),
          "template", CelObjectType.dynamic(), "selector", CelObjectType.dynamic()))));

  private final PolicyTypeChecker checker = new PolicyTypeChecker(
      r -> r.equals(new GroupVersionResource("apps", "v1", "deployments"))
          ? Optional.of(DEPLOYMENT) : Optional.empty(),
      k -> k.equals(DEPLOYMENT) ? Optional.of(DEPLOYMENT_TYPE) : Optional.empty());

  private static MapValue policy(String validations) {
    return (MapValue) Yaml.read("""
        metadata: {name: p}
        spec:
          matchConstraints:
            resourceRules:
            - {apiGroups: [apps], apiVersions: [v1], operations: [CREATE, UPDATE], resources: [deployments]}
            - {apiGroups: ["*"], apiVersions: ["*"], operations: [CREATE], resources: ["*"]}
          validations: %s
        """.formatted(validations));
  }

  @Test
  void correctPolicyHasNoWarnings() {
    assertThat(checker.typeChecking(policy("[{expression: \"object.spec.replicas > 1\"}]")))
        .isEqualTo(MapValue.empty());
  }

  @Test
  void undefinedFieldsAreReportedPerExpressionAndKind() {
    ListValue warnings = (ListValue) checker.typeChecking(policy(
        "[{expression: \"object.spec.replicas > 1\", messageExpression: \"'got ' +"
            + " string(object.spec.replica)\"}]")).getOrNull("expressionWarnings");
    assertThat(warnings.size()).isEqualTo(1);
    MapValue w = (MapValue) warnings.get(0);
    assertThat(w.getOrNull("fieldRef")).isEqualTo(
        Value.of("spec.validations[0].messageExpression"));
    assertThat(((io.apiserver4j.core.StringValue) w.getOrNull("warning")).value())
        .contains("apps/v1, Kind=Deployment: compilation failed: ERROR: <input>:1:")
        .contains("undefined field 'replica'");
  }
}
