/*
 * Copyright The apiserver4j authors.
 * SPDX-License-Identifier: Apache-2.0
 */
package io.apiserver4j.registry.internal;

import static io.apiserver4j.apimachinery.validation.KubeValidation.index;
import static io.apiserver4j.apimachinery.validation.KubeValidation.items;
import static io.apiserver4j.apimachinery.validation.KubeValidation.str;

import io.apiserver4j.apimachinery.validation.GroupRules.Quantity;
import io.apiserver4j.core.BooleanValue;
import io.apiserver4j.core.FieldError;
import io.apiserver4j.core.GoStrings;
import io.apiserver4j.core.IntegerValue;
import io.apiserver4j.core.Json;
import io.apiserver4j.core.ListValue;
import io.apiserver4j.core.MapValue;
import io.apiserver4j.core.Meta;
import io.apiserver4j.core.Nested;
import io.apiserver4j.core.StringValue;
import io.apiserver4j.core.Value;
import java.math.BigDecimal;
import java.util.ArrayList;
import java.util.HashMap;
import java.util.HashSet;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import java.util.Set;
import java.util.regex.Pattern;
import io.apiserver4j.apimachinery.validation.GroupValidation;
import io.apiserver4j.apimachinery.validation.IpAddresses;
import io.apiserver4j.apimachinery.validation.MetaValidation;
import io.apiserver4j.apimachinery.validation.GroupRules;
import io.apiserver4j.apimachinery.validation.KubeValidation;

/**
 * The parts of kube's {@code ValidatePodSpec} ({@code pkg/apis/core/validation}) beyond
 * containers' names, ports and volumes: environment, mounts' sub-paths, resource names and
 * hugepages, probes' and lifecycle handlers, init container restart rules, pod and container
 * security contexts, affinity, topology spread, DNS config, host aliases, readiness and
 * scheduling gates, the OS, pod-level resources and host user namespaces; with kube's field
 * paths (their quirks included) and messages, for the feature gates 1.36 enables by default
 * (relaxed environment variable names, zero sleep actions, pod-level resources). Stateless.
 */
final class PodSpecRules {
  static final String USER_ID_RANGE = "must be between 0 and 2147483647, inclusive";
  private static final String NOT_POSITIVE = "must be greater than zero";
  private static final List<String> ENV_FIELD_PATHS = List.of("metadata.name",
      "metadata.namespace", "metadata.uid", "spec.nodeName", "spec.serviceAccountName",
      "status.hostIP", "status.hostIPs", "status.podIP", "status.podIPs");
  // what podshelper.ConvertDownwardAPIFieldLabel knows for v1
  private static final Set<String> DOWNWARD_LABELS = Set.of("metadata.annotations",
      "metadata.labels", "metadata.name", "metadata.namespace", "metadata.uid", "spec.nodeName",
      "spec.restartPolicy", "spec.serviceAccountName", "spec.schedulerName", "status.phase",
      "status.hostIP", "status.hostIPs", "status.podIP", "status.podIPs", "spec.host");
  private static final List<String> RESOURCE_FIELD_PATHS = List.of("limits.cpu",
      "limits.ephemeral-storage", "limits.memory", "requests.cpu", "requests.ephemeral-storage",
      "requests.memory");
  private static final Set<String> STANDARD_RESOURCES = Set.of("cpu", "memory",
      "ephemeral-storage", "requests.cpu", "requests.memory", "requests.ephemeral-storage",
      "limits.cpu", "limits.memory", "limits.ephemeral-storage", "pods", "services",
      "replicationcontrollers", "resourcequotas", "secrets", "configmaps",
      "persistentvolumeclaims", "storage", "requests.storage", "services.nodeports",
      "services.loadbalancers");
  private static final String SYSCTL_SEGMENT = "[a-z0-9]([-_a-z0-9]*[a-z0-9])?";
  private static final String SYSCTL_REGEX =
      "^(" + SYSCTL_SEGMENT + "[\\./])*" + SYSCTL_SEGMENT + "$";
  private static final Pattern SYSCTL = Pattern.compile(SYSCTL_REGEX);
  private static final Set<String> IPC_SYSCTLS = Set.of("kernel.sem", "kernel.shmall",
      "kernel.shmmax", "kernel.shmmni", "kernel.shm_rmid_forced", "kernel.msgmax",
      "kernel.msgmnb", "kernel.msgmni");
  private static final Pattern CONTROL = Pattern.compile("\\p{Cntrl}");
  private static final Pattern NETBIOS = Pattern.compile("^[^\\\\/:*?\"<>|.][^\\\\/:*?\"<>|]{0,14}$");
  private static final Pattern WINDOWS_DNS = Pattern.compile(
      "^[a-zA-Z0-9](?:[a-zA-Z0-9-]{0,61}[a-zA-Z0-9])?(?:\\.[a-zA-Z0-9](?:[a-zA-Z0-9-]{0,61}"
          + "[a-zA-Z0-9])?)*$");
  private static final Pattern USER_BAD_CHARS = Pattern.compile("[\"/\\\\:;|=,+*?<>@\\[\\]]");
  private static final Pattern USER_DOTS_SPACES = Pattern.compile("^[. ]+$");
  private static final Pattern HTTP_HEADER = Pattern.compile("^[-A-Za-z0-9]+$");

  private PodSpecRules() {}

  // --- environment ---------------------------------------------------------------------------

  /** {@code ValidateEnv} with relaxed names (GA). */
  static void env(List<MapValue> env, String path, List<FieldError> errs) {
    for (int i = 0; i < env.size(); i++) {
      MapValue ev = env.get(i);
      String at = index(path, i);
      String name = str(ev, "name");
      if (name.isEmpty()) {
        errs.add(FieldError.required(at + ".name", ""));
      } else {
        relaxedEnvName(name, at + ".name", errs);
      }
      if (ev.getOrNull("valueFrom") instanceof MapValue from) {
        valueFrom(from, !str(ev, "value").isEmpty(), at + ".valueFrom", errs);
      }
    }
  }

  private static void relaxedEnvName(String name, String path, List<FieldError> errs) {
    for (int i = 0; i < name.length(); i++) {
      char c = name.charAt(i);
      if (c < 0x20 || c > 0x7e || c == '=') {
        errs.add(FieldError.invalid(path, Value.of(name), "a valid environment variable name"
            + " must consist only of printable ASCII characters other than '='"));
        return;
      }
    }
  }

  private static void valueFrom(MapValue from, boolean hasValue, String path,
      List<FieldError> errs) {
    int sources = 0;
    if (from.getOrNull("fieldRef") instanceof MapValue f) {
      sources++;
      fieldRef(f, path + ".fieldRef", errs);
    }
    if (from.getOrNull("resourceFieldRef") instanceof MapValue r) {
      sources++;
      String resource = str(r, "resource");
      if (resource.isEmpty()) {
        errs.add(FieldError.required(path + ".resourceFieldRef.resource", ""));
      } else if (!RESOURCE_FIELD_PATHS.contains(resource)
          && !resource.startsWith("requests.hugepages-")
          && !resource.startsWith("limits.hugepages-")) {
        errs.add(FieldError.notSupported(path + ".resourceFieldRef.resource", Value.of(resource),
            RESOURCE_FIELD_PATHS));
      }
    }
    for (String ref : List.of("configMapKeyRef", "secretKeyRef")) {
      if (from.getOrNull(ref) instanceof MapValue k) {
        sources++;
        keySelector(k, path + "." + ref, errs);
      }
    }
    if (sources == 0) {
      errs.add(FieldError.invalid(path, Value.of(""), "must specify one of: `fieldRef`,"
          + " `resourceFieldRef`, `configMapKeyRef` or `secretKeyRef`"));
    } else if (hasValue) {
      errs.add(FieldError.invalid(path, Value.of(""),
          "may not be specified when `value` is not empty"));
    } else if (sources > 1) {
      errs.add(FieldError.invalid(path, Value.of(""),
          "may not have more than one field specified at a time"));
    }
  }

  /** {@code validateObjectFieldSelector} for environment variables. */
  private static void fieldRef(MapValue f, String path, List<FieldError> errs) {
    String apiVersion = str(f, "apiVersion");
    String fieldPath = str(f, "fieldPath");
    if (apiVersion.isEmpty()) {
      errs.add(FieldError.required(path + ".apiVersion", ""));
      return;
    }
    if (fieldPath.isEmpty()) {
      errs.add(FieldError.required(path + ".fieldPath", ""));
      return;
    }
    String[] sub = subscripted(fieldPath);
    String error = null;
    if (!apiVersion.equals("v1")) {
      error = "unsupported pod version: " + apiVersion;
    } else if (sub != null && !sub[0].equals("metadata.annotations")
        && !sub[0].equals("metadata.labels")) {
      error = "field label does not support subscript: " + fieldPath;
    } else if (sub == null && !DOWNWARD_LABELS.contains(fieldPath)) {
      error = "field label not supported: " + fieldPath;
    }
    if (error != null) {
      errs.add(FieldError.invalid(path + ".fieldPath", Value.of(fieldPath),
          "error converting fieldPath: " + error));
      return;
    }
    String internal = fieldPath.equals("spec.host") ? "spec.nodeName" : fieldPath;
    if (sub != null) {
      String key = sub[0].equals("metadata.annotations")
          ? sub[1].toLowerCase(java.util.Locale.ROOT) : sub[1];
      for (String msg : MetaValidation.qualifiedName(key)) {
        errs.add(FieldError.invalid(path, Value.of(key), msg));
      }
    } else if (!ENV_FIELD_PATHS.contains(internal)) {
      errs.add(FieldError.notSupported(path + ".fieldPath", Value.of(internal),
          ENV_FIELD_PATHS));
    }
  }

  // fieldpath.SplitMaybeSubscriptedPath: "metadata.labels['key']"
  private static String[] subscripted(String fieldPath) {
    if (!fieldPath.endsWith("']")) {
      return null;
    }
    int open = fieldPath.indexOf("['");
    return open < 0 ? null : new String[] {fieldPath.substring(0, open),
        fieldPath.substring(open + 2, fieldPath.length() - 2)};
  }

