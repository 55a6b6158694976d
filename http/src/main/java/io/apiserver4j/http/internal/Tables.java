/*
 * Copyright The apiserver4j authors.
 * SPDX-License-Identifier: Apache-2.0
 */
package io.apiserver4j.http.internal;

import io.apiserver4j.apiserver.ResourceDefinition;
import io.apiserver4j.apiserver.answer.StreamedList;
import io.apiserver4j.apiserver.TablePrinter;
import io.apiserver4j.core.BooleanValue;
import io.apiserver4j.core.FloatValue;
import io.apiserver4j.core.GoDurations;
import io.apiserver4j.core.IntegerValue;
import io.apiserver4j.core.ListValue;
import io.apiserver4j.core.MapValue;
import io.apiserver4j.core.Nested;
import io.apiserver4j.core.StringValue;
import io.apiserver4j.core.Value;
import java.io.IOException;
import java.io.OutputStream;
import java.time.Duration;
import java.time.Instant;
import java.time.format.DateTimeParseException;
import java.util.ArrayList;
import java.util.List;
import java.util.function.BiFunction;

/**
 * Server-side printing ({@code as=Table}): the {@code meta.k8s.io} {@code Table} of an object or
 * list, with the columns a resource declares ({@link ResourceDefinition#printer()}: kube's for
 * the built-in kinds), a CustomResourceDefinition's {@code additionalPrinterColumns}
 * for custom resources (with the default {@code Age} column when it declares none), and
 * {@code Name}/{@code Created At} for other kinds, as kube's default table convertor.
 *
 * <p>Rows carry the object as {@code includeObject} asks: {@code None}, {@code Metadata} (the
 * default: a {@code PartialObjectMetadata}) or {@code Object}.
 */
public final class Tables {

  /** A column: kube's {@code TableColumnDefinition} plus how to compute its cell. */
  public record Column(String name, String type, String format, String description,
      int priority) {}

  /** A CRD printer column ({@code additionalPrinterColumns} entry). */
  public record PrinterColumn(String name, String type, String format, String description,
      int priority, String jsonPath) {}

  /** What rows carry as {@code object}. */
  public enum IncludeObject {
    NONE, METADATA, OBJECT;

    /**
     * @throws io.apiserver4j.core.errors.BadRequestException for an unknown value
     */
    public static IncludeObject parse(String s) {
      switch (s) {
        case "":
        case "Metadata":
          return METADATA;
        case "None":
          return NONE;
        case "Object":
          return OBJECT;
        default:
          throw io.apiserver4j.core.errors.StatusErrors.badRequest(
              "includeObject: Unsupported value: \"" + s
                  + "\": supported values: \"Metadata\", \"None\", \"Object\"");
      }
    }
  }

  private interface Printer {
    List<Column> columns();

    List<Value> cells(MapValue object, Instant now);
  }

  private final Printer printer;
  private final IncludeObject include;
  private final String metaVersion;

  private Tables(Printer printer, IncludeObject include, String metaVersion) {
    this.printer = printer;
    this.include = include;
    this.metaVersion = metaVersion;
  }

  /**
   * The table maker of a resource.
   *
   * @param printerColumns the CRD's columns for a custom resource (empty means the default Age)
   * @param metaVersion {@code v1} or {@code v1beta1}
   */
  public static Tables of(ResourceDefinition d, List<PrinterColumn> printerColumns,
      IncludeObject include, String metaVersion) {
    Printer p;
    if (d.customResource()) {
      p = customResource(printerColumns);
    } else {
      p = declared(d);
    }
    return new Tables(p, include, metaVersion);
  }

  /** The Table of one object. */
  public MapValue ofObject(MapValue object, Instant now, boolean withColumns) {
    MapValue.Builder meta = MapValue.builder();
    String rv = Nested.str(object, "metadata", "resourceVersion");
    if (!rv.isEmpty()) {
      meta.put("resourceVersion", Value.of(rv));
    }
    return table(meta.build(), List.of(object), now, withColumns);
  }

