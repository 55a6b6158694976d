/*
 * Copyright The apiserver4j authors.
 * SPDX-License-Identifier: Apache-2.0
 */
package io.apiserver4j.apimachinery.managedfields;

import io.apiserver4j.core.GroupVersionKind;
import io.apiserver4j.core.Json;
import io.apiserver4j.core.MapValue;
import io.apiserver4j.core.Meta;
import io.apiserver4j.core.Value;
import io.apiserver4j.fieldpath.ManagedFields;
import io.apiserver4j.fieldpath.ManagedFieldsEntry;
import io.apiserver4j.merge.Force;
import io.apiserver4j.merge.ParseableType;
import java.time.Duration;
import java.time.Instant;
import java.util.List;
import java.util.function.UnaryOperator;

/**
 * kube's {@code TestFieldManagerImpl}: one live object, written through a field manager over the
 * deduced (schemaless) type, on a clock that advances a second per write.
 */
final class TestFieldManager {
  private final FieldManager fieldManager;
  private final MapValue empty;
  private MapValue live;
  private Instant now = Instant.parse("2024-01-01T00:00:00Z");

  private TestFieldManager(FieldManager fieldManager, MapValue empty) {
    this.fieldManager = fieldManager;
    this.empty = empty;
    this.live = empty;
  }

  static TestFieldManager of(String apiVersion, String kind) {
    return of(apiVersion, kind, b -> b);
  }

  static TestFieldManager of(String apiVersion, String kind,
      UnaryOperator<FieldManager.Builder> config) {
    GroupVersionKind gvk = GroupVersionKind.of(apiVersion, kind);
    FieldManager.Builder b = FieldManager.builder(gvk, ParseableType.deduced());
    MapValue empty = MapValue.ofEntries("apiVersion", Value.of(apiVersion), "kind",
        Value.of(kind));
    return new TestFieldManager(config.apply(b).build(), empty);
  }

  /** A JSON object. */
  static MapValue object(String json) {
    return (MapValue) Json.read(json);
  }

  FieldManager fieldManager() {
    return fieldManager;
  }

  void reset() {
    live = empty;
  }

  MapValue live() {
    return live;
  }

  void setLive(MapValue object) {
    live = object;
  }

  Instant now() {
    return now;
  }

  void apply(MapValue object, String manager, Force force) {
    now = now.plus(Duration.ofSeconds(1));
    live = fieldManager.apply(live, object, manager, force, now);
  }

  void update(MapValue object, String manager) {
    now = now.plus(Duration.ofSeconds(1));
    live = fieldManager.update(live, object, manager, now);
  }

  void updateNoErrors(MapValue object, String manager) {
    now = now.plus(Duration.ofSeconds(1));
    live = fieldManager.updateNoErrors(live, object, manager, now);
  }

  List<ManagedFieldsEntry> managedFields() {
    return ManagedFields.decode(Meta.metaValue(live, "managedFields"));
  }
}
