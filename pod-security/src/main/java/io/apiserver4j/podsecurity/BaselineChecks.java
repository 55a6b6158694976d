/*
 * Copyright The apiserver4j authors.
 * SPDX-License-Identifier: Apache-2.0
 */
package io.apiserver4j.podsecurity;

import static io.apiserver4j.podsecurity.PodFields.bool;
import static io.apiserver4j.podsecurity.PodFields.containers;
import static io.apiserver4j.podsecurity.PodFields.containersPhrase;
import static io.apiserver4j.podsecurity.PodFields.has;
import static io.apiserver4j.podsecurity.PodFields.integer;
import static io.apiserver4j.podsecurity.PodFields.joinQuote;
import static io.apiserver4j.podsecurity.PodFields.map;
import static io.apiserver4j.podsecurity.PodFields.maps;
import static io.apiserver4j.podsecurity.PodFields.pluralize;
import static io.apiserver4j.podsecurity.PodFields.string;
import static io.apiserver4j.podsecurity.PodFields.stringOrNull;
import static io.apiserver4j.podsecurity.PodFields.strings;

import io.apiserver4j.core.GoStrings;
import io.apiserver4j.core.MapValue;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.Set;
import java.util.TreeSet;

/** The baseline checks of the Pod Security Standards, one method per kube check version. */
final class BaselineChecks {
  private BaselineChecks() {}

  static final String CAPABILITIES_BASELINE = "capabilities_baseline";
  static final String HOST_PATH_VOLUMES = "hostPathVolumes";
  static final String PROC_MOUNT = "procMount";
  static final String SECCOMP_BASELINE = "seccompProfile_baseline";

  private static final String APPARMOR_ANNOTATION_PREFIX =
      "container.apparmor.security.beta.kubernetes.io/";
  private static final String SECCOMP_POD_ANNOTATION = "seccomp.security.alpha.kubernetes.io/pod";
  private static final String SECCOMP_CONTAINER_ANNOTATION_PREFIX =
      "container.seccomp.security.alpha.kubernetes.io/";

  // the default capabilities of container runtimes
  private static final Set<String> CAPABILITIES_ALLOWED_1_0 = Set.of("AUDIT_WRITE", "CHOWN",
      "DAC_OVERRIDE", "FOWNER", "FSETID", "KILL", "MKNOD", "NET_BIND_SERVICE", "SETFCAP", "SETGID",
      "SETPCAP", "SETUID", "SYS_CHROOT");

  static final Set<String> SYSCTLS_ALLOWED_1_0 = Set.of("kernel.shm_rmid_forced",
      "net.ipv4.ip_local_port_range", "net.ipv4.tcp_syncookies", "net.ipv4.ping_group_range",
      "net.ipv4.ip_unprivileged_port_start");
  static final Set<String> SYSCTLS_ALLOWED_1_27 = union(SYSCTLS_ALLOWED_1_0,
      "net.ipv4.ip_local_reserved_ports");
  static final Set<String> SYSCTLS_ALLOWED_1_29 = union(SYSCTLS_ALLOWED_1_27,
      "net.ipv4.tcp_keepalive_time", "net.ipv4.tcp_fin_timeout", "net.ipv4.tcp_keepalive_intvl",
      "net.ipv4.tcp_keepalive_probes");
  static final Set<String> SYSCTLS_ALLOWED_1_32 = union(SYSCTLS_ALLOWED_1_29,
      "net.ipv4.tcp_rmem", "net.ipv4.tcp_wmem");

  static final Set<String> SELINUX_TYPES_1_0 =
      Set.of("", "container_t", "container_init_t", "container_kvm_t");
  static final Set<String> SELINUX_TYPES_1_31 =
      Set.of("", "container_t", "container_init_t", "container_kvm_t", "container_engine_t");

  private static Set<String> union(Set<String> base, String... more) {
    Set<String> s = new java.util.HashSet<>(base);
    s.addAll(List.of(more));
    return Set.copyOf(s);
  }

