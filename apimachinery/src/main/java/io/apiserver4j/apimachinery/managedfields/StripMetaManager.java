/*
 * Copyright The apiserver4j authors.
 * SPDX-License-Identifier: Apache-2.0
 */
package io.apiserver4j.apimachinery.managedfields;

import io.apiserver4j.core.MapValue;
import io.apiserver4j.fieldpath.FieldName;
import io.apiserver4j.fieldpath.FieldPath;
import io.apiserver4j.fieldpath.FieldSet;
import io.apiserver4j.merge.Force;
import io.apiserver4j.merge.VersionedSet;
import java.time.Instant;
import java.util.Optional;

/**
 * kube's {@code stripMetaManager} (stripmeta.go): type meta and the metadata the server sets are
 * never owned, so they are removed from the writing manager's set (and an emptied set dropped).
 */
final class StripMetaManager implements Manager {
  private static final FieldSet STRIP = FieldSet.of(
      path("apiVersion"), path("kind"), path("metadata"),
      path("metadata", "name"), path("metadata", "namespace"),
      path("metadata", "creationTimestamp"), path("metadata", "selfLink"),
      path("metadata", "uid"), path("metadata", "clusterName"),
      path("metadata", "generation"), path("metadata", "managedFields"),
      path("metadata", "resourceVersion"));

  private final Manager next;

  StripMetaManager(Manager next) {
    this.next = next;
  }

  private static FieldPath path(String... names) {
    FieldName[] elements = new FieldName[names.length];
    for (int i = 0; i < names.length; i++) {
      elements[i] = new FieldName(names[i]);
    }
    return FieldPath.of(elements);
  }

  @Override
  public ManagerResult update(MapValue live, MapValue newObject, Managed managed,
      String manager, Instant now) {
    return strip(next.update(live, newObject, managed, manager, now), manager);
  }

  @Override
  public ManagerResult apply(MapValue live, MapValue applied, Managed managed, String manager,
      Force force, Instant now) {
    return strip(next.apply(live, applied, managed, manager, force, now), manager);
  }

  private static ManagerResult strip(ManagerResult result, String manager) {
    Managed managed = result.managed();
    Optional<VersionedSet> owned = managed.fields().get(manager);
    if (owned.isEmpty()) {
      return result;
    }
    VersionedSet vs = owned.get();
    FieldSet rest = vs.set().difference(STRIP);
    Managed stripped = rest.isEmpty() ? managed.without(manager)
        : managed.with(manager, new VersionedSet(rest, vs.apiVersion(), vs.applied()));
    return result instanceof ManagerResult.Changed c
        ? new ManagerResult.Changed(c.object(), stripped)
        : new ManagerResult.Unchanged(stripped);
  }
}
