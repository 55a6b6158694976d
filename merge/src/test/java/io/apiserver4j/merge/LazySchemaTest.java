/*
 * Copyright The apiserver4j authors.
 * SPDX-License-Identifier: Apache-2.0
 */
package io.apiserver4j.merge;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import io.apiserver4j.core.ListValue;
import io.apiserver4j.core.MapValue;
import io.apiserver4j.core.StringValue;
import io.apiserver4j.core.Value;
import io.apiserver4j.core.Yaml;
import io.apiserver4j.fieldpath.FieldSet;
import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.concurrent.ConcurrentHashMap;
import java.util.concurrent.CountDownLatch;
import java.util.concurrent.ExecutorService;
import java.util.concurrent.Executors;
import java.util.concurrent.Future;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.atomic.AtomicInteger;
import org.junit.jupiter.api.Test;

/** {@link Schema#fromSmdTypes}: the same schema as the eager one, its types decoded on use. */
class LazySchemaTest {
  private static final String K8S = "bench/k8s-schema.yaml";

  /** The definitions of an SMD document by name, counting what is asked for. */
  private static final class Definitions {
    final Map<String, Value> byName = new LinkedHashMap<>();
    final Map<String, AtomicInteger> asked = new ConcurrentHashMap<>();

    Definitions(Value smd) {
      for (Value t : ((ListValue) ((MapValue) smd).getOrNull("types")).items()) {
        byName.put(((StringValue) ((MapValue) t).getOrNull("name")).value(), t);
      }
    }

    Value get(String name) {
      asked.computeIfAbsent(name, n -> new AtomicInteger()).incrementAndGet();
      return byName.get(name);
    }

    Schema schema() {
      return Schema.fromSmdTypes(new ArrayList<>(byName.keySet()), this::get);
    }
  }

  private static Value k8s() {
    return Yaml.read(SharedFiles.read(K8S));
  }

  @Test
  void decodesOnlyTheTypesUsedAndEqualsTheEagerSchema() {
    Value smd = k8s();
    Schema eager = Schema.fromSmdValue(smd);
    Definitions d = new Definitions(smd);
    Schema lazy = d.schema();

    assertThat(lazy.typeNames()).isEqualTo(eager.typeNames());
    assertThat(lazy.hashCode()).isEqualTo(eager.hashCode());
    assertThat(d.asked).isEmpty();

    assertThat(lazy.findNamedType("io.k8s.api.core.v1.Pod"))
        .isEqualTo(eager.findNamedType("io.k8s.api.core.v1.Pod"));
    assertThat(lazy.resolve(TypeRef.named("io.k8s.api.core.v1.PodSpec")))
        .isEqualTo(eager.resolve(TypeRef.named("io.k8s.api.core.v1.PodSpec")));
    assertThat(lazy.findNamedType("no.such.Type")).isEmpty();
    assertThat(d.asked.keySet())
        .containsExactlyInAnyOrder("io.k8s.api.core.v1.Pod", "io.k8s.api.core.v1.PodSpec");

    assertThat(lazy).isEqualTo(eager);
    assertThat(eager).isEqualTo(lazy);
    assertThat(lazy.types()).isEqualTo(eager.types());
    assertThat(lazy.toSmdValue()).isEqualTo(eager.toSmdValue());
    assertThat(d.asked).hasSize(eager.types().size());
    assertThat(d.asked.values()).allSatisfy(n -> assertThat(n.get()).isEqualTo(1));
  }

  @Test
  void typesValuesAsTheEagerSchemaDoes() {
    Value smd = k8s();
    Schema eager = Schema.fromSmdValue(smd);
    Schema lazy = new Definitions(smd).schema();
    MapValue pod = (MapValue) io.apiserver4j.core.Json.read("""
        {"apiVersion":"v1","kind":"Pod","metadata":{"name":"p","labels":{"a":"b"}},
         "spec":{"containers":[{"name":"c","image":"i","ports":[{"containerPort":80}]}]}}""");
    FieldSet expected = eager.type("io.k8s.api.core.v1.Pod").fromValue(pod).toFieldSet();
    assertThat(lazy.type("io.k8s.api.core.v1.Pod").fromValue(pod).toFieldSet())
        .isEqualTo(expected);
  }