  static CheckResult appArmorProfile1_0(MapValue podMetadata, MapValue podSpec) {
    List<String> badSetters = new ArrayList<>();
    TreeSet<String> badValues = new TreeSet<>();
    MapValue podProfile = map(podSpec, "securityContext", "appArmorProfile");
    if (podProfile != null && !allowedAppArmorType(string(podProfile, "type"))) {
      badSetters.add("pod");
      badValues.add(string(podProfile, "type"));
    }
    List<String> badContainers = new ArrayList<>();
    for (MapValue c : containers(podSpec)) {
      MapValue profile = map(c, "securityContext", "appArmorProfile");
      if (profile != null && !allowedAppArmorType(string(profile, "type"))) {
        badContainers.add(string(c, "name"));
        badValues.add(string(profile, "type"));
      }
    }
    if (!badContainers.isEmpty()) {
      badSetters.add(containersPhrase(badContainers));
    }
    List<String> forbiddenAnnotations = new ArrayList<>();
    for (Map.Entry<String, String> e : PodFields.annotations(podMetadata).entrySet()) {
      if (e.getKey().startsWith(APPARMOR_ANNOTATION_PREFIX)
          && !allowedAppArmorAnnotation(e.getValue())) {
        forbiddenAnnotations.add(e.getKey() + "=" + GoStrings.quote(e.getValue()));
      }
    }
    List<String> badValueList = new ArrayList<>(badValues);
    if (!forbiddenAnnotations.isEmpty()) {
      forbiddenAnnotations.sort(null);
      badValueList.addAll(forbiddenAnnotations);
      badSetters.add(pluralize("annotation", "annotations", forbiddenAnnotations.size()));
    }
    if (!badSetters.isEmpty()) {
      return CheckResult.forbid(
          pluralize("forbidden AppArmor profile", "forbidden AppArmor profiles",
              badValueList.size()),
          String.join(" and ", badSetters) + " must not set AppArmor profile type to "
              + joinQuote(badValueList));
    }
    return CheckResult.allow();
  }

  private static boolean allowedAppArmorAnnotation(String profile) {
    return profile.isEmpty() || profile.equals("runtime/default")
        || profile.startsWith("localhost/");
  }

  private static boolean allowedAppArmorType(String type) {
    return type.equals("RuntimeDefault") || type.equals("Localhost");
  }

  static CheckResult capabilitiesBaseline1_0(MapValue podMetadata, MapValue podSpec) {
    List<String> badContainers = new ArrayList<>();
    TreeSet<String> nonDefault = new TreeSet<>();
    for (MapValue c : containers(podSpec)) {
      MapValue caps = map(c, "securityContext", "capabilities");
      if (caps == null) {
        continue;
      }
      boolean valid = true;
      for (String cap : strings(caps, "add")) {
        if (!CAPABILITIES_ALLOWED_1_0.contains(cap)) {
          valid = false;
          nonDefault.add(cap);
        }
      }
      if (!valid) {
        badContainers.add(string(c, "name"));
      }
    }
    if (!badContainers.isEmpty()) {
      return CheckResult.forbid("non-default capabilities", containersPhrase(badContainers)
          + " must not include " + joinQuote(nonDefault)
          + " in securityContext.capabilities.add");
    }
    return CheckResult.allow();
  }

  static CheckResult hostNamespaces1_0(MapValue podMetadata, MapValue podSpec) {
    List<String> hostNamespaces = new ArrayList<>();
    if (Boolean.TRUE.equals(bool(podSpec, "hostNetwork"))) {
      hostNamespaces.add("hostNetwork=true");
    }
    if (Boolean.TRUE.equals(bool(podSpec, "hostPID"))) {
      hostNamespaces.add("hostPID=true");
    }
    if (Boolean.TRUE.equals(bool(podSpec, "hostIPC"))) {
      hostNamespaces.add("hostIPC=true");
    }
    if (!hostNamespaces.isEmpty()) {
      return CheckResult.forbid("host namespaces", String.join(", ", hostNamespaces));
    }
    return CheckResult.allow();
  }

  static CheckResult hostPathVolumes1_0(MapValue podMetadata, MapValue podSpec) {
    List<String> hostVolumes = new ArrayList<>();
    for (MapValue v : maps(podSpec, "volumes")) {
      if (has(v, "hostPath")) {
        hostVolumes.add(string(v, "name"));
      }
    }
    if (!hostVolumes.isEmpty()) {
      return CheckResult.forbid("hostPath volumes",
          pluralize("volume", "volumes", hostVolumes.size()) + " " + joinQuote(hostVolumes));
    }
    return CheckResult.allow();
  }

  static CheckResult hostPorts1_0(MapValue podMetadata, MapValue podSpec) {
    List<String> badContainers = new ArrayList<>();
    // Go's sets.String sorts its strings, not the numbers
    TreeSet<String> ports = new TreeSet<>();
    for (MapValue c : containers(podSpec)) {
      boolean valid = true;
      for (MapValue p : maps(c, "ports")) {
        Long hostPort = integer(p, "hostPort");
        if (hostPort != null && hostPort != 0) {
          valid = false;
          ports.add(Long.toString(hostPort));
        }
      }
      if (!valid) {
        badContainers.add(string(c, "name"));
      }
    }
    if (!badContainers.isEmpty()) {
      return CheckResult.forbid("hostPort", containersPhrase(badContainers) + " "
          + pluralize("uses", "use", badContainers.size()) + " "
          + pluralize("hostPort", "hostPorts", ports.size()) + " " + String.join(", ", ports));
    }
    return CheckResult.allow();
  }

