/*
 * Copyright The apiserver4j authors.
 * SPDX-License-Identifier: Apache-2.0
 */
package io.apiserver4j.apimachinery.managedfields;

import static io.apiserver4j.apimachinery.managedfields.TestFieldManager.object;
import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import io.apiserver4j.core.GroupVersionKind;
import io.apiserver4j.core.MapValue;
import io.apiserver4j.core.Meta;
import io.apiserver4j.core.errors.StatusException;
import io.apiserver4j.fieldpath.ManagedFieldsEntry;
import io.apiserver4j.merge.Force;
import io.apiserver4j.merge.Schema;
import java.io.ByteArrayOutputStream;
import java.io.PrintStream;
import java.nio.charset.StandardCharsets;
import java.time.Instant;
import java.util.List;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.atomic.AtomicLong;
import org.junit.jupiter.api.Test;

/**
 * kube's fieldmanager_test.go (pkg/util/managedfields) through the facade, and kube's
 * {@code UpdateNoErrors}: a failing update returns the new object with its managedFields removed.
 */
class FieldManagerTest {
  private static final MapValue POD_WITH_LABEL = object("""
      {"apiVersion": "v1", "kind": "Pod", "metadata": {"labels": {"a": "b"}}}""");

  // --- ports of kube's tests ---------------------------------------------------------------

  @Test
  void updateStripsMetadataTheServerSets() { // TestApplyStripsFields
    TestFieldManager f = TestFieldManager.of("apps/v1", "Deployment");
    f.update(object("""
        {"apiVersion": "apps/v1", "kind": "Deployment", "metadata": {"name": "b",
         "namespace": "b", "uid": "b", "generation": 0, "resourceVersion": "b",
         "creationTimestamp": "2024-01-01T00:00:00Z",
         "managedFields": [{"manager": "update", "operation": "Apply", "apiVersion": "apps/v1"}]}}
        """), "fieldmanager_test");
    assertThat(f.managedFields()).isEmpty();
  }

  @Test
  void applyChecksKindAndVersion() { // TestVersionCheck, TestVersionCheckDoesNotPanic
    TestFieldManager f = TestFieldManager.of("apps/v1", "Deployment");
    f.apply(object("{\"apiVersion\": \"apps/v1\", \"kind\": \"Deployment\"}"),
        "fieldmanager_test", Force.NO);
    assertThatThrownBy(() -> f.apply(object(
        "{\"apiVersion\": \"apps/v1beta1\", \"kind\": \"Deployment\"}"), "fieldmanager_test",
        Force.NO))
        .isInstanceOfSatisfying(StatusException.class, e -> {
          assertThat(e.status().code()).isEqualTo(400);
          assertThat(e.status().message())
              .isEqualTo("invalid object type: apps/v1beta1, Kind=Deployment");
        });
    assertThatThrownBy(() -> f.apply(object("{}"), "fieldmanager_test", Force.NO))
        .isInstanceOfSatisfying(StatusException.class,
            e -> assertThat(e.status().code()).isEqualTo(400));
  }

  @Test
  void applyFailsWithManagedFields() { // TestApplyFailsWithManagedFields
    TestFieldManager f = TestFieldManager.of("v1", "Pod");
    assertThatThrownBy(() -> f.apply(object("""
        {"apiVersion": "v1", "kind": "Pod", "metadata": {"managedFields": [{"manager": "test"}]}}
        """), "fieldmanager_test", Force.NO))
        .isInstanceOfSatisfying(StatusException.class, e -> {
          assertThat(e.status().code()).isEqualTo(400);
          assertThat(e.status().message()).isEqualTo("metadata.managedFields must be nil");
        });
  }

  @Test
  void applySucceedsWithoutManagedFields() { // TestApplySuccessWithNoManagedFields
    TestFieldManager f = TestFieldManager.of("v1", "Pod");
    f.apply(POD_WITH_LABEL, "fieldmanager_test", Force.NO);
    assertThat(f.managedFields()).extracting(ManagedFieldsEntry::manager)
        .containsExactly("fieldmanager_test");
  }

