/*
 * Copyright The apiserver4j authors.
 * SPDX-License-Identifier: Apache-2.0
 */
package io.apiserver4j.examples;

import static java.util.Objects.requireNonNull;

import io.apiserver4j.core.ListValue;
import io.apiserver4j.core.MapValue;
import io.apiserver4j.core.StringValue;
import io.apiserver4j.core.Value;
import io.apiserver4j.fieldpath.FieldPath;
import io.apiserver4j.fieldpath.FieldSet;
import io.apiserver4j.fieldpath.ManagedFields;
import io.apiserver4j.fieldpath.ManagedFieldsEntry;
import java.util.ArrayList;
import java.util.List;

/**
 * Renders who owns which field of an object, from its {@code metadata.managedFields}: one row per
 * owned path and owner, in path order (a field before the fields below it), with the owner's
 * manager, operation, API version, subresource and time, in aligned columns. Only recorded
 * ownership is shown; fields nobody owns are not listed. Stateless and thread-safe.
 */
public final class BlameFormatter {
  private static final String NONE = "-";
  private static final List<String> HEADER =
      List.of("FIELD", "MANAGER", "OPERATION", "APIVERSION", "SUBRESOURCE", "TIME");

  /** One row of the table. */
  public record Row(FieldPath path, ManagedFieldsEntry owner) {
    public Row {
      requireNonNull(path, "path");
      requireNonNull(owner, "owner");
    }
  }

  /**
   * The ownership rows of {@code object}: every path in any entry's field set, once per entry
   * that owns it, sorted by path and then by the entries' encoding order.
   *
   * @throws io.apiserver4j.fieldpath.ManagedFieldsException when the managed fields are invalid
   */
  public List<Row> rows(MapValue object) {
    requireNonNull(object, "object");
    List<ManagedFieldsEntry> entries = ManagedFields.sorted(ManagedFields.decode(managedFields(object)));
    FieldSet all = FieldSet.empty();
    for (ManagedFieldsEntry e : entries) {
      all = all.union(e.fields());
    }
    List<Row> rows = new ArrayList<>();
    for (FieldPath p : all) {
      for (ManagedFieldsEntry e : entries) {
        if (e.fields().contains(p)) {
          rows.add(new Row(p, e));
        }
      }
    }
    return rows;
  }

  /** The report for one object: a title line, then the table (or a note that nothing is owned). */
  public String format(MapValue object) {
    requireNonNull(object, "object");
    StringBuilder sb = new StringBuilder();
    sb.append(title(object)).append('\n');
    List<Row> rows = rows(object);
    if (rows.isEmpty()) {
      sb.append("  (no managed fields)\n");
      return sb.toString();
    }
    List<List<String>> cells = new ArrayList<>();
    cells.add(HEADER);
    for (Row r : rows) {
      ManagedFieldsEntry e = r.owner();
      cells.add(List.of(r.path().toString(), e.manager().isEmpty() ? "\"\"" : e.manager(),
          e.operation().wireName(), e.apiVersion(),
          e.subresource().isEmpty() ? NONE : e.subresource(),
          e.time().map(ManagedFields::formatTime).orElse(NONE)));
    }
    int[] widths = new int[HEADER.size()];
    for (List<String> row : cells) {
      for (int i = 0; i < row.size(); i++) {
        widths[i] = Math.max(widths[i], displayWidth(row.get(i)));
      }
    }
    for (List<String> row : cells) {
      StringBuilder line = new StringBuilder("  ");
      for (int i = 0; i < row.size(); i++) {
        String cell = row.get(i);
        line.append(cell);
        if (i < row.size() - 1) {
          line.append(" ".repeat(widths[i] - displayWidth(cell) + 2));
        }
      }
      sb.append(line.toString().stripTrailing()).append('\n');
    }
    return sb.toString();
  }

  private static int displayWidth(String s) {
    return s.codePointCount(0, s.length());
  }

  private static Value managedFields(MapValue object) {
    Value meta = object.getOrNull("metadata");
    if (meta instanceof MapValue m) {
      Value mf = m.getOrNull("managedFields");
      return mf == null ? Value.nullValue() : mf;
    }
    return Value.nullValue();
  }

  /** {@code Kind namespace/name (apiVersion)}, with whatever parts the object has. */
  static String title(MapValue object) {
    String kind = text(object, "kind");
    String apiVersion = text(object, "apiVersion");
    String name = "";
    String namespace = "";
    if (object.getOrNull("metadata") instanceof MapValue m) {
      name = text(m, "name");
      namespace = text(m, "namespace");
    }
    StringBuilder sb = new StringBuilder(kind.isEmpty() ? "(no kind)" : kind).append(' ');
    if (!namespace.isEmpty()) {
      sb.append(namespace).append('/');
    }
    sb.append(name.isEmpty() ? "(no name)" : name);
    if (!apiVersion.isEmpty()) {
      sb.append(" (").append(apiVersion).append(')');
    }
    return sb.toString();
  }

  private static String text(MapValue m, String key) {
    return m.getOrNull(key) instanceof StringValue s ? s.value() : "";
  }

  /**
   * The objects in a document: the document itself, or the {@code items} of a list
   * ({@code kind: List} or any {@code *List} kind with an {@code items} list).
   */
  public static List<MapValue> objects(Value document) {
    requireNonNull(document, "document");
    if (!(document instanceof MapValue m)) {
      throw new IllegalArgumentException("expected an object, found " + document.kind());
    }
    if (text(m, "kind").endsWith("List") && m.getOrNull("items") instanceof ListValue items) {
      List<MapValue> out = new ArrayList<>();
      for (int i = 0; i < items.size(); i++) {
        if (!(items.get(i) instanceof MapValue item)) {
          throw new IllegalArgumentException("items[" + i + "] is not an object but "
              + items.get(i).kind());
        }
        out.add(item);
      }
      return out;
    }
    return List.of(m);
  }
}
