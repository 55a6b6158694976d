/*
 * Copyright The apiserver4j authors.
 * SPDX-License-Identifier: Apache-2.0
 */
package io.apiserver4j.admission;

import io.apiserver4j.core.GroupVersionKind;
import io.apiserver4j.core.GroupVersionResource;
import io.apiserver4j.core.MapValue;
import io.apiserver4j.core.Value;

/** Small builders of objects and attributes shared by the admission tests. */
public final class TestObjects {
  public static final GroupVersionResource CONFIGMAPS =
      new GroupVersionResource("", "v1", "configmaps");
  public static final GroupVersionKind CONFIGMAP = new GroupVersionKind("", "v1", "ConfigMap");

  private TestObjects() {}

  public static MapValue configMap(String namespace, String name) {
    MapValue.Builder meta = MapValue.builder();
    if (!name.isEmpty()) {
      meta.put("name", Value.of(name));
    }
    if (!namespace.isEmpty()) {
      meta.put("namespace", Value.of(namespace));
    }
    return MapValue.ofEntries("apiVersion", Value.of("v1"), "kind", Value.of("ConfigMap"),
        "metadata", meta.build());
  }

  /** CREATE of configmap {@code name} in {@code namespace}. */
  public static AdmissionAttributes.Builder create(String namespace, String name) {
    return AdmissionAttributes.builder()
        .operation(Operation.CREATE)
        .resource(CONFIGMAPS)
        .kind(CONFIGMAP)
        .namespace(namespace)
        .name(name)
        .object(configMap(namespace, name))
        .options(OperationOptions.of(Operation.CREATE, false, "test"));
  }

  public static AdmissionAttributes.Builder dryRunCreate(String namespace, String name) {
    return create(namespace, name).dryRun(true)
        .options(OperationOptions.of(Operation.CREATE, true, "test"));
  }

  /** DELETE of configmap {@code name} in {@code namespace}. */
  public static AdmissionAttributes.Builder delete(String namespace, String name) {
    return AdmissionAttributes.builder()
        .operation(Operation.DELETE)
        .resource(CONFIGMAPS)
        .kind(CONFIGMAP)
        .namespace(namespace)
        .name(name)
        .oldObject(configMap(namespace, name))
        .options(OperationOptions.of(Operation.DELETE, false, ""));
  }
}