  @Test
  void noOpWritesChangeNothing() { // TestNoOpChanges
    TestFieldManager f = TestFieldManager.of("v1", "Pod");
    MapValue pod = object("""
        {"apiVersion": "v1", "kind": "Pod",
         "metadata": {"labels": {"a": "b"}, "creationTimestamp": null}}""");
    f.apply(pod, "fieldmanager_test_apply", Force.NO);
    MapValue before = f.live();
    f.apply(pod, "fieldmanager_test_apply_other", Force.NO);
    assertThat(f.live()).as("a no-op apply by a new manager adds its entry").isNotEqualTo(before);
    before = f.live();
    f.update(pod, "fieldmanager_test_update");
    assertThat(f.live()).as("a no-op update").isEqualTo(before);
    f.apply(pod, "fieldmanager_test_apply", Force.YES);
    assertThat(f.live()).as("a no-op re-apply").isEqualTo(before);
  }

  @Test
  void anEmptyListResetsManagedFields() { // TestResetManagedFieldsEmptyList
    TestFieldManager f = TestFieldManager.of("v1", "Pod");
    f.apply(POD_WITH_LABEL, "fieldmanager_test_apply", Force.NO);
    f.update(object("""
        {"apiVersion": "v1", "kind": "Pod",
         "metadata": {"managedFields": [], "labels": {"a": "b"}}}"""), "update_manager");
    assertThat(f.managedFields()).isEmpty();
  }

  @Test
  void aListOfOneEmptyItemResetsManagedFields() { // TestResetManagedFieldsEmptyItem
    TestFieldManager f = TestFieldManager.of("v1", "Pod");
    f.apply(POD_WITH_LABEL, "fieldmanager_test_apply", Force.NO);
    f.update(object("""
        {"apiVersion": "v1", "kind": "Pod",
         "metadata": {"managedFields": [{}], "labels": {"a": "b"}}}"""), "update_manager");
    assertThat(f.managedFields()).isEmpty();
  }

  @Test
  void subresourcesCannotSetOrResetManagedFields() { // TestUpdateViaSubresources
    TestFieldManager f = TestFieldManager.of("v1", "Pod", b -> b.subresource("scale"));
    MapValue pod = object("""
        {"apiVersion": "v1", "kind": "Pod", "metadata": {"labels": {"a": "b"},
         "managedFields": [{"manager": "test", "operation": "Apply", "apiVersion": "apps/v1",
           "fieldsType": "FieldsV1",
           "fieldsV1": {"f:metadata": {"f:labels": {"f:another_field": {}}}}}]}}""");
    f.update(pod, "fieldmanager_test_subresource");
    assertThat(f.managedFields()).extracting(ManagedFieldsEntry::manager)
        .containsExactly("fieldmanager_test_subresource");
    assertThat(f.managedFields().get(0).subresource()).isEqualTo("scale");

    f.update(Meta.withMeta(pod, "managedFields", io.apiserver4j.core.ListValue.empty()),
        "fieldmanager_test_subresource");
    assertThat(f.managedFields()).hasSize(1);
  }

  @Test
  void aNoOpApplyKeepsTheLiveManagedFields() { // TestLiveObjectManagedFieldsNotRemoved
    TestFieldManager f = TestFieldManager.of("apps/v1", "Deployment");
    f.apply(object("""
        {"apiVersion": "apps/v1", "kind": "Deployment",
         "metadata": {"name": "deployment", "labels": {"app": "nginx"}},
         "spec": {"selector": {"matchLabels": {"app": "nginx"}},
           "template": {"metadata": {"labels": {"app": "nginx"}},
             "spec": {"containers": [{"name": "nginx", "image": "nginx:latest"}]}}}}"""),
        "fieldmanager_z", Force.NO);
    assertThat(f.managedFields()).isNotEmpty();
    f.apply(object("""
        {"apiVersion": "apps/v1", "kind": "Deployment", "metadata": {"name": "deployment"},
         "spec": {"replicas": 101}}"""), "fieldmanager_z", Force.NO);
    assertThat(f.managedFields()).isNotEmpty();
  }

