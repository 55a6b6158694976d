/*
 * Copyright The apiserver4j authors.
 * SPDX-License-Identifier: Apache-2.0
 */
package io.apiserver4j.apiserver;

import static org.assertj.core.api.Assertions.assertThat;

import io.apiserver4j.admission.AuditAnnotations;
import io.apiserver4j.apiserver.ApiRequest.Verb;
import io.apiserver4j.apiserver.RealWorldManifestsTest.Doc;
import io.apiserver4j.apiserver.RealWorldManifestsTest.Mapping;
import io.apiserver4j.authz.AuditRecorder;
import io.apiserver4j.authz.AuditStart;
import io.apiserver4j.authz.Auditor;
import io.apiserver4j.authz.AuthorizationAttributes;
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
import java.time.Duration;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.Collections;
import java.util.Comparator;
import java.util.HashMap;
import java.util.LinkedHashMap;
import java.util.LinkedHashSet;
import java.util.List;
import java.util.Map;
import java.util.Set;
import java.util.TreeMap;
import java.util.TreeSet;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.CompletionException;
import java.util.concurrent.ExecutorService;
import java.util.concurrent.Executors;
import java.util.function.Supplier;
import java.util.regex.Matcher;
import java.util.regex.Pattern;
import java.util.stream.Collectors;
import java.util.stream.Stream;
import org.junit.jupiter.api.DynamicTest;
import org.junit.jupiter.api.TestFactory;
import org.junit.jupiter.api.io.TempDir;

/**
 * The released install manifests of {@code ../shared/realworld} (read from there, never copied)
 * installed with the real kubectl against a server over HTTP, one server per project, several
 * projects at once, as the projects' install docs do it:
 *
 * <ol>
 *   <li>{@code kubectl apply -f} (client-side) of the project's CRDs, then {@code kubectl wait
 *       --for condition=Established}; then its Namespaces and everything else in one run
 *       (ServiceAccounts first, admission configuration last, as {@link RealWorldManifestsTest}
 *       orders it);
 *   <li>a second {@code kubectl apply -f} of all of it: every line says {@code unchanged} but
 *       for the objects kubectl sends a patch for (its three-way patch is not {@code {}}); each
 *       such patch, as the server received it, must be explained by {@link
 *       KubectlPatchExplainer} as kube-apiserver 1.36 causes it too, and no object is written
 *       but the Jobs kube rewrites on their first update (see {@link #rewritten});
 *   <li>{@code kubectl diff -f} of all of it, exiting 0 with no output;
 *   <li>the CRDs too large for client-side apply (installed with {@code kubectl apply
 *       --server-side}, as their projects say) applied server-side again, writing nothing, and
 *       {@code kubectl diff --server-side} of them, exiting 0 with no output.
 * </ol>
 *
 * <p>A server-side apply over the client-side install is not part of it: kube's field manager
 * ({@code lastAppliedManager}) takes over from the last-applied annotation only the fields the
 * server left as applied, so an atomic list kube completes with defaults conflicts there too.
 *
 * <p>Each step is one kubectl run over all files of the project. The servers run in this JVM,
 * so that patches are seen by an {@link Auditor} and resourceVersions are read in-process, with
 * no {@code kubectl get}. A server per project, because projects
 * define the same cluster-scoped objects and the same names in {@code default} differently, and
 * one project's webhooks would answer for another's objects.
 *
 * <p>The objects kubectl sends are those of the corpus files as parsed here, written as a JSON
 * stream (kubectl's decoder takes JSON and YAML alike), so that the test can order them and
 * leave out what a 1.36 cluster refuses. What is left out is asserted, never skipped: objects of
 * API versions 1.36 does not serve, or of CRDs the project does not ship, must fail in kubectl
 * with {@code resource mapping not found}; the objects {@code realworld-misses.tsv} says kube
 * refuses too must make {@code kubectl apply} fail with errors from the server that are not an
 * InternalError, and none of them may be created. Where several examples of a project define
 * the same object, the last one is installed (each example is an install of its own).
 */
class RealWorldKubectlTest {
  @TempDir
  static Path dir;

  /** kube's limit on the total size of an object's annotations (TotalAnnotationSizeLimitB). */
  private static final int ANNOTATIONS_LIMIT = 256 * 1024;
  private static final Pattern TOO_LONG = Pattern.compile("\"([a-z0-9.-]+)\" is invalid:"
      + " metadata\\.annotations: Too long: may not be more than " + ANNOTATIONS_LIMIT
      + " bytes");
  /** Projects installed at once. */
  private static final int AT_ONCE = 6;
  /** The longest one kubectl run over a whole project may take. */
  private static final int KUBECTL_SECONDS = 900;

