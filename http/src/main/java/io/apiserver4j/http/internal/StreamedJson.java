/*
 * Copyright The apiserver4j authors.
 * SPDX-License-Identifier: Apache-2.0
 */
package io.apiserver4j.http.internal;

import com.fasterxml.jackson.core.JsonGenerator;
import io.apiserver4j.core.Json;
import io.apiserver4j.core.MapValue;
import io.apiserver4j.core.Value;
import java.io.IOException;
import java.io.OutputStream;
import java.nio.charset.StandardCharsets;
import java.util.function.IntFunction;

/** An object written as compact JSON with one of its arrays produced element by element. */
final class StreamedJson {
  private StreamedJson() {}

  /**
   * Writes {@code shell}, byte for byte {@link Json#write} of it with {@code key}'s value
   * replaced by the array of the {@code size} elements, each made only when it is written.
   * Does not close or flush {@code out}.
   */
  static void write(MapValue shell, String key, int size, IntFunction<Value> element,
      OutputStream out) throws IOException {
    out.write('{');
    for (int m = 0; m < shell.size(); m++) {
      if (m > 0) {
        out.write(',');
      }
      String k = shell.keyAt(m);
      out.write(Json.quote(k).getBytes(StandardCharsets.UTF_8));
      out.write(':');
      if (k.equals(key)) {
        out.write('[');
        for (int i = 0; i < size; i++) {
          if (i > 0) {
            out.write(',');
          }
          writeValue(element.apply(i), out);
        }
        out.write(']');
      } else {
        writeValue(shell.valueAt(m), out);
      }
    }
    out.write('}');
  }

  private static void writeValue(Value v, OutputStream out) throws IOException {
    try (JsonGenerator g = Json.generator(out)) {
      Json.writeValue(g, v);
    }
  }
}