  // --- UpdateNoErrors ----------------------------------------------------------------------

  private static final Manager FAILING_UPDATES = new Manager() {
    @Override
    public ManagerResult update(MapValue live, MapValue newObject, Managed managed,
        String manager, Instant now) {
      throw new IllegalStateException("update failed on purpose");
    }

    @Override
    public ManagerResult apply(MapValue live, MapValue applied, Managed managed,
        String manager, Force force, Instant now) {
      throw new UnsupportedOperationException();
    }
  };

  @Test
  void aFailingUpdateReturnsTheNewObjectWithoutManagedFields() {
    TestFieldManager tracked = TestFieldManager.of("v1", "Pod");
    tracked.apply(POD_WITH_LABEL, "applier", Force.NO);
    MapValue live = tracked.live();
    assertThat(Meta.hasMeta(live, "managedFields")).isTrue();

    FieldManager failing = FieldManager.builder(GroupVersionKind.of("v1", "Pod"),
        io.apiserver4j.merge.ParseableType.deduced()).decorator(m -> FAILING_UPDATES).build();
    MapValue newObject = Meta.withMeta(live, "labels", object("{\"a\": \"c\"}"));
    assertThatThrownBy(() -> failing.update(live, newObject, "updater", Instant.EPOCH))
        .hasMessage("update failed on purpose");

    MapValue out = quietly(() -> failing.updateNoErrors(live, newObject, "updater",
        Instant.EPOCH));
    // kube's UpdateNoErrors: RemoveObjectManagedFields(newObj), neither the request's nor the
    // live object's kept
    assertThat(out).isEqualTo(Meta.withoutMeta(newObject, "managedFields"));
  }

  private static final String TYPED = """
      types:
      - name: object
        map:
          fields:
          - name: apiVersion
            type: {scalar: string}
          - name: kind
            type: {scalar: string}
          - name: metadata
            type: {namedType: __untyped_deduced_}
          - name: spec
            type:
              map:
                fields:
                - name: replicas
                  type: {scalar: numeric}
      - name: __untyped_atomic_
        scalar: untyped
        list:
          elementType: {namedType: __untyped_atomic_}
          elementRelationship: atomic
        map:
          elementType: {namedType: __untyped_atomic_}
          elementRelationship: atomic
      - name: __untyped_deduced_
        scalar: untyped
        list:
          elementType: {namedType: __untyped_atomic_}
          elementRelationship: atomic
        map:
          elementType: {namedType: __untyped_deduced_}
          elementRelationship: separable
      """;

  @Test
  void anUpdateThatDoesNotFitTheTypeDropsManagedFields() {
    TestFieldManager f = TestFieldManager.of("apps/v1", "Deployment");
    FieldManager typed = FieldManager.builder(GroupVersionKind.of("apps/v1", "Deployment"),
        Schema.fromSmdYaml(TYPED).type("object")).build();
    f.apply(object("""
        {"apiVersion": "apps/v1", "kind": "Deployment", "spec": {"replicas": 1}}"""),
        "applier", Force.NO);
    MapValue live = f.live();
    MapValue newObject = object("""
        {"apiVersion": "apps/v1", "kind": "Deployment", "spec": {"replicas": "two"}}""");
    newObject = Meta.withMeta(newObject, "managedFields", Meta.metaValue(live, "managedFields"));
    assertThatThrownBy(() -> typed.update(live, object("""
        {"apiVersion": "apps/v1", "kind": "Deployment", "spec": {"replicas": "two"}}"""),
        "updater", Instant.EPOCH)).hasMessageStartingWith(
            "failed to convert new object (/; apps/v1, Kind=Deployment) to smd typed: ");
    MapValue request = newObject;
    MapValue out = quietly(() -> typed.updateNoErrors(live, request, "updater", Instant.EPOCH));
    assertThat(Meta.hasMeta(out, "managedFields")).isFalse();
    assertThat(out).isEqualTo(Meta.withoutMeta(newObject, "managedFields"));
  }

