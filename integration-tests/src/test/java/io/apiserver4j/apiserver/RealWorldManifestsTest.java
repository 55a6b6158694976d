/*
 * Copyright The apiserver4j authors.
 * SPDX-License-Identifier: Apache-2.0
 */
package io.apiserver4j.apiserver;

import static org.assertj.core.api.Assertions.assertThat;

import io.apiserver4j.apiserver.ApiRequest.Verb;
import io.apiserver4j.core.DecodeException;
import io.apiserver4j.core.GroupVersionResource;
import io.apiserver4j.core.Json;
import io.apiserver4j.core.ListValue;
import io.apiserver4j.core.MapValue;
import io.apiserver4j.core.Nested;
import io.apiserver4j.core.Value;
import io.apiserver4j.core.Yaml;
import io.apiserver4j.apimachinery.patch.PatchType;
import java.io.IOException;
import java.io.UncheckedIOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.HashMap;
import java.util.LinkedHashSet;
import java.util.List;
import java.util.Map;
import java.util.Set;
import java.util.TreeMap;
import java.util.regex.Matcher;
import java.util.regex.Pattern;
import java.util.stream.Stream;
import org.junit.jupiter.api.DynamicTest;
import org.junit.jupiter.api.TestFactory;

/**
 * The released install manifests of {@code ../shared/realworld} (18 projects, read from there,
 * never copied; see its README for provenance): a server with the built-in kinds accepts every
 * object a Kubernetes 1.36 cluster accepts, in each project's own server (its CRDs first, the
 * namespaces it uses created as needed, its admission configuration — webhooks, policies,
 * APIServices — last, as a cluster without the project's running services would need), and
 * then:
 *
 * <ul>
 *   <li>re-applying it server-side changes nothing: the served object is the same but for
 *       {@code resourceVersion}, and the apply after it keeps the resourceVersion (kube's
 *       {@code GuaranteedUpdate} compares the new encoding with the stored bytes, so the first
 *       re-apply persists what a read defaulted, e.g. a Job's template labels; no other object
 *       may need it);
 *   <li>an update with the object as read keeps the resourceVersion.
 * </ul>
 *
 * <p>The objects kube refuses too are the two kinds the corpus README names, each decided from
 * data that is not the server's: an API version 1.36 does not serve (not in the 1.36 discovery
 * documents of {@code ../shared/api/discovery}) and a custom resource whose CRD the project does
 * not ship. Each must be refused with 404 NotFound; they are counted by reason, never skipped.
 * Files whose YAML has a duplicate key are refused by kubectl's decoder too, and counted so.
 * Examples of one project that define the same object are installs of their own: the earlier
 * one is deleted first. What else fails is listed, with why, in {@code realworld-misses.tsv}
 * (what kube refuses too for a reason the README does not name, and the server's open misses);
 * a listed miss that passes fails the test, so that the list stays true.
 */
class RealWorldManifestsTest {
  static final Path SHARED = Path.of(System.getProperty("apiserver4j.shared",
      "../shared"));
  static final Path CORPUS = SHARED.resolve("realworld/corpus");
  private static final String FIELD_MANAGER = "kubectl";
  /** Kinds whose objects change how the server answers later requests: applied last. */
  static final Set<String> ADMISSION_KINDS = Set.of("ValidatingWebhookConfiguration",
      "MutatingWebhookConfiguration", "ValidatingAdmissionPolicy",
      "ValidatingAdmissionPolicyBinding", "MutatingAdmissionPolicy",
      "MutatingAdmissionPolicyBinding", "APIService");

  /** Where a GroupVersionKind is served and whether its objects are namespaced. */
  record Mapping(GroupVersionResource gvr, boolean namespaced) {}

  private static final Pattern FAILURE = Pattern.compile("^([a-z0-9-]+/.*?): (apply answered"
      + " \\d+|re-apply changed the object|re-apply wrote although the served object did not"
      + " change|the apply after a re-apply wrote|an update with the object as read answered"
      + " \\d+)", Pattern.DOTALL);

