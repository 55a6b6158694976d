/*
 * Copyright The apiserver4j authors.
 * SPDX-License-Identifier: Apache-2.0
 */
package io.apiserver4j.benchmarks;

import io.apiserver4j.core.ListValue;
import io.apiserver4j.core.MapValue;
import io.apiserver4j.core.StringValue;
import io.apiserver4j.core.Value;
import io.apiserver4j.core.Yaml;
import io.apiserver4j.fieldpath.FieldPath;
import io.apiserver4j.fieldpath.FieldSet;
import io.apiserver4j.fieldpath.PathElement;
import java.io.IOException;
import java.io.UncheckedIOException;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.HashSet;
import java.util.List;
import java.util.Set;

/**
 * Benchmark inputs from {@code ../shared/bench} (override with {@code -Dapiserver4j.shared=DIR},
 * passed to forks with {@code -jvmArgs}). Built once per trial in {@code @Setup}.
 */
final class BenchInputs {
  private BenchInputs() {}

  static Path sharedDir() {
    Path p = Path.of(System.getProperty("apiserver4j.shared", "../shared"));
    if (!Files.isDirectory(p.resolve("bench"))) {
      throw new IllegalStateException("benchmark inputs not found under " + p.toAbsolutePath()
          + "/bench; run from the repository root or pass -jvmArgs -Dapiserver4j.shared=DIR");
    }
    return p;
  }

  /** The object in {@code bench/<name>.yaml}. */
  static MapValue object(String name) {
    return (MapValue) Yaml.read(text(name + ".yaml"));
  }

  /** The text of {@code bench/<file>}. */
  static String text(String file) {
    Path p = sharedDir().resolve("bench").resolve(file);
    try {
      return Files.readString(p, StandardCharsets.UTF_8);
    } catch (IOException e) {
      throw new UncheckedIOException("cannot read " + p, e);
    }
  }

  /**
   * A realistic managed set for {@code object}, shaped like what kube-apiserver records: every
   * scalar leaf; lists of maps whose items all have distinct string {@code name}s keyed
   * ({@code k:{"name":...}}, the item itself owned as well); other lists of maps by index; lists
   * of unique scalars as sets ({@code v:}); other scalar lists, empty maps and empty lists as
   * atomic leaves.
   */
  static FieldSet fieldSet(Value object) {
    FieldSet.Builder b = FieldSet.builder();
    walk(object, FieldPath.empty(), b);
    return b.build();
  }

  private static void walk(Value v, FieldPath path, FieldSet.Builder b) {
    if (v instanceof MapValue m && m.size() > 0) {
      for (int i = 0; i < m.size(); i++) {
        walk(m.valueAt(i), path.append(PathElement.field(m.keyAt(i))), b);
      }
    } else if (v instanceof ListValue l && l.size() > 0) {
      if (keyedByName(l)) {
        for (Value item : l.items()) {
          FieldPath p = path.append(PathElement.key("name", ((MapValue) item).getOrNull("name")));
          b.insert(p);
          walk(item, p, b);
        }
      } else if (l.get(0) instanceof MapValue) {
        for (int i = 0; i < l.size(); i++) {
          walk(l.get(i), path.append(PathElement.index(i)), b);
        }
      } else if (uniqueScalars(l)) {
        for (Value item : l.items()) {
          b.insert(path.append(PathElement.value(item)));
        }
      } else {
        b.insert(path);
      }
    } else {
      b.insert(path);
    }
  }

  private static boolean keyedByName(ListValue l) {
    Set<Value> seen = new HashSet<>();
    for (Value item : l.items()) {
      if (!(item instanceof MapValue m) || !(m.getOrNull("name") instanceof StringValue name)
          || !seen.add(name)) {
        return false;
      }
    }
    return true;
  }

  private static boolean uniqueScalars(ListValue l) {
    Set<Value> seen = new HashSet<>();
    for (Value item : l.items()) {
      if (item instanceof MapValue || item instanceof ListValue || !seen.add(item)) {
        return false;
      }
    }
    return true;
  }

  /**
   * A second manager's set overlapping {@code full}: every other path of it, plus paths it does
   * not have, so union, intersection and difference all do real work.
   */
  static FieldSet overlapping(FieldSet full) {
    FieldSet.Builder b = FieldSet.builder();
    List<FieldPath> paths = full.paths();
    for (int i = 0; i < paths.size(); i += 2) {
      b.insert(paths.get(i));
    }
    for (int i = 0; i < Math.max(1, paths.size() / 10); i++) {
      b.insert(paths.get(i * 10 % paths.size()).append(PathElement.field("extra" + i)));
    }
    return b.build();
  }

  /**
   * The nginx Deployment of the server-side apply documentation, as an apply body named
   * {@code name} whose annotation {@code annotation} holds {@code value}: benchmarks change the
   * value so that every apply writes.
   */
  static String deployment(String name, String annotation, long value) {
    return """
        apiVersion: apps/v1
        kind: Deployment
        metadata:
          name: %s
          labels:
            app: nginx
          annotations:
            %s: "%d"
        spec:
          replicas: 3
          selector:
            matchLabels:
              app: nginx
          template:
            metadata:
              labels:
                app: nginx
            spec:
              containers:
              - name: nginx
                image: nginx:1.14.2
                ports:
                - containerPort: 80
        """.formatted(name, annotation, value);
  }
}
