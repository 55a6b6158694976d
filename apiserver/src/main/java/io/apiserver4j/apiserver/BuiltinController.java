/*
 * Copyright The apiserver4j authors.
 * SPDX-License-Identifier: Apache-2.0
 */
package io.apiserver4j.apiserver;

import static java.util.Objects.requireNonNull;

import io.apiserver4j.storage.Store;
import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Set;
import java.util.function.Function;
import java.util.function.Supplier;

/**
 * A kube-controller-manager controller the built-in API runs inside every server where the
 * admission plugin it belongs to is enabled (the ServiceAccount plugin refuses every Pod without
 * the {@code default} ServiceAccount its controller writes).
 *
 * <p>A server runs one of these, and its own namespace controller ({@value #NAMESPACE}), until a
 * controller manager that runs the controller of the same name takes it over with {@link
 * ApiServer#handOver}, so that exactly one instance runs.
 *
 * @param name the controller's name in kube-controller-manager, for logs
 * @param admissionPlugin the admission plugin it ships with
 * @param start starts the controller for a server; closing the result stops it
 */
public record BuiltinController(String name, String admissionPlugin,
    Function<Context, AutoCloseable> start) {
  /**
   * The name of the server's own namespace controller (kube-controller-manager's
   * {@code namespace}): it deletes the content of a terminating namespace through the server and
   * the namespace with it once empty, synchronously after the write that made it so.
   */
  public static final String NAMESPACE = "namespace";

  /**
   * Checks that no component is null.
   *
   * @param name see the record component
   * @param admissionPlugin see the record component
   * @param start see the record component
   */
  public BuiltinController {
    requireNonNull(name, "name");
    requireNonNull(admissionPlugin, "admissionPlugin");
    requireNonNull(start, "start");
  }

  /**
   * What a controller runs on.
   *
   * @param server the server it writes through (as kube's controllers write through the API)
   * @param store the server's storage, for informers
   * @param rootCaCertificate the PEM of the cluster's CA (what kube-controller-manager's
   *     {@code --root-ca-file} names)
   */
  public record Context(ApiServer server, Store store, String rootCaCertificate) {
    /**
     * Checks that no component is null.
     *
     * @param server see the record component
     * @param store see the record component
     * @param rootCaCertificate see the record component
     */
    public Context {
      requireNonNull(server, "server");
      requireNonNull(store, "store");
      requireNonNull(rootCaCertificate, "rootCaCertificate");
    }
  }

  /**
   * A server's built-in controller stopped for whoever runs it instead (see {@link
   * ApiServer#handOver}). Closing gives it back: the server starts its own again once every
   * handover of that name is closed, unless the server was closed. Idempotent, thread-safe.
   */
  public interface Handover extends AutoCloseable {
    /**
     * Starts the server's implementation of the handed-over controller for the holder of this
     * handover (a controller manager that has no implementation of its own runs the server's
     * under its own lifecycle); the holder stops it by closing the result, before it closes
     * this handover.
     *
     * @throws IllegalStateException after {@link #close()}
     */
    AutoCloseable startInstance();

    /** Gives the controller back to the server; never throws. */
    @Override
    void close();
  }

  /**
   * The controllers a server runs itself, by kube-controller-manager name, each running unless
   * handed over (see {@link ApiServer#handOver}): a handed-over controller is stopped until the
   * last handover of it is closed, then started again (it lists what it follows at start, so it
   * catches up with what happened meanwhile). Thread-safe.
   */
  static final class Slots {
    private static final org.slf4j.Logger LOG =
        org.slf4j.LoggerFactory.getLogger(BuiltinController.class);

    /** One controller: how to start it, the running instance, and how many handovers hold it. */
    private static final class Slot {
      final String name;
      final Supplier<AutoCloseable> start;
      AutoCloseable running;
      int handovers;

      Slot(String name, Supplier<AutoCloseable> start) {
        this.name = name;
        this.start = start;
      }
    }

    private final Map<String, Slot> slots = new LinkedHashMap<>();
    private boolean closed;

    /** Adds the controller {@code name} and starts it. */
    synchronized void add(String name, Supplier<AutoCloseable> start) {
      if (slots.containsKey(name)) {
        throw new IllegalStateException("two built-in controllers are named " + name);
      }
      Slot slot = new Slot(name, start);
      slots.put(name, slot);
      slot.running = start.get();
    }

    synchronized Set<String> names() {
      return Set.copyOf(slots.keySet());
    }

    /** Stops {@code name} (if it runs) until the returned handover and all others are closed. */
    Handover handOver(String name) {
      Slot slot;
      AutoCloseable stop;
      synchronized (this) {
        slot = slots.get(name);
        if (slot == null) {
          throw new IllegalArgumentException("the server runs no built-in controller named "
              + name + "; it runs " + slots.keySet());
        }
        slot.handovers++;
        stop = slot.running;
        slot.running = null;
      }
      close(slot.name, stop);
      return new Handover() {
        private boolean released;

        @Override
        public AutoCloseable startInstance() {
          synchronized (Slots.this) {
            if (released) {
              throw new IllegalStateException("the handover of " + slot.name + " was closed");
            }
          }
          return slot.start.get();
        }

        @Override
        public void close() {
          synchronized (Slots.this) {
            if (released) {
              return;
            }
            released = true;
            slot.handovers--;
            if (slot.handovers > 0 || closed || slot.running != null) {
              return;
            }
            slot.running = slot.start.get();
          }
        }
      };
    }

    /** Stops every running controller in reverse start order; later handovers start nothing. */
    void closeAll() {
      List<Slot> reversed;
      List<AutoCloseable> running = new ArrayList<>();
      synchronized (this) {
        closed = true;
        reversed = new ArrayList<>(slots.values());
        java.util.Collections.reverse(reversed);
        for (Slot s : reversed) {
          running.add(s.running);
          s.running = null;
        }
      }
      for (int i = 0; i < reversed.size(); i++) {
        close(reversed.get(i).name, running.get(i));
      }
    }

    private static void close(String name, AutoCloseable running) {
      if (running == null) {
        return;
      }
      try {
        running.close();
      } catch (Exception e) {
        LOG.warn("stopping the built-in controller {} failed", name, e);
      }
    }
  }
}
