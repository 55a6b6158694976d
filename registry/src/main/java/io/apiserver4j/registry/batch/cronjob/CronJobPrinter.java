/*
 * Copyright The apiserver4j authors.
 * SPDX-License-Identifier: Apache-2.0
 */
package io.apiserver4j.registry.batch.cronjob;

import static io.apiserver4j.registry.internal.Cells.AGE;
import static io.apiserver4j.registry.internal.Cells.CONTAINERS;
import static io.apiserver4j.registry.internal.Cells.IMAGES;
import static io.apiserver4j.registry.internal.Cells.NAME;
import static io.apiserver4j.registry.internal.Cells.age;
import static io.apiserver4j.registry.internal.Cells.bool;
import static io.apiserver4j.registry.internal.Cells.col;
import static io.apiserver4j.registry.internal.Cells.doc;
import static io.apiserver4j.registry.internal.Cells.formatLabelSelector;
import static io.apiserver4j.registry.internal.Cells.has;
import static io.apiserver4j.registry.internal.Cells.join;
import static io.apiserver4j.registry.internal.Cells.list;
import static io.apiserver4j.registry.internal.Cells.name;
import static io.apiserver4j.registry.internal.Cells.orNone;
import static io.apiserver4j.registry.internal.Cells.row;
import static io.apiserver4j.registry.internal.Cells.since;
import static io.apiserver4j.registry.internal.Cells.str;
import static io.apiserver4j.registry.internal.Cells.wide;

import io.apiserver4j.apiserver.TablePrinter;
import io.apiserver4j.registry.internal.Cells;
import java.util.List;

/** The {@code kubectl get cronjobs} columns of kube's {@code printCronJob}. */
public final class CronJobPrinter {
  private static final String BATCH = "io.k8s.api.batch.v1.";

  private CronJobPrinter() {}

  /** The CronJob's table printer. */
  public static TablePrinter printer() {
    return TablePrinter.of(List.of(NAME,
        col("Schedule", "string", doc(BATCH + "CronJobSpec", "schedule")),
        col("Timezone", "string", doc(BATCH + "CronJobSpec", "timeZone")),
        col("Suspend", "boolean", doc(BATCH + "CronJobSpec", "suspend")),
        col("Active", "integer", doc(BATCH + "CronJobStatus", "active")),
        col("Last Schedule", "string", doc(BATCH + "CronJobStatus", "lastScheduleTime")), AGE,
        CONTAINERS, IMAGES, wide("Selector", "string", doc(BATCH + "JobSpec", "selector"))),
        (o, now) -> row(name(o), str(o, "spec", "schedule"),
            orNone(str(o, "spec", "timeZone")),
            has(o, "spec", "suspend") ? (bool(o, "spec", "suspend") ? "True" : "False")
                : "<unset>",
            (long) list(o, "status", "active").size(),
            has(o, "status", "lastScheduleTime")
                ? since(str(o, "status", "lastScheduleTime"), now) : "<none>",
            age(o, now), join(list(o, "spec", "jobTemplate", "spec", "template", "spec",
                "containers"), "name"),
            join(list(o, "spec", "jobTemplate", "spec", "template", "spec", "containers"),
                "image"),
            formatLabelSelector(Cells.at(o, "spec", "jobTemplate", "spec", "selector"))));
  }
}
