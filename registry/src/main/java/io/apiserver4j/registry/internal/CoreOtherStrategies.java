/*
 * Copyright The apiserver4j authors.
 * SPDX-License-Identifier: Apache-2.0
 */
package io.apiserver4j.registry.internal;

import static io.apiserver4j.apimachinery.validation.GroupRules.empty;
import static io.apiserver4j.apimachinery.validation.GroupRules.immutable;
import static io.apiserver4j.apimachinery.validation.GroupRules.maps;
import static io.apiserver4j.apimachinery.validation.GroupRules.present;
import static io.apiserver4j.apimachinery.validation.GroupRules.str;
import static io.apiserver4j.apimachinery.validation.GroupRules.strings;

import io.apiserver4j.apiserver.ResourceStrategy;
import io.apiserver4j.apimachinery.validation.GroupRules.Quantity;
import io.apiserver4j.core.BooleanValue;
import io.apiserver4j.core.FieldError;
import io.apiserver4j.core.GroupVersionKind;
import io.apiserver4j.core.IntegerValue;
import io.apiserver4j.core.ListValue;
import io.apiserver4j.core.MapValue;
import io.apiserver4j.core.Meta;
import io.apiserver4j.core.Nested;
import io.apiserver4j.core.StringValue;
import io.apiserver4j.core.Value;
import java.math.BigDecimal;
import java.math.RoundingMode;
import java.nio.charset.StandardCharsets;
import java.util.ArrayList;
import java.util.HashSet;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import java.util.Set;
import java.util.TreeMap;
import java.util.regex.Pattern;
import io.apiserver4j.apimachinery.validation.MetaValidation;
import io.apiserver4j.apimachinery.validation.GroupRules;

/**
 * The core/v1 kinds beyond pods, services and workloads: ConfigMap, Secret, PersistentVolumeClaim,
 * PersistentVolume, LimitRange, ResourceQuota, Endpoints and Node, with kube's
 * {@code SetDefaults_*} (pkg/apis/core/v1/defaults.go) and the rules of
 * pkg/apis/core/validation/validation.go, field paths and messages as kube writes them.
 */
final class CoreOtherStrategies {
  private CoreOtherStrategies() {}

  /** kube's MaxSecretSize, which bounds ConfigMaps and Secrets alike. */
  static final int MAX_DATA_BYTES = 1024 * 1024;

  private static final String IMMUTABLE_SET = "field is immutable when `immutable` is set";
  private static final List<String> ACCESS_MODES =
      List.of("ReadOnlyMany", "ReadWriteMany", "ReadWriteOnce", "ReadWriteOncePod");
  private static final List<String> VOLUME_MODES = List.of("Block", "Filesystem");
  private static final List<String> RECLAIM_POLICIES = List.of("Delete", "Recycle", "Retain");
  // the order in which ValidatePersistentVolumeSpec looks at the sources
  private static final List<String> PV_SOURCES = List.of("hostPath", "gcePersistentDisk",
      "awsElasticBlockStore", "glusterfs", "flocker", "nfs", "rbd", "quobyte", "cephfs", "iscsi",
      "cinder", "fc", "flexVolume", "azureFile", "vsphereVolume", "photonPersistentDisk",
      "portworxVolume", "azureDisk", "scaleIO", "local", "storageos", "csi");

  static Map<GroupVersionKind, ResourceStrategy> strategies() {
    Map<GroupVersionKind, ResourceStrategy> out = new LinkedHashMap<>();
    out.put(core("ConfigMap"), ResourceStrategy.builder()
        .omitEmptyFields("data", "binaryData")
        .validator(CoreOtherStrategies::validateConfigMap)
        .build());
    out.put(core("Secret"), ResourceStrategy.builder()
        .defaulter(o -> mergeStringData(Nested.setDefault(o, Value.of("Opaque"), "type")))
        .validator(CoreOtherStrategies::validateSecret)
        .omitEmptyFields("data", "stringData")
        .selectableFields("type")
        .build());
    out.put(core("PersistentVolumeClaim"), ResourceStrategy.builder()
        .defaulter(o -> Nested.updateMap(o,
            s -> Nested.setDefault(s, Value.of("Filesystem"), "volumeMode"), "spec"))
        .prepareForCreate((o, old) -> Nested.set(o, Value.of("Pending"), "status", "phase"))
        .validator(CoreOtherStrategies::validatePvc)
        .build());
    out.put(core("PersistentVolume"), ResourceStrategy.builder()
        .defaulter(CoreOtherStrategies::defaultPv)
        .prepareForCreate((o, old) -> Nested.set(o, Value.of("Pending"), "status", "phase"))
        .validator(CoreOtherStrategies::validatePv)
        .build());
    out.put(core("LimitRange"), ResourceStrategy.builder()
        .defaulter(o -> Nested.updateListItems(o, CoreOtherStrategies::defaultLimitRangeItem,
            "spec", "limits"))
        .validator((o, old) -> validateLimitRange(o))
        .build());
    out.put(core("ResourceQuota"), ResourceStrategy.builder()
        .validator((o, old) -> validateResourceQuota(o))
        .build());
    out.put(core("Endpoints"), ResourceStrategy.builder()
        .defaulter(o -> Nested.updateListItems(o, s -> Nested.updateListItems(s,
            p -> Nested.setDefault(p, Value.of("TCP"), "protocol"), "ports"), "subsets"))
        .validator((o, old) -> validateEndpoints(o))
        .build());
    out.put(core("Node"), ResourceStrategy.builder()
        .defaulter(CoreOtherStrategies::defaultNode)
        .validator(CoreOtherStrategies::validateNode)
        .build());
    return out;
  }

