/*
 * Copyright The apiserver4j authors.
 * SPDX-License-Identifier: Apache-2.0
 */
package io.apiserver4j.apimachinery.managedfields;

import static java.util.Objects.requireNonNull;

import io.apiserver4j.fieldpath.FieldSet;
import io.apiserver4j.fieldpath.ManagedFieldsEntry;
import io.apiserver4j.fieldpath.ManagedFieldsOperation;
import java.util.Optional;

/**
 * Who owns a managedFields entry, as kube-apiserver tells managers apart: the manager name, the
 * operation, the API version of an {@code Update} and the subresource. An {@code Apply} identity
 * has no API version, so an applier keeps one entry whatever version it applies at.
 *
 * <p>{@link #encode()} is kube's {@code BuildManagerIdentifier}, the key the merge engine tracks
 * the manager under. The chain encodes an identity once, when it enters a {@link Managed}, and
 * never parses a key back.
 *
 * @param manager the manager name (may be empty on decoded entries)
 * @param operation apply or update
 * @param apiVersion the group/version of an update; empty for an apply
 * @param subresource the subresource that served the write, or empty
 */
public record ManagerIdentity(String manager, ManagedFieldsOperation operation,
    String apiVersion, String subresource) {

  /**
   * @throws IllegalArgumentException when an {@code Apply} has an API version or an
   *     {@code Update} has none
   */
  public ManagerIdentity {
    requireNonNull(manager, "manager");
    requireNonNull(operation, "operation");
    requireNonNull(apiVersion, "apiVersion");
    requireNonNull(subresource, "subresource");
    if (operation == ManagedFieldsOperation.APPLY && !apiVersion.isEmpty()) {
      throw new IllegalArgumentException("an Apply identity has no apiVersion, got "
          + apiVersion);
    }
    if (operation == ManagedFieldsOperation.UPDATE && apiVersion.isEmpty()) {
      throw new IllegalArgumentException("an Update identity needs an apiVersion (manager "
          + manager + ")");
    }
  }

  /** The identity of an apply by {@code manager} on {@code subresource}. */
  public static ManagerIdentity apply(String manager, String subresource) {
    return new ManagerIdentity(manager, ManagedFieldsOperation.APPLY, "", subresource);
  }

  /** The identity of an update by {@code manager} at {@code apiVersion} on {@code subresource}. */
  public static ManagerIdentity update(String manager, String apiVersion, String subresource) {
    return new ManagerIdentity(manager, ManagedFieldsOperation.UPDATE, apiVersion, subresource);
  }

  /** The identity an encoded entry is recorded under. */
  public static ManagerIdentity of(ManagedFieldsEntry entry) {
    requireNonNull(entry, "entry");
    return entry.isApply() ? apply(entry.manager(), entry.subresource())
        : update(entry.manager(), entry.apiVersion(), entry.subresource());
  }

  /**
   * kube's {@code BuildManagerIdentifier}: the compact JSON of the entry without time and
   * fields, e.g. {@code {"manager":"kubectl","operation":"Update","apiVersion":"v1"}}.
   */
  public String encode() {
    // the entry writes the identifier; an Apply entry leaves its (required) version out of it
    String version = apiVersion.isEmpty() ? "v" : apiVersion;
    return new ManagedFieldsEntry(manager, operation, version, Optional.empty(), FieldSet.empty(),
        subresource).identity();
  }
}
