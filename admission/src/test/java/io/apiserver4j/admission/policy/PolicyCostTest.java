/*
 * Copyright The apiserver4j authors.
 * SPDX-License-Identifier: Apache-2.0
 */
package io.apiserver4j.admission.policy;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import io.apiserver4j.admission.AdmissionAttributes;
import io.apiserver4j.cel.CelAuthorizer;
import io.apiserver4j.core.MapValue;
import io.apiserver4j.core.errors.StatusException;
import io.apiserver4j.core.Yaml;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.concurrent.CopyOnWriteArrayList;
import org.junit.jupiter.api.Test;

/**
 * kube's runtime cost limits of admission policies (k8s.io/apiserver/pkg/admission/plugin/cel
 * activation.go, policy/validating/validator.go, apis/cel/config.go): an expression past the
 * per-call limit (1,000,000) fails with cel-go's cancellation; a policy's validations share a
 * budget of 10,000,000, lazily computed variables included, and a spent budget is one error
 * decided by the failure policy. An authorizer check costs 350,000 in kube's cost model, so a
 * check chain ({@code authorizer}, {@code path}, {@code check}, {@code allowed}) costs 350,003.
 */
class PolicyCostTest {
  private static final String CHECK = "authorizer.path('/p').check('get').allowed()";

  private final List<CelAuthorizer.Check> checks = new CopyOnWriteArrayList<>();

  private TestContext context() {
    return new TestContext(List.of(), Map.of()) {
      @Override
      public CelAuthorizer authorizer(AdmissionAttributes attributes) {
        return check -> {
          checks.add(check);
          return new CelAuthorizer.Decision(true, "", "");
        };
      }
    };
  }

  private static ValidatingAdmissionPolicies policy(String failurePolicy, String variables,
      List<String> validations) {
    List<String> quoted = new ArrayList<>();
    validations.forEach(v -> quoted.add("{expression: \"" + v + "\"}"));
    MapValue policy = (MapValue) Yaml.read("""
        metadata: {name: costly}
        spec:
          failurePolicy: %s
          variables: %s
          validations: [%s]
        """.formatted(failurePolicy, variables, String.join(", ", quoted)));
    MapValue binding = (MapValue) Yaml.read("""
        metadata: {name: costly-binding}
        spec: {policyName: costly, validationActions: [Deny]}
        """);
    return ValidatingAdmissionPolicies.of(List.of(policy), List.of(binding));
  }

  private static AdmissionAttributes configMap() {
    return ValidatingAdmissionPoliciesTest.create((MapValue) Yaml.read(
        "{apiVersion: v1, kind: ConfigMap, metadata: {name: cm, namespace: default}}"));
  }

  @Test
  void anExpressionPastThePerCallLimitIsCancelled() {
    String expression = CHECK + " && " + CHECK + " && " + CHECK;
    assertThatThrownBy(() -> policy("Fail", "[]", List.of(expression))
        .validate(configMap(), context()))
        .isInstanceOf(StatusException.class)
        .hasMessage("configmaps \"cm\" is forbidden: ValidatingAdmissionPolicy 'costly' with"
            + " binding 'costly-binding' denied request: expression '" + expression
            + "' resulted in error: operation cancelled: actual cost limit exceeded");
    // the third check ran before its cost was counted, as in cel-go
    assertThat(checks).hasSize(3);
  }

  @Test
  void validationsShareTheBudget() {
    // 28 checks cost 9,800,084; the 29th exceeds 10,000,000
    List<String> validations = new ArrayList<>();
    for (int i = 0; i < 30; i++) {
      validations.add(CHECK);
    }
    assertThatThrownBy(() -> policy("Fail", "[]", validations).validate(configMap(), context()))
        .isInstanceOf(StatusException.class)
        .hasMessage("configmaps \"cm\" is forbidden: ValidatingAdmissionPolicy 'costly' with"
            + " binding 'costly-binding' denied request: validation failed due to running out"
            + " of cost budget, no further validation rules will be run");
    assertThat(checks).hasSize(29);
  }

  @Test
  void aSpentBudgetIsIgnoredWithFailurePolicyIgnore() {
    List<String> validations = new ArrayList<>();
    for (int i = 0; i < 30; i++) {
      validations.add(CHECK);
    }
    PolicyOutcome outcome = policy("Ignore", "[]", validations).validate(configMap(), context());
    assertThat(outcome.warnings()).isEmpty();
  }

  @Test
  void variablesAreChargedToTheBudgetOnce() {
    String variables = "[{name: allowed, expression: \"" + CHECK + "\"}]";
    // read by 29 validations, the variable's check runs (and costs) once
    List<String> reads = new ArrayList<>();
    for (int i = 0; i < 29; i++) {
      reads.add("variables.allowed");
    }
    assertThat(policy("Fail", variables, reads).validate(configMap(), context()).warnings())
        .isEmpty();
    assertThat(checks).hasSize(1);
    // 28 checks of the validations' own and the variable's exceed the budget
    checks.clear();
    List<String> more = new ArrayList<>();
    for (int i = 0; i < 28; i++) {
      more.add(CHECK);
    }
    more.add("variables.allowed");
    assertThatThrownBy(() -> policy("Fail", variables, more).validate(configMap(), context()))
        .hasMessageEndingWith("denied request: validation failed due to running out of cost"
            + " budget, no further validation rules will be run");
    assertThat(checks).hasSize(29);
  }

  @Test
  void cheapPoliciesAreNotCounted() {
    assertThat(CostLimits.tracked(List.of(
        PolicyExpression.compile("object.metadata.name == 'cm'", List.of("object"), "bool"))))
        .isFalse();
    assertThat(CostLimits.tracked(List.of(
        PolicyExpression.compile(CHECK, PolicyActivation.declared(false, true), "bool"))))
        .isFalse();
    assertThat(CostLimits.tracked(List.of(PolicyExpression.compile(
        "object.data.all(k, object.data[k] != '')", List.of("object"), "bool"))))
        .as("unbounded: object is untyped").isTrue();
  }

  @Test
  void aMutationPastThePerCallLimitFails() {
    MapValue policy = (MapValue) Yaml.read("""
        metadata: {name: mutate}
        spec:
          mutations:
          - patchType: JSONPatch
            jsonPatch: {expression: "%s ? [] : []"}
        """.formatted(CHECK + " && " + CHECK + " && " + CHECK));
    MapValue binding = (MapValue) Yaml.read(
        "{metadata: {name: mutate-binding}, spec: {policyName: mutate}}");
    MutatingAdmissionPolicies policies =
        MutatingAdmissionPolicies.of(List.of(policy), List.of(binding));
    assertThatThrownBy(() -> policies.admit(configMap(), context()))
        .isInstanceOf(StatusException.class)
        .hasMessageEndingWith("policy 'mutate' with binding 'mutate-binding' denied request:"
            + " expression '" + CHECK + " && " + CHECK + " && " + CHECK
            + " ? [] : []' resulted in error: operation cancelled: actual cost limit exceeded");
  }
}
