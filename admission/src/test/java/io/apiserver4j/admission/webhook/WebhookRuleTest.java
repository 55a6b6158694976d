/*
 * Copyright The apiserver4j authors.
 * SPDX-License-Identifier: Apache-2.0
 */
package io.apiserver4j.admission.webhook;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import io.apiserver4j.admission.AdmissionAttributes;
import io.apiserver4j.admission.Operation;
import io.apiserver4j.admission.matching.Rule;
import io.apiserver4j.core.GroupVersionKind;
import io.apiserver4j.core.GroupVersionResource;
import io.apiserver4j.core.MapValue;
import java.util.List;
import java.util.Set;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.CsvSource;
import org.junit.jupiter.api.Test;

class WebhookRuleTest {

  @ParameterizedTest(name = "{0} {1} {2}/{3} ns={4} vs {5} [{6}] -> {7}")
  @CsvSource(delimiter = '|', nullValues = "null", textBlock = """
      CREATE | apps | v1 | deployments |      | apps  | deployments        | *          | true
      CREATE | apps | v1 | deployments |      | apps  | deployments/*      | *          | true
      CREATE | apps | v1 | deployments |      | apps  | *                  | *          | true
      CREATE | apps | v1 | deployments |      | ''    | deployments        | *          | false
      CREATE | apps | v1 | deployments |      | *     | deployments        | *          | true
      CREATE | apps | v1 | deployments |      | apps  | */status           | *          | false
      UPDATE | apps | v1 | deployments | status | apps | */status          | *          | true
      UPDATE | apps | v1 | deployments | status | apps | deployments       | *          | false
      UPDATE | apps | v1 | deployments | status | apps | *                 | *          | false
      UPDATE | apps | v1 | deployments | status | apps | */*               | *          | true
      UPDATE | apps | v1 | deployments | scale  | apps | deployments/scale | *          | true
      CREATE | apps | v1 | deployments |      | apps  | deployments        | Namespaced | true
      CREATE | apps | v1 | deployments |      | apps  | deployments        | Cluster    | false
      CREATE | ''   | v1 | nodes       |      | ''    | nodes              | Cluster    | true
      CREATE | ''   | v1 | nodes       |      | ''    | nodes              | Namespaced | false
      CREATE | ''   | v1 | namespaces  |      | ''    | namespaces         | Cluster    | true
      CREATE | ''   | v1 | namespaces  |      | ''    | namespaces         | Namespaced | false
      """)
  void matching(String op, String group, String version, String resource, String sub,
      String ruleGroup, String ruleResource, String scope, boolean expected) {
    boolean clusterScoped = resource.equals("nodes");
    String namespace = clusterScoped ? "" : resource.equals("namespaces") ? "n1" : "default";
    Operation operation = Operation.valueOf(op);
    AdmissionAttributes.Builder b = AdmissionAttributes.builder()
        .operation(operation)
        .resource(new GroupVersionResource(group, version, resource))
        .subresource(sub == null ? "" : sub)
        .kind(new GroupVersionKind(group, version, "Whatever"))
        .namespace(namespace)
        .name("n1")
        .object(MapValue.empty());
    if (operation == Operation.UPDATE) {
      b.oldObject(MapValue.empty());
    }
    Rule.Scope s = scope.equals("*") ? Rule.Scope.ALL
        : Rule.Scope.valueOf(scope.toUpperCase());
    WebhookRule rule = new WebhookRule(Set.of(Operation.CREATE, Operation.UPDATE),
        List.of(ruleGroup), List.of("v1"), List.of(ruleResource), s);
    assertThat(rule.matches(b.build())).isEqualTo(expected);
  }

  @Test
  void operationsAndVersionsMustMatch() {
    AdmissionAttributes create = AdmissionAttributes.builder().operation(Operation.CREATE)
        .resource(new GroupVersionResource("", "v1", "pods"))
        .kind(new GroupVersionKind("", "v1", "Pod")).namespace("ns").object(MapValue.empty())
        .build();
    assertThat(WebhookRule.of(Set.of(Operation.DELETE), List.of(""), List.of("v1"),
        List.of("pods")).matches(create)).isFalse();
    assertThat(WebhookRule.of(Set.of(Operation.CREATE), List.of(""), List.of("v2"),
        List.of("pods")).matches(create)).isFalse();
    assertThat(WebhookRule.of(WebhookRule.allOperations(), List.of(""), List.of("*"),
        List.of("pods")).matches(create)).isTrue();
  }

  @Test
  void malformedRulesAreRejected() {
    assertThatThrownBy(() -> WebhookRule.of(Set.of(), List.of(""), List.of("v1"),
        List.of("pods"))).hasMessageContaining("operations must not be empty");
    assertThatThrownBy(() -> WebhookRule.of(Set.of(Operation.CREATE), List.of(), List.of("v1"),
        List.of("pods"))).hasMessageContaining("apiGroups must not be empty");
    assertThatThrownBy(() -> WebhookRule.of(Set.of(Operation.CREATE), List.of(""), List.of(""),
        List.of("pods"))).hasMessageContaining("apiVersions holds an empty entry");
    assertThatThrownBy(() -> WebhookRule.of(Set.of(Operation.CREATE), List.of(""), List.of("v1"),
        List.of("pods/"))).hasMessageContaining("malformed resource \"pods/\"");
  }
}
