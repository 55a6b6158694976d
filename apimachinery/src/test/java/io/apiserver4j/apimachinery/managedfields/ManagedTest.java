/*
 * Copyright The apiserver4j authors.
 * SPDX-License-Identifier: Apache-2.0
 */
package io.apiserver4j.apimachinery.managedfields;

import static io.apiserver4j.apimachinery.managedfields.TestFieldManager.object;
import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import io.apiserver4j.core.Json;
import io.apiserver4j.core.ListValue;
import io.apiserver4j.core.MapValue;
import io.apiserver4j.core.Meta;
import io.apiserver4j.core.Value;
import io.apiserver4j.fieldpath.ManagedFieldsOperation;
import io.apiserver4j.merge.Force;
import org.junit.jupiter.api.Test;

/** Identities, encoding and the decode cache (kube's managedfields_test.go, in part). */
class ManagedTest {

  @Test
  void identitiesAreKubesManagerIdentifiers() { // BuildManagerIdentifier
    assertThat(ManagerIdentity.update("kubectl", "apps/v1", "").encode())
        .isEqualTo("{\"manager\":\"kubectl\",\"operation\":\"Update\",\"apiVersion\":\"apps/v1\"}");
    assertThat(ManagerIdentity.apply("kubectl", "scale").encode())
        .isEqualTo("{\"manager\":\"kubectl\",\"operation\":\"Apply\",\"subresource\":\"scale\"}");
    assertThat(ManagerIdentity.update("", "v1", "").encode())
        .isEqualTo("{\"operation\":\"Update\",\"apiVersion\":\"v1\"}");
    assertThatThrownBy(() -> new ManagerIdentity("m", ManagedFieldsOperation.APPLY, "v1", ""))
        .isInstanceOf(IllegalArgumentException.class);
    assertThatThrownBy(() -> new ManagerIdentity("m", ManagedFieldsOperation.UPDATE, "", ""))
        .isInstanceOf(IllegalArgumentException.class);
  }

  @Test
  void decodingThenEncodingKeepsEntriesInKubesOrder() { // TestRoundTripManagedFields, in part
    Value wire = Json.read("""
        [{"manager": "foo", "operation": "Apply", "apiVersion": "v1",
          "time": "2001-02-03T04:05:06Z",
          "fieldsType": "FieldsV1", "fieldsV1": {"f:spec": {"f:a": {}}}},
         {"manager": "bar", "operation": "Update", "apiVersion": "v1",
          "fieldsType": "FieldsV1", "fieldsV1": {"f:spec": {"f:b": {}}}},
         {"manager": "bar", "operation": "Update", "apiVersion": "v2",
          "time": "2001-02-03T04:05:06Z",
          "fieldsType": "FieldsV1", "fieldsV1": {"f:spec": {"f:c": {}}}, "subresource": "status"}]
        """);
    Managed managed = Managed.decode(wire);
    assertThat(managed.fields().size()).isEqualTo(3);
    MapValue out = managed.encodeInto(MapValue.empty()).object();
    assertThat(Meta.metaValue(out, "managedFields")).isEqualTo(wire);
  }

  @Test
  void noManagersEncodeAsNoManagedFields() {
    MapValue obj = object("{\"metadata\": {\"name\": \"x\", \"managedFields\": []}}");
    assertThat(Managed.empty().encodeInto(obj).object())
        .isEqualTo(object("{\"metadata\": {\"name\": \"x\"}}"));
  }

  @Test
  void theCacheRemembersWhatAFieldManagerEncoded() {
    ManagedFieldsCache cache = ManagedFieldsCache.ofSize(16);
    TestFieldManager f = TestFieldManager.of("v1", "ConfigMap", b -> b.cache(cache));
    f.apply(object("{\"apiVersion\": \"v1\", \"kind\": \"ConfigMap\", \"data\": {\"a\": \"b\"}}"),
        "applier", Force.NO);
    ListValue written = (ListValue) Meta.metaValue(f.live(), "managedFields");
    Managed remembered = cache.decode(written);
    assertThat(cache.decode(written)).isSameAs(remembered);
    assertThat(remembered.fields()).isEqualTo(Managed.decode(written).fields());
    assertThat(remembered.entries()).isEqualTo(Managed.decode(written).entries());
  }

  @Test
  void theCacheSizeMustBeAPowerOfTwo() {
    assertThatThrownBy(() -> ManagedFieldsCache.ofSize(100))
        .isInstanceOf(IllegalArgumentException.class).hasMessageContaining("100");
  }
}
