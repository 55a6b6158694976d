/*
 * Copyright The apiserver4j authors.
 * SPDX-License-Identifier: Apache-2.0
 */
package io.apiserver4j.kubeapi.internal.generator;

import io.apiserver4j.core.BooleanValue;
import io.apiserver4j.core.DecodeLimits;
import io.apiserver4j.core.IntegerValue;
import io.apiserver4j.core.Json;
import io.apiserver4j.core.ListValue;
import io.apiserver4j.core.MapValue;
import io.apiserver4j.core.StringValue;
import io.apiserver4j.core.Value;
import io.apiserver4j.core.Yaml;
import java.io.ByteArrayOutputStream;
import java.io.IOException;
import java.io.UncheckedIOException;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayDeque;
import java.util.ArrayList;
import java.util.Deque;
import java.util.LinkedHashMap;
import java.util.LinkedHashSet;
import java.util.List;
import java.util.Map;
import java.util.Set;
import java.util.TreeMap;
import java.util.TreeSet;
import java.util.zip.GZIPOutputStream;

/**
 * Derives kube-api's data resources from the Kubernetes 1.36 API definitions in
 * {@code ../shared/api} and the Go type names of {@code kube-api/src/go/go-type-names.txt}
 * (written by {@code kube-api/scripts/go-type-names.py} from kube's Go sources). Run it after
 * those inputs change and commit its output:
 *
 * <pre>java -cp ... io.apiserver4j.kubeapi.internal.generator.KubeApiGenerator \
 *     ../shared/api kube-api/src/main/resources/io/apiserver4j/kubeapi \
 *     kube-api/src/go/go-type-names.txt</pre>
 *
 * <p>What each output holds and where it comes from:
 * <ul>
 *   <li>{@code resources.json}: one line per served resource. The set of resources and
 *       subresources, their scope and subresource verbs are the table of {@code api/README.md}
 *       (which was checked against the v1.36.0 swagger); singular names, verbs, short names,
 *       categories (and whether a {@code storageVersionHash} is shown) are the
 *       per-group-version discovery documents, the 1.36 ones except {@code api__v1.json},
 *       which predates {@code pods/resize}: that subresource's verbs come from the table. The
 *       hash itself is computed from kube 1.36's storage version (see {@link #STORAGE_GVK}).
 *       Group order is the order of
 *       {@code aggregated_v2.json} (a 1.33 document, used for nothing else). The schema type of a
 *       kind is the swagger definition that declares its group-version-kind.
 *   <li>{@code schema.json.gz}: the structured-merge-diff types the served kinds use (client-go's
 *       {@code smd-schema.yaml}, plus types client-go has no apply configurations for, such as
 *       CustomResourceDefinition, APIService, the review kinds and autoscaling/v1 Scale,
 *       converted from the swagger definitions as kube-openapi's schema converter does), the
 *       strategic merge patch tags of their fields (swagger's
 *       {@code x-kubernetes-patch-strategy}/{@code -merge-key}, including {@code retainKeys}),
 *       the zero values Go writes for fields it always encodes (see {@link #zeros}), and the Go
 *       numeric and byte types SMD leaves out (swagger's formats, see {@link #goTypes}).
 *   <li>{@code openapi.json.gz}: the swagger definitions (descriptions, formats, enums, required
 *       fields, extensions) of the served kinds, their lists and the types they use, for the
 *       server's OpenAPI documents.
 * </ul>
 * Output is deterministic: the same inputs give the same bytes.
 */
public final class KubeApiGenerator {
  static final String UNTYPED_ATOMIC = "__untyped_atomic_";
  static final String UNTYPED_DEDUCED = "__untyped_deduced_";
  private static final String META = "io.k8s.apimachinery.pkg.apis.meta.v1.";
  private static final DecodeLimits BIG = DecodeLimits.DEFAULT.withMaxNodes(50_000_000);

  /**
   * Go facts neither input states: fields of non-pointer struct types that encode as something
   * although nothing set them (metav1.Time encodes its zero as null, intstr.IntOrString as 0).
   * ObjectMeta's creationTimestamp is not one of them: it is {@code omitzero} since 1.35.
   */
  private static final Map<String, Map<String, Value>> GO_ALWAYS_WRITTEN = Map.of(
      "io.k8s.api.core.v1.Event", Map.of("eventTime", Value.nullValue(),
          "firstTimestamp", Value.nullValue(), "lastTimestamp", Value.nullValue()),
      "io.k8s.api.core.v1.ServicePort", Map.of("targetPort", Value.of(0L)));