  private static GroupVersionKind core(String kind) {
    return new GroupVersionKind("", "v1", kind);
  }

  // --- ConfigMap and Secret ----------------------------------------------------------------

  private static final Pattern CONFIG_MAP_KEY = Pattern.compile("[-._a-zA-Z0-9]+");

  /** apimachinery's {@code IsConfigMapKey}. */
  static List<String> configMapKey(String key) {
    List<String> msgs = new ArrayList<>();
    if (key.length() > 253) {
      msgs.add("must be no more than 253 characters");
    }
    if (!CONFIG_MAP_KEY.matcher(key).matches()) {
      msgs.add(MetaValidation.regexError("a valid config key must consist of alphanumeric"
          + " characters, '-', '_' or '.'", "[-._a-zA-Z0-9]+", "key.name", "KEY_NAME",
          "key-name"));
    }
    if (key.equals(".")) {
      msgs.add("must not be '.'");
    } else if (key.equals("..")) {
      msgs.add("must not be '..'");
    } else if (key.startsWith("..")) {
      msgs.add("must not start with '..'");
    }
    return msgs;
  }

  private static void keys(List<FieldError> errs, MapValue obj, String field) {
    MapValue data = Nested.map(obj, field);
    for (int i = 0; i < data.size(); i++) {
      for (String msg : configMapKey(data.keyAt(i))) {
        errs.add(FieldError.invalid(field + "[" + data.keyAt(i) + "]", Value.of(data.keyAt(i)),
            msg));
      }
    }
  }

  private static boolean immutableSet(Optional<MapValue> old) {
    return old.isPresent() && old.get().getOrNull("immutable") instanceof BooleanValue b
        && b.value();
  }

  private static void immutableData(List<FieldError> errs, MapValue obj, MapValue old,
      String... fields) {
    if (!(obj.getOrNull("immutable") instanceof BooleanValue b && b.value())) {
      errs.add(FieldError.forbidden("immutable", IMMUTABLE_SET));
    }
    for (String f : fields) {
      if (!Nested.map(obj, f).equals(Nested.map(old, f))) {
        errs.add(FieldError.forbidden(f, IMMUTABLE_SET));
      }
    }
  }

  static List<FieldError> validateConfigMap(MapValue o, Optional<MapValue> old) {
    List<FieldError> errs = new ArrayList<>();
    keys(errs, o, "data");
    MapValue data = Nested.map(o, "data");
    MapValue binary = Nested.map(o, "binaryData");
    for (int i = 0; i < data.size(); i++) {
      if (binary.containsKey(data.keyAt(i))) {
        errs.add(FieldError.invalid("data[" + data.keyAt(i) + "]", Value.of(data.keyAt(i)),
            "duplicate of key present in binaryData"));
      }
    }
    keys(errs, o, "binaryData");
    // an error of the whole object, with kube's empty path
    if (dataBytes(o, "data", false) + dataBytes(o, "binaryData", true) > MAX_DATA_BYTES) {
      errs.add(FieldError.tooLong("[]", MAX_DATA_BYTES));
    }
    if (immutableSet(old)) {
      immutableData(errs, o, old.get(), "data", "binaryData");
    }
    return errs;
  }

  static List<FieldError> validateSecret(MapValue o, Optional<MapValue> old) {
    List<FieldError> errs = new ArrayList<>();
    keys(errs, o, "data");
    if (dataBytes(o, "data", true) > MAX_DATA_BYTES) {
      errs.add(FieldError.tooLong("data", MAX_DATA_BYTES));
    }
    MapValue data = Nested.map(o, "data");
    switch (str(o, "type")) {
      case "kubernetes.io/service-account-token":
        if (str(o, "metadata", "annotations", "kubernetes.io/service-account.name").isEmpty()) {
          errs.add(FieldError.required(
              "metadata.annotations[kubernetes.io/service-account.name]", ""));
        }
        break;
      case "kubernetes.io/dockercfg":
        dockerConfig(errs, data, ".dockercfg");
        break;
      case "kubernetes.io/dockerconfigjson":
        dockerConfig(errs, data, ".dockerconfigjson");
        break;
      case "kubernetes.io/basic-auth":
        if (!data.containsKey("username") && !data.containsKey("password")) {
          errs.add(FieldError.required("data[username]", ""));
          errs.add(FieldError.required("data[password]", ""));
        }
        break;
      case "kubernetes.io/ssh-auth":
        if (str(data, "ssh-privatekey").isEmpty()) {
          errs.add(FieldError.required("data[ssh-privatekey]", ""));
        }
        break;
      case "kubernetes.io/tls":
        for (String key : List.of("tls.crt", "tls.key")) {
          if (!data.containsKey(key)) {
            errs.add(FieldError.required("data[" + key + "]", ""));
          }
        }
        break;
      default:
        break;
    }
    if (old.isPresent()) {
      immutable(errs, "type", o.getOrNull("type"), old.get().getOrNull("type"));
      if (immutableSet(old)) {
        immutableData(errs, o, old.get(), "data");
      }
    }
    return errs;
  }

