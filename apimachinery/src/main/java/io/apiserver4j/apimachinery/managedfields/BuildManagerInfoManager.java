/*
 * Copyright The apiserver4j authors.
 * SPDX-License-Identifier: Apache-2.0
 */
package io.apiserver4j.apimachinery.managedfields;

import io.apiserver4j.core.MapValue;
import io.apiserver4j.merge.Force;
import java.time.Instant;

/**
 * kube's {@code buildManagerInfoManager} (buildmanagerinfo.go): turns the manager name into its
 * {@link ManagerIdentity} (with the endpoint's version for an update, and its subresource), so
 * the managers below see kube's identifier. A missing name is {@code unknown}.
 */
final class BuildManagerInfoManager implements Manager {
  private final Manager next;
  private final String apiVersion;
  private final String subresource;

  BuildManagerInfoManager(Manager next, String apiVersion, String subresource) {
    this.next = next;
    this.apiVersion = apiVersion;
    this.subresource = subresource;
  }

  @Override
  public ManagerResult update(MapValue live, MapValue newObject, Managed managed,
      String manager, Instant now) {
    ManagerIdentity id = ManagerIdentity.update(orUnknown(manager), apiVersion, subresource);
    String key = id.encode();
    return next.update(live, newObject, managed.withIdentity(key, id), key, now);
  }

  @Override
  public ManagerResult apply(MapValue live, MapValue applied, Managed managed, String manager,
      Force force, Instant now) {
    ManagerIdentity id = ManagerIdentity.apply(orUnknown(manager), subresource);
    String key = id.encode();
    return next.apply(live, applied, managed.withIdentity(key, id), key, force, now);
  }

  private static String orUnknown(String manager) {
    return manager.isEmpty() ? "unknown" : manager;
  }
}
