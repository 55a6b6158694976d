/*
 * Copyright The apiserver4j authors.
 * SPDX-License-Identifier: Apache-2.0
 */
package io.apiserver4j.registry.core.pod;

import static java.util.Objects.requireNonNull;

import io.apiserver4j.admission.AdmissionAttributes;
import io.apiserver4j.admission.MutatingPlugin;
import io.apiserver4j.admission.Operation;
import io.apiserver4j.admission.SideEffects;
import io.apiserver4j.admission.ValidatingPlugin;
import io.apiserver4j.apimachinery.validation.GroupRules.Quantity;
import io.apiserver4j.apimachinery.validation.KubeValidation;
import io.apiserver4j.apiserver.admission.AdmissionPluginContext;
import io.apiserver4j.core.DecodeException;
import io.apiserver4j.core.GroupResource;
import io.apiserver4j.core.IntegerValue;
import io.apiserver4j.core.Json;
import io.apiserver4j.core.ListValue;
import io.apiserver4j.core.MapValue;
import io.apiserver4j.core.Meta;
import io.apiserver4j.core.Nested;
import io.apiserver4j.core.Value;
import io.apiserver4j.core.errors.Status;
import io.apiserver4j.core.errors.StatusErrors;
import io.apiserver4j.core.errors.StatusException;
import io.apiserver4j.core.errors.StatusReason;
import io.apiserver4j.registry.internal.Admissions;
import io.apiserver4j.storage.ObjectKey;
import java.math.BigDecimal;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;

/**
 * kube-apiserver's {@code PodTolerationRestriction} plugin
 * ({@code plugin/pkg/admission/podtolerationrestriction}, off by default). A created Pod gets its
 * namespace's default tolerations (the JSON list of the
 * {@code scheduler.alpha.kubernetes.io/defaultTolerations} annotation, or the {@code default} of
 * the plugin's configuration when the annotation is absent); a Pod that is not BestEffort gets
 * the {@code node.kubernetes.io/memory-pressure} {@code NoSchedule} toleration; both are merged
 * as kube's {@code MergeTolerations} does (a toleration another one covers is dropped). The Pod's
 * tolerations must then each be covered by the namespace's whitelist (the
 * {@code scheduler.alpha.kubernetes.io/tolerationsWhitelist} annotation, else the configuration's
 * {@code whitelist}); otherwise kube returns a plain error, which kube-apiserver answers as a 500
 * without reason: {@code pod tolerations (possibly merged with namespace default tolerations)
 * conflict with its namespace whitelist}. Side effects: none. Thread-safe.
 */
public final class PodTolerationRestriction implements MutatingPlugin, ValidatingPlugin {
  /** The plugin's name in kube-apiserver. */
  public static final String NAME = "PodTolerationRestriction";
  static final String DEFAULTS = "scheduler.alpha.kubernetes.io/defaultTolerations";
  static final String WHITELIST = "scheduler.alpha.kubernetes.io/tolerationsWhitelist";

  private final AdmissionPluginContext server;
  private final List<MapValue> configDefault;
  private final List<MapValue> configWhitelist;

  /**
   * A plugin reading Namespaces from {@code server} and its configuration from the server's
   * admission configuration file.
   *
   * @param server the server the plugin runs in
   */
  public PodTolerationRestriction(AdmissionPluginContext server) {
    this.server = requireNonNull(server, "server");
    MapValue config = server.configuration(NAME).orElse(MapValue.empty());
    this.configDefault = Admissions.maps(config, "default");
    this.configWhitelist = Admissions.maps(config, "whitelist");
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
    List<MapValue> extra = new ArrayList<>();
    if (a.operation() == Operation.CREATE) {
      List<MapValue> defaults = annotationTolerations(a.namespace(), DEFAULTS);
      extra.addAll(defaults == null ? configDefault : defaults);
    }
    if (!bestEffort(Nested.map(pod, "spec"))) {
      extra.add(MapValue.ofEntries("key", Value.of("node.kubernetes.io/memory-pressure"),
          "operator", Value.of("Exists"), "effect", Value.of("NoSchedule")));
    }
    MapValue out = pod;
    if (!extra.isEmpty()) {
      List<MapValue> merged = merge(Admissions.maps(Nested.map(pod, "spec"), "tolerations"),
          extra);
      out = Nested.set(pod, ListValue.of(merged), "spec", "tolerations");
    }
    check(a, out);
    return out.equals(pod) ? pod : out;
  }

  @Override
  public void validate(AdmissionAttributes a) {
    a.object().ifPresent(pod -> check(a, pod));
  }

  private void check(AdmissionAttributes a, MapValue pod) {
    List<MapValue> tolerations = Admissions.maps(Nested.map(pod, "spec"), "tolerations");
    if (tolerations.isEmpty()) {
      return;
    }
    List<MapValue> whitelist = annotationTolerations(a.namespace(), WHITELIST);
    if (whitelist == null) {
      whitelist = configWhitelist;
    }
    if (!whitelist.isEmpty()) {
      for (MapValue t : tolerations) {
        if (whitelist.stream().noneMatch(w -> isSuperset(w, t))) {
          throw StatusException.of(Status.failure(StatusReason.UNKNOWN, "pod tolerations"
              + " (possibly merged with namespace default tolerations) conflict with its"
              + " namespace whitelist"));
        }
      }
    }
  }