  // the key must be there and hold JSON; kube redacts the contents in the message
  private static void dockerConfig(List<FieldError> errs, MapValue data, String key) {
    if (!data.containsKey(key)) {
      errs.add(FieldError.required("data[" + key + "]", ""));
      return;
    }
    String raw;
    try {
      raw = new String(java.util.Base64.getDecoder().decode(str(data, key)),
          StandardCharsets.UTF_8);
    } catch (IllegalArgumentException e) {
      return; // the decoder reports malformed base64
    }
    String trimmed = raw.strip();
    String detail = null;
    if (trimmed.isEmpty()) {
      detail = "unexpected end of JSON input";
    } else if ("{[\"-0123456789tfn".indexOf(trimmed.charAt(0)) < 0) {
      // Go's encoding/json names the first character that cannot start a value
      detail = "invalid character '" + trimmed.charAt(0) + "' looking for beginning of value";
    } else {
      try {
        io.apiserver4j.core.Json.read(trimmed);
      } catch (RuntimeException e) {
        detail = "unexpected end of JSON input";
      }
    }
    if (detail != null) {
      errs.add(FieldError.invalid("data[" + key + "]", Value.of("<secret contents redacted>"),
          detail));
    }
  }

  /** The bytes of a data map's values; base64 values count decoded, as kube's []byte. */
  private static long dataBytes(MapValue obj, String field, boolean base64) {
    long total = 0;
    MapValue data = Nested.map(obj, field);
    for (int i = 0; i < data.size(); i++) {
      String v = data.valueAt(i) instanceof StringValue s ? s.value() : "";
      total += base64 ? decodedLength(v) : v.getBytes(StandardCharsets.UTF_8).length;
    }
    return total;
  }

  private static long decodedLength(String base64) {
    try {
      return java.util.Base64.getDecoder().decode(base64).length;
    } catch (IllegalArgumentException e) {
      return base64.length() * 3L / 4; // the decode step reports malformed values
    }
  }

  /**
   * kube's conversion of a v1 Secret: {@code stringData} is written into {@code data}
   * (base64 of its UTF-8 bytes, overwriting keys given in both) and never stored.
   */
  private static MapValue mergeStringData(MapValue secret) {
    if (!(secret.getOrNull("stringData") instanceof MapValue strings)) {
      return secret.getOrNull("stringData") == null ? secret : secret.without("stringData");
    }
    MapValue data = Nested.map(secret, "data");
    for (int i = 0; i < strings.size(); i++) {
      String v = strings.valueAt(i) instanceof StringValue s ? s.value() : "";
      data = data.with(strings.keyAt(i), Value.of(java.util.Base64.getEncoder()
          .encodeToString(v.getBytes(StandardCharsets.UTF_8))));
    }
    MapValue out = secret.without("stringData");
    return data.isEmpty() ? out : out.with("data", data);
  }

  // --- PersistentVolumeClaim and PersistentVolume --------------------------------------------

  private static void accessModes(List<FieldError> errs, MapValue spec, String path,
      String requiredDetail) {
    List<String> modes = strings(spec, "accessModes");
    if (modes.isEmpty()) {
      errs.add(FieldError.required(path + ".accessModes", requiredDetail));
    }
    boolean rwop = false;
    boolean other = false;
    for (String mode : modes) {
      if (!ACCESS_MODES.contains(mode)) {
        errs.add(FieldError.notSupported(path + ".accessModes", Value.of(mode), ACCESS_MODES));
      }
      rwop |= mode.equals("ReadWriteOncePod");
      other |= !mode.equals("ReadWriteOncePod");
    }
    if (rwop && other) {
      errs.add(FieldError.forbidden(path + ".accessModes",
          "may not use ReadWriteOncePod with other access modes"));
    }
  }

  private static void volumeMode(List<FieldError> errs, MapValue spec, String path) {
    if (spec.getOrNull("volumeMode") instanceof StringValue m
        && !VOLUME_MODES.contains(m.value())) {
      errs.add(FieldError.notSupported(path + ".volumeMode", m, VOLUME_MODES));
    }
  }

  private static void storageClassName(List<FieldError> errs, MapValue spec, String path) {
    String name = str(spec, "storageClassName");
    if (!name.isEmpty()) {
      for (String msg : MetaValidation.dns1123Subdomain(name)) {
        errs.add(FieldError.invalid(path + ".storageClassName", Value.of(name), msg));
      }
    }
  }

  static List<FieldError> validatePvc(MapValue o, Optional<MapValue> old) {
    List<FieldError> errs = new ArrayList<>();
    MapValue spec = Nested.map(o, "spec");
    accessModes(errs, spec, "spec", "at least 1 access mode is required");
    // kube's path leaves out "requests"
    Value storage = Nested.getOrNull(spec, "resources", "requests", "storage");
    if (storage == null) {
      errs.add(FieldError.required("spec.resources[storage]", ""));
    } else {
      GroupRules.quantity(errs, "spec.resources[storage]", storage).ifPresent(q -> {
        if (q.value().signum() <= 0) {
          errs.add(FieldError.invalid("spec.resources[storage]", Value.of(q.toString()),
              "must be greater than zero"));
        }
      });
    }
    storageClassName(errs, spec, "spec");
    volumeMode(errs, spec, "spec");
    if (old.isPresent()) {
      validatePvcUpdate(errs, o, old.get());
    }
    return errs;
  }

