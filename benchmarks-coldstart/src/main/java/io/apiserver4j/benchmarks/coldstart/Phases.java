/*
 * Copyright The apiserver4j authors.
 * SPDX-License-Identifier: Apache-2.0
 */
package io.apiserver4j.benchmarks.coldstart;

import java.lang.management.ManagementFactory;
import java.util.LinkedHashMap;
import java.util.Map;

/**
 * The phases of one measured JVM, each ended by {@link #end}: milliseconds since the JVM started
 * (the runtime's own start time, so the JVM's boot is counted), classes loaded so far and the
 * process's CPU time in milliseconds (all threads: the JIT and GC included; on a loaded machine a
 * steadier figure than the wall time). The last line a scenario prints is {@code phases name=ms/classes/cpuMs ...}, read by
 * {@link ColdStartBenchmark}.
 */
final class Phases {
  private static final Map<String, String> ENDS = new LinkedHashMap<>();

  private Phases() {}

  /** Marks the end of a phase now. */
  static synchronized void end(String phase) {
    long ms = System.currentTimeMillis() - ManagementFactory.getRuntimeMXBean().getStartTime();
    long classes = ManagementFactory.getClassLoadingMXBean().getTotalLoadedClassCount();
    long cpuMs = ((com.sun.management.OperatingSystemMXBean)
        ManagementFactory.getOperatingSystemMXBean()).getProcessCpuTime() / 1_000_000;
    ENDS.put(phase, ms + "/" + classes + "/" + cpuMs);
  }

  /** Prints the phases for the driver. */
  static synchronized void print() {
    StringBuilder sb = new StringBuilder("phases");
    ENDS.forEach((k, v) -> sb.append(' ').append(k).append('=').append(v));
    System.out.println(sb);
    System.out.flush();
  }
}