  private static void keySelector(MapValue k, String path, List<FieldError> errs) {
    String name = str(k, "name");
    for (String msg : MetaValidation.dns1123Subdomain(name)) {
      errs.add(FieldError.invalid(path + ".name", Value.of(name), msg));
    }
    String key = str(k, "key");
    if (key.isEmpty()) {
      errs.add(FieldError.required(path + ".key", ""));
    } else {
      configMapKey(key, path + ".key", errs);
    }
  }

  static void configMapKey(String key, String path, List<FieldError> errs) {
    if (key.length() > 253) {
      errs.add(FieldError.invalid(path, Value.of(key), "must be no more than 253 characters"));
    }
    if (!key.matches("[-._a-zA-Z0-9]+")) {
      errs.add(FieldError.invalid(path, Value.of(key), MetaValidation.regexError(
          "a valid config key must consist of alphanumeric characters, '-', '_' or '.'",
          "[-._a-zA-Z0-9]+", "key.name", "KEY_NAME", "key-name")));
    }
    if (key.equals(".")) {
      errs.add(FieldError.invalid(path, Value.of(key), "must not be '.'"));
    } else if (key.equals("..")) {
      errs.add(FieldError.invalid(path, Value.of(key), "must not be '..'"));
    } else if (key.startsWith("..")) {
      errs.add(FieldError.invalid(path, Value.of(key), "must not start with '..'"));
    }
  }

  /** {@code ValidateEnvFrom}: its errors about the source name the list, as kube's do. */
  static void envFrom(List<MapValue> envFrom, String path, List<FieldError> errs) {
    for (int i = 0; i < envFrom.size(); i++) {
      MapValue ev = envFrom.get(i);
      String at = index(path, i);
      String prefix = str(ev, "prefix");
      if (!prefix.isEmpty()) {
        relaxedEnvName(prefix, at + ".prefix", errs);
      }
      int sources = 0;
      for (String ref : List.of("configMapRef", "secretRef")) {
        if (ev.getOrNull(ref) instanceof MapValue r) {
          sources++;
          String name = str(r, "name");
          if (name.isEmpty()) {
            errs.add(FieldError.required(at + "." + ref + ".name", ""));
          } else {
            for (String msg : MetaValidation.dns1123Subdomain(name)) {
              errs.add(FieldError.invalid(at + "." + ref + ".name", Value.of(name), msg));
            }
          }
        }
      }
      if (sources == 0) {
        errs.add(FieldError.invalid(path, Value.of(""),
            "must specify one of: `configMapRef` or `secretRef`"));
      } else if (sources > 1) {
        errs.add(FieldError.invalid(path, Value.of(""),
            "may not have more than one field specified at a time"));
      }
    }
  }

  // --- volume mounts -------------------------------------------------------------------------

  /**
   * The sub-path, propagation and recursive read-only rules of {@code ValidateVolumeMounts};
   * kube names the list, not the mount, in the paths of the first three.
   */
  static void mount(MapValue m, String listPath, String at, MapValue container,
      Map<String, MapValue> volumes, List<FieldError> errs) {
    String subPath = str(m, "subPath");
    String subPathExpr = str(m, "subPathExpr");
    MapValue volume = volumes.get(str(m, "name"));
    if (volume != null && volume.getOrNull("image") instanceof MapValue) {
      if (!subPath.isEmpty()) {
        errs.add(FieldError.invalid(at + ".subPath", Value.of(subPath),
            "not allowed in image volume sources"));
      }
      if (!subPathExpr.isEmpty()) {
        errs.add(FieldError.invalid(at + ".subPathExpr", Value.of(subPathExpr),
            "not allowed in image volume sources"));
      }
    }
    if (!subPath.isEmpty()) {
      localDescendingPath(subPath, listPath + ".subPath", errs);
    }
    if (!subPathExpr.isEmpty()) {
      if (!subPath.isEmpty()) {
        errs.add(FieldError.invalid(at + ".subPathExpr", Value.of(subPathExpr),
            "subPathExpr and subPath are mutually exclusive"));
      }
      localDescendingPath(subPathExpr, listPath + ".subPathExpr", errs);
    }
    String propagation = str(m, "mountPropagation");
    if (m.getOrNull("mountPropagation") instanceof StringValue) {
      List<String> supported = List.of("Bidirectional", "HostToContainer", "None");
      if (!supported.contains(propagation)) {
        errs.add(FieldError.notSupported(listPath + ".mountPropagation", Value.of(propagation),
            supported));
      }
      boolean privileged = Nested.bool(container, "securityContext", "privileged");
      if (propagation.equals("Bidirectional") && !privileged) {
        errs.add(FieldError.forbidden(listPath + ".mountPropagation",
            "Bidirectional mount propagation is available only to privileged containers"));
      }
    }
    if (m.getOrNull("recursiveReadOnly") instanceof StringValue rro) {
      String rroPath = listPath + ".recursiveReadOnly";
      switch (rro.value()) {
        case "Disabled" -> { }
        case "Enabled", "IfPossible" -> {
          if (!Nested.bool(m, "readOnly")) {
            errs.add(FieldError.forbidden(rroPath, "may only be specified when readOnly is true"));
          }
          if (!propagation.isEmpty() && !propagation.equals("None")) {
            errs.add(FieldError.forbidden(rroPath,
                "may only be specified when mountPropagation is None or not specified"));
          }
        }
        default -> errs.add(FieldError.notSupported(rroPath, rro,
            List.of("Disabled", "Enabled", "IfPossible")));
      }
    }
  }

  private static final String FILE_MODE =
      "must be a number between 0 and 0777 (octal), both inclusive";
  private static final List<String> HOST_PATH_TYPES = List.of("", "BlockDevice",
      "CharDevice", "Directory", "DirectoryOrCreate", "File", "FileOrCreate", "Socket");

  /**
   * The checks of {@code validateVolumeSource} for the sources pods use most: empty dirs, host
   * paths, secrets, config maps, claims, NFS, the downward API, projections and images (the
   * cloud and legacy storage plugins' own fields are not checked).
   */
  static void volumeSource(String kind, Value source, String path, boolean resourceIsPod,
      List<FieldError> errs) {
    MapValue s = source instanceof MapValue m ? m : MapValue.empty();
    switch (kind) {
      case "emptyDir" -> {
        if (s.getOrNull("sizeLimit") != null && Quantity.parse(KubeValidation.quantityString(
            s.getOrNull("sizeLimit"))).map(Quantity::isNegative).orElse(false)) {
          errs.add(FieldError.forbidden(path + ".sizeLimit",
              "SizeLimit field must be a valid resource quantity"));
        }
      }
      case "hostPath" -> {
        String p = str(s, "path");
        if (p.isEmpty()) {
          errs.add(FieldError.required(path + ".path", ""));
          return;
        }
        noBacksteps(p, path + ".path", errs);
        if (s.getOrNull("type") instanceof StringValue t && !HOST_PATH_TYPES.contains(t.value())) {
          errs.add(FieldError.notSupported(path + ".type", t, HOST_PATH_TYPES));
        }
      }
      case "secret", "configMap" -> {
        String nameKey = kind.equals("secret") ? "secretName" : "name";
        if (str(s, nameKey).isEmpty()) {
          errs.add(FieldError.required(path + "." + nameKey, ""));
        }
        fileMode(s.getOrNull("defaultMode"), path + ".defaultMode", errs);
        List<MapValue> items = items(s.getOrNull("items"));
        for (int i = 0; i < items.size(); i++) {
          keyToPath(items.get(i), index(path + ".items", i), errs);
        }
      }
      case "persistentVolumeClaim" -> {
        if (str(s, "claimName").isEmpty()) {
          errs.add(FieldError.required(path + ".claimName", ""));
        }
      }
      case "nfs" -> {
        if (str(s, "server").isEmpty()) {
          errs.add(FieldError.required(path + ".server", ""));
        }
        String p = str(s, "path");
        if (p.isEmpty()) {
          errs.add(FieldError.required(path + ".path", ""));
        }
        if (!p.startsWith("/")) {
          errs.add(FieldError.invalid(path + ".path", Value.of(p), "must be an absolute path"));
        }
      }
      case "downwardAPI" -> {
        fileMode(s.getOrNull("defaultMode"), path + ".defaultMode", errs);
        for (MapValue file : items(s.getOrNull("items"))) {
          downwardApiFile(file, path, errs);
        }
      }
      case "projected" -> {
        fileMode(s.getOrNull("defaultMode"), path + ".defaultMode", errs);
        projectionSources(s, path, errs);
      }
      case "image" -> {
        if (resourceIsPod && str(s, "reference").isEmpty()) {
          errs.add(FieldError.required(path + ".reference", ""));
        }
        KubeValidation.requiredEnum(s, "pullPolicy", path + ".pullPolicy",
            List.of("Always", "IfNotPresent", "Never"), errs);
      }
      default -> { }
    }
  }

  private static void fileMode(Value mode, String path, List<FieldError> errs) {
    if (mode instanceof IntegerValue m && (m.value() > 0777 || m.value() < 0)) {
      errs.add(FieldError.invalid(path, m, FILE_MODE));
    }
  }

  /** {@code validateKeyToPath}. */
  private static void keyToPath(MapValue kp, String path, List<FieldError> errs) {
    if (str(kp, "key").isEmpty()) {
      errs.add(FieldError.required(path + ".key", ""));
    }
    String p = str(kp, "path");
    if (p.isEmpty()) {
      errs.add(FieldError.required(path + ".path", ""));
    }
    localNonReservedPath(p, path + ".path", errs);
    fileMode(kp.getOrNull("mode"), path + ".mode", errs);
  }

  /** {@code validateDownwardAPIVolumeFile}: kube names the volume, not the item, in its paths. */
  private static void downwardApiFile(MapValue file, String path, List<FieldError> errs) {
    String p = str(file, "path");
    if (p.isEmpty()) {
      errs.add(FieldError.required(path + ".path", ""));
    }
    localNonReservedPath(p, path + ".path", errs);
    if (file.getOrNull("fieldRef") instanceof MapValue f) {
      volumeFieldRef(f, path + ".fieldRef", errs);
      if (file.getOrNull("resourceFieldRef") instanceof MapValue) {
        errs.add(FieldError.invalid(path, Value.of("resource"),
            "fieldRef and resourceFieldRef can not be specified simultaneously"));
      }
    } else if (file.getOrNull("resourceFieldRef") instanceof MapValue r) {
      String resource = str(r, "resource");
      if (str(r, "containerName").isEmpty()) {
        errs.add(FieldError.required(path + ".resourceFieldRef.containerName", ""));
      } else if (resource.isEmpty()) {
        errs.add(FieldError.required(path + ".resourceFieldRef.resource", ""));
      } else if (!RESOURCE_FIELD_PATHS.contains(resource)
          && !resource.startsWith("requests.hugepages-")
          && !resource.startsWith("limits.hugepages-")) {
        errs.add(FieldError.notSupported(path + ".resourceFieldRef.resource",
            Value.of(resource), RESOURCE_FIELD_PATHS));
      }
    } else {
      errs.add(FieldError.required(path, "one of fieldRef and resourceFieldRef is required"));
    }
    fileMode(file.getOrNull("mode"), path + ".mode", errs);
  }

