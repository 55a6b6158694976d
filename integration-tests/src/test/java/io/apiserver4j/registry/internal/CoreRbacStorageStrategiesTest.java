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
 * kube's defaulting and validation of the kinds of core (beyond pods and workloads), rbac,
 * storage, certificates, flowcontrol and resource, from YAML tables in {@code strategies/}: each case an
 * object (and the stored object for updates) with the errors kube-apiserver reports for it
 * (none for valid objects) or the object kube's {@code SetDefaults_*} make of it. Expected
 * values come from kube's validation.go/defaults.go and their tests.
 */
class CoreRbacStorageStrategiesTest {
  private static final List<String> FILES = List.of("core.yaml", "rbac.yaml", "storage.yaml",
      "certificates.yaml", "flowcontrol.yaml", "resource.yaml");
  private static final Map<GroupVersionKind, ResourceStrategy> STRATEGIES =
      BuiltinStrategies.byKind();

  static Stream<Arguments> cases() throws IOException {
    List<Arguments> out = new ArrayList<>();
    for (String file : FILES) {
      try (InputStream in = CoreRbacStorageStrategiesTest.class.getResourceAsStream("/strategies/" + file)) {
        Value doc = Yaml.read(new String(in.readAllBytes(), StandardCharsets.UTF_8));
        for (Value c : ((io.apiserver4j.core.ListValue) doc).items()) {
          MapValue m = (MapValue) c;
          out.add(Arguments.of(file + ": " + Meta.string(m, "name"), m));
        }
      }
    }
    return out.stream();
  }

  private static ResourceStrategy strategyOf(MapValue obj) {
    String apiVersion = Meta.string(obj, "apiVersion");
    int slash = apiVersion.indexOf('/');
    GroupVersionKind gvk = new GroupVersionKind(slash < 0 ? "" : apiVersion.substring(0, slash),
        apiVersion.substring(slash + 1), Meta.string(obj, "kind"));
    assertThat(STRATEGIES).as("strategy of %s", gvk).containsKey(gvk);
    return STRATEGIES.get(gvk);
  }

  @ParameterizedTest(name = "{0}")
  @MethodSource("cases")
  void behavesAsKube(String name, MapValue c) {
    MapValue object = (MapValue) c.getOrNull("object");
    ResourceStrategy strategy = strategyOf(object);
    MapValue defaulted = strategy.defaulter().apply(object);
    assertThat(strategy.defaulter().apply(defaulted)).as("defaulting is idempotent")
        .isEqualTo(defaulted);
    if (c.getOrNull("defaulted") instanceof MapValue expected) {
      assertThat(defaulted).isEqualTo(expected);
    }
    if (c.containsKey("errors")) {
      Optional<MapValue> old = c.getOrNull("old") instanceof MapValue o
          ? Optional.of(strategy.defaulter().apply(o)) : Optional.empty();
      List<String> errors = strategy.validator().validate(defaulted, old).stream()
          .map(FieldError::toString).toList();
      List<String> expected = Meta.stringList(c.getOrNull("errors"));
      assertThat(errors).containsExactlyInAnyOrderElementsOf(expected);
    }
  }
}
