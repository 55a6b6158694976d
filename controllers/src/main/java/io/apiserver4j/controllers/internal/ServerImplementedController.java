/*
 * Copyright The apiserver4j authors.
 * SPDX-License-Identifier: Apache-2.0
 */
package io.apiserver4j.controllers.internal;

import java.util.function.Function;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * A kube-controller-manager controller whose one implementation is the server's own (it ships
 * with an admission plugin of the built-in API, so a server without a manager runs it too): the
 * manager takes it over from the server and runs the server's implementation under its own
 * lifecycle (its {@code --controllers} selection, its leader election). Nothing runs if the
 * server has no such controller (its admission plugin is off). Its work is not seen by the
 * manager's quiescence wait.
 */
public final class ServerImplementedController implements Controller {
  private static final Logger LOG = LoggerFactory.getLogger(ServerImplementedController.class);

  private final ControllerContext context;
  private final String name;
  private AutoCloseable running;

  private ServerImplementedController(ControllerContext context, String name) {
    this.context = context;
    this.name = name;
  }

  /** The factory of the controller the server knows as {@code name}. */
  public static Function<ControllerContext, Controller> of(String name) {
    return context -> new ServerImplementedController(context, name);
  }

  @Override
  public synchronized void start() {
    running = context.handover(name).map(h -> h.startInstance()).orElse(null);
  }

  @Override
  public synchronized void close() {
    if (running == null) {
      return;
    }
    try {
      running.close();
    } catch (Exception e) {
      LOG.error("stopping the server's {} controller failed", name, e);
    }
    running = null;
  }
}
