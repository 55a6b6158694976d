/*
 * Copyright The apiserver4j authors.
 * SPDX-License-Identifier: Apache-2.0
 */
package io.apiserver4j.merge;

import static org.assertj.core.api.Assertions.assertThat;

import io.apiserver4j.core.ListValue;
import io.apiserver4j.core.MapValue;
import io.apiserver4j.core.StringValue;
import io.apiserver4j.core.Value;
import io.apiserver4j.core.Yaml;
import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.stream.Stream;
import org.junit.jupiter.api.Test;

/** Every schema text in the conformance fixtures loads (the loader is strict, SMD's is lenient). */
class FixtureSchemasLoadTest {

  @Test
  void everyFixtureSchemaLoads() throws IOException {
    List<String> schemas = new ArrayList<>();
    for (String dir : List.of("conformance/merge", "conformance/typed")) {
      try (Stream<Path> files = Files.list(SharedFiles.root().resolve(dir))) {
        for (Path f : files.filter(p -> p.toString().endsWith(".yaml")).toList()) {
          collect(Yaml.read(Files.readString(f)), schemas);
        }
      }
    }
    assertThat(schemas).hasSizeGreaterThan(50);
    for (String s : schemas) {
      assertThat(Schema.fromSmdYaml(s).types()).isNotEmpty();
    }
  }

  private static void collect(Value v, List<String> out) {
    if (v instanceof MapValue m) {
      for (int i = 0; i < m.size(); i++) {
        if (m.keyAt(i).equals("schema") && m.valueAt(i) instanceof StringValue s) {
          out.add(s.value());
        } else {
          collect(m.valueAt(i), out);
        }
      }
    } else if (v instanceof ListValue l) {
      l.items().forEach(x -> collect(x, out));
    }
  }
}
