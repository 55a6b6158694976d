/*
 * Copyright The apiserver4j authors.
 * SPDX-License-Identifier: Apache-2.0
 */
package io.apiserver4j.registry.core.limitrange;

import static java.util.Objects.requireNonNull;

import io.apiserver4j.admission.AdmissionAttributes;
import io.apiserver4j.admission.AdmissionErrors;
import io.apiserver4j.admission.MutatingPlugin;
import io.apiserver4j.admission.Operation;
import io.apiserver4j.admission.SideEffects;
import io.apiserver4j.admission.ValidatingPlugin;
import io.apiserver4j.apimachinery.decoding.GoParsing;
import io.apiserver4j.apimachinery.validation.KubeValidation;
import io.apiserver4j.apiserver.admission.AdmissionPluginContext;
import io.apiserver4j.core.ListValue;
import io.apiserver4j.core.MapValue;
import io.apiserver4j.core.Meta;
import io.apiserver4j.core.Nested;
import io.apiserver4j.core.StringValue;
import io.apiserver4j.core.Value;
import io.apiserver4j.registry.internal.Admissions;
import io.apiserver4j.storage.CollectionKey;
import java.math.BigDecimal;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.TreeMap;

/**
 * kube-apiserver's {@code LimitRanger} plugin ({@code plugin/pkg/admission/limitranger}) over the
 * LimitRanges of the request's namespace, for Pods (create) and PersistentVolumeClaims (create,
 * update):
 *
 * <ul>
 *   <li>mutating: every container (and init container) of a created Pod gets the
 *       {@code defaultRequest} and {@code default} (limit) of each {@code Container} limit it does
 *       not set, and the Pod the annotation {@code kubernetes.io/limit-ranger: LimitRanger plugin
 *       set: cpu request for container app; ...} naming what was set;
 *   <li>validating: {@code min}, {@code max} and {@code maxLimitRequestRatio} of {@code Container}
 *       limits per container, of {@code Pod} limits on the Pod's total, and {@code min} and
 *       {@code max} of {@code PersistentVolumeClaim} limits on the claim's request; a breach is
 *       403 with kube's message ({@code minimum cpu usage per Container is 100m, but request is
 *       50m}; several joined as {@code [a, b]}).
 * </ul>
 *
 * <p>Side effects: none. Thread-safe.
 */
public final class LimitRanger implements MutatingPlugin, ValidatingPlugin {
  /** The plugin's name in kube-apiserver. */
  public static final String NAME = "LimitRanger";
  static final String ANNOTATION = "kubernetes.io/limit-ranger";

  private final AdmissionPluginContext server;

  /**
   * A plugin reading LimitRanges from {@code server}.
   *
   * @param server the server the plugin runs in
   */
  public LimitRanger(AdmissionPluginContext server) {
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
    if (!a.object().isPresent() || a.namespace().isEmpty()) {
      return false;
    }
    // objects being deleted are left alone, as kube
    if (a.oldObject().map(o -> Meta.hasMeta(o, "deletionTimestamp")).orElse(false)) {
      return false;
    }
    return Admissions.isMain(a, "", "pods", Operation.CREATE)
        || Admissions.isMain(a, "", "persistentvolumeclaims", Operation.CREATE,
            Operation.UPDATE);
  }

  private List<MapValue> limitRanges(String namespace) {
    return server.list(CollectionKey.inNamespace("", "limitranges", namespace));
  }

  @Override
  public MapValue admit(AdmissionAttributes a, MapValue object) {
    if (!a.resource().resource().equals("pods")) {
      return object;
    }
    MapValue pod = object;
    for (MapValue lr : limitRanges(a.namespace())) {
      pod = applyDefaults(pod, lr);
    }
    return pod.equals(object) ? object : pod;
  }

  /** kube's {@code defaultContainerResourceRequirements} + {@code mergePodResourceRequirements}. */
  static MapValue applyDefaults(MapValue pod, MapValue limitRange) {
    Map<String, Value> requests = new TreeMap<>();
    Map<String, Value> limits = new TreeMap<>();
    for (MapValue limit : Admissions.maps(Nested.map(limitRange, "spec"), "limits")) {
      if (Admissions.str(limit, "type").equals("Container")) {
        Nested.map(limit, "defaultRequest").forEach(requests::put);
        Nested.map(limit, "default").forEach(limits::put);
      }
    }
    if (requests.isEmpty() && limits.isEmpty()) {
      return pod;
    }
    MapValue spec = Nested.map(pod, "spec");
    List<String> annotations = new ArrayList<>();
    spec = mergeContainers(spec, "containers", "container", requests, limits, annotations);
    spec = mergeContainers(spec, "initContainers", "init container", requests, limits,
        annotations);
    MapValue out = pod.with("spec", spec);
    if (!annotations.isEmpty()) {
      MapValue ann = Nested.map(pod, "metadata", "annotations")
          .with(ANNOTATION, Value.of("LimitRanger plugin set: " + String.join("; ", annotations)));
      out = Nested.set(out, ann, "metadata", "annotations");
    }
    return out;
  }