  /**
   * The resources kube-apiserver 1.36 stores in another group-version-kind than the one served
   * (by "group/resource"): the encoding overrides of kube's
   * {@code pkg/kubeapiserver/default_storage_factory_builder.go} (MutatingAdmissionPolicies and
   * their bindings stay at v1beta1 for the release they went GA in), its cohabiting resources
   * (events.k8s.io events are core v1 Events), the versions its scheme prefers
   * (autoscaling/v2 for every HorizontalPodAutoscaler) and apiextensions-apiserver's v1beta1
   * storage of CRDs; every one is an {@code ExpectedGVK} of kube's
   * {@code test/integration/etcd/data.go}. Every other resource is stored as served.
   */
  private static final Map<String, String> STORAGE_GVK = Map.of(
      "admissionregistration.k8s.io/mutatingadmissionpolicies",
      "admissionregistration.k8s.io/v1beta1/MutatingAdmissionPolicy",
      "admissionregistration.k8s.io/mutatingadmissionpolicybindings",
      "admissionregistration.k8s.io/v1beta1/MutatingAdmissionPolicyBinding",
      "events.k8s.io/events", "/v1/Event",
      "autoscaling/horizontalpodautoscalers", "autoscaling/v2/HorizontalPodAutoscaler",
      "apiextensions.k8s.io/customresourcedefinitions",
      "apiextensions.k8s.io/v1beta1/CustomResourceDefinition");

  /** Types every document or subresource refers to besides the kinds' own. */
  private static final List<String> EXTRA_DEFINITIONS = List.of(META + "DeleteOptions",
      META + "Status", META + "Patch", META + "WatchEvent");

  private final Path api;
  private final Path goTypeNames;
  private final MapValue swagger;

  private KubeApiGenerator(Path api, Path goTypeNames) {
    this.api = api;
    this.goTypeNames = goTypeNames;
    this.swagger = (MapValue) ((MapValue) readJson(api.resolve("openapi/swagger.json")))
        .getOrNull("definitions");
  }

  /**
   * Writes the outputs for {@code args[0]} (the {@code shared/api} directory) and {@code args[2]}
   * (the Go type names) into {@code args[1]}.
   */
  public static void main(String[] args) throws IOException {
    if (args.length != 3) {
      throw new IllegalArgumentException("usage: KubeApiGenerator <shared/api> <output directory>"
          + " <go-type-names.txt>");
    }
    Path out = Path.of(args[1]);
    Files.createDirectories(out);
    for (Map.Entry<String, byte[]> e : generate(Path.of(args[0]), Path.of(args[2])).entrySet()) {
      Files.write(out.resolve(e.getKey()), e.getValue());
    }
  }

  /** The outputs, by file name. */
  public static Map<String, byte[]> generate(Path sharedApi, Path goTypeNames) {
    return new KubeApiGenerator(sharedApi, goTypeNames).run();
  }

  private Map<String, byte[]> run() {
    List<MapValue> resources = resources();
    StringBuilder lines = new StringBuilder("[\n");
    for (int i = 0; i < resources.size(); i++) {
      lines.append(Json.write(resources.get(i))).append(i + 1 < resources.size() ? ",\n" : "\n");
    }
    lines.append("]\n");

    List<String> roots = new ArrayList<>();
    for (MapValue r : resources) {
      roots.add(str(r, "schemaType"));
      for (Value s : ((ListValue) r.getOrNull("subresources")).items()) {
        String t = str((MapValue) s, "schemaType");
        if (!t.isEmpty()) {
          roots.add(t);
        }
      }
    }
    Map<String, byte[]> out = new LinkedHashMap<>();
    out.put("resources.json", lines.toString().getBytes(StandardCharsets.UTF_8));
    out.put("schema.json.gz", gzip(Json.writeBytes(schema(roots))));
    out.put("openapi.json.gz", gzip(Json.writeBytes(openApi(roots, resources))));
    return out;
  }

