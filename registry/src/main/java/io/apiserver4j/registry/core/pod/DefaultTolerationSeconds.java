/*
 * Copyright The apiserver4j authors.
 * SPDX-License-Identifier: Apache-2.0
 */
package io.apiserver4j.registry.core.pod;

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
 * kube-apiserver's {@code DefaultTolerationSeconds} plugin
 * ({@code plugin/pkg/admission/defaulttolerationseconds}): a Pod that does not already tolerate
 * the {@code node.kubernetes.io/not-ready} or {@code node.kubernetes.io/unreachable}
 * {@code NoExecute} taint (a toleration with that key or no key, and effect {@code NoExecute}
 * or none) gets a toleration of it for 300 seconds (kube-apiserver's
 * {@code --default-not-ready-toleration-seconds} and
 * {@code --default-unreachable-toleration-seconds}), on create and update of the Pod itself.
 * Side effects: none. Thread-safe.
 */
public final class DefaultTolerationSeconds implements MutatingPlugin {
  /** The plugin's name in kube-apiserver. */
  public static final String NAME = "DefaultTolerationSeconds";
  /** kube's default for both flags. */
  public static final long DEFAULT_SECONDS = 300;
  static final String NOT_READY = "node.kubernetes.io/not-ready";
  static final String UNREACHABLE = "node.kubernetes.io/unreachable";

  private final long notReadySeconds;
  private final long unreachableSeconds;

  /** With kube's defaults, 300 s for both. */
  public DefaultTolerationSeconds() {
    this(DEFAULT_SECONDS, DEFAULT_SECONDS);
  }

  /**
   * With other durations.
   *
   * @param notReadySeconds the not-ready toleration's seconds
   * @param unreachableSeconds the unreachable toleration's seconds
   */
  public DefaultTolerationSeconds(long notReadySeconds, long unreachableSeconds) {
    this.notReadySeconds = notReadySeconds;
    this.unreachableSeconds = unreachableSeconds;
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
    return Admissions.isMain(a, "", "pods", Operation.CREATE, Operation.UPDATE);
  }

  @Override
  public MapValue admit(AdmissionAttributes a, MapValue pod) {
    MapValue spec = pod.getOrNull("spec") instanceof MapValue m ? m : MapValue.empty();
    List<MapValue> tolerations = Admissions.maps(spec, "tolerations");
    boolean notReady = false;
    boolean unreachable = false;
    for (MapValue t : tolerations) {
      String key = Admissions.str(t, "key");
      String effect = Admissions.str(t, "effect");
      boolean noExecute = effect.isEmpty() || effect.equals("NoExecute");
      notReady |= (key.isEmpty() || key.equals(NOT_READY)) && noExecute;
      unreachable |= (key.isEmpty() || key.equals(UNREACHABLE)) && noExecute;
    }
    if (notReady && unreachable) {
      return pod;
    }
    List<Value> out = new ArrayList<>(tolerations);
    if (!notReady) {
      out.add(toleration(NOT_READY, notReadySeconds));
    }
    if (!unreachable) {
      out.add(toleration(UNREACHABLE, unreachableSeconds));
    }
    return pod.with("spec", spec.with("tolerations", ListValue.of(out)));
  }

  private static MapValue toleration(String key, long seconds) {
    return MapValue.ofEntries("key", Value.of(key), "operator", Value.of("Exists"),
        "effect", Value.of("NoExecute"), "tolerationSeconds", Value.of(seconds));
  }
}