  // validateObjectFieldSelector with the volume's field paths
  private static void volumeFieldRef(MapValue f, String path, List<FieldError> errs) {
    List<String> allowed = List.of("metadata.annotations", "metadata.labels", "metadata.name",
        "metadata.namespace", "metadata.uid");
    String fieldPath = str(f, "fieldPath");
    if (str(f, "apiVersion").isEmpty()) {
      errs.add(FieldError.required(path + ".apiVersion", ""));
    } else if (fieldPath.isEmpty()) {
      errs.add(FieldError.required(path + ".fieldPath", ""));
    } else if (subscripted(fieldPath) == null && DOWNWARD_LABELS.contains(fieldPath)
        && !allowed.contains(fieldPath)) {
      errs.add(FieldError.notSupported(path + ".fieldPath", Value.of(fieldPath), allowed));
    } else if (subscripted(fieldPath) == null && !DOWNWARD_LABELS.contains(fieldPath)) {
      errs.add(FieldError.invalid(path + ".fieldPath", Value.of(fieldPath),
          "error converting fieldPath: field label not supported: " + fieldPath));
    }
  }

  /** {@code validateProjectionSources}: one source each, paths unique across sources. */
  private static void projectionSources(MapValue projection, String path,
      List<FieldError> errs) {
    Set<String> paths = new HashSet<>();
    List<MapValue> sources = items(projection.getOrNull("sources"));
    for (int i = 0; i < sources.size(); i++) {
      MapValue src = sources.get(i);
      String at = index(path + ".sources", i);
      int kinds = 0;
      for (String kind : List.of("secret", "configMap")) {
        if (!(src.getOrNull(kind) instanceof MapValue s)) {
          continue;
        }
        kinds++;
        if (str(s, "name").isEmpty()) {
          errs.add(FieldError.required(at + "." + kind + ".name", ""));
        }
        List<MapValue> items = items(s.getOrNull("items"));
        for (int k = 0; k < items.size(); k++) {
          keyToPath(items.get(k), index(at + "." + kind + ".items", k), errs);
          String p = str(items.get(k), "path");
          if (!p.isEmpty() && !paths.add(p)) {
            errs.add(FieldError.invalid(path, Value.of(str(s, "name")),
                "conflicting duplicate paths"));
          }
        }
      }
      if (src.getOrNull("downwardAPI") instanceof MapValue d) {
        kinds++;
        for (MapValue file : items(d.getOrNull("items"))) {
          downwardApiFile(file, at + ".downwardAPI", errs);
          String p = str(file, "path");
          if (!p.isEmpty() && !paths.add(p)) {
            errs.add(FieldError.invalid(path, Value.of(p), "conflicting duplicate paths"));
          }
        }
      }
      if (src.getOrNull("serviceAccountToken") instanceof MapValue t) {
        kinds++;
        long seconds = t.getOrNull("expirationSeconds") instanceof IntegerValue e ? e.value() : 0;
        if (seconds < 600) {
          errs.add(FieldError.invalid(at + ".serviceAccountToken.expirationSeconds",
              Value.of(seconds), "may not specify a duration less than 10 minutes"));
        }
        if (seconds > (1L << 32)) {
          errs.add(FieldError.invalid(at + ".serviceAccountToken.expirationSeconds",
              Value.of(seconds), "may not specify a duration larger than 2^32 seconds"));
        }
        String p = str(t, "path");
        if (p.isEmpty()) {
          errs.add(FieldError.required(path + ".path", ""));
        } else {
          localNonReservedPath(p, path + ".path", errs);
        }
      }
      if (src.getOrNull("clusterTrustBundle") instanceof MapValue) {
        kinds++;
      }
      if (src.getOrNull("podCertificate") instanceof MapValue) {
        kinds++;
      }
      if (kinds > 1) {
        errs.add(FieldError.forbidden(at, "may not specify more than 1 volume type per source"));
      }
    }
  }

  /** {@code ValidateLocalNonReservedPath}. */
  static void localNonReservedPath(String p, String path, List<FieldError> errs) {
    int before = errs.size();
    localDescendingPath(p, path, errs);
    boolean backsteps = errs.subList(before, errs.size()).stream()
        .anyMatch(e -> e.detail().equals("must not contain '..'"));
    if (p.startsWith("..") && !p.startsWith("../") && !backsteps) {
      errs.add(FieldError.invalid(path, Value.of(p), "must not start with '..'"));
    }
  }

  private static void noBacksteps(String p, String path, List<FieldError> errs) {
    for (String part : p.replace('\\', '/').split("/", -1)) {
      if (part.equals("..")) {
        errs.add(FieldError.invalid(path, Value.of(p), "must not contain '..'"));
        return;
      }
    }
  }

  /** {@code validateLocalDescendingPath}. */
  static void localDescendingPath(String p, String path, List<FieldError> errs) {
    if (p.startsWith("/")) {
      errs.add(FieldError.invalid(path, Value.of(p), "must be a relative path"));
    }
    for (String part : p.replace('\\', '/').split("/", -1)) {
      if (part.equals("..")) {
        errs.add(FieldError.invalid(path, Value.of(p), "must not contain '..'"));
        break;
      }
    }
  }

  // --- resources -----------------------------------------------------------------------------

  /**
   * {@code validateResourceRequirements} for a container ({@code pod} false) or the pod-level
   * resources: names, non-negative (and for extended resources integer) quantities, requests
   * within limits (equal for resources that cannot be overcommitted), hugepages.
   */
  static void resources(MapValue resources, String path, boolean pod, Set<String> podClaims,
      List<FieldError> errs) {
    MapValue limits = Nested.map(resources, "limits");
    MapValue requests = Nested.map(resources, "requests");
    boolean cpuOrMemory = false;
    boolean hugePages = false;
    for (int i = 0; i < limits.size(); i++) {
      String name = limits.keyAt(i);
      String at = path + ".limits[" + name + "]";
      resourceName(name, at, pod, errs);
      Optional<Quantity> q = Quantity.parse(KubeValidation.quantityString(limits.valueAt(i)));
      q.ifPresent(v -> quantityValue(name, v, at, errs));
      if (isHugePages(name)) {
        hugePages = true;
        q.ifPresent(v -> hugePageValue(name, v, at, errs));
      }
      cpuOrMemory |= name.equals("cpu") || name.equals("memory");
    }
    for (int i = 0; i < requests.size(); i++) {
      String name = requests.keyAt(i);
      String at = path + ".requests[" + name + "]";
      resourceName(name, at, pod, errs);
      Optional<Quantity> q = Quantity.parse(KubeValidation.quantityString(requests.valueAt(i)));
      q.ifPresent(v -> quantityValue(name, v, at, errs));
      Optional<Quantity> limit = Optional.ofNullable(limits.getOrNull(name))
          .flatMap(l -> Quantity.parse(KubeValidation.quantityString(l)));
      if (q.isPresent() && limit.isPresent()) {
        int cmp = q.get().compareTo(limit.get());
        if (cmp != 0 && !overcommitAllowed(name)) {
          errs.add(FieldError.invalid(path + ".requests", Value.of(q.get().toString()),
              "must be equal to " + name + " limit of " + limit.get()));
        } else if (cmp > 0) {
          errs.add(FieldError.invalid(path + ".requests", Value.of(q.get().toString()),
              "must be less than or equal to " + name + " limit of " + limit.get()));
        }
      } else if (!limits.containsKey(name) && !overcommitAllowed(name)) {
        errs.add(FieldError.required(path + ".limits",
            "Limit must be set for non overcommitable resources"));
      }
      if (isHugePages(name)) {
        hugePages = true;
        q.ifPresent(v -> hugePageValue(name, v, at, errs));
      }
      cpuOrMemory |= name.equals("cpu") || name.equals("memory");
    }
    if (!cpuOrMemory && hugePages) {
      errs.add(FieldError.forbidden(path, "HugePages require cpu or memory"));
    }
    claimReferences(items(resources.getOrNull("claims")), podClaims, path + ".claims", errs);
  }

  /** {@code validateResourceClaimNames}: a container's claims name the pod's. */
  private static void claimReferences(List<MapValue> claims, Set<String> podClaims, String path,
      List<FieldError> errs) {
    Set<String> seen = new HashSet<>();
    for (int i = 0; i < claims.size(); i++) {
      String at = index(path, i);
      String name = str(claims.get(i), "name");
      String request = str(claims.get(i), "request");
      if (name.isEmpty()) {
        errs.add(FieldError.required(at, ""));
        continue;
      }
      if (seen.contains(name)) {
        errs.add(FieldError.duplicate(at, Value.of(name)));
      } else {
        String key = name;
        if (!request.isEmpty()) {
          for (String msg : MetaValidation.dns1123Label(request)) {
            errs.add(FieldError.invalid(at + ".request", Value.of(request), msg));
          }
          key += "/" + request;
        }
        if (seen.contains(key)) {
          errs.add(FieldError.duplicate(at, Value.of(key)));
        } else if (request.isEmpty()) {
          for (String k : seen) {
            if (k.startsWith(name + "/")) {
              errs.add(FieldError.duplicate(at, Value.of(name)));
            }
          }
        }
        seen.add(key);
      }
      if (!podClaims.contains(name)) {
        errs.add(new FieldError(FieldError.Type.NOT_FOUND, at, Optional.of(Value.of(name)),
            "must be one of the names in pod.spec.resourceClaims" + (podClaims.isEmpty()
                ? " which is empty" : ": " + String.join(", ", new java.util.TreeSet<>(podClaims)))));
      }
    }
  }