  private static void validatePvcUpdate(List<FieldError> errs, MapValue o, MapValue old) {
    MapValue spec = Nested.map(o, "spec");
    MapValue oldSpec = Nested.map(old, "spec");
    boolean bound = str(o, "status", "phase").equals("Bound");
    // the volume name may be set once; a bound claim may change its request and its class
    if (str(oldSpec, "volumeName").isEmpty()) {
      oldSpec = copy(oldSpec, spec, "volumeName");
    }
    MapValue cmpSpec = spec;
    if (bound && present(spec, "resources", "requests")) {
      Value was = Nested.getOrNull(oldSpec, "resources", "requests", "storage");
      cmpSpec = was == null ? Nested.remove(cmpSpec, "resources", "requests", "storage")
          : Nested.set(cmpSpec, was, "resources", "requests", "storage");
    }
    if (bound && present(spec, "volumeAttributesClassName")) {
      cmpSpec = copy(cmpSpec, oldSpec, "volumeAttributesClassName");
    }
    if (!cmpSpec.equals(oldSpec)) {
      errs.add(FieldError.forbidden("spec", "spec is immutable after creation except"
          + " resources.requests and volumeAttributesClassName for bound claims"));
    }
    Optional<Quantity> now = quantityAt(spec, "resources", "requests", "storage");
    Optional<Quantity> was = quantityAt(Nested.map(old, "spec"), "resources", "requests",
        "storage");
    if (now.isPresent() && was.isPresent() && now.get().compareTo(was.get()) < 0) {
      // kube lets a claim shrink back above its capacity, to recover from a failed expansion
      Optional<Quantity> capacity = quantityAt(old, "status", "capacity", "storage");
      if (now.get().compareTo(capacity.orElse(zero())) <= 0) {
        errs.add(FieldError.forbidden("spec.resources.requests.storage",
            "field can not be less than status.capacity"));
      }
    }
    immutable(errs, "volumeMode", spec.getOrNull("volumeMode"),
        Nested.map(old, "spec").getOrNull("volumeMode"));
  }

  private static MapValue copy(MapValue to, MapValue from, String key) {
    Value v = from.getOrNull(key);
    return v == null ? to.without(key) : to.with(key, v);
  }

  private static Quantity zero() {
    return Quantity.parse("0").orElseThrow();
  }

  private static Optional<Quantity> quantityAt(Value v, String... path) {
    Value q = Nested.getOrNull(v, path);
    return q instanceof StringValue s ? Quantity.parse(s.value())
        : q instanceof IntegerValue i ? Quantity.parse(Long.toString(i.value()))
        : Optional.empty();
  }

  static MapValue defaultPv(MapValue o) {
    return Nested.updateMap(Nested.setDefault(o, MapValue.empty(), "spec"), s -> {
      MapValue r = Nested.setDefault(s, Value.of("Retain"), "persistentVolumeReclaimPolicy");
      return Nested.setDefault(r, Value.of("Filesystem"), "volumeMode");
    }, "spec");
  }

  static List<FieldError> validatePv(MapValue o, Optional<MapValue> old) {
    List<FieldError> errs = new ArrayList<>();
    MapValue spec = Nested.map(o, "spec");
    accessModes(errs, spec, "spec", "");
    MapValue capacity = Nested.map(spec, "capacity");
    if (capacity.isEmpty()) {
      errs.add(FieldError.required("spec.capacity", ""));
    }
    if (!capacity.containsKey("storage") || capacity.size() > 1) {
      errs.add(FieldError.notSupported("spec.capacity", capacity, List.of("storage")));
    }
    for (int i = 0; i < capacity.size(); i++) {
      String at = "spec.capacity[" + capacity.keyAt(i) + "]";
      GroupRules.quantity(errs, at, capacity.valueAt(i)).ifPresent(q -> {
        if (q.value().signum() <= 0) {
          errs.add(FieldError.invalid(at, Value.of(q.toString()), "must be greater than zero"));
        }
      });
    }
    String policy = str(spec, "persistentVolumeReclaimPolicy");
    if (!policy.isEmpty() && !RECLAIM_POLICIES.contains(policy)) {
      errs.add(FieldError.notSupported("spec.persistentVolumeReclaimPolicy", Value.of(policy),
          RECLAIM_POLICIES));
    }
    storageClassName(errs, spec, "spec");
    int sources = 0;
    for (String source : PV_SOURCES) {
      if (!present(spec, source)) {
        continue;
      }
      if (sources++ > 0) {
        errs.add(FieldError.forbidden("spec." + source, "may not specify more than 1 volume type"));
        continue;
      }
      validateSource(errs, spec, source);
    }
    if (sources == 0) {
      errs.add(FieldError.required("spec", "must specify a volume type"));
    }
    volumeMode(errs, spec, "spec");
    if (old.isPresent()) {
      MapValue oldSpec = Nested.map(old.get(), "spec");
      for (String source : PV_SOURCES) {
        if (!java.util.Objects.equals(spec.getOrNull(source), oldSpec.getOrNull(source))) {
          errs.add(FieldError.forbidden("spec.persistentvolumesource",
              "spec.persistentvolumesource is immutable after creation"));
          break;
        }
      }
      immutable(errs, "volumeMode", spec.getOrNull("volumeMode"), oldSpec.getOrNull("volumeMode"));
      if (present(oldSpec, "nodeAffinity")) {
        immutable(errs, "nodeAffinity", spec.getOrNull("nodeAffinity"),
            oldSpec.getOrNull("nodeAffinity"));
      }
    }
    return errs;
  }

