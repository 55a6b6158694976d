/*
 * Copyright The apiserver4j authors.
 * SPDX-License-Identifier: Apache-2.0
 */
package io.apiserver4j.integration;

import static org.assertj.core.api.Assertions.assertThat;

import java.io.IOException;
import java.io.UncheckedIOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayDeque;
import java.util.ArrayList;
import java.util.Deque;
import java.util.HashMap;
import java.util.HashSet;
import java.util.List;
import java.util.Map;
import java.util.Set;
import java.util.TreeMap;
import java.util.TreeSet;
import java.util.regex.Matcher;
import java.util.regex.Pattern;
import java.util.stream.Stream;
import org.junit.jupiter.api.Test;

/**
 * The layout rules a newcomer relies on, checked on the sources of every module: no module
 * imports another module's {@code internal} packages (what a {@code module-info} enforces, checked
 * here too so that tests on the class path keep it); no package import cycle; no package of main
 * code over 40 classes and no main class over 1,000 lines; {@code auth} builds without the HTTP
 * module; and no third-party manifest is committed (tests read those from {@code ../shared}).
 * One sharing is by design: {@code cluster} runs its scheduler and kubelets on the controller
 * runtime, which {@code controllers} exports to it alone.
 */
class ModuleBoundariesTest {
  /** Module directory to the other modules' internal packages its module-info may read. */
  private static final java.util.Map<String, Set<String>> SHARED_INTERNALS =
      java.util.Map.of("cluster", Set.of("io.apiserver4j.controllers.internal"));
  private static final Pattern PACKAGE = Pattern.compile("^package ([\\w.]+);", Pattern.MULTILINE);
  private static final Pattern IMPORT = Pattern.compile(
      "^import (?:static )?(io\\.apiserver4j\\.[\\w.]*\\.internal)(?:\\.[\\w.*]+)?;",
      Pattern.MULTILINE);
  /** A reference to a project type by package: in an import or written out in the code. */
  private static final Pattern REFERENCE =
      Pattern.compile("\\b(io\\.apiserver4j(?:\\.[a-z]\\w*)+)\\.[A-Z]");
  private static final int MAX_CLASSES_PER_PACKAGE = 40;
  private static final int MAX_LINES_PER_CLASS = 1_000;
  private static final Path ROOT = Path.of("..").toAbsolutePath().normalize();

  @Test
  void noModuleImportsAnotherModulesInternalPackages() throws IOException {
    List<String> violations = new ArrayList<>();
    for (Path module : modules()) {
      Set<String> own = new HashSet<>();
      List<Path> sources = sources(module.resolve("src"));
      for (Path source : sources) {
        packageOf(source).ifPresent(own::add);
      }
      for (Path source : sources) {
        Matcher m = IMPORT.matcher(read(source));
        while (m.find()) {
          String imported = internalPackage(m.group(1));
          if (SHARED_INTERNALS.getOrDefault(module.getFileName().toString(), Set.of())
              .contains(imported)) {
            continue;
          }
          if (own.stream().noneMatch(p -> p.equals(imported) || p.startsWith(imported + "."))) {
            violations.add(ROOT.relativize(source) + " imports " + imported);
          }
        }
      }
    }
    assertThat(violations).isEmpty();
  }

  /**
   * The packages of main code form no cycle. The one reference allowed against the grain is an
   * implementation package's to the API package of its own module ({@code x.internal} to
   * {@code x}): the API hands requests to its hidden implementation, which speaks the API's types.
   */
  @Test
  void mainPackagesImportEachOtherWithoutCycles() throws IOException {
    Map<String, Set<String>> graph = packageGraph();
    assertThat(cycles(graph)).isEmpty();
  }

  @Test
  void mainPackagesAndClassesStaySmall() throws IOException {
    Map<String, Integer> classes = new TreeMap<>();
    List<String> longClasses = new ArrayList<>();
    for (Path source : mainSources()) {
      String name = source.getFileName().toString();
      if (name.equals("package-info.java") || name.equals("module-info.java")) {
        continue;
      }
      packageOf(source).ifPresent(p -> classes.merge(p, 1, Integer::sum));
      long lines = read(source).lines().count();
      if (lines > MAX_LINES_PER_CLASS) {
        longClasses.add(ROOT.relativize(source) + " has " + lines + " lines");
      }
    }
    assertThat(longClasses).isEmpty();
    assertThat(classes).allSatisfy((pkg, count) ->
        assertThat(count).as("classes in %s", pkg).isLessThanOrEqualTo(MAX_CLASSES_PER_PACKAGE));
  }

  @Test
  void authBuildsWithoutTheHttpModule() {
    String pom = read(ROOT.resolve("auth/pom.xml"));
    Matcher dependency = Pattern.compile("<dependency>(.*?)</dependency>", Pattern.DOTALL)
        .matcher(pom);
    while (dependency.find()) {
      String d = dependency.group(1);
      if (d.contains("<artifactId>apiserver4j-http</artifactId>")) {
        assertThat(d).as("auth's dependency on http").contains("<scope>test</scope>");
      }
    }
  }

