/*
 * Copyright The apiserver4j authors.
 * SPDX-License-Identifier: Apache-2.0
 */
package io.apiserver4j.registry.autoscaling.horizontalpodautoscaler;

import static io.apiserver4j.registry.internal.Cells.AGE;
import static io.apiserver4j.registry.internal.Cells.NAME;
import static io.apiserver4j.registry.internal.Cells.age;
import static io.apiserver4j.registry.internal.Cells.col;
import static io.apiserver4j.registry.internal.Cells.doc;
import static io.apiserver4j.registry.internal.Cells.has;
import static io.apiserver4j.registry.internal.Cells.integer;
import static io.apiserver4j.registry.internal.Cells.list;
import static io.apiserver4j.registry.internal.Cells.name;
import static io.apiserver4j.registry.internal.Cells.orDefault;
import static io.apiserver4j.registry.internal.Cells.row;
import static io.apiserver4j.registry.internal.Cells.str;

import io.apiserver4j.apiserver.TablePrinter;
import io.apiserver4j.core.MapValue;
import io.apiserver4j.core.Value;
import io.apiserver4j.registry.internal.Cells;
import java.time.Instant;
import java.util.ArrayList;
import java.util.List;

/**
 * The {@code kubectl get horizontalpodautoscalers} columns of kube's
 * {@code printHorizontalPodAutoscaler}, for both API versions.
 */
public final class HorizontalPodAutoscalerPrinter {
  private static final String HPA = "io.k8s.api.autoscaling.v2.HorizontalPodAutoscaler";

  private HorizontalPodAutoscalerPrinter() {}

  /** The HorizontalPodAutoscaler's table printer. */
  public static TablePrinter printer() {
    return TablePrinter.of(List.of(NAME,
        col("Reference", "string", doc(HPA + "Spec", "scaleTargetRef")),
        col("Targets", "string", doc(HPA + "Spec", "metrics")),
        col("MinPods", "string", doc(HPA + "Spec", "minReplicas")),
        col("MaxPods", "string", doc(HPA + "Spec", "maxReplicas")),
        col("Replicas", "string", doc(HPA + "Status", "currentReplicas")), AGE),
        HorizontalPodAutoscalerPrinter::cells);
  }

  private static List<Value> cells(MapValue o, Instant now) {
    String ref = str(o, "spec", "scaleTargetRef", "kind") + "/"
        + str(o, "spec", "scaleTargetRef", "name");
    List<String> targets = new ArrayList<>();
    // autoscaling/v1 keeps its one target in the spec
    if (has(o, "spec", "targetCPUUtilizationPercentage")) {
      String current = has(o, "status", "currentCPUUtilizationPercentage")
          ? integer(o, "status", "currentCPUUtilizationPercentage") + "%" : "<unknown>";
      targets.add("cpu: " + current + "/" + integer(o, "spec", "targetCPUUtilizationPercentage")
          + "%");
    }
    for (Value m : list(o, "spec", "metrics")) {
      if (str(m, "type").equals("Resource")) {
        String target = has(m, "resource", "target", "averageUtilization")
            ? integer(m, "resource", "target", "averageUtilization") + "%"
            : str(m, "resource", "target", "averageValue");
        targets.add(str(m, "resource", "name") + ": <unknown>/" + target);
      } else if (!str(m, "type").isEmpty()) {
        // Pods, Object, External: the target sits under the type's own field
        String type = str(m, "type");
        Value target = Cells.at(m, Character.toLowerCase(type.charAt(0)) + type.substring(1),
            "target");
        String value = has(target, "averageUtilization")
            ? integer(target, "averageUtilization") + "%"
            : orDefault(str(target, "averageValue"), str(target, "value"));
        targets.add("<unknown>/" + value);
      }
    }
    String targetCell = targets.isEmpty() ? "<none>" : targets.size() > 3
        ? String.join(", ", targets.subList(0, 3)) + " + " + (targets.size() - 3) + " more..."
        : String.join(", ", targets);
    return row(name(o), ref, targetCell,
        has(o, "spec", "minReplicas") ? Long.toString(integer(o, "spec", "minReplicas"))
            : "<unset>",
        integer(o, "spec", "maxReplicas"), integer(o, "status", "currentReplicas"),
        age(o, now));
  }}