  static CheckResult hostProbesAndHostLifecycle1_34(MapValue podMetadata, MapValue podSpec) {
    TreeSet<String> badContainers = new TreeSet<>();
    TreeSet<String> forbidden = new TreeSet<>();
    for (MapValue c : containers(podSpec)) {
      List<String> hosts = new ArrayList<>();
      for (String probe : List.of("livenessProbe", "readinessProbe", "startupProbe")) {
        hosts.addAll(forbiddenHosts(map(c, probe)));
      }
      MapValue lifecycle = map(c, "lifecycle");
      if (lifecycle != null) {
        hosts.addAll(forbiddenHosts(map(lifecycle, "postStart")));
        hosts.addAll(forbiddenHosts(map(lifecycle, "preStop")));
      }
      if (!hosts.isEmpty()) {
        badContainers.add(string(c, "name"));
        forbidden.addAll(hosts);
      }
    }
    if (!badContainers.isEmpty()) {
      return CheckResult.forbid("probe or lifecycle host", containersPhrase(badContainers) + " "
          + pluralize("uses", "use", badContainers.size()) + " "
          + pluralize("probe or lifecycle host", "probe or lifecycle hosts", forbidden.size())
          + " " + joinQuote(forbidden));
    }
    return CheckResult.allow();
  }

  /** The hosts a probe or lifecycle handler sets on its httpGet and tcpSocket. */
  private static List<String> forbiddenHosts(MapValue handler) {
    if (handler == null) {
      return List.of();
    }
    List<String> hosts = new ArrayList<>();
    for (String action : List.of("httpGet", "tcpSocket")) {
      MapValue a = map(handler, action);
      if (a != null && !string(a, "host").isEmpty()) {
        hosts.add(string(a, "host"));
      }
    }
    return hosts;
  }

  static CheckResult privileged1_0(MapValue podMetadata, MapValue podSpec) {
    List<String> badContainers = new ArrayList<>();
    for (MapValue c : containers(podSpec)) {
      if (Boolean.TRUE.equals(bool(map(c, "securityContext"), "privileged"))) {
        badContainers.add(string(c, "name"));
      }
    }
    if (!badContainers.isEmpty()) {
      return CheckResult.forbid("privileged",
          containersPhrase(badContainers) + " must not set securityContext.privileged=true");
    }
    return CheckResult.allow();
  }

  static CheckResult procMount1_0(MapValue podMetadata, MapValue podSpec) {
    List<String> badContainers = new ArrayList<>();
    TreeSet<String> types = new TreeSet<>();
    for (MapValue c : containers(podSpec)) {
      String procMount = stringOrNull(map(c, "securityContext"), "procMount");
      if (procMount != null && !procMount.equals("Default")) {
        badContainers.add(string(c, "name"));
        types.add(procMount);
      }
    }
    if (!badContainers.isEmpty()) {
      return CheckResult.forbid("procMount", containersPhrase(badContainers)
          + " must not set securityContext.procMount to " + joinQuote(types));
    }
    return CheckResult.allow();
  }

  static CheckResult procMount1_35(MapValue podMetadata, MapValue podSpec) {
    if (PodFields.userNamespacePod(podSpec)) {
      return CheckResult.allow();
    }
    return procMount1_0(podMetadata, podSpec);
  }

  static CheckResult seLinuxOptions1_0(MapValue podMetadata, MapValue podSpec) {
    return seLinuxOptions(podSpec, SELINUX_TYPES_1_0);
  }

  static CheckResult seLinuxOptions1_31(MapValue podMetadata, MapValue podSpec) {
    return seLinuxOptions(podSpec, SELINUX_TYPES_1_31);
  }

  private static CheckResult seLinuxOptions(MapValue podSpec, Set<String> allowedTypes) {
    TreeSet<String> badTypes = new TreeSet<>();
    boolean[] setUserRole = new boolean[2];
    List<String> badSetters = new ArrayList<>();
    MapValue podOptions = map(podSpec, "securityContext", "seLinuxOptions");
    if (podOptions != null && !validSeLinux(podOptions, allowedTypes, badTypes, setUserRole)) {
      badSetters.add("pod");
    }
    List<String> badContainers = new ArrayList<>();
    for (MapValue c : containers(podSpec)) {
      MapValue options = map(c, "securityContext", "seLinuxOptions");
      if (options != null && !validSeLinux(options, allowedTypes, badTypes, setUserRole)) {
        badContainers.add(string(c, "name"));
      }
    }
    if (!badContainers.isEmpty()) {
      badSetters.add(containersPhrase(badContainers));
    }
    if (!badSetters.isEmpty()) {
      List<String> badData = new ArrayList<>();
      if (!badTypes.isEmpty()) {
        badData.add(pluralize("type", "types", badTypes.size()) + " " + joinQuote(badTypes));
      }
      if (setUserRole[0]) {
        badData.add("user may not be set");
      }
      if (setUserRole[1]) {
        badData.add("role may not be set");
      }
      return CheckResult.forbid("seLinuxOptions", String.join(" and ", badSetters)
          + " set forbidden securityContext.seLinuxOptions: " + String.join("; ", badData));
    }
    return CheckResult.allow();
  }

