/*
 * Copyright The apiserver4j authors.
 * SPDX-License-Identifier: Apache-2.0
 */
package io.apiserver4j.apiserver;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import io.apiserver4j.core.GroupVersionKind;
import io.apiserver4j.kubeapi.KubeApi;
import io.apiserver4j.kubeapi.KubeVersion;
import io.apiserver4j.merge.Atom;
import io.apiserver4j.merge.Schema;
import io.apiserver4j.merge.StructField;
import io.apiserver4j.merge.TypeDef;
import io.apiserver4j.merge.TypeRef;
import java.util.ArrayList;
import java.util.List;
import java.util.stream.Stream;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.MethodSource;

/**
 * What loading the built-in schema eagerly checked, now that its types are decoded on first use:
 * every type of every release decodes (SMD's own validation, as {@link Schema#fromSmdValue}
 * applies it) to what the eager load gives, and every reference of every type resolves, which is
 * why a built-in kind's definition skips the reference walk.
 */
class BuiltinSchemaDataTest {

  static Stream<KubeVersion> releases() {
    return KubeVersion.all().stream();
  }

  @ParameterizedTest
  @MethodSource("releases")
  void everyTypeDecodesToWhatTheEagerLoadGives(KubeVersion version) {
    Schema lazy = BuiltinResources.schema(version);
    Schema eager = Schema.fromSmdValue(KubeApi.schema(version).smd());
    assertThat(lazy.typeNames()).isEqualTo(KubeApi.schema(version).typeNames())
        .isEqualTo(eager.typeNames())
        .contains(Schema.UNTYPED_ATOMIC, Schema.UNTYPED_DEDUCED);
    assertThat(lazy.typeNames()).hasSize(switch (version) {
      case V1_33 -> 452;
      case V1_34 -> 497;
      case V1_35 -> 498;
      case V1_36 -> 509;
    });
    for (String name : lazy.typeNames()) {
      assertThat(lazy.findNamedType(name)).as(name).isEqualTo(eager.findNamedType(name));
    }
    assertThat(lazy).isEqualTo(eager);
  }

  @ParameterizedTest
  @MethodSource("releases")
  void everyReferenceOfEveryTypeResolves(KubeVersion version) {
    Schema schema = BuiltinResources.schema(version);
    List<String> unresolved = new ArrayList<>();
    int references = 0;
    for (TypeDef t : schema.types()) {
      references += check(schema, t.name(), t.atom(), unresolved);
    }
    assertThat(unresolved).isEmpty();
    assertThat(references).isGreaterThan(schema.types().size());
  }

  // every reference inside atom, inline ones walked into; returns how many were checked
  private static int check(Schema schema, String where, Atom atom, List<String> unresolved) {
    List<TypeRef> refs = new ArrayList<>();
    atom.list().ifPresent(l -> refs.add(l.elementType()));
    atom.map().ifPresent(m -> {
      if (!m.elementType().isNone()) {
        refs.add(m.elementType());
      }
      for (StructField f : m.fields()) {
        refs.add(f.type());
      }
    });
    int n = 0;
    for (TypeRef ref : refs) {
      n++;
      if (schema.resolve(ref).isEmpty()) {
        unresolved.add(where + " -> " + ref);
      } else if (ref.namedType().isEmpty()) {
        n += check(schema, where + "/inline", ref.inlined(), unresolved);
      }
    }
    return n;
  }

  @Test
  void theBuiltinSchemasAreKnownAsSuchAndOthersStillChecked() {
    for (KubeVersion v : KubeVersion.all()) {
      assertThat(BuiltinResources.version(BuiltinResources.schema(v))).contains(v);
    }
    Schema copy = Schema.fromSmdValue(KubeApi.schema().smd());
    assertThat(BuiltinResources.version(copy)).isEmpty();

    // a schema that is not built in is walked: a type missing below the kind's type is found
    Schema open = Schema.fromSmdTypes(List.of("Thing", "Spec"), name -> io.apiserver4j.core.Yaml
        .read(name.equals("Thing")
            ? "{name: Thing, map: {fields: [{name: spec, type: {namedType: Spec}}]}}"
            : "{name: Spec, map: {fields: [{name: part, type: {namedType: Missing}}]}}"));
    GroupVersionKind kind = new GroupVersionKind("example.com", "v1", "Thing");
    assertThatThrownBy(() -> ResourceDefinition.builder(kind, "things")
        .schema(open, "Thing").build())
        .isInstanceOf(IllegalArgumentException.class)
        .hasMessageContaining("the undefined type Missing");
    // and again for a second kind of the same schema
    assertThatThrownBy(() -> ResourceDefinition.builder(
            new GroupVersionKind("example.com", "v1", "Spec"), "specs")
        .schema(open, "Spec").build())
        .isInstanceOf(IllegalArgumentException.class)
        .hasMessageContaining("the undefined type Missing");
  }
}
