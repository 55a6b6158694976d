/*
 * Copyright The apiserver4j authors.
 * SPDX-License-Identifier: Apache-2.0
 */
package io.apiserver4j.apimachinery.managedfields;

import static org.assertj.core.api.Assertions.assertThat;

import io.apiserver4j.core.Json;
import io.apiserver4j.fieldpath.FieldName;
import io.apiserver4j.fieldpath.FieldPath;
import io.apiserver4j.fieldpath.ManagedFields;
import java.util.Map;
import org.junit.jupiter.api.Test;

/** Cases of kube's scalehandler_test.go. */
class ScaleHandlerTest {
  private static final ScaleHandler HANDLER = new ScaleHandler("apps/v1", Map.of("apps/v1",
      FieldPath.of(new FieldName("spec"), new FieldName("replicas"))));

  @Test
  void onlyEntriesOwningTheReplicasMoveToTheScale() { // TestTransformManagedFieldsToSubresource
    assertThat(ManagedFields.encode(HANDLER.toSubresource(Json.read("""
        [{"manager": "manager-1", "operation": "Apply", "apiVersion": "apps/v1",
          "fieldsType": "FieldsV1", "fieldsV1": {"f:spec": {"f:another-field": {}}}},
         {"manager": "manager-2", "operation": "Apply", "apiVersion": "apps/v1",
          "time": "2013-02-03T00:00:00Z",
          "fieldsType": "FieldsV1", "fieldsV1": {"f:spec": {"f:replicas": {}}}}]"""))))
        .isEqualTo(Json.read("""
            [{"manager": "manager-2", "operation": "Apply", "apiVersion": "autoscaling/v1",
              "time": "2013-02-03T00:00:00Z",
              "fieldsType": "FieldsV1", "fieldsV1": {"f:spec": {"f:replicas": {}}}}]"""));
  }

  @Test
  void aScaleWriterTakesTheReplicas() { // TestTransformingManagedFieldsToParent, first case
    assertThat(ManagedFields.encode(HANDLER.toParent(Json.read("""
        [{"manager": "test", "operation": "Apply", "apiVersion": "apps/v1",
          "fieldsType": "FieldsV1", "fieldsV1": {"f:spec": {"f:replicas": {}, "f:selector": {}}}}]
        """), Json.read("""
        [{"manager": "scale", "operation": "Update", "apiVersion": "autoscaling/v1",
          "fieldsType": "FieldsV1", "fieldsV1": {"f:spec": {"f:replicas": {}}},
          "subresource": "scale"}]"""))))
        .isEqualTo(Json.read("""
            [{"manager": "test", "operation": "Apply", "apiVersion": "apps/v1",
              "fieldsType": "FieldsV1", "fieldsV1": {"f:spec": {"f:selector": {}}}},
             {"manager": "scale", "operation": "Update", "apiVersion": "apps/v1",
              "fieldsType": "FieldsV1", "fieldsV1": {"f:spec": {"f:replicas": {}}},
              "subresource": "scale"}]"""));
  }
}
