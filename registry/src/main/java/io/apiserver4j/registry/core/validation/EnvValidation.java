/*
 * Copyright The apiserver4j authors.
 * SPDX-License-Identifier: Apache-2.0
 */
package io.apiserver4j.registry.core.validation;

import static io.apiserver4j.apimachinery.validation.KubeValidation.index;
import static io.apiserver4j.apimachinery.validation.KubeValidation.str;

import io.apiserver4j.apimachinery.validation.MetaValidation;
import io.apiserver4j.core.errors.FieldError;
import io.apiserver4j.core.MapValue;
import io.apiserver4j.core.Value;
import java.util.ArrayList;
import java.util.List;
import java.util.Set;

/**
 * kube's {@code ValidateEnv} and {@code ValidateEnvFrom} for containers' environment, with the
 * relaxed variable names 1.36 enables by default, and the downward API field paths environment
 * variables and volume files share. Stateless.
 */
final class EnvValidation {
  private static final List<String> ENV_FIELD_PATHS = List.of("metadata.name",
      "metadata.namespace", "metadata.uid", "spec.nodeName", "spec.serviceAccountName",
      "status.hostIP", "status.hostIPs", "status.podIP", "status.podIPs");
  // what podshelper.ConvertDownwardAPIFieldLabel knows for v1
  static final Set<String> DOWNWARD_LABELS = Set.of("metadata.annotations",
      "metadata.labels", "metadata.name", "metadata.namespace", "metadata.uid", "spec.nodeName",
      "spec.restartPolicy", "spec.serviceAccountName", "spec.schedulerName", "status.phase",
      "status.hostIP", "status.hostIPs", "status.podIP", "status.podIPs", "spec.host");
  static final List<String> RESOURCE_FIELD_PATHS = List.of("limits.cpu",
      "limits.ephemeral-storage", "limits.memory", "requests.cpu", "requests.ephemeral-storage",
      "requests.memory");

  private EnvValidation() {}

  /**
   * {@code ValidateEnv}: names by the relaxed rule ({@code RelaxedEnvironmentVariableValidation})
   * or by the strict one ({@code IsEnvVarName}).
   */
  static void env(List<MapValue> env, String path, boolean relaxed, List<FieldError> errs) {
    for (int i = 0; i < env.size(); i++) {
      MapValue ev = env.get(i);
      String at = index(path, i);
      String name = str(ev, "name");
      if (name.isEmpty()) {
        errs.add(FieldError.required(at + ".name", ""));
      } else {
        envName(name, at + ".name", relaxed, errs);
      }
      if (ev.getOrNull("valueFrom") instanceof MapValue from) {
        valueFrom(from, !str(ev, "value").isEmpty(), at + ".valueFrom", errs);
      }
    }
  }

  private static void envName(String name, String path, boolean relaxed,
      List<FieldError> errs) {
    for (String msg : relaxed ? relaxedEnvVarName(name) : strictEnvVarName(name)) {
      errs.add(FieldError.invalid(path, Value.of(name), msg));
    }
  }

  // apimachinery's IsRelaxedEnvVarName, for a non-empty name
  static List<String> relaxedEnvVarName(String name) {
    for (int i = 0; i < name.length(); i++) {
      char c = name.charAt(i);
      if (c < 0x20 || c > 0x7e || c == '=') {
        return List.of("a valid environment variable name"
            + " must consist only of printable ASCII characters other than '='");
      }
    }
    return List.of();
  }

  private static final String ENV_VAR_NAME_FMT = "[-._a-zA-Z][-._a-zA-Z0-9]*";
  private static final java.util.regex.Pattern ENV_VAR_NAME =
      java.util.regex.Pattern.compile(ENV_VAR_NAME_FMT);

  // apimachinery's IsEnvVarName: a C identifier with '-' and '.', not a chdir
  static List<String> strictEnvVarName(String name) {
    List<String> out = new ArrayList<>();
    if (!ENV_VAR_NAME.matcher(name).matches()) {
      out.add(MetaValidation.regexError("a valid environment variable name must consist of"
          + " alphabetic characters, digits, '_', '-', or '.', and must not start with a digit",
          ENV_VAR_NAME_FMT, "my.env-name", "MY_ENV.NAME", "MyEnvName1"));
    }
    if (name.equals(".")) {
      out.add("must not be '.'");
    } else if (name.equals("..")) {
      out.add("must not be '..'");
    } else if (name.startsWith("..")) {
      out.add("must not start with '..'");
    }
    return out;
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
  static String[] subscripted(String fieldPath) {
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
  static void envFrom(List<MapValue> envFrom, String path, boolean relaxed,
      List<FieldError> errs) {
    for (int i = 0; i < envFrom.size(); i++) {
      MapValue ev = envFrom.get(i);
      String at = index(path, i);
      String prefix = str(ev, "prefix");
      if (!prefix.isEmpty()) {
        envName(prefix, at + ".prefix", relaxed, errs);
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
}
