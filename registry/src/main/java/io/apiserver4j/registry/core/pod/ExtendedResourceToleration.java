/*
 * Copyright The apiserver4j authors.
 * SPDX-License-Identifier: Apache-2.0
 */
package io.apiserver4j.registry.core.pod;

import io.apiserver4j.admission.AdmissionAttributes;
import io.apiserver4j.admission.MutatingPlugin;
import io.apiserver4j.admission.Operation;
import io.apiserver4j.admission.SideEffects;
import io.apiserver4j.apimachinery.validation.MetaValidation;
import io.apiserver4j.core.ListValue;
import io.apiserver4j.core.MapValue;
import io.apiserver4j.core.Nested;
import io.apiserver4j.core.Value;
import io.apiserver4j.registry.internal.Admissions;
import java.util.ArrayList;
import java.util.List;
import java.util.Set;
import java.util.TreeSet;

/**
 * kube-apiserver's {@code ExtendedResourceToleration} plugin
 * ({@code plugin/pkg/admission/extendedresourcetoleration}, off by default): for every extended
 * resource (a domain-prefixed name outside {@code kubernetes.io}, e.g. {@code example.com/gpu})
 * requested by a container or init container of a created or updated Pod, in name order, the Pod
 * gets the toleration {@code {key: <resource>, operator: Exists, effect: NoSchedule}} as kube's
 * {@code AddOrUpdateTolerationInPod} adds it: a toleration with the same key, operator, value and
 * effect is replaced, else it is appended. Side effects: none. Thread-safe.
 */
public final class ExtendedResourceToleration implements MutatingPlugin {
  /** The plugin's name in kube-apiserver. */
  public static final String NAME = "ExtendedResourceToleration";

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
    return Admissions.isMain(a, "", "pods", Operation.CREATE, Operation.UPDATE);
  }

  @Override
  public MapValue admit(AdmissionAttributes a, MapValue pod) {
    Set<String> resources = new TreeSet<>();
    for (String list : List.of("containers", "initContainers")) {
      for (Value c : Nested.list(pod, "spec", list)) {
        MapValue requests = Nested.mapOrNull(c, "resources", "requests");
        if (requests != null) {
          for (int i = 0; i < requests.size(); i++) {
            if (isExtended(requests.keyAt(i))) {
              resources.add(requests.keyAt(i));
            }
          }
        }
      }
    }
    if (resources.isEmpty()) {
      return pod;
    }
    MapValue spec = Nested.map(pod, "spec");
    List<MapValue> tolerations = Admissions.maps(spec, "tolerations");
    for (String resource : resources) {
      tolerations = addOrUpdate(tolerations, MapValue.ofEntries("key", Value.of(resource),
          "operator", Value.of("Exists"), "effect", Value.of("NoSchedule")));
    }
    MapValue out = pod.with("spec", spec.with("tolerations", ListValue.of(tolerations)));
    return out.equals(pod) ? pod : out;
  }

  /** kube's {@code AddOrUpdateTolerationInPod}. */
  static List<MapValue> addOrUpdate(List<MapValue> tolerations, MapValue toleration) {
    List<MapValue> out = new ArrayList<>();
    boolean updated = false;
    for (MapValue t : tolerations) {
      if (matches(toleration, t)) {
        if (t.equals(toleration)) {
          return tolerations;
        }
        out.add(toleration);
        updated = true;
      } else {
        out.add(t);
      }
    }
    if (!updated) {
      out.add(toleration);
    }
    return out;
  }

  /** kube's {@code Toleration.MatchToleration}: same key, effect, operator and value. */
  private static boolean matches(MapValue a, MapValue b) {
    for (String f : List.of("key", "effect", "operator", "value")) {
      if (!Admissions.str(a, f).equals(Admissions.str(b, f))) {
        return false;
      }
    }
    return true;
  }

  /** kube's {@code IsExtendedResourceName}. */
  static boolean isExtended(String name) {
    boolean nativeName = !name.contains("/") || name.contains("kubernetes.io/");
    if (nativeName || name.startsWith("requests.")) {
      return false;
    }
    return MetaValidation.qualifiedName("requests." + name).isEmpty();
  }
}
