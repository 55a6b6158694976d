/*
 * Copyright The apiserver4j authors.
 * SPDX-License-Identifier: Apache-2.0
 */
package io.apiserver4j.registry.internal;

import static io.apiserver4j.apimachinery.validation.GroupRules.immutable;
import static io.apiserver4j.apimachinery.validation.GroupRules.maps;
import static io.apiserver4j.apimachinery.validation.GroupRules.present;
import static io.apiserver4j.apimachinery.validation.GroupRules.str;
import static io.apiserver4j.apimachinery.validation.GroupRules.strings;

import io.apiserver4j.apiserver.strategy.GenerationPolicy;
import io.apiserver4j.apiserver.ResourceStrategy;
import io.apiserver4j.core.FieldError;
import io.apiserver4j.core.GoStrings;
import io.apiserver4j.core.GroupVersionKind;
import io.apiserver4j.core.MapValue;
import io.apiserver4j.core.Nested;
import io.apiserver4j.core.StringValue;
import io.apiserver4j.core.Value;
import java.nio.charset.StandardCharsets;
import java.util.ArrayList;
import java.util.HashSet;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Locale;
import java.util.Map;
import java.util.Objects;
import java.util.Optional;
import java.util.Set;
import io.apiserver4j.apimachinery.validation.MetaValidation;
import io.apiserver4j.apimachinery.validation.GroupRules;

/**
 * storage.k8s.io/v1: StorageClass, CSIDriver, CSINode, VolumeAttachment and
 * VolumeAttributesClass, with kube's pkg/apis/storage/v1/defaults.go and the rules of
 * pkg/apis/storage/validation/validation.go.
 */
final class StorageStrategies {
  private StorageStrategies() {}

  private static final int MAX_PARAMETERS = 512;
  private static final int MAX_PARAMETER_BYTES = 256 * 1024;

  static Map<GroupVersionKind, ResourceStrategy> strategies() {
    Map<GroupVersionKind, ResourceStrategy> out = new LinkedHashMap<>();
    out.put(storage("StorageClass"), ResourceStrategy.builder()
        .defaulter(o -> Nested.setDefault(Nested.setDefault(o, Value.of("Delete"),
            "reclaimPolicy"), Value.of("Immediate"), "volumeBindingMode"))
        .validator(StorageStrategies::validateStorageClass)
        .build());
    out.put(storage("CSIDriver"), ResourceStrategy.builder()
        .generationPolicy(GenerationPolicy.SPEC)
        .defaulter(StorageStrategies::defaultCsiDriver)
        .validator(StorageStrategies::validateCsiDriver)
        .build());
    out.put(storage("CSINode"), ResourceStrategy.builder()
        .validator(StorageStrategies::validateCsiNode)
        .build());
    out.put(storage("VolumeAttachment"), ResourceStrategy.builder()
        .validator(StorageStrategies::validateVolumeAttachment)
        .build());
    out.put(storage("VolumeAttributesClass"), ResourceStrategy.builder()
        .validator(StorageStrategies::validateVolumeAttributesClass)
        .build());
    return out;
  }

  private static GroupVersionKind storage(String kind) {
    return new GroupVersionKind("storage.k8s.io", "v1", kind);
  }

  private static void provisioner(List<FieldError> errs, String path, String provisioner) {
    if (provisioner.isEmpty()) {
      errs.add(FieldError.required(path, ""));
    } else {
      String lower = provisioner.toLowerCase(Locale.ROOT);
      for (String msg : MetaValidation.qualifiedName(lower)) {
        errs.add(FieldError.invalid(path, Value.of(lower), msg));
      }
    }
  }

