/*
 * Copyright The apiserver4j authors.
 * SPDX-License-Identifier: Apache-2.0
 */
package io.apiserver4j.registry.core.pod;

import io.apiserver4j.apiserver.ResourceStrategy;
import io.apiserver4j.core.errors.FieldError;
import io.apiserver4j.apiserver.SubresourceUpdate;
import io.apiserver4j.core.errors.FieldError;
import io.apiserver4j.core.ListValue;
import io.apiserver4j.core.MapValue;
import io.apiserver4j.core.Meta;
import io.apiserver4j.core.Nested;
import io.apiserver4j.core.StringValue;
import io.apiserver4j.core.Value;
import io.apiserver4j.fieldpath.FieldName;
import io.apiserver4j.fieldpath.FieldPath;
import io.apiserver4j.fieldpath.FieldSet;
import io.apiserver4j.merge.StructField;
import io.apiserver4j.merge.TypeRef;
import java.math.BigDecimal;
import java.util.ArrayList;
import java.util.HashSet;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import java.util.Set;
import io.apiserver4j.apimachinery.validation.MetaValidation;
import io.apiserver4j.apiserver.BuiltinResources;

/**
 * The pod subresources that write the pod itself, as kube's {@code podEphemeralContainersStrategy}
 * and {@code podResizeStrategy}: everything but the subresource's own fields is kept from the
 * stored pod (spec, status, and the metadata kube's {@code ResetObjectMetaForStatus} keeps), and
 * the change is validated as kube's {@code ValidatePodEphemeralContainersUpdate} and
 * {@code ValidatePodResize} do, for the rules listed on each.
 */
final class PodUpdateSubresources {
  private static final String POD_SPEC = "io.k8s.api.core.v1.PodSpec";
  private static final String MIRROR_POD = "kubernetes.io/config.mirror";
  /** kube's {@code allowedEphemeralContainerFields}. */
  private static final Set<String> EPHEMERAL_FIELDS = Set.of("name", "image", "command", "args",
      "workingDir", "env", "envFrom", "volumeMounts", "volumeDevices", "terminationMessagePath",
      "terminationMessagePolicy", "imagePullPolicy", "securityContext", "stdin", "stdinOnce",
      "tty", "targetContainerName");

  private PodUpdateSubresources() {}

  /** {@code pods/ephemeralcontainers}. */
  static SubresourceUpdate ephemeralContainers() {
    return new SubresourceUpdate((pod, o, now) -> {
      Value ephemeral = Nested.getOrNull(pod, "spec", "ephemeralContainers");
      MapValue spec = Nested.map(o, "spec");
      spec = ephemeral == null ? spec.without("ephemeralContainers")
          : spec.with("ephemeralContainers", ephemeral);
      return keepAllBut(pod, o).with("spec", spec);
    }, PodUpdateSubresources::validateEphemeral, resetExcept("ephemeralContainers"));
  }

  /** {@code pods/resize} (in-place resize, GA in 1.35). */
  static SubresourceUpdate resize() {
    return new SubresourceUpdate((pod, o, now) -> {
      List<Value> containers = Nested.list(pod, "spec", "containers");
      List<Value> inits = Nested.list(pod, "spec", "initContainers");
      if (containers.size() != Nested.list(o, "spec", "containers").size()
          || inits.size() != Nested.list(o, "spec", "initContainers").size()) {
        return pod; // added or removed containers: validation refuses the pod as sent
      }
      MapValue spec = Nested.map(o, "spec");
      spec = withResources(spec, "containers", containers);
      spec = withResources(spec, "initContainers", inits);
      return keepAllBut(pod, o).with("spec", spec);
    }, PodUpdateSubresources::validateResize, resetExcept("containers", "initContainers"));
  }

  /** The stored pod with the new object's metadata less what ResetObjectMetaForStatus keeps. */
  private static MapValue keepAllBut(MapValue pod, MapValue old) {
    MapValue meta = Meta.metadata(pod);
    for (String k : List.of("deletionTimestamp", "generation", "selfLink", "finalizers",
        "ownerReferences", "labels", "annotations")) {
      Value v = Meta.metadata(old).getOrNull(k);
      meta = v == null ? meta.without(k) : meta.with(k, v);
    }
    return old.with("metadata", meta);
  }

