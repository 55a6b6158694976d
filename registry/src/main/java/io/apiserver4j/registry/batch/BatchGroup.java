/*
 * Copyright The apiserver4j authors.
 * SPDX-License-Identifier: Apache-2.0
 */
package io.apiserver4j.registry.batch;

import io.apiserver4j.core.GroupVersionKind;
import io.apiserver4j.registry.batch.cronjob.CronJobPrinter;
import io.apiserver4j.registry.batch.cronjob.CronJobStrategy;
import io.apiserver4j.registry.batch.job.JobPrinter;
import io.apiserver4j.registry.batch.job.JobStrategy;
import io.apiserver4j.registry.internal.BuiltinKind;
import java.util.List;

/** The kinds of the {@code batch} API group with their registry behaviour (kube's pkg/registry/batch). */
public final class BatchGroup {
  private BatchGroup() {}

  /** The kinds of the group this registry declares, each from its own package. */
  public static List<BuiltinKind> kinds() {
    return List.of(
        BuiltinKind.of(new GroupVersionKind("batch", "v1", "Job"), JobStrategy.strategy(),
            JobPrinter::printer),
        BuiltinKind.of(new GroupVersionKind("batch", "v1", "CronJob"), CronJobStrategy.strategy(),
            CronJobPrinter::printer));
  }
}
