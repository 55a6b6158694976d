/*
 * Copyright The apiserver4j authors.
 * SPDX-License-Identifier: Apache-2.0
 */
package io.apiserver4j.apimachinery.managedfields;

import static io.apiserver4j.apimachinery.managedfields.TestFieldManager.object;
import static org.assertj.core.api.Assertions.assertThat;

import io.apiserver4j.core.MapValue;
import io.apiserver4j.fieldpath.ManagedFieldsEntry;
import io.apiserver4j.merge.Force;
import org.junit.jupiter.api.Test;

/** kube's skipnonapplied_test.go, with kube's default of tracking from creation. */
class SkipNonAppliedManagerTest {
  private static final MapValue EXISTING = object("""
      {"apiVersion": "v1", "kind": "Pod", "metadata": {"name": "p", "uid": "u",
       "labels": {"a": "b"}}}""");

  @Test
  void anExistingObjectWithoutManagedFieldsStaysUntrackedOnUpdate() {
    TestFieldManager f = TestFieldManager.of("v1", "Pod");
    f.setLive(EXISTING);
    f.update(EXISTING, "updater");
    assertThat(f.managedFields()).isEmpty();
  }

  @Test
  void aCreateIsTracked() {
    TestFieldManager f = TestFieldManager.of("v1", "Pod");
    f.update(object("""
        {"apiVersion": "v1", "kind": "Pod", "metadata": {"labels": {"a": "b"}}}"""), "creator");
    assertThat(f.managedFields()).extracting(ManagedFieldsEntry::manager)
        .containsExactly("creator");
  }

  @Test
  void theFirstApplyRecordsWhatWasThereAsBeforeFirstApply() { // TestApplyingNonAppliedObject
    TestFieldManager f = TestFieldManager.of("v1", "Pod");
    f.setLive(EXISTING);
    f.apply(object("""
        {"apiVersion": "v1", "kind": "Pod", "metadata": {"name": "p", "labels": {"c": "d"}}}"""),
        "applier", Force.NO);
    assertThat(f.managedFields()).extracting(ManagedFieldsEntry::manager)
        .containsExactlyInAnyOrder("applier", "before-first-apply");
  }
}
