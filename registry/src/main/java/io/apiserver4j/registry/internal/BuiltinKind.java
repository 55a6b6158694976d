/*
 * Copyright The apiserver4j authors.
 * SPDX-License-Identifier: Apache-2.0
 */
package io.apiserver4j.registry.internal;

import static java.util.Objects.requireNonNull;

import io.apiserver4j.apiserver.ResourceStrategy;
import io.apiserver4j.apiserver.TablePrinter;
import io.apiserver4j.core.GroupVersionKind;
import io.apiserver4j.core.MapValue;
import io.apiserver4j.core.Value;
import java.time.Instant;
import java.util.List;
import java.util.Optional;
import java.util.function.Supplier;

/**
 * A built-in kind's behaviour, declared beside the kind (its registry package): kube's strategy
 * (defaults, validation, subresources, selectable fields) and its table columns. The resource's
 * discovery facts and schema come from the generated API data, so this is all a kind adds.
 *
 * @param kind the kind, e.g. {@code apps/v1 Deployment}
 * @param strategy how the server creates, updates and deletes its objects
 * @param printer the columns of {@code kubectl get}; empty for kube's default columns
 */
public record BuiltinKind(GroupVersionKind kind, ResourceStrategy strategy,
    Optional<TablePrinter> printer) {
  /** Checks the parts. */
  public BuiltinKind {
    requireNonNull(kind, "kind");
    requireNonNull(strategy, "strategy");
    requireNonNull(printer, "printer");
  }

  /** A kind with a strategy and its own columns. */
  public static BuiltinKind of(GroupVersionKind kind, ResourceStrategy strategy,
      TablePrinter printer) {
    return new BuiltinKind(kind, strategy, Optional.of(printer));
  }

  /**
   * A kind with a strategy and its own columns, made on the first call of the printer's
   * {@link TablePrinter#columns()} or {@link TablePrinter#cells}: a printer's column
   * descriptions come from kube's OpenAPI document, which a server that is never asked for a
   * table then never reads.
   */
  public static BuiltinKind of(GroupVersionKind kind, ResourceStrategy strategy,
      Supplier<TablePrinter> printer) {
    return new BuiltinKind(kind, strategy, Optional.of(new LazyPrinter(printer)));
  }

  /** A kind with a strategy and kube's default columns. */
  public static BuiltinKind of(GroupVersionKind kind, ResourceStrategy strategy) {
    return new BuiltinKind(kind, strategy, Optional.empty());
  }

  /** The printer a supplier makes, made once, on first use; thread-safe. */
  private static final class LazyPrinter implements TablePrinter {
    private final Supplier<TablePrinter> supplier;
    private volatile TablePrinter printer;

    LazyPrinter(Supplier<TablePrinter> supplier) {
      this.supplier = requireNonNull(supplier, "printer");
    }

    private TablePrinter printer() {
      TablePrinter p = printer;
      if (p == null) {
        synchronized (this) {
          p = printer;
          if (p == null) {
            p = requireNonNull(supplier.get(), "printer");
            printer = p;
          }
        }
      }
      return p;
    }

    @Override
    public List<Column> columns() {
      return printer().columns();
    }

    @Override
    public List<Value> cells(MapValue object, Instant now) {
      return printer().cells(object, now);
    }
  }
}