  private static void validateSource(List<FieldError> errs, MapValue spec, String source) {
    String at = "spec." + source;
    switch (source) {
      case "hostPath":
        if (str(spec, source, "path").isEmpty()) {
          errs.add(FieldError.required(at + ".path", ""));
        }
        break;
      case "nfs":
        if (str(spec, source, "server").isEmpty()) {
          errs.add(FieldError.required(at + ".server", ""));
        }
        String path = str(spec, source, "path");
        if (path.isEmpty()) {
          errs.add(FieldError.required(at + ".path", ""));
        } else if (!path.startsWith("/")) {
          errs.add(FieldError.invalid(at + ".path", Value.of(path), "must be an absolute path"));
        }
        break;
      case "local":
        if (str(spec, source, "path").isEmpty()) {
          errs.add(FieldError.required(at + ".path", ""));
        }
        if (!present(spec, "nodeAffinity")) {
          errs.add(FieldError.required("spec.nodeAffinity", "Local volume requires node affinity"));
        }
        break;
      case "csi":
        if (str(spec, source, "driver").isEmpty()) {
          errs.add(FieldError.required(at + ".driver", ""));
        }
        if (str(spec, source, "volumeHandle").isEmpty()) {
          errs.add(FieldError.required(at + ".volumeHandle", ""));
        }
        break;
      default:
        break;
    }
  }

  // --- LimitRange ----------------------------------------------------------------------------

  private static final List<String> LIMIT_FIELDS =
      List.of("max", "min", "default", "defaultRequest", "maxLimitRequestRatio");

  /** kube's {@code SetDefaults_LimitRangeItem}: container defaults from max, default and min. */
  static MapValue defaultLimitRangeItem(MapValue item) {
    if (!str(item, "type").equals("Container")) {
      return item;
    }
    Map<String, Value> defaults = entries(item, "default");
    Map<String, Value> requests = entries(item, "defaultRequest");
    entries(item, "max").forEach(defaults::putIfAbsent);
    defaults.forEach(requests::putIfAbsent);
    entries(item, "min").forEach(requests::putIfAbsent);
    MapValue r = item;
    if (!defaults.isEmpty()) {
      r = r.with("default", toMap(defaults));
    }
    if (!requests.isEmpty()) {
      r = r.with("defaultRequest", toMap(requests));
    }
    return r;
  }

  private static Map<String, Value> entries(MapValue m, String field) {
    MapValue v = Nested.map(m, field);
    Map<String, Value> out = new LinkedHashMap<>();
    for (int i = 0; i < v.size(); i++) {
      out.put(v.keyAt(i), v.valueAt(i));
    }
    return out;
  }

  private static MapValue toMap(Map<String, Value> entries) {
    MapValue.Builder b = MapValue.empty().toBuilder();
    entries.forEach(b::put);
    return b.build();
  }

  private static boolean standardContainerResource(String name) {
    return name.equals("cpu") || name.equals("memory") || name.equals("ephemeral-storage")
        || name.startsWith("hugepages-");
  }

  static List<FieldError> validateLimitRange(MapValue o) {
    List<FieldError> errs = new ArrayList<>();
    Set<String> types = new HashSet<>();
    List<MapValue> limits = maps(o, "spec", "limits");
    for (int i = 0; i < limits.size(); i++) {
      MapValue limit = limits.get(i);
      String at = "spec.limits[" + i + "]";
      String type = str(limit, "type");
      List<String> typeMsgs = MetaValidation.qualifiedName(type);
      typeMsgs.forEach(m -> errs.add(FieldError.invalid(at + ".type", Value.of(type), m)));
      if (typeMsgs.isEmpty() && !type.contains("/")
          && !List.of("Pod", "Container", "PersistentVolumeClaim").contains(type)) {
        errs.add(FieldError.invalid(at + ".type", Value.of(type),
            "must be a standard limit type or fully qualified"));
      }
      if (!types.add(type)) {
        errs.add(FieldError.duplicate(at + ".type", Value.of(type)));
      }
      Map<String, Map<String, Quantity>> q = new LinkedHashMap<>();
      Set<String> keys = new java.util.TreeSet<>();
      for (String f : LIMIT_FIELDS) {
        Map<String, Quantity> parsed = new TreeMap<>();
        MapValue m = Nested.map(limit, f);
        for (int k = 0; k < m.size(); k++) {
          String name = m.keyAt(k);
          String kp = at + "." + f + "[" + name + "]";
          List<String> nameMsgs = MetaValidation.qualifiedName(name);
          nameMsgs.forEach(msg -> errs.add(FieldError.invalid(kp, Value.of(name), msg)));
          if (nameMsgs.isEmpty() && !name.contains("/")
              && (type.equals("Pod") || type.equals("Container"))
              && !standardContainerResource(name)) {
            errs.add(FieldError.invalid(kp, Value.of(name),
                "must be a standard resource for containers"));
          }
          GroupRules.quantity(errs, kp, m.valueAt(k)).ifPresent(v -> parsed.put(name, v));
          keys.add(name);
        }
        q.put(f, parsed);
      }
      if (type.equals("Pod")) {
        for (String f : List.of("default", "defaultRequest")) {
          if (!Nested.map(limit, f).isEmpty()) {
            errs.add(FieldError.forbidden(at + "." + f,
                "may not be specified when `type` is 'Pod'"));
          }
        }
      } else {
        q.get("maxLimitRequestRatio").forEach((k, v) -> GroupRules.nonNegative(errs,
            at + ".maxLimitRequestRatio[" + k + "]", v));
      }
      if (type.equals("PersistentVolumeClaim") && !q.get("min").containsKey("storage")
          && !q.get("max").containsKey("storage")) {
        errs.add(FieldError.required(at + ".limits",
            "either minimum or maximum storage value is required, but neither was provided"));
      }
      for (String k : keys) {
        compareLimits(errs, at, k, q);
      }
    }
    return errs;
  }

