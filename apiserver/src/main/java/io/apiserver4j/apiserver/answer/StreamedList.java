/*
 * Copyright The apiserver4j authors.
 * SPDX-License-Identifier: Apache-2.0
 */
package io.apiserver4j.apiserver.answer;

import static java.util.Objects.requireNonNull;

import com.fasterxml.jackson.core.JsonGenerator;
import io.apiserver4j.core.Json;
import io.apiserver4j.core.ListValue;
import io.apiserver4j.core.MapValue;
import io.apiserver4j.storage.StoredObject;
import java.io.IOException;
import java.io.OutputStream;
import java.io.UncheckedIOException;
import java.nio.charset.StandardCharsets;
import java.util.List;
import java.util.Optional;
import java.util.function.UnaryOperator;

/**
 * A list answer kept as its stored objects, each turned into a list item only when written: kube
 * 1.33+ streams JSON lists item by item, so a large list costs little heap beyond the objects
 * the store holds anyway and starts answering at once. Immutable.
 */
public final class StreamedList {
  private final MapValue shell;
  private final List<StoredObject> items;
  private final UnaryOperator<MapValue> toItem;
  private final Optional<StoredObject.TypeMeta> asStored;

  private StreamedList(MapValue shell, List<StoredObject> items, UnaryOperator<MapValue> toItem,
      Optional<StoredObject.TypeMeta> asStored) {
    this.shell = requireNonNull(shell, "shell");
    if (!(shell.getOrNull("items") instanceof ListValue l) || !l.isEmpty()) {
      throw new IllegalArgumentException("the list shell must have empty items");
    }
    this.items = List.copyOf(items);
    this.toItem = requireNonNull(toItem, "toItem");
    this.asStored = requireNonNull(asStored, "asStored");
  }

  /**
   * @param shell the list object with an empty {@code items}, whose place it keeps
   * @param items the stored objects, in list order
   * @param toItem turns a stored object into its list item
   * @param asStored present when an item is its stored object as is, but for the type meta
   *     ({@link StoredObject#writeJson} then writes it without decoding)
   */
  public static StreamedList of(MapValue shell, List<StoredObject> items,
      UnaryOperator<MapValue> toItem, Optional<StoredObject.TypeMeta> asStored) {
    return new StreamedList(shell, items, toItem, asStored);
  }

  /** The list object without its items. */
  public MapValue shell() {
    return shell;
  }

  public int size() {
    return items.size();
  }

  /** Item {@code i} as the list holds it. */
  public MapValue item(int i) {
    return toItem.apply(items.get(i).object());
  }

  /** The whole list object. */
  public MapValue toValue() {
    ListValue.Builder b = ListValue.builder(items.size());
    for (int i = 0; i < items.size(); i++) {
      b.add(item(i));
    }
    return shell.with("items", b.build());
  }

  /**
   * Writes the list as compact JSON, byte for byte {@code Json.write(toValue())}, one item at a
   * time. Does not close or flush {@code out}.
   */
  public void writeJson(OutputStream out) {
    try {
      out.write('{');
      for (int m = 0; m < shell.size(); m++) {
        if (m > 0) {
          out.write(',');
        }
        String key = shell.keyAt(m);
        out.write(Json.quote(key).getBytes(StandardCharsets.UTF_8));
        out.write(':');
        if (key.equals("items")) {
          writeItems(out);
        } else {
          try (JsonGenerator g = Json.generator(out)) {
            Json.writeValue(g, shell.valueAt(m));
          }
        }
      }
      out.write('}');
    } catch (IOException e) {
      throw new UncheckedIOException(e);
    }
  }

  private void writeItems(OutputStream out) throws IOException {
    out.write('[');
    for (int i = 0; i < items.size(); i++) {
      if (i > 0) {
        out.write(',');
      }
      if (asStored.isPresent()) {
        items.get(i).writeJson(out, asStored.get());
      } else {
        try (JsonGenerator g = Json.generator(out)) {
          Json.writeValue(g, item(i));
        }
      }
    }
    out.write(']');
  }
}