  /**
   * {@code validatePodResourceClaims}: unique DNS-label names, each with one of a claim or a
   * template name; returns the names containers may refer to.
   */
  static Set<String> podResourceClaims(MapValue spec, String path, List<FieldError> errs) {
    List<MapValue> claims = items(spec.getOrNull("resourceClaims"));
    Set<String> gathered = new HashSet<>();
    claims.forEach(c -> {
      if (!str(c, "name").isEmpty()) {
        gathered.add(str(c, "name"));
      }
    });
    Set<String> names = new HashSet<>();
    for (int i = 0; i < claims.size(); i++) {
      MapValue c = claims.get(i);
      String at = index(path, i);
      String name = str(c, "name");
      if (name.isEmpty()) {
        errs.add(FieldError.required(at + ".name", ""));
      } else if (names.contains(name)) {
        errs.add(FieldError.duplicate(at + ".name", Value.of(name)));
      } else {
        for (String msg : MetaValidation.dns1123Label(name)) {
          errs.add(FieldError.invalid(at + ".name", Value.of(name), msg));
        }
        names.add(name);
      }
      Value claim = c.getOrNull("resourceClaimName");
      Value template = c.getOrNull("resourceClaimTemplateName");
      boolean hasClaim = claim instanceof StringValue;
      boolean hasTemplate = template instanceof StringValue;
      // kube passes the internal PodResourceClaim: JSON with Go field names
      String json = "{\"Name\":" + Json.write(Value.of(name)) + ",\"ResourceClaimName\":"
          + (hasClaim ? Json.write(claim) : "null") + ",\"ResourceClaimTemplateName\":"
          + (hasTemplate ? Json.write(template) : "null") + "}";
      if (hasClaim && hasTemplate) {
        errs.add(GroupValidation.invalidGo(at, json, "at most one of `resourceClaimName` or"
            + " `resourceClaimTemplateName` may be specified"));
      }
      if (!hasClaim && !hasTemplate) {
        errs.add(GroupValidation.invalidGo(at, json,
            "must specify one of: `resourceClaimName`, `resourceClaimTemplateName`"));
      }
      for (Value v : new Value[] {claim, template}) {
        if (v instanceof StringValue s) {
          for (String msg : MetaValidation.dns1123Subdomain(s.value())) {
            errs.add(FieldError.invalid(at + "." + (v == claim ? "resourceClaimName"
                : "resourceClaimTemplateName"), s, msg));
          }
        }
      }
    }
    return gathered;
  }

  private static void resourceName(String name, String path, boolean pod, List<FieldError> errs) {
    List<String> msgs = MetaValidation.qualifiedName(name);
    if (!msgs.isEmpty()) {
      msgs.forEach(m -> errs.add(FieldError.invalid(path, Value.of(name), m)));
    } else if (!name.contains("/") && !STANDARD_RESOURCES.contains(name) && !isHugePages(name)) {
      errs.add(FieldError.invalid(path, Value.of(name),
          "must be a standard resource type or fully qualified"));
    }
    if (pod) {
      // validatePodResourceName: only cpu, memory and hugepages at pod level
      if (!name.equals("cpu") && !name.equals("memory") && !isHugePages(name)) {
        errs.add(FieldError.notSupported(path, Value.of(name), List.of("cpu", "memory")));
      }
      return;
    }
    if (!name.contains("/")) {
      if (!name.equals("cpu") && !name.equals("memory") && !name.equals("ephemeral-storage")
          && !isHugePages(name)) {
        errs.add(FieldError.invalid(path, Value.of(name),
            "must be a standard resource for containers"));
      }
    } else if (!isNative(name) && !isExtended(name)) {
      errs.add(FieldError.invalid(path, Value.of(name),
          "doesn't follow extended resource name standard"));
    }
  }

  private static void quantityValue(String name, Quantity q, String path, List<FieldError> errs) {
    GroupRules.nonNegative(errs, path, q);
    if (isExtended(name) && !q.isInteger()) {
      errs.add(FieldError.invalid(path, Value.of(q.toString()), "must be an integer"));
    }
  }

  private static void hugePageValue(String name, Quantity q, String path, List<FieldError> errs) {
    Optional<Quantity> size = Quantity.parse(name.substring("hugepages-".length()));
    boolean divisible = size.isPresent() && size.get().value().signum() > 0
        && size.get().isInteger() && q.value().setScale(0, java.math.RoundingMode.CEILING)
            .remainder(size.get().value()).signum() == 0;
    if (!divisible) {
      errs.add(FieldError.invalid(path, Value.of(q.toString()),
          q + " is not positive integer multiple of " + name));
    }
  }

  static boolean isHugePages(String name) {
    return name.startsWith("hugepages-");
  }

  private static boolean isNative(String name) {
    return !name.contains("/") || name.contains("kubernetes.io/");
  }

  private static boolean isExtended(String name) {
    return !isNative(name) && !name.startsWith("requests.")
        && MetaValidation.qualifiedName("requests." + name).isEmpty();
  }

  private static boolean overcommitAllowed(String name) {
    return isNative(name) && !isHugePages(name);
  }

  /**
   * {@code validatePodResourceConsistency}: pod-level requests cover the containers' summed
   * requests, and no container limit exceeds the pod's.
   */
  static void podResources(MapValue spec, String path, Set<String> podClaims,
      List<FieldError> errs) {
    if (!(spec.getOrNull("resources") instanceof MapValue res)) {
      return;
    }
    if (res.getOrNull("claims") instanceof ListValue) {
      errs.add(FieldError.forbidden(path + ".claims",
          "claims cannot be set for Resources at pod-level"));
    }
    resources(res, path, true, podClaims, errs);
    Map<String, BigDecimal> sum = new java.util.TreeMap<>();
    for (MapValue c : items(spec.getOrNull("containers"))) {
      MapValue req = Nested.map(c, "resources", "requests");
      for (int i = 0; i < req.size(); i++) {
        String name = req.keyAt(i);
        Quantity.parse(KubeValidation.quantityString(req.valueAt(i)))
            .ifPresent(q -> sum.merge(name, q.value(), BigDecimal::add));
      }
    }
    MapValue podRequests = Nested.map(res, "requests");
    for (Map.Entry<String, BigDecimal> e : sum.entrySet()) {
      Quantity pod = Optional.ofNullable(podRequests.getOrNull(e.getKey()))
          .flatMap(v -> Quantity.parse(KubeValidation.quantityString(v)))
          .orElse(new Quantity(BigDecimal.ZERO, Quantity.DECIMAL_SI));
      if (e.getValue().compareTo(pod.value()) > 0) {
        errs.add(FieldError.invalid(path + ".requests[" + e.getKey() + "]",
            Value.of(pod.toString()), "must be greater than or equal to aggregate container"
                + " requests of " + new Quantity(e.getValue(), pod.format())));
      }
    }
    MapValue podLimits = Nested.map(res, "limits");
    List<MapValue> containers = items(spec.getOrNull("containers"));
    for (int i = 0; i < containers.size(); i++) {
      MapValue lim = Nested.map(containers.get(i), "resources", "limits");
      for (int k = 0; k < lim.size(); k++) {
        String name = lim.keyAt(k);
        Optional<Quantity> pod = Optional.ofNullable(podLimits.getOrNull(name))
            .flatMap(v -> Quantity.parse(KubeValidation.quantityString(v)));
        Optional<Quantity> ctr = Quantity.parse(KubeValidation.quantityString(lim.valueAt(k)));
        if (pod.isPresent() && ctr.isPresent() && ctr.get().compareTo(pod.get()) > 0) {
          errs.add(FieldError.invalid(path + ".containers[" + i + "][" + name + "].limits",
              Value.of(ctr.get().toString()),
              "must be less than or equal to pod limits of " + pod.get()));
        }
      }
    }
  }

  // --- probes and lifecycle handlers -----------------------------------------------------------

  /** {@code validateHandler}: exactly one action, each action's own rules. */
  static void handler(MapValue h, List<String> kinds, Long gracePeriod, String path,
      List<FieldError> errs) {
    int handlers = 0;
    for (String kind : kinds) {
      if (!(h.getOrNull(kind) instanceof MapValue action)) {
        continue;
      }
      String at = path + "." + kind;
      if (handlers > 0) {
        errs.add(FieldError.forbidden(at, "may not specify more than 1 handler type"));
        continue;
      }
      handlers++;
      switch (kind) {
        case "exec" -> {
          if (!(action.getOrNull("command") instanceof ListValue l) || l.isEmpty()) {
            errs.add(FieldError.required(at + ".command", ""));
          }
        }
        case "httpGet" -> {
          if (str(action, "path").isEmpty()) {
            errs.add(FieldError.required(at + ".path", ""));
          }
          portNumOrName(action.getOrNull("port"), at + ".port", errs);
          String scheme = str(action, "scheme");
          if (!scheme.equals("HTTP") && !scheme.equals("HTTPS")) {
            errs.add(FieldError.notSupported(at + ".scheme", Value.of(scheme),
                List.of("HTTP", "HTTPS")));
          }
          for (MapValue header : items(action.getOrNull("httpHeaders"))) {
            String name = str(header, "name");
            if (!HTTP_HEADER.matcher(name).matches()) {
              errs.add(FieldError.invalid(at + ".httpHeaders", Value.of(name),
                  MetaValidation.regexError("a valid HTTP header must consist of alphanumeric"
                      + " characters or '-'", "[-A-Za-z0-9]+", "X-Header-Name")));
            }
          }
        }
        case "tcpSocket" -> portNumOrName(action.getOrNull("port"), at + ".port", errs);
        case "grpc" -> portNumOrName(action.getOrNull("port") == null ? Value.of(0L)
            : action.getOrNull("port"), at + ".port", errs);
        case "sleep" -> {
          long seconds = action.getOrNull("seconds") instanceof IntegerValue s ? s.value() : 0;
          if (gracePeriod != null && (seconds < 0 || seconds > gracePeriod)) {
            errs.add(FieldError.invalid(at, Value.of(seconds), "must be non-negative and less"
                + " than terminationGracePeriodSeconds (" + gracePeriod + ")"));
          }
        }
        default -> throw new IllegalStateException("unknown handler " + kind);
      }
    }
    if (handlers == 0) {
      errs.add(FieldError.required(path, "must specify a handler type"));
    }
  }

