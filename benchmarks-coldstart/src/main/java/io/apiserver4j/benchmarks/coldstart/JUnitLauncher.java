/*
 * Copyright The apiserver4j authors.
 * SPDX-License-Identifier: Apache-2.0
 */
package io.apiserver4j.benchmarks.coldstart;

import static org.junit.platform.engine.discovery.DiscoverySelectors.selectClass;

import org.junit.platform.launcher.Launcher;
import org.junit.platform.launcher.LauncherDiscoveryRequest;
import org.junit.platform.launcher.core.LauncherDiscoveryRequestBuilder;
import org.junit.platform.launcher.core.LauncherFactory;
import org.junit.platform.launcher.listeners.SummaryGeneratingListener;
import org.junit.platform.launcher.listeners.TestExecutionSummary;

/** Scenarios (c) and (d): runs one test class as Surefire's JUnit Platform provider would. */
public final class JUnitLauncher {
  private JUnitLauncher() {}

  /** {@code args[0]}: the test class. Exits 1 if its test did not pass. */
  public static void main(String[] args) throws Exception {
    Phases.end("main");
    LauncherDiscoveryRequest request = LauncherDiscoveryRequestBuilder.request()
        .selectors(selectClass(Class.forName(args[0]))).build();
    Launcher launcher = LauncherFactory.create();
    SummaryGeneratingListener summary = new SummaryGeneratingListener();
    launcher.execute(request, summary);
    TestExecutionSummary result = summary.getSummary();
    if (result.getTestsSucceededCount() != 1) {
      result.getFailures().forEach(f -> f.getException().printStackTrace());
      System.exit(1);
    }
    Phases.print();
    System.exit(0);
  }
}