  private static void compareLimits(List<FieldError> errs, String at, String k,
      Map<String, Map<String, Quantity>> q) {
    Quantity min = q.get("min").get(k);
    Quantity max = q.get("max").get(k);
    Quantity def = q.get("default").get(k);
    Quantity req = q.get("defaultRequest").get(k);
    Quantity ratio = q.get("maxLimitRequestRatio").get(k);
    if (min != null && max != null && min.compareTo(max) > 0) {
      errs.add(FieldError.invalid(at + ".min[" + k + "]", Value.of(min.toString()),
          "min value " + min + " is greater than max value " + max));
    }
    if (req != null && min != null && min.compareTo(req) > 0) {
      errs.add(FieldError.invalid(at + ".defaultRequest[" + k + "]", Value.of(req.toString()),
          "min value " + min + " is greater than default request value " + req));
    }
    if (req != null && max != null && req.compareTo(max) > 0) {
      errs.add(FieldError.invalid(at + ".defaultRequest[" + k + "]", Value.of(req.toString()),
          "default request value " + req + " is greater than max value " + max));
    }
    if (req != null && def != null && req.compareTo(def) > 0) {
      errs.add(FieldError.invalid(at + ".defaultRequest[" + k + "]", Value.of(req.toString()),
          "default request value " + req + " is greater than default limit value " + def));
    }
    if (def != null && min != null && min.compareTo(def) > 0) {
      errs.add(FieldError.invalid(at + ".default[" + k + "]", Value.of(min.toString()),
          "min value " + min + " is greater than default value " + def));
    }
    if (def != null && max != null && def.compareTo(max) > 0) {
      errs.add(FieldError.invalid(at + ".default[" + k + "]", Value.of(max.toString()),
          "default value " + def + " is greater than max value " + max));
    }
    if (ratio != null && ratio.value().compareTo(BigDecimal.ONE) < 0) {
      errs.add(FieldError.invalid(at + ".maxLimitRequestRatio[" + k + "]",
          Value.of(ratio.toString()), "ratio " + ratio + " is less than 1"));
    }
    if (ratio != null && min != null && max != null && min.value().signum() != 0) {
      // kube compares in milli units: the ratio against max/min
      BigDecimal minMilli = min.value().movePointRight(3).setScale(0, RoundingMode.UP);
      BigDecimal maxMilli = max.value().movePointRight(3).setScale(0, RoundingMode.UP);
      double limit = maxMilli.doubleValue() / minMilli.doubleValue();
      double value = ratio.value().movePointRight(3).setScale(0, RoundingMode.UP).doubleValue()
          / 1000;
      if (value > limit) {
        errs.add(FieldError.invalid(at + ".maxLimitRequestRatio[" + k + "]",
            Value.of(ratio.toString()), "ratio " + ratio + " is greater than max/min = "
                + String.format(java.util.Locale.ROOT, "%f", limit)));
      }
    }
  }

  // --- ResourceQuota -------------------------------------------------------------------------

  private static final Set<String> QUOTA_RESOURCES = Set.of("pods", "cpu", "memory",
      "ephemeral-storage", "requests.cpu", "requests.memory", "requests.storage",
      "requests.ephemeral-storage", "limits.cpu", "limits.memory", "limits.ephemeral-storage",
      "persistentvolumeclaims", "services", "replicationcontrollers", "resourcequotas",
      "secrets", "configmaps", "services.nodeports", "services.loadbalancers");
  private static final Set<String> INTEGER_RESOURCES = Set.of("pods", "services",
      "replicationcontrollers", "resourcequotas", "secrets", "configmaps",
      "persistentvolumeclaims", "services.nodeports", "services.loadbalancers");
  private static final Set<String> SCOPES = Set.of("Terminating", "NotTerminating",
      "BestEffort", "NotBestEffort", "PriorityClass", "CrossNamespacePodAffinity",
      "VolumeAttributesClass");
  private static final Set<String> POD_COMPUTE = Set.of("pods", "cpu", "memory",
      "requests.cpu", "requests.memory", "limits.cpu", "limits.memory", "ephemeral-storage",
      "requests.ephemeral-storage", "limits.ephemeral-storage");

  private static boolean scopeFits(String scope, String resource) {
    switch (scope) {
      case "BestEffort":
        return resource.equals("pods");
      case "VolumeAttributesClass":
        return resource.equals("persistentvolumeclaims") || resource.equals("requests.storage");
      default:
        return POD_COMPUTE.contains(resource) || resource.startsWith("requests.hugepages-");
    }
  }

