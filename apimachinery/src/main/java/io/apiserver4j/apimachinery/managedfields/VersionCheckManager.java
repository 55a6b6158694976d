/*
 * Copyright The apiserver4j authors.
 * SPDX-License-Identifier: Apache-2.0
 */
package io.apiserver4j.apimachinery.managedfields;

import static io.apiserver4j.apimachinery.managedfields.ManagerErrors.gvkString;

import io.apiserver4j.core.GroupVersionKind;
import io.apiserver4j.core.MapValue;
import io.apiserver4j.core.Meta;
import io.apiserver4j.core.errors.StatusErrors;
import io.apiserver4j.merge.Force;
import java.time.Instant;

/**
 * kube's {@code versionCheckManager} (versioncheck.go): an apply configuration must be of the
 * endpoint's kind at its version (400 {@code invalid object type} otherwise). Updates are
 * checked elsewhere.
 */
final class VersionCheckManager implements Manager {
  private final Manager next;
  private final GroupVersionKind gvk;

  VersionCheckManager(Manager next, GroupVersionKind gvk) {
    this.next = next;
    this.gvk = gvk;
  }

  @Override
  public ManagerResult update(MapValue live, MapValue newObject, Managed managed,
      String manager, Instant now) {
    return next.update(live, newObject, managed, manager, now);
  }

  @Override
  public ManagerResult apply(MapValue live, MapValue applied, Managed managed, String manager,
      Force force, Instant now) {
    GroupVersionKind given = GroupVersionKind.of(Meta.string(applied, "apiVersion"),
        Meta.string(applied, "kind"));
    if (!given.equals(gvk)) {
      throw StatusErrors.badRequest("invalid object type: " + gvkString(given));
    }
    return next.apply(live, applied, managed, manager, force, now);
  }
}
