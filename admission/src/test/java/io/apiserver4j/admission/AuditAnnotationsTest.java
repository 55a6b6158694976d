/*
 * Copyright The apiserver4j authors.
 * SPDX-License-Identifier: Apache-2.0
 */
package io.apiserver4j.admission;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import io.apiserver4j.core.GroupVersionKind;
import io.apiserver4j.core.GroupVersionResource;
import io.apiserver4j.core.MapValue;
import java.util.LinkedHashMap;
import java.util.Map;
import org.junit.jupiter.api.Test;

/** Audit annotation keys as kube's admission attributes check them ({@code checkKeyFormat}). */
class AuditAnnotationsTest {
  @Test
  void keysArePrefixedQualifiedNames() {
    AuditAnnotations.checkKey("podsecurity.kubernetes.io/enforce-policy");
    assertThatThrownBy(() -> AuditAnnotations.checkKey("no-prefix"))
        .isInstanceOf(IllegalArgumentException.class)
        .hasMessage("annotation key has invalid format, the right format is a DNS subdomain"
            + " prefix and '/' and key name. (e.g."
            + " 'podsecuritypolicy.admission.k8s.io/admit-policy')");
    assertThatThrownBy(() -> AuditAnnotations.checkKey("a/b/c"))
        .hasMessageStartingWith("annotation key has invalid format, the right format");
    assertThatThrownBy(() -> AuditAnnotations.checkKey("example.com/bad key"))
        .hasMessageStartingWith("annotation key has invalid format name part must consist of")
        .hasMessageEndingWith(". A qualified name like"
            + " 'podsecuritypolicy.admission.k8s.io/admit-policy' is required.");
  }

  @Test
  void attributesCarryTheRequestsCollectorAndDiscardByDefault() {
    Map<String, String> seen = new LinkedHashMap<>();
    AdmissionAttributes a = AdmissionAttributes.builder()
        .operation(Operation.CREATE)
        .resource(new GroupVersionResource("", "v1", "configmaps"))
        .kind(new GroupVersionKind("", "v1", "ConfigMap"))
        .object(MapValue.empty())
        .auditAnnotations(seen::put)
        .build();
    a.auditAnnotations().add("example.com/k", "v");
    a.withObject(MapValue.builder().put("kind", io.apiserver4j.core.Value.of("ConfigMap"))
        .build()).auditAnnotations().add("example.com/other", "w");
    assertThat(seen).containsExactly(Map.entry("example.com/k", "v"),
        Map.entry("example.com/other", "w"));
    assertThat(a.newBuilder().build().auditAnnotations()).isSameAs(a.auditAnnotations());
    assertThat(AdmissionAttributes.builder().operation(Operation.DELETE)
        .resource(new GroupVersionResource("", "v1", "configmaps"))
        .kind(new GroupVersionKind("", "v1", "ConfigMap")).build().auditAnnotations())
        .isSameAs(AuditAnnotations.DISCARD);
  }
}