  // ---- resources ---------------------------------------------------------------------------

  private record Row(String groupVersion, String resource, String kind, String scope,
      List<String> verbs, String subresources) {}

  private List<MapValue> resources() {
    List<Row> rows = table();
    List<String> groupOrder = new ArrayList<>();
    groupOrder.add("");
    MapValue aggregated = (MapValue) readJson(api.resolve("discovery/aggregated_v2.json"));
    for (Value item : ((ListValue) aggregated.getOrNull("items")).items()) {
      groupOrder.add(str((MapValue) ((MapValue) item).getOrNull("metadata"), "name"));
    }
    Map<String, List<Row>> byGroup = new TreeMap<>((a, b) -> {
      int ia = groupOrder.indexOf(a);
      int ib = groupOrder.indexOf(b);
      if (ia < 0 || ib < 0) {
        throw new IllegalStateException("group missing from aggregated_v2.json: "
            + (ia < 0 ? a : b));
      }
      return Integer.compare(ia, ib);
    });
    for (Row r : rows) {
      byGroup.computeIfAbsent(group(r.groupVersion), g -> new ArrayList<>()).add(r);
    }
    Map<String, Map<String, MapValue>> discovery = new LinkedHashMap<>();
    Map<String, String> gvkToDefinition = gvkToDefinition();
    List<MapValue> out = new ArrayList<>();
    for (List<Row> groupRows : byGroup.values()) {
      for (Row r : groupRows) {
        Map<String, MapValue> doc = discovery.computeIfAbsent(r.groupVersion, this::discovery);
        out.add(resource(r, doc, gvkToDefinition));
      }
    }
    return out;
  }

  // The table of api/README.md under "Resources a 1.36 kube-apiserver serves by default".
  private List<Row> table() {
    String readme = readString(api.resolve("README.md"));
    int start = readme.indexOf("## Resources a 1.36 kube-apiserver serves by default");
    if (start < 0) {
      throw new IllegalStateException("README.md has no resource table");
    }
    int tableStart = readme.indexOf("| group/version | resource |", start);
    List<Row> rows = new ArrayList<>();
    for (String line : readme.substring(tableStart).split("\n")) {
      if (!line.startsWith("|")) {
        break;
      }
      String[] cells = line.split("\\|", -1);
      if (cells.length != 9 || cells[1].trim().equals("group/version")
          || cells[1].trim().startsWith("---")) {
        continue;
      }
      rows.add(new Row(cells[1].trim(), cells[2].trim(), cells[3].trim(), cells[4].trim(),
          List.of(cells[5].trim().split(",")), cells[7].trim()));
    }
    if (rows.size() != 68) {
      throw new IllegalStateException("expected 68 resources in the README table, found "
          + rows.size());
    }
    return rows;
  }

  private Map<String, MapValue> discovery(String groupVersion) {
    String file = groupVersion.equals("v1") ? "api__v1.json"
        : "apis__" + groupVersion.replace("/", "__") + ".json";
    MapValue doc = (MapValue) readJson(api.resolve("discovery").resolve(file));
    Map<String, MapValue> byName = new LinkedHashMap<>();
    for (Value v : ((ListValue) doc.getOrNull("resources")).items()) {
      byName.put(str((MapValue) v, "name"), (MapValue) v);
    }
    return byName;
  }

