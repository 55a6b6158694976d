/*
 * Copyright The apiserver4j authors.
 * SPDX-License-Identifier: Apache-2.0
 */
package io.apiserver4j.benchmarks.coldstart;

import java.io.File;
import java.io.IOException;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Set;
import java.util.jar.JarEntry;
import java.util.jar.JarOutputStream;

/**
 * Time from JVM start to the first answered request, each run in a fresh JVM, best and median of
 * {@code -n} runs (default 10), for (a) an {@code ApiServer} alone, (b) {@code ApiServer} + HTTP +
 * a fabric8 client doing create and get, (c) the same through {@code @ApiServerTest} in a JUnit
 * launcher, and (d) fabric8's mock server ({@code @EnableKubernetesMockClient(crud = true)}) doing
 * (c)'s create and get, on the class path without this project's jars (as a mock user's). The
 * scenarios alternate run by run, so that a change in the machine's load
 * touches all alike. Each scenario reports when its phases ended (ms since JVM start / classes
 * loaded / the process's CPU ms); the median run's phases are printed, and the median CPU time to
 * the first answer, steadier than the wall time on a loaded machine. The last line is {@code cold: apiserver4j <ms> ms,
 * fabric8 mock <ms> ms} (medians of (c) and (d)).
 *
 * <p>Options: {@code --cds c,d} adds those of (c) and (d) with an application class-data sharing
 * archive each, written by one training run of the scenario with {@code -XX:ArchiveClassesAtExit} (JDK
 * 17's way; JDK 19+ can use {@code -XX:+AutoCreateSharedArchive} instead) before the measured
 * runs; {@code --c1 c,d} adds those scenarios run with {@code -XX:TieredStopAtLevel=1} (the
 * JIT's first tier only, which compiles sooner and spends less CPU compiling in a short JVM);
 * {@code --baseline <class path>} adds (a), (b) and (c) (those selected) run on another
 * build's class path (a baseline measured in the same run, interleaved with the candidate); {@code --only a,b,c,d} keeps those
 * scenarios. A run that fails (fabric8's client gives up after 10 s without a connection on an
 * overloaded machine) is retried up to twice; a run failing three times is left out and counted.
 * Every run prints a line as it ends.
 *
 * <p>Build with {@code mvn -pl benchmarks-coldstart -am package -DskipTests}, then run
 * {@code java -cp "$(cat benchmarks-coldstart/target/classpath.txt):benchmarks-coldstart/target/classes"
 * io.apiserver4j.benchmarks.coldstart.ColdStartBenchmark [-n 10] [--cds c,d] [--c1 c,d] [--baseline cp]
 * [--only c,d] [-- JVM options]}; JVM options after {@code --} go to every measured JVM (e.g.
 * {@code -XX:TieredStopAtLevel=1}).
 */
public final class ColdStartBenchmark {
  private static final int ATTEMPTS = 3;

  private ColdStartBenchmark() {}

  /**
   * One scenario: a main class and its arguments, run on a class path with extra JVM options.
   * The key is the letter {@code --only} selects by.
   */
  record Scenario(String key, String name, String mainClass, List<String> args,
      String classPath, List<String> jvmOptions) {
    Scenario with(String suffix, String otherClassPath, List<String> moreOptions) {
      List<String> options = new ArrayList<>(jvmOptions);
      options.addAll(moreOptions);
      return new Scenario(key, name + suffix, mainClass, args, otherClassPath, options);
    }
  }

  static final Scenario API_SERVER = new Scenario("a", "(a) ApiServer",
      ApiServerAlone.class.getName(), List.of(), ownClassPath(), List.of());
  static final Scenario OVER_HTTP = new Scenario("b", "(b) ApiServer+HTTP+fabric8",
      ApiServerOverHttp.class.getName(), List.of(), ownClassPath(), List.of());
  static final Scenario EXTENSION = new Scenario("c", "(c) @ApiServerTest+fabric8",
      JUnitLauncher.class.getName(), List.of(ExtensionTestClass.class.getName()), ownClassPath(),
      List.of());
  static final Scenario MOCK = new Scenario("d", "(d) fabric8 mock (crud)",
      JUnitLauncher.class.getName(), List.of(MockServerTestClass.class.getName()),
      withoutApiserver4j(ownClassPath()), List.of());

  /** The phases of one run: phase name to {ms since JVM start, classes loaded, CPU ms}. */
  record Run(Map<String, long[]> phases) {
    long answered() {
      return phases.get("answered")[0];
    }
  }