  /**
   * The listed misses, {@code object: answer} to why: what kube refuses too for a reason the
   * corpus README does not name, and the server's own open misses.
   */
  static final Map<String, String> MISSES = misses();

  private static Map<String, String> misses() {
    Map<String, String> out = new HashMap<>();
    try (var in = RealWorldManifestsTest.class.getResourceAsStream("realworld-misses.tsv")) {
      for (String line : new String(in.readAllBytes(), java.nio.charset.StandardCharsets.UTF_8)
          .split("\n")) {
        if (!line.startsWith("#") && !line.isBlank()) {
          String[] cols = line.split("\t");
          out.put(cols[0] + ": " + cols[1], cols[2]);
        }
      }
    } catch (IOException e) {
      throw new UncheckedIOException(e);
    }
    return out;
  }

  record Doc(String file, MapValue object) {
    String apiVersion() {
      return Nested.str(object, "apiVersion");
    }

    String kind() {
      return Nested.str(object, "kind");
    }

    String group() {
      String v = apiVersion();
      return v.contains("/") ? v.substring(0, v.indexOf('/')) : "";
    }

    String name() {
      return Nested.str(object, "metadata", "name");
    }

    @Override
    public String toString() {
      return file + ": " + apiVersion() + " " + kind() + " " + name();
    }
  }

  static final Set<String> BUILTIN_GROUPS = new LinkedHashSet<>();
  /** The built-in GroupVersionKinds of 1.36, from its discovery documents. */
  static final Map<String, Mapping> BUILTIN = builtinMappings();

  private static Map<String, Mapping> builtinMappings() {
    Map<String, Mapping> out = new HashMap<>();
    try (Stream<Path> files = Files.list(SHARED.resolve("api/discovery"))) {
      for (Path p : files.filter(f -> !f.getFileName().toString().startsWith("aggregated"))
          .toList()) {
        MapValue doc = (MapValue) Json.read(Files.readString(p));
        String gv = Nested.str(doc, "groupVersion");
        String group = gv.contains("/") ? gv.substring(0, gv.indexOf('/')) : "";
        String version = gv.substring(gv.indexOf('/') + 1);
        BUILTIN_GROUPS.add(group);
        for (Value r : Nested.list(doc, "resources")) {
          String name = Nested.str(r, "name");
          if (!name.contains("/")) {
            out.put(gv + "/" + Nested.str(r, "kind"), new Mapping(
                new GroupVersionResource(group, version, name), Nested.bool(r, "namespaced")));
          }
        }
      }
    } catch (IOException e) {
      throw new UncheckedIOException(e);
    }
    return out;
  }

  static List<Doc> read(Path project, Map<String, Integer> refused) {
    List<Doc> docs = new ArrayList<>();
    try (Stream<Path> files = Files.walk(project)) {
      for (Path f : files.filter(Files::isRegularFile).sorted().toList()) {
        String text = Files.readString(f);
        String rel = CORPUS.relativize(f).toString();
        List<Value> values;
        try {
          values = f.toString().endsWith(".json") ? List.of(Json.read(text)) : Yaml.readAll(text);
        } catch (DecodeException e) {
          // a duplicate key: kubectl's YAML decoder (sigs.k8s.io/yaml) refuses the file too
          System.out.printf("%s does not parse: %s%n", rel, e.getMessage());
          refused.merge("file does not parse: " + e.getMessage().replaceAll(" at line.*:", ":"),
              1, Integer::sum);
          continue;
        }
        for (Value v : values) {
          if (!(v instanceof MapValue m)) {
            continue; // an empty document
          }
          if (Nested.str(m, "kind").equals("List") && m.getOrNull("items") instanceof ListValue l) {
            // kubectl applies the items of a v1 List one by one
            l.items().forEach(item -> docs.add(new Doc(rel, (MapValue) item)));
          } else {
            docs.add(new Doc(rel, m));
          }
        }
      }
    } catch (IOException e) {
      throw new UncheckedIOException(e);
    }
    return docs;
  }