  private MapValue resource(Row r, Map<String, MapValue> doc, Map<String, String> defs) {
    MapValue d = doc.get(r.resource);
    if (d == null) {
      throw new IllegalStateException("no discovery entry for " + r.groupVersion + " "
          + r.resource);
    }
    String group = group(r.groupVersion);
    String version = r.groupVersion.substring(r.groupVersion.indexOf('/') + 1);
    boolean namespaced = r.scope.equals("Namespaced");
    if (!str(d, "kind").equals(r.kind) || bool(d, "namespaced") != namespaced) {
      throw new IllegalStateException("discovery disagrees with the table on " + r.resource);
    }
    String schemaType = definition(defs, group, version, r.kind);
    ListValue.Builder subs = ListValue.builder();
    if (!r.subresources.equals("—")) {
      for (String part : r.subresources.split("; ")) {
        subs.add(subresource(part.trim(), r, group, version, doc, defs));
      }
    }
    return MapValue.builder()
        .put("group", Value.of(group))
        .put("version", Value.of(version))
        .put("resource", Value.of(r.resource))
        .put("singular", Value.of(str(d, "singularName")))
        .put("kind", Value.of(r.kind))
        .put("listKind", Value.of(r.kind + "List"))
        .put("namespaced", Value.of(namespaced))
        .put("verbs", d.getOrNull("verbs"))
        .put("shortNames", orEmpty(d.getOrNull("shortNames")))
        .put("categories", orEmpty(d.getOrNull("categories")))
        .put("storageVersionHash", Value.of(str(d, "storageVersionHash").isEmpty() ? ""
            : storageVersionHash(STORAGE_GVK.getOrDefault(group + "/" + r.resource,
                group + "/" + version + "/" + r.kind))))
        .put("schemaType", Value.of(schemaType))
        .put("subresources", subs.build())
        .build();
  }

  /**
   * kube-apiserver's {@code StorageVersionHash} (k8s.io/apiserver {@code pkg/endpoints/discovery}):
   * the standard base64 of the first 8 bytes of the SHA-256 of "group/version/Kind". The
   * discovery documents' hashes are not used: some were generated while a resource was still
   * stored at an older version.
   */
  static String storageVersionHash(String groupVersionKind) {
    try {
      byte[] sum = java.security.MessageDigest.getInstance("SHA-256")
          .digest(groupVersionKind.getBytes(StandardCharsets.UTF_8));
      return java.util.Base64.getEncoder().encodeToString(java.util.Arrays.copyOf(sum, 8));
    } catch (java.security.NoSuchAlgorithmException e) {
      throw new IllegalStateException("SHA-256 is missing from this JVM", e);
    }
  }

  // "scale (get,update,patch) →autoscaling/v1 Scale"
  private MapValue subresource(String spec, Row parent, String group, String version,
      Map<String, MapValue> doc, Map<String, String> defs) {
    int paren = spec.indexOf(" (");
    int close = spec.indexOf(')', paren);
    String name = spec.substring(0, paren);
    List<String> tableVerbs = List.of(spec.substring(paren + 2, close).split(","));
    String subGroup = group;
    String subVersion = version;
    String kind = parent.kind;
    int arrow = spec.indexOf('→');
    if (arrow >= 0) {
      String[] target = spec.substring(arrow + 1).trim().split(" ");
      subGroup = group(target[0]);
      subVersion = target[0].substring(target[0].indexOf('/') + 1);
      kind = target[1];
    }
    MapValue d = doc.get(parent.resource + "/" + name);
    List<Value> verbs = new ArrayList<>();
    if (d != null) {
      verbs.addAll(((ListValue) d.getOrNull("verbs")).items());
      if (!str(d, "kind").equals(kind)) {
        throw new IllegalStateException("discovery disagrees with the table on "
            + parent.resource + "/" + name);
      }
    } else {
      // only pods/resize (see the class comment); discovery lists verbs sorted
      new TreeSet<>(tableVerbs).forEach(v -> verbs.add(Value.of(v)));
    }
    String schemaType = defs.getOrDefault(subGroup + "/" + subVersion + "/" + kind, "");
    return MapValue.builder()
        .put("name", Value.of(name))
        .put("group", Value.of(subGroup))
        .put("version", Value.of(subVersion))
        .put("kind", Value.of(kind))
        .put("verbs", ListValue.of(verbs))
        .put("schemaType", Value.of(schemaType))
        .build();
  }

  private Map<String, String> gvkToDefinition() {
    Map<String, String> out = new LinkedHashMap<>();
    swagger.forEach((name, def) -> {
      Value gvks = ((MapValue) def).getOrNull("x-kubernetes-group-version-kind");
      if (gvks instanceof ListValue l) {
        for (Value g : l.items()) {
          MapValue m = (MapValue) g;
          out.putIfAbsent(str(m, "group") + "/" + str(m, "version") + "/" + str(m, "kind"), name);
        }
      }
    });
    return out;
  }

  private static String definition(Map<String, String> defs, String group, String version,
      String kind) {
    String d = defs.get(group + "/" + version + "/" + kind);
    if (d == null) {
      throw new IllegalStateException("no swagger definition for " + group + "/" + version + "/"
          + kind);
    }
    return d;
  }