  /** The Table of a list object (its {@code items} and list metadata). */
  public MapValue ofList(MapValue list, Instant now) {
    MapValue listMeta = Nested.map(list, "metadata");
    List<MapValue> items = new ArrayList<>();
    for (Value v : Nested.list(list, "items")) {
      if (v instanceof MapValue m) {
        items.add(m);
      }
    }
    return table(listMeta, items, now, true);
  }

  /**
   * Writes the Table of a list as {@link #ofList} of the whole list would be written, byte for
   * byte, each row made when it is written (after the column definitions). Does not close or
   * flush {@code out}.
   */
  public void writeList(StreamedList list, Instant now, OutputStream out) throws IOException {
    MapValue listMeta = Nested.map(list.shell(), "metadata");
    StreamedJson.write(shell(listMeta, true), "rows", list.size(), i -> row(list.item(i), now),
        out);
  }

  private MapValue table(MapValue meta, List<MapValue> objects, Instant now,
      boolean withColumns) {
    ListValue.Builder rows = ListValue.builder(objects.size());
    for (MapValue o : objects) {
      rows.add(row(o, now));
    }
    return shell(meta, withColumns).with("rows", rows.build());
  }

  /** The table without rows ({@code rows} empty, in its place). */
  private MapValue shell(MapValue meta, boolean withColumns) {
    MapValue.Builder b = MapValue.builder()
        .put("kind", Value.of("Table"))
        .put("apiVersion", Value.of("meta.k8s.io/" + metaVersion))
        .put("metadata", meta);
    if (withColumns) {
      ListValue.Builder cols = ListValue.builder();
      for (Column c : printer.columns()) {
        cols.add(MapValue.builder()
            .put("name", Value.of(c.name()))
            .put("type", Value.of(c.type()))
            .put("format", Value.of(c.format()))
            .put("description", Value.of(c.description()))
            .put("priority", Value.of(c.priority()))
            .build());
      }
      b.put("columnDefinitions", cols.build());
    } else {
      b.put("columnDefinitions", Value.nullValue());
    }
    return b.put("rows", ListValue.empty()).build();
  }

  private MapValue row(MapValue o, Instant now) {
    MapValue.Builder row = MapValue.builder()
        .put("cells", ListValue.of(printer.cells(o, now)));
    switch (include) {
      case NONE:
        row.put("object", Value.nullValue());
        break;
      case METADATA:
        row.put("object", MapValue.builder()
            .put("kind", Value.of("PartialObjectMetadata"))
            .put("apiVersion", Value.of("meta.k8s.io/" + metaVersion))
            .put("metadata", Nested.map(o, "metadata"))
            .build());
        break;
      default:
        row.put("object", o);
    }
    return row.build();
  }

  /** The {@code PartialObjectMetadata} of an object. */
  public static MapValue partialObjectMetadata(MapValue object, String metaVersion) {
    return MapValue.builder()
        .put("kind", Value.of("PartialObjectMetadata"))
        .put("apiVersion", Value.of("meta.k8s.io/" + metaVersion))
        .put("metadata", Nested.map(object, "metadata"))
        .build();
  }

  /** The {@code PartialObjectMetadataList} of a list. */
  public static MapValue partialObjectMetadataList(MapValue list, String metaVersion) {
    ListValue.Builder items = ListValue.builder();
    for (Value v : Nested.list(list, "items")) {
      items.add(partialObjectMetadata((MapValue) v, metaVersion));
    }
    return MapValue.builder()
        .put("kind", Value.of("PartialObjectMetadataList"))
        .put("apiVersion", Value.of("meta.k8s.io/" + metaVersion))
        .put("metadata", Nested.map(list, "metadata"))
        .put("items", items.build())
        .build();
  }

  /**
   * Writes the {@code PartialObjectMetadataList} of a list as {@link #partialObjectMetadataList}
   * of the whole list would be written, byte for byte, item by item. Does not close or flush
   * {@code out}.
   */
  public static void writePartialObjectMetadataList(StreamedList list, String metaVersion,
      OutputStream out) throws IOException {
    MapValue shell = partialObjectMetadataList(list.shell(), metaVersion);
    StreamedJson.write(shell, "items", list.size(),
        i -> partialObjectMetadata(list.item(i), metaVersion), out);
  }

  // ---- printers ----------------------------------------------------------------------------

