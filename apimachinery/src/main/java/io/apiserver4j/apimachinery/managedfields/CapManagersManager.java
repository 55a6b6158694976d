/*
 * Copyright The apiserver4j authors.
 * SPDX-License-Identifier: Apache-2.0
 */
package io.apiserver4j.apimachinery.managedfields;

import io.apiserver4j.core.MapValue;
import io.apiserver4j.core.Values;
import io.apiserver4j.merge.Force;
import io.apiserver4j.merge.VersionedSet;
import java.time.Instant;
import java.util.ArrayList;
import java.util.Comparator;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import java.util.Optional;

/**
 * kube's {@code capManagersManager} (capmanagers.go): after an update, while there are more
 * {@code Update} entries than the cap, the oldest are merged into one {@code ancient-changes}
 * entry per API version. Applies are not capped.
 */
final class CapManagersManager implements Manager {
  static final String ANCIENT_CHANGES = "ancient-changes";

  private final Manager next;
  private final int maxUpdateManagers;

  CapManagersManager(Manager next, int maxUpdateManagers) {
    this.next = next;
    this.maxUpdateManagers = maxUpdateManagers;
  }

  @Override
  public ManagerResult update(MapValue live, MapValue newObject, Managed managed,
      String manager, Instant now) {
    ManagerResult r = next.update(live, newObject, managed, manager, now);
    Managed capped = capUpdateManagers(r.managed(), maxUpdateManagers);
    return capped == r.managed() ? r
        : new ManagerResult.Changed(((ManagerResult.Changed) r).object(), capped);
  }

  @Override
  public ManagerResult apply(MapValue live, MapValue applied, Managed managed, String manager,
      Force force, Instant now) {
    return next.apply(live, applied, managed, manager, force, now);
  }

  /** {@code managed} with the oldest Update entries merged until at most {@code max} remain. */
  static Managed capUpdateManagers(Managed managed, int max) {
    List<String> updaters = new ArrayList<>();
    managed.fields().asMap().forEach((key, vs) -> {
      if (!vs.applied()) {
        updaters.add(key);
      }
    });
    if (updaters.size() <= max) {
      return managed;
    }
    updaters.sort(Comparator.<String>comparingLong(key -> seconds(managed, key))
        .thenComparing(Values::compareStrings));
    Map<String, String> firstByVersion = new HashMap<>();
    Managed m = managed;
    int length = updaters.size();
    for (int i = 0; i < updaters.size() && length > max; i++) {
      String key = updaters.get(i);
      VersionedSet vs = m.fields().get(key).orElseThrow();
      Optional<Instant> time = m.time(key);
      String version = vs.apiVersion();
      ManagerIdentity bucketId = ManagerIdentity.update(ANCIENT_CHANGES, version, "");
      String bucket = bucketId.encode();
      String first = firstByVersion.get(version);
      if (first == null) {
        firstByVersion.put(version, key);
        continue;
      }
      if (!m.fields().contains(bucket)) {
        VersionedSet firstSet = m.fields().get(first).orElseThrow();
        m = m.without(first).with(bucket, firstSet).withIdentity(bucket, bucketId);
      }
      VersionedSet b = m.fields().get(bucket).orElseThrow();
      // the bucket takes the merged entry's time, the more recent one
      m = m.with(bucket, new VersionedSet(vs.set().union(b.set()), vs.apiVersion(), vs.applied()))
          .without(key)
          .withTime(bucket, time);
      length--;
    }
    return m;
  }

  private static long seconds(Managed managed, String key) {
    return managed.time(key).map(Instant::getEpochSecond).orElse(0L);
  }
}
