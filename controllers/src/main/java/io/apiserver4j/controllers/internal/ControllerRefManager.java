/*
 * Copyright The apiserver4j authors.
 * SPDX-License-Identifier: Apache-2.0
 */
package io.apiserver4j.controllers.internal;

import io.apiserver4j.apimachinery.patch.PatchType;
import io.apiserver4j.apiserver.ResourceClient;
import io.apiserver4j.core.Json;
import io.apiserver4j.core.ListValue;
import io.apiserver4j.core.MapValue;
import io.apiserver4j.core.Meta;
import io.apiserver4j.core.Nested;
import io.apiserver4j.core.Value;
import io.apiserver4j.core.errors.NotFoundException;
import io.apiserver4j.core.errors.StatusException;
import io.apiserver4j.core.labels.LabelSelector;
import java.util.ArrayList;
import java.util.List;
import java.util.Optional;
import java.util.function.Function;

/**
 * kube's {@code ControllerRefManager} (pkg/controller/controller_ref_manager.go) for one owner
 * kind and one dependent resource: a claim adopts matching orphans and releases owned objects
 * that no longer match, with kube's strategic merge patches carrying the dependent's UID as a
 * precondition.
 */
public final class ControllerRefManager {
  private final String ownerApiVersion;
  private final String ownerKind;
  private final Function<String, ResourceClient> owners;
  private final Function<String, ResourceClient> dependents;
  private final List<String> adoptFinalizers;

  /**
   * @param owners the owner kind's client in a namespace (as the controller's user)
   * @param dependents the dependent resource's client in a namespace (as the controller's user)
   */
  public ControllerRefManager(String ownerApiVersion, String ownerKind,
      Function<String, ResourceClient> owners, Function<String, ResourceClient> dependents) {
    this(ownerApiVersion, ownerKind, owners, dependents, List.of());
  }

  /**
   * A manager whose adoptions also add {@code adoptFinalizers} to the dependent, as kube's
   * {@code NewPodControllerRefManager} with finalizers (the job controller's tracking finalizer).
   *
   * @param owners the owner kind's client in a namespace (as the controller's user)
   * @param dependents the dependent resource's client in a namespace (as the controller's user)
   */
  public ControllerRefManager(String ownerApiVersion, String ownerKind,
      Function<String, ResourceClient> owners, Function<String, ResourceClient> dependents,
      List<String> adoptFinalizers) {
    this.ownerApiVersion = ownerApiVersion;
    this.ownerKind = ownerKind;
    this.owners = owners;
    this.dependents = dependents;
    this.adoptFinalizers = List.copyOf(adoptFinalizers);
  }

  /**
   * kube's {@code ClaimObject} over candidates: the ones the owner controls after adopting
   * matching orphans (only while the owner, read back from the server, is alive) and releasing
   * controlled ones its selector no longer matches.
   */
  public List<MapValue> claim(MapValue owner, LabelSelector selector, List<MapValue> candidates) {
    String uid = Meta.metaString(owner, "uid");
    boolean ownerDeleting = Nested.has(owner, "metadata", "deletionTimestamp");
    List<MapValue> out = new ArrayList<>();
    Boolean canAdopt = null;
    for (MapValue candidate : candidates) {
      // the selector reads the labels in place: no copy of every candidate's labels
      boolean matches = selector.matches(candidate);
      Optional<MapValue> ref = Pods.controllerRef(candidate);
      if (ref.isPresent()) {
        if (!Nested.str(ref.get(), "uid").equals(uid)) {
          continue;
        }
        if (matches) {
          out.add(candidate);
        } else if (!ownerDeleting) {
          release(owner, candidate);
        }
        continue;
      }
      if (ownerDeleting || !matches || Nested.has(candidate, "metadata", "deletionTimestamp")) {
        continue;
      }
      if (canAdopt == null) {
        canAdopt = recheck(owner);
      }
      if (canAdopt && adopt(owner, candidate)) {
        out.add(candidate);
      }
    }
    return out;
  }

  /** The controllerRef an owned object carries: controller and blockOwnerDeletion set. */
  public MapValue controllerRef(MapValue owner) {
    return MapValue.ofEntries("apiVersion", Value.of(ownerApiVersion),
        "kind", Value.of(ownerKind), "name", Value.of(Meta.metaString(owner, "name")),
        "uid", Value.of(Meta.metaString(owner, "uid")), "controller", Value.of(true),
        "blockOwnerDeletion", Value.of(true));
  }

  /** kube's {@code RecheckDeletionTimestamp}: the owner read from the server, same UID, alive. */
  private boolean recheck(MapValue owner) {
    Optional<MapValue> fresh = owners.apply(Meta.metaString(owner, "namespace"))
        .find(Meta.metaString(owner, "name"));
    return fresh.isPresent()
        && Meta.metaString(fresh.get(), "uid").equals(Meta.metaString(owner, "uid"))
        && !Nested.has(fresh.get(), "metadata", "deletionTimestamp");
  }

  /** Adopts with kube's strategic merge patch; false when the dependent is gone. */
  private boolean adopt(MapValue owner, MapValue dependent) {
    MapValue meta = MapValue.ofEntries(
        "ownerReferences", ListValue.of(List.of(controllerRef(owner))),
        "uid", Value.of(Meta.metaString(dependent, "uid")));
    if (!adoptFinalizers.isEmpty()) {
      meta = meta.with("finalizers", ListValue.ofStrings(adoptFinalizers));
    }
    MapValue patch = MapValue.ofEntries("metadata", meta);
    try {
      dependents.apply(Meta.metaString(dependent, "namespace")).patch(
          Meta.metaString(dependent, "name"), PatchType.STRATEGIC_MERGE_PATCH, Json.write(patch));
      return true;
    } catch (NotFoundException e) {
      return false;
    }
  }

  /** Releases with kube's strategic merge patch; a dependent already gone or changed is left. */
  private void release(MapValue owner, MapValue dependent) {
    MapValue patch = MapValue.ofEntries("metadata", MapValue.ofEntries(
        "ownerReferences", ListValue.of(List.of(MapValue.ofEntries(
            "$patch", Value.of("delete"), "uid", Value.of(Meta.metaString(owner, "uid"))))),
        "uid", Value.of(Meta.metaString(dependent, "uid"))));
    try {
      dependents.apply(Meta.metaString(dependent, "namespace")).patch(
          Meta.metaString(dependent, "name"), PatchType.STRATEGIC_MERGE_PATCH, Json.write(patch));
    } catch (NotFoundException e) {
      // gone: nothing to release
    } catch (StatusException e) {
      // kube ignores an invalid or conflicting release: the dependent changed (UID precondition)
      if (e.code() != 422 && e.code() != 409) {
        throw e;
      }
    }
  }
}