  private static final Column NAME = new Column("Name", "string", "name",
      "Name must be unique within a namespace.", 0);
  private static final Column AGE = new Column("Age", "string", "",
      "CreationTimestamp is a timestamp representing the server time when this object was"
          + " created.", 0);

  static String age(MapValue o, Instant now) {
    return since(Nested.str(o, "metadata", "creationTimestamp"), now);
  }

  private static String since(String timestamp, Instant now) {
    if (timestamp.isEmpty()) {
      return "<unknown>";
    }
    try {
      return GoDurations.human(Duration.between(Instant.parse(timestamp), now));
    } catch (DateTimeParseException e) {
      return "<invalid>";
    }
  }

  private static Printer printer(List<Column> columns,
      BiFunction<MapValue, Instant, List<Value>> cells) {
    return new Printer() {
      @Override
      public List<Column> columns() {
        return columns;
      }

      @Override
      public List<Value> cells(MapValue object, Instant now) {
        return cells.apply(object, now);
      }
    };
  }

  private static String name(MapValue o) {
    return Nested.str(o, "metadata", "name");
  }

  // A built-in resource's declared printer, or kube's default table convertor.
  private static Printer declared(ResourceDefinition d) {
    if (d.printer().isPresent()) {
      TablePrinter tp = d.printer().get();
      List<Column> columns = new ArrayList<>();
      for (TablePrinter.Column c : tp.columns()) {
        columns.add(new Column(c.name(), c.type(), c.format(), c.description(), c.priority()));
      }
      return printer(List.copyOf(columns), tp::cells);
    }
    return printer(List.of(NAME, new Column("Created At", "date", "",
            "CreationTimestamp is a timestamp representing the server time when this object"
                + " was created.", 0)),
        (o, now) -> TablePrinter.row(name(o), Nested.str(o, "metadata", "creationTimestamp")));
  }

  private static Printer customResource(List<PrinterColumn> declared) {
    List<PrinterColumn> cols = declared.isEmpty()
        ? List.of(new PrinterColumn("Age", "date", "", AGE.description(), 0,
            ".metadata.creationTimestamp"))
        : declared;
    List<Column> columns = new ArrayList<>();
    columns.add(NAME);
    List<SimpleJsonPath> paths = new ArrayList<>();
    for (PrinterColumn c : cols) {
      // kube describes a column without a description by its path
      String description = c.description().isEmpty()
          ? "Custom resource definition column (in JSONPath format): " + c.jsonPath()
          : c.description();
      columns.add(new Column(c.name(), c.type(), c.format(), description, c.priority()));
      SimpleJsonPath p;
      try {
        p = SimpleJsonPath.parse(c.jsonPath());
      } catch (IllegalArgumentException e) {
        p = null;
      }
      paths.add(p);
    }
    List<Column> frozen = List.copyOf(columns);
    return printer(frozen, (o, now) -> {
      List<Value> cells = new ArrayList<>();
      cells.add(Value.of(name(o)));
      for (int i = 0; i < cols.size(); i++) {
        SimpleJsonPath p = paths.get(i);
        List<Value> found = p == null ? List.of() : p.find(o);
        if (found.isEmpty()) {
          cells.add(Value.nullValue());
        } else {
          cells.add(cell(cols.get(i).type(), found.get(0), now));
        }
      }
      return cells;
    });
  }

  /** kube's {@code cellForJSONValue}: the cell of a printer column of the given type. */
  private static Value cell(String type, Value v, Instant now) {
    switch (type) {
      case "string":
        return Value.of(SimpleJsonPath.text(v));
      case "integer":
        if (v instanceof IntegerValue) {
          return v;
        }
        return v instanceof FloatValue f ? Value.of((long) f.value()) : Value.nullValue();
      case "number":
        if (v instanceof FloatValue) {
          return v;
        }
        return v instanceof IntegerValue i ? Value.of((double) i.value()) : Value.nullValue();
      case "boolean":
        return v instanceof BooleanValue ? v : Value.nullValue();
      case "date":
        return v instanceof StringValue s ? Value.of(since(s.value(), now)) : Value.nullValue();
      default:
        return Value.nullValue();
    }
  }
}