  @Test
  void decodesEachTypeOnceWhateverTheThreads() throws Exception {
    Definitions d = new Definitions(k8s());
    Schema lazy = d.schema();
    int threads = 4;
    ExecutorService pool = Executors.newFixedThreadPool(threads);
    try {
      CountDownLatch start = new CountDownLatch(1);
      List<Future<?>> done = new ArrayList<>();
      for (int t = 0; t < threads; t++) {
        done.add(pool.submit(() -> {
          start.await();
          for (String name : lazy.typeNames()) {
            lazy.resolve(TypeRef.named(name)).orElseThrow();
          }
          return null;
        }));
      }
      start.countDown();
      for (Future<?> f : done) {
        f.get(60, TimeUnit.SECONDS);
      }
    } finally {
      pool.shutdownNow();
    }
    assertThat(d.asked).hasSize(lazy.typeNames().size());
    assertThat(d.asked.values()).allSatisfy(n -> assertThat(n.get()).isEqualTo(1));
  }

  @Test
  void reportsAnInvalidDefinitionWhereItIsDecodedWithItsLocation() {
    Map<String, Value> defs = Map.of(
        "good", Yaml.read("{name: good, map: {fields: [{name: x, type: {namedType: bad}}]}}"),
        "bad", Yaml.read("{name: bad, map: {elementRelationship: sideways}}"),
        "other", Yaml.read("{name: somethingElse, scalar: string}"));
    Schema s = Schema.fromSmdTypes(List.of("good", "bad", "other"), defs::get);

    assertThat(s.findNamedType("good")).isPresent();
    assertThatThrownBy(() -> s.resolve(TypeRef.named("bad")))
        .isInstanceOf(SchemaException.class)
        .hasMessageContaining("types[1] \"bad\".map.elementRelationship")
        .hasMessageContaining("sideways");
    // the same error every time, not a half-decoded type
    assertThatThrownBy(() -> s.findNamedType("bad"))
        .isInstanceOf(SchemaException.class)
        .hasMessageContaining("types[1] \"bad\"");
    assertThatThrownBy(() -> s.findNamedType("other"))
        .isInstanceOf(SchemaException.class)
        .hasMessageContaining("types[2] \"other\"")
        .hasMessageContaining("somethingElse");
    assertThatThrownBy(s::types).isInstanceOf(SchemaException.class);
    // the eager schema of the same definitions fails at load with the same location
    assertThatThrownBy(() -> Schema.fromSmdValue(Yaml.read(
        "types: [{name: good, scalar: string}, {name: bad, map: {elementRelationship: sideways}}]")))
        .isInstanceOf(SchemaException.class)
        .hasMessageContaining("types[1] \"bad\".map.elementRelationship");
  }

  @Test
  void rejectsRepeatedOrEmptyNamesAtOnce() {
    assertThatThrownBy(() -> Schema.fromSmdTypes(List.of("a", "b", "a"), n -> Value.nullValue()))
        .isInstanceOf(SchemaException.class)
        .hasMessageContaining("duplicate type name \"a\"");
    assertThatThrownBy(() -> Schema.fromSmdTypes(List.of("a", ""), n -> Value.nullValue()))
        .isInstanceOf(SchemaException.class)
        .hasMessageContaining("types[1]");
  }

  @Test
  void comparesValuesOnlyWithinOneSchemaInstance() {
    Value smd = k8s();
    Schema a = new Definitions(smd).schema();
    Schema b = new Definitions(smd).schema();
    MapValue cm = (MapValue) io.apiserver4j.core.Json.read(
        "{\"apiVersion\":\"v1\",\"kind\":\"ConfigMap\",\"data\":{\"k\":\"v\"}}");
    TypedValue x = a.type("io.k8s.api.core.v1.ConfigMap").fromValue(cm);
    TypedValue y = b.type("io.k8s.api.core.v1.ConfigMap").fromValue(cm);
    assertThat(x.compare(x).isSame()).isTrue();
    assertThatThrownBy(() -> x.compare(y)).isInstanceOf(IllegalArgumentException.class);
  }
}
