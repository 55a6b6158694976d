/*
 * Copyright The apiserver4j authors.
 * SPDX-License-Identifier: Apache-2.0
 */
package io.apiserver4j.http.internal;

import io.apiserver4j.apiserver.ResourceDefinition;
import io.apiserver4j.core.GroupVersion;
import io.apiserver4j.core.GroupVersionKind;
import io.apiserver4j.core.Json;
import io.apiserver4j.core.ListValue;
import io.apiserver4j.core.MapValue;
import io.apiserver4j.core.Nested;
import io.apiserver4j.core.Value;
import io.apiserver4j.kubeapi.KubeVersion;
import io.apiserver4j.merge.Atom;
import io.apiserver4j.merge.ElementRelationship;
import io.apiserver4j.merge.ListType;
import io.apiserver4j.merge.MapType;
import io.apiserver4j.merge.ScalarType;
import io.apiserver4j.merge.Schema;
import io.apiserver4j.merge.StructField;
import io.apiserver4j.merge.TypeDef;
import io.apiserver4j.merge.TypeRef;
import java.nio.charset.StandardCharsets;
import java.security.MessageDigest;
import java.security.NoSuchAlgorithmException;
import java.util.ArrayDeque;
import java.util.ArrayList;
import java.util.Deque;
import java.util.HashMap;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Locale;
import java.util.Map;
import java.util.Optional;
import java.util.concurrent.ConcurrentHashMap;

/**
 * The OpenAPI v3 documents of one snapshot of the registry: the {@code /openapi/v3} index and
 * one document per group-version, generated from the resources' structured-merge-diff schemas.
 *
 * <p>Schemas become {@code components.schemas} (named types keep their names, custom resources
 * get kube's reversed-domain names such as {@code com.example.stable.v1.CronTab}); list, map and
 * merge semantics become {@code x-kubernetes-list-type}, {@code x-kubernetes-list-map-keys},
 * {@code x-kubernetes-map-type}, and the strategic-merge extensions
 * {@code x-kubernetes-patch-strategy}/{@code x-kubernetes-patch-merge-key} for sets and lists
 * keyed by one field (the same reading of the schema the server's strategic merge patch uses).
 * Every operation declares its {@code x-kubernetes-group-version-kind} and its query
 * parameters, in particular {@code fieldValidation}, which is what kubectl checks before it
 * leaves validation to the server.
 *
 * <p>Immutable apart from a cache of rendered documents; thread-safe.
 */
public final class OpenApiDocuments {
  private static final String REF_PREFIX = "#/components/schemas/";
  private static final String PATCH_TYPE = "io.k8s.apimachinery.pkg.apis.meta.v1.Patch";
  private static final String STATUS_TYPE = "io.k8s.apimachinery.pkg.apis.meta.v1.Status";
  private static final String DELETE_OPTIONS_TYPE =
      "io.k8s.apimachinery.pkg.apis.meta.v1.DeleteOptions";
  private static final String SCALE_TYPE = "io.k8s.api.autoscaling.v1.Scale";

  /** A rendered document and its hash (the cache key kubectl uses in {@code ?hash=}). */
  public record Document(byte[] json, String hash) {}

  private final Map<GroupVersion, List<ResourceDefinition>> byGroupVersion;
  private final String serverVersion;
  private final KubeVersion release;
  private final Map<GroupVersion, Document> rendered = new ConcurrentHashMap<>();

  public OpenApiDocuments(List<ResourceDefinition> definitions, String serverVersion) {
    Map<GroupVersion, List<ResourceDefinition>> m = new LinkedHashMap<>();
    for (ResourceDefinition d : definitions) {
      m.computeIfAbsent(d.kind().groupVersion(), gv -> new ArrayList<>()).add(d);
    }
    this.byGroupVersion = m;
    this.serverVersion = serverVersion;
    this.release = KubeDefinitions.releaseOf(definitions);
  }