  private static void parameters(List<FieldError> errs, MapValue params, boolean allowEmpty) {
    if (params.size() > MAX_PARAMETERS) {
      errs.add(FieldError.tooLong("parameters", MAX_PARAMETERS));
      return;
    }
    long total = 0;
    for (int i = 0; i < params.size(); i++) {
      String k = params.keyAt(i);
      if (k.isEmpty()) {
        errs.add(FieldError.invalid("parameters", Value.of(k), "field can not be empty."));
      }
      String v = params.valueAt(i) instanceof StringValue s ? s.value() : "";
      total += k.getBytes(StandardCharsets.UTF_8).length
          + v.getBytes(StandardCharsets.UTF_8).length;
    }
    if (total > MAX_PARAMETER_BYTES) {
      errs.add(FieldError.tooLong("parameters", MAX_PARAMETER_BYTES));
    }
    if (!allowEmpty && params.isEmpty()) {
      errs.add(FieldError.required("parameters", "must contain at least one key/value pair"));
    }
  }

  static List<FieldError> validateStorageClass(MapValue o, Optional<MapValue> old) {
    List<FieldError> errs = new ArrayList<>();
    provisioner(errs, "provisioner", str(o, "provisioner"));
    parameters(errs, Nested.map(o, "parameters"), true);
    String policy = str(o, "reclaimPolicy");
    if (!policy.isEmpty() && !List.of("Delete", "Retain").contains(policy)) {
      errs.add(FieldError.notSupported("reclaimPolicy", Value.of(policy),
          List.of("Delete", "Retain")));
    }
    if (!present(o, "volumeBindingMode")) {
      errs.add(FieldError.required("volumeBindingMode", ""));
    } else if (!List.of("Immediate", "WaitForFirstConsumer")
        .contains(str(o, "volumeBindingMode"))) {
      errs.add(FieldError.notSupported("volumeBindingMode",
          Value.of(str(o, "volumeBindingMode")), List.of("Immediate", "WaitForFirstConsumer")));
    }
    if (old.isPresent()) {
      MapValue was = old.get();
      if (!Nested.map(o, "parameters").equals(Nested.map(was, "parameters"))) {
        errs.add(FieldError.forbidden("parameters", "updates to parameters are forbidden."));
      }
      if (!str(o, "provisioner").equals(str(was, "provisioner"))) {
        errs.add(FieldError.forbidden("provisioner", "updates to provisioner are forbidden."));
      }
      if (!policy.equals(str(was, "reclaimPolicy"))) {
        errs.add(FieldError.forbidden("reclaimPolicy", "updates to reclaimPolicy are forbidden."));
      }
      immutable(errs, "volumeBindingMode", o.getOrNull("volumeBindingMode"),
          was.getOrNull("volumeBindingMode"));
    }
    return errs;
  }

  /** kube's {@code SetDefaults_CSIDriver}. */
  static MapValue defaultCsiDriver(MapValue o) {
    MapValue r = Nested.setDefault(o, MapValue.empty(), "spec");
    r = Nested.setDefault(r, Value.of(true), "spec", "attachRequired");
    r = Nested.setDefault(r, Value.of(false), "spec", "podInfoOnMount");
    r = Nested.setDefault(r, Value.of(false), "spec", "storageCapacity");
    r = Nested.setDefault(r, Value.of("ReadWriteOnceWithFSType"), "spec", "fsGroupPolicy");
    if (strings(r, "spec", "volumeLifecycleModes").isEmpty()) {
      r = Nested.set(r, GroupRules.stringList("Persistent"), "spec", "volumeLifecycleModes");
    }
    r = Nested.setDefault(r, Value.of(false), "spec", "requiresRepublish");
    return Nested.setDefault(r, Value.of(false), "spec", "seLinuxMount");
  }

  /** kube's {@code ValidateCSIDriverName} (core): a lower-cased DNS subdomain of 63 bytes. */
  private static void csiDriverName(List<FieldError> errs, String path, String name) {
    if (name.isEmpty()) {
      errs.add(FieldError.required(path, ""));
    }
    if (name.length() > 63) {
      errs.add(FieldError.tooLong(path, 63));
    }
    for (String msg : MetaValidation.dns1123Subdomain(name.toLowerCase(Locale.ROOT))) {
      errs.add(FieldError.invalid(path, Value.of(name), msg));
    }
  }

