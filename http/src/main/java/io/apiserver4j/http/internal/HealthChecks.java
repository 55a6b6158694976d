/*
 * Copyright The apiserver4j authors.
 * SPDX-License-Identifier: Apache-2.0
 */
package io.apiserver4j.http.internal;

import java.util.ArrayList;
import java.util.LinkedHashSet;
import java.util.List;
import java.util.Optional;
import java.util.Set;
import java.util.concurrent.atomic.AtomicBoolean;
import java.util.function.BooleanSupplier;
import java.util.function.Supplier;
import org.eclipse.jetty.util.Fields;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * {@code /livez}, {@code /readyz} and {@code /healthz} as kube-apiserver serves them: named
 * checks ({@code ping}, {@code log}, {@code etcd}; for readiness also {@code etcd-readiness} and
 * {@code shutdown}), each also at {@code /<endpoint>/<check>}; {@code ?verbose} lists them as
 * {@code [+]name ok}, {@code ?exclude=name} skips one. A failing check makes the endpoint answer
 * 500 with every line and {@code [-]name failed: reason withheld}; the reason itself is logged,
 * and shown only at the check's own path. The storage checks ask the {@link Backend}, which
 * asks the store (etcd's health read).
 */
final class HealthChecks {
  private static final Logger LOG = LoggerFactory.getLogger(HealthChecks.class);
  private static final AtomicBoolean LAST_FAILED = new AtomicBoolean();

  private record Check(String name, Supplier<Optional<String>> probe) {}

  private final Backend backend;
  private final BooleanSupplier shuttingDown;

  HealthChecks(Backend backend, BooleanSupplier shuttingDown) {
    this.backend = backend;
    this.shuttingDown = shuttingDown;
  }

  private List<Check> checks(String endpoint) {
    // one storage probe per request, shared by the checks that need it
    Supplier<Optional<String>> storage = new Supplier<>() {
      private Optional<String> result;

      @Override
      public Optional<String> get() {
        if (result == null) {
          result = backend.storageCheck();
        }
        return result;
      }
    };
    List<Check> checks = new ArrayList<>();
    checks.add(new Check("ping", Optional::empty));
    checks.add(new Check("log", Optional::empty));
    checks.add(new Check("etcd", storage));
    if (endpoint.equals("readyz")) {
      checks.add(new Check("etcd-readiness", storage));
      checks.add(new Check("shutdown", () -> shuttingDown.getAsBoolean()
          ? Optional.of("process is shutting down") : Optional.empty()));
    }
    return checks;
  }

  /** Answers {@code path} ({@code /readyz}, {@code /readyz/etcd}, ...). */
  void serve(Exchange ex, String path, Fields query) {
    int slash = path.indexOf('/', 1);
    String endpoint = path.substring(1, slash > 0 ? slash : path.length());
    List<Check> checks = checks(endpoint);
    if (slash > 0) {
      String name = path.substring(slash + 1);
      Optional<Check> check = checks.stream().filter(c -> c.name().equals(name)).findFirst();
      if (check.isEmpty()) {
        ex.sendText(404, "404 page not found\n");
        return;
      }
      Optional<String> failure = check.get().probe().get();
      if (failure.isPresent()) {
        ex.sendText(500, "internal server error: " + failure.get() + "\n");
      } else {
        ex.sendText(200, "ok");
      }
      return;
    }
    Set<String> excluded = new LinkedHashSet<>();
    for (String v : query.getValuesOrEmpty("exclude")) {
      excluded.add(v);
    }
    StringBuilder lines = new StringBuilder();
    List<String> failed = new ArrayList<>();
    for (Check c : checks) {
      if (excluded.remove(c.name())) {
        lines.append("[+]").append(c.name()).append(" excluded: ok\n");
        continue;
      }
      Optional<String> failure = c.probe().get();
      if (failure.isPresent()) {
        failed.add(c.name() + ": " + failure.get());
        lines.append("[-]").append(c.name()).append(" failed: reason withheld\n");
      } else {
        lines.append("[+]").append(c.name()).append(" ok\n");
      }
    }
    if (!excluded.isEmpty()) {
      lines.append("warn: some health checks cannot be excluded: no matches for ");
      boolean first = true;
      for (String e : excluded) {
        lines.append(first ? "" : ",").append('"').append(e).append('"');
        first = false;
      }
      lines.append('\n');
    }
    if (!failed.isEmpty()) {
      if (!LAST_FAILED.getAndSet(true)) {
        LOG.warn("{} check failed: {}", endpoint, String.join("; ", failed));
      }
      ex.sendText(500, lines + endpoint + " check failed\n");
      return;
    }
    if (LAST_FAILED.getAndSet(false)) {
      LOG.info("{} check passes again", endpoint);
    }
    if (query.get("verbose") != null) {
      ex.sendText(200, lines + endpoint + " check passed\n");
    } else {
      ex.sendText(200, "ok");
    }
  }
}