  /** The path of a group-version's document relative to {@code /openapi/v3/}. */
  public static String relativePath(GroupVersion gv) {
    return gv.group().isEmpty() ? "api/" + gv.version() : "apis/" + gv.group() + "/" + gv.version();
  }

  /** {@code GET /openapi/v3}: every group-version's document URL with its hash. */
  public MapValue index() {
    MapValue.Builder paths = MapValue.builder();
    for (GroupVersion gv : byGroupVersion.keySet()) {
      String rel = relativePath(gv);
      paths.put(rel, MapValue.builder()
          .put("serverRelativeURL", Value.of("/openapi/v3/" + rel + "?hash=" + document(gv)
              .orElseThrow().hash()))
          .build());
    }
    return MapValue.builder().put("paths", paths.build()).build();
  }

  /** The document at {@code /openapi/v3/<relativePath>}, if that group-version is served. */
  public Optional<Document> document(String relativePath) {
    for (GroupVersion gv : byGroupVersion.keySet()) {
      if (relativePath(gv).equals(relativePath)) {
        return document(gv);
      }
    }
    return Optional.empty();
  }

  private Optional<Document> document(GroupVersion gv) {
    if (!byGroupVersion.containsKey(gv)) {
      return Optional.empty();
    }
    return Optional.of(rendered.computeIfAbsent(gv, k -> {
      byte[] json = Json.writeBytes(build(k));
      return new Document(json, sha512(json));
    }));
  }

  private MapValue build(GroupVersion gv) {
    Components components = new Components(release);
    MapValue.Builder paths = MapValue.builder();
    for (ResourceDefinition d : byGroupVersion.get(gv)) {
      String root = components.addResource(d);
      String list = components.addList(d, root);
      addPaths(paths, d, root, list);
    }
    components.addStandard();
    return MapValue.builder()
        .put("openapi", Value.of("3.0.0"))
        .put("info", MapValue.builder().put("title", Value.of("Kubernetes"))
            .put("version", Value.of(serverVersion)).build())
        .put("paths", paths.build())
        .put("components", MapValue.builder().put("schemas", components.build()).build())
        .build();
  }

  // ---- paths -------------------------------------------------------------------------------

  private static void addPaths(MapValue.Builder paths, ResourceDefinition d, String root,
      String list) {
    GroupVersionKind gvk = d.kind();
    String prefix = gvk.group().isEmpty() ? "/api/" + gvk.version()
        : "/apis/" + gvk.group() + "/" + gvk.version();
    String coll = prefix + (d.namespaced() ? "/namespaces/{namespace}/" : "/") + d.plural();
    String item = coll + "/{name}";
    String opSuffix = operationSuffix(d);
    MapValue gvkValue = gvkValue(gvk);

    paths.put(coll, MapValue.builder()
        .put("get", operation("list" + opSuffix, "list", gvkValue, listParams(), null,
            responses(list, "200")))
        .put("post", operation("create" + opSuffix, "post", gvkValue, writeParams(false),
            body(root), responses(root, "200", "201", "202")))
        .put("delete", operation("deletecollection" + opSuffix, "deletecollection", gvkValue,
            deleteParams(true), body(DELETE_OPTIONS_TYPE), responses(STATUS_TYPE, "200")))
        .put("parameters", pathParams(d.namespaced(), false))
        .build());
    paths.put(item, MapValue.builder()
        .put("get", operation("read" + opSuffix, "get", gvkValue, ListValue.empty(), null,
            responses(root, "200")))
        .put("put", operation("replace" + opSuffix, "put", gvkValue, writeParams(false),
            body(root), responses(root, "200", "201")))
        .put("patch", operation("patch" + opSuffix, "patch", gvkValue, writeParams(true),
            patchBody(d), responses(root, "200", "201")))
        .put("delete", operation("delete" + opSuffix, "delete", gvkValue, deleteParams(false),
            body(DELETE_OPTIONS_TYPE), responses(STATUS_TYPE, "200", "202")))
        .put("parameters", pathParams(d.namespaced(), true))
        .build());
    if (d.namespaced()) {
      paths.put(prefix + "/" + d.plural(), MapValue.builder()
          .put("get", operation("list" + opSuffix.replace("Namespaced", "") + "ForAllNamespaces",
              "list", gvkValue, listParams(), null, responses(list, "200")))
          .build());
    }
    for (String sub : d.subresources()) {
      String type = sub.equals("scale") ? SCALE_TYPE : root;
      MapValue subGvk = sub.equals("scale")
          ? gvkValue(new GroupVersionKind("autoscaling", "v1", "Scale")) : gvkValue;
      String subSuffix = opSuffix + (sub.equals("scale") ? "Scale" : "Status");
      paths.put(item + "/" + sub, MapValue.builder()
          .put("get", operation("read" + subSuffix, "get", subGvk, ListValue.empty(), null,
              responses(type, "200")))
          .put("put", operation("replace" + subSuffix, "put", subGvk, writeParams(false),
              body(type), responses(type, "200", "201")))
          .put("patch", operation("patch" + subSuffix, "patch", subGvk, writeParams(true),
              patchBody(d), responses(type, "200", "201")))
          .put("parameters", pathParams(d.namespaced(), true))
          .build());
    }
  }