  // ---- SMD schema --------------------------------------------------------------------------

  private MapValue schema(List<String> roots) {
    Map<String, MapValue> smd = new LinkedHashMap<>();
    MapValue smdFile = (MapValue) Yaml.read(readString(api.resolve("smd-schema.yaml")), BIG);
    for (Value t : ((ListValue) smdFile.getOrNull("types")).items()) {
      smd.put(str((MapValue) t, "name"), (MapValue) t);
    }
    Set<String> kinds = new TreeSet<>(roots);
    Map<String, MapValue> types = new TreeMap<>();
    Set<String> converted = new TreeSet<>();
    Deque<String> pending = new ArrayDeque<>(roots);
    pending.add(UNTYPED_ATOMIC);
    pending.add(UNTYPED_DEDUCED);
    while (!pending.isEmpty()) {
      String name = pending.poll();
      if (types.containsKey(name)) {
        continue;
      }
      MapValue t = smd.get(name);
      if (t == null) {
        MapValue def = (MapValue) swagger.getOrNull(name);
        if (def == null) {
          throw new IllegalStateException("type " + name + " is in neither input");
        }
        t = SwaggerToSmd.namedType(name, def);
        converted.add(name);
      }
      types.put(name, t);
      collectNamed(t, pending);
    }
    ListValue.Builder typeList = ListValue.builder(types.size());
    types.values().forEach(typeList::add);
    return MapValue.builder()
        .put("types", typeList.build())
        .put("patch", patchTags(types.keySet()))
        .put("zeros", zeros(types, converted, kinds))
        .put("go", goTypes(types.keySet()))
        .build();
  }

  /**
   * The Go type of every field whose Go type SMD does not say, by type and field: integers
   * ({@code int32}, {@code int64}), floats ({@code float64}) and byte slices ({@code []uint8},
   * base64 in JSON), also as elements of slices ({@code []int64}) and maps
   * ({@code map[string][]uint8}). Read from the swagger formats, which kube-openapi derives from
   * the Go types; strings, booleans, structs and the named types SMD names (IntOrString,
   * Quantity, Time) need no entry. Fields of named non-struct Go types get that name, as Go's
   * errors print it ({@code v1.Protocol}, {@code []v1.Capability}, {@code v1.ResourceList}).
   */
  private MapValue goTypes(Set<String> typeNames) {
    Map<String, Map<String, String>> names = new LinkedHashMap<>();
    for (String line : readString(goTypeNames).split("\n")) {
      if (line.isBlank() || line.startsWith("#")) {
        continue;
      }
      String[] parts = line.trim().split(" ");
      names.computeIfAbsent(parts[0], k -> new LinkedHashMap<>()).put(parts[1], parts[2]);
    }
    MapValue.Builder out = MapValue.builder();
    for (String name : typeNames) {
      MapValue def = swagger.getOrNull(name) instanceof MapValue m ? m : null;
      if (def == null || !(def.getOrNull("properties") instanceof MapValue props)) {
        continue;
      }
      Map<String, String> named = names.getOrDefault(name, Map.of());
      MapValue.Builder fields = MapValue.builder();
      for (String field : new TreeSet<>(props.asMap().keySet())) {
        String go = goType((MapValue) props.getOrNull(field));
        String goName = named.get(field);
        if (goName != null && !go.isEmpty()) {
          // one string cannot say both; no field of 1.36 needs it
          throw new IllegalStateException(name + "." + field + " is both " + go + " and "
              + goName);
        }
        if (goName != null) {
          go = goName;
        }
        if (!go.isEmpty()) {
          fields.put(field, Value.of(go));
        }
      }
      MapValue f = fields.build();
      if (!f.isEmpty()) {
        out.put(name, f);
      }
    }
    return out.build();
  }