  /** {@code ValidatePortNumOrName}. */
  static void portNumOrName(Value port, String path, List<FieldError> errs) {
    if (port instanceof StringValue s) {
      for (String msg : KubeValidation.portName(s.value())) {
        errs.add(FieldError.invalid(path, s, msg));
      }
    } else {
      long n = port instanceof IntegerValue i ? i.value() : 0;
      for (String msg : KubeValidation.portNum(n)) {
        errs.add(FieldError.invalid(path, Value.of(n), msg));
      }
    }
  }

  /** {@code validateProbe} with the liveness/startup or readiness extra rule. */
  static void probe(Value probe, String path, String kind, Long gracePeriod,
      List<FieldError> errs) {
    if (!(probe instanceof MapValue p)) {
      return;
    }
    handler(p, List.of("exec", "httpGet", "tcpSocket", "grpc"), gracePeriod, path, errs);
    for (String f : List.of("initialDelaySeconds", "timeoutSeconds", "periodSeconds",
        "successThreshold", "failureThreshold")) {
      KubeValidation.nonNegative(p.getOrNull(f), path + "." + f, errs);
    }
    Value tgps = p.getOrNull("terminationGracePeriodSeconds");
    if (tgps instanceof IntegerValue t && t.value() <= 0) {
      errs.add(FieldError.invalid(path + ".terminationGracePeriodSeconds", t,
          "must be greater than 0"));
    }
    long success = p.getOrNull("successThreshold") instanceof IntegerValue s ? s.value() : 0;
    if (kind.equals("readinessProbe")) {
      if (tgps instanceof IntegerValue t) {
        errs.add(FieldError.invalid(path + ".terminationGracePeriodSeconds", t,
            "must not be set for readinessProbes"));
      }
    } else if (success != 1) {
      errs.add(FieldError.invalid(path + ".successThreshold", Value.of(success), "must be 1"));
    }
  }

  /** {@code validateLifecycle}. */
  static void lifecycle(Value lifecycle, String path, Long gracePeriod, List<FieldError> errs) {
    if (!(lifecycle instanceof MapValue l)) {
      return;
    }
    for (String hook : List.of("postStart", "preStop")) {
      if (l.getOrNull(hook) instanceof MapValue h) {
        handler(h, List.of("exec", "httpGet", "tcpSocket", "sleep"), gracePeriod,
            path + "." + hook, errs);
      }
    }
  }

  /** {@code validateResizePolicy}. */
  static void resizePolicy(List<MapValue> policies, String path, String podRestartPolicy,
      List<FieldError> errs) {
    Set<String> seen = new HashSet<>();
    for (int i = 0; i < policies.size(); i++) {
      MapValue p = policies.get(i);
      String resource = str(p, "resourceName");
      if (!seen.add(resource)) {
        errs.add(FieldError.duplicate(index(path, i), Value.of(resource)));
      }
      if (resource.isEmpty()) {
        errs.add(FieldError.required(path, ""));
      } else if (!resource.equals("cpu") && !resource.equals("memory")) {
        errs.add(FieldError.notSupported(path, Value.of(resource), List.of("cpu", "memory")));
      }
      String policy = str(p, "restartPolicy");
      if (policy.isEmpty()) {
        errs.add(FieldError.required(path, ""));
      } else if (!policy.equals("NotRequired") && !policy.equals("RestartContainer")) {
        errs.add(FieldError.notSupported(path, Value.of(policy),
            List.of("NotRequired", "RestartContainer")));
      }
      if (podRestartPolicy.equals("Never") && !policy.equals("NotRequired")) {
        errs.add(FieldError.invalid(path, Value.of(policy),
            "must be 'NotRequired' when `restartPolicy` is 'Never'"));
      }
    }
  }

  // --- security contexts ---------------------------------------------------------------------

  /** {@code validatePodSpecSecurityContext} (the host namespaces are the spec's in v1). */
  static void podSecurityContext(MapValue spec, String specPath, List<FieldError> errs) {
    if (!(spec.getOrNull("securityContext") instanceof MapValue sc)) {
      return;
    }
    String path = specPath + ".securityContext";
    id(sc, "fsGroup", path, errs);
    id(sc, "runAsUser", path, errs);
    id(sc, "runAsGroup", path, errs);
    List<Value> groups = sc.getOrNull("supplementalGroups") instanceof ListValue l ? l.items()
        : List.of();
    for (int g = 0; g < groups.size(); g++) {
      if (groups.get(g) instanceof IntegerValue gid && (gid.value() < 0
          || gid.value() > Integer.MAX_VALUE)) {
        errs.add(FieldError.invalid(index(path + ".supplementalGroups", g), gid, USER_ID_RANGE));
      }
    }
    if (Nested.bool(spec, "shareProcessNamespace") && Nested.bool(spec, "hostPID")) {
      errs.add(FieldError.invalid(path + ".shareProcessNamespace", Value.of(true),
          "ShareProcessNamespace and HostPID cannot both be enabled"));
    }
    sysctls(items(sc.getOrNull("sysctls")), spec, path + ".sysctls", errs);
    KubeValidation.optionalEnum(sc, "fsGroupChangePolicy", path + ".fsGroupChangePolicy",
        List.of("Always", "OnRootMismatch"), errs);
    seccompProfile(sc.getOrNull("seccompProfile"), path + ".seccompProfile", errs);
    windowsOptions(sc.getOrNull("windowsOptions"), path + ".windowsOptions", errs);
    appArmorProfile(sc.getOrNull("appArmorProfile"), path + ".appArmorProfile", errs);
    KubeValidation.optionalEnum(sc, "supplementalGroupsPolicy",
        path + ".supplementalGroupsPolicy", List.of("Merge", "Strict"), errs);
    KubeValidation.optionalEnum(sc, "seLinuxChangePolicy", path + ".seLinuxChangePolicy",
        List.of("MountOption", "Recursive"), errs);
  }

  private static void id(MapValue sc, String key, String path, List<FieldError> errs) {
    if (sc.getOrNull(key) instanceof IntegerValue i && (i.value() < 0
        || i.value() > Integer.MAX_VALUE)) {
      errs.add(FieldError.invalid(path + "." + key, i, USER_ID_RANGE));
    }
  }

  private static void sysctls(List<MapValue> sysctls, MapValue spec, String path,
      List<FieldError> errs) {
    Set<String> names = new HashSet<>();
    for (int i = 0; i < sysctls.size(); i++) {
      String name = str(sysctls.get(i), "name");
      String at = index(path, i) + ".name";
      if (name.isEmpty()) {
        errs.add(FieldError.required(at, ""));
      } else if (name.length() > 253 || !SYSCTL.matcher(name).matches()) {
        errs.add(FieldError.invalid(at, Value.of(name),
            "must have at most 253 characters and match regex " + SYSCTL_REGEX));
      } else if (names.contains(name)) {
        errs.add(FieldError.duplicate(at, Value.of(name)));
      }
      // component-helpers' sysctl.GetNamespace: slashes are separators too
      String normalized = name.replace('/', '.');
      boolean net = normalized.startsWith("net.");
      boolean ipc = IPC_SYSCTLS.contains(normalized) || normalized.startsWith("fs.mqueue.");
      if (Nested.bool(spec, "hostNetwork") && net) {
        errs.add(FieldError.invalid(at, Value.of(name),
            "may not be specified when 'hostNetwork' is true"));
      } else if (Nested.bool(spec, "hostIPC") && ipc) {
        errs.add(FieldError.invalid(at, Value.of(name),
            "may not be specified when 'hostIPC' is true"));
      }
      names.add(name);
    }
  }

  /** {@code validateSeccompProfileField}. */
  static void seccompProfile(Value profile, String path, List<FieldError> errs) {
    if (!(profile instanceof MapValue sp)) {
      return;
    }
    String type = str(sp, "type");
    List<String> types = List.of("Localhost", "RuntimeDefault", "Unconfined");
    if (type.isEmpty()) {
      errs.add(FieldError.required(path + ".type", "type is required when seccompProfile is set"));
    } else if (!types.contains(type)) {
      errs.add(FieldError.notSupported(path + ".type", Value.of(type), types));
    }
    Value local = sp.getOrNull("localhostProfile");
    if (type.equals("Localhost")) {
      if (!(local instanceof StringValue s)) {
        errs.add(FieldError.required(path + ".localhostProfile",
            "must be set when seccomp type is Localhost"));
      } else {
        localDescendingPath(s.value(), path + ".localhostProfile", errs);
      }
    } else if (local instanceof StringValue s) {
      // kube passes the internal profile struct: JSON with Go field names
      errs.add(GroupValidation.invalidGo(path + ".localhostProfile", "{\"Type\":"
          + Json.write(Value.of(type)) + ",\"LocalhostProfile\":" + Json.write(s) + "}",
          "can only be set when seccomp type is Localhost"));
    }
  }

  /** {@code ValidateAppArmorProfileField}. */
  static void appArmorProfile(Value profile, String path, List<FieldError> errs) {
    if (!(profile instanceof MapValue p)) {
      return;
    }
    Value local = p.getOrNull("localhostProfile");
    switch (str(p, "type")) {
      case "Localhost" -> {
        if (!(local instanceof StringValue s)) {
          errs.add(FieldError.required(path + ".localhostProfile",
              "must be set when AppArmor type is Localhost"));
        } else {
          if (!s.value().strip().equals(s.value())) {
            errs.add(FieldError.invalid(path + ".localhostProfile", s,
                "must not be padded with whitespace"));
          } else if (s.value().isEmpty()) {
            errs.add(FieldError.required(path + ".localhostProfile",
                "must be set when AppArmor type is Localhost"));
          }
          if (s.value().length() > 4095) {
            errs.add(new FieldError(FieldError.Type.TOO_LONG, path + ".localhostProfile",
                Optional.empty(), "may not be more than 4095 bytes"));
          }
        }
      }
      case "RuntimeDefault", "Unconfined" -> {
        if (local instanceof StringValue s) {
          errs.add(FieldError.invalid(path + ".localhostProfile", s,
              "can only be set when AppArmor type is Localhost"));
        }
      }
      case "" -> errs.add(FieldError.required(path + ".type",
          "type is required when appArmorProfile is set"));
      default -> errs.add(FieldError.notSupported(path + ".type", Value.of(str(p, "type")),
          List.of("Localhost", "RuntimeDefault", "Unconfined")));
    }
  }