  private static MapValue mergeContainers(MapValue spec, String key, String prefix,
      Map<String, Value> requests, Map<String, Value> limits, List<String> annotations) {
    if (!(spec.getOrNull(key) instanceof ListValue containers)) {
      return spec;
    }
    List<Value> out = new ArrayList<>();
    for (Value v : containers.items()) {
      if (!(v instanceof MapValue c)) {
        out.add(v);
        continue;
      }
      MapValue resources = Nested.map(c, "resources");
      MapValue l = Nested.map(resources, "limits");
      MapValue r = Nested.map(resources, "requests");
      List<String> setLimits = new ArrayList<>();
      List<String> setRequests = new ArrayList<>();
      for (Map.Entry<String, Value> e : limits.entrySet()) {
        if (!l.containsKey(e.getKey())) {
          l = l.with(e.getKey(), e.getValue());
          setLimits.add(e.getKey());
        }
      }
      for (Map.Entry<String, Value> e : requests.entrySet()) {
        if (!r.containsKey(e.getKey())) {
          r = r.with(e.getKey(), e.getValue());
          setRequests.add(e.getKey());
        }
      }
      String name = Admissions.str(c, "name");
      if (!setRequests.isEmpty()) {
        annotations.add(String.join(", ", setRequests) + " request for " + prefix + " " + name);
      }
      if (!setLimits.isEmpty()) {
        annotations.add(String.join(", ", setLimits) + " limit for " + prefix + " " + name);
      }
      if (!setLimits.isEmpty() || !setRequests.isEmpty()) {
        if (!l.isEmpty()) {
          resources = resources.with("limits", l);
        }
        if (!r.isEmpty()) {
          resources = resources.with("requests", r);
        }
        c = c.with("resources", resources);
      }
      out.add(c);
    }
    return spec.with(key, ListValue.of(out));
  }

  @Override
  public void validate(AdmissionAttributes a) {
    MapValue object = a.object().orElseThrow();
    List<String> errors = new ArrayList<>();
    boolean pod = a.resource().resource().equals("pods");
    for (MapValue lr : limitRanges(a.namespace())) {
      if (pod) {
        validatePod(lr, object, errors);
      } else {
        validateClaim(lr, object, errors);
      }
    }
    if (!errors.isEmpty()) {
      throw AdmissionErrors.forbidden(a, errors.size() == 1 ? errors.get(0)
          : "[" + String.join(", ", errors) + "]");
    }
  }

  static void validatePod(MapValue limitRange, MapValue pod, List<String> errors) {
    MapValue spec = Nested.map(pod, "spec");
    for (MapValue limit : Admissions.maps(Nested.map(limitRange, "spec"), "limits")) {
      String type = Admissions.str(limit, "type");
      if (type.equals("Container")) {
        for (String key : List.of("containers", "initContainers")) {
          for (MapValue c : Admissions.maps(spec, key)) {
            check(type, limit, Nested.map(c, "resources", "requests"),
                Nested.map(c, "resources", "limits"), errors);
          }
        }
      } else if (type.equals("Pod")) {
        check(type, limit, podTotal(spec, "requests"), podTotal(spec, "limits"), errors);
      }
    }
  }

  static void validateClaim(MapValue limitRange, MapValue pvc, List<String> errors) {
    MapValue requests = Nested.map(pvc, "spec", "resources", "requests");
    for (MapValue limit : Admissions.maps(Nested.map(limitRange, "spec"), "limits")) {
      String type = Admissions.str(limit, "type");
      if (!type.equals("PersistentVolumeClaim")) {
        continue;
      }
      for (Map.Entry<String, Value> e : sorted(Nested.map(limit, "min")).entrySet()) {
        min(type, e.getKey(), text(e.getValue()), requests, MapValue.empty(), errors);
      }
      for (Map.Entry<String, Value> e : sorted(Nested.map(limit, "max")).entrySet()) {
        String name = e.getKey();
        String enforced = text(e.getValue());
        if (!requests.containsKey(name)) {
          errors.add("maximum " + name + " usage per " + type + " is " + canonical(enforced)
              + ".  No request is specified");
        } else if (value(requests.getOrNull(name)).compareTo(value(e.getValue())) > 0) {
          errors.add("maximum " + name + " usage per " + type + " is " + canonical(enforced)
              + ", but request is " + canonical(text(requests.getOrNull(name))));
        }
      }
    }
  }

