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
 * Derives kube-api's data resources of every served release from the Kubernetes API definitions
 * in {@code ../shared/api} (1.36) and {@code ../shared/api-versions/<release>} (1.33 to 1.35),
 * and the Go type names of {@code kube-api/src/go/go-type-names.txt} (written by
 * {@code kube-api/scripts/go-type-names.py} from kube's Go sources). Run it after those inputs
 * change and commit its output:
 *
 * <pre>java -cp ... io.apiserver4j.kubeapi.internal.generator.KubeApiGenerator \
 *     ../shared kube-api/src/main/resources/io/apiserver4j/kubeapi \
 *     kube-api/src/go/go-type-names.txt kube-api/src/proto/go-field-hints.txt</pre>
 *
 * <p>The 1.36 outputs go to the output directory itself, those of an older release to its
 * {@code <release>/} subdirectory (e.g. {@code 1.33/}). What each output holds and where it
 * comes from:
 * <ul>
 *   <li>{@code resources.json}: one line per served resource, from the release's discovery
 *       documents as {@link #discovery} generates them. The group order is the order of the
 *       1.36 set's {@code aggregated_v2.json} (a 1.33 document, used for nothing else). The
 *       schema type of a kind is the swagger definition that declares its group-version-kind.
 *   <li>{@code schema-types.jsonl.gz}: the structured-merge-diff types the served kinds use
 *       (client-go's {@code smd-schema.yaml}, plus types client-go has no apply configurations
 *       for, such as CustomResourceDefinition, APIService, the review kinds and autoscaling/v1
 *       Scale, converted from the swagger definitions as kube-openapi's schema converter does),
 *       sorted by name, one line per type: the type's SMD definition as compact JSON, its
 *       {@code name} first ({@code {"name":"io.k8s.api.core.v1.Pod","map":...}}), so that a
 *       reader indexes the types by scanning for line ends and parses only those it needs.
 *   <li>{@code schema.json.gz}: what SMD does not say of those types: the strategic merge patch
 *       tags of their fields ({@code patch}: swagger's
 *       {@code x-kubernetes-patch-strategy}/{@code -merge-key}, including {@code retainKeys}),
 *       the zero values Go writes for fields it always encodes ({@code zeros}, see
 *       {@link #zeros}), and the Go numeric and byte types SMD leaves out ({@code go}: swagger's
 *       formats, see {@link #goTypes}).
 *   <li>{@code openapi.json.gz}: the swagger definitions (descriptions, formats, enums, required
 *       fields, extensions) of the served kinds, their lists and the types they use, for the
 *       server's OpenAPI documents.
 *   <li>{@code proto-descriptors.json} (older releases; 1.36's is written by
 *       {@link io.apiserver4j.kubeapi.internal.proto.ProtoDescriptorGenerator} itself): the
 *       release's {@code generated.proto} files with the Go field hints that apply to them.
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
   * {@code test/integration/etcd/data.go}. Every other resource is stored as served
   * (EndpointSlices too: data.go expects {@code discovery.k8s.io/v1}; the 1.36 set's
   * {@code apis__discovery.k8s.io__v1.json} still carries the v1beta1 hash of an older release).
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

  /**
   * When an emulated release's storage version was introduced after its minimum compatibility
   * version (one minor below), kube stores at the first version of the group's priority list
   * that was introduced by then ({@code storageVersionAtEmulationVersion} of kube's
   * {@code test/integration/etcd/data.go}). These are the storage versions of GA resources that
   * rule moves, with their {@code IntroducedVersion} there, by "group/resource": version and
   * minor it was introduced in, in the group's priority order.
   */
  private static final Map<String, List<Map.Entry<String, Integer>>> INTRODUCED = Map.of(
      "networking.k8s.io/ipaddresses", List.of(Map.entry("v1", 33), Map.entry("v1beta1", 31)),
      "networking.k8s.io/servicecidrs", List.of(Map.entry("v1", 33), Map.entry("v1beta1", 31)),
      "storage.k8s.io/volumeattributesclasses",
      List.of(Map.entry("v1", 34), Map.entry("v1beta1", 31)),
      "resource.k8s.io/deviceclasses", List.of(Map.entry("v1", 34), Map.entry("v1beta2", 33)),
      "resource.k8s.io/resourceclaims", List.of(Map.entry("v1", 34), Map.entry("v1beta2", 33)),
      "resource.k8s.io/resourceclaimtemplates",
      List.of(Map.entry("v1", 34), Map.entry("v1beta2", 33)),
      "resource.k8s.io/resourceslices", List.of(Map.entry("v1", 34), Map.entry("v1beta2", 33)));

  /** The served resources of each release's table (its README says how many). */
  private static final Map<String, Integer> RESOURCE_COUNT =
      Map.of("1.33", 61, "1.34", 66, "1.35", 66, "1.36", 68);

  /** The newest release, whose data is {@code shared/api}; the others are api-versions'. */
  public static final String LATEST = "1.36";

  /** Every release the generator writes, oldest first. */
  public static final List<String> RELEASES = List.of("1.33", "1.34", "1.35", LATEST);

  /** Types every document or subresource refers to besides the kinds' own. */
  private static final List<String> EXTRA_DEFINITIONS = List.of(META + "DeleteOptions",
      META + "Status", META + "Patch", META + "WatchEvent");

  private final String release;
  private final Path api;
  private final Path groupOrder;
  private final Path goTypeNames;
  private final Path fieldHints;
  private final MapValue swagger;

  private KubeApiGenerator(String release, Path shared, Path goTypeNames, Path fieldHints) {
    if (!RELEASES.contains(release)) {
      throw new IllegalArgumentException("no data for release " + release + "; known: "
          + RELEASES);
    }
    this.release = release;
    this.api = releaseDirectory(shared, release);
    this.groupOrder = shared.resolve("api/discovery/aggregated_v2.json");
    this.goTypeNames = goTypeNames;
    this.fieldHints = fieldHints;
    this.swagger = (MapValue) ((MapValue) readJson(api.resolve("openapi/swagger.json")))
        .getOrNull("definitions");
  }

  /** {@return where {@code release}'s upstream data is under the {@code shared} directory} */
  public static Path releaseDirectory(Path shared, String release) {
    return release.equals(LATEST) ? shared.resolve("api")
        : shared.resolve("api-versions").resolve(release);
  }

  /** {@return where {@code release}'s outputs go under the output directory} */
  public static Path outputDirectory(Path out, String release) {
    return release.equals(LATEST) ? out : out.resolve(release);
  }

  /**
   * Writes the outputs of every release for {@code args[0]} (the {@code shared} directory),
   * {@code args[2]} (the Go type names) and {@code args[3]} (the Go field hints of the protobuf
   * descriptors) into {@code args[1]}.
   */
  public static void main(String[] args) throws IOException {
    if (args.length != 4) {
      throw new IllegalArgumentException("usage: KubeApiGenerator <shared> <output directory>"
          + " <go-type-names.txt> <go-field-hints.txt>");
    }
    Path shared = Path.of(args[0]);
    for (String release : RELEASES) {
      Path out = outputDirectory(Path.of(args[1]), release);
      Files.createDirectories(out);
      for (Map.Entry<String, byte[]> e : generate(release, shared, Path.of(args[2]),
          Path.of(args[3])).entrySet()) {
        Files.write(out.resolve(e.getKey()), e.getValue());
      }
    }
  }

  /** The outputs of {@code release} (e.g. {@code 1.33}), by file name. */
  public static Map<String, byte[]> generate(String release, Path shared, Path goTypeNames,
      Path fieldHints) {
    return new KubeApiGenerator(release, shared, goTypeNames, fieldHints).run();
  }

  /**
   * The per-group-version discovery documents ({@code APIResourceList}) of {@code release}, by
   * kube's file name ({@code api__v1.json}, {@code apis__apps__v1.json}), as kube writes them
   * under {@code api/discovery}: generated from the release's table of served resources (kinds,
   * scopes, verbs, short names, categories, subresources, all read from its swagger) and its
   * storage versions. Formatted as {@code jq -S} does (sorted keys, two-space indent).
   */
  public static Map<String, byte[]> discovery(String release, Path shared) {
    KubeApiGenerator g = new KubeApiGenerator(release, shared, Path.of(""), Path.of(""));
    Map<String, byte[]> out = new TreeMap<>();
    g.discoveryDocuments().forEach((gv, doc) -> out.put(discoveryFile(gv),
        (JqJson.write(doc) + "\n").getBytes(StandardCharsets.UTF_8)));
    return out;
  }

  private static String discoveryFile(String groupVersion) {
    return groupVersion.equals("v1") ? "api__v1.json"
        : "apis__" + groupVersion.replace("/", "__") + ".json";
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
    MapValue schema = schema(roots);
    out.put("schema-types.jsonl.gz", gzip(typeLines((ListValue) schema.getOrNull("types"))));
    out.put("schema.json.gz", gzip(Json.writeBytes(MapValue.builder()
        .put("patch", schema.getOrNull("patch"))
        .put("zeros", schema.getOrNull("zeros"))
        .put("go", schema.getOrNull("go"))
        .build())));
    out.put("openapi.json.gz", gzip(Json.writeBytes(openApi(roots, resources))));
    if (!release.equals(LATEST)) {
      out.put("proto-descriptors.json", io.apiserver4j.kubeapi.internal.proto
          .ProtoDescriptorGenerator.generate(api.resolve("proto"), fieldHints,
              io.apiserver4j.kubeapi.internal.proto.ProtoDescriptorGenerator.Hints.WHERE_FIELDS_EXIST));
    }
    return out;
  }

  // ---- resources ---------------------------------------------------------------------------

  private record Row(String groupVersion, String resource, String kind, String scope,
      List<String> verbs, List<String> shortNames, List<String> categories,
      String subresources) {}

  private List<MapValue> resources() {
    List<Row> rows = table();
    Map<String, List<Row>> byGroup = new TreeMap<>(groupOrder());
    for (Row r : rows) {
      byGroup.computeIfAbsent(group(r.groupVersion), g -> new ArrayList<>()).add(r);
    }
    Map<String, Map<String, MapValue>> discovery = new LinkedHashMap<>();
    discoveryDocuments().forEach((gv, doc) -> {
      Map<String, MapValue> byName = new LinkedHashMap<>();
      for (Value v : ((ListValue) doc.getOrNull("resources")).items()) {
        byName.put(str((MapValue) v, "name"), (MapValue) v);
      }
      discovery.put(gv, byName);
    });
    Map<String, String> gvkToDefinition = gvkToDefinition();
    List<MapValue> out = new ArrayList<>();
    for (List<Row> groupRows : byGroup.values()) {
      for (Row r : groupRows) {
        out.add(resource(r, discovery.get(r.groupVersion), gvkToDefinition));
      }
    }
    return out;
  }

  // kube-apiserver's group order: the 1.36 set's aggregated_v2.json, the core group first
  private java.util.Comparator<String> groupOrder() {
    List<String> order = new ArrayList<>();
    order.add("");
    MapValue aggregated = (MapValue) readJson(groupOrder);
    for (Value item : ((ListValue) aggregated.getOrNull("items")).items()) {
      order.add(str((MapValue) ((MapValue) item).getOrNull("metadata"), "name"));
    }
    return (a, b) -> {
      int ia = order.indexOf(a);
      int ib = order.indexOf(b);
      if (ia < 0 || ib < 0) {
        throw new IllegalStateException("group missing from aggregated_v2.json: "
            + (ia < 0 ? a : b));
      }
      return Integer.compare(ia, ib);
    };
  }

  /**
   * The discovery documents by group version, in table order: each resource with its kind,
   * scope, singular name (the lower-case kind, as kube's REST storage defaults it), verbs
   * (sorted, as kube lists them), short names and categories (omitted when empty), and a
   * {@code storageVersionHash} when it is stored (kube shows one for every resource whose
   * storage can be watched; bindings, componentstatuses and the reviews have none); each
   * subresource with its kind and verbs, and its group and version when they differ from the
   * parent's. Every kind is checked against the swagger.
   */
  private Map<String, MapValue> discoveryDocuments() {
    Map<String, String> defs = gvkToDefinition();
    Map<String, List<MapValue>> byGroupVersion = new LinkedHashMap<>();
    for (Row r : table()) {
      String group = group(r.groupVersion);
      String version = r.groupVersion.substring(r.groupVersion.indexOf('/') + 1);
      definition(defs, group, version, r.kind);
      boolean namespaced = r.scope.equals("Namespaced");
      List<String> verbs = new ArrayList<>(new TreeSet<>(r.verbs));
      MapValue.Builder b = MapValue.builder()
          .put("kind", Value.of(r.kind))
          .put("name", Value.of(r.resource))
          .put("namespaced", Value.of(namespaced))
          .put("singularName", Value.of(r.kind.toLowerCase(java.util.Locale.ROOT)))
          .put("verbs", strings(verbs));
      if (!r.shortNames.isEmpty()) {
        b.put("shortNames", strings(r.shortNames));
      }
      if (!r.categories.isEmpty()) {
        b.put("categories", strings(r.categories));
      }
      if (verbs.contains("watch")) {
        b.put("storageVersionHash", Value.of(storageVersionHash(storageGvk(group, version,
            r.resource, r.kind))));
      }
      List<MapValue> docResources = byGroupVersion.computeIfAbsent(r.groupVersion,
          k -> new ArrayList<>());
      docResources.add(b.build());
      if (!r.subresources.equals("—")) {
        for (String part : r.subresources.split("; ")) {
          docResources.add(discoverySubresource(part.trim(), r, group, version, namespaced,
              defs));
        }
      }
    }
    Map<String, MapValue> out = new LinkedHashMap<>();
    byGroupVersion.forEach((gv, resources) -> {
      resources.sort(java.util.Comparator.comparing(m -> str(m, "name")));
      out.put(gv, JqJson.sorted(MapValue.builder()
          .put("apiVersion", Value.of("v1"))
          .put("groupVersion", Value.of(gv))
          .put("kind", Value.of("APIResourceList"))
          .put("resources", ListValue.of(new ArrayList<Value>(resources)))
          .build()));
    });
    return out;
  }

  // "scale (get,update,patch) →autoscaling/v1 Scale"
  private MapValue discoverySubresource(String spec, Row parent, String group, String version,
      boolean namespaced, Map<String, String> defs) {
    int paren = spec.indexOf(" (");
    int close = spec.indexOf(')', paren);
    String name = spec.substring(0, paren);
    List<String> verbs = new ArrayList<>(new TreeSet<>(
        List.of(spec.substring(paren + 2, close).split(","))));
    MapValue.Builder b = MapValue.builder();
    String kind = parent.kind;
    int arrow = spec.indexOf('→');
    if (arrow >= 0) {
      String[] target = spec.substring(arrow + 1).trim().split(" ");
      String subGroup = group(target[0]);
      String subVersion = target[0].substring(target[0].indexOf('/') + 1);
      kind = target[1];
      if (!subGroup.equals(group) || !subVersion.equals(version)) {
        b.put("group", Value.of(subGroup)).put("version", Value.of(subVersion));
      }
    }
    return b.put("kind", Value.of(kind))
        .put("name", Value.of(parent.resource + "/" + name))
        .put("namespaced", Value.of(namespaced))
        .put("singularName", Value.of(""))
        .put("verbs", strings(verbs))
        .build();
  }

  /**
   * The group/version/Kind {@code group/resource} is stored as in this release: kube 1.36's
   * storage version, moved back to an older version of the group while it is newer than the
   * emulated release's minimum compatibility version (see {@link #INTRODUCED}).
   */
  private String storageGvk(String group, String version, String resource, String kind) {
    String gvk = STORAGE_GVK.getOrDefault(group + "/" + resource,
        group + "/" + version + "/" + kind);
    List<Map.Entry<String, Integer>> introduced = INTRODUCED.get(group + "/" + resource);
    if (introduced == null || release.equals(LATEST)) {
      return gvk;
    }
    int minCompatibility = Integer.parseInt(release.substring(2)) - 1;
    String storageVersion = gvk.split("/")[1];
    for (Map.Entry<String, Integer> e : introduced) {
      if (e.getKey().equals(storageVersion) && e.getValue() <= minCompatibility) {
        return gvk;
      }
    }
    for (Map.Entry<String, Integer> e : introduced) {
      if (e.getValue() <= minCompatibility) {
        return group + "/" + e.getKey() + "/" + kind;
      }
    }
    return gvk;
  }

  private static ListValue strings(List<String> values) {
    ListValue.Builder b = ListValue.builder();
    values.forEach(v -> b.add(Value.of(v)));
    return b.build();
  }

  // The table of the release's README.md under "Resources a 1.3x kube-apiserver serves by
  // default"; its "short names [categories]" cell reads "po [all]", "— [api-extensions]", "—".
  private List<Row> table() {
    String readme = readString(api.resolve("README.md"));
    int start = readme.indexOf("## Resources a " + release + " kube-apiserver serves by default");
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
      String names = cells[6].trim();
      List<String> categories = List.of();
      int bracket = names.indexOf(" [");
      if (bracket >= 0) {
        categories = List.of(names.substring(bracket + 2, names.length() - 1).split(","));
        names = names.substring(0, bracket);
      }
      List<String> shortNames = names.equals("—") ? List.of() : List.of(names.split(","));
      rows.add(new Row(cells[1].trim(), cells[2].trim(), cells[3].trim(), cells[4].trim(),
          List.of(cells[5].trim().split(",")), shortNames, categories, cells[7].trim()));
    }
    if (rows.size() != RESOURCE_COUNT.get(release)) {
      throw new IllegalStateException("expected " + RESOURCE_COUNT.get(release)
          + " resources in the " + release + " README table, found " + rows.size());
    }
    return rows;
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
        .put("storageVersionHash", Value.of(str(d, "storageVersionHash")))
        .put("schemaType", Value.of(schemaType))
        .put("subresources", subs.build())
        .build();
  }

  /**
   * kube-apiserver's {@code StorageVersionHash} (k8s.io/apiserver {@code pkg/endpoints/discovery}):
   * the standard base64 of the first 8 bytes of the SHA-256 of "group/version/Kind".
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
    String name = spec.substring(0, paren);
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
      throw new IllegalStateException("no discovery entry for " + parent.resource + "/" + name);
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

  /** One line per type, its name first (the layout KubeApiData's reader indexes). */
  private static byte[] typeLines(ListValue types) {
    StringBuilder out = new StringBuilder();
    for (Value v : types.items()) {
      MapValue t = (MapValue) v;
      String name = str(t, "name");
      MapValue.Builder line = MapValue.builder(t.size()).put("name", Value.of(name));
      for (int i = 0; i < t.size(); i++) {
        if (!t.keyAt(i).equals("name")) {
          line.put(t.keyAt(i), t.valueAt(i));
        }
      }
      String json = Json.write(line.build());
      if (!json.startsWith("{\"name\":\"" + name + "\"") || json.indexOf('\n') >= 0) {
        // the reader takes the name verbatim between the first quotes of the line
        throw new IllegalStateException("type name " + name + " needs escaping in JSON");
      }
      out.append(json).append('\n');
    }
    return out.toString().getBytes(StandardCharsets.UTF_8);
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
