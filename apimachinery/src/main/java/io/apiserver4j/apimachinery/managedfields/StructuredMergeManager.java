/*
 * Copyright The apiserver4j authors.
 * SPDX-License-Identifier: Apache-2.0
 */
package io.apiserver4j.apimachinery.managedfields;

import static io.apiserver4j.apimachinery.managedfields.ManagerErrors.gvkString;
import static io.apiserver4j.apimachinery.managedfields.ManagerErrors.objectGvknn;
import static io.apiserver4j.apimachinery.managedfields.ManagerErrors.plainError;

import io.apiserver4j.core.GroupVersionKind;
import io.apiserver4j.core.MapValue;
import io.apiserver4j.core.Meta;
import io.apiserver4j.core.errors.StatusErrors;
import io.apiserver4j.merge.Duplicates;
import io.apiserver4j.merge.Force;
import io.apiserver4j.merge.ParseableType;
import io.apiserver4j.merge.TypedValue;
import io.apiserver4j.merge.UpdateResult;
import io.apiserver4j.merge.Updater;
import java.time.Instant;
import java.util.function.UnaryOperator;

/**
 * kube's {@code structuredMergeManager} (structuredmerge.go): the innermost manager, which runs
 * the merge engine. An update only tracks ownership and returns the new object as given; an
 * apply merges, and converts and defaults the merged object, unless it changed nothing.
 */
final class StructuredMergeManager implements Manager {
  private final GroupVersionKind gvk;
  private final String apiVersion;
  private final ParseableType type;
  private final Updater updater;
  private final UnaryOperator<MapValue> objectConverter;
  private final UnaryOperator<MapValue> objectDefaulter;

  StructuredMergeManager(GroupVersionKind gvk, ParseableType type, Updater updater,
      UnaryOperator<MapValue> objectConverter, UnaryOperator<MapValue> objectDefaulter) {
    this.gvk = gvk;
    this.apiVersion = gvk.apiVersion();
    this.type = type;
    this.updater = updater;
    this.objectConverter = objectConverter;
    this.objectDefaulter = objectDefaulter;
  }

  @Override
  public ManagerResult update(MapValue live, MapValue newObject, Managed managed,
      String manager, Instant now) {
    TypedValue newTyped;
    try {
      newTyped = type.fromValue(newObject, Duplicates.ALLOW);
    } catch (RuntimeException e) {
      throw new IllegalStateException("failed to convert new object (" + objectGvknn(newObject)
          + ") to smd typed: " + e.getMessage(), e);
    }
    TypedValue liveTyped;
    try {
      liveTyped = type.fromValue(live, Duplicates.ALLOW);
    } catch (RuntimeException e) {
      throw new IllegalStateException("failed to convert live object (" + objectGvknn(live)
          + ") to smd typed: " + e.getMessage(), e);
    }
    UpdateResult u;
    try {
      u = updater.update(liveTyped, newTyped, apiVersion, managed.fields(), manager);
    } catch (RuntimeException e) {
      throw new IllegalStateException("failed to update ManagedFields (" + objectGvknn(newObject)
          + "): " + e.getMessage(), e);
    }
    return new ManagerResult.Changed(newObject, managed.withFields(u.managers()));
  }

  @Override
  public ManagerResult apply(MapValue live, MapValue applied, Managed managed, String manager,
      Force force, Instant now) {
    String patchVersion = Meta.string(applied, "apiVersion");
    if (!patchVersion.equals(apiVersion)) {
      throw StatusErrors.badRequest("Incorrect version specified in apply patch. Specified patch"
          + " version: " + patchVersion + ", expected: " + apiVersion);
    }
    if (Meta.hasMeta(applied, "managedFields")) {
      throw StatusErrors.badRequest("metadata.managedFields must be nil");
    }
    TypedValue patchTyped;
    try {
      // duplicates are allowed in stored objects but never in a configuration
      patchTyped = type.fromValue(applied, Duplicates.REJECT);
    } catch (RuntimeException e) {
      throw plainError("failed to create typed patch object (" + objectGvknn(applied) + "): "
          + e.getMessage());
    }
    TypedValue liveTyped;
    try {
      liveTyped = type.fromValue(live, Duplicates.ALLOW);
    } catch (RuntimeException e) {
      throw plainError("failed to create typed live object (" + objectGvknn(live) + "): "
          + e.getMessage());
    }
    UpdateResult u = updater.apply(liveTyped, patchTyped, apiVersion, managed.fields(), manager,
        force);
    Managed after = managed.withFields(u.managers());
    if (!u.changed()) {
      return new ManagerResult.Unchanged(after);
    }
    MapValue merged = (MapValue) u.object().value();
    MapValue versioned;
    try {
      versioned = objectConverter.apply(merged);
    } catch (ObjectConversionException e) {
      throw plainError("failed to convert new object (" + objectGvknn(applied) + ") to proper"
          + " version: unable to convert unstructured object to " + gvkString(gvk) + ": "
          + e.getMessage());
    }
    return new ManagerResult.Changed(objectDefaulter.apply(versioned), after);
  }
}