  /** kube's {@code dropNonResizeUpdatesForContainers}, by position. */
  private static MapValue withResources(MapValue spec, String field, List<Value> updated) {
    List<Value> old = Nested.list(spec, field);
    if (updated.isEmpty()) {
      return spec;
    }
    ListValue.Builder out = ListValue.builder(old.size());
    for (int i = 0; i < old.size(); i++) {
      if (!Nested.str(old.get(i), "name").equals(Nested.str(updated.get(i), "name"))) {
        // renamed or reordered: validation refuses the containers as sent
        return spec.with(field, ListValue.of(updated));
      }
      MapValue c = (MapValue) old.get(i);
      for (String k : List.of("resources", "resizePolicy")) {
        Value v = Nested.getOrNull(updated.get(i), k);
        c = v == null ? c.without(k) : c.with(k, v);
      }
      out.add(c);
    }
    return spec.with(field, out.build());
  }

  /** Every field of the pod but {@code keep} of its spec, for the field manager to ignore. */
  private static FieldSet resetExcept(String... keep) {
    Set<String> kept = Set.of(keep);
    List<FieldPath> paths = new ArrayList<>();
    paths.add(FieldPath.of(new FieldName("status")));
    BuiltinResources.schema().resolve(TypeRef.named(POD_SPEC)).flatMap(a -> a.map())
        .ifPresent(m -> {
          for (StructField f : m.fields()) {
            if (!kept.contains(f.name())) {
              paths.add(FieldPath.of(new FieldName("spec"), new FieldName(f.name())));
            }
          }
        });
    return FieldSet.of(paths.toArray(FieldPath[]::new));
  }

  // --- ValidatePodEphemeralContainersUpdate ----------------------------------------------------

  private static List<FieldError> validateEphemeral(MapValue pod, Optional<MapValue> oldPod) {
    MapValue old = oldPod.orElseThrow();
    if (Nested.map(old, "metadata", "annotations").containsKey(MIRROR_POD)) {
      return List.of(FieldError.forbidden("", "static pods do not support ephemeral containers"));
    }
    List<FieldError> errs = new ArrayList<>();
    Set<String> names = new HashSet<>();
    Set<String> containers = new HashSet<>();
    for (String list : List.of("containers", "initContainers")) {
      for (Value c : Nested.list(pod, "spec", list)) {
        names.add(Nested.str(c, "name"));
        if (list.equals("containers")) {
          containers.add(Nested.str(c, "name"));
        }
      }
    }
    List<Value> ephemeral = Nested.list(pod, "spec", "ephemeralContainers");
    Map<String, Value> byName = new LinkedHashMap<>();
    for (int i = 0; i < ephemeral.size(); i++) {
      Value c = ephemeral.get(i);
      String at = "spec.ephemeralContainers[" + i + "]";
      String name = Nested.str(c, "name");
      if (name.isEmpty()) {
        errs.add(FieldError.required(at + ".name", ""));
      } else if (!MetaValidation.dns1123Label(name).isEmpty()) {
        for (String e : MetaValidation.dns1123Label(name)) {
          errs.add(FieldError.invalid(at + ".name", Value.of(name), e));
        }
      } else if (!names.add(name)) {
        errs.add(FieldError.duplicate(at + ".name", Value.of(name)));
      }
      byName.put(name, c);
      if (Nested.str(c, "image").isEmpty()) {
        errs.add(FieldError.required(at + ".image", ""));
      }
      if (c instanceof MapValue m) {
        for (int k = 0; k < m.size(); k++) {
          if (!EPHEMERAL_FIELDS.contains(m.keyAt(k)) && !isZero(m.valueAt(k))) {
            errs.add(FieldError.forbidden(at + "." + m.keyAt(k),
                "cannot be set for an Ephemeral Container"));
          }
        }
      }
      String target = Nested.str(c, "targetContainerName");
      if (!target.isEmpty() && !containers.contains(target)) {
        errs.add(FieldError.notFound(at + ".targetContainerName", Value.of(target)));
      }
    }
    // existing ephemeral containers may be neither removed nor changed (patches reorder them)
    for (Value c : Nested.list(old, "spec", "ephemeralContainers")) {
      String name = Nested.str(c, "name");
      Value now = byName.get(name);
      if (now == null) {
        errs.add(FieldError.forbidden("spec.ephemeralContainers",
            "existing ephemeral containers \"" + name + "\" may not be removed\n"));
      } else if (!now.equals(c)) {
        errs.add(FieldError.forbidden("spec.ephemeralContainers[" + name + "]",
            "existing ephemeral containers \"" + name + "\" may not be changed\n"));
      }
    }
    return errs;
  }