  static List<FieldError> validateResourceQuota(MapValue o) {
    List<FieldError> errs = new ArrayList<>();
    MapValue hard = Nested.map(o, "spec", "hard");
    for (int i = 0; i < hard.size(); i++) {
      String name = hard.keyAt(i);
      String at = "spec.hard[" + name + "]";
      List<String> msgs = MetaValidation.qualifiedName(name);
      msgs.forEach(m -> errs.add(FieldError.invalid(at, Value.of(name), m)));
      if (msgs.isEmpty() && !name.contains("/") && !QUOTA_RESOURCES.contains(name)
          && !name.startsWith("requests.hugepages-")) {
        errs.add(FieldError.invalid(at, Value.of(name), "must be a standard resource for quota"));
      }
      GroupRules.quantity(errs, at, hard.valueAt(i)).ifPresent(q -> {
        GroupRules.nonNegative(errs, at, q);
        if (INTEGER_RESOURCES.contains(name)
            && q.value().movePointRight(3).setScale(0, RoundingMode.UP)
                .remainder(BigDecimal.valueOf(1000)).signum() != 0) {
          errs.add(FieldError.invalid(at, Value.of(q.toString()), "must be an integer"));
        }
      });
    }
    Value scopes = Nested.getOrNull(o, "spec", "scopes");
    List<String> names = strings(o, "spec", "scopes");
    for (String scope : names) {
      if (!SCOPES.contains(scope)) {
        errs.add(FieldError.invalid("spec.scopes", scopes, "unsupported scope"));
      }
      for (String k : new java.util.TreeSet<>(hardNames(hard))) {
        if (QUOTA_RESOURCES.contains(k) && SCOPES.contains(scope) && !scopeFits(scope, k)) {
          errs.add(FieldError.invalid("spec.scopes", scopes,
              "unsupported scope applied to resource"));
        }
      }
    }
    if ((names.contains("BestEffort") && names.contains("NotBestEffort"))) {
      errs.add(FieldError.invalid("spec.scopes", scopes, "conflicting scopes"));
    }
    if (names.contains("Terminating") && names.contains("NotTerminating")) {
      errs.add(FieldError.invalid("spec.scopes", scopes, "conflicting scopes"));
    }
    return errs;
  }

  private static List<String> hardNames(MapValue hard) {
    List<String> out = new ArrayList<>();
    for (int i = 0; i < hard.size(); i++) {
      out.add(hard.keyAt(i));
    }
    return out;
  }

  // --- Endpoints -----------------------------------------------------------------------------

  private static final List<String> PROTOCOLS = List.of("SCTP", "TCP", "UDP");

  static List<FieldError> validateEndpoints(MapValue o) {
    List<FieldError> errs = new ArrayList<>();
    List<MapValue> subsets = maps(o, "subsets");
    for (int i = 0; i < subsets.size(); i++) {
      MapValue ss = subsets.get(i);
      String at = "subsets[" + i + "]";
      if (empty(ss, "addresses") && empty(ss, "notReadyAddresses")) {
        errs.add(FieldError.required(at, "must specify `addresses` or `notReadyAddresses`"));
      }
      for (String list : List.of("addresses", "notReadyAddresses")) {
        List<MapValue> addrs = maps(ss, list);
        for (int a = 0; a < addrs.size(); a++) {
          endpointAddress(errs, addrs.get(a), at + "." + list + "[" + a + "]");
        }
      }
      List<MapValue> ports = maps(ss, "ports");
      for (int p = 0; p < ports.size(); p++) {
        endpointPort(errs, ports.get(p), ports.size() > 1, at + ".ports[" + p + "]");
      }
    }
    return errs;
  }

  private static void endpointAddress(List<FieldError> errs, MapValue addr, String at) {
    String ip = str(addr, "ip");
    GroupRules.validIp(errs, at + ".ip", ip);
    String hostname = str(addr, "hostname");
    if (!hostname.isEmpty()) {
      for (String msg : MetaValidation.dns1123Label(hostname)) {
        errs.add(FieldError.invalid(at + ".hostname", Value.of(hostname), msg));
      }
    }
    if (addr.getOrNull("nodeName") instanceof StringValue node) {
      for (String msg : MetaValidation.dns1123Subdomain(node.value())) {
        errs.add(FieldError.invalid(at + ".nodeName", node, msg));
      }
    }
    // kube's ValidateEndpointIP: addresses that cannot be a pod's or a node's
    Optional<byte[]> parsed = GroupRules.parseIp(ip);
    if (parsed.isEmpty()) {
      errs.add(FieldError.invalid(at + ".ip", Value.of(ip), "must be a valid IP address"));
      return;
    }
    java.net.InetAddress a;
    try {
      a = java.net.InetAddress.getByAddress(parsed.get());
    } catch (java.net.UnknownHostException e) {
      throw new IllegalStateException(e);
    }
    if (a.isAnyLocalAddress()) {
      errs.add(FieldError.invalid(at + ".ip", Value.of(ip), "may not be unspecified (" + ip + ")"));
    }
    // the server's own "kubernetes" Endpoints, at a loopback advertise address, is a system
    // write this does not see (kube's reconciler writes it to storage)
    if (a.isLoopbackAddress()) {
      errs.add(FieldError.invalid(at + ".ip", Value.of(ip),
          "may not be in the loopback range (127.0.0.0/8, ::1/128)"));
    }
    if (a.isLinkLocalAddress()) {
      errs.add(FieldError.invalid(at + ".ip", Value.of(ip),
          "may not be in the link-local range (169.254.0.0/16, fe80::/10)"));
    }
    byte[] b = parsed.get();
    boolean linkLocalMulticast = b.length == 4 ? (b[0] & 0xff) == 224 && b[1] == 0 && b[2] == 0
        : (b[0] & 0xff) == 0xff && (b[1] & 0x0f) == 0x02;
    if (linkLocalMulticast) {
      errs.add(FieldError.invalid(at + ".ip", Value.of(ip),
          "may not be in the link-local multicast range (224.0.0.0/24, ff02::/10)"));
    }
  }