  // kube-openapi's formats for Go's numeric types and []byte; "" for anything else
  private static String goType(MapValue property) {
    if (property.getOrNull("$ref") != null) {
      return "";
    }
    String format = str(property, "format");
    switch (str(property, "type")) {
      case "integer":
        return format.equals("int32") ? "int32" : "int64";
      case "number":
        return format.equals("float") ? "float32" : "float64";
      case "string":
        return format.equals("byte") ? "[]uint8" : "";
      case "array": {
        String item = property.getOrNull("items") instanceof MapValue i ? goType(i) : "";
        return item.isEmpty() ? "" : "[]" + item;
      }
      case "object": {
        String element = property.getOrNull("additionalProperties") instanceof MapValue a
            ? goType(a) : "";
        return element.isEmpty() ? "" : "map[string]" + element;
      }
      default:
        return "";
    }
  }

  private static void collectNamed(Value v, Deque<String> out) {
    if (v instanceof MapValue m) {
      for (int i = 0; i < m.size(); i++) {
        if (m.keyAt(i).equals("namedType") && m.valueAt(i) instanceof StringValue s) {
          out.add(s.value());
        } else {
          collectNamed(m.valueAt(i), out);
        }
      }
    } else if (v instanceof ListValue l) {
      l.items().forEach(x -> collectNamed(x, out));
    }
  }

  private MapValue patchTags(Set<String> typeNames) {
    MapValue.Builder out = MapValue.builder();
    for (String name : typeNames) {
      MapValue def = swagger.getOrNull(name) instanceof MapValue m ? m : null;
      if (def == null || !(def.getOrNull("properties") instanceof MapValue props)) {
        continue;
      }
      MapValue.Builder fields = MapValue.builder();
      for (String field : new TreeSet<>(props.asMap().keySet())) {
        MapValue p = (MapValue) props.getOrNull(field);
        String strategy = str(p, "x-kubernetes-patch-strategy");
        String key = str(p, "x-kubernetes-patch-merge-key");
        if (!strategy.isEmpty()) {
          fields.put(field, Value.of(key.isEmpty() ? strategy : strategy + "/" + key));
        }
      }
      MapValue f = fields.build();
      if (!f.isEmpty()) {
        out.put(name, f);
      }
    }
    return out.build();
  }

  /**
   * What kube's Go structs encode for a field nothing set, by type and field: client-go's SMD
   * schema records it as the {@code default} of such fields ({@code {}} for non-pointer
   * structs, {@code ""}, {@code 0}, {@code false} for scalars without omitempty); a required
   * field with no such default is a slice, map or pointer without omitempty, encoded as null.
   * Types converted from swagger get the same reading of its {@code required} list, and the
   * kinds' (also subresource kinds') {@code metadata}, {@code spec} and {@code status} (always non-pointer structs).
   */
  private MapValue zeros(Map<String, MapValue> types, Set<String> converted, Set<String> kinds) {
    MapValue.Builder out = MapValue.builder();
    types.forEach((name, type) -> {
      if (!(type.getOrNull("map") instanceof MapValue map)
          || !(map.getOrNull("fields") instanceof ListValue fields)) {
        return;
      }
      MapValue def = swagger.getOrNull(name) instanceof MapValue m ? m : MapValue.empty();
      Set<String> required = new LinkedHashSet<>();
      if (def.getOrNull("required") instanceof ListValue req) {
        req.items().forEach(v -> required.add(((StringValue) v).value()));
      }
      Map<String, Value> zero = new TreeMap<>();
      for (Value f : fields.items()) {
        MapValue field = (MapValue) f;
        String fieldName = str(field, "name");
        Value dflt = field.getOrNull("default");
        MapValue ref = (MapValue) field.getOrNull("type");
        if (dflt != null && isZero(dflt)) {
          zero.put(fieldName, dflt);
        } else if (converted.contains(name) && kinds.contains(name)
            && List.of("metadata", "spec", "status").contains(fieldName)
            && ref.getOrNull("namedType") != null) {
          zero.put(fieldName, MapValue.empty());
        } else if (dflt == null && required.contains(fieldName)) {
          zero.put(fieldName, converted.contains(name) ? convertedZero(ref, types)
              : Value.nullValue());
        }
      }
      Map<String, Value> extra = GO_ALWAYS_WRITTEN.get(name);
      if (extra != null) {
        zero.putAll(extra);
      }
      if (!zero.isEmpty()) {
        MapValue.Builder b = MapValue.builder();
        zero.forEach(b::put);
        out.put(name, b.build());
      }
    });
    return out.build();
  }

