/*
 * Copyright The apiserver4j authors.
 * SPDX-License-Identifier: Apache-2.0
 */
package io.apiserver4j.apimachinery.managedfields;

import static io.apiserver4j.apimachinery.managedfields.ManagerErrors.plainError;

import io.apiserver4j.core.MapValue;
import io.apiserver4j.core.Meta;
import io.apiserver4j.core.errors.StatusException;
import io.apiserver4j.merge.Force;
import java.time.Instant;

/**
 * kube's {@code skipNonAppliedManager} (skipnonapplied.go) with kube's default tracking
 * probability of 1: ownership is tracked from an object's creation. An update of an existing
 * object without managedFields stays untracked; the first apply to such an object first records
 * everything it has as owned by {@code before-first-apply}.
 */
final class SkipNonAppliedManager implements Manager {
  static final String BEFORE_FIRST_APPLY = "before-first-apply";

  private final Manager next;
  private final MapValue emptyObject;

  /**
   * @param emptyObject what kube's object creater makes for the kind: the zero object against
   *     which {@code before-first-apply} is computed
   */
  SkipNonAppliedManager(Manager next, MapValue emptyObject) {
    this.next = next;
    this.emptyObject = emptyObject;
  }

  @Override
  public ManagerResult update(MapValue live, MapValue newObject, Managed managed,
      String manager, Instant now) {
    if (managed.isEmpty() && !Meta.metaString(live, "uid").isEmpty()) {
      return new ManagerResult.Changed(newObject, managed);
    }
    return next.update(live, newObject, managed, manager, now);
  }

  @Override
  public ManagerResult apply(MapValue live, MapValue applied, Managed managed, String manager,
      Force force, Instant now) {
    MapValue current = live;
    Managed owned = managed;
    if (managed.isEmpty()) {
      ManagerResult.Changed r;
      try {
        r = (ManagerResult.Changed) next.update(emptyObject, live, managed, BEFORE_FIRST_APPLY,
            now);
      } catch (StatusException e) {
        throw e;
      } catch (RuntimeException e) {
        throw plainError("failed to create manager for existing fields: " + e.getMessage());
      }
      current = r.object();
      owned = r.managed();
    }
    return next.apply(current, applied, owned, manager, force, now);
  }
}
