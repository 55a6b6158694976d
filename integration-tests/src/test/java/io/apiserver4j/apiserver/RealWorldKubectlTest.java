/*
 * Copyright The apiserver4j authors.
 * SPDX-License-Identifier: Apache-2.0
 */
package io.apiserver4j.apiserver;

import static org.assertj.core.api.Assertions.assertThat;

import io.apiserver4j.apiserver.ApiRequest.Verb;
import io.apiserver4j.apiserver.RealWorldManifestsTest.Doc;
import io.apiserver4j.apiserver.RealWorldManifestsTest.Mapping;
import io.apiserver4j.core.GroupVersionResource;
import io.apiserver4j.core.Json;
import io.apiserver4j.core.ListValue;
import io.apiserver4j.core.MapValue;
import io.apiserver4j.core.Nested;
import io.apiserver4j.core.Value;
import io.apiserver4j.http.HttpApiServer;
import io.apiserver4j.http.Kubectl;
import java.io.IOException;
import java.io.UncheckedIOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.HashMap;
import java.util.LinkedHashMap;
import java.util.LinkedHashSet;
import java.util.List;
import java.util.Map;
import java.util.Set;
import java.util.TreeMap;
import java.util.stream.Collectors;
import java.util.stream.Stream;
import org.junit.jupiter.api.DynamicTest;
import org.junit.jupiter.api.TestFactory;
import org.junit.jupiter.api.io.TempDir;

/**
 * The released install manifests of {@code ../shared/realworld} (read from there, never copied)
 * installed with the real kubectl against a server over HTTP started per project, as the
 * projects' install docs do it:
 *
 * <ol>
 *   <li>{@code kubectl apply -f} (client-side) of the project's CRDs, then {@code kubectl wait
 *       --for condition=Established}; its Namespaces; then everything else (ServiceAccounts
 *       first, admission configuration last, as {@link RealWorldManifestsTest} orders it);
 *   <li>a second {@code kubectl apply -f} of all of it, whose every line says {@code unchanged};
 *   <li>{@code kubectl diff -f} of all of it, exiting 0 with no output;
 *   <li>{@code kubectl apply --server-side} (which takes over from client-side apply), and then
 *       again: the second changes no object's resourceVersion.
 * </ol>
 *
 * <p>The objects kubectl sends are those of the corpus files as parsed here, written as a JSON
 * stream (kubectl's decoder takes JSON and YAML alike), so that the test can order them and
 * leave out what a 1.36 cluster refuses. What is left out is asserted, never skipped: objects of
 * API versions 1.36 does not serve, or of CRDs the project does not ship, must fail in kubectl
 * with {@code resource mapping not found}; each object {@code realworld-misses.tsv} says kube
 * refuses too must make {@code kubectl apply} fail with an error from the server that is not an
 * InternalError. Where several examples of a project define the same object, the last one is
 * installed (each example is an install of its own).
 */
class RealWorldKubectlTest {
  @TempDir
  static Path dir;

  @TestFactory
  Stream<DynamicTest> everyProjectAppliesAsNoOpAndDiffsEmpty() throws IOException {
    List<Path> projects;
    try (Stream<Path> dirs = Files.list(RealWorldManifestsTest.CORPUS)) {
      projects = dirs.filter(Files::isDirectory).sorted().toList();
    }
    assertThat(projects).hasSize(18);
    return projects.stream().map(p -> DynamicTest.dynamicTest(p.getFileName().toString(),
        () -> install(p)));
  }

  /** What the test does with each object of a project. */
  private static final class Plan {
    final List<Doc> crds = new ArrayList<>();
    final List<Doc> namespaces = new ArrayList<>();
    final List<Doc> rest = new ArrayList<>();
    final List<Doc> last = new ArrayList<>();
    /** Objects of a kind the server does not serve: kubectl finds no mapping for them. */
    final List<Doc> unmapped = new ArrayList<>();
    /** Objects kube refuses too, with the reason realworld-misses.tsv gives. */
    final Map<Doc, String> refused = new LinkedHashMap<>();
    /** Namespaces the objects are in. */
    final Set<String> usedNamespaces = new LinkedHashSet<>();
  }