  public static void main(String[] args) throws Exception {
    int n = 10;
    Set<String> cds = Set.of();
    Set<String> c1 = Set.of();
    String baseline = null;
    Set<String> only = Set.of("a", "b", "c", "d");
    List<String> jvmOptions = new ArrayList<>();
    for (int i = 0; i < args.length; i++) {
      switch (args[i]) {
        case "-n" -> n = Integer.parseInt(args[++i]);
        case "--cds" -> cds = Set.of(args[++i].split(","));
        case "--c1" -> c1 = Set.of(args[++i].split(","));
        case "--baseline" -> baseline = args[++i];
        case "--only" -> only = Set.of(args[++i].split(","));
        case "--" -> {
          jvmOptions.addAll(Arrays.asList(args).subList(i + 1, args.length));
          i = args.length;
        }
        default -> throw new IllegalArgumentException("unknown argument " + args[i]);
      }
    }
    List<Scenario> scenarios = new ArrayList<>();
    for (Scenario s : List.of(API_SERVER, OVER_HTTP, EXTENSION, MOCK)) {
      if (only.contains(s.key())) {
        scenarios.add(s.with("", s.classPath(), jvmOptions));
      }
    }
    if (baseline != null) {
      for (Scenario s : List.of(API_SERVER, OVER_HTTP, EXTENSION)) {
        if (only.contains(s.key())) {
          scenarios.add(s.with(" baseline", baseline, jvmOptions));
        }
      }
    }
    for (Scenario s : List.of(API_SERVER, OVER_HTTP, EXTENSION, MOCK)) {
      if (c1.contains(s.key())) {
        scenarios.add(s.with(" +C1 only", s.classPath(), concat(jvmOptions,
            List.of("-XX:TieredStopAtLevel=1"))));
      }
    }
    Path archives = null;
    if (!cds.isEmpty()) {
      archives = Files.createTempDirectory("coldstart-cds");
      for (Scenario s : List.of(EXTENSION, MOCK)) {
        if (cds.contains(s.key())) {
          scenarios.add(withArchive(s.with(" +AppCDS", s.classPath(), jvmOptions), archives));
        }
      }
    }
    Map<Scenario, List<Run>> runs = new LinkedHashMap<>();
    scenarios.forEach(s -> runs.put(s, new ArrayList<>()));
    int retries = 0;
    Map<Scenario, Integer> failures = new LinkedHashMap<>();
    for (int i = 0; i < n; i++) {
      for (Scenario s : scenarios) {
        for (int attempt = 1; ; attempt++) {
          try {
            Run r = run(s);
            runs.get(s).add(r);
            // each run as it ends, so that an interrupted benchmark still leaves its figures
            System.out.printf("run %d %s: answered %d ms, %d cpu-ms%n", i + 1, s.name(),
                r.answered(), r.phases().get("answered")[2]);
            break;
          } catch (IllegalStateException e) {
            System.err.println(e.getMessage());
            if (attempt == ATTEMPTS) {
              failures.merge(s, 1, Integer::sum);
              break;
            }
            retries++;
          }
        }
      }
    }
    Map<String, Long> medians = new LinkedHashMap<>();
    for (Scenario s : scenarios) {
      if (runs.get(s).isEmpty()) {
        System.out.printf("%-34s every run failed%n", s.name());
        continue;
      }
      List<Run> sorted = new ArrayList<>(runs.get(s));
      sorted.sort((x, y) -> Long.compare(x.answered(), y.answered()));
      Run median = sorted.get(sorted.size() / 2);
      medians.put(s.name(), median.answered());
      StringBuilder phases = new StringBuilder();
      median.phases().forEach((k, v) -> phases.append(String.format(
          " %s=%d ms/%d classes/%d cpu-ms", k, v[0], v[1], v[2])));
      List<Long> cpu = new ArrayList<>(runs.get(s).stream()
          .map(r -> r.phases().get("answered")[2]).sorted().toList());
      System.out.printf("%-34s best %5d ms  median %5d ms  median CPU %5d ms  (median run:%s)%n",
          s.name(), sorted.get(0).answered(), median.answered(), cpu.get(cpu.size() / 2), phases);
    }
    if (retries > 0) {
      System.out.printf("%d failed runs retried%n", retries);
    }
    failures.forEach((s, count) -> System.out.printf("%s: %d runs failed %d times and were left"
        + " out%n", s.name(), count, ATTEMPTS));
    if (archives != null) {
      deleteAll(archives);
    }
    if (medians.containsKey(EXTENSION.name()) && medians.containsKey(MOCK.name())) {
      System.out.printf("cold: apiserver4j %d ms, fabric8 mock %d ms%n",
          medians.get(EXTENSION.name()), medians.get(MOCK.name()));
    }
  }

