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
import java.util.List;
import java.util.Map;
import java.util.concurrent.CopyOnWriteArrayList;
import org.junit.jupiter.api.Test;

/** kube's authorizer library in policy expressions (k8s.io/apiserver/pkg/cel/library/authz). */
class PolicyAuthorizerTest {
  private final List<CelAuthorizer.Check> checks = new CopyOnWriteArrayList<>();

  private TestContext context(boolean allow) {
    return new TestContext(List.of(), Map.of()) {
      @Override
      public CelAuthorizer authorizer(AdmissionAttributes attributes) {
        return check -> {
          checks.add(check);
          return new CelAuthorizer.Decision(allow, allow ? "" : "no RBAC rule", "");
        };
      }
    };
  }

  private static ValidatingAdmissionPolicies policy(String validations) {
    MapValue policy = (MapValue) Yaml.read("""
        metadata: {name: authz}
        spec:
          validations: %s
        """.formatted(validations));
    MapValue binding = (MapValue) Yaml.read("""
        metadata: {name: authz-binding}
        spec: {policyName: authz, validationActions: [Deny]}
        """);
    return ValidatingAdmissionPolicies.of(List.of(policy), List.of(binding));
  }

  private static AdmissionAttributes configMap() {
    return ValidatingAdmissionPoliciesTest.create((MapValue) Yaml.read(
        "{apiVersion: v1, kind: ConfigMap, metadata: {name: cm, namespace: default}}"));
  }

  @Test
  void resourceCheckAsksTheAuthorizerWithEveryNarrowing() {
    policy("[{expression: \"authorizer.group('apps').resource('deployments')"
        + ".subresource('scale').namespace('prod').name('web').check('update').allowed()\"}]")
        .validate(configMap(), context(true));
    assertThat(checks).containsExactly(new CelAuthorizer.Check(
        "", "", "apps", "deployments", "scale", "prod", "web", "update"));
  }

  @Test
  void requestResourceIsTheRequestsResource() {
    policy("[{expression: \"authorizer.requestResource.check('custom-verb').allowed()\"}]")
        .validate(configMap(), context(true));
    assertThat(checks).containsExactly(new CelAuthorizer.Check(
        "", "", "", "configmaps", "", "default", "cm", "custom-verb"));
  }

  @Test
  void pathAndServiceAccountChecks() {
    policy("[{expression: \"authorizer.path('/healthz').check('get').allowed()\"},"
        + " {expression: \"authorizer.serviceAccount('kube-system', 'ctrl').group('')"
        + ".resource('pods').check('list').allowed()\"}]")
        .validate(configMap(), context(true));
    assertThat(checks).containsExactly(
        new CelAuthorizer.Check("", "/healthz", "", "", "", "", "", "get"),
        new CelAuthorizer.Check("kube-system:ctrl", "", "", "pods", "", "", "", "list"));
  }

  @Test
  void deniedCheckDeniesWithTheDecisionsReasonInTheMessage() {
    assertThatThrownBy(() -> policy("[{expression: \"authorizer.group('').resource('secrets')"
        + ".check('get').allowed()\", messageExpression: \"'no: ' + authorizer.group('')"
        + ".resource('secrets').check('get').reason()\"}]")
        .validate(configMap(), context(false)))
        .isInstanceOf(StatusException.class)
        // messageExpression may not use authorizer in kube: it does not compile there, so the
        // message falls back to the failed expression.
        .hasMessage("configmaps \"cm\" is forbidden: ValidatingAdmissionPolicy 'authz' with"
            + " binding 'authz-binding' denied request: failed expression: authorizer.group('')"
            + ".resource('secrets').check('get').allowed()");
  }

  @Test
  void withoutAnAuthorizerEverythingIsAllowed() {
    PolicyOutcome outcome = policy("[{expression: \"authorizer.group('').resource('secrets')"
        + ".check('get').allowed() && !authorizer.group('').resource('secrets')"
        + ".check('get').errored()\"}]")
        .validate(configMap(), new TestContext(List.of(), Map.of()));
    assertThat(outcome.warnings()).isEmpty();
    assertThat(checks).isEmpty();
  }
}
