/*
 * Copyright The apiserver4j authors.
 * SPDX-License-Identifier: Apache-2.0
 */
package io.apiserver4j.conformance;

import java.io.PrintStream;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;

/**
 * Command line: {@code ConformanceMain DIR [DIR...]} runs every fixture below the directories,
 * prints one line per failing case ({@code FAIL file :: case: reason}), then
 * {@code N passed, M failed}. Exit status 0 when everything passed, 1 when a case failed, a file
 * could not be checked or no fixture was found, 2 for a usage error.
 */
public final class ConformanceMain {
  private ConformanceMain() {}

  public static void main(String[] args) {
    System.exit(run(args, System.out, System.err));
  }

  /** The command's behaviour without exiting the JVM; returns the exit status. */
  public static int run(String[] args, PrintStream out, PrintStream err) {
    boolean verbose = false;
    List<Path> roots = new ArrayList<>();
    for (String a : args) {
      if (a.equals("-v") || a.equals("--verbose")) {
        verbose = true;
      } else if (a.startsWith("-")) {
        err.println("unknown option " + a);
        return usage(err);
      } else {
        roots.add(Path.of(a));
      }
    }
    if (roots.isEmpty()) {
      return usage(err);
    }
    for (Path root : roots) {
      if (!Files.exists(root)) {
        err.println("no such fixture directory: " + root);
        return 2;
      }
    }
    ConformanceRunner runner = ConformanceRunner.withDiscoveredSuites();
    long passed = 0;
    long failed = 0;
    for (Path root : roots) {
      ConformanceReport report = runner.run(root);
      for (CaseOutcome o : report.outcomes()) {
        if (!o.isPassed() || verbose) {
          out.println(o);
        }
      }
      passed += report.passed();
      failed += report.failed();
    }
    out.println(passed + " passed, " + failed + " failed");
    if (passed + failed == 0) {
      err.println("no fixtures found in " + roots);
      return 1;
    }
    return failed == 0 ? 0 : 1;
  }

  private static int usage(PrintStream err) {
    err.println("usage: conformance [-v] DIR [DIR...]   (runs every *.yaml fixture below DIR)");
    return 2;
  }
}