  private static List<String> concat(List<String> a, List<String> b) {
    List<String> out = new ArrayList<>(a);
    out.addAll(b);
    return out;
  }

  private static String ownClassPath() {
    return System.getProperty("java.class.path");
  }

  /**
   * {@code classPath} without this project's jars (this benchmark's own classes kept): a fabric8
   * mock user's test JVM has none, and the test kit's JUnit session listener would otherwise
   * run in (d) too.
   */
  static String withoutApiserver4j(String classPath) {
    List<String> kept = new ArrayList<>();
    for (String entry : classPath.split(File.pathSeparator)) {
      String name = Path.of(entry).getFileName().toString();
      if (!name.startsWith("apiserver4j-") || name.startsWith("apiserver4j-benchmarks-coldstart")) {
        kept.add(entry);
      }
    }
    return String.join(File.pathSeparator, kept);
  }

  /**
   * The scenario with an AppCDS archive of the classes its own training run loaded: JDK 17
   * writes it at the training JVM's exit ({@code -XX:ArchiveClassesAtExit}), so the archive holds
   * exactly what that scenario loads.
   */
  private static Scenario withArchive(Scenario scenario, Path dir) throws IOException,
      InterruptedException {
    Path archive = dir.resolve(scenario.key() + ".jsa");
    Scenario s = scenario.with("", jarsOnly(scenario.classPath(), dir), List.of());
    for (int attempt = 1; ; attempt++) {
      try {
        run(s.with("", s.classPath(), List.of("-XX:ArchiveClassesAtExit=" + archive)));
        break;
      } catch (IllegalStateException e) {
        if (attempt == ATTEMPTS) {
          throw e;
        }
      }
    }
    if (!Files.isRegularFile(archive)) {
      throw new IllegalStateException("the training run of " + s.name() + " wrote no " + archive);
    }
    return s.with("", s.classPath(), List.of("-XX:SharedArchiveFile=" + archive));
  }

  /**
   * The class path with each directory replaced by a jar of its files: the JVM archives classes
   * from jars only (it refuses a non-empty directory on the class path of a CDS run).
   */
  private static String jarsOnly(String classPath, Path dir) throws IOException {
    List<String> out = new ArrayList<>();
    for (String entry : classPath.split(File.pathSeparator)) {
      Path p = Path.of(entry);
      if (!Files.isDirectory(p)) {
        out.add(entry);
        continue;
      }
      Path jar = Files.createTempFile(dir, "classes", ".jar");
      try (JarOutputStream out2 = new JarOutputStream(Files.newOutputStream(jar));
          var files = Files.walk(p)) {
        for (Path f : files.filter(Files::isRegularFile).sorted().toList()) {
          out2.putNextEntry(new JarEntry(p.relativize(f).toString().replace(File.separatorChar,
              '/')));
          Files.copy(f, out2);
          out2.closeEntry();
        }
      }
      out.add(jar.toString());
    }
    return String.join(File.pathSeparator, out);
  }

  private static void deleteAll(Path dir) throws IOException {
    try (var files = Files.list(dir)) {
      for (Path f : files.toList()) {
        Files.delete(f);
      }
    }
    Files.delete(dir);
  }

  private static Run run(Scenario s) throws IOException, InterruptedException {
    List<String> command = new ArrayList<>();
    command.add(Path.of(System.getProperty("java.home"), "bin", "java").toString());
    command.addAll(s.jvmOptions());
    command.add("-cp");
    command.add(s.classPath());
    command.add(s.mainClass());
    command.addAll(s.args());
    Path log = Files.createTempFile("coldstart", ".log");
    Process p = new ProcessBuilder(command).redirectErrorStream(true)
        .redirectOutput(log.toFile()).start();
    int exit = p.waitFor();
    List<String> lines = Files.readAllLines(log, StandardCharsets.UTF_8);
    Files.delete(log);
    String last = lines.stream().filter(l -> l.startsWith("phases ")).reduce((a, b) -> b)
        .orElse(null);
    if (exit != 0 || last == null) {
      lines.forEach(System.err::println);
      throw new IllegalStateException(s.name() + " failed with exit code " + exit);
    }
    Map<String, long[]> phases = new LinkedHashMap<>();
    for (String part : last.substring("phases ".length()).split(" ")) {
      String[] kv = part.split("=");
      String[] msClasses = kv[1].split("/");
      phases.put(kv[0], new long[] {Long.parseLong(msClasses[0]), Long.parseLong(msClasses[1]),
          Long.parseLong(msClasses[2])});
    }
    return new Run(phases);
  }
}