  private static String operationSuffix(ResourceDefinition d) {
    String group = d.kind().group().isEmpty() ? "Core" : camel(d.kind().group().split("\\.")[0]);
    return group + camel(d.kind().version()) + (d.namespaced() ? "Namespaced" : "")
        + d.kind().kind();
  }

  private static String camel(String s) {
    return s.isEmpty() ? s : s.substring(0, 1).toUpperCase(Locale.ROOT) + s.substring(1);
  }

  private static MapValue gvkValue(GroupVersionKind gvk) {
    return MapValue.builder().put("group", Value.of(gvk.group()))
        .put("kind", Value.of(gvk.kind())).put("version", Value.of(gvk.version())).build();
  }

  private static MapValue operation(String id, String action, MapValue gvk, ListValue params,
      MapValue requestBody, MapValue responses) {
    MapValue.Builder b = MapValue.builder().put("operationId", Value.of(id));
    if (params.size() > 0) {
      b.put("parameters", params);
    }
    if (requestBody != null) {
      b.put("requestBody", requestBody);
    }
    return b.put("responses", responses)
        .put("x-kubernetes-action", Value.of(action))
        .put("x-kubernetes-group-version-kind", gvk)
        .build();
  }

  private static ListValue pathParams(boolean namespaced, boolean named) {
    ListValue.Builder b = ListValue.builder();
    if (named) {
      b.add(param("name", "path", "string"));
    }
    if (namespaced) {
      b.add(param("namespace", "path", "string"));
    }
    b.add(param("pretty", "query", "string"));
    return b.build();
  }

  private static ListValue writeParams(boolean patch) {
    ListValue.Builder b = ListValue.builder()
        .add(param("dryRun", "query", "string"))
        .add(param("fieldManager", "query", "string"))
        .add(param("fieldValidation", "query", "string"));
    if (patch) {
      b.add(param("force", "query", "boolean"));
    }
    return b.build();
  }

  private static ListValue deleteParams(boolean collection) {
    ListValue.Builder b = ListValue.builder()
        .add(param("dryRun", "query", "string"))
        .add(param("gracePeriodSeconds", "query", "integer"))
        .add(param("propagationPolicy", "query", "string"));
    if (collection) {
      listSelectors(b);
    }
    return b.build();
  }

  private static ListValue listParams() {
    ListValue.Builder b = ListValue.builder()
        .add(param("allowWatchBookmarks", "query", "boolean"))
        .add(param("timeoutSeconds", "query", "integer"))
        .add(param("watch", "query", "boolean"));
    listSelectors(b);
    return b.build();
  }

  private static void listSelectors(ListValue.Builder b) {
    b.add(param("continue", "query", "string"))
        .add(param("fieldSelector", "query", "string"))
        .add(param("labelSelector", "query", "string"))
        .add(param("limit", "query", "integer"))
        .add(param("resourceVersion", "query", "string"))
        .add(param("resourceVersionMatch", "query", "string"));
  }

