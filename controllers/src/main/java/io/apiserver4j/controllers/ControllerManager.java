/*
 * Copyright The apiserver4j authors.
 * SPDX-License-Identifier: Apache-2.0
 */
package io.apiserver4j.controllers;

import static java.util.Objects.requireNonNull;

import io.apiserver4j.apiserver.ApiServer;
import io.apiserver4j.controllers.internal.ControllerDescriptor;
import io.apiserver4j.controllers.internal.ControllerRuntime;
import java.time.Clock;
import java.time.Duration;
import java.util.Arrays;
import java.util.List;
import java.util.concurrent.atomic.AtomicBoolean;

/**
 * kube-controller-manager in the server's JVM: the controllers its {@code --controllers} flag
 * selects, sharing one informer per resource over the server's store, each writing through the
 * server ({@link ApiServer#handle}) as kube's controller user for it
 * ({@code system:serviceaccount:kube-system:<account>}) with field manager
 * {@code kube-controller-manager}, so admission, finalizers and managed fields see them as in a
 * cluster.
 *
 * <pre>{@code
 * try (ApiServer api = ApiServer.builder().clock(clock).build();
 *     ControllerManager controllers = ControllerManager.builder(api).clock(clock).start()) {
 *   ... delete an owner ...
 *   controllers.awaitIdle(Duration.ofSeconds(10));   // its dependents are gone
 * }
 * }</pre>
 *
 * <p>Every timer of a controller runs on the given clock (the server's): after a test advances
 * it, {@link #awaitIdle} runs what became due. Retries after failed requests back off on wall
 * time, as client-go's work queues do.
 *
 * <p>Thread-safe. Implemented so far: {@code garbage-collector-controller}
 * ({@code garbagecollector}); see {@link #knownControllers()}.
 */
public final class ControllerManager implements AutoCloseable {
  private final ControllerRuntime runtime;
  private final AtomicBoolean closed = new AtomicBoolean();

  private ControllerManager(ControllerRuntime runtime) {
    this.runtime = runtime;
  }

  /** A builder of the controllers of {@code api}. */
  public static Builder builder(ApiServer api) {
    return new Builder(requireNonNull(api, "api"));
  }

  /**
   * The canonical names of every controller kube-controller-manager 1.36 knows (the values,
   * with their aliases, {@code --controllers} accepts).
   */
  public static List<String> knownControllers() {
    return KnownControllers.all().stream().map(ControllerDescriptor::name).toList();
  }

  /** The canonical names of the running controllers, in kube's order. */
  public List<String> controllers() {
    return runtime.names();
  }

  /**
   * Waits, without sleeping, until the controllers are idle: every informer has seen every
   * write in the store, no work is queued, in process or waiting for an early retry, no timer
   * is due by the clock, and nothing was written meanwhile. Work waiting for a later time on the
   * clock, or retried after failing many times, does not count.
   *
   * @return whether that happened within {@code timeout}; false too if the thread was
   *     interrupted (its interrupt status is kept)
   * @throws IllegalStateException after {@link #close()}
   */
  public boolean awaitIdle(Duration timeout) {
    requireNonNull(timeout, "timeout");
    if (closed.get()) {
      throw new IllegalStateException("the controller manager is closed");
    }
    return runtime.awaitIdle(timeout);
  }

  /** Stops the controllers and their informers, waiting for their threads. Idempotent. */
  @Override
  public void close() {
    if (closed.compareAndSet(false, true)) {
      runtime.close();
    }
  }

  @Override
  public String toString() {
    return "ControllerManager" + runtime.names();
  }

  /**
   * Configures a {@link ControllerManager}. Each option may be set once; a second call or a bad
   * value fails at once with a message naming it. Not thread-safe.
   */
  public static final class Builder {
    private final ApiServer api;
    private List<String> controllers = List.of("*");
    private boolean controllersSet;
    private Clock clock = Clock.systemUTC();
    private boolean clockSet;

    private Builder(ApiServer api) {
      this.api = api;
    }

    /**
     * The controllers to run, as kube-controller-manager's {@code --controllers} flag: a comma
     * separated list where {@code *} enables those on by default, {@code name} enables one and
     * {@code -name} disables one, by canonical name ({@code garbage-collector-controller}) or
     * alias ({@code garbagecollector}); the first entry naming a controller decides. Default
     * {@code *}.
     *
     * @throws IllegalArgumentException for an unknown name ("\"x\" is not in the list of known
     *     controllers", as kube), or a known controller this project does not implement
     */
    public Builder controllers(String flag) {
      requireNonNull(flag, "flag");
      return controllers(Arrays.stream(flag.split(",")).map(String::trim)
          .filter(s -> !s.isEmpty()).toList());
    }

    /** The {@code --controllers} values, one per element; see {@link #controllers(String)}. */
    public Builder controllers(List<String> values) {
      if (controllersSet) {
        throw new IllegalStateException("controllers was already set");
      }
      List<String> copy = List.copyOf(requireNonNull(values, "values"));
      KnownControllers.select(copy);
      controllersSet = true;
      this.controllers = copy;
      return this;
    }

    /** The server's clock, that every controller timer runs on; default the UTC system clock. */
    public Builder clock(Clock c) {
      if (clockSet) {
        throw new IllegalStateException("clock was already set");
      }
      clockSet = true;
      this.clock = requireNonNull(c, "clock");
      return this;
    }

    /**
     * Builds the controllers and starts them: lists every resource they follow, then starts
     * their workers.
     *
     * @throws io.apiserver4j.core.errors.StatusException if the store cannot be listed
     */
    public ControllerManager start() {
      ControllerRuntime runtime = new ControllerRuntime(api, clock,
          KnownControllers.select(controllers));
      try {
        runtime.start();
      } catch (RuntimeException e) {
        runtime.close();
        throw e;
      }
      return new ControllerManager(runtime);
    }
  }
}