  private static boolean isZero(Value v) {
    return v.isNull() || (v instanceof MapValue m && m.isEmpty())
        || (v instanceof ListValue l && l.isEmpty())
        || (v instanceof StringValue s && s.value().isEmpty())
        || Value.of(false).equals(v) || Value.of(0L).equals(v);
  }

  // --- ValidatePodResize -------------------------------------------------------------------

  private static List<FieldError> validateResize(MapValue pod, Optional<MapValue> oldPod) {
    MapValue old = oldPod.orElseThrow();
    if (hasPodLevelResources(old) || hasPodLevelResources(pod)) {
      return List.of(FieldError.forbidden("", "pods with pod-level resources cannot be resized"));
    }
    if (Nested.map(old, "metadata", "annotations").containsKey(MIRROR_POD)) {
      return List.of(FieldError.forbidden("", "static pods cannot be resized"));
    }
    if (Nested.str(old, "spec", "os", "name").equals("windows")) {
      return List.of(FieldError.forbidden("", "windows pods cannot be resized"));
    }
    List<FieldError> errs = new ArrayList<>();
    String oldQos = Nested.str(old, "status", "qosClass");
    if (oldQos.isEmpty()) {
      oldQos = qosClass(old);
    }
    if (!oldQos.equals(qosClass(pod))) {
      // kube shows the stored status.qosClass, which the resized pod keeps
      errs.add(FieldError.invalid("spec", Value.of(oldQos),
          "Pod QOS Class may not change as a result of resizing"));
    }
    if (!nodeSupportsResize(old)) {
      errs.add(FieldError.forbidden("spec", "Pod running on node without support for resize"));
    }
    List<FieldError> ordering = new ArrayList<>();
    for (String list : List.of("containers", "initContainers")) {
      List<Value> now = Nested.list(pod, "spec", list);
      List<Value> before = Nested.list(old, "spec", list);
      if (now.size() != before.size()) {
        ordering.add(FieldError.forbidden("spec." + list,
            "containers may not be added or removed on resize"));
        continue;
      }
      for (int i = 0; i < now.size(); i++) {
        if (!Nested.str(now.get(i), "name").equals(Nested.str(before.get(i), "name"))) {
          ordering.add(FieldError.forbidden("spec." + list + "[" + i + "].name",
              "containers may not be renamed or reordered on resize"));
        }
      }
    }
    errs.addAll(ordering);
    if (!ordering.isEmpty()) {
      return errs;
    }
    List<Value> inits = Nested.list(pod, "spec", "initContainers");
    List<Value> oldInits = Nested.list(old, "spec", "initContainers");
    for (int i = 0; i < oldInits.size(); i++) {
      if (isSidecar(oldInits.get(i))) {
        containerResize(inits.get(i), oldInits.get(i), "spec.initContainers[" + i + "].resources",
            errs);
      }
    }
    List<Value> containers = Nested.list(pod, "spec", "containers");
    List<Value> oldContainers = Nested.list(old, "spec", "containers");
    for (int i = 0; i < oldContainers.size(); i++) {
      containerResize(containers.get(i), oldContainers.get(i),
          "spec.containers[" + i + "].resources", errs);
    }
    for (int i = 0; i < containers.size(); i++) {
      if (!withoutCpuMemoryChanges(containers.get(i), oldContainers.get(i))
          .equals(withoutEmptyResources(oldContainers.get(i)))) {
        errs.add(FieldError.forbidden("spec", "only cpu and memory resources are mutable"));
      }
    }
    for (int i = 0; i < inits.size(); i++) {
      if (isSidecar(inits.get(i))) {
        if (!withoutCpuMemoryChanges(inits.get(i), oldInits.get(i))
            .equals(withoutEmptyResources(oldInits.get(i)))) {
          errs.add(FieldError.forbidden("spec",
              "only cpu and memory resources for sidecar containers are mutable"));
        }
      } else if (!inits.get(i).equals(oldInits.get(i))) {
        errs.add(FieldError.forbidden("spec",
            "resources for non-sidecar init containers are immutable"));
      }
    }
    return errs;
  }

