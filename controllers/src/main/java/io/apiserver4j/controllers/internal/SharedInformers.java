/*
 * Copyright The apiserver4j authors.
 * SPDX-License-Identifier: Apache-2.0
 */
package io.apiserver4j.controllers.internal;

import io.apiserver4j.apiserver.ApiServer;
import io.apiserver4j.apiserver.informer.CommitListener;
import io.apiserver4j.apiserver.RegistryListener;
import io.apiserver4j.apiserver.ResourceDefinition;
import io.apiserver4j.core.GroupResource;
import io.apiserver4j.core.MapValue;
import io.apiserver4j.storage.ObjectKey;
import java.time.Duration;
import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import java.util.concurrent.ExecutorService;
import java.util.concurrent.Executors;
import java.util.concurrent.RejectedExecutionException;
import java.util.concurrent.atomic.AtomicInteger;
import java.util.function.Consumer;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * client-go's shared informer factory over the server's store: one {@link Informer} per
 * resource, shared by every controller. Controllers ask for informers and add their handlers
 * before {@link #start}; one that follows every resource (the garbage collector) registers with
 * {@link #forEveryResource} and is also given the informers of custom resources served later.
 * Thread-safe.
 */
public final class SharedInformers implements AutoCloseable {
  private static final Logger LOG = LoggerFactory.getLogger(SharedInformers.class);

  private final ApiServer api;
  private final Activity activity;
  private final AtomicInteger threads = new AtomicInteger();
  private final Map<GroupResource, Informer> informers = new LinkedHashMap<>();
  private final List<Consumer<Informer>> everyResource = new ArrayList<>();
  private final ExecutorService later;
  private final RegistryListener listener = this::resourceChanged;
  private final CommitListener commits = this::committed;
  private boolean started;
  private boolean closed;
  /** Informers being started for resources served after start: the manager is not idle. */
  private int starting;

  SharedInformers(ApiServer api, Activity activity) {
    this.api = api;
    this.activity = activity;
    this.later = Executors.newSingleThreadExecutor(r -> {
      Thread t = new Thread(r, "apiserver4j-informer-starter");
      t.setDaemon(true);
      return t;
    });
  }

  /**
   * The informer of {@code resource}, created when first asked for.
   *
   * @throws IllegalArgumentException if the server does not serve it with list and watch
   */
  public synchronized Informer informer(GroupResource resource) {
    Informer i = informers.get(resource);
    if (i != null) {
      return i;
    }
    ResourceDefinition d = definition(resource).orElseThrow(() -> new IllegalArgumentException(
        "the server does not serve " + resource + " with list and watch"));
    return create(d);
  }

  /**
   * Calls {@code setup} with the informer of every resource that supports delete, list and watch
   * (kube's "deletable resources"), now and as resources are served later.
   */
  public synchronized void forEveryResource(Consumer<Informer> setup) {
    if (started) {
      throw new IllegalStateException("the informers are started");
    }
    everyResource.add(setup);
    for (ResourceDefinition d : deletableResources()) {
      Informer i = informers.containsKey(d.groupResource()) ? informers.get(d.groupResource())
          : create(d);
      setup.accept(i);
    }
  }

  /** The resource's informer if one exists. */
  public synchronized Optional<Informer> existing(GroupResource resource) {
    return Optional.ofNullable(informers.get(resource));
  }

  /** Lists every resource, then follows each by a watch. */
  synchronized void start() {
    started = true;
    api.registry().addListener(listener);
    api.addCommitListener(commits);
    for (Informer i : informers.values()) {
      i.start();
    }
  }

  /**
   * Whether every informer has handed its handlers every change up to {@code revision} and no
   * informer of a newly served resource is still starting.
   */
  boolean caughtUp(long revision, Duration timeout) {
    List<Informer> all;
    synchronized (this) {
      if (starting > 0) {
        return false;
      }
      all = List.copyOf(informers.values());
    }
    for (Informer i : all) {
      if (!i.await(revision, timeout)) {
        return false;
      }
    }
    return true;
  }

  /** {@link Informer#replay}s every informer: a reset in place's relist. */
  void replay() {
    List<Informer> all;
    synchronized (this) {
      all = List.copyOf(informers.values());
    }
    for (Informer i : all) {
      i.replay();
    }
  }

  private List<ResourceDefinition> deletableResources() {
    Map<GroupResource, ResourceDefinition> out = new LinkedHashMap<>();
    for (ResourceDefinition d : api.registry().all()) {
      if (deletable(d)) {
        out.putIfAbsent(d.groupResource(), d);
      }
    }
    return List.copyOf(out.values());
  }

  private static boolean deletable(ResourceDefinition d) {
    return d.verbs().containsAll(List.of("delete", "list", "watch"));
  }

  private Optional<ResourceDefinition> definition(GroupResource resource) {
    return api.registry().all().stream().filter(d -> d.groupResource().equals(resource)
        && d.verbs().containsAll(List.of("list", "watch"))).findFirst();
  }

  /** Under this. */
  private Informer create(ResourceDefinition d) {
    Informer i = new Informer(d, api.store(), threads, activity);
    informers.put(d.groupResource(), i);
    return i;
  }

  /**
   * A write through this server reaches its informer at once, on the writer's thread, so that
   * the writer's next sync reads it (the watch brings the same state later, which the informer
   * then ignores); writes by other servers sharing the store come by the watch alone.
   */
  private void committed(ObjectKey key, Optional<MapValue> object, long revision) {
    Informer i;
    synchronized (this) {
      i = informers.get(new GroupResource(key.group(), key.resource()));
    }
    if (i != null) {
      i.follow(key.namespace(), key.name(), object.orElse(null), revision);
    }
  }

  /** Called by the registry: must not call back into the server, so the work is handed off. */
  private void resourceChanged(RegistryListener.Change change, ResourceDefinition d) {
    if (change != RegistryListener.Change.ADDED || !deletable(d)) {
      return;
    }
    synchronized (this) {
      if (closed || everyResource.isEmpty() || informers.containsKey(d.groupResource())) {
        return;
      }
      starting++;
    }
    try {
      later.execute(() -> startLater(d));
    } catch (RejectedExecutionException e) {
      synchronized (this) {
        starting--;
      }
    }
  }

  private void startLater(ResourceDefinition d) {
    try {
      Informer i;
      synchronized (this) {
        if (closed || informers.containsKey(d.groupResource())) {
          return;
        }
        i = create(d);
        for (Consumer<Informer> setup : everyResource) {
          setup.accept(i);
        }
      }
      i.start();
    } catch (RuntimeException e) {
      LOG.error("starting the informer of {} failed", d.groupResource(), e);
    } finally {
      synchronized (this) {
        starting--;
      }
      activity.changed();
    }
  }

  @Override
  public void close() {
    List<Informer> all;
    synchronized (this) {
      closed = true;
      all = List.copyOf(informers.values());
    }
    api.registry().removeListener(listener);
    api.removeCommitListener(commits);
    later.shutdownNow();
    for (Informer i : all) {
      i.close();
    }
  }
}
