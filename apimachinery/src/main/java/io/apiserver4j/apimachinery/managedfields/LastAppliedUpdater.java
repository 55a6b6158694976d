/*
 * Copyright The apiserver4j authors.
 * SPDX-License-Identifier: Apache-2.0
 */
package io.apiserver4j.apimachinery.managedfields;

import io.apiserver4j.apimachinery.decoding.SortedJson;
import io.apiserver4j.core.MapValue;
import io.apiserver4j.merge.Force;
import java.time.Instant;

/**
 * kube's {@code lastAppliedUpdater} (lastappliedupdater.go): when {@code kubectl} applies
 * server-side to an object that has a client-side apply annotation, the annotation is kept in
 * step with the configuration applied, so that a later client-side apply still works.
 */
final class LastAppliedUpdater implements Manager {
  private final Manager next;

  LastAppliedUpdater(Manager next) {
    this.next = next;
  }

  @Override
  public ManagerResult update(MapValue live, MapValue newObject, Managed managed,
      String manager, Instant now) {
    return next.update(live, newObject, managed, manager, now);
  }

  @Override
  public ManagerResult apply(MapValue live, MapValue applied, Managed managed, String manager,
      Force force, Instant now) {
    ManagerResult r = next.apply(live, applied, managed, manager, force, now);
    if (manager.equals("kubectl") && r instanceof ManagerResult.Changed c
        && LastApplied.of(c.object()).isPresent()) {
      String config = SortedJson.encodeLine(LastApplied.remove(applied));
      return new ManagerResult.Changed(LastApplied.set(c.object(), config), c.managed());
    }
    return r;
  }
}