  /** {@code validateWindowsSecurityContextOptions}. */
  static void windowsOptions(Value options, String path, List<FieldError> errs) {
    if (!(options instanceof MapValue w)) {
      return;
    }
    if (w.getOrNull("gmsaCredentialSpecName") instanceof StringValue n) {
      for (String msg : MetaValidation.dns1123Subdomain(n.value())) {
        errs.add(FieldError.invalid(path + ".gmsaCredentialSpecName", n, msg));
      }
    }
    if (w.getOrNull("gmsaCredentialSpec") instanceof StringValue s) {
      if (s.value().isEmpty()) {
        errs.add(FieldError.invalid(path + ".gmsaCredentialSpec", s,
            "gmsaCredentialSpec cannot be an empty string"));
      } else if (s.value().getBytes(java.nio.charset.StandardCharsets.UTF_8).length
          > 64 * 1024) {
        errs.add(FieldError.invalid(path + ".gmsaCredentialSpec", s,
            "gmsaCredentialSpec size must be under 64 KiB"));
      }
    }
    if (w.getOrNull("runAsUserName") instanceof StringValue u) {
      runAsUserName(u, path + ".runAsUserName", errs);
    }
  }

  private static void runAsUserName(StringValue u, String path, List<FieldError> errs) {
    String v = u.value();
    String[] parts = v.split("\\\\", -1);
    if (v.isEmpty()) {
      errs.add(FieldError.invalid(path, u, "runAsUserName cannot be an empty string"));
      return;
    }
    if (CONTROL.matcher(v).find()) {
      errs.add(FieldError.invalid(path, u, "runAsUserName cannot contain control characters"));
      return;
    }
    if (parts.length > 2) {
      errs.add(FieldError.invalid(path, u,
          "runAsUserName cannot contain more than one backslash"));
      return;
    }
    String domain = parts.length == 2 ? parts[0] : "";
    String user = parts.length == 2 ? parts[1] : parts[0];
    if (domain.length() >= 256) {
      errs.add(FieldError.invalid(path, u,
          "runAsUserName's Domain length must be under 256 characters"));
    }
    if (parts.length == 2 && !(NETBIOS.matcher(domain).matches()
        || WINDOWS_DNS.matcher(domain).matches())) {
      errs.add(FieldError.invalid(path, u,
          "runAsUserName's Domain doesn't match the NetBios nor the DNS format"));
    }
    if (user.isEmpty()) {
      errs.add(FieldError.invalid(path, u, "runAsUserName's User cannot be empty"));
    } else if (user.length() > 104) {
      errs.add(FieldError.invalid(path, u,
          "runAsUserName's User length must not be longer than 104 characters"));
    }
    if (USER_DOTS_SPACES.matcher(user).matches()) {
      errs.add(FieldError.invalid(path, u,
          "runAsUserName's User cannot contain only periods or spaces"));
    }
    if (USER_BAD_CHARS.matcher(user).find()) {
      errs.add(FieldError.invalid(path, u, "runAsUserName's User cannot contain the following"
          + " characters: \"/\\:;|=,+*?<>@[]"));
    }
  }

  /** {@code ValidateSecurityContext} of a container. */
  static void containerSecurityContext(Value context, String path, boolean hostUsers,
      List<FieldError> errs) {
    if (!(context instanceof MapValue sc)) {
      return;
    }
    id(sc, "runAsUser", path, errs);
    id(sc, "runAsGroup", path, errs);
    if (sc.getOrNull("procMount") instanceof StringValue pm) {
      if (!pm.value().equals("Default") && !pm.value().equals("Unmasked")) {
        errs.add(FieldError.notSupported(path + ".procMount", pm,
            List.of("Default", "Unmasked")));
      }
      if (hostUsers && pm.value().equals("Unmasked")) {
        errs.add(FieldError.invalid(path + ".procMount", pm,
            "`hostUsers` must be false to use `Unmasked`"));
      }
    }
    seccompProfile(sc.getOrNull("seccompProfile"), path + ".seccompProfile", errs);
    if (sc.getOrNull("allowPrivilegeEscalation") instanceof BooleanValue ape && !ape.value()) {
      // kube passes the whole internal security context
      if (Nested.bool(sc, "privileged")) {
        errs.add(GroupValidation.invalidGo(path, internalSecurityContext(sc),
            "cannot set `allowPrivilegeEscalation` to false and `privileged` to true"));
      }
      for (String cap : Meta.stringList(Nested.getOrNull(sc, "capabilities", "add"))) {
        if (cap.equals("CAP_SYS_ADMIN")) {
          errs.add(GroupValidation.invalidGo(path, internalSecurityContext(sc), "cannot set"
              + " `allowPrivilegeEscalation` to false and `capabilities.Add` CAP_SYS_ADMIN"));
        }
      }
    }
    windowsOptions(sc.getOrNull("windowsOptions"), path + ".windowsOptions", errs);
    appArmorProfile(sc.getOrNull("appArmorProfile"), path + ".appArmorProfile", errs);
  }

  // the JSON of kube's internal core.SecurityContext: Go field names in declaration order
  private static String internalSecurityContext(MapValue sc) {
    StringBuilder sb = new StringBuilder("{");
    String[][] fields = {{"Capabilities", "capabilities", "Add:add", "Drop:drop"},
        {"Privileged", "privileged"},
        {"SELinuxOptions", "seLinuxOptions", "User:user", "Role:role", "Type:type",
            "Level:level"},
        {"WindowsOptions", "windowsOptions", "GMSACredentialSpecName:gmsaCredentialSpecName",
            "GMSACredentialSpec:gmsaCredentialSpec", "RunAsUserName:runAsUserName",
            "HostProcess:hostProcess"},
        {"RunAsUser", "runAsUser"}, {"RunAsGroup", "runAsGroup"},
        {"RunAsNonRoot", "runAsNonRoot"}, {"ReadOnlyRootFilesystem", "readOnlyRootFilesystem"},
        {"AllowPrivilegeEscalation", "allowPrivilegeEscalation"}, {"ProcMount", "procMount"},
        {"SeccompProfile", "seccompProfile", "Type:type", "LocalhostProfile:localhostProfile"},
        {"AppArmorProfile", "appArmorProfile", "Type:type", "LocalhostProfile:localhostProfile"}};
    for (int i = 0; i < fields.length; i++) {
      String[] f = fields[i];
      sb.append(i == 0 ? "" : ",").append('"').append(f[0]).append("\":");
      Value v = sc.getOrNull(f[1]);
      if (v == null || v.isNull()) {
        sb.append("null");
      } else if (f.length == 2) {
        sb.append(Json.write(v));
      } else {
        sb.append('{');
        for (int k = 2; k < f.length; k++) {
          String[] names = f[k].split(":");
          Value sub = Nested.getOrNull(v, names[1]);
          boolean pointerOrSlice = !f[0].equals("SELinuxOptions")
              && !(f[0].endsWith("Profile") && names[0].equals("Type"));
          sb.append(k == 2 ? "" : ",").append('"').append(names[0]).append("\":")
              .append(sub != null ? Json.write(sub) : pointerOrSlice ? "null" : "\"\"");
        }
        sb.append('}');
      }
    }
    return sb.append('}').toString();
  }

  /** {@code validateHostUsers}: a pod in its own user namespace shares no host namespace. */
  static void hostUsers(MapValue spec, String path, List<FieldError> errs) {
    if (!(spec.getOrNull("hostUsers") instanceof BooleanValue b)
        || b.value()) {
      return;
    }
    // kube names the last two with capitals
    for (String[] f : new String[][] {{"hostNetwork", "hostNetwork"}, {"hostPID", "HostPID"},
        {"hostIPC", "HostIPC"}}) {
      if (Nested.bool(spec, f[0])) {
        errs.add(FieldError.forbidden(path + "." + f[1], "when `pod.Spec.HostUsers` is false"));
      }
    }
  }

  /** Whether the pod shares the host's user namespace (the default). */
  static boolean hostUsers(MapValue spec) {
    return !(spec.getOrNull("hostUsers") instanceof BooleanValue b)
        || b.value();
  }

  // --- affinity ------------------------------------------------------------------------------

  /** {@code validateAffinity}. */
  static void affinity(Value affinity, String path, List<FieldError> errs) {
    if (!(affinity instanceof MapValue a)) {
      return;
    }
    if (a.getOrNull("nodeAffinity") instanceof MapValue na) {
      String at = path + ".nodeAffinity";
      if (na.getOrNull("requiredDuringSchedulingIgnoredDuringExecution") instanceof MapValue r) {
        nodeSelector(r, at + ".requiredDuringSchedulingIgnoredDuringExecution", errs);
      }
      List<MapValue> preferred =
          items(na.getOrNull("preferredDuringSchedulingIgnoredDuringExecution"));
      for (int i = 0; i < preferred.size(); i++) {
        String p = index(at + ".preferredDuringSchedulingIgnoredDuringExecution", i);
        weight(preferred.get(i), p, errs);
        nodeSelectorTerm(Nested.map(preferred.get(i), "preference"), p + ".preference", true,
            errs);
      }
    }
    for (String kind : List.of("podAffinity", "podAntiAffinity")) {
      if (!(a.getOrNull(kind) instanceof MapValue pa)) {
        continue;
      }
      String at = path + "." + kind;
      List<MapValue> required =
          items(pa.getOrNull("requiredDuringSchedulingIgnoredDuringExecution"));
      for (int i = 0; i < required.size(); i++) {
        podAffinityTerm(required.get(i),
            index(at + ".requiredDuringSchedulingIgnoredDuringExecution", i), errs);
      }
      List<MapValue> preferred =
          items(pa.getOrNull("preferredDuringSchedulingIgnoredDuringExecution"));
      for (int i = 0; i < preferred.size(); i++) {
        String p = index(at + ".preferredDuringSchedulingIgnoredDuringExecution", i);
        weight(preferred.get(i), p, errs);
        podAffinityTerm(Nested.map(preferred.get(i), "podAffinityTerm"), p + ".podAffinityTerm",
            errs);
      }
    }
  }

  private static void weight(MapValue term, String path, List<FieldError> errs) {
    long w = term.getOrNull("weight") instanceof IntegerValue i ? i.value() : 0;
    if (w <= 0 || w > 100) {
      errs.add(FieldError.invalid(path + ".weight", Value.of(w), "must be in the range 1-100"));
    }
  }

