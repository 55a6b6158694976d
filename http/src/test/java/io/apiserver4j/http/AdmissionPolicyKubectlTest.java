/*
 * Copyright The apiserver4j authors.
 * SPDX-License-Identifier: Apache-2.0
 */
package io.apiserver4j.http;

import static org.assertj.core.api.Assertions.assertThat;

import io.apiserver4j.core.MapValue;
import io.apiserver4j.core.Value;
import java.nio.file.Path;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;

/**
 * Admission policies applied with kubectl: a ValidatingAdmissionPolicy denies kubectl's create and
 * server-side dry run with the text kube-apiserver gives (kubectl prints an Invalid status as
 * {@code The <resource> "<name>" is invalid: : <cause>}, as in the ValidatingAdmissionPolicy
 * documentation's example); a MutatingAdmissionPolicy changes what kubectl creates.
 */
class AdmissionPolicyKubectlTest extends KubectlServerTest {
  @BeforeAll
  static void start() {
    api.resources("v1", "namespaces").create(MapValue.ofEntries("apiVersion", Value.of("v1"),
        "kind", Value.of("Namespace"), "metadata",
        MapValue.ofEntries("name", Value.of("vap"),
            "labels", MapValue.ofEntries("policies", Value.of("demo")))));
  }

  private static final String POLICY = """
      apiVersion: admissionregistration.k8s.io/v1
      kind: ValidatingAdmissionPolicy
      metadata:
        name: demo-policy.example.com
      spec:
        failurePolicy: Fail
        matchConstraints:
          resourceRules:
          - apiGroups: [""]
            apiVersions: ["v1"]
            operations: ["CREATE", "UPDATE"]
            resources: ["configmaps"]
        validations:
        - expression: "has(object.data) && size(object.data) <= 2"
        - expression: "!has(object.data) || !('password' in object.data)"
          message: "no passwords in configmaps"
          reason: Forbidden
      ---
      apiVersion: admissionregistration.k8s.io/v1
      kind: ValidatingAdmissionPolicyBinding
      metadata:
        name: demo-binding-test.example.com
      spec:
        policyName: demo-policy.example.com
        validationActions: [Deny]
        matchResources:
          namespaceSelector:
            matchLabels:
              policies: demo
      """;

  private static String configMap(String name, String data) {
    return "apiVersion: v1\nkind: ConfigMap\nmetadata:\n  name: " + name
        + "\n  namespace: vap\ndata:\n" + data;
  }

  @Test
  void appliedPolicyDeniesCreateAndServerDryRunWithKubesMessage() {
    kubectl.ok("apply", "-f", kubectl.file("policy.yaml", POLICY).toString());

    Path tooBig = kubectl.file("big.yaml", configMap("big", "  a: '1'\n  b: '2'\n  c: '3'\n"));
    String expected = "The configmaps \"big\" is invalid: : ValidatingAdmissionPolicy"
        + " 'demo-policy.example.com' with binding 'demo-binding-test.example.com' denied"
        + " request: failed expression: has(object.data) && size(object.data) <= 2";
    Kubectl.Result created = kubectl.run("create", "-f", tooBig.toString());
    assertThat(created.exitCode()).as(created.toString()).isNotZero();
    assertThat(created.stderr().strip()).isEqualTo(expected);

    Kubectl.Result dryRun = kubectl.run("create", "--dry-run=server", "-f", tooBig.toString());
    assertThat(dryRun.exitCode()).as(dryRun.toString()).isNotZero();
    assertThat(dryRun.stderr().strip()).isEqualTo(expected);

    Path secretish = kubectl.file("pw.yaml", configMap("pw", "  password: hunter2\n"));
    Kubectl.Result forbidden = kubectl.run("create", "-f", secretish.toString());
    assertThat(forbidden.stderr().strip()).isEqualTo("Error from server (Forbidden): error when"
        + " creating \"" + secretish + "\": configmaps \"pw\" is forbidden:"
        + " ValidatingAdmissionPolicy 'demo-policy.example.com' with binding"
        + " 'demo-binding-test.example.com' denied request: no passwords in configmaps");

    Path fine = kubectl.file("fine.yaml", configMap("fine", "  a: '1'\n"));
    assertThat(kubectl.ok("create", "-f", fine.toString())).contains("configmap/fine created");
    assertThat(api.resources("v1", "configmaps").namespace("vap").find("big")).isEmpty();
  }

  private static final String MUTATING = """
      apiVersion: admissionregistration.k8s.io/v1
      kind: MutatingAdmissionPolicy
      metadata:
        name: team-label.example.com
      spec:
        matchConstraints:
          resourceRules:
          - apiGroups: [""]
            apiVersions: ["v1"]
            operations: ["CREATE"]
            resources: ["configmaps"]
        matchConditions:
        - name: unlabelled
          expression: "!has(object.metadata.labels) || !('team' in object.metadata.labels)"
        mutations:
        - patchType: ApplyConfiguration
          applyConfiguration:
            expression: "Object{metadata: Object.metadata{labels: {'team': 'blue'}}}"
        - patchType: JSONPatch
          jsonPatch:
            expression: >
              [JSONPatch{op: 'add', path: '/metadata/annotations',
                value: {'example.com/by': object.metadata.labels.team}}]
      ---
      apiVersion: admissionregistration.k8s.io/v1
      kind: MutatingAdmissionPolicyBinding
      metadata:
        name: team-label-binding.example.com
      spec:
        policyName: team-label.example.com
        matchResources:
          namespaceSelector:
            matchLabels:
              policies: demo
      """;

  @Test
  void appliedMutatingPolicyChangesCreatedObjects() {
    kubectl.ok("apply", "-f", kubectl.file("mutating.yaml", MUTATING).toString());
    Path cm = kubectl.file("labelled.yaml", configMap("labelled", "  a: '1'\n"));
    kubectl.ok("create", "-f", cm.toString());
    MapValue stored = api.resources("v1", "configmaps").namespace("vap").get("labelled");
    assertThat(io.apiserver4j.core.Meta.labels(stored)).containsEntry("team", "blue");
    assertThat(io.apiserver4j.core.Meta.annotations(stored))
        .containsEntry("example.com/by", "blue");
    assertThat(kubectl.ok("get", "-n", "vap", "configmap", "labelled", "-o",
        "jsonpath={.metadata.labels.team}")).isEqualTo("blue");
  }
}