  static List<FieldError> validateCsiDriver(MapValue o, Optional<MapValue> old) {
    List<FieldError> errs = new ArrayList<>();
    MapValue spec = Nested.map(o, "spec");
    // kube's field name is "attachedRequired"
    for (String[] f : new String[][] {{"attachRequired", "attachedRequired"},
        {"podInfoOnMount", "podInfoOnMount"}, {"storageCapacity", "storageCapacity"},
        {"seLinuxMount", "seLinuxMount"}}) {
      if (!present(spec, f[0])) {
        errs.add(FieldError.required("spec." + f[1], ""));
      }
    }
    String policy = str(spec, "fsGroupPolicy");
    List<String> policies = List.of("File", "None", "ReadWriteOnceWithFSType");
    if (present(spec, "fsGroupPolicy") && !policies.contains(policy)) {
      errs.add(FieldError.notSupported("spec.fsGroupPolicy", Value.of(policy), policies));
    }
    Set<String> audiences = new HashSet<>();
    List<MapValue> requests = maps(spec, "tokenRequests");
    for (int i = 0; i < requests.size(); i++) {
      String at = "spec.tokenRequests[" + i + "]";
      String audience = str(requests.get(i), "audience");
      if (!audiences.add(audience)) {
        errs.add(FieldError.duplicate(at + ".audience", Value.of(audience)));
        continue;
      }
      Optional<Long> exp = GroupRules.integer(requests.get(i), "expirationSeconds");
      if (exp.isPresent() && exp.get() < 600) {
        errs.add(FieldError.invalid(at + ".expirationSeconds", Value.of(exp.get()),
            "may not specify a duration less than 10 minutes"));
      }
      if (exp.isPresent() && exp.get() > (1L << 32)) {
        errs.add(FieldError.invalid(at + ".expirationSeconds", Value.of(exp.get()),
            "may not specify a duration larger than 2^32 seconds"));
      }
    }
    for (String mode : strings(spec, "volumeLifecycleModes")) {
      if (!mode.equals("Persistent") && !mode.equals("Ephemeral")) {
        errs.add(FieldError.notSupported("spec.volumeLifecycleModes", Value.of(mode),
            List.of("Persistent", "Ephemeral")));
      }
    }
    Optional<Long> period = GroupRules.integer(spec, "nodeAllocatableUpdatePeriodSeconds");
    if (period.isPresent() && period.get() < 10) {
      errs.add(FieldError.invalid("spec.nodeAllocatableUpdatePeriodSeconds",
          Value.of(period.get()), "must be greater than or equal to 10 seconds"));
    }
    if (old.isPresent()) {
      MapValue was = Nested.map(old.get(), "spec");
      immutable(errs, "spec.attachedRequired", spec.getOrNull("attachRequired"),
          was.getOrNull("attachRequired"));
      immutable(errs, "spec.volumeLifecycleModes", spec.getOrNull("volumeLifecycleModes"),
          was.getOrNull("volumeLifecycleModes"));
    }
    return errs;
  }

  static List<FieldError> validateCsiNode(MapValue o, Optional<MapValue> old) {
    List<FieldError> errs = new ArrayList<>();
    List<MapValue> drivers = maps(o, "spec", "drivers");
    Set<String> names = new HashSet<>();
    for (int i = 0; i < drivers.size(); i++) {
      MapValue d = drivers.get(i);
      String at = "spec.drivers[" + i + "]";
      String name = str(d, "name");
      csiDriverName(errs, at + ".name", name);
      String nodeId = str(d, "nodeID");
      if (nodeId.isEmpty()) {
        errs.add(FieldError.required(at + ".nodeID", ""));
      }
      if (nodeId.length() > 192) {
        errs.add(FieldError.invalid(at + ".nodeID", Value.of(nodeId),
            "must be 192 characters or less"));
      }
      Optional<Long> count = GroupRules.integer(d, "allocatable", "count");
      if (count.isPresent() && count.get() < 0) {
        errs.add(FieldError.invalid(at + ".allocatable.count", Value.of(count.get()),
            "must be greater than or equal to 0"));
      }
      if (!names.add(name)) {
        errs.add(FieldError.duplicate(at + ".name", Value.of(name)));
      }
      Set<String> keys = new HashSet<>();
      for (String key : strings(d, "topologyKeys")) {
        if (key.isEmpty()) {
          errs.add(FieldError.required(at, ""));
        }
        if (!keys.add(key)) {
          errs.add(FieldError.duplicate(at, Value.of(key)));
        }
        GroupRules.qualifiedName(errs, at, key);
      }
    }
    if (old.isPresent()) {
      // an existing driver entry may change only its allocatable count
      for (MapValue was : maps(old.get(), "spec", "drivers")) {
        for (MapValue now : drivers) {
          if (str(was, "name").equals(str(now, "name"))
              && !was.without("allocatable").equals(now.without("allocatable"))) {
            errs.add(FieldError.invalid("spec.drivers", now.without("allocatable"),
                "field is immutable"));
          }
        }
      }
    }
    return errs;
  }

