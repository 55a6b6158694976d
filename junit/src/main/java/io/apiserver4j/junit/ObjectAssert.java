/*
 * Copyright The apiserver4j authors.
 * SPDX-License-Identifier: Apache-2.0
 */
package io.apiserver4j.junit;

import io.apiserver4j.core.MapValue;
import io.apiserver4j.core.Nested;
import io.apiserver4j.core.Value;
import io.apiserver4j.fieldpath.ManagedFields;
import io.apiserver4j.fieldpath.ManagedFieldsEntry;
import java.util.List;
import org.assertj.core.api.AbstractAssert;

/** Assertions on one object, as returned by the server. Obtain from {@link ApiServerAssertions}. */
public final class ObjectAssert extends AbstractAssert<ObjectAssert, MapValue> {
  ObjectAssert(MapValue actual) {
    super(actual, ObjectAssert.class);
  }

  /**
   * Assertions on who owns the field at {@code path}, written as kube-apiserver writes paths in
   * conflict messages: {@code .spec.replicas}, {@code .data.a},
   * {@code .spec.containers[name="main"].image}.
   */
  public FieldAssert field(String path) {
    isNotNull();
    return new FieldAssert(this, path, entries());
  }

  /** Asserts {@code manager} has an entry in {@code metadata.managedFields}. */
  public ObjectAssert hasManager(String manager) {
    isNotNull();
    if (entries().stream().noneMatch(e -> e.manager().equals(manager))) {
      failWithMessage("expected %s to have a managedFields entry of %s but the managers are %s",
          describeObject(), quote(manager), managers());
    }
    return this;
  }

  List<ManagedFieldsEntry> entries() {
    Value managed = Nested.getOrNull(actual, "metadata", "managedFields");
    return managed == null ? List.of() : ManagedFields.decode(managed);
  }

  List<String> managers() {
    return entries().stream().map(ObjectAssert::describe).toList();
  }

  String describeObject() {
    String ns = Nested.str(actual, "metadata", "namespace");
    return Nested.str(actual, "kind") + " " + (ns.isEmpty() ? "" : ns + "/")
        + Nested.str(actual, "metadata", "name");
  }

  static String describe(ManagedFieldsEntry e) {
    return quote(e.manager()) + " (" + e.operation() + (e.subresource().isEmpty() ? ""
        : ", subresource " + e.subresource()) + ")";
  }

  static String quote(String s) {
    return "\"" + s + "\"";
  }
}