  private static boolean validSeLinux(MapValue options, Set<String> allowedTypes,
      Set<String> badTypes, boolean[] setUserRole) {
    boolean valid = true;
    String type = string(options, "type");
    if (!allowedTypes.contains(type)) {
      valid = false;
      badTypes.add(type);
    }
    if (!string(options, "user").isEmpty()) {
      valid = false;
      setUserRole[0] = true;
    }
    if (!string(options, "role").isEmpty()) {
      valid = false;
      setUserRole[1] = true;
    }
    return valid;
  }

  static CheckResult seccompProfileBaseline1_0(MapValue podMetadata, MapValue podSpec) {
    Map<String, String> annotations = PodFields.annotations(podMetadata);
    TreeSet<String> forbidden = new TreeSet<>();
    String podValue = annotations.get(SECCOMP_POD_ANNOTATION);
    if (podValue != null && !validSeccompAnnotation(podValue)) {
      forbidden.add(SECCOMP_POD_ANNOTATION + "=" + GoStrings.quote(podValue));
    }
    for (MapValue c : containers(podSpec)) {
      String key = SECCOMP_CONTAINER_ANNOTATION_PREFIX + string(c, "name");
      String value = annotations.get(key);
      if (value != null && !validSeccompAnnotation(value)) {
        forbidden.add(key + "=" + GoStrings.quote(value));
      }
    }
    if (!forbidden.isEmpty()) {
      return CheckResult.forbid("seccompProfile",
          "forbidden " + pluralize("annotation", "annotations", forbidden.size()) + " "
              + String.join(", ", forbidden));
    }
    return CheckResult.allow();
  }

  private static boolean validSeccompAnnotation(String v) {
    return v.equals("runtime/default") || v.equals("docker/default")
        || v.startsWith("localhost/");
  }

  static boolean validSeccompType(String type) {
    return type.equals("Localhost") || type.equals("RuntimeDefault");
  }

  static CheckResult seccompProfileBaseline1_19(MapValue podMetadata, MapValue podSpec) {
    List<String> badSetters = new ArrayList<>();
    TreeSet<String> badValues = new TreeSet<>();
    MapValue podProfile = map(podSpec, "securityContext", "seccompProfile");
    if (podProfile != null && !validSeccompType(string(podProfile, "type"))) {
      badSetters.add("pod");
      badValues.add(string(podProfile, "type"));
    }
    List<String> badContainers = new ArrayList<>();
    for (MapValue c : containers(podSpec)) {
      MapValue profile = map(c, "securityContext", "seccompProfile");
      if (profile != null && !validSeccompType(string(profile, "type"))) {
        badContainers.add(string(c, "name"));
        badValues.add(string(profile, "type"));
      }
    }
    if (!badContainers.isEmpty()) {
      badSetters.add(containersPhrase(badContainers));
    }
    if (!badSetters.isEmpty()) {
      return CheckResult.forbid("seccompProfile", String.join(" and ", badSetters)
          + " must not set securityContext.seccompProfile.type to " + joinQuote(badValues));
    }
    return CheckResult.allow();
  }

  static CheckResult sysctls(MapValue podSpec, Set<String> allowed) {
    List<String> forbidden = new ArrayList<>();
    MapValue sc = map(podSpec, "securityContext");
    for (MapValue s : maps(sc, "sysctls")) {
      if (!allowed.contains(string(s, "name"))) {
        forbidden.add(string(s, "name"));
      }
    }
    if (!forbidden.isEmpty()) {
      return CheckResult.forbid("forbidden sysctls", String.join(", ", forbidden));
    }
    return CheckResult.allow();
  }

  static CheckResult windowsHostProcess1_0(MapValue podMetadata, MapValue podSpec) {
    List<String> badContainers = new ArrayList<>();
    for (MapValue c : containers(podSpec)) {
      if (Boolean.TRUE.equals(bool(map(c, "securityContext", "windowsOptions"), "hostProcess"))) {
        badContainers.add(string(c, "name"));
      }
    }
    List<String> setters = new ArrayList<>();
    if (Boolean.TRUE.equals(bool(map(podSpec, "securityContext", "windowsOptions"),
        "hostProcess"))) {
      setters.add("pod");
    }
    if (!badContainers.isEmpty()) {
      setters.add(containersPhrase(badContainers));
    }
    if (!setters.isEmpty()) {
      return CheckResult.forbid("hostProcess", String.join(" and ", setters)
          + " must not set securityContext.windowsOptions.hostProcess=true");
    }
    return CheckResult.allow();
  }
}