  private static MapValue param(String name, String in, String type) {
    MapValue.Builder b = MapValue.builder().put("in", Value.of(in)).put("name", Value.of(name));
    if (in.equals("path")) {
      b.put("required", Value.of(true));
    }
    return b.put("schema", MapValue.builder().put("type", Value.of(type))
        .put("uniqueItems", Value.of(true)).build()).build();
  }

  private static MapValue ref(String type) {
    return MapValue.builder().put("$ref", Value.of(REF_PREFIX + type)).build();
  }

  private static MapValue mediaTypes(String type, String... mediaTypes) {
    MapValue.Builder b = MapValue.builder();
    for (String mt : mediaTypes) {
      b.put(mt, MapValue.builder().put("schema", ref(type)).build());
    }
    return b.build();
  }

  private static MapValue body(String type) {
    return MapValue.builder().put("content", mediaTypes(type, "*/*")).build();
  }

  private static MapValue patchBody(ResourceDefinition d) {
    // kube's CRD OpenAPI builder lists no strategic merge patch for custom resources, which
    // have no patch strategies: kubectl apply reads this list to choose a JSON merge patch
    return MapValue.builder().put("content", d.customResource()
        ? mediaTypes(PATCH_TYPE, "application/apply-patch+yaml", "application/json-patch+json",
            "application/merge-patch+json")
        : mediaTypes(PATCH_TYPE, "application/apply-patch+yaml", "application/json-patch+json",
            "application/merge-patch+json", "application/strategic-merge-patch+json")).build();
  }

  private static MapValue responses(String type, String... codes) {
    MapValue.Builder b = MapValue.builder();
    for (String c : codes) {
      b.put(c, MapValue.builder().put("content",
          mediaTypes(type, "application/json", "application/yaml")).build());
    }
    b.put("401", MapValue.empty());
    return b.build();
  }

  // ---- schemas -----------------------------------------------------------------------------

  /**
   * The {@code components.schemas} of one document. Types of different definitions that share
   * a name but differ (two CRDs both calling a type {@code Spec}) are renamed apart, so every
   * resource keeps its own schema.
   */
  private static final class Components {
    private final Map<String, Value> schemas = new LinkedHashMap<>();
    private final Map<String, TypeDef> origins = new HashMap<>();
    private final Map<String, List<MapValue>> gvks = new HashMap<>();
    private final KubeVersion release;

    Components(KubeVersion release) {
      this.release = release;
    }

    String addResource(ResourceDefinition d) {
      if (KubeDefinitions.covers(d)) {
        addKube(d.schemaType());
        gvks.computeIfAbsent(d.schemaType(), k -> new ArrayList<>()).add(gvkValue(d.kind()));
        return d.schemaType();
      }
      if (d.customResource() && d.openApiSchema().isPresent()) {
        return addCustomResource(d, d.openApiSchema().get());
      }
      Schema schema = d.schema();
      String rootName = d.customResource() || d.schemaType().startsWith("__")
          ? customName(d.kind()) : d.schemaType();
      Map<String, String> names = new HashMap<>();
      names.put(d.schemaType(), rootName);
      Deque<String> pending = new ArrayDeque<>();
      pending.add(d.schemaType());
      List<String> closure = new ArrayList<>();
      while (!pending.isEmpty()) {
        String t = pending.poll();
        if (closure.contains(t)) {
          continue;
        }
        closure.add(t);
        schema.findNamedType(t).ifPresent(td -> collectRefs(td.atom(), pending));
      }
      for (String t : closure) {
        if (t.equals(Schema.UNTYPED_ATOMIC) || t.equals(Schema.UNTYPED_DEDUCED)) {
          continue;
        }
        Optional<TypeDef> td = schema.findNamedType(t);
        if (td.isEmpty()) {
          continue;
        }
        String name = names.getOrDefault(t, t);
        TypeDef existing = origins.get(name);
        int n = 2;
        while (existing != null && !existing.equals(td.get())) {
          name = names.getOrDefault(t, t) + "_" + n++;
          existing = origins.get(name);
        }
        names.put(t, name);
        origins.put(name, td.get());
      }
      for (String t : closure) {
        String name = names.get(t);
        if (name != null && !schemas.containsKey(name)) {
          schemas.put(name, convertAtom(schema.findNamedType(t).orElseThrow().atom(), names));
        }
      }
      gvks.computeIfAbsent(rootName, k -> new ArrayList<>()).add(gvkValue(d.kind()));
      return rootName;
    }