  /** {@code ValidateNodeSelector}. */
  static void nodeSelector(MapValue selector, String path, List<FieldError> errs) {
    List<MapValue> terms = items(selector.getOrNull("nodeSelectorTerms"));
    if (terms.isEmpty()) {
      errs.add(FieldError.required(path + ".nodeSelectorTerms",
          "must have at least one node selector term"));
      return;
    }
    for (int i = 0; i < terms.size(); i++) {
      nodeSelectorTerm(terms.get(i), index(path + ".nodeSelectorTerms", i), false, errs);
    }
  }

  private static void nodeSelectorTerm(MapValue term, String path, boolean allowInvalidValues,
      List<FieldError> errs) {
    List<MapValue> exprs = items(term.getOrNull("matchExpressions"));
    for (int j = 0; j < exprs.size(); j++) {
      nodeSelectorRequirement(exprs.get(j), index(path + ".matchExpressions", j),
          allowInvalidValues, errs);
    }
    List<MapValue> fields = items(term.getOrNull("matchFields"));
    for (int j = 0; j < fields.size(); j++) {
      MapValue req = fields.get(j);
      String at = index(path + ".matchFields", j);
      List<String> values = Meta.stringList(req.getOrNull("values"));
      String op = str(req, "operator");
      if (op.equals("In") || op.equals("NotIn")) {
        if (values.size() != 1) {
          errs.add(FieldError.required(at + ".values", "must be only one value when `operator`"
              + " is 'In' or 'NotIn' for node field selector"));
        }
      } else {
        errs.add(FieldError.invalid(at + ".operator", Value.of(op),
            "not a valid selector operator"));
      }
      String key = str(req, "key");
      if (!key.equals("metadata.name")) {
        errs.add(FieldError.invalid(at + ".key", Value.of(key),
            "not a valid field selector key"));
      } else {
        for (int k = 0; k < values.size(); k++) {
          for (String msg : MetaValidation.dns1123Subdomain(values.get(k))) {
            errs.add(FieldError.invalid(index(at + ".values", k), Value.of(values.get(k)), msg));
          }
        }
      }
    }
  }

  private static void nodeSelectorRequirement(MapValue req, String path,
      boolean allowInvalidValues, List<FieldError> errs) {
    List<String> values = Meta.stringList(req.getOrNull("values"));
    String op = str(req, "operator");
    switch (op) {
      case "In", "NotIn" -> {
        if (values.isEmpty()) {
          errs.add(FieldError.required(path + ".values",
              "must be specified when `operator` is 'In' or 'NotIn'"));
        }
      }
      case "Exists", "DoesNotExist" -> {
        if (!values.isEmpty()) {
          errs.add(FieldError.forbidden(path + ".values",
              "may not be specified when `operator` is 'Exists' or 'DoesNotExist'"));
        }
      }
      case "Gt", "Lt" -> {
        if (values.size() != 1) {
          errs.add(FieldError.required(path + ".values",
              "must be specified single value when `operator` is 'Lt' or 'Gt'"));
        }
      }
      default -> errs.add(FieldError.invalid(path + ".operator", Value.of(op),
          "not a valid selector operator"));
    }
    String key = str(req, "key");
    for (String msg : MetaValidation.qualifiedName(key)) {
      errs.add(FieldError.invalid(path + ".key", Value.of(key), msg));
    }
    for (int i = 0; i < values.size() && !allowInvalidValues; i++) {
      for (String msg : MetaValidation.labelValue(values.get(i))) {
        errs.add(FieldError.invalid(index(path + ".values", i), Value.of(values.get(i)), msg));
      }
    }
  }

  private static void podAffinityTerm(MapValue term, String path, List<FieldError> errs) {
    KubeValidation.labelSelector(term.getOrNull("labelSelector"), path + ".labelSelector", errs);
    KubeValidation.labelSelector(term.getOrNull("namespaceSelector"),
        path + ".namespaceSelector", errs);
    for (String ns : Meta.stringList(term.getOrNull("namespaces"))) {
      // kube names the list "namespace"
      for (String msg : MetaValidation.dns1123Label(ns)) {
        errs.add(FieldError.invalid(path + ".namespace", Value.of(ns), msg));
      }
    }
    boolean hasSelector = term.getOrNull("labelSelector") instanceof MapValue;
    for (String keys : List.of("matchLabelKeys", "mismatchLabelKeys")) {
      List<String> list = Meta.stringList(term.getOrNull(keys));
      if (list.isEmpty()) {
        continue;
      }
      if (!hasSelector) {
        errs.add(FieldError.forbidden(path + "." + keys,
            "must not be specified when labelSelector is not set"));
        continue;
      }
      for (int i = 0; i < list.size(); i++) {
        for (String msg : MetaValidation.qualifiedName(list.get(i))) {
          errs.add(FieldError.invalid(index(path + "." + keys, i), Value.of(list.get(i)), msg));
        }
      }
    }
    Set<String> mismatch = new HashSet<>(Meta.stringList(term.getOrNull("mismatchLabelKeys")));
    List<String> match = Meta.stringList(term.getOrNull("matchLabelKeys"));
    for (int i = 0; i < match.size(); i++) {
      if (mismatch.contains(match.get(i))) {
        errs.add(FieldError.invalid(index(path + ".matchLabelKeys", i), Value.of(match.get(i)),
            "exists in both matchLabelKeys and mismatchLabelKeys"));
      }
    }
    String topologyKey = str(term, "topologyKey");
    if (topologyKey.isEmpty()) {
      errs.add(FieldError.required(path + ".topologyKey", "can not be empty"));
    }
    for (String msg : MetaValidation.qualifiedName(topologyKey)) {
      errs.add(FieldError.invalid(path + ".topologyKey", Value.of(topologyKey), msg));
    }
  }

  // --- topology spread, DNS, aliases, gates, OS --------------------------------------------------

  /** {@code validateTopologySpreadConstraints}. */
  static void topologySpread(List<MapValue> constraints, String path, List<FieldError> errs) {
    for (int i = 0; i < constraints.size(); i++) {
      MapValue c = constraints.get(i);
      String at = index(path, i);
      long maxSkew = c.getOrNull("maxSkew") instanceof IntegerValue m ? m.value() : 0;
      if (maxSkew <= 0) {
        errs.add(FieldError.invalid(at + ".maxSkew", Value.of(maxSkew), NOT_POSITIVE));
      }
      String key = str(c, "topologyKey");
      if (key.isEmpty()) {
        errs.add(FieldError.required(at + ".topologyKey", "can not be empty"));
      }
      String when = str(c, "whenUnsatisfiable");
      if (!when.equals("DoNotSchedule") && !when.equals("ScheduleAnyway")) {
        errs.add(FieldError.notSupported(at + ".whenUnsatisfiable", Value.of(when),
            List.of("DoNotSchedule", "ScheduleAnyway")));
      }
      for (int j = i + 1; j < constraints.size(); j++) {
        if (key.equals(str(constraints.get(j), "topologyKey"))
            && when.equals(str(constraints.get(j), "whenUnsatisfiable"))) {
          errs.add(FieldError.duplicate(at + ".{topologyKey, whenUnsatisfiable}",
              Value.of("{" + key + ", " + when + "}")));
          break;
        }
      }
      if (c.getOrNull("minDomains") instanceof IntegerValue md) {
        if (md.value() <= 0) {
          errs.add(FieldError.invalid(at + ".minDomains", md, NOT_POSITIVE));
        }
        if (!when.equals("DoNotSchedule")) {
          errs.add(FieldError.invalid(at + ".minDomains", md,
              "can only use minDomains if whenUnsatisfiable=DoNotSchedule, not " + when));
        }
      }
      for (String policy : List.of("nodeAffinityPolicy", "nodeTaintsPolicy")) {
        KubeValidation.optionalEnum(c, policy, at + "." + policy, List.of("Honor", "Ignore"),
            errs);
      }
      List<String> keys = Meta.stringList(c.getOrNull("matchLabelKeys"));
      if (!keys.isEmpty() && !(c.getOrNull("labelSelector") instanceof MapValue)) {
        errs.add(FieldError.forbidden(at + ".matchLabelKeys",
            "must not be specified when labelSelector is not set"));
      }
      for (int k = 0; k < keys.size(); k++) {
        for (String msg : MetaValidation.qualifiedName(keys.get(k))) {
          errs.add(FieldError.invalid(index(at + ".matchLabelKeys", k), Value.of(keys.get(k)),
              msg));
        }
      }
      KubeValidation.labelSelector(c.getOrNull("labelSelector"), at + ".labelSelector", errs);
    }
  }

  /** {@code validatePodDNSConfig} with relaxed search names (GA). */
  static void dnsConfig(MapValue spec, String path, List<FieldError> errs) {
    Value config = spec.getOrNull("dnsConfig");
    if (str(spec, "dnsPolicy").equals("None")) {
      if (!(config instanceof MapValue)) {
        errs.add(FieldError.required(path, "must provide `dnsConfig` when `dnsPolicy` is None"));
        return;
      }
      if (Meta.stringList(Nested.getOrNull(config, "nameservers")).isEmpty()) {
        errs.add(FieldError.required(path + ".nameservers",
            "must provide at least one DNS nameserver when `dnsPolicy` is None"));
        return;
      }
    }
    if (!(config instanceof MapValue c)) {
      return;
    }
    List<String> servers = Meta.stringList(c.getOrNull("nameservers"));
    if (servers.size() > 3) {
      errs.add(FieldError.invalid(path + ".nameservers", c.getOrNull("nameservers"),
          "must not have more than 3 nameservers"));
    }
    for (int i = 0; i < servers.size(); i++) {
      strictIp(servers.get(i), index(path + ".nameservers", i), errs);
    }
    List<String> searches = Meta.stringList(c.getOrNull("searches"));
    if (searches.size() > 32) {
      errs.add(FieldError.invalid(path + ".searches", c.getOrNull("searches"),
          "must not have more than 32 search paths"));
    }
    if (String.join(" ", searches).length() > 2048) {
      errs.add(FieldError.invalid(path + ".searches", c.getOrNull("searches"),
          "must not have more than 2048 characters (including spaces) in the search list"));
    }
    for (int i = 0; i < searches.size(); i++) {
      String s = searches.get(i);
      if (s.equals(".")) {
        continue;
      }
      String trimmed = s.endsWith(".") ? s.substring(0, s.length() - 1) : s;
      for (String msg : subdomainWithUnderscore(trimmed)) {
        errs.add(FieldError.invalid(index(path + ".searches", i), Value.of(trimmed), msg));
      }
    }
    List<MapValue> options = items(c.getOrNull("options"));
    for (int i = 0; i < options.size(); i++) {
      if (str(options.get(i), "name").isEmpty()) {
        errs.add(FieldError.required(index(path + ".options", i), "must not be empty"));
      }
    }
  }

