/*
 * Copyright The apiserver4j authors.
 * SPDX-License-Identifier: Apache-2.0
 */
package io.apiserver4j.apimachinery.managedfields;

import io.apiserver4j.core.MapValue;
import io.apiserver4j.core.Meta;
import io.apiserver4j.merge.Force;
import io.apiserver4j.merge.VersionedSet;
import java.time.Instant;
import java.util.Optional;

/**
 * kube's {@code managedFieldsUpdater} (managedfieldsupdater.go): stamps the time of a manager's
 * change. An update is tracked under a placeholder manager first, so that only a write that took
 * fields from someone counts as a change; its set is then merged into the real manager's entry.
 * An apply that changed nothing yields the live object (without managedFields) to store.
 */
final class ManagedFieldsUpdater implements Manager {
  /** The key of the update in progress; never encoded. */
  static final String CURRENT_OPERATION = "current-operation";

  private final Manager next;

  ManagedFieldsUpdater(Manager next) {
    this.next = next;
  }

  @Override
  public ManagerResult update(MapValue live, MapValue newObject, Managed managed,
      String manager, Instant now) {
    ManagerResult r = next.update(live, newObject, managed, CURRENT_OPERATION, now);
    Managed m = r.managed();
    Optional<VersionedSet> current = m.fields().get(CURRENT_OPERATION);
    if (current.isEmpty()) {
      return r;
    }
    VersionedSet vs = current.get();
    Optional<VersionedSet> previous = m.fields().get(manager);
    VersionedSet merged = previous.isEmpty() ? vs
        : new VersionedSet(vs.set().union(previous.get().set()), vs.apiVersion(), vs.applied());
    m = m.without(CURRENT_OPERATION).with(manager, merged).withTime(manager, Optional.of(now));
    return new ManagerResult.Changed(((ManagerResult.Changed) r).object(), m);
  }

  @Override
  public ManagerResult apply(MapValue live, MapValue applied, Managed managed, String manager,
      Force force, Instant now) {
    ManagerResult r = next.apply(live, applied, managed, manager, force, now);
    if (r instanceof ManagerResult.Changed c) {
      return new ManagerResult.Changed(c.object(),
          c.managed().withTime(manager, Optional.of(now)));
    }
    return new ManagerResult.Changed(Meta.withoutMeta(live, "managedFields"), r.managed());
  }
}
