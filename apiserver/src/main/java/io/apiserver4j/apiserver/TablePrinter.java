/*
 * Copyright The apiserver4j authors.
 * SPDX-License-Identifier: Apache-2.0
 */
package io.apiserver4j.apiserver;

import static java.util.Objects.requireNonNull;

import io.apiserver4j.core.MapValue;
import io.apiserver4j.core.Value;
import java.time.Instant;
import java.util.List;
import java.util.function.BiFunction;

/**
 * How a resource prints as a {@code meta.k8s.io Table} ({@code kubectl get}): its column
 * definitions and the cells of one object, as kube-apiserver's table convertors (for built-in
 * kinds, {@code pkg/printers/internalversion}) make them. A resource without a printer gets
 * kube's default: {@code Name} and {@code Created At}.
 *
 * <p>Implementations are immutable and thread-safe.
 */
public interface TablePrinter {

  /**
   * One column, kube's {@code TableColumnDefinition}.
   *
   * @param priority 0 for the columns {@code kubectl get} shows, 1 for those of {@code -o wide}
   */
  record Column(String name, String type, String format, String description, int priority) {
    public Column {
      requireNonNull(name, "name");
      requireNonNull(type, "type");
      requireNonNull(format, "format");
      requireNonNull(description, "description");
    }
  }

  /** The columns, in order. */
  List<Column> columns();

  /** The cells of {@code object}, one per column; {@code now} is what ages are relative to. */
  List<Value> cells(MapValue object, Instant now);

  /** A printer of these columns whose cells {@code cells} computes. */
  static TablePrinter of(List<Column> columns, BiFunction<MapValue, Instant, List<Value>> cells) {
    List<Column> frozen = List.copyOf(columns);
    requireNonNull(cells, "cells");
    return new TablePrinter() {
      @Override
      public List<Column> columns() {
        return frozen;
      }

      @Override
      public List<Value> cells(MapValue object, Instant now) {
        return cells.apply(object, now);
      }
    };
  }

  /**
   * The cells of a row from Java values, as a printer returns them: strings, longs, ints and
   * booleans; a null is a JSON null (kube's {@code <none>} cells are strings).
   */
  static List<Value> row(Object... cells) {
    List<Value> out = new java.util.ArrayList<>(cells.length);
    for (Object c : cells) {
      if (c instanceof Value v) {
        out.add(v);
      } else if (c instanceof String str) {
        out.add(Value.of(str));
      } else if (c instanceof Long l) {
        out.add(Value.of(l));
      } else if (c instanceof Integer i) {
        out.add(Value.of((long) i));
      } else if (c instanceof Boolean b) {
        out.add(Value.of(b));
      } else {
        out.add(Value.nullValue());
      }
    }
    return out;
  }
}