    /**
     * A custom resource published as kube's CRD OpenAPI builder does: the version's
     * openAPIV3Schema with apiVersion, kind and metadata (ObjectMeta) as every kind has them.
     */
    private String addCustomResource(ResourceDefinition d, MapValue openApi) {
      String rootName = customName(d.kind());
      String meta = "io.k8s.apimachinery.pkg.apis.meta.v1.ObjectMeta";
      addKube(meta);
      MapValue typeMeta = (MapValue) Nested.getOrNull(KubeDefinitions.closure(release,
          "io.k8s.api.core.v1.ConfigMap").get("io.k8s.api.core.v1.ConfigMap"), "properties");
      MapValue props = Nested.mapOrNull(openApi, "properties");
      MapValue.Builder p = MapValue.builder();
      for (String k : List.of("apiVersion", "kind", "metadata")) {
        if (typeMeta != null && typeMeta.getOrNull(k) != null) {
          p.put(k, typeMeta.getOrNull(k));
        }
      }
      if (props != null) {
        props.forEach((k, v) -> {
          if (!k.equals("apiVersion") && !k.equals("kind") && !k.equals("metadata")) {
            p.put(k, v);
          }
        });
      }
      schemas.putIfAbsent(rootName, openApi.with("properties", p.build()));
      gvks.computeIfAbsent(rootName, k -> new ArrayList<>()).add(gvkValue(d.kind()));
      return rootName;
    }

    /** Kube's definition of {@code name} and of every type it uses, unless already there. */
    void addKube(String name) {
      for (Map.Entry<String, MapValue> e : KubeDefinitions.closure(release, name).entrySet()) {
        schemas.putIfAbsent(e.getKey(), e.getValue());
      }
    }

    String addList(ResourceDefinition d, String root) {
      String kubeList = root.substring(0, root.lastIndexOf('.') + 1) + d.listKind();
      if (KubeDefinitions.covers(d) && KubeDefinitions.has(release, kubeList)) {
        addKube(kubeList);
        gvks.computeIfAbsent(kubeList, k -> new ArrayList<>()).add(gvkValue(new GroupVersionKind(
            d.kind().group(), d.kind().version(), d.listKind())));
        return kubeList;
      }
      String name = root + "List";
      if (!schemas.containsKey(name)) {
        schemas.put(name, MapValue.builder()
            .put("type", Value.of("object"))
            .put("required", ListValue.of(List.of(Value.of("items"))))
            .put("properties", MapValue.builder()
                .put("apiVersion", typed("string"))
                .put("items", MapValue.builder().put("type", Value.of("array"))
                    .put("items", ref(root)).build())
                .put("kind", typed("string"))
                .put("metadata", MapValue.builder().put("type", Value.of("object"))
                    .put("x-kubernetes-preserve-unknown-fields", Value.of(true)).build())
                .build())
            .build());
      }
      gvks.computeIfAbsent(name, k -> new ArrayList<>()).add(gvkValue(new GroupVersionKind(
          d.kind().group(), d.kind().version(), d.listKind())));
      return name;
    }

