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
import java.nio.charset.StandardCharsets;
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
import java.util.regex.Matcher;
import java.util.regex.Pattern;
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

  /** kube's limit on the total size of an object's annotations (TotalAnnotationSizeLimitB). */
  private static final int ANNOTATIONS_LIMIT = 256 * 1024;
  private static final Pattern TOO_LONG = Pattern.compile("\"([a-z0-9.-]+)\" is invalid:"
      + " metadata\\.annotations: Too long: may not be more than " + ANNOTATIONS_LIMIT
      + " bytes");
  /** Objects per kubectl run. */
  private static final int PART = 60;

  /**
   * Per project, the lines of a second {@code kubectl apply} that say {@code configured}
   * although nothing changed on the server (kubectl's three-way patch is not empty for reasons
   * of kubectl and kube alike; realworld-kubectl-configured.tsv says which for each).
   */
  private static final Map<String, List<String>> CONFIGURED = configured();

  private static Map<String, List<String>> configured() {
    Map<String, List<String>> out = new HashMap<>();
    try (var in = RealWorldKubectlTest.class.getResourceAsStream(
        "realworld-kubectl-configured.tsv")) {
      for (String line : new String(in.readAllBytes(), StandardCharsets.UTF_8).split("\n")) {
        if (!line.startsWith("#") && !line.isBlank()) {
          String[] cols = line.split("\t");
          out.computeIfAbsent(cols[0], k -> new ArrayList<>()).add(cols[1]);
        }
      }
    } catch (IOException e) {
      throw new UncheckedIOException(e);
    }
    return out;
  }

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
      List<String> serverSideOnly = new ArrayList<>();
      if (!plan.crds.isEmpty()) {
        String crds = write(work, "1-crds.json", plan.crds);
        Kubectl.Result first = kubectl.run("apply", "-f", crds);
        // kube limits all annotations of an object to 256 KiB, so the client-side apply of a
        // large CRD fails on its last-applied-configuration annotation; the projects whose
        // CRDs are that large say to install them with --server-side, which writes none
        Set<String> tooLong = new LinkedHashSet<>();
        Matcher m = TOO_LONG.matcher(first.stderr());
        while (m.find()) {
          tooLong.add(m.group(1));
        }
        assertThat(first.stderr().lines().filter(l -> !l.isBlank()).count())
            .as("CRDs client-side: %s", first).isEqualTo(tooLong.size());
        List<Doc> small = plan.crds.stream().filter(d -> !tooLong.contains(d.name())).toList();
        List<Doc> large = plan.crds.stream().filter(d -> tooLong.contains(d.name())).toList();
        assertThat(large).as("CRDs refused as too long").hasSize(tooLong.size())
            .allMatch(d -> Json.write(d.object()).length() > ANNOTATIONS_LIMIT / 2);
        assertThat(lines(first.stdout())).hasSize(small.size())
            .allMatch(l -> l.endsWith(" created"));
        if (!small.isEmpty()) {
          all.add(write(work, "1-crds.json", small));
        }
        if (!large.isEmpty()) {
          String ss = write(work, "1-crds-server-side.json", large);
          serverSideOnly.add(ss);
          Kubectl.Result r = kubectl.run("apply", "--server-side", "-f", ss);
          assertThat(r.exitCode()).as("large CRDs server-side: %s", r).isZero();
        }
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
      // in parts, so that each kubectl run stays well within its time limit
      for (int from = 0, part = 0; from < objects.size(); from += PART, part++) {
        List<Doc> slice = objects.subList(from, Math.min(objects.size(), from + PART));
        String f = write(work, String.format("3-objects-%02d.json", part), slice);
        all.add(f);
        applied(kubectl.run("apply", "-f", f), slice.size());
      }
      int clientSide = plan.crds.size() - serverSideOnly.size() + plan.namespaces.size()
          + objects.size();
      int total = plan.crds.size() + plan.namespaces.size() + objects.size();
      List<String> expectedConfigured = CONFIGURED.getOrDefault(
          project.getFileName().toString(), List.of());
      List<String> configured = new ArrayList<>();
      List<String> diffs = new ArrayList<>();
      Map<String, String> written = new TreeMap<>();
      for (String f : all) {
        Map<String, String> before = revisions(kubectl, f);
        Kubectl.Result again = kubectl.run("apply", "-f", f);
        assertThat(again.exitCode()).as("second apply: %s", again).isZero();
        lines(again.stdout()).stream().filter(l -> !l.endsWith(" unchanged"))
            .forEach(configured::add);
        changed(before, revisions(kubectl, f), written);
        Kubectl.Result diff = kubectl.run("diff", "-f", f);
        if (diff.exitCode() != 0 || !diff.stdout().isEmpty()) {
          diffs.add(diff.toString());
        }
      }
      System.out.printf("%s: %d objects applied client-side, %d server-side only%n",
          project.getFileName(), clientSide, serverSideOnly.size());
      configured.forEach(l -> System.out.printf("CONFIGURED\t%s\t%s%n", project.getFileName(), l));
      assertThat(diffs).as("kubectl diff after apply").isEmpty();
      assertThat(written).as("objects a second client-side apply wrote").isEmpty();
      assertThat(configured).as("second apply: lines that are not 'unchanged' and not listed in"
          + " realworld-kubectl-configured.tsv").containsExactlyInAnyOrderElementsOf(
          expectedConfigured);

      all.addAll(serverSideOnly);
      for (String f : all) {
        Kubectl.Result ssa = kubectl.run("apply", "--server-side", "-f", f);
        assertThat(ssa.exitCode()).as("server-side apply: %s", ssa).isZero();
        Map<String, String> before = revisions(kubectl, f);
        Kubectl.Result ssaAgain = kubectl.run("apply", "--server-side", "-f", f);
        assertThat(ssaAgain.exitCode()).as("second server-side apply: %s", ssaAgain).isZero();
        assertThat(lines(ssaAgain.stdout())).allMatch(l -> l.endsWith(" serverside-applied"));
        changed(before, revisions(kubectl, f), written);
      }
      assertThat(written).as("objects a second server-side apply wrote").isEmpty();
      assertThat(total).isPositive();

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
      System.out.printf("%s: %d refused as kube does, %d of kinds not served%n",
          project.getFileName(), plan.refused.size(), plan.unmapped.size());
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

  /** Adds to {@code written} each object whose resourceVersion is not the same after. */
  private static void changed(Map<String, String> before, Map<String, String> after,
      Map<String, String> written) {
    before.forEach((k, rv) -> {
      if (!rv.equals(after.get(k))) {
        written.put(k, rv + " -> " + after.get(k));
      }
    });
  }

  /** The resourceVersion of every object of {@code file}, by kind, namespace and name. */
  private static Map<String, String> revisions(Kubectl kubectl, String file) {
    MapValue list = (MapValue) Json.read(kubectl.ok("get", "-o", "json", "-f", file));
    Map<String, String> out = new TreeMap<>();
    List<Value> items = list.getOrNull("items") instanceof ListValue l ? l.items() : List.of(list);
    for (Value item : items) {
      out.put(Nested.str(item, "apiVersion") + " " + Nested.str(item, "kind") + " "
          + Nested.str(item, "metadata", "namespace") + "/" + Nested.str(item, "metadata",
          "name"), Nested.str(item, "metadata", "resourceVersion"));
    }
    return out;
  }

  private static List<String> lines(String s) {
    return s.isEmpty() ? List.of() : Arrays.asList(s.split("\n"));
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
      // 409: written meanwhile, e.g. a namespace's default ServiceAccount by the server
      assertThat(r.code()).as("creating %s %s/%s: %s", gvr, ns, name, r.body()).isIn(201, 409);
    }
  }
}
