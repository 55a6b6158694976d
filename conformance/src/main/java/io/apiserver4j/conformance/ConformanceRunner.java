/*
 * Copyright The apiserver4j authors.
 * SPDX-License-Identifier: Apache-2.0
 */
package io.apiserver4j.conformance;

import static java.util.Objects.requireNonNull;

import io.apiserver4j.core.MapValue;
import io.apiserver4j.core.Value;
import io.apiserver4j.core.Yaml;
import java.io.IOException;
import java.io.UncheckedIOException;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.ServiceLoader;
import java.util.stream.Stream;

/**
 * Runs fixture files laid out like {@code ../shared/conformance}: every {@code *.yaml} below a
 * directory, in path order, each handed to the first {@link FixtureSuite} that accepts it. A file
 * that cannot be read or parsed, that no suite accepts, or whose suite throws, is one failed
 * outcome named {@code <file>}. Thread-safe if the suites are.
 */
public final class ConformanceRunner {
  /** Case name used for failures that concern a whole file. */
  public static final String WHOLE_FILE = "<file>";

  private final List<FixtureSuite> suites;

  public ConformanceRunner(List<FixtureSuite> suites) {
    requireNonNull(suites, "suites");
    this.suites = List.copyOf(suites);
  }

  /** A runner with every suite registered through {@link ServiceLoader}. */
  public static ConformanceRunner withDiscoveredSuites() {
    List<FixtureSuite> found = new ArrayList<>();
    ServiceLoader.load(FixtureSuite.class, ConformanceRunner.class.getClassLoader())
        .forEach(found::add);
    return new ConformanceRunner(found);
  }

  public List<FixtureSuite> suites() {
    return suites;
  }

  /** The {@code *.yaml} files below {@code root} (or {@code root} itself if it is a file), sorted. */
  public static List<Path> discover(Path root) {
    requireNonNull(root, "root");
    if (Files.isRegularFile(root)) {
      return List.of(root);
    }
    if (!Files.isDirectory(root)) {
      throw new IllegalArgumentException("no such fixture directory: " + root);
    }
    try (Stream<Path> files = Files.walk(root)) {
      return files.filter(p -> Files.isRegularFile(p) && p.getFileName().toString().endsWith(".yaml"))
          .sorted()
          .toList();
    } catch (IOException e) {
      throw new UncheckedIOException("cannot list " + root, e);
    }
  }

  /** Runs every fixture below {@code root}. */
  public ConformanceReport run(Path root) {
    List<CaseOutcome> all = new ArrayList<>();
    Path base = Files.isRegularFile(root) ? root.toAbsolutePath().getParent() : root;
    for (Path file : discover(root)) {
      all.addAll(runFile(base, file));
    }
    return new ConformanceReport(all);
  }

  /** Runs one fixture file; {@code base} only shapes the name used in outcomes. */
  public List<CaseOutcome> runFile(Path base, Path file) {
    String name = displayName(base, file);
    Fixture fixture;
    try {
      fixture = load(file, name);
    } catch (RuntimeException | IOException e) {
      return List.of(CaseOutcome.failed(name, WHOLE_FILE, "cannot read fixture: " + e.getMessage()));
    }
    for (FixtureSuite suite : suites) {
      if (suite.accepts(fixture)) {
        try {
          List<CaseOutcome> outcomes = suite.run(fixture);
          if (outcomes.isEmpty()) {
            return List.of(CaseOutcome.failed(name, WHOLE_FILE,
                "suite " + suite.name() + " found no cases in this fixture"));
          }
          return outcomes;
        } catch (RuntimeException e) {
          return List.of(CaseOutcome.failed(name, WHOLE_FILE,
              "suite " + suite.name() + " failed: " + e));
        }
      }
    }
    return List.of(CaseOutcome.failed(name, WHOLE_FILE, "no suite accepts this fixture (suites: "
        + suites.stream().map(FixtureSuite::name).toList() + ")"));
  }

  /** Reads and parses one fixture file (YAML 1.1 scalars, as the fixtures need). */
  public static Fixture load(Path file, String name) throws IOException {
    String text = Files.readString(file, StandardCharsets.UTF_8);
    Value doc = Yaml.read(text);
    if (!(doc instanceof MapValue m)) {
      throw new IllegalArgumentException("top level is not a map but " + doc.kind());
    }
    return new Fixture(file, name, m);
  }

  private static String displayName(Path base, Path file) {
    Path rel;
    try {
      rel = base.toAbsolutePath().normalize().relativize(file.toAbsolutePath().normalize());
    } catch (IllegalArgumentException e) {
      rel = file;
    }
    return rel.toString().replace('\\', '/');
  }
}
