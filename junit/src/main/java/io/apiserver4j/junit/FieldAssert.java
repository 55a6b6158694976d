/*
 * Copyright The apiserver4j authors.
 * SPDX-License-Identifier: Apache-2.0
 */
package io.apiserver4j.junit;

import io.apiserver4j.fieldpath.FieldPath;
import io.apiserver4j.fieldpath.ManagedFieldsEntry;
import io.apiserver4j.fieldpath.ManagedFieldsOperation;
import java.util.List;

/**
 * Who owns one field of an object, from its {@code metadata.managedFields}. Obtain from
 * {@link ObjectAssert#field(String)}; the methods chain and {@link #and()} returns to the object.
 */
public final class FieldAssert {
  private final ObjectAssert object;
  private final String path;
  private final List<ManagedFieldsEntry> entries;

  FieldAssert(ObjectAssert object, String path, List<ManagedFieldsEntry> entries) {
    this.object = object;
    this.path = path;
    this.entries = entries;
  }

  /** The managers' entries that own the field. */
  private List<ManagedFieldsEntry> owners() {
    return entries.stream().filter(e -> owns(e, path)).toList();
  }

  private static boolean owns(ManagedFieldsEntry e, String path) {
    for (FieldPath p : e.fields()) {
      if (p.toString().equals(path)) {
        return true;
      }
    }
    return false;
  }

  /** Asserts {@code manager} owns the field (alone or shared with others). */
  public FieldAssert isOwnedBy(String manager) {
    if (owners().stream().noneMatch(e -> e.manager().equals(manager))) {
      fail("expected " + path + " of " + object.describeObject() + " to be owned by "
          + ObjectAssert.quote(manager) + " but " + ownersText());
    }
    return this;
  }

  /** Asserts {@code manager} owns the field through a server-side apply. */
  public FieldAssert isAppliedBy(String manager) {
    if (owners().stream().noneMatch(e -> e.manager().equals(manager)
        && e.operation() == ManagedFieldsOperation.APPLY)) {
      fail("expected " + path + " of " + object.describeObject() + " to be applied by "
          + ObjectAssert.quote(manager) + " but " + ownersText());
    }
    return this;
  }

  /** Asserts exactly these managers own the field, in any order. */
  public FieldAssert isOwnedOnlyBy(String... managers) {
    List<String> actual = owners().stream().map(ManagedFieldsEntry::manager).sorted().toList();
    List<String> expected = java.util.Arrays.stream(managers).sorted().toList();
    if (!actual.equals(expected)) {
      fail("expected " + path + " of " + object.describeObject() + " to be owned only by "
          + expected + " but " + ownersText());
    }
    return this;
  }

  /** Asserts {@code manager} does not own the field. */
  public FieldAssert isNotOwnedBy(String manager) {
    if (owners().stream().anyMatch(e -> e.manager().equals(manager))) {
      fail("expected " + path + " of " + object.describeObject() + " not to be owned by "
          + ObjectAssert.quote(manager) + " but " + ownersText());
    }
    return this;
  }

  /** Asserts no manager owns the field. */
  public FieldAssert isUnowned() {
    if (!owners().isEmpty()) {
      fail("expected " + path + " of " + object.describeObject() + " to have no owner but "
          + ownersText());
    }
    return this;
  }

  /** Back to the object's assertions. */
  public ObjectAssert and() {
    return object;
  }

  private String ownersText() {
    List<ManagedFieldsEntry> owners = owners();
    if (owners.isEmpty()) {
      return "no manager owns it (managers: " + object.managers() + ")";
    }
    return "it is owned by " + owners.stream().map(ObjectAssert::describe).toList();
  }

  private static void fail(String message) {
    throw new AssertionError(message);
  }
}
