/*
 * Copyright The apiserver4j authors.
 * SPDX-License-Identifier: Apache-2.0
 */
package io.apiserver4j.apiserver.internal;

import io.apiserver4j.apiserver.ApiRequest;
import io.apiserver4j.apiserver.ApiResponse;
import io.apiserver4j.apiserver.ResourceDefinition;
import io.apiserver4j.apiserver.Allocated;
import io.apiserver4j.apiserver.Allocation;
import io.apiserver4j.apiserver.Allocator;
import io.apiserver4j.storage.Store;
import java.time.Clock;
import java.time.Instant;
import java.util.Map;
import java.util.Optional;
import java.util.Random;
import java.util.Set;
import java.util.function.Function;

/**
 * The server's side of {@link Allocator}s: the {@link Allocation} a request allocates from, the
 * release of what a deleted object held (a {@link WriteListener}, so every real delete path
 * releases: DELETE, delete collection, the last finalizer going, namespace deletion) and the
 * allocators' start. Thread-safe; holds no lock.
 */
final class Allocations implements WriteListener {
  private static final org.slf4j.Logger LOG = org.slf4j.LoggerFactory.getLogger(Allocations.class);

  private final Map<String, String> settings;
  private final Function<ApiRequest, ApiResponse> loopback;
  private final Store store;
  private final Random random;
  private final Clock clock;

  Allocations(Map<String, String> settings, Function<ApiRequest, ApiResponse> loopback,
      Store store, Random random, Clock clock) {
    this.settings = Map.copyOf(settings);
    this.loopback = loopback;
    this.store = store;
    this.random = random;
    this.clock = clock;
  }

  /** What a request of {@code s} allocates from. */
  Allocation of(Scope s) {
    return new View(s.dryRun(), s.now());
  }

  /** The allocation of the server's own work (release, start): never a dry run. */
  Allocation server() {
    return new View(false, null);
  }

  /** Finishes {@code allocated} as the write went; a failing finish is logged, not thrown. */
  static void finish(Allocated allocated, boolean stored) {
    try {
      if (stored) {
        allocated.commit();
      } else {
        allocated.revert();
      }
    } catch (RuntimeException e) {
      LOG.error("cannot {} an allocation", stored ? "commit" : "revert", e);
    }
  }

  @Override
  public void committed(ResourceDefinition def, WriteOutcome outcome) {
    if (outcome instanceof WriteOutcome.Deleted d) {
      def.strategy().allocator().ifPresent(a -> {
        try {
          a.release(d.object(), server());
        } catch (RuntimeException e) {
          LOG.error("cannot release what {} {} held", def.kind().kind(),
              io.apiserver4j.core.Meta.metaString(d.object(), "name"), e);
        }
      });
    }
  }

  /** Starts the allocator of every resource that has one, once per allocator. */
  void start(Iterable<ResourceDefinition> defs) {
    Set<Allocator> started = java.util.Collections.newSetFromMap(
        new java.util.IdentityHashMap<>());
    for (ResourceDefinition def : defs) {
      Optional<Allocator> a = def.strategy().allocator();
      if (a.isPresent() && started.add(a.get())) {
        a.get().start(server());
      }
    }
  }

  private final class View implements Allocation {
    private final boolean dryRun;
    private final Instant now;

    View(boolean dryRun, Instant now) {
      this.dryRun = dryRun;
      this.now = now;
    }

    @Override
    public boolean dryRun() {
      return dryRun;
    }

    @Override
    public Optional<String> setting(String flag) {
      return Optional.ofNullable(settings.get(flag));
    }

    @Override
    public ApiResponse loopback(ApiRequest request) {
      if (request.dryRun().isDryRun()) {
        throw new IllegalArgumentException("an allocation's loopback request is never a dry run");
      }
      return loopback.apply(request);
    }

    @Override
    public Store storage() {
      return store;
    }

    @Override
    public Random random() {
      return random;
    }

    @Override
    public Instant now() {
      return now != null ? now : clock.instant();
    }
  }
}
