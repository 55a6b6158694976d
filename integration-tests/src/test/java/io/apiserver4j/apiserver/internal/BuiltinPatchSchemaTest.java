/*
 * Copyright The apiserver4j authors.
 * SPDX-License-Identifier: Apache-2.0
 */
package io.apiserver4j.apiserver.internal;

import static org.assertj.core.api.Assertions.assertThat;

import io.apiserver4j.apimachinery.patch.OpenApiPatchSchemas;
import io.apiserver4j.apimachinery.patch.PatchField;
import io.apiserver4j.apimachinery.patch.PatchSchema;
import io.apiserver4j.core.Json;
import io.apiserver4j.merge.Atom;
import io.apiserver4j.merge.MapType;
import io.apiserver4j.merge.Schema;
import io.apiserver4j.merge.StructField;
import io.apiserver4j.merge.TypeRef;
import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.HashSet;
import java.util.List;
import java.util.Optional;
import java.util.Set;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.CsvSource;
import io.apiserver4j.apiserver.Swagger136;
import io.apiserver4j.apiserver.BuiltinResources;
import io.apiserver4j.apiserver.ResourceDefinition;

/**
 * The strategic merge patch metadata of the generated built-in schema against kube-apiserver
 * 1.36's OpenAPI document's {@code x-kubernetes-patch-strategy} and
 * {@code x-kubernetes-patch-merge-key}:
 * every field reachable from a kind has the same strategy, retainKeys flag and merge key.
 */
class BuiltinPatchSchemaTest {
  private static OpenApiPatchSchemas upstream;

  private static synchronized OpenApiPatchSchemas upstream() {
    if (upstream == null) {
      upstream = OpenApiPatchSchemas.of(Swagger136.asV3());
    }
    return upstream;
  }

  private static final class Walk {
    final Schema schema = BuiltinResources.schema();
    final List<String> differences = new ArrayList<>();
    final Set<String> visited = new HashSet<>();
    int fields;
    int tagged;

    void compare(TypeRef ref, PatchSchema ours, PatchSchema theirs, String path) {
      if (!visited.add(ref.toString())) {
        return;
      }
      Optional<Atom> atom = schema.resolve(ref);
      if (atom.isEmpty()) {
        return;
      }
      if (atom.get().list().isPresent()) {
        compare(atom.get().list().get().elementType(), ours.items(), theirs.items(), path + "[]");
      }
      if (atom.get().map().isEmpty()) {
        return;
      }
      MapType map = atom.get().map().get();
      for (StructField f : map.fields()) {
        PatchField a = ours.field(f.name());
        PatchField b = theirs.field(f.name());
        fields++;
        if (b.strategy() != io.apiserver4j.apimachinery.patch.PatchStrategy.DEFAULT
            || b.retainKeys()) {
          tagged++;
        }
        if (a.strategy() != b.strategy() || a.retainKeys() != b.retainKeys()
            || !a.mergeKey().equals(b.mergeKey())) {
          differences.add(path + "." + f.name() + ": " + a.strategy() + "/" + a.retainKeys()
              + "/" + a.mergeKey() + " vs " + b.strategy() + "/" + b.retainKeys() + "/"
              + b.mergeKey());
        }
        compare(f.type(), a.schema(), b.schema(), path + "." + f.name());
      }
    }
  }

  static java.util.stream.Stream<String> kinds() {
    return BuiltinResources.definitions().stream().map(ResourceDefinition::schemaType)
        .distinct();
  }

  @ParameterizedTest(name = "{0}")
  @org.junit.jupiter.params.provider.MethodSource("kinds")
  void strategiesMatchTheUpstreamDocument(String type) {
    OpenApiPatchSchemas theirs = upstream();
    Walk w = new Walk();

    w.compare(TypeRef.named(type), BuiltinSchema.patchSchema(type), theirs.named(type).orElseThrow(),
        type);

    System.out.println("patch metadata of " + type + ": " + w.fields + " fields compared, "
        + w.tagged + " with a strategy");
    assertThat(w.differences).isEmpty();
  }
}
