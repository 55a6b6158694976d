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
import io.apiserver4j.kubeapi.KubeVersion;
import java.io.IOException;
import java.io.InputStream;
import java.io.UncheckedIOException;
import java.util.ArrayList;
import java.util.EnumMap;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.zip.GZIPInputStream;

/**
 * Reads the generated resources of {@code io/apiserver4j/kubeapi} (1.36) and of its
 * {@code <release>/} subdirectories (older releases): each part of each release once, on first
 * use, so a server of one release never reads another's data.
 */
public final class KubeApiData {
  private static final String ROOT = "/io/apiserver4j/kubeapi/";
  private static final DecodeLimits LIMITS = DecodeLimits.DEFAULT.withMaxNodes(20_000_000);

  private KubeApiData() {}

  private static final class Resources {
    static final List<KubeResource> ALL = readResources(KubeVersion.latest());
  }

  private static final class Schemas {
    static final KubeSchema SCHEMA = readSchema(KubeVersion.latest());
  }

  private static final class OpenApi {
    static final MapValue DEFINITIONS = readOpenApi(KubeVersion.latest());
  }

  /** The parts of an older release, each read on first use. */
  private static final class Older {
    private static final Map<KubeVersion, Older> BY_VERSION = new EnumMap<>(KubeVersion.class);

    static {
      for (KubeVersion v : KubeVersion.all()) {
        BY_VERSION.put(v, new Older(v));
      }
    }

    private final KubeVersion version;
    private volatile List<KubeResource> resources;
    private volatile KubeSchema schema;
    private volatile MapValue openApi;

    private Older(KubeVersion version) {
      this.version = version;
    }

    static Older of(KubeVersion version) {
      return BY_VERSION.get(version);
    }

    synchronized List<KubeResource> resources() {
      if (resources == null) {
        resources = readResources(version);
      }
      return resources;
    }

    synchronized KubeSchema schema() {
      if (schema == null) {
        schema = readSchema(version);
      }
      return schema;
    }

    synchronized MapValue openApi() {
      if (openApi == null) {
        openApi = readOpenApi(version);
      }
      return openApi;
    }
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

  public static List<KubeResource> resources(KubeVersion version) {
    return version == KubeVersion.latest() ? resources() : Older.of(version).resources();
  }

  public static KubeSchema schema(KubeVersion version) {
    return version == KubeVersion.latest() ? schema() : Older.of(version).schema();
  }

  public static MapValue openApiDefinitions(KubeVersion version) {
    return version == KubeVersion.latest() ? openApiDefinitions() : Older.of(version).openApi();
  }

  /** {@return the class-path directory of {@code version}'s data, ending in a slash} */
  public static String directory(KubeVersion version) {
    return version == KubeVersion.latest() ? ROOT : ROOT + version + "/";
  }

  private static MapValue readOpenApi(KubeVersion version) {
    return (MapValue) ((MapValue) read(version, "openapi.json.gz")).getOrNull("definitions");
  }

  private static List<KubeResource> readResources(KubeVersion version) {
    List<KubeResource> out = new ArrayList<>();
    for (Value v : ((ListValue) read(version, "resources.json")).items()) {
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

  private static KubeSchema readSchema(KubeVersion version) {
    // the types are indexed, each parsed when first needed; the rest is small and read whole
    TypeLines types = TypeLines.index(bytes(version, "schema-types.jsonl.gz"),
        directory(version) + "schema-types.jsonl.gz");
    MapValue data = (MapValue) read(version, "schema.json.gz");
    Map<String, Map<String, String>> tags = stringsByType((MapValue) data.getOrNull("patch"));
    Map<String, Map<String, Value>> zeros = new LinkedHashMap<>();
    ((MapValue) data.getOrNull("zeros")).forEach((type, fields) ->
        zeros.put(type, ((MapValue) fields).asMap()));
    return new KubeSchema(types.names(), name -> types.definition(name, LIMITS), tags, zeros,
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

  private static Value read(KubeVersion version, String name) {
    return Json.read(bytes(version, name), LIMITS);
  }

  private static byte[] bytes(KubeVersion version, String name) {
    String path = directory(version) + name;
    try (InputStream raw = KubeApiData.class.getResourceAsStream(path)) {
      if (raw == null) {
        throw new IllegalStateException("missing resource " + path);
      }
      InputStream in = name.endsWith(".gz") ? new GZIPInputStream(raw, 1 << 16) : raw;
      return in.readAllBytes();
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
