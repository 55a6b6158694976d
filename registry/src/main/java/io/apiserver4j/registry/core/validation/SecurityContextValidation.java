/*
 * Copyright The apiserver4j authors.
 * SPDX-License-Identifier: Apache-2.0
 */
package io.apiserver4j.registry.core.validation;

import static io.apiserver4j.apimachinery.validation.KubeValidation.index;
import static io.apiserver4j.apimachinery.validation.KubeValidation.items;
import static io.apiserver4j.apimachinery.validation.KubeValidation.str;

import io.apiserver4j.apimachinery.validation.GroupValidation;
import io.apiserver4j.apimachinery.validation.KubeValidation;
import io.apiserver4j.apimachinery.validation.MetaValidation;
import io.apiserver4j.core.BooleanValue;
import io.apiserver4j.core.errors.FieldError;
import io.apiserver4j.core.IntegerValue;
import io.apiserver4j.core.Json;
import io.apiserver4j.core.ListValue;
import io.apiserver4j.core.MapValue;
import io.apiserver4j.core.Meta;
import io.apiserver4j.core.Nested;
import io.apiserver4j.core.StringValue;
import io.apiserver4j.core.Value;
import java.util.HashSet;
import java.util.List;
import java.util.Optional;
import java.util.Set;
import java.util.regex.Pattern;

/**
 * kube's {@code validatePodSpecSecurityContext} and {@code ValidateSecurityContext}: user and
 * group ids, sysctls, seccomp, AppArmor, Windows options, capabilities with privilege
 * escalation, proc mounts and host user namespaces. Stateless.
 */
final class SecurityContextValidation {
  static final String USER_ID_RANGE = "must be between 0 and 2147483647, inclusive";

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

  private SecurityContextValidation() {}

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
        VolumeValidation.localDescendingPath(s.value(), path + ".localhostProfile", errs);
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
}