    /**
     * The meta types every document refers to, as kube defines them, or loose placeholders if
     * a schema already defined them.
     */
    void addStandard() {
      for (String t : List.of(PATCH_TYPE, STATUS_TYPE, DELETE_OPTIONS_TYPE, SCALE_TYPE)) {
        if (!schemas.containsKey(t) && KubeDefinitions.has(release, t)) {
          addKube(t);
        }
      }
      schemas.putIfAbsent(PATCH_TYPE, MapValue.builder().put("type", Value.of("object")).build());
      schemas.putIfAbsent(STATUS_TYPE, looseObject(new GroupVersionKind("", "v1", "Status")));
      schemas.putIfAbsent(DELETE_OPTIONS_TYPE,
          looseObject(new GroupVersionKind("", "v1", "DeleteOptions")));
      schemas.putIfAbsent(SCALE_TYPE, MapValue.builder()
          .put("type", Value.of("object"))
          .put("properties", MapValue.builder()
              .put("apiVersion", typed("string"))
              .put("kind", typed("string"))
              .put("metadata", MapValue.builder().put("type", Value.of("object"))
                  .put("x-kubernetes-preserve-unknown-fields", Value.of(true)).build())
              .put("spec", MapValue.builder().put("type", Value.of("object"))
                  .put("properties", MapValue.builder().put("replicas", MapValue.builder()
                      .put("type", Value.of("integer")).put("format", Value.of("int32")).build())
                      .build()).build())
              .put("status", MapValue.builder().put("type", Value.of("object"))
                  .put("properties", MapValue.builder()
                      .put("replicas", typed("integer"))
                      .put("selector", typed("string")).build()).build())
              .build())
          .put("x-kubernetes-group-version-kind", ListValue.of(List.of(
              gvkValue(new GroupVersionKind("autoscaling", "v1", "Scale")))))
          .build());
    }

    private static MapValue looseObject(GroupVersionKind gvk) {
      return MapValue.builder().put("type", Value.of("object"))
          .put("x-kubernetes-preserve-unknown-fields", Value.of(true))
          .put("x-kubernetes-group-version-kind", ListValue.of(List.of(gvkValue(gvk))))
          .build();
    }

    MapValue build() {
      MapValue.Builder b = MapValue.builder(schemas.size());
      schemas.forEach((name, v) -> {
        List<MapValue> kinds = gvks.get(name);
        if (kinds != null && v instanceof MapValue m) {
          v = m.with("x-kubernetes-group-version-kind", ListValue.of(kinds));
        }
        b.put(name, v);
      });
      return b.build();
    }
  }

  /** kube's name for a custom resource's schema: reversed group, version, kind. */
  static String customName(GroupVersionKind gvk) {
    String[] parts = gvk.group().split("\\.");
    StringBuilder sb = new StringBuilder();
    for (int i = parts.length - 1; i >= 0; i--) {
      if (!parts[i].isEmpty()) {
        sb.append(parts[i]).append('.');
      }
    }
    return sb.append(gvk.version()).append('.').append(gvk.kind()).toString();
  }

  private static void collectRefs(Atom atom, Deque<String> out) {
    atom.list().ifPresent(l -> collectRefs(l.elementType(), out));
    atom.map().ifPresent(m -> {
      for (StructField f : m.fields()) {
        collectRefs(f.type(), out);
      }
      collectRefs(m.elementType(), out);
    });
  }

  private static void collectRefs(TypeRef ref, Deque<String> out) {
    ref.namedType().ifPresent(out::add);
    collectRefs(ref.inlined(), out);
  }

  private static MapValue typed(String type) {
    return MapValue.builder().put("type", Value.of(type)).build();
  }

  private static MapValue preserveUnknown() {
    return MapValue.builder().put("x-kubernetes-preserve-unknown-fields", Value.of(true)).build();
  }

  private static Value convertRef(TypeRef ref, Map<String, String> names) {
    MapValue base;
    Optional<String> named = ref.namedType();
    if (named.isPresent()) {
      String n = named.get();
      if (n.equals(Schema.UNTYPED_ATOMIC) || n.equals(Schema.UNTYPED_DEDUCED)) {
        base = preserveUnknown();
      } else {
        base = ref(names.getOrDefault(n, n));
      }
    } else if (ref.isNone() || ref.inlined().isEmpty()) {
      base = MapValue.empty();
    } else {
      base = convertAtom(ref.inlined(), names);
    }
    Optional<ElementRelationship> rel = ref.elementRelationship();
    if (rel.isPresent() && named.isPresent() && base.getOrNull("$ref") != null) {
      // a relationship overriding a named type's: wrap the reference, as upstream does with allOf
      MapValue.Builder b = MapValue.builder().put("allOf", ListValue.of(List.of(base)));
      if (rel.get() == ElementRelationship.ATOMIC) {
        b.put("x-kubernetes-map-type", Value.of("atomic"));
      }
      return b.build();
    }
    return base;
  }