  static List<FieldError> validateVolumeAttachment(MapValue o, Optional<MapValue> old) {
    List<FieldError> errs = new ArrayList<>();
    MapValue spec = Nested.map(o, "spec");
    String attacher = str(spec, "attacher");
    csiDriverName(errs, "spec.attacher", attacher);
    boolean pv = present(spec, "source", "persistentVolumeName");
    boolean inline = present(spec, "source", "inlineVolumeSpec");
    if (!pv && !inline) {
      errs.add(FieldError.required("spec.source",
          "must specify exactly one of inlineVolumeSpec and persistentVolumeName"));
    } else if (pv && inline) {
      errs.add(FieldError.forbidden("spec.source",
          "must specify exactly one of inlineVolumeSpec and persistentVolumeName"));
    } else if (pv) {
      String name = str(spec, "source", "persistentVolumeName");
      if (name.isEmpty()) {
        errs.add(FieldError.required("spec.source.persistentVolumeName",
            "must specify non empty persistentVolumeName"));
      }
      for (String msg : MetaValidation.dns1123Subdomain(name)) {
        if (!name.isEmpty()) {
          errs.add(FieldError.invalid("spec.source.persistentVolumeName", Value.of(name), msg));
        }
      }
    }
    String node = str(spec, "nodeName");
    for (String msg : MetaValidation.dns1123Subdomain(node)) {
      errs.add(FieldError.invalid("spec.nodeName", Value.of(node), msg));
    }
    if (old.isPresent() && !Objects.equals(spec, Nested.map(old.get(), "spec"))) {
      // kube prints the internal spec struct, whose fields have no JSON names
      String source = pv ? "{\"PersistentVolumeName\":"
          + GoStrings.quote(str(spec, "source", "persistentVolumeName"))
          + ",\"InlineVolumeSpec\":null}" : "{\"PersistentVolumeName\":null,\"InlineVolumeSpec\":"
          + Nested.getOrNull(spec, "source", "inlineVolumeSpec") + "}";
      errs.add(FieldError.invalidOmitValue("spec", "{\"Attacher\":" + GoStrings.quote(attacher)
          + ",\"Source\":" + source + ",\"NodeName\":" + GoStrings.quote(node)
          + "}: field is immutable"));
    }
    return errs;
  }

  static List<FieldError> validateVolumeAttributesClass(MapValue o, Optional<MapValue> old) {
    List<FieldError> errs = new ArrayList<>();
    if (old.isPresent()) {
      if (!str(o, "driverName").equals(str(old.get(), "driverName"))) {
        errs.add(FieldError.forbidden("driverName", "updates to driverName are forbidden."));
      }
      if (!Nested.map(o, "parameters").equals(Nested.map(old.get(), "parameters"))) {
        errs.add(FieldError.forbidden("parameters", "updates to parameters are forbidden."));
      }
    }
    provisioner(errs, "driverName", str(o, "driverName"));
    parameters(errs, Nested.map(o, "parameters"), false);
    return errs;
  }
}
