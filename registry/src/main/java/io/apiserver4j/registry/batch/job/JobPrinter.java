/*
 * Copyright The apiserver4j authors.
 * SPDX-License-Identifier: Apache-2.0
 */
package io.apiserver4j.registry.batch.job;

import static io.apiserver4j.registry.internal.Cells.AGE;
import static io.apiserver4j.registry.internal.Cells.CONTAINERS;
import static io.apiserver4j.registry.internal.Cells.IMAGES;
import static io.apiserver4j.registry.internal.Cells.NAME;
import static io.apiserver4j.registry.internal.Cells.age;
import static io.apiserver4j.registry.internal.Cells.col;
import static io.apiserver4j.registry.internal.Cells.containers;
import static io.apiserver4j.registry.internal.Cells.doc;
import static io.apiserver4j.registry.internal.Cells.formatLabelSelector;
import static io.apiserver4j.registry.internal.Cells.has;
import static io.apiserver4j.registry.internal.Cells.images;
import static io.apiserver4j.registry.internal.Cells.integer;
import static io.apiserver4j.registry.internal.Cells.list;
import static io.apiserver4j.registry.internal.Cells.name;
import static io.apiserver4j.registry.internal.Cells.row;
import static io.apiserver4j.registry.internal.Cells.str;
import static io.apiserver4j.registry.internal.Cells.wide;

import io.apiserver4j.apiserver.TablePrinter;
import io.apiserver4j.core.GoDurations;
import io.apiserver4j.core.MapValue;
import io.apiserver4j.core.Value;
import io.apiserver4j.registry.internal.Cells;
import java.time.Duration;
import java.time.Instant;
import java.time.format.DateTimeParseException;
import java.util.List;

/** The {@code kubectl get jobs} columns of kube's {@code printJob}. */
public final class JobPrinter {
  private static final String BATCH = "io.k8s.api.batch.v1.";

  private JobPrinter() {}

  /** The Job's table printer. */
  public static TablePrinter printer() {
    return TablePrinter.of(List.of(NAME, col("Status", "string", "Status of the job."),
        col("Completions", "string", doc(BATCH + "JobStatus", "succeeded")),
        col("Duration", "string", "Time required to complete the job."), AGE,
        CONTAINERS, IMAGES, wide("Selector", "string", doc(BATCH + "JobSpec", "selector"))),
        JobPrinter::cells);
  }

  private static List<Value> cells(MapValue o, Instant now) {
    String status = "Running";
    for (Value c : list(o, "status", "conditions")) {
      if (!str(c, "status").equals("True")) {
        continue;
      }
      String type = str(c, "type");
      if (type.equals("Complete") || type.equals("Failed")) {
        status = type;
      } else if (status.equals("Running") && List.of("Suspended", "FailureTarget",
          "SuccessCriteriaMet").contains(type)) {
        status = type;
      }
    }
    long succeeded = integer(o, "status", "succeeded");
    String completions;
    if (has(o, "spec", "completions")) {
      completions = succeeded + "/" + integer(o, "spec", "completions");
    } else if (has(o, "spec", "parallelism") && integer(o, "spec", "parallelism") > 1) {
      completions = succeeded + "/1 of " + integer(o, "spec", "parallelism");
    } else {
      completions = succeeded + "/1";
    }
    String duration = "";
    String start = str(o, "status", "startTime");
    if (!start.isEmpty()) {
      String end = str(o, "status", "completionTime");
      try {
        Instant s = Instant.parse(start);
        Instant e = end.isEmpty() ? now : Instant.parse(end);
        duration = GoDurations.human(Duration.between(s, e));
      } catch (DateTimeParseException ex) {
        duration = "<invalid>";
      }
    }
    return row(name(o), status, completions, duration, age(o, now), containers(o), images(o),
        formatLabelSelector(Cells.at(o, "spec", "selector")));
  }
}