  private static MapValue convertAtom(Atom atom, Map<String, String> names) {
    Optional<ScalarType> scalar = atom.scalar();
    Optional<ListType> list = atom.list();
    Optional<MapType> map = atom.map();
    int shapes = (scalar.isPresent() ? 1 : 0) + (list.isPresent() ? 1 : 0)
        + (map.isPresent() ? 1 : 0);
    if (shapes > 1) {
      if (scalar.isPresent() && list.isEmpty() && map.isEmpty()) {
        return MapValue.empty();
      }
      return preserveUnknown();
    }
    if (scalar.isPresent()) {
      ScalarType s = scalar.get();
      if (s.equals(ScalarType.STRING)) {
        return typed("string");
      } else if (s.equals(ScalarType.NUMERIC)) {
        return typed("number");
      } else if (s.equals(ScalarType.BOOLEAN)) {
        return typed("boolean");
      }
      return MapValue.builder().put("x-kubernetes-int-or-string", Value.of(true)).build();
    }
    if (list.isPresent()) {
      ListType l = list.get();
      MapValue.Builder b = MapValue.builder().put("type", Value.of("array"))
          .put("items", convertRef(l.elementType(), names));
      if (l.elementRelationship() == ElementRelationship.ATOMIC) {
        b.put("x-kubernetes-list-type", Value.of("atomic"));
      } else if (l.keys().isEmpty()) {
        b.put("x-kubernetes-list-type", Value.of("set"));
        b.put("x-kubernetes-patch-strategy", Value.of("merge"));
      } else {
        ListValue.Builder keys = ListValue.builder();
        l.keys().forEach(k -> keys.add(Value.of(k)));
        b.put("x-kubernetes-list-map-keys", keys.build());
        b.put("x-kubernetes-list-type", Value.of("map"));
        if (l.keys().size() == 1) {
          b.put("x-kubernetes-patch-merge-key", Value.of(l.keys().get(0)));
          b.put("x-kubernetes-patch-strategy", Value.of("merge"));
        }
      }
      return b.build();
    }
    if (map.isPresent()) {
      MapType m = map.get();
      MapValue.Builder b = MapValue.builder().put("type", Value.of("object"));
      if (!m.fields().isEmpty()) {
        MapValue.Builder props = MapValue.builder();
        for (StructField f : m.fields()) {
          Value p = convertRef(f.type(), names);
          if (f.defaultValue().isPresent() && p instanceof MapValue pm) {
            p = pm.with("default", f.defaultValue().get());
          }
          props.put(f.name(), p);
        }
        b.put("properties", props.build());
      }
      if (!m.elementType().isNone()) {
        b.put("additionalProperties", convertRef(m.elementType(), names));
      }
      if (m.elementRelationship() == ElementRelationship.ATOMIC) {
        b.put("x-kubernetes-map-type", Value.of("atomic"));
      }
      return b.build();
    }
    return MapValue.empty();
  }

  private static String sha512(byte[] data) {
    try {
      byte[] d = MessageDigest.getInstance("SHA-512").digest(data);
      StringBuilder sb = new StringBuilder(d.length * 2);
      for (byte x : d) {
        sb.append(String.format("%02X", x));
      }
      return sb.toString();
    } catch (NoSuchAlgorithmException e) {
      throw new IllegalStateException("SHA-512 is required by every JDK", e);
    }
  }

  static byte[] utf8(String s) {
    return s.getBytes(StandardCharsets.UTF_8);
  }
}