  private static void install(Path project) throws IOException {
    Map<String, Integer> unparsed = new TreeMap<>();
    List<Doc> docs = RealWorldManifestsTest.read(project, unparsed);
    Plan plan = plan(docs);
    Path work = Files.createDirectories(dir.resolve(project.getFileName().toString()));
    try (ApiServer api = ApiServer.builder().build();
        HttpApiServer http = HttpApiServer.builder(api).build()) {
      http.start();
      Kubectl kubectl = new Kubectl(work, http.kubeconfig().build());

      List<String> all = new ArrayList<>();
      if (!plan.crds.isEmpty()) {
        String crds = write(work, "1-crds.json", plan.crds);
        all.add(crds);
        applied(kubectl.run("apply", "-f", crds), plan.crds.size());
        kubectl.ok("wait", "--for", "condition=Established", "--timeout=60s", "-f", crds);
      }
      if (!plan.namespaces.isEmpty()) {
        String ns = write(work, "2-namespaces.json", plan.namespaces);
        all.add(ns);
        applied(kubectl.run("apply", "-f", ns), plan.namespaces.size());
      }
      // the namespaces the manifests assume exist, and the ServiceAccount a cluster's
      // controller puts in each (no controllers run here)
      for (String ns : plan.usedNamespaces) {
        ensure(api, new GroupVersionResource("", "v1", "namespaces"), "", ns,
            MapValue.ofEntries("apiVersion", Value.of("v1"), "kind", Value.of("Namespace"),
                "metadata", MapValue.ofEntries("name", Value.of(ns))));
        ensure(api, new GroupVersionResource("", "v1", "serviceaccounts"), ns, "default",
            MapValue.ofEntries("apiVersion", Value.of("v1"), "kind",
                Value.of("ServiceAccount"), "metadata", MapValue.ofEntries("name",
                    Value.of("default"), "namespace", Value.of(ns))));
      }
      List<Doc> objects = new ArrayList<>(plan.rest);
      objects.addAll(plan.last);
      if (!objects.isEmpty()) {
        String rest = write(work, "3-objects.json", objects);
        all.add(rest);
        applied(kubectl.run("apply", "-f", rest), objects.size());
      }
      int total = plan.crds.size() + plan.namespaces.size() + objects.size();
      String[] files = all.stream().flatMap(f -> Stream.of("-f", f)).toArray(String[]::new);

      if (total > 0) {
        Kubectl.Result again = kubectl.run(concat(new String[] {"apply"}, files));
        assertThat(again.exitCode()).as("second apply: %s", again).isZero();
        List<String> changed = lines(again.stdout()).stream()
            .filter(l -> !l.endsWith(" unchanged")).toList();
        assertThat(changed).as("second apply: lines that are not 'unchanged'").isEmpty();
        assertThat(lines(again.stdout())).hasSize(total);

        Kubectl.Result diff = kubectl.run(concat(new String[] {"diff"}, files));
        assertThat(diff.stdout()).as("kubectl diff after apply").isEmpty();
        assertThat(diff.exitCode()).as("kubectl diff after apply: %s", diff).isZero();

        Kubectl.Result ssa = kubectl.run(concat(new String[] {"apply", "--server-side"},
            files));
        assertThat(ssa.exitCode()).as("server-side apply: %s", ssa).isZero();
        Map<String, String> before = revisions(kubectl, files);
        assertThat(before).hasSize(total);
        Kubectl.Result ssaAgain = kubectl.run(concat(new String[] {"apply", "--server-side"},
            files));
        assertThat(ssaAgain.exitCode()).as("second server-side apply: %s", ssaAgain).isZero();
        assertThat(lines(ssaAgain.stdout())).allMatch(l -> l.endsWith(" serverside-applied"))
            .hasSize(total);
        Map<String, String> after = revisions(kubectl, files);
        Map<String, String> rewritten = new TreeMap<>();
        before.forEach((k, rv) -> {
          if (!rv.equals(after.get(k))) {
            rewritten.put(k, rv + " -> " + after.get(k));
          }
        });
        assertThat(rewritten).as("objects a second server-side apply wrote").isEmpty();
      }

      if (!plan.unmapped.isEmpty()) {
        // kube refuses these too: kubectl finds no resource for their kind in discovery
        String unmapped = write(work, "4-unmapped.json", plan.unmapped);
        Kubectl.Result r = kubectl.run("apply", "-f", unmapped);
        assertThat(r.exitCode()).as("%s", r).isEqualTo(1);
        assertThat(r.stdout()).isEmpty();
        for (Doc d : plan.unmapped) {
          assertThat(r.stderr()).as(d.toString()).contains("resource mapping not found for name:"
              + " \"" + d.name() + "\"").contains("no matches for kind \"" + d.kind()
              + "\" in version \"" + d.apiVersion() + "\"");
        }
      }
      int i = 0;
      for (Map.Entry<Doc, String> e : plan.refused.entrySet()) {
        String file = write(work, "5-refused-" + i++ + ".json", List.of(e.getKey()));
        Kubectl.Result r = kubectl.run("apply", "-f", file);
        assertThat(r.exitCode()).as("%s (%s): %s", e.getKey(), e.getValue(), r).isEqualTo(1);
        assertThat(r.stdout()).as("%s (%s)", e.getKey(), e.getValue()).isEmpty();
        assertThat(r.stderr()).as("%s (%s)", e.getKey(), e.getValue())
            .doesNotContain("InternalError");
      }
      System.out.printf("%s: %d objects installed, %d refused as kube does, %d of kinds"
          + " not served%n", project.getFileName(), total, plan.refused.size(),
          plan.unmapped.size());
    }
  }