  @TestFactory
  Stream<DynamicTest> everyProjectInstallsAndReappliesAsNoOp() throws IOException {
    List<Path> projects;
    try (Stream<Path> dirs = Files.list(CORPUS)) {
      projects = dirs.filter(Files::isDirectory).sorted().toList();
    }
    assertThat(projects).hasSize(18);
    return projects.stream().map(p -> DynamicTest.dynamicTest(p.getFileName().toString(),
        () -> install(p)));
  }

  private void install(Path project) {
    Map<String, Integer> refused = new TreeMap<>();
    List<Doc> docs = read(project, refused);
    ApiServer server = ApiServer.builder().build();
    List<String> failures = new ArrayList<>();
    Map<String, Mapping> crs = new HashMap<>();

    List<Doc> crds = docs.stream().filter(d -> d.kind().equals("CustomResourceDefinition")
        && d.apiVersion().equals("apiextensions.k8s.io/v1")).toList();
    for (Doc crd : crds) {
      MapValue spec = Nested.map(crd.object(), "spec");
      for (Value v : Nested.list(spec, "versions")) {
        if (Nested.bool(v, "served")) {
          crs.put(Nested.str(spec, "group") + "/" + Nested.str(v, "name") + "/"
              + Nested.str(spec, "names", "kind"), new Mapping(new GroupVersionResource(
              Nested.str(spec, "group"), Nested.str(v, "name"), Nested.str(spec, "names",
              "plural")), Nested.str(spec, "scope").equals("Namespaced")));
        }
      }
    }

    List<Doc> first = new ArrayList<>(crds);
    List<Doc> namespaces = new ArrayList<>();
    List<Doc> rest = new ArrayList<>();
    List<Doc> last = new ArrayList<>();
    for (Doc d : docs) {
      if (crds.contains(d)) {
        continue;
      }
      String gvk = d.apiVersion() + "/" + d.kind();
      Mapping m = BUILTIN.containsKey(gvk) ? BUILTIN.get(gvk) : crs.get(gvk);
      if (m == null) {
        // kube refuses it too: say why, from data that is not the server's
        String why = BUILTIN_GROUPS.contains(d.group()) || d.group().endsWith(".k8s.io")
            ? "API version 1.36 does not serve" : "custom resource whose CRD the project does"
            + " not ship";
        refused.merge(why, 1, Integer::sum);
        ApiResponse r = request(server, Verb.PATCH, unservedGvr(d), "default", d.name(), d);
        if (r.code() != 404) {
          failures.add(d + ": " + why + ", kube answers 404, got " + r.code() + " "
              + r.body());
        }
        continue;
      }
      if (d.kind().equals("Namespace") && d.group().isEmpty()) {
        namespaces.add(d);
      } else if (ADMISSION_KINDS.contains(d.kind())) {
        last.add(d);
      } else {
        rest.add(d);
      }
    }
    // service accounts before what runs as them
    rest.sort((a, b) -> Boolean.compare(!a.kind().equals("ServiceAccount"),
        !b.kind().equals("ServiceAccount")));

    Set<String> existing = new LinkedHashSet<>(List.of("default", "kube-system", "kube-public",
        "kube-node-lease"));
    List<Doc> ordered = new ArrayList<>(first);
    ordered.addAll(namespaces);
    ordered.addAll(rest);
    ordered.addAll(last);
    int accepted = 0;
    int persistedReadDefaults = 0;
    int replaced = 0;
    Map<String, String> fileOf = new HashMap<>();
    for (Doc d : ordered) {
      String gvk = d.apiVersion() + "/" + d.kind();
      Mapping m = BUILTIN.containsKey(gvk) ? BUILTIN.get(gvk) : crs.get(gvk);
      String ns = "";
      if (m.namespaced()) {
        ns = Nested.str(d.object(), "metadata", "namespace");
        ns = ns.isEmpty() ? "default" : ns;
        if (existing.add(ns)) {
          // the namespace the manifests assume, and the service account a cluster puts in it
          ensure(server, new GroupVersionResource("", "v1", "namespaces"), "", ns,
              "{\"apiVersion\":\"v1\",\"kind\":\"Namespace\",\"metadata\":{\"name\":\"" + ns
                  + "\"}}", failures);
        }
        ensure(server, new GroupVersionResource("", "v1", "serviceaccounts"), ns, "default",
            "{\"apiVersion\":\"v1\",\"kind\":\"ServiceAccount\",\"metadata\":{\"name\":"
                + "\"default\",\"namespace\":\"" + ns + "\"}}", failures);
      } else if (d.kind().equals("Namespace") && d.group().isEmpty()) {
        existing.add(d.name());
      }
      String key = m.gvr() + " " + ns + "/" + d.name();
      String earlier = fileOf.put(key, d.file());
      if (earlier != null && !earlier.equals(d.file()) && !d.name().isEmpty()) {
        // another example of the project defines the same object: each file is an install of
        // its own, so the earlier one goes first
        replaced++;
        remove(server, m.gvr(), ns, d.name(), failures);
      }
      ApiResponse created = request(server, Verb.PATCH, m.gvr(), ns, d.name(), d);
      if (created.code() != 201 && created.code() != 200) {
        failures.add(d + ": apply answered " + created.code() + " " + message(created));
        continue;
      }
      accepted++;
      // what the server holds once its controllers are done (a CRD's status), as a client reads it
      ApiResponse before = server.handle(ApiRequest.builder(Verb.GET, m.gvr()).namespace(ns)
          .name(d.name()).build());
      ApiResponse again = request(server, Verb.PATCH, m.gvr(), ns, d.name(), d);
      if (again.code() != 200) {
        failures.add(d + ": re-apply answered " + again.code() + " " + message(again));
        continue;
      }
      if (!withoutRevision(again.body()).equals(withoutRevision(before.body()))) {
        failures.add(d + ": re-apply changed the object:\n  " + Json.write(before.body())
            + "\n  " + Json.write(again.body()));
        continue;
      }
      String rv = Nested.str(again.body(), "metadata", "resourceVersion");
      if (!rv.equals(Nested.str(before.body(), "metadata", "resourceVersion"))) {
        persistedReadDefaults++;
        if (!d.kind().equals("Job")) {
          failures.add(d + ": re-apply wrote although the served object did not change");
        }
      }
      ApiResponse third = request(server, Verb.PATCH, m.gvr(), ns, d.name(), d);
      if (!Nested.str(third.body(), "metadata", "resourceVersion").equals(rv)) {
        failures.add(d + ": the apply after a re-apply wrote: " + message(third));
        continue;
      }
      ApiResponse read = server.handle(ApiRequest.builder(Verb.GET, m.gvr()).namespace(ns)
          .name(d.name()).build());
      ApiResponse put = server.handle(ApiRequest.builder(Verb.UPDATE, m.gvr()).namespace(ns)
          .name(d.name()).body(read.body()).fieldManager(FIELD_MANAGER).build());
      if (put.code() != 200
          || !Nested.str(put.body(), "metadata", "resourceVersion").equals(rv)) {
        failures.add(d + ": an update with the object as read answered " + put.code()
            + " " + message(put) + " (resourceVersion " + rv + " -> "
            + Nested.str(put.body(), "metadata", "resourceVersion") + ")");
      }
    }
    failures.forEach(System.out::println);
    // every failure must be a listed miss, and every listed miss of the project still one
    List<String> unexpected = new ArrayList<>();
    Set<String> listed = new LinkedHashSet<>();
    for (String failure : failures) {
      Matcher fm = FAILURE.matcher(failure);
      String key = fm.find() ? fm.group(1) + ": " + fm.group(2) : failure;
      if (MISSES.containsKey(key)) {
        listed.add(key);
      } else {
        unexpected.add(failure);
      }
    }
    String prefix = project.getFileName() + "/";
    List<String> fixed = MISSES.keySet().stream().filter(k -> k.startsWith(prefix)
        && !listed.contains(k)).sorted().toList();
    System.out.printf("%s: %d objects, %d accepted, %d refused as by kube %s, %d re-applies"
        + " persisted read defaults, %d replaced by another example%n", project.getFileName(),
        docs.size(), accepted,
        refused.values().stream().mapToInt(Integer::intValue).sum(), refused,
        persistedReadDefaults, replaced);
    listed.forEach(k -> System.out.printf("listed miss: %s (%s)%n", k, MISSES.get(k)));
    assertThat(unexpected).as("%s: failures not in realworld-misses.tsv", project.getFileName())
        .isEmpty();
    assertThat(fixed).as("%s: listed misses that now pass (remove them from"
        + " realworld-misses.tsv)", project.getFileName()).isEmpty();
  }

