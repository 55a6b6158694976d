/*
 * Copyright The apiserver4j authors.
 * SPDX-License-Identifier: Apache-2.0
 */
package io.apiserver4j.apiserver;

import static org.assertj.core.api.Assertions.assertThat;

import io.apiserver4j.core.Json;
import io.apiserver4j.merge.Atom;
import io.apiserver4j.merge.ListType;
import io.apiserver4j.merge.MapType;
import io.apiserver4j.merge.Schema;
import io.apiserver4j.merge.StructField;
import io.apiserver4j.merge.TypeRef;
import io.apiserver4j.merge.openapi.OpenApiSchemas;
import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.HashSet;
import java.util.List;
import java.util.Optional;
import java.util.Set;
import java.util.TreeSet;
import java.util.stream.Stream;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.Arguments;
import org.junit.jupiter.params.provider.MethodSource;

/**
 * The generated schema of every built-in kind (client-go's SMD schema, and for the kinds
 * client-go lacks, the conversion of kube's swagger) against kube-apiserver 1.36's OpenAPI
 * document converted with {@link OpenApiSchemas}: every type reachable from a kind has the same
 * fields, every list the same relationship and keys, every map and struct the same granularity,
 * every scalar the same type.
 */
class BuiltinSchemaTest {
  private static Schema upstream;

  private static synchronized Schema upstream() {
    if (upstream == null) {
      upstream = Schema.fromSmdValue(OpenApiSchemas.fromDocument(Swagger136.asV3()));
    }
    return upstream;
  }

  static Stream<Arguments> kinds() {
    return BuiltinResources.definitions().stream().map(ResourceDefinition::schemaType)
        .distinct().map(t -> Arguments.of("swagger.json", t));
  }

  private static final class Walk {
    final Schema ours;
    final Schema theirs;
    final Set<String> visited = new HashSet<>();
    final List<String> differences = new ArrayList<>();
    final Set<String> types = new TreeSet<>();
    int fields;
    int keyDefaults;

    void compareKeyDefaults(ListType lx, ListType ly, String path) {
      keyDefaults(this, lx, ly, path);
    }

    Walk(Schema ours, Schema theirs) {
      this.ours = ours;
      this.theirs = theirs;
    }

    void compare(TypeRef a, TypeRef b, String path) {
      String key = a + "|" + b;
      if (!visited.add(key)) {
        return;
      }
      a.namedType().ifPresent(types::add);
      Optional<Atom> oa = ours.resolve(a);
      Optional<Atom> ob = theirs.resolve(b);
      if (oa.isEmpty() || ob.isEmpty()) {
        differences.add(path + ": unresolvable (ours " + oa.isPresent() + ", theirs "
            + ob.isPresent() + ")");
        return;
      }
      Atom x = oa.get();
      Atom y = ob.get();
      if (!x.scalar().equals(y.scalar())) {
        differences.add(path + ": scalar " + x.scalar() + " vs " + y.scalar());
      }
      if (x.list().isPresent() != y.list().isPresent()) {
        differences.add(path + ": list presence differs");
      } else if (x.list().isPresent()) {
        ListType lx = x.list().get();
        ListType ly = y.list().get();
        if (lx.elementRelationship() != ly.elementRelationship()) {
          differences.add(path + ": list " + lx.elementRelationship() + " vs "
              + ly.elementRelationship());
        }
        if (!new HashSet<>(lx.keys()).equals(new HashSet<>(ly.keys()))) {
          differences.add(path + ": list keys " + lx.keys() + " vs " + ly.keys());
        }
        compareKeyDefaults(lx, ly, path);
        compare(lx.elementType(), ly.elementType(), path + "[]");
      }
      if (x.map().isPresent() != y.map().isPresent()) {
        differences.add(path + ": map presence differs");
      } else if (x.map().isPresent()) {
        MapType mx = x.map().get();
        MapType my = y.map().get();
        if (mx.elementRelationship() != my.elementRelationship()) {
          differences.add(path + ": map " + mx.elementRelationship() + " vs "
              + my.elementRelationship());
        }
        Set<String> nx = new TreeSet<>();
        mx.fields().forEach(fl -> nx.add(fl.name()));
        Set<String> ny = new TreeSet<>();
        my.fields().forEach(fl -> ny.add(fl.name()));
        Set<String> extra = new TreeSet<>(nx);
        extra.removeAll(ny);
        Set<String> missing = new TreeSet<>(ny);
        missing.removeAll(nx);
        if (!extra.isEmpty()) {
          differences.add(path + ": fields not upstream " + extra);
        }
        if (!missing.isEmpty()) {
          differences.add(path + ": fields missing " + missing);
        }
        if (mx.elementType().isNone() != my.elementType().isNone()) {
          differences.add(path + ": extra keys allowed differs");
        } else if (!mx.elementType().isNone()) {
          compare(mx.elementType(), my.elementType(), path + ".*");
        }
        for (StructField fx : mx.fields()) {
          Optional<StructField> fy = my.findField(fx.name());
          if (fy.isPresent()) {
            fields++;
            compare(fx.type(), fy.get().type(), path + "." + fx.name());
          }
        }
      }
    }
  }

  // SMD fills a key field an item omits with the field's default: those must agree where the
  // upstream document states one (the v2 document omits the zero defaults that client-go's
  // schema and the v3 documents carry).
  private static void keyDefaults(Walk w, ListType lx, ListType ly, String path) {
    Optional<MapType> ex = w.ours.resolve(lx.elementType()).flatMap(Atom::map);
    Optional<MapType> ey = w.theirs.resolve(ly.elementType()).flatMap(Atom::map);
    if (ex.isEmpty() || ey.isEmpty()) {
      return;
    }
    for (String key : lx.keys()) {
      Optional<Object> dx = ex.get().findField(key).flatMap(StructField::defaultValue)
          .map(v -> (Object) v);
      Optional<Object> dy = ey.get().findField(key).flatMap(StructField::defaultValue)
          .map(v -> (Object) v);
      if (dy.isPresent() && !dx.equals(dy)) {
        w.differences.add(path + "[]." + key + ": default " + dx + " vs " + dy);
      }
      w.keyDefaults++;
    }
  }

  @ParameterizedTest(name = "{1}")
  @MethodSource("kinds")
  void matchesTheUpstreamOpenApiDocument(String file, String typeName) {
    Schema theirs = upstream();
    Walk w = new Walk(BuiltinResources.schema(), theirs);

    w.compare(TypeRef.named(typeName), TypeRef.named(typeName), typeName);

    System.out.println("schema coverage of " + typeName + ": " + w.types.size() + " types, "
        + w.fields + " fields and " + w.keyDefaults + " list key defaults compared with the"
        + " upstream document");
    assertThat(w.differences).isEmpty();
    assertThat(w.fields).isGreaterThan(2);
  }
}
