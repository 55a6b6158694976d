/*
 * Copyright The apiserver4j authors.
 * SPDX-License-Identifier: Apache-2.0
 */
package io.apiserver4j.apimachinery.managedfields;

import io.apiserver4j.core.Json;
import io.apiserver4j.core.MapValue;
import io.apiserver4j.core.Meta;
import io.apiserver4j.core.Value;
import io.apiserver4j.fieldpath.FieldSet;
import io.apiserver4j.merge.Comparison;
import io.apiserver4j.merge.Conflict;
import io.apiserver4j.merge.ConflictsException;
import io.apiserver4j.merge.Force;
import io.apiserver4j.merge.ParseableType;
import io.apiserver4j.merge.TypedValue;
import java.time.Instant;
import java.util.ArrayList;
import java.util.List;
import java.util.Optional;

/**
 * kube's {@code lastAppliedManager} (lastappliedmanager.go): upgrades an object managed by
 * client-side apply to server-side apply without conflicts. When {@code kubectl} applies
 * server-side and conflicts only on fields its last-applied annotation holds with their live
 * values, the apply is forced.
 */
final class LastAppliedManager implements Manager {
  private final Manager next;
  private final ParseableType type;
  private final String apiVersion;

  LastAppliedManager(Manager next, ParseableType type, String apiVersion) {
    this.next = next;
    this.type = type;
    this.apiVersion = apiVersion;
  }

  @Override
  public ManagerResult update(MapValue live, MapValue newObject, Managed managed,
      String manager, Instant now) {
    return next.update(live, newObject, managed, manager, now);
  }

  @Override
  public ManagerResult apply(MapValue live, MapValue applied, Managed managed, String manager,
      Force force, Instant now) {
    try {
      return next.apply(live, applied, managed, manager, force, now);
    } catch (ConflictsException e) {
      if (!manager.equals("kubectl")) {
        throw e;
      }
      Optional<FieldSet> allowed = allowedConflictsFromLastApplied(live);
      if (allowed.isEmpty()) {
        throw e;
      }
      List<Conflict> remaining = new ArrayList<>();
      for (Conflict c : e.conflicts()) {
        if (!allowed.get().contains(c.path())) {
          remaining.add(c);
        }
      }
      if (!remaining.isEmpty()) {
        throw new ConflictsException(remaining);
      }
      return next.apply(live, applied, managed, manager, Force.YES, now);
    }
  }

  // The fields of the last-applied annotation whose values still match the live object; empty
  // when there is no usable annotation (kube's error return).
  private Optional<FieldSet> allowedConflictsFromLastApplied(MapValue live) {
    Optional<String> annotation = LastApplied.of(live);
    if (annotation.isEmpty()) {
      return Optional.empty();
    }
    try {
      TypedValue liveTyped = type.fromValue(live);
      Value lastApplied = Json.read(annotation.get());
      if (!(lastApplied instanceof MapValue la)
          || !Meta.string(la, "apiVersion").equals(apiVersion)) {
        return Optional.empty();
      }
      TypedValue lastTyped = type.fromValue(la);
      Comparison c = lastTyped.compare(liveTyped);
      return Optional.of(lastTyped.toFieldSet().difference(c.modified()).difference(c.added())
          .difference(c.removed()));
    } catch (RuntimeException e) {
      return Optional.empty();
    }
  }
}
