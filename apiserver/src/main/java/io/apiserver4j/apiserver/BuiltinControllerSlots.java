/*
 * Copyright The apiserver4j authors.
 * SPDX-License-Identifier: Apache-2.0
 */
package io.apiserver4j.apiserver;

import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Set;
import java.util.function.Supplier;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * The controllers a server runs itself, by kube-controller-manager name, each running unless
 * handed over (see {@link ApiServer#handOver}): a handed-over controller is stopped until the
 * last handover of it is closed, then started again (it lists what it follows at start, so it
 * catches up with what happened meanwhile). Thread-safe.
 */
final class BuiltinControllerSlots {
  private static final Logger LOG = LoggerFactory.getLogger(BuiltinControllerSlots.class);

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
  BuiltinController.Handover handOver(String name) {
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
    return new BuiltinController.Handover() {
      private boolean released;

      @Override
      public AutoCloseable startInstance() {
        synchronized (BuiltinControllerSlots.this) {
          if (released) {
            throw new IllegalStateException("the handover of " + slot.name + " was closed");
          }
        }
        return slot.start.get();
      }

      @Override
      public void close() {
        synchronized (BuiltinControllerSlots.this) {
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