  @TestFactory
  Stream<DynamicTest> everyProjectAppliesAsNoOpAndDiffsEmpty() throws IOException {
    List<Path> projects;
    try (Stream<Path> dirs = Files.list(RealWorldManifestsTest.CORPUS)) {
      projects = dirs.filter(Files::isDirectory).sorted().toList();
    }
    assertThat(projects).hasSize(18);
    ExecutorService pool = Executors.newFixedThreadPool(AT_ONCE, r -> {
      Thread t = new Thread(r, "realworld-kubectl");
      t.setDaemon(true);
      return t;
    });
    Map<Path, CompletableFuture<String>> runs = new HashMap<>();
    // the largest first, so that the longest install does not start last
    projects.stream().sorted(Comparator.comparingLong(RealWorldKubectlTest::size).reversed())
        .forEach(p -> runs.put(p, CompletableFuture.supplyAsync(() -> install(p), pool)));
    pool.shutdown();
    return projects.stream().map(p -> DynamicTest.dynamicTest(p.getFileName().toString(),
        () -> System.out.print(await(runs.get(p)))));
  }

  private static long size(Path project) {
    try (Stream<Path> files = Files.walk(project)) {
      return files.filter(Files::isRegularFile).mapToLong(f -> f.toFile().length()).sum();
    } catch (IOException e) {
      throw new UncheckedIOException(e);
    }
  }

  private static String await(CompletableFuture<String> run) {
    try {
      return run.join();
    } catch (CompletionException e) {
      if (e.getCause() instanceof Error err) {
        throw err;
      }
      throw e;
    }
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
    /** The installed objects by group, resource, namespace and name. */
    final Map<String, Doc> byKey = new LinkedHashMap<>();
    /** Where each installed object is served, by the same key. */
    final Map<String, GroupVersionResource> gvrs = new HashMap<>();
    /** The schema of each served version of the project's CRDs, by group/version/kind. */
    final Map<String, MapValue> schemas = new HashMap<>();
  }

  /** A patch the server received. */
  private record Patch(String group, String version, String resource, String namespace,
      String name, Value body) {
    String key() {
      return key(group, resource, namespace, name);
    }

    static String key(String group, String resource, String namespace, String name) {
      return group + "/" + resource + " " + namespace + "/" + name;
    }
  }

  /** Records what a project's server is asked to patch while {@code on}. */
  private static final class Recorder implements Auditor {
    volatile boolean on;
    final List<Patch> patches = Collections.synchronizedList(new ArrayList<>());

    @Override
    public AuditRecorder begin(AuditStart start) {
      AuthorizationAttributes a = start.attributes();
      if (!on || !a.verb().equals("patch")) {
        return AuditRecorder.NONE;
      }
      return new AuditRecorder() {
        @Override
        public void add(String key, String value) {
          AuditAnnotations.checkKey(key);
        }

        @Override
        public void requestPatch(Supplier<Value> decoded) {
          patches.add(new Patch(a.apiGroup(), a.apiVersion(), a.resource(), a.namespace(),
              a.name(), decoded.get()));
        }
      };
    }
  }

