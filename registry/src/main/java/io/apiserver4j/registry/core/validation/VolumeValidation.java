/*
 * Copyright The apiserver4j authors.
 * SPDX-License-Identifier: Apache-2.0
 */
package io.apiserver4j.registry.core.validation;

import static io.apiserver4j.apimachinery.validation.KubeValidation.index;
import static io.apiserver4j.apimachinery.validation.KubeValidation.items;
import static io.apiserver4j.apimachinery.validation.KubeValidation.str;

import io.apiserver4j.apimachinery.validation.GroupRules.Quantity;
import io.apiserver4j.apimachinery.validation.KubeValidation;
import io.apiserver4j.apimachinery.validation.MetaValidation;
import io.apiserver4j.core.errors.FieldError;
import io.apiserver4j.core.IntegerValue;
import io.apiserver4j.core.MapValue;
import io.apiserver4j.core.StringValue;
import io.apiserver4j.core.Value;
import io.apiserver4j.registry.core.validation.PodSpecValidation.SpecOf;
import java.util.ArrayList;
import java.util.HashMap;
import java.util.HashSet;
import java.util.List;
import java.util.Map;
import java.util.Set;

/**
 * kube's {@code ValidateVolumes} and {@code validateVolumeSource} for the sources pods use most,
 * with the file modes, key-to-path items, downward API files, projections and the local path
 * rules they share. Stateless.
 */
final class VolumeValidation {
  // validateVolumeSource's order: every source after the first is reported
  private static final List<String> VOLUME_SOURCES = List.of("emptyDir", "hostPath", "gitRepo",
      "gcePersistentDisk", "awsElasticBlockStore", "secret", "nfs", "iscsi", "glusterfs",
      "flocker", "persistentVolumeClaim", "rbd", "cinder", "cephfs", "quobyte", "downwardAPI",
      "fc", "flexVolume", "configMap", "azureFile", "vsphereVolume", "photonPersistentDisk",
      "portworxVolume", "azureDisk", "storageos", "projected", "scaleIO", "csi", "ephemeral",
      "image");
  // the names kube gives two of them in that error
  private static final Map<String, String> VOLUME_SOURCE_PATHS =
      Map.of("downwardAPI", "downwarAPI", "cephfs", "cephFS");

  private static final String FILE_MODE =
      "must be a number between 0 and 0777 (octal), both inclusive";
  private static final List<String> HOST_PATH_TYPES = List.of("", "BlockDevice",
      "CharDevice", "Directory", "DirectoryOrCreate", "File", "FileOrCreate", "Socket");

  private VolumeValidation() {}

  /** {@code ValidateVolumes}: names, one source each; returns the names of the valid ones. */
  static Set<String> validateVolumes(Value volumes, String path, SpecOf of,
      List<FieldError> errs) {
    Set<String> names = new HashSet<>();
    List<MapValue> list = items(volumes);
    for (int i = 0; i < list.size(); i++) {
      MapValue v = list.get(i);
      String at = index(path, i);
      List<FieldError> el = new ArrayList<>();
      String first = null;
      for (String source : VOLUME_SOURCES) {
        if (v.getOrNull(source) == null || v.getOrNull(source).isNull()) {
          continue;
        }
        if (first == null) {
          first = source;
          volumeSource(source, v.getOrNull(source), at + "." + source,
              of == SpecOf.POD, el);
        } else {
          el.add(FieldError.forbidden(at + "." + VOLUME_SOURCE_PATHS.getOrDefault(source,
              source), "may not specify more than 1 volume type"));
        }
      }
      if (first == null) {
        el.add(FieldError.required(at, "must specify a volume type"));
      }
      String name = str(v, "name");
      if (name.isEmpty()) {
        el.add(FieldError.required(at + ".name", ""));
      } else {
        for (String msg : MetaValidation.dns1123Label(name)) {
          el.add(FieldError.invalid(at + ".name", Value.of(name), msg));
        }
      }
      if (names.contains(name)) {
        el.add(FieldError.duplicate(at + ".name", Value.of(name)));
      }
      if (el.isEmpty()) {
        names.add(name);
      } else {
        errs.addAll(el);
      }
    }
    return names;
  }

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
      } else if (!EnvValidation.RESOURCE_FIELD_PATHS.contains(resource)
          && !resource.startsWith("requests.hugepages-")
          && !resource.startsWith("limits.hugepages-")) {
        errs.add(FieldError.notSupported(path + ".resourceFieldRef.resource",
            Value.of(resource), EnvValidation.RESOURCE_FIELD_PATHS));
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
    } else if (EnvValidation.subscripted(fieldPath) == null
        && EnvValidation.DOWNWARD_LABELS.contains(fieldPath)
        && !allowed.contains(fieldPath)) {
      errs.add(FieldError.notSupported(path + ".fieldPath", Value.of(fieldPath), allowed));
    } else if (EnvValidation.subscripted(fieldPath) == null
        && !EnvValidation.DOWNWARD_LABELS.contains(fieldPath)) {
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

  /** The volumes of a spec by name, for mount checks. */
  static Map<String, MapValue> volumesByName(MapValue spec) {
    Map<String, MapValue> out = new HashMap<>();
    for (MapValue v : items(spec.getOrNull("volumes"))) {
      out.put(str(v, "name"), v);
    }
    return out;
  }
}
