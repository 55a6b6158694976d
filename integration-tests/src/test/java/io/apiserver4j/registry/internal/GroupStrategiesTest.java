/*
 * Copyright The apiserver4j authors.
 * SPDX-License-Identifier: Apache-2.0
 */
package io.apiserver4j.registry.internal;

import static org.assertj.core.api.Assertions.assertThat;

import io.apiserver4j.apiserver.ResourceStrategy;
import io.apiserver4j.core.errors.FieldError;
import io.apiserver4j.core.GroupVersionKind;
import io.apiserver4j.core.MapValue;
import io.apiserver4j.core.Meta;
import io.apiserver4j.core.Value;
import io.apiserver4j.core.Yaml;
import java.io.IOException;
import java.io.InputStream;
import java.nio.charset.StandardCharsets;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import java.util.stream.Stream;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.Arguments;
import org.junit.jupiter.params.provider.MethodSource;

/**
 * The defaulting and validation of the networking, policy, autoscaling, coordination,
 * scheduling, node, discovery and events.k8s.io kinds, table-driven from
 * {@code groups/*.yaml}: each case names a kind, an object (and the stored object for updates),
 * the object kube's defaulting makes of it ({@code defaulted}) and the errors kube's validation
 * reports for the defaulted object ({@code errors}, formatted as kube's {@code field.Error}).
 * The expected values are taken from kube's validation sources and tests.
 */
class GroupStrategiesTest {
  private static final Map<GroupVersionKind, ResourceStrategy> STRATEGIES =
      BuiltinStrategies.byKind();

  static Stream<Arguments> cases() throws IOException {
    List<Arguments> out = new ArrayList<>();
    for (String group : List.of("networking", "policy", "autoscaling", "coordination",
        "scheduling", "node", "discovery", "events")) {
      String resource = "/groups/" + group + ".yaml";
      try (InputStream in = GroupStrategiesTest.class.getResourceAsStream(resource)) {
        assertThat(in).as(resource).isNotNull();
        Value doc = Yaml.read(new String(in.readAllBytes(), StandardCharsets.UTF_8));
        for (Value c : ((io.apiserver4j.core.ListValue) doc).items()) {
          MapValue m = (MapValue) c;
          out.add(Arguments.of(group + ": " + Meta.string(m, "name"), m));
        }
      }
    }
    return out.stream();
  }

  @ParameterizedTest(name = "{0}")
  @MethodSource("cases")
  void defaultsAndValidatesAsKube(String name, MapValue c) {
    String kind = Meta.string(c, "kind");
    int slash = kind.lastIndexOf('/');
    String[] gv = kind.substring(0, slash).split("/");
    GroupVersionKind gvk = new GroupVersionKind(gv[0], gv[1], kind.substring(slash + 1));
    ResourceStrategy strategy = STRATEGIES.get(gvk);
    assertThat(strategy).as(kind).isNotNull();

    MapValue defaulted = strategy.defaulter().apply((MapValue) c.getOrNull("object"));
    if (c.getOrNull("defaulted") != null) {
      assertThat(defaulted).isEqualTo(c.getOrNull("defaulted"));
      // kube's defaulting is idempotent: it runs again on every patch and apply result
      assertThat(strategy.defaulter().apply(defaulted)).isEqualTo(defaulted);
    }
    if (c.getOrNull("errors") != null) {
      Optional<MapValue> old = Optional.ofNullable((MapValue) c.getOrNull("old"))
          .map(o -> strategy.defaulter().apply(o));
      List<String> want = Meta.stringList(c.getOrNull("errors"));
      List<FieldError> got = strategy.validator().validate(defaulted, old);
      List<String> errors = new ArrayList<>();
      for (int i = 0; i < got.size(); i++) {
        FieldError e = got.get(i);
        // "~type|field|detail": kube prints the value as a Go struct with pointer addresses
        boolean loose = i < want.size() && want.get(i).startsWith("~");
        errors.add(loose ? "~" + e.toCause().type().replace("FieldValueInvalid", "Invalid value")
            + "|" + e.field() + "|" + e.detail() : e.toString());
      }
      assertThat(errors).containsExactlyElementsOf(want);
    }
  }
}