  private static void check(String type, MapValue limit, MapValue requests, MapValue limits,
      List<String> errors) {
    for (Map.Entry<String, Value> e : sorted(Nested.map(limit, "min")).entrySet()) {
      min(type, e.getKey(), text(e.getValue()), requests, limits, errors);
    }
    for (Map.Entry<String, Value> e : sorted(Nested.map(limit, "max")).entrySet()) {
      String name = e.getKey();
      String enforced = text(e.getValue());
      BigDecimal max = value(e.getValue());
      if (!limits.containsKey(name)) {
        errors.add("maximum " + name + " usage per " + type + " is " + canonical(enforced)
            + ".  No limit is specified");
      } else if (value(limits.getOrNull(name)).compareTo(max) > 0) {
        errors.add("maximum " + name + " usage per " + type + " is " + canonical(enforced)
            + ", but limit is " + canonical(text(limits.getOrNull(name))));
      } else if (requests.containsKey(name)
          && value(requests.getOrNull(name)).compareTo(max) > 0) {
        errors.add("maximum " + name + " usage per " + type + " is " + canonical(enforced)
            + ", but request is " + canonical(text(requests.getOrNull(name))));
      }
    }
    for (Map.Entry<String, Value> e : sorted(Nested.map(limit, "maxLimitRequestRatio"))
        .entrySet()) {
      String name = e.getKey();
      String enforced = canonical(text(e.getValue()));
      BigDecimal req = requests.containsKey(name) ? value(requests.getOrNull(name)) : null;
      BigDecimal lim = limits.containsKey(name) ? value(limits.getOrNull(name)) : null;
      if (req == null || req.signum() == 0) {
        errors.add(name + " max limit to request ratio per " + type + " is " + enforced
            + ", but no request is specified or request is 0");
      } else if (lim == null || lim.signum() == 0) {
        errors.add(name + " max limit to request ratio per " + type + " is " + enforced
            + ", but no limit is specified or limit is 0");
      } else {
        double ratio = lim.doubleValue() / req.doubleValue();
        if (lim.divide(req, java.math.MathContext.DECIMAL64).compareTo(value(e.getValue())) > 0) {
          errors.add(name + " max limit to request ratio per " + type + " is " + enforced
              + ", but provided ratio is " + String.format(java.util.Locale.ROOT, "%f", ratio));
        }
      }
    }
  }

  private static void min(String type, String name, String enforced, MapValue requests,
      MapValue limits, List<String> errors) {
    BigDecimal min = value(Value.of(enforced));
    if (!requests.containsKey(name)) {
      errors.add("minimum " + name + " usage per " + type + " is " + canonical(enforced)
          + ".  No request is specified");
    } else if (value(requests.getOrNull(name)).compareTo(min) < 0) {
      errors.add("minimum " + name + " usage per " + type + " is " + canonical(enforced)
          + ", but request is " + canonical(text(requests.getOrNull(name))));
    } else if (limits.containsKey(name) && value(limits.getOrNull(name)).compareTo(min) < 0) {
      errors.add("minimum " + name + " usage per " + type + " is " + canonical(enforced)
          + ", but limit is " + canonical(text(limits.getOrNull(name))));
    }
  }

  /**
   * The Pod's effective total of {@code kind} (requests or limits), as kube's
   * {@code PodRequests}/{@code PodLimits}: app and sidecar containers add up, each plain init
   * container raises the total to its own value, the overhead adds.
   */
  static MapValue podTotal(MapValue spec, String kind) {
    Map<String, BigDecimal> sum = new TreeMap<>();
    for (MapValue c : Admissions.maps(spec, "containers")) {
      add(sum, Nested.map(c, "resources", kind));
    }
    Map<String, BigDecimal> sidecars = new TreeMap<>();
    for (MapValue c : Admissions.maps(spec, "initContainers")) {
      MapValue r = Nested.map(c, "resources", kind);
      if (Admissions.str(c, "restartPolicy").equals("Always")) {
        add(sum, r);
        add(sidecars, r);
        continue;
      }
      // a plain init container runs alone beside the sidecars started before it
      Map<String, BigDecimal> init = new TreeMap<>(sidecars);
      add(init, r);
      init.forEach((k, v) -> sum.merge(k, v, BigDecimal::max));
    }
    add(sum, Nested.map(spec, "overhead"));
    MapValue.Builder b = MapValue.builder();
    sum.forEach((k, v) -> b.put(k, Value.of(v.stripTrailingZeros().toPlainString())));
    return b.build();
  }

  private static void add(Map<String, BigDecimal> into, MapValue resources) {
    resources.forEach((k, v) -> into.merge(k, value(v), BigDecimal::add));
  }

  private static Map<String, Value> sorted(MapValue m) {
    Map<String, Value> out = new TreeMap<>();
    m.forEach(out::put);
    return out;
  }

  private static String text(Value v) {
    return v instanceof StringValue s ? s.value() : String.valueOf(v);
  }

  private static BigDecimal value(Value v) {
    return v == null ? BigDecimal.ZERO
        : KubeValidation.quantity(text(v)).orElse(BigDecimal.ZERO);
  }

  private static String canonical(String quantity) {
    try {
      return GoParsing.canonicalQuantity(quantity);
    } catch (RuntimeException e) {
      return quantity;
    }
  }
}
