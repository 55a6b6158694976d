/*
 * Copyright The apiserver4j authors.
 * SPDX-License-Identifier: Apache-2.0
 */
package io.apiserver4j.controllers.garbagecollector;

import static org.assertj.core.api.Assertions.assertThat;

import io.apiserver4j.core.MapValue;
import io.apiserver4j.core.Meta;
import io.apiserver4j.core.Nested;
import io.apiserver4j.core.NullValue;
import io.apiserver4j.core.Value;
import io.apiserver4j.core.Yaml;
import java.io.IOException;
import java.io.InputStream;
import java.nio.charset.StandardCharsets;
import java.util.ArrayList;
import java.util.List;
import java.util.stream.Stream;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.Arguments;
import org.junit.jupiter.params.provider.MethodSource;

/** kube's {@code TestGetAlternateOwnerIdentity}, from {@code alternate-owner-identity.yaml}. */
class AlternateOwnerIdentityTest {
  private static MapValue table;

  static Stream<Arguments> cases() throws IOException {
    try (InputStream in = AlternateOwnerIdentityTest.class.getResourceAsStream(
        "alternate-owner-identity.yaml")) {
      table = (MapValue) Yaml.read(new String(in.readAllBytes(), StandardCharsets.UTF_8));
    }
    return Nested.list(table, "cases").stream()
        .map(c -> Arguments.of(Nested.str(c, "name"), c));
  }

  private static ObjectReference ref(String name) {
    List<String> r = Meta.stringList(Nested.getOrNull(table, "refs", name));
    assertThat(r).as("reference %s", name).hasSize(5);
    return new ObjectReference(r.get(0), r.get(1), r.get(3), r.get(4), r.get(2));
  }

  @ParameterizedTest(name = "{0}")
  @MethodSource("cases")
  void alternate(String name, MapValue c) {
    List<Node> deps = new ArrayList<>();
    for (Value d : Nested.list(c, "deps")) {
      List<String> names = Meta.stringList(d);
      List<OwnerReference> owners = new ArrayList<>();
      for (String owner : names.subList(1, names.size())) {
        ObjectReference o = ref(owner);
        owners.add(new OwnerReference(o.apiVersion(), o.kind(), o.name(), o.uid(), null, null));
      }
      deps.add(new Node(ref(names.get(0)), owners, false));
    }
    Value expected = c.getOrNull("expected");
    ObjectReference got = GraphBuilder.alternateOwnerIdentity(deps,
        ref(Nested.str(c, "verifiedAbsent")));
    if (expected == null || expected instanceof NullValue) {
      assertThat(got).isNull();
    } else {
      assertThat(got).isEqualTo(ref(Nested.str(c, "expected")));
    }
  }
}