  private static void endpointPort(List<FieldError> errs, MapValue port, boolean requireName,
      String at) {
    String name = str(port, "name");
    if (requireName && name.isEmpty()) {
      errs.add(FieldError.required(at + ".name", ""));
    } else if (!name.isEmpty()) {
      for (String msg : MetaValidation.dns1123Label(name)) {
        errs.add(FieldError.invalid(at + ".name", Value.of(name), msg));
      }
    }
    long p = GroupRules.integer(port, "port").orElse(0L);
    if (p < 1 || p > 65535) {
      errs.add(FieldError.invalid(at + ".port", Value.of(p),
          "must be between 1 and 65535, inclusive"));
    }
    String protocol = str(port, "protocol");
    if (protocol.isEmpty()) {
      errs.add(FieldError.required(at + ".protocol", ""));
    } else if (!PROTOCOLS.contains(protocol)) {
      errs.add(FieldError.notSupported(at + ".protocol", Value.of(protocol), PROTOCOLS));
    }
  }

  // --- Node ----------------------------------------------------------------------------------

  private static final List<String> TAINT_EFFECTS =
      List.of("NoSchedule", "PreferNoSchedule", "NoExecute");

  /**
   * kube's {@code SetDefaults_NodeStatus} (allocatable defaults to capacity) and the v1
   * conversion that keeps {@code podCIDR} and {@code podCIDRs[0]} the same.
   */
  static MapValue defaultNode(MapValue o) {
    MapValue r = o;
    Value capacity = Nested.getOrNull(r, "status", "capacity");
    if (capacity instanceof MapValue && !present(r, "status", "allocatable")) {
      r = Nested.set(r, capacity, "status", "allocatable");
    }
    String cidr = str(r, "spec", "podCIDR");
    List<String> cidrs = strings(r, "spec", "podCIDRs");
    if (!cidr.isEmpty() && cidrs.isEmpty()) {
      r = Nested.set(r, GroupRules.stringList(cidr), "spec", "podCIDRs");
    } else if (cidr.isEmpty() && !cidrs.isEmpty()) {
      r = Nested.set(r, Value.of(cidrs.get(0)), "spec", "podCIDR");
    }
    return r;
  }

  static List<FieldError> validateNode(MapValue o, Optional<MapValue> old) {
    List<FieldError> errs = new ArrayList<>();
    List<String> cidrs = strings(o, "spec", "podCIDRs");
    boolean valid = true;
    for (int i = 0; i < cidrs.size(); i++) {
      valid &= GroupRules.validCidr(errs, "spec.podCIDRs[" + i + "]", cidrs.get(i));
    }
    if (valid && cidrs.size() > 1) {
      boolean dualStack = cidrs.size() == 2 && cidrs.get(0).contains(":") != cidrs.get(1)
          .contains(":");
      if (!dualStack) {
        errs.add(FieldError.invalid("spec.podCIDRs",
            Value.of("[" + String.join(" ", cidrs) + "]"),
            "may specify no more than one CIDR for each IP family"));
      }
    }
    List<MapValue> taints = maps(o, "spec", "taints");
    Set<String> seen = new HashSet<>();
    for (int i = 0; i < taints.size(); i++) {
      MapValue t = taints.get(i);
      String at = "spec.taints[" + i + "]";
      String key = str(t, "key");
      GroupRules.qualifiedName(errs, at + ".key", key);
      String value = str(t, "value");
      List<String> valueMsgs = MetaValidation.labelValue(value);
      if (!valueMsgs.isEmpty()) {
        errs.add(FieldError.invalid(at + ".value", Value.of(value), String.join(";", valueMsgs)));
      }
      String effect = str(t, "effect");
      if (effect.isEmpty()) {
        errs.add(FieldError.required(at + ".effect", ""));
      } else if (!TAINT_EFFECTS.contains(effect)) {
        errs.add(FieldError.notSupported(at + ".effect", Value.of(effect), TAINT_EFFECTS));
      }
      if (!seen.add(effect + "\u0000" + key)) {
        errs.add(new FieldError(FieldError.Type.DUPLICATE, at, Optional.of(t),
            "taints must be unique by key and effect pair"));
      }
    }
    if (old.isPresent()) {
      List<String> was = strings(old.get(), "spec", "podCIDRs");
      boolean changed = was.size() > cidrs.size();
      for (int i = 0; !changed && i < was.size(); i++) {
        changed = !was.get(i).equals(cidrs.get(i));
      }
      if (!was.isEmpty() && changed) {
        errs.add(FieldError.forbidden("spec.podCIDRs",
            "node updates may not change podCIDR except from \"\" to valid"));
      }
      String provider = str(old.get(), "spec", "providerID");
      if (!provider.isEmpty() && !provider.equals(str(o, "spec", "providerID"))) {
        errs.add(FieldError.forbidden("spec.providerID",
            "node updates may not change providerID except from \"\" to valid"));
      }
    }
    return errs;
  }
}
