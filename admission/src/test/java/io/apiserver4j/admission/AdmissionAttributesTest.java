/*
 * Copyright The apiserver4j authors.
 * SPDX-License-Identifier: Apache-2.0
 */
package io.apiserver4j.admission;

import static io.apiserver4j.admission.TestObjects.configMap;
import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import io.apiserver4j.core.ListValue;
import io.apiserver4j.core.MapValue;
import io.apiserver4j.core.Value;
import org.junit.jupiter.api.Test;

class AdmissionAttributesTest {

  @Test
  void defaultsAndAccessors() {
    AdmissionAttributes a = TestObjects.create("ns", "x").build();
    assertThat(a.operation()).isEqualTo(Operation.CREATE);
    assertThat(a.subresource()).isEmpty();
    assertThat(a.userInfo()).isEqualTo(UserInfo.empty());
    assertThat(a.object()).contains(configMap("ns", "x"));
    assertThat(a.oldObject()).isEmpty();
    assertThat(a.isDryRun()).isFalse();
    assertThat(a.options().getOrNull("kind")).isEqualTo(Value.of("CreateOptions"));
  }

  @Test
  void requiredFieldsAreNamed() {
    assertThatThrownBy(() -> AdmissionAttributes.builder().build())
        .isInstanceOf(IllegalStateException.class).hasMessageContaining("operation");
    assertThatThrownBy(() -> AdmissionAttributes.builder().operation(Operation.DELETE).build())
        .hasMessageContaining("resource");
    assertThatThrownBy(() -> AdmissionAttributes.builder().operation(Operation.DELETE)
        .resource(TestObjects.CONFIGMAPS).build())
        .hasMessageContaining("kind");
  }

  @Test
  void createAndUpdateNeedAnObjectDeleteHasNone() {
    assertThatThrownBy(() -> TestObjects.create("ns", "x").noObject().build())
        .isInstanceOf(IllegalStateException.class).hasMessageContaining("CREATE requires");
    assertThatThrownBy(() -> TestObjects.delete("ns", "x").object(configMap("ns", "x")).build())
        .isInstanceOf(IllegalStateException.class).hasMessageContaining("DELETE carries no object");
  }

  @Test
  void dryRunMustAgreeWithOptions() {
    assertThatThrownBy(() -> TestObjects.create("ns", "x").dryRun(true).build())
        .isInstanceOf(IllegalStateException.class).hasMessageContaining("contradicts");
    assertThatThrownBy(() -> TestObjects.create("ns", "x")
        .options(OperationOptions.of(Operation.CREATE, true, "m")).build())
        .hasMessageContaining("contradicts");
    // Options without a dryRun field say nothing either way.
    assertThat(TestObjects.create("ns", "x").options(MapValue.empty()).dryRun(true).build()
        .isDryRun()).isTrue();
  }

  @Test
  void withObjectCopiesEverythingElse() {
    AdmissionAttributes a = TestObjects.dryRunCreate("ns", "x")
        .userInfo(UserInfo.of("alice", "devs")).build();
    MapValue changed = configMap("ns", "x").with("data", MapValue.ofEntries("k", Value.of("v")));
    AdmissionAttributes b = a.withObject(changed);
    assertThat(b.object()).contains(changed);
    assertThat(b.isDryRun()).isTrue();
    assertThat(b.userInfo().groups()).containsExactly("devs");
    assertThat(b.options()).isEqualTo(a.options());
    assertThat(a.withObject(a.object().orElseThrow())).isSameAs(a);
  }

  @Test
  void operationOptionsFollowKubeShapes() {
    assertThat(OperationOptions.of(Operation.UPDATE, true, "kubectl")).isEqualTo(
        MapValue.ofEntries("kind", Value.of("UpdateOptions"), "apiVersion",
            Value.of("meta.k8s.io/v1"), "dryRun", ListValue.of(java.util.List.of(Value.of("All"))),
            "fieldManager", Value.of("kubectl")));
    assertThat(OperationOptions.of(Operation.DELETE, false, "ignored")).isEqualTo(
        MapValue.ofEntries("kind", Value.of("DeleteOptions"), "apiVersion",
            Value.of("meta.k8s.io/v1")));
    assertThat(OperationOptions.of(Operation.CONNECT, true, "x")).isEqualTo(MapValue.empty());
  }

  @Test
  void operationWireNames() {
    for (Operation op : Operation.values()) {
      assertThat(Operation.fromWireName(op.wireName())).isEqualTo(op);
    }
    assertThatThrownBy(() -> Operation.fromWireName("PATCH"))
        .isInstanceOf(IllegalArgumentException.class).hasMessageContaining("\"PATCH\"");
  }
}