  /**
   * kube's {@code extractNSTolerations}: null when the namespace has no such annotation, an empty
   * list for an empty one, else the JSON list.
   */
  private List<MapValue> annotationTolerations(String namespace, String key) {
    MapValue ns = server.get(ObjectKey.clusterScoped("", "namespaces", namespace)).orElseThrow(
        () -> StatusErrors.notFound(new GroupResource("", "namespaces"), namespace));
    Map<String, String> annotations = Meta.annotations(ns);
    String text = annotations.get(key);
    if (text == null) {
      return null;
    }
    if (text.isEmpty()) {
      return List.of();
    }
    try {
      Value list = Json.read(text);
      if (!(list instanceof ListValue) && !list.isNull()) {
        throw StatusException.of(Status.failure(StatusReason.UNKNOWN, "json: cannot unmarshal "
            + "annotation " + key + " into Go value of type []v1.Toleration"));
      }
      return Admissions.maps(MapValue.ofEntries("l", list), "l");
    } catch (DecodeException e) {
      // the namespace's annotation is the cluster admin's input: kube returns the JSON error
      throw StatusException.of(Status.failure(StatusReason.UNKNOWN, e.getMessage()));
    }
  }

  /** kube's {@code MergeTolerations}: a toleration another one covers is dropped. */
  static List<MapValue> merge(List<MapValue> first, List<MapValue> second) {
    List<MapValue> all = new ArrayList<>(first);
    all.addAll(second);
    List<MapValue> merged = new ArrayList<>();
    next:
    for (int i = 0; i < all.size(); i++) {
      MapValue t = all.get(i);
      for (MapValue m : merged) {
        if (isSuperset(m, t)) {
          continue next;
        }
      }
      for (int j = i + 1; j < all.size(); j++) {
        MapValue t2 = all.get(j);
        // of equal tolerations the first is kept
        if (!t.equals(t2) && isSuperset(t2, t)) {
          continue next;
        }
      }
      merged.add(t);
    }
    return merged;
  }

  /** kube's {@code isSuperset}: whether {@code ss} tolerates all that {@code t} does. */
  static boolean isSuperset(MapValue ss, MapValue t) {
    if (ss.equals(t)) {
      return true;
    }
    String ssKey = Admissions.str(ss, "key");
    String ssOp = Admissions.str(ss, "operator");
    if (!Admissions.str(t, "key").equals(ssKey) && (!ssKey.isEmpty() || !ssOp.equals("Exists"))) {
      return false;
    }
    String ssEffect = Admissions.str(ss, "effect");
    if (!Admissions.str(t, "effect").equals(ssEffect) && !ssEffect.isEmpty()) {
      return false;
    }
    if (ssEffect.equals("NoExecute") && ss.getOrNull("tolerationSeconds") instanceof IntegerValue s
        && !(t.getOrNull("tolerationSeconds") instanceof IntegerValue ts
            && ts.value() <= s.value())) {
      return false;
    }
    return switch (ssOp) {
      case "Equal", "" -> Admissions.str(t, "operator").equals("Equal")
          && Admissions.str(t, "value").equals(Admissions.str(ss, "value"));
      case "Exists" -> true;
      default -> false;
    };
  }

  /**
   * kube's {@code ComputePodQOS} is BestEffort: no positive CPU or memory request or limit, at
   * pod level when the Pod sets pod-level resources, else in any container.
   */
  static boolean bestEffort(MapValue spec) {
    MapValue requests = Nested.mapOrNull(spec, "resources", "requests");
    MapValue limits = Nested.mapOrNull(spec, "resources", "limits");
    if (hasCpuOrMemory(requests) || hasCpuOrMemory(limits)) {
      return !hasPositive(requests) && !hasPositive(limits);
    }
    for (String list : List.of("initContainers", "containers")) {
      for (Value c : Nested.list(spec, list)) {
        if (hasPositive(Nested.mapOrNull(c, "resources", "requests"))
            || hasPositive(Nested.mapOrNull(c, "resources", "limits"))) {
          return false;
        }
      }
    }
    return true;
  }

  private static boolean hasCpuOrMemory(MapValue resources) {
    return resources != null
        && (resources.containsKey("cpu") || resources.containsKey("memory"));
  }

  private static boolean hasPositive(MapValue resources) {
    if (resources == null) {
      return false;
    }
    for (int i = 0; i < resources.size(); i++) {
      String name = resources.keyAt(i);
      if (!name.equals("cpu") && !name.equals("memory")) {
        continue;
      }
      BigDecimal v = Quantity.parse(KubeValidation.quantityString(resources.valueAt(i)))
          .map(Quantity::value).orElse(BigDecimal.ZERO);
      if (v.signum() > 0) {
        return true;
      }
    }
    return false;
  }
}
