/*
 * Copyright The apiserver4j authors.
 * SPDX-License-Identifier: Apache-2.0
 */
package io.apiserver4j.kubeapi.internal;

import static io.apiserver4j.core.Meta.string;

import io.apiserver4j.core.BooleanValue;
import io.apiserver4j.core.DecodeLimits;
import io.apiserver4j.core.GroupVersionKind;
import io.apiserver4j.core.Json;
import io.apiserver4j.core.ListValue;
import io.apiserver4j.core.MapValue;
import io.apiserver4j.core.StringValue;
import io.apiserver4j.core.Value;
import io.apiserver4j.kubeapi.KubeResource;
import io.apiserver4j.kubeapi.KubeSchema;
import io.apiserver4j.kubeapi.KubeSubresource;
import java.io.IOException;
import java.io.InputStream;
import java.io.UncheckedIOException;
import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.zip.GZIPInputStream;

/** Reads the generated resources of {@code io/apiserver4j/kubeapi}, each once, on first use. */
public final class KubeApiData {
  private static final String DIR = "/io/apiserver4j/kubeapi/";
  private static final DecodeLimits LIMITS = DecodeLimits.DEFAULT.withMaxNodes(20_000_000);

  private KubeApiData() {}

  private static final class Resources {
    static final List<KubeResource> ALL = readResources();
  }

  private static final class Schemas {
    static final KubeSchema SCHEMA = readSchema();
  }

  private static final class OpenApi {
    static final MapValue DEFINITIONS = (MapValue) ((MapValue) read("openapi.json.gz"))
        .getOrNull("definitions");
  }

  public static List<KubeResource> resources() {
    return Resources.ALL;
  }

  public static KubeSchema schema() {
    return Schemas.SCHEMA;
  }

  public static MapValue openApiDefinitions() {
    return OpenApi.DEFINITIONS;
  }

  private static List<KubeResource> readResources() {
    List<KubeResource> out = new ArrayList<>();
    for (Value v : ((ListValue) read("resources.json")).items()) {
      MapValue r = (MapValue) v;
      List<KubeSubresource> subs = new ArrayList<>();
      for (Value s : ((ListValue) r.getOrNull("subresources")).items()) {
        MapValue m = (MapValue) s;
        subs.add(new KubeSubresource(string(m, "name"), new GroupVersionKind(string(m, "group"),
            string(m, "version"), string(m, "kind")), strings(m, "verbs"),
            string(m, "schemaType")));
      }
      out.add(new KubeResource(new GroupVersionKind(string(r, "group"), string(r, "version"),
          string(r, "kind")), string(r, "resource"), string(r, "singular"), string(r, "listKind"),
          r.getOrNull("namespaced") instanceof BooleanValue b && b.value(), strings(r, "verbs"),
          strings(r, "shortNames"), strings(r, "categories"), string(r, "storageVersionHash"),
          string(r, "schemaType"), subs));
    }
    return List.copyOf(out);
  }

  private static KubeSchema readSchema() {
    MapValue data = (MapValue) read("schema.json.gz");
    Map<String, Map<String, String>> tags = stringsByType((MapValue) data.getOrNull("patch"));
    Map<String, Map<String, Value>> zeros = new LinkedHashMap<>();
    ((MapValue) data.getOrNull("zeros")).forEach((type, fields) ->
        zeros.put(type, ((MapValue) fields).asMap()));
    return new KubeSchema(MapValue.ofEntries("types", data.getOrNull("types")), tags, zeros,
        stringsByType((MapValue) data.getOrNull("go")));
  }

  private static Map<String, Map<String, String>> stringsByType(MapValue byType) {
    Map<String, Map<String, String>> out = new LinkedHashMap<>();
    byType.forEach((type, fields) -> {
      Map<String, String> f = new LinkedHashMap<>();
      ((MapValue) fields).forEach((name, tag) -> f.put(name, ((StringValue) tag).value()));
      out.put(type, Map.copyOf(f));
    });
    return out;
  }

  private static Value read(String name) {
    try (InputStream raw = KubeApiData.class.getResourceAsStream(DIR + name)) {
      if (raw == null) {
        throw new IllegalStateException("missing resource " + DIR + name);
      }
      InputStream in = name.endsWith(".gz") ? new GZIPInputStream(raw, 1 << 16) : raw;
      return Json.read(in, LIMITS);
    } catch (IOException e) {
      throw new UncheckedIOException(e);
    }
  }


  private static List<String> strings(MapValue m, String key) {
    List<String> out = new ArrayList<>();
    if (m.getOrNull(key) instanceof ListValue l) {
      l.items().forEach(v -> out.add(((StringValue) v).value()));
    }
    return out;
  }
}