  private static void remove(ApiServer server, GroupVersionResource gvr, String ns,
      String name, List<String> failures) {
    server.handle(ApiRequest.builder(Verb.DELETE, gvr).namespace(ns).name(name).build());
    ApiResponse left = server.handle(ApiRequest.builder(Verb.GET, gvr).namespace(ns).name(name)
        .build());
    if (left.code() == 200) {
      // held by finalizers that no controller of this test runs
      server.handle(ApiRequest.builder(Verb.PATCH, gvr).namespace(ns).name(name)
          .fieldManager("test").patch(PatchType.MERGE_PATCH,
              "{\"metadata\":{\"finalizers\":null}}").build());
      left = server.handle(ApiRequest.builder(Verb.GET, gvr).namespace(ns).name(name).build());
    }
    if (left.code() != 404) {
      failures.add("removing " + gvr + " " + ns + "/" + name + " left " + left.code());
    }
  }

  /** A resource a server cannot serve for {@code d}: its kind's lower-case plural guess. */
  private static GroupVersionResource unservedGvr(Doc d) {
    String v = d.apiVersion();
    String version = v.substring(v.indexOf('/') + 1);
    return new GroupVersionResource(d.group(), version, d.kind().toLowerCase() + "s");
  }

  private static void ensure(ApiServer server, GroupVersionResource gvr, String ns, String name,
      String json, List<String> failures) {
    ApiResponse got = server.handle(ApiRequest.builder(Verb.GET, gvr).namespace(ns).name(name)
        .build());
    if (got.code() == 404) {
      ApiResponse r = server.handle(ApiRequest.builder(Verb.CREATE, gvr).namespace(ns)
          .body(Json.read(json)).fieldManager("test").build());
      // 409: written meanwhile, e.g. the default ServiceAccount by its controller
      if (r.code() != 201 && r.code() != 409) {
        failures.add("creating " + gvr + " " + ns + "/" + name + ": " + r.code() + " "
            + message(r));
      }
    }
  }

  private static ApiResponse request(ApiServer server, Verb verb, GroupVersionResource gvr,
      String ns, String name, Doc d) {
    return server.handle(ApiRequest.builder(verb, gvr).namespace(ns).name(name)
        .fieldManager(FIELD_MANAGER).patch(PatchType.APPLY_YAML, Json.write(d.object()))
        .build());
  }

  private static String message(ApiResponse r) {
    return r.code() >= 300 ? Nested.str(r.body(), "message") : "";
  }

  private static MapValue withoutRevision(Value obj) {
    MapValue o = (MapValue) obj;
    return Nested.remove(o, "metadata", "resourceVersion");
  }
}