  private static boolean isZero(Value v) {
    return (v instanceof MapValue m && m.isEmpty()) || (v instanceof StringValue s
        && s.value().isEmpty()) || (v instanceof IntegerValue i && i.value() == 0)
        || (v instanceof BooleanValue b && !b.value());
  }

  // A required field of a converted type: scalars and structs have zero values, the rest null.
  private static Value convertedZero(MapValue ref, Map<String, MapValue> types) {
    MapValue atom = ref;
    if (ref.getOrNull("namedType") instanceof StringValue n) {
      atom = types.getOrDefault(n.value(), MapValue.empty());
      if (atom.getOrNull("map") instanceof MapValue m && m.getOrNull("fields") != null) {
        return MapValue.empty();
      }
    }
    if (atom.getOrNull("list") != null || atom.getOrNull("map") != null) {
      return Value.nullValue();
    }
    String scalar = str(atom, "scalar");
    switch (scalar) {
      case "string":
        return Value.of("");
      case "numeric":
        return Value.of(0L);
      case "boolean":
        return Value.of(false);
      default:
        return Value.nullValue();
    }
  }

  // ---- OpenAPI -----------------------------------------------------------------------------

  private MapValue openApi(List<String> roots, List<MapValue> resources) {
    Deque<String> pending = new ArrayDeque<>(roots);
    for (MapValue r : resources) {
      // resources that cannot be listed (bindings, the reviews) have no list type
      if (((ListValue) r.getOrNull("verbs")).items().contains(Value.of("list"))) {
        String t = str(r, "schemaType");
        pending.add(t.substring(0, t.lastIndexOf('.') + 1) + str(r, "listKind"));
      }
    }
    pending.addAll(EXTRA_DEFINITIONS);
    Map<String, Value> defs = new TreeMap<>();
    while (!pending.isEmpty()) {
      String name = pending.poll();
      if (defs.containsKey(name)) {
        continue;
      }
      Value def = swagger.getOrNull(name);
      if (def == null) {
        throw new IllegalStateException("swagger has no definition " + name);
      }
      defs.put(name, def);
      collectRefs(def, pending);
    }
    MapValue.Builder b = MapValue.builder(defs.size());
    defs.forEach(b::put);
    return MapValue.builder().put("definitions", b.build()).build();
  }

  private static void collectRefs(Value v, Deque<String> out) {
    if (v instanceof MapValue m) {
      for (int i = 0; i < m.size(); i++) {
        if (m.keyAt(i).equals("$ref") && m.valueAt(i) instanceof StringValue s) {
          out.add(s.value().substring("#/definitions/".length()));
        } else {
          collectRefs(m.valueAt(i), out);
        }
      }
    } else if (v instanceof ListValue l) {
      l.items().forEach(x -> collectRefs(x, out));
    }
  }

  // ---- helpers -----------------------------------------------------------------------------

  private static String group(String groupVersion) {
    int slash = groupVersion.indexOf('/');
    return slash < 0 ? "" : groupVersion.substring(0, slash);
  }

  static String str(MapValue m, String key) {
    return m.getOrNull(key) instanceof StringValue s ? s.value() : "";
  }

  private static boolean bool(MapValue m, String key) {
    return m.getOrNull(key) instanceof BooleanValue b && b.value();
  }

  private static Value orEmpty(Value v) {
    return v == null ? ListValue.empty() : v;
  }

  private static Value readJson(Path p) {
    try {
      return Json.read(Files.readAllBytes(p), BIG);
    } catch (IOException e) {
      throw new UncheckedIOException(e);
    }
  }

  private static String readString(Path p) {
    try {
      return Files.readString(p, StandardCharsets.UTF_8);
    } catch (IOException e) {
      throw new UncheckedIOException(e);
    }
  }

  private static byte[] gzip(byte[] data) {
    ByteArrayOutputStream bytes = new ByteArrayOutputStream();
    // GZIPOutputStream writes a fixed header (no name, no time), so the output is reproducible
    try (GZIPOutputStream gz = new GZIPOutputStream(bytes)) {
      gz.write(data);
    } catch (IOException e) {
      throw new UncheckedIOException(e);
    }
    return bytes.toByteArray();
  }
}