  @Test
  void failuresAreLoggedWithTheirStackAtMostOnceASecond() {
    AtomicLong ticker = new AtomicLong();
    FieldManager failing = FieldManager.builder(GroupVersionKind.of("v1", "Pod"),
        io.apiserver4j.merge.ParseableType.deduced()).decorator(m -> FAILING_UPDATES)
        .ticker(ticker::get).build();
    MapValue pod = object("""
        {"apiVersion": "v1", "kind": "Pod", "metadata": {"name": "p", "namespace": "ns"}}""");

    String first = capturedErr(() -> {
      failing.updateNoErrors(pod, pod, "updater", Instant.EPOCH);
      failing.updateNoErrors(pod, pod, "updater", Instant.EPOCH);
    });
    assertThat(first.split("\\[SHOULD NOT HAPPEN\\]", -1)).hasSize(2);
    assertThat(first).contains("ERROR")
        .contains("failed to update managedFields of /v1, Kind=Pod ns/p")
        .contains("java.lang.IllegalStateException: update failed on purpose")
        .contains("\tat io.apiserver4j.apimachinery.managedfields.");

    ticker.addAndGet(TimeUnit.SECONDS.toNanos(1));
    String second = capturedErr(() -> failing.updateNoErrors(pod, pod, "updater",
        Instant.EPOCH));
    assertThat(second).contains("[SHOULD NOT HAPPEN]");
  }

  private static MapValue quietly(java.util.function.Supplier<MapValue> call) {
    MapValue[] out = new MapValue[1];
    capturedErr(() -> out[0] = call.get());
    return out[0];
  }

  // slf4j-simple writes to whatever System.err is at the time
  private static synchronized String capturedErr(Runnable r) {
    PrintStream saved = System.err;
    ByteArrayOutputStream buf = new ByteArrayOutputStream();
    System.setErr(new PrintStream(buf, true, StandardCharsets.UTF_8));
    try {
      r.run();
    } finally {
      System.setErr(saved);
    }
    return buf.toString(StandardCharsets.UTF_8);
  }

  @Test
  void managedFieldsAreValidatedAsKubeDecodesThem() { // ValidateManagedFields
    assertThat(FieldManager.validateManagedFields(object("{\"a\": []}").getOrNull("a")))
        .isEmpty();
    assertThat(FieldManager.validateManagedFields(io.apiserver4j.core.Json.read(
        "[{\"manager\": \"m\", \"operation\": \"Patch\", \"apiVersion\": \"v1\"}]")))
        .contains("operation must be `Apply` or `Update`");
  }

  @Test
  void theBuilderNamesABadCap() {
    assertThatThrownBy(() -> FieldManager.builder(GroupVersionKind.of("v1", "Pod"),
        io.apiserver4j.merge.ParseableType.deduced()).maxUpdateManagers(-1))
        .isInstanceOf(IllegalArgumentException.class).hasMessageContaining("maxUpdateManagers");
  }

  @Test
  void conflictsAreKubesApplyConflictError() { // TestUpdateApplyConflict, in short
    TestFieldManager f = TestFieldManager.of("apps/v1", "Deployment");
    f.update(object("""
        {"apiVersion": "apps/v1", "kind": "Deployment", "spec": {"replicas": 1}}"""),
        "fieldmanager_test");
    assertThatThrownBy(() -> f.apply(object("""
        {"apiVersion": "apps/v1", "kind": "Deployment", "spec": {"replicas": 2}}"""),
        "fieldmanager_conflict", Force.NO))
        .isInstanceOfSatisfying(io.apiserver4j.core.errors.ConflictException.class, e -> {
          assertThat(e.status().code()).isEqualTo(409);
          assertThat(e.status().message()).isEqualTo("Apply failed with 1 conflict: conflict"
              + " with \"fieldmanager_test\" using apps/v1: .spec.replicas");
        });
    List<ManagedFieldsEntry> entries = f.managedFields();
    assertThat(entries).extracting(ManagedFieldsEntry::manager)
        .containsExactly("fieldmanager_test");
  }
}
