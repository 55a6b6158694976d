/*
 * Copyright The apiserver4j authors.
 * SPDX-License-Identifier: Apache-2.0
 */
package io.apiserver4j.kubeapi.internal;

import io.apiserver4j.core.DecodeLimits;
import io.apiserver4j.core.Json;
import io.apiserver4j.core.MapValue;
import java.nio.charset.StandardCharsets;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.Collections;
import java.util.HashMap;
import java.util.List;
import java.util.Map;

/**
 * The SMD type definitions of one release as the generator writes them
 * ({@code schema-types.jsonl.gz}): one compact JSON object per line, its {@code name} first.
 * Indexed by scanning for line ends, without parsing; a definition is parsed when asked for, so
 * a server that uses a few dozen of the hundreds of types parses only those.
 *
 * <p>Immutable and thread-safe.
 */
final class TypeLines {
  private static final byte[] PREFIX = "{\"name\":\"".getBytes(StandardCharsets.US_ASCII);

  private final byte[] data;
  private final List<String> names;
  private final Map<String, Integer> index;
  private final int[] starts;
  private final int[] ends;

  private TypeLines(byte[] data, List<String> names, int[] starts, int[] ends) {
    this.data = data;
    this.names = Collections.unmodifiableList(names);
    this.starts = starts;
    this.ends = ends;
    Map<String, Integer> m = new HashMap<>(names.size() * 2);
    for (int i = 0; i < names.size(); i++) {
      m.put(names.get(i), i);
    }
    this.index = m;
  }

  /**
   * Indexes {@code data}.
   *
   * @throws IllegalStateException when a line does not start with a name
   */
  static TypeLines index(byte[] data, String resource) {
    List<String> names = new ArrayList<>(1024);
    int[] starts = new int[1024];
    int[] ends = new int[1024];
    int n = 0;
    int at = 0;
    while (at < data.length) {
      int end = at;
      while (end < data.length && data[end] != '\n') {
        end++;
      }
      if (end > at) {
        if (n == starts.length) {
          starts = Arrays.copyOf(starts, n * 2);
          ends = Arrays.copyOf(ends, n * 2);
        }
        names.add(name(data, at, end, resource, n));
        starts[n] = at;
        ends[n] = end;
        n++;
      }
      at = end + 1;
    }
    return new TypeLines(data, names, starts, ends);
  }

  // the generator writes names that need no escaping, right after the prefix
  private static String name(byte[] data, int start, int end, String resource, int line) {
    int from = start + PREFIX.length;
    boolean prefixed = from < end
        && Arrays.equals(data, start, from, PREFIX, 0, PREFIX.length);
    int to = from;
    while (prefixed && to < end && data[to] != '"') {
      to++;
    }
    if (!prefixed || to == end || to == from) {
      throw new IllegalStateException(resource + ": line " + (line + 1)
          + " does not start with a type name");
    }
    return new String(data, from, to - from, StandardCharsets.UTF_8);
  }

  /** The type names, in file order. */
  List<String> names() {
    return names;
  }

  /** The parsed definition of type {@code name}; null when there is none. */
  MapValue definition(String name, DecodeLimits limits) {
    Integer i = index.get(name);
    if (i == null) {
      return null;
    }
    return (MapValue) Json.read(Arrays.copyOfRange(data, starts[i], ends[i]), limits);
  }
}
