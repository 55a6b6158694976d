/*
 * Copyright The apiserver4j authors.
 * SPDX-License-Identifier: Apache-2.0
 */
package io.apiserver4j.cel;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import io.apiserver4j.core.Json;
import io.apiserver4j.core.ListValue;
import io.apiserver4j.core.MapValue;
import io.apiserver4j.core.StringValue;
import io.apiserver4j.core.Value;
import io.apiserver4j.core.Yaml;
import java.io.IOException;
import java.io.InputStream;
import java.nio.charset.StandardCharsets;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.regex.Pattern;
import java.util.stream.Stream;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.Arguments;
import org.junit.jupiter.params.provider.MethodSource;

/** Kubernetes' own CEL library expectations (see library-cases.yaml). */
class KubeLibraryTest {

  static Stream<Arguments> cases() throws IOException {
    try (InputStream in = KubeLibraryTest.class.getResourceAsStream("library-cases.yaml")) {
      MapValue doc = (MapValue) Yaml.read(new String(in.readAllBytes(), StandardCharsets.UTF_8));
      List<Arguments> out = new ArrayList<>();
      for (Value c : ((ListValue) doc.getOrNull("cases")).items()) {
        MapValue m = (MapValue) c;
        out.add(Arguments.of(str(m, "library") + ": " + str(m, "expression"), m));
      }
      return out.stream();
    }
  }

  private static String str(MapValue m, String key) {
    return m.getOrNull(key) instanceof StringValue s ? s.value() : "";
  }

  @ParameterizedTest(name = "{0}")
  @MethodSource("cases")
  void evaluatesAsKubernetes(String name, MapValue c) {
    CelProgram p = CelProgram.compile(str(c, "expression"), List.of());
    if (c.containsKey("error")) {
      String expected = str(c, "error");
      assertThatThrownBy(() -> p.evaluate(Map.of()))
          .isInstanceOf(CelException.class)
          .satisfies(e -> assertThat(e.getMessage().contains(expected)
              || Pattern.compile(expected).matcher(e.getMessage()).find())
              .as("%s contains %s", e.getMessage(), expected).isTrue());
    } else {
      assertThat(Json.write(p.evaluate(Map.of())))
          .isEqualTo(Json.write(Json.read(str(c, "result"))));
    }
  }
}