  private static boolean hasPodLevelResources(MapValue pod) {
    return !Nested.map(pod, "spec", "resources", "requests").isEmpty()
        || !Nested.map(pod, "spec", "resources", "limits").isEmpty();
  }

  private static boolean isSidecar(Value container) {
    return Nested.str(container, "restartPolicy").equals("Always");
  }

  // isPodResizeRequestSupported: a running container reports its resources on nodes that resize
  private static boolean nodeSupportsResize(MapValue pod) {
    for (Value status : Nested.list(pod, "status", "containerStatuses")) {
      if (Nested.has(status, "state", "running")) {
        return Nested.has(status, "resources");
      }
    }
    return true;
  }

  /** kube's {@code validateContainerResize}: nothing removed, memory limits only grow. */
  private static void containerResize(Value container, Value old, String path,
      List<FieldError> errs) {
    MapValue res = Nested.map(container, "resources");
    MapValue oldRes = Nested.map(old, "resources");
    for (String kind : List.of("requests", "limits")) {
      MapValue now = Nested.map(res, kind);
      MapValue before = Nested.map(oldRes, kind);
      for (int k = 0; k < before.size(); k++) {
        if (!now.containsKey(before.keyAt(k))) {
          errs.add(FieldError.forbidden(path + "." + kind,
              "resource " + kind + " cannot be removed"));
          break;
        }
      }
    }
    String memoryPolicy = "";
    for (Value p : Nested.list(container, "resizePolicy")) {
      if (Nested.str(p, "resourceName").equals("memory")) {
        memoryPolicy = Nested.str(p, "restartPolicy");
        break;
      }
    }
    if (memoryPolicy.isEmpty() || memoryPolicy.equals("NotRequired")) {
      BigDecimal limit = quantity(Nested.getOrNull(res, "limits", "memory"));
      BigDecimal oldLimit = quantity(Nested.getOrNull(oldRes, "limits", "memory"));
      if (limit != null && oldLimit != null && limit.compareTo(oldLimit) < 0) {
        errs.add(FieldError.forbidden(path + ".limits[memory]",
            "memory limits cannot be decreased unless resizePolicy is RestartContainer"));
      } else if (limit != null && oldLimit == null) {
        errs.add(FieldError.forbidden(path + ".limits[memory]",
            "memory limits cannot be added unless resizePolicy is RestartContainer"));
      }
    }
  }

  // Semantic.DeepEqual: empty and absent lists and maps are equal
  private static Value withoutEmptyResources(Value container) {
    if (!(container instanceof MapValue c) || !(c.getOrNull("resources") instanceof MapValue r)) {
      return container;
    }
    MapValue out = r;
    for (int k = 0; k < r.size(); k++) {
      Value v = r.valueAt(k);
      if (v.isNull() || v instanceof MapValue m && m.isEmpty()
          || v instanceof ListValue l && l.isEmpty()) {
        out = out.without(r.keyAt(k));
      }
    }
    return out.isEmpty() ? c.without("resources") : c.with("resources", out);
  }

