/*
 * Copyright The apiserver4j authors.
 * SPDX-License-Identifier: Apache-2.0
 */
package io.apiserver4j.registry.core.node;

import io.apiserver4j.admission.AdmissionAttributes;
import io.apiserver4j.admission.MutatingPlugin;
import io.apiserver4j.admission.Operation;
import io.apiserver4j.admission.SideEffects;
import io.apiserver4j.core.ListValue;
import io.apiserver4j.core.MapValue;
import io.apiserver4j.core.Value;
import io.apiserver4j.registry.internal.Admissions;
import java.util.ArrayList;
import java.util.List;

/**
 * kube-apiserver's {@code TaintNodesByCondition} plugin ({@code plugin/pkg/admission/nodetaint}):
 * a new Node gets the {@code node.kubernetes.io/not-ready:NoSchedule} taint unless it has a taint
 * with that key and effect, so nothing is scheduled there before its controller sees it ready.
 * Side effects: none. Thread-safe.
 */
public final class TaintNodesByCondition implements MutatingPlugin {
  /** The plugin's name in kube-apiserver. */
  public static final String NAME = "TaintNodesByCondition";
  static final String NOT_READY = "node.kubernetes.io/not-ready";

  @Override
  public String name() {
    return NAME;
  }

  @Override
  public SideEffects sideEffects() {
    return SideEffects.NONE;
  }

  @Override
  public boolean handles(AdmissionAttributes a) {
    return Admissions.isMain(a, "", "nodes", Operation.CREATE);
  }

  @Override
  public MapValue admit(AdmissionAttributes a, MapValue node) {
    MapValue spec = node.getOrNull("spec") instanceof MapValue m ? m : MapValue.empty();
    List<MapValue> taints = Admissions.maps(spec, "taints");
    for (MapValue t : taints) {
      if (Admissions.str(t, "key").equals(NOT_READY)
          && Admissions.str(t, "effect").equals("NoSchedule")) {
        return node;
      }
    }
    List<Value> out = new ArrayList<>(taints);
    out.add(MapValue.ofEntries("key", Value.of(NOT_READY), "effect", Value.of("NoSchedule")));
    return node.with("spec", spec.with("taints", ListValue.of(out)));
  }
}