  private static Plan plan(List<Doc> docs) {
    Plan plan = new Plan();
    Map<String, Mapping> crs = new HashMap<>();
    // the last definition of each object wins: each example is an install of its own
    Map<String, Doc> byKey = new LinkedHashMap<>();
    for (Doc d : docs) {
      if (d.kind().equals("CustomResourceDefinition")
          && d.apiVersion().equals("apiextensions.k8s.io/v1")) {
        MapValue spec = Nested.map(d.object(), "spec");
        for (Value v : Nested.list(spec, "versions")) {
          if (Nested.bool(v, "served")) {
            crs.put(Nested.str(spec, "group") + "/" + Nested.str(v, "name") + "/"
                + Nested.str(spec, "names", "kind"), new Mapping(new GroupVersionResource(
                Nested.str(spec, "group"), Nested.str(v, "name"),
                Nested.str(spec, "names", "plural")),
                Nested.str(spec, "scope").equals("Namespaced")));
          }
        }
      }
    }
    for (Doc d : docs) {
      String gvk = d.apiVersion() + "/" + d.kind();
      Mapping m = RealWorldManifestsTest.BUILTIN.containsKey(gvk)
          ? RealWorldManifestsTest.BUILTIN.get(gvk) : crs.get(gvk);
      if (m == null) {
        plan.unmapped.add(d);
        continue;
      }
      String refusal = RealWorldManifestsTest.MISSES.entrySet().stream()
          .filter(e -> e.getKey().startsWith(d + ": apply answered ")
              && !e.getValue().startsWith("apiserver4j miss"))
          .map(Map.Entry::getValue).findFirst().orElse(null);
      if (refusal != null) {
        plan.refused.put(d, refusal);
        continue;
      }
      String ns = "";
      if (m.namespaced()) {
        ns = Nested.str(d.object(), "metadata", "namespace");
        ns = ns.isEmpty() ? "default" : ns;
        plan.usedNamespaces.add(ns);
      }
      byKey.remove(m.gvr().group() + "/" + m.gvr().resource() + " " + ns + "/" + d.name());
      byKey.put(m.gvr().group() + "/" + m.gvr().resource() + " " + ns + "/" + d.name(), d);
    }
    for (Doc d : byKey.values()) {
      if (d.kind().equals("CustomResourceDefinition")) {
        plan.crds.add(d);
      } else if (d.kind().equals("Namespace") && d.group().isEmpty()) {
        plan.namespaces.add(d);
      } else if (RealWorldManifestsTest.ADMISSION_KINDS.contains(d.kind())) {
        plan.last.add(d);
      } else {
        plan.rest.add(d);
      }
    }
    // service accounts before what runs as them
    plan.rest.sort((a, b) -> Boolean.compare(!a.kind().equals("ServiceAccount"),
        !b.kind().equals("ServiceAccount")));
    plan.usedNamespaces.removeAll(plan.namespaces.stream().map(Doc::name)
        .collect(Collectors.toSet()));
    plan.usedNamespaces.add("default");
    return plan;
  }

  /** Asserts that a first apply created (or configured) exactly {@code count} objects. */
  private static void applied(Kubectl.Result r, int count) {
    assertThat(r.exitCode()).as("apply: %s", r).isZero();
    List<String> out = lines(r.stdout());
    assertThat(out).as("apply: %s", r).hasSize(count)
        .allMatch(l -> l.endsWith(" created") || l.endsWith(" configured"));
  }

  /** The resourceVersion of every object of {@code files}, by kind, namespace and name. */
  private static Map<String, String> revisions(Kubectl kubectl, String[] files) {
    MapValue list = (MapValue) Json.read(kubectl.ok(concat(new String[] {"get", "-o", "json"},
        files)));
    Map<String, String> out = new TreeMap<>();
    for (Value item : ((ListValue) list.getOrNull("items")).items()) {
      out.put(Nested.str(item, "apiVersion") + " " + Nested.str(item, "kind") + " "
          + Nested.str(item, "metadata", "namespace") + "/" + Nested.str(item, "metadata",
          "name"), Nested.str(item, "metadata", "resourceVersion"));
    }
    return out;
  }

  private static List<String> lines(String s) {
    return s.isEmpty() ? List.of() : Arrays.asList(s.split("\n"));
  }

  private static String[] concat(String[]... parts) {
    return Arrays.stream(parts).flatMap(Arrays::stream).toArray(String[]::new);
  }

  /** Writes {@code docs} as a JSON stream, the way kubectl reads several objects from a file. */
  private static String write(Path work, String name, List<Doc> docs) {
    StringBuilder sb = new StringBuilder();
    for (Doc d : docs) {
      sb.append(Json.write(d.object())).append('\n');
    }
    try {
      Files.writeString(work.resolve(name), sb);
    } catch (IOException e) {
      throw new UncheckedIOException(e);
    }
    return name;
  }

  private static void ensure(ApiServer api, GroupVersionResource gvr, String ns, String name,
      MapValue object) {
    ApiResponse got = api.handle(ApiRequest.builder(Verb.GET, gvr).namespace(ns).name(name)
        .build());
    if (got.code() == 404) {
      ApiResponse r = api.handle(ApiRequest.builder(Verb.CREATE, gvr).namespace(ns)
          .body(object).fieldManager("test").build());
      assertThat(r.code()).as("creating %s %s/%s: %s", gvr, ns, name, r.body()).isEqualTo(201);
    }
  }
}