  /** kube's {@code dropCPUMemoryResourcesFromContainer}: the old cpu and memory put back. */
  private static Value withoutCpuMemoryChanges(Value container, Value old) {
    if (!(container instanceof MapValue c)) {
      return container;
    }
    MapValue res = MapValue.empty();
    for (String kind : List.of("limits", "requests")) {
      MapValue oldList = Nested.mapOrNull(old, "resources", kind);
      if (oldList == null) {
        continue;
      }
      MapValue.Builder b = MapValue.builder();
      MapValue now = Nested.map(c, "resources", kind);
      for (int k = 0; k < now.size(); k++) {
        if (!now.keyAt(k).equals("cpu") && !now.keyAt(k).equals("memory")) {
          b.put(now.keyAt(k), now.valueAt(k));
        }
      }
      for (String r : List.of("cpu", "memory")) {
        if (oldList.getOrNull(r) != null) {
          b.put(r, oldList.getOrNull(r));
        }
      }
      res = res.with(kind, b.build());
    }
    // the munged requirements are rebuilt from limits and requests only (claims are dropped)
    return withoutEmptyResources(c.with("resources", res));
  }

  /** kube's {@code ComputePodQOS} over the regular and init containers' cpu and memory. */
  static String qosClass(MapValue pod) {
    boolean any = false;
    boolean guaranteed = true;
    List<Value> all = new ArrayList<>(Nested.list(pod, "spec", "containers"));
    all.addAll(Nested.list(pod, "spec", "initContainers"));
    for (Value c : all) {
      MapValue requests = Nested.map(c, "resources", "requests");
      MapValue limits = Nested.map(c, "resources", "limits");
      for (String r : List.of("cpu", "memory")) {
        BigDecimal request = quantity(requests.getOrNull(r));
        BigDecimal limit = quantity(limits.getOrNull(r));
        if (request != null && request.signum() != 0 || limit != null && limit.signum() != 0) {
          any = true;
        }
        if (limit == null || request != null && request.compareTo(limit) != 0) {
          guaranteed = false;
        }
      }
    }
    if (!any) {
      return "BestEffort";
    }
    return guaranteed ? "Guaranteed" : "Burstable";
  }

  /** A resource quantity's value ({@code 100m}, {@code 1Gi}, {@code 1e3}); null if absent. */
  static BigDecimal quantity(Value v) {
    String s = v instanceof StringValue str ? str.value() : v == null ? null : v.toString();
    if (s == null || s.isEmpty()) {
      return null;
    }
    int end = s.length();
    while (end > 0 && Character.isLetter(s.charAt(end - 1))) {
      end--;
    }
    String suffix = s.substring(end);
    String number = s.substring(0, end);
    int e = number.toLowerCase(java.util.Locale.ROOT).indexOf('e');
    try {
      if (suffix.isEmpty() && e < 0 && s.toLowerCase(java.util.Locale.ROOT).contains("e")) {
        return new BigDecimal(s);
      }
      BigDecimal base = new BigDecimal(number);
      return switch (suffix) {
        case "" -> base;
        case "n" -> base.scaleByPowerOfTen(-9);
        case "u" -> base.scaleByPowerOfTen(-6);
        case "m" -> base.scaleByPowerOfTen(-3);
        case "k" -> base.scaleByPowerOfTen(3);
        case "M" -> base.scaleByPowerOfTen(6);
        case "G" -> base.scaleByPowerOfTen(9);
        case "T" -> base.scaleByPowerOfTen(12);
        case "P" -> base.scaleByPowerOfTen(15);
        case "E" -> base.scaleByPowerOfTen(18);
        case "Ki" -> base.multiply(BigDecimal.valueOf(1L << 10));
        case "Mi" -> base.multiply(BigDecimal.valueOf(1L << 20));
        case "Gi" -> base.multiply(BigDecimal.valueOf(1L << 30));
        case "Ti" -> base.multiply(BigDecimal.valueOf(1L << 40));
        case "Pi" -> base.multiply(BigDecimal.valueOf(1L << 50));
        case "Ei" -> base.multiply(BigDecimal.valueOf(1L << 60));
        default -> null;
      };
    } catch (NumberFormatException ex) {
      return null;
    }
  }
}