  private static String install(Path project) {
    StringBuilder log = new StringBuilder();
    String name = project.getFileName().toString();
    Map<String, Integer> unparsed = new TreeMap<>();
    List<Doc> docs = RealWorldManifestsTest.read(project, unparsed);
    Plan plan = plan(docs);
    Recorder recorder = new Recorder();
    try (ApiServer api = ApiServer.builder().build();
        HttpApiServer http = HttpApiServer.builder(api).auditor(recorder)
            // a loaded machine must not fail a request that kube would answer
            .requestTimeout(Duration.ofMinutes(5)).build()) {
      http.start();
      Path work = Files.createDirectories(dir.resolve(name));
      Kubectl kubectl = new Kubectl(work, http.kubeconfig().build());

      List<String> all = new ArrayList<>();
      List<String> serverSideOnly = new ArrayList<>();
      int largeCrds = 0;
      if (!plan.crds.isEmpty()) {
        String crds = write(work, "1-crds.json", plan.crds);
        Kubectl.Result first = kubectl.runWithin(KUBECTL_SECONDS, "apply", "-f", crds);
        // kube limits all annotations of an object to 256 KiB, so the client-side apply of a
        // large CRD fails on its last-applied-configuration annotation; the projects whose
        // CRDs are that large say to install them with --server-side, which writes none
        Set<String> tooLong = new LinkedHashSet<>();
        Matcher m = TOO_LONG.matcher(first.stderr());
        while (m.find()) {
          tooLong.add(m.group(1));
        }
        assertThat(first.stderr().lines().filter(l -> !l.isBlank()).count())
            .as("%s: CRDs client-side: %s", name, first).isEqualTo(tooLong.size());
        List<Doc> small = plan.crds.stream().filter(d -> !tooLong.contains(d.name())).toList();
        List<Doc> large = plan.crds.stream().filter(d -> tooLong.contains(d.name())).toList();
        assertThat(large).as("CRDs refused as too long").hasSize(tooLong.size())
            .allMatch(d -> Json.write(d.object()).length() > ANNOTATIONS_LIMIT / 2);
        assertThat(lines(first.stdout())).hasSize(small.size())
            .allMatch(l -> l.endsWith(" created"));
        if (!small.isEmpty()) {
          all.add(write(work, "1-crds.json", small));
        }
        largeCrds = large.size();
        if (!large.isEmpty()) {
          String ss = write(work, "1-crds-server-side.json", large);
          serverSideOnly.add(ss);
          Kubectl.Result r = kubectl.runWithin(KUBECTL_SECONDS, "apply", "--server-side",
              "-f", ss);
          assertThat(r.exitCode()).as("%s: large CRDs server-side: %s", name, r).isZero();
        }
        Kubectl.Result established = kubectl.runWithin(KUBECTL_SECONDS, "wait", "--for",
            "condition=Established", "--timeout=60s", "-f", crds);
        assertThat(established.exitCode()).as("%s: %s", name, established).isZero();
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
      List<Doc> objects = new ArrayList<>(plan.namespaces);
      objects.addAll(plan.rest);
      objects.addAll(plan.last);
      if (!objects.isEmpty()) {
        // kubectl refuses a file without objects ("no objects passed to apply")
        String objectsFile = write(work, "2-objects.json", objects);
        all.add(objectsFile);
        Kubectl.Result applied = kubectl.runWithin(KUBECTL_SECONDS, "apply", "-f",
            objectsFile);
        assertThat(applied.exitCode()).as("%s: apply: %s", name, applied).isZero();
        assertThat(lines(applied.stdout())).as("%s: apply: %s", name, applied)
            .hasSize(objects.size())
            .allMatch(l -> l.endsWith(" created") || l.endsWith(" configured"));
      }
      int total = plan.crds.size() + objects.size();

      Map<String, String> before = revisions(api, plan);
      recorder.on = true;
      Kubectl.Result again = kubectl.runWithin(KUBECTL_SECONDS, files("apply", all));
      recorder.on = false;
      Set<String> written = changed(before, revisions(api, plan));
      assertThat(again.exitCode()).as("%s: second apply: %s", name, again).isZero();
      List<String> configured = lines(again.stdout()).stream()
          .filter(l -> !l.endsWith(" unchanged")).toList();
      assertThat(configured).as("%s: second apply", name)
          .allMatch(l -> l.endsWith(" configured"))
          .hasSize(recorder.patches.size());
      Map<String, Integer> byReason = new TreeMap<>();
      List<String> unexplained = new ArrayList<>();
      Set<String> rewritten = new TreeSet<>();
      for (Patch p : recorder.patches) {
        Doc doc = plan.byKey.get(p.key());
        assertThat(doc).as("%s: patched %s, which the files do not have", name, p).isNotNull();
        MapValue live = get(api, p);
        KubectlPatchExplainer.Explanation e = KubectlPatchExplainer.explain(doc.kind(),
            plan.schemas.get(p.group() + "/" + p.version() + "/" + doc.kind()),
            (MapValue) p.body(), doc.object(), live);
        e.reasons().forEach(r -> byReason.merge(r, 1, Integer::sum));
        if (!e.failures().isEmpty()) {
          unexplained.add(doc + ": patch " + Json.write(p.body()) + "\n  " + String.join(
              "\n  ", e.failures()));
        }
        if (rewritten(doc, live)) {
          rewritten.add(p.key() + " (" + before.get(p.key()) + " -> "
              + Nested.str(live, "metadata", "resourceVersion") + ")");
        }
      }
      log.append(String.format("%s: %d objects, %d configured on the second apply %s,"
          + " rewritten: %s%n", name, total, configured.size(), byReason, rewritten));
      assertThat(unexplained).as("%s: patches of a second apply that kube would not cause",
          name).isEmpty();
      assertThat(written).as("%s: objects a second client-side apply wrote", name)
          .containsExactlyInAnyOrderElementsOf(rewritten);
      if (name.equals("gke-samples")) {
        assertThat(rewritten).as("the one Job of gke-samples kubectl patches")
            .singleElement().asString().startsWith(Patch.key("batch", "jobs", "default",
                "checkpoint-converter") + " (");
      }

      Kubectl.Result diff = kubectl.runWithin(KUBECTL_SECONDS, files("diff", all));
      assertThat(diff.exitCode()).as("%s: kubectl diff after apply: %s", name, diff).isZero();
      assertThat(diff.stdout()).as("%s: kubectl diff after apply", name).isEmpty();

      if (!serverSideOnly.isEmpty()) {
        // the CRDs installed server-side are re-applied and diffed as their install docs say:
        // server-side, by the same field manager as their first apply (kubectl's "kubectl")
        before = revisions(api, plan);
        Kubectl.Result ssaAgain = kubectl.runWithin(KUBECTL_SECONDS, files("apply",
            serverSideOnly, "--server-side"));
        assertThat(ssaAgain.exitCode()).as("%s: second server-side apply: %s", name, ssaAgain)
            .isZero();
        assertThat(lines(ssaAgain.stdout())).as("%s: %s", name, ssaAgain)
            .hasSize(largeCrds)
            .allMatch(l -> l.endsWith(" serverside-applied"));
        assertThat(changed(before, revisions(api, plan)))
            .as("%s: objects a second server-side apply wrote", name).isEmpty();
        Kubectl.Result ssDiff = kubectl.runWithin(KUBECTL_SECONDS, files("diff", serverSideOnly,
            "--server-side", "--field-manager=kubectl"));
        assertThat(ssDiff.exitCode()).as("%s: kubectl diff --server-side: %s", name, ssDiff)
            .isZero();
        assertThat(ssDiff.stdout()).as("%s: kubectl diff --server-side", name).isEmpty();
      }

      if (!plan.unmapped.isEmpty()) {
        // kube refuses these too: kubectl finds no resource for their kind in discovery
        String unmapped = write(work, "4-unmapped.json", plan.unmapped);
        Kubectl.Result r = kubectl.runWithin(KUBECTL_SECONDS, "apply", "-f", unmapped);
        assertThat(r.exitCode()).as("%s", r).isEqualTo(1);
        assertThat(r.stdout()).isEmpty();
        for (Doc d : plan.unmapped) {
          assertThat(r.stderr()).as(d.toString()).contains("resource mapping not found for name:"
              + " \"" + d.name() + "\"").contains("no matches for kind \"" + d.kind()
              + "\" in version \"" + d.apiVersion() + "\"");
        }
      }
      if (!plan.refused.isEmpty()) {
        String refused = write(work, "5-refused.json", List.copyOf(plan.refused.keySet()));
        before = revisions(api, plan);
        Kubectl.Result r = kubectl.runWithin(KUBECTL_SECONDS, "apply", "-f", refused);
        assertThat(r.exitCode()).as("%s: %s: %s", name, plan.refused, r).isEqualTo(1);
        assertThat(r.stdout()).as("%s: %s", name, plan.refused).isEmpty();
        assertThat(r.stderr()).as("%s: %s", name, plan.refused).doesNotContain("InternalError");
        assertThat(changed(before, revisions(api, plan)))
            .as("%s: written although refused", name).isEmpty();
      }
      log.append(String.format("%s: %d refused as kube does, %d of kinds not served%n",
          name, plan.refused.size(), plan.unmapped.size()));
      return log.toString();
    } catch (IOException e) {
      throw new UncheckedIOException(e);
    }
  }

  /**
   * Whether kube rewrites {@code doc} on its first update although the patch changes nothing:
   * a Job whose manifest has no labels. kube's Job strategy adds the selector's labels to the
   * template after defaulting ({@code PrepareForCreate}), and {@code SetDefaults_Job}
   * (pkg/apis/batch/v1/defaults.go) copies the template's labels to an object without labels
   * when it is decoded; so the object read for an update has labels the stored one has not,
   * and the etcd store's {@code GuaranteedUpdate}, which skips the write only when the new
   * encoding equals the stored bytes, writes it. The live object must then have the
   * template's labels.
   */
  private static boolean rewritten(Doc doc, MapValue live) {
    if (!doc.kind().equals("Job") || !doc.group().equals("batch")
        || !Nested.map(doc.object(), "metadata", "labels").isEmpty()) {
      return false;
    }
    assertThat(Nested.map(live, "metadata", "labels")).as("%s: labels", doc)
        .isEqualTo(Nested.map(live, "spec", "template", "metadata", "labels"));
    return true;
  }

  /**
   * The resourceVersion of every installed object, read in-process (what {@code kubectl get}
   * would show, without a kubectl run).
   */
  private static Map<String, String> revisions(ApiServer api, Plan plan) {
    Map<String, String> out = new TreeMap<>();
    plan.gvrs.forEach((key, gvr) -> {
      Doc d = plan.byKey.get(key);
      String ns = key.substring(key.indexOf(' ') + 1, key.lastIndexOf('/' + d.name()));
      ApiResponse r = api.handle(ApiRequest.builder(Verb.GET, gvr).namespace(ns)
          .name(d.name()).build());
      out.put(key, r.code() == 200 ? Nested.str(r.body(), "metadata", "resourceVersion")
          : "answered " + r.code());
    });
    return out;
  }

  /** The keys whose resourceVersion is not the same after. */
  private static Set<String> changed(Map<String, String> before, Map<String, String> after) {
    Set<String> out = new TreeSet<>();
    before.forEach((k, rv) -> {
      if (!rv.equals(after.get(k))) {
        out.add(k + " (" + rv + " -> " + after.get(k) + ")");
      }
    });
    return out;
  }

  private static MapValue get(ApiServer api, Patch p) {
    ApiResponse r = api.handle(ApiRequest.builder(Verb.GET, new GroupVersionResource(p.group(),
        p.version(), p.resource())).namespace(p.namespace()).name(p.name()).build());
    assertThat(r.code()).as("%s: %s", p, r.body()).isEqualTo(200);
    return r.body();
  }

  private static String[] files(String verb, List<String> files, String... flags) {
    List<String> args = new ArrayList<>(List.of(verb));
    args.addAll(Arrays.asList(flags));
    files.forEach(f -> args.addAll(List.of("-f", f)));
    return args.toArray(String[]::new);
  }

  private static Plan plan(List<Doc> read) {
    Plan plan = new Plan();
    // kubectl applies the items of a list (kind List, ConfigMapList, ...), never the list
    // itself: its resource builder flattens lists before it maps kinds to resources
    List<Doc> docs = new ArrayList<>();
    for (Doc d : read) {
      if (d.kind().endsWith("List") && d.object().getOrNull("items") instanceof ListValue items) {
        items.items().forEach(i -> docs.add(new Doc(d.file(), (MapValue) i)));
      } else {
        docs.add(d);
      }
    }
    Map<String, Mapping> crs = new HashMap<>();
    for (Doc d : docs) {
      if (d.kind().equals("CustomResourceDefinition")
          && d.apiVersion().equals("apiextensions.k8s.io/v1")) {
        MapValue spec = Nested.map(d.object(), "spec");
        for (Value v : Nested.list(spec, "versions")) {
          if (Nested.bool(v, "served")) {
            plan.schemas.put(Nested.str(spec, "group") + "/" + Nested.str(v, "name") + "/"
                + Nested.str(spec, "names", "kind"), Nested.map(v, "schema", "openAPIV3Schema"));
            crs.put(Nested.str(spec, "group") + "/" + Nested.str(v, "name") + "/"
                + Nested.str(spec, "names", "kind"), new Mapping(new GroupVersionResource(
                Nested.str(spec, "group"), Nested.str(v, "name"),
                Nested.str(spec, "names", "plural")),
                Nested.str(spec, "scope").equals("Namespaced")));
          }
        }
      }
    }
    // the last definition of each object wins: each example is an install of its own
    Map<String, Doc> byKey = plan.byKey;
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
      String key = Patch.key(m.gvr().group(), m.gvr().resource(), ns, d.name());
      byKey.remove(key);
      byKey.put(key, d);
      plan.gvrs.put(key, m.gvr());
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