  /** Upstream CRDs and manifests are read from {@code ../shared}, never copied in. */
  @Test
  void noThirdPartyManifestIsCommitted() throws IOException {
    List<String> copies = new ArrayList<>();
    for (Path module : modules()) {
      try (Stream<Path> files = Files.walk(module.resolve("src"))) {
        files.filter(p -> p.toString().endsWith(".yaml") || p.toString().endsWith(".json"))
            .filter(p -> {
              String text = read(p);
              return text.contains("controller-gen.kubebuilder.io/version")
                  || text.contains("gateway.networking.k8s.io/bundle-version");
            })
            .forEach(p -> copies.add(ROOT.relativize(p).toString()));
      }
    }
    assertThat(copies).isEmpty();
  }

  private static Map<String, Set<String>> packageGraph() throws IOException {
    Map<String, Set<String>> graph = new TreeMap<>();
    List<Path> sources = mainSources();
    Set<String> known = new HashSet<>();
    for (Path source : sources) {
      packageOf(source).ifPresent(known::add);
    }
    for (Path source : sources) {
      String from = packageOf(source).orElse("");
      Set<String> to = graph.computeIfAbsent(from, k -> new TreeSet<>());
      Matcher m = REFERENCE.matcher(withoutCommentsAndStrings(read(source)));
      while (m.find()) {
        String target = m.group(1);
        if (known.contains(target) && !target.equals(from) && !isOwnApi(from, target)) {
          to.add(target);
        }
      }
    }
    return graph;
  }

  private static boolean isOwnApi(String from, String target) {
    int at = from.indexOf(".internal");
    return at > 0 && from.substring(0, at).equals(target);
  }

  /** The strongly connected components of more than one package (Tarjan's algorithm). */
  static List<Set<String>> cycles(Map<String, Set<String>> graph) {
    Map<String, Integer> index = new HashMap<>();
    Map<String, Integer> low = new HashMap<>();
    Deque<String> stack = new ArrayDeque<>();
    Set<String> onStack = new HashSet<>();
    List<Set<String>> out = new ArrayList<>();
    for (String start : graph.keySet()) {
      if (!index.containsKey(start)) {
        connect(start, graph, index, low, stack, onStack, out);
      }
    }
    return out;
  }

  private static void connect(String v, Map<String, Set<String>> graph,
      Map<String, Integer> index, Map<String, Integer> low, Deque<String> stack,
      Set<String> onStack, List<Set<String>> out) {
    index.put(v, index.size());
    low.put(v, index.get(v));
    stack.push(v);
    onStack.add(v);
    for (String w : graph.getOrDefault(v, Set.of())) {
      if (!index.containsKey(w)) {
        connect(w, graph, index, low, stack, onStack, out);
        low.put(v, Math.min(low.get(v), low.get(w)));
      } else if (onStack.contains(w)) {
        low.put(v, Math.min(low.get(v), index.get(w)));
      }
    }
    if (low.get(v).equals(index.get(v))) {
      Set<String> component = new TreeSet<>();
      String w;
      do {
        w = stack.pop();
        onStack.remove(w);
        component.add(w);
      } while (!w.equals(v));
      if (component.size() > 1) {
        out.add(component);
      }
    }
  }

  private static String withoutCommentsAndStrings(String source) {
    return source.replaceAll("\"(?:\\\\.|[^\"\\\\])*\"", "\"\"")
        .replaceAll("(?s)/\\*.*?\\*/", "")
        .replaceAll("//[^\n]*", "");
  }

  /** The internal package an import names (an import may name a nested class in it). */
  private static String internalPackage(String imported) {
    int at = imported.lastIndexOf(".internal");
    return imported.substring(0, at + ".internal".length());
  }

  private static List<Path> modules() throws IOException {
    List<Path> modules = new ArrayList<>();
    try (Stream<Path> dirs = Files.list(ROOT)) {
      dirs.filter(d -> Files.isRegularFile(d.resolve("pom.xml"))
          && Files.isDirectory(d.resolve("src"))).forEach(modules::add);
    }
    assertThat(modules).hasSizeGreaterThan(10);
    return modules;
  }

  private static List<Path> mainSources() throws IOException {
    List<Path> out = new ArrayList<>();
    for (Path module : modules()) {
      Path main = module.resolve("src/main/java");
      if (Files.isDirectory(main)) {
        out.addAll(sources(main));
      }
    }
    return out;
  }

  private static java.util.Optional<String> packageOf(Path source) {
    Matcher m = PACKAGE.matcher(read(source));
    return m.find() ? java.util.Optional.of(m.group(1)) : java.util.Optional.empty();
  }

  private static List<Path> sources(Path dir) throws IOException {
    try (Stream<Path> files = Files.walk(dir)) {
      return files.filter(p -> p.toString().endsWith(".java")).toList();
    }
  }

  private static String read(Path p) {
    try {
      return Files.readString(p);
    } catch (IOException e) {
      throw new UncheckedIOException(e);
    }
  }
}
