/*
 * Copyright The apiserver4j authors.
 * SPDX-License-Identifier: Apache-2.0
 */
package io.apiserver4j.apiserver;

import io.apiserver4j.core.DecodeLimits;
import io.apiserver4j.core.Json;
import io.apiserver4j.core.ListValue;
import io.apiserver4j.core.MapValue;
import io.apiserver4j.core.StringValue;
import io.apiserver4j.core.Value;
import java.io.IOException;
import java.io.UncheckedIOException;
import java.nio.file.Files;
import java.nio.file.Path;

/**
 * kube-apiserver 1.36's OpenAPI v2 document ({@code ../shared/api/openapi/swagger.json}) in the
 * shape of a v3 document (its definitions as {@code components.schemas}), for the readers of v3
 * documents.
 */
public final class Swagger136 {
  private static MapValue document;

  private Swagger136() {}

  public static synchronized MapValue asV3() {
    if (document == null) {
      String p = System.getProperty("apiserver4j.shared");
      Path file = Path.of(p == null ? "../shared" : p).resolve("api/openapi/swagger.json");
      try {
        MapValue swagger = (MapValue) Json.read(Files.readAllBytes(file),
            DecodeLimits.DEFAULT.withMaxNodes(50_000_000));
        document = MapValue.ofEntries("openapi", Value.of("3.0.0"), "components",
            MapValue.ofEntries("schemas", rewriteRefs(swagger.getOrNull("definitions"))));
      } catch (IOException e) {
        throw new UncheckedIOException(e);
      }
    }
    return document;
  }

  private static Value rewriteRefs(Value v) {
    if (v instanceof MapValue m) {
      MapValue.Builder b = MapValue.builder(m.size());
      m.forEach((k, x) -> b.put(k, k.equals("$ref") && x instanceof StringValue s
          ? Value.of(s.value().replace("#/definitions/", "#/components/schemas/"))
          : rewriteRefs(x)));
      return b.build();
    }
    if (v instanceof ListValue l) {
      ListValue.Builder b = ListValue.builder(l.size());
      l.items().forEach(x -> b.add(rewriteRefs(x)));
      return b.build();
    }
    return v;
  }
}