  private static final String LABEL_UNDERSCORE_FMT = "_?[a-z0-9]([-_a-z0-9]*[a-z0-9])?";
  private static final String SUBDOMAIN_UNDERSCORE_FMT =
      LABEL_UNDERSCORE_FMT + "(\\." + LABEL_UNDERSCORE_FMT + ")*";

  // IsDNS1123SubdomainWithUnderscore
  private static List<String> subdomainWithUnderscore(String v) {
    List<String> out = new ArrayList<>();
    if (v.length() > 253) {
      out.add("must be no more than 253 characters");
    }
    if (!v.matches(SUBDOMAIN_UNDERSCORE_FMT)) {
      out.add(MetaValidation.regexError("a lowercase RFC 1123 subdomain must consist of lower"
          + " case alphanumeric characters, '_', '-' or '.', and must start and end with an"
          + " alphanumeric character", SUBDOMAIN_UNDERSCORE_FMT, "example.com"));
    }
    return out;
  }

  /** apimachinery's strict {@code IsValidIP}: parses, no leading zeros, canonical. */
  static void strictIp(String ip, String path, List<FieldError> errs) {
    Optional<byte[]> parsed = GroupRules.parseIp(ip);
    if (parsed.isEmpty()) {
      errs.add(FieldError.invalid(path, Value.of(ip), IpAddresses.INVALID_IP));
      return;
    }
    if (ip.indexOf(':') < 0) {
      for (String part : ip.split("\\.")) {
        if (part.length() > 1 && part.startsWith("0")) {
          errs.add(FieldError.invalid(path, Value.of(ip), "must not have leading 0s"));
          return;
        }
      }
    } else if (ip.contains(".") && ip.toLowerCase(java.util.Locale.ROOT).contains("ffff:")) {
      errs.add(FieldError.invalid(path, Value.of(ip),
          "must not be an IPv4-mapped IPv6 address"));
      return;
    }
    String canonical = io.apiserver4j.core.IpAddresses.format(parsed.get());
    if (!canonical.equals(ip)) {
      errs.add(FieldError.invalid(path, Value.of(ip),
          "must be in canonical form (" + GoStrings.quote(canonical) + ")"));
    }
  }

  /** {@code ValidateHostAliases}. */
  static void hostAliases(List<MapValue> aliases, String path, List<FieldError> errs) {
    for (int i = 0; i < aliases.size(); i++) {
      String at = index(path, i);
      strictIp(str(aliases.get(i), "ip"), at + ".ip", errs);
      List<String> names = Meta.stringList(aliases.get(i).getOrNull("hostnames"));
      for (int j = 0; j < names.size(); j++) {
        for (String msg : MetaValidation.dns1123Subdomain(names.get(j))) {
          errs.add(FieldError.invalid(index(at + ".hostnames", j), Value.of(names.get(j)), msg));
        }
      }
    }
  }

  /** {@code validateReadinessGates} and {@code validateSchedulingGates}. */
  static void gates(MapValue spec, String path, List<FieldError> errs) {
    List<MapValue> readiness = items(spec.getOrNull("readinessGates"));
    for (int i = 0; i < readiness.size(); i++) {
      String type = str(readiness.get(i), "conditionType");
      for (String msg : MetaValidation.qualifiedName(type)) {
        errs.add(FieldError.invalid(index(path + ".readinessGates", i) + ".conditionType",
            Value.of(type), msg));
      }
    }
    List<MapValue> scheduling = items(spec.getOrNull("schedulingGates"));
    Set<String> seen = new HashSet<>();
    for (int i = 0; i < scheduling.size(); i++) {
      String name = str(scheduling.get(i), "name");
      String at = index(path + ".schedulingGates", i);
      for (String msg : MetaValidation.qualifiedName(name)) {
        errs.add(FieldError.invalid(at, Value.of(name), msg));
      }
      if (!seen.add(name)) {
        errs.add(FieldError.duplicate(at, Value.of(name)));
      }
    }
  }

  /** {@code validateOS} and the linux or windows restrictions that follow it. */
  static void os(MapValue spec, String path, List<FieldError> errs) {
    if (!(spec.getOrNull("os") instanceof MapValue os)) {
      return;
    }
    String name = str(os, "name");
    if (name.isEmpty()) {
      errs.add(FieldError.required(path + ".os.name", "cannot be empty"));
      return;
    }
    if (!name.equals("linux") && !name.equals("windows")) {
      errs.add(FieldError.notSupported(path + ".os", Value.of(name),
          List.of("linux", "windows")));
      return;
    }
    MapValue sc = Nested.map(spec, "securityContext");
    if (name.equals("linux")) {
      if (sc.getOrNull("windowsOptions") instanceof MapValue) {
        errs.add(FieldError.forbidden(path + ".securityContext.windowsOptions",
            "windows options cannot be set for a linux pod"));
      }
      eachContainer(spec, path, (c, at) -> {
        if (Nested.getOrNull(c, "securityContext", "windowsOptions") instanceof MapValue) {
          errs.add(FieldError.forbidden(at + ".securityContext.windowsOptions",
              "windows options cannot be set for a linux pod"));
        }
      });
      return;
    }
    String windows = "cannot be set for a windows pod";
    for (String f : List.of("appArmorProfile", "seLinuxOptions")) {
      if (Nested.has(sc, f)) {
        errs.add(FieldError.forbidden(path + ".securityContext." + f, windows));
      }
    }
    if (Nested.has(spec, "hostUsers")) {
      errs.add(FieldError.forbidden(path + ".hostUsers", windows));
    }
    for (String f : List.of("hostPID", "hostIPC")) {
      if (Nested.bool(spec, f)) {
        errs.add(FieldError.forbidden(path + "." + f, windows));
      }
    }
    for (String f : List.of("seccompProfile", "fsGroup", "fsGroupChangePolicy")) {
      if (Nested.has(sc, f)) {
        errs.add(FieldError.forbidden(path + ".securityContext." + f, windows));
      }
    }
    if (sc.getOrNull("sysctls") instanceof ListValue l && !l.isEmpty()) {
      errs.add(FieldError.forbidden(path + ".securityContext.sysctls", windows));
    }
    if (Nested.has(spec, "shareProcessNamespace")) {
      errs.add(FieldError.forbidden(path + ".shareProcessNamespace", windows));
    }
    for (String f : List.of("runAsUser", "runAsGroup", "supplementalGroups",
        "supplementalGroupsPolicy", "seLinuxChangePolicy")) {
      if (Nested.has(sc, f)) {
        errs.add(FieldError.forbidden(path + ".securityContext." + f, windows));
      }
    }
    eachContainer(spec, path, (c, at) -> {
      if (!(c.getOrNull("securityContext") instanceof MapValue csc)) {
        return;
      }
      for (String f : List.of("appArmorProfile", "seLinuxOptions", "seccompProfile",
          "capabilities", "readOnlyRootFilesystem", "privileged", "allowPrivilegeEscalation",
          "procMount", "runAsUser", "runAsGroup")) {
        if (Nested.has(csc, f)) {
          errs.add(FieldError.forbidden(at + ".securityContext." + f, windows));
        }
      }
    });
  }

  // podshelper.VisitContainersWithPath: init, regular, then ephemeral containers
  private static void eachContainer(MapValue spec, String path,
      java.util.function.BiConsumer<MapValue, String> visit) {
    for (String list : List.of("initContainers", "containers", "ephemeralContainers")) {
      List<MapValue> cs = items(spec.getOrNull(list));
      for (int i = 0; i < cs.size(); i++) {
        visit.accept(cs.get(i), index(path + "." + list, i));
      }
    }
  }

  /** {@code validatePodHostNetworkDeps}: host ports equal container ports on the host network. */
  static void hostNetworkPorts(MapValue spec, String path, boolean resourceIsPod,
      List<FieldError> errs) {
    if (!Nested.bool(spec, "hostNetwork")) {
      return;
    }
    List<MapValue> containers = items(spec.getOrNull("containers"));
    for (int i = 0; i < containers.size(); i++) {
      List<MapValue> ports = items(containers.get(i).getOrNull("ports"));
      for (int p = 0; p < ports.size(); p++) {
        long hp = ports.get(p).getOrNull("hostPort") instanceof IntegerValue h ? h.value() : 0;
        long cp = ports.get(p).getOrNull("containerPort") instanceof IntegerValue c
            ? c.value() : 0;
        if ((resourceIsPod || hp != 0) && hp != cp) {
          errs.add(FieldError.invalid(index(index(path + ".containers", i) + ".ports", p)
              + ".hostPort", Value.of(hp), "must match `containerPort` when `hostNetwork` is true"));
        }
      }
    }
  }

  /**
   * {@code AccumulateUniqueHostPorts} over {@code containers}, indexed within that list (kube
   * checks init containers one at a time, so it names each of them {@code [0]}).
   */
  static void hostPortConflicts(List<MapValue> containers, String path, Set<String> seen,
      List<FieldError> errs) {
    for (int i = 0; i < containers.size(); i++) {
      List<MapValue> ports = items(containers.get(i).getOrNull("ports"));
      for (int p = 0; p < ports.size(); p++) {
        MapValue port = ports.get(p);
        long hp = port.getOrNull("hostPort") instanceof IntegerValue h ? h.value() : 0;
        if (hp == 0) {
          continue;
        }
        String key = str(port, "protocol") + "/" + str(port, "hostIP") + "/" + hp;
        if (!seen.add(key)) {
          errs.add(FieldError.duplicate(index(index(path, i) + ".ports", p)
              + ".hostPort", Value.of(key)));
        }
      }
    }
  }

  /** The volumes of a spec by name, for mount checks. */
  static Map<String, MapValue> volumesByName(MapValue spec) {
    Map<String, MapValue> out = new HashMap<>();
    for (MapValue v : items(spec.getOrNull("volumes"))) {
      out.put(str(v, "name"), v);
    }
    return out;
  }

}
