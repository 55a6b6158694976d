/*
 * Copyright The apiserver4j authors.
 * SPDX-License-Identifier: Apache-2.0
 */
package io.apiserver4j.registry.node.runtimeclass;

import static java.util.Objects.requireNonNull;

import io.apiserver4j.admission.AdmissionAttributes;
import io.apiserver4j.admission.AdmissionErrors;
import io.apiserver4j.admission.MutatingPlugin;
import io.apiserver4j.admission.Operation;
import io.apiserver4j.admission.SideEffects;
import io.apiserver4j.admission.ValidatingPlugin;
import io.apiserver4j.apiserver.admission.AdmissionPluginContext;
import io.apiserver4j.core.ListValue;
import io.apiserver4j.core.MapValue;
import io.apiserver4j.core.Nested;
import io.apiserver4j.core.StringValue;
import io.apiserver4j.core.Value;
import io.apiserver4j.registry.internal.Admissions;
import io.apiserver4j.storage.ObjectKey;
import java.util.ArrayList;
import java.util.List;
import java.util.Optional;

/**
 * kube-apiserver's {@code RuntimeClass} plugin ({@code plugin/pkg/admission/runtimeclass}), on
 * Pod creates that name a {@code runtimeClassName}: 403 {@code pod rejected: RuntimeClass "<n>"
 * not found} when it does not exist; the class's {@code overhead.podFixed} becomes the Pod's
 * {@code spec.overhead} (403 when the Pod brings another one, or one without the class defining
 * any); the class's {@code scheduling.nodeSelector} is merged into the Pod's (403 {@code
 * conflict: ...} on a clash) and its tolerations added. Side effects: none. Thread-safe.
 */
public final class RuntimeClassAdmission implements MutatingPlugin, ValidatingPlugin {
  /** The plugin's name in kube-apiserver. */
  public static final String NAME = "RuntimeClass";

  private final AdmissionPluginContext server;

  /**
   * A plugin reading RuntimeClasses from {@code server}.
   *
   * @param server the server the plugin runs in
   */
  public RuntimeClassAdmission(AdmissionPluginContext server) {
    this.server = requireNonNull(server, "server");
  }

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
    return Admissions.isMain(a, "", "pods", Operation.CREATE);
  }

  private Optional<MapValue> runtimeClass(AdmissionAttributes a, MapValue spec) {
    String name = Admissions.str(spec, "runtimeClassName");
    if (name.isEmpty()) {
      return Optional.empty();
    }
    return Optional.of(server.get(ObjectKey.clusterScoped("node.k8s.io", "runtimeclasses", name))
        .orElseThrow(() -> AdmissionErrors.forbidden(a, "pod rejected: RuntimeClass \"" + name
            + "\" not found")));
  }

  @Override
  public MapValue admit(AdmissionAttributes a, MapValue pod) {
    MapValue spec = pod.getOrNull("spec") instanceof MapValue m ? m : MapValue.empty();
    Optional<MapValue> rc = runtimeClass(a, spec);
    if (rc.isEmpty()) {
      return pod;
    }
    MapValue overhead = Nested.mapOrNull(rc.get(), "overhead", "podFixed");
    if (overhead != null) {
      checkOverhead(a, spec, overhead);
      spec = spec.with("overhead", overhead);
    }
    MapValue scheduling = Nested.mapOrNull(rc.get(), "scheduling");
    if (scheduling != null) {
      spec = schedule(a, spec, scheduling);
    }
    MapValue out = pod.with("spec", spec);
    return out.equals(pod) ? pod : out;
  }

  @Override
  public void validate(AdmissionAttributes a) {
    MapValue spec = Nested.map(a.object().orElseThrow(), "spec");
    Optional<MapValue> rc = runtimeClass(a, spec);
    MapValue overhead = rc.map(c -> Nested.mapOrNull(c, "overhead", "podFixed")).orElse(null);
    if (overhead != null) {
      checkOverhead(a, spec, overhead);
    } else if (spec.getOrNull("overhead") instanceof MapValue) {
      throw AdmissionErrors.forbidden(a,
          "pod rejected: Pod Overhead set without corresponding RuntimeClass defined Overhead");
    }
  }

  private static void checkOverhead(AdmissionAttributes a, MapValue spec, MapValue overhead) {
    if (spec.getOrNull("overhead") instanceof MapValue given && !given.equals(overhead)) {
      throw AdmissionErrors.forbidden(a,
          "pod rejected: Pod's Overhead doesn't match RuntimeClass's defined Overhead");
    }
  }

  private static MapValue schedule(AdmissionAttributes a, MapValue spec, MapValue scheduling) {
    MapValue selector = Nested.mapOrNull(scheduling, "nodeSelector");
    if (selector != null && !selector.isEmpty()) {
      MapValue merged = spec.getOrNull("nodeSelector") instanceof MapValue m ? m
          : MapValue.empty();
      for (int i = 0; i < selector.size(); i++) {
        String key = selector.keyAt(i);
        Value rcValue = selector.valueAt(i);
        Value podValue = merged.getOrNull(key);
        if (podValue != null && !podValue.equals(rcValue)) {
          throw AdmissionErrors.forbidden(a, "conflict: runtimeClass.scheduling.nodeSelector["
              + key + "] = " + text(rcValue) + "; pod.spec.nodeSelector[" + key + "] = "
              + text(podValue));
        }
        merged = merged.with(key, rcValue);
      }
      spec = spec.with("nodeSelector", merged);
    }
    List<MapValue> extra = Admissions.maps(scheduling, "tolerations");
    if (!extra.isEmpty()) {
      List<Value> tolerations = new ArrayList<>(Admissions.maps(spec, "tolerations"));
      for (MapValue t : extra) {
        if (!tolerations.contains(t)) {
          tolerations.add(t);
        }
      }
      spec = spec.with("tolerations", ListValue.of(tolerations));
    }
    return spec;
  }

  private static String text(Value v) {
    return v instanceof StringValue s ? s.value() : String.valueOf(v);
  }
}
