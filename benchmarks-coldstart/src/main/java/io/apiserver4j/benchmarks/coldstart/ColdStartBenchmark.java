/*
 * Copyright The apiserver4j authors.
 * SPDX-License-Identifier: Apache-2.0
 */
package io.apiserver4j.benchmarks.coldstart;

import java.io.IOException;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;

/**
 * Time from JVM start to the first answered request, each run in a fresh JVM, best and median of
 * {@code -n} runs (default 10), for (a) an {@code ApiServer} alone, (b) {@code ApiServer} + HTTP +
 * a fabric8 client doing create and get, (c) the same through {@code @ApiServerTest} in a JUnit
 * launcher, and (d) fabric8's mock server ({@code @EnableKubernetesMockClient(crud = true)}) doing
 * (c)'s create and get. The scenarios alternate run by run, so that a change in the machine's load
 * touches all alike. Each scenario reports when its phases ended (ms since JVM start / classes
 * loaded / the process's CPU ms); the median run's phases are printed, and the median CPU time to
 * the first answer, steadier than the wall time on a loaded machine. The last line is {@code cold: apiserver4j <ms> ms,
 * fabric8 mock <ms> ms} (medians of (c) and (d)).
 *
 * <p>Build with {@code mvn -pl benchmarks-coldstart -am package -DskipTests}, then run
 * {@code java -cp "$(cat benchmarks-coldstart/target/classpath.txt):benchmarks-coldstart/target/classes"
 * io.apiserver4j.benchmarks.coldstart.ColdStartBenchmark [-n 10] [-- JVM options]}; JVM options
 * after {@code --} go to every measured JVM (e.g. {@code -XX:SharedArchiveFile=...}).
 */
public final class ColdStartBenchmark {
  private ColdStartBenchmark() {}

  /** One scenario: a main class and its arguments. */
  record Scenario(String name, String mainClass, List<String> args) {}

  static final List<Scenario> SCENARIOS = List.of(
      new Scenario("(a) ApiServer", ApiServerAlone.class.getName(), List.of()),
      new Scenario("(b) ApiServer+HTTP+fabric8", ApiServerOverHttp.class.getName(), List.of()),
      new Scenario("(c) @ApiServerTest+fabric8", JUnitLauncher.class.getName(),
          List.of(ExtensionTestClass.class.getName())),
      new Scenario("(d) fabric8 mock (crud)", JUnitLauncher.class.getName(),
          List.of(MockServerTestClass.class.getName())));

  /** The phases of one run: phase name to {ms since JVM start, classes loaded, CPU ms}. */
  record Run(Map<String, long[]> phases) {
    long answered() {
      return phases.get("answered")[0];
    }
  }

  public static void main(String[] args) throws Exception {
    int n = 10;
    List<String> jvmOptions = new ArrayList<>();
    for (int i = 0; i < args.length; i++) {
      if (args[i].equals("-n")) {
        n = Integer.parseInt(args[++i]);
      } else if (args[i].equals("--")) {
        jvmOptions.addAll(Arrays.asList(args).subList(i + 1, args.length));
        break;
      } else {
        throw new IllegalArgumentException("unknown argument " + args[i]);
      }
    }
    Map<Scenario, List<Run>> runs = new LinkedHashMap<>();
    SCENARIOS.forEach(s -> runs.put(s, new ArrayList<>()));
    for (int i = 0; i < n; i++) {
      for (Scenario s : SCENARIOS) {
        runs.get(s).add(run(s, jvmOptions));
      }
    }
    Map<Scenario, Long> medians = new LinkedHashMap<>();
    for (Scenario s : SCENARIOS) {
      List<Run> sorted = new ArrayList<>(runs.get(s));
      sorted.sort((x, y) -> Long.compare(x.answered(), y.answered()));
      Run median = sorted.get(sorted.size() / 2);
      medians.put(s, median.answered());
      StringBuilder phases = new StringBuilder();
      median.phases().forEach((k, v) -> phases.append(String.format(
          " %s=%d ms/%d classes/%d cpu-ms", k, v[0], v[1], v[2])));
      List<Long> cpu = new ArrayList<>(runs.get(s).stream()
          .map(r -> r.phases().get("answered")[2]).sorted().toList());
      System.out.printf("%-28s best %5d ms  median %5d ms  median CPU %5d ms  (median run:%s)%n",
          s.name(), sorted.get(0).answered(), median.answered(), cpu.get(cpu.size() / 2), phases);
    }
    System.out.printf("cold: apiserver4j %d ms, fabric8 mock %d ms%n",
        medians.get(SCENARIOS.get(2)), medians.get(SCENARIOS.get(3)));
  }

  private static Run run(Scenario s, List<String> jvmOptions) throws IOException,
      InterruptedException {
    List<String> command = new ArrayList<>();
    command.add(Path.of(System.getProperty("java.home"), "bin", "java").toString());
    command.addAll(jvmOptions);
    command.add("-cp");
    command.add(System.getProperty("java.class.path"));
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
