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
import static io.apiserver4j.podsecurity.PodFields.strings;

import io.apiserver4j.core.MapValue;
import java.util.ArrayList;
import java.util.List;
import java.util.TreeSet;

/** The restricted checks of the Pod Security Standards, one method per kube check version. */
final class RestrictedChecks {
  private RestrictedChecks() {}

  // the volume sources restricted pods may use
  private static final List<String> ALLOWED_VOLUME_SOURCES = List.of("configMap", "csi",
      "downwardAPI", "emptyDir", "ephemeral", "image", "persistentVolumeClaim", "projected",
      "secret");
  // the other sources, in kube's order of precedence when naming a volume's type
  private static final List<String> RESTRICTED_VOLUME_SOURCES = List.of("hostPath",
      "gcePersistentDisk", "awsElasticBlockStore", "gitRepo", "nfs", "iscsi", "glusterfs", "rbd",
      "flexVolume", "cinder", "cephfs", "flocker", "fc", "azureFile", "vsphereVolume", "quobyte",
      "azureDisk", "photonPersistentDisk", "portworxVolume", "scaleIO", "storageos");

  static CheckResult allowPrivilegeEscalation1_8(MapValue podMetadata, MapValue podSpec) {
    List<String> badContainers = new ArrayList<>();
    for (MapValue c : containers(podSpec)) {
      Boolean ape = bool(map(c, "securityContext"), "allowPrivilegeEscalation");
      if (ape == null || ape) {
        badContainers.add(string(c, "name"));
      }
    }
    if (!badContainers.isEmpty()) {
      return CheckResult.forbid("allowPrivilegeEscalation != false", containersPhrase(badContainers)
          + " must set securityContext.allowPrivilegeEscalation=false");
    }
    return CheckResult.allow();
  }

  static CheckResult allowPrivilegeEscalation1_25(MapValue podMetadata, MapValue podSpec) {
    // API validation refuses the field on Windows pods, so they cannot set it
    if (PodFields.windowsPod(podSpec)) {
      return CheckResult.allow();
    }
    return allowPrivilegeEscalation1_8(podMetadata, podSpec);
  }

  static CheckResult capabilitiesRestricted1_22(MapValue podMetadata, MapValue podSpec) {
    List<String> missingDropAll = new ArrayList<>();
    List<String> addingForbidden = new ArrayList<>();
    TreeSet<String> forbiddenCaps = new TreeSet<>();
    for (MapValue c : containers(podSpec)) {
      MapValue caps = map(c, "securityContext", "capabilities");
      if (caps == null) {
        missingDropAll.add(string(c, "name"));
        continue;
      }
      if (!strings(caps, "drop").contains("ALL")) {
        missingDropAll.add(string(c, "name"));
      }
      boolean added = false;
      for (String cap : strings(caps, "add")) {
        if (!cap.equals("NET_BIND_SERVICE")) {
          added = true;
          forbiddenCaps.add(cap);
        }
      }
      if (added) {
        addingForbidden.add(string(c, "name"));
      }
    }
    List<String> details = new ArrayList<>();
    if (!missingDropAll.isEmpty()) {
      details.add(containersPhrase(missingDropAll)
          + " must set securityContext.capabilities.drop=[\"ALL\"]");
    }
    if (!addingForbidden.isEmpty()) {
      details.add(containersPhrase(addingForbidden) + " must not include "
          + joinQuote(forbiddenCaps) + " in securityContext.capabilities.add");
    }
    if (!details.isEmpty()) {
      return CheckResult.forbid("unrestricted capabilities", String.join("; ", details));
    }
    return CheckResult.allow();
  }

  static CheckResult capabilitiesRestricted1_25(MapValue podMetadata, MapValue podSpec) {
    // API validation refuses capabilities on Windows pods
    if (PodFields.windowsPod(podSpec)) {
      return CheckResult.allow();
    }
    return capabilitiesRestricted1_22(podMetadata, podSpec);
  }

  static CheckResult restrictedVolumes1_0(MapValue podMetadata, MapValue podSpec) {
    List<String> badVolumes = new ArrayList<>();
    TreeSet<String> badTypes = new TreeSet<>();
    for (MapValue v : maps(podSpec, "volumes")) {
      if (ALLOWED_VOLUME_SOURCES.stream().anyMatch(s -> has(v, s))) {
        continue;
      }
      badVolumes.add(string(v, "name"));
      badTypes.add(RESTRICTED_VOLUME_SOURCES.stream().filter(s -> has(v, s)).findFirst()
          .orElse("unknown"));
    }
    if (!badVolumes.isEmpty()) {
      return CheckResult.forbid("restricted volume types",
          pluralize("volume", "volumes", badVolumes.size()) + " " + joinQuote(badVolumes) + " "
              + pluralize("uses", "use", badVolumes.size()) + " "
              + pluralize("restricted volume type", "restricted volume types", badTypes.size())
              + " " + joinQuote(badTypes));
    }
    return CheckResult.allow();
  }

  static CheckResult runAsNonRoot1_0(MapValue podMetadata, MapValue podSpec) {
    List<String> badSetters = new ArrayList<>();
    boolean podRunAsNonRoot = false;
    Boolean pod = bool(map(podSpec, "securityContext"), "runAsNonRoot");
    if (pod != null) {
      if (!pod) {
        badSetters.add("pod");
      } else {
        podRunAsNonRoot = true;
      }
    }
    List<String> explicitlyBad = new ArrayList<>();
    List<String> implicitlyBad = new ArrayList<>();
    for (MapValue c : containers(podSpec)) {
      Boolean v = bool(map(c, "securityContext"), "runAsNonRoot");
      if (v != null) {
        if (!v) {
          explicitlyBad.add(string(c, "name"));
        }
      } else if (!podRunAsNonRoot) {
        implicitlyBad.add(string(c, "name"));
      }
    }
    if (!explicitlyBad.isEmpty()) {
      badSetters.add(containersPhrase(explicitlyBad));
    }
    if (!badSetters.isEmpty()) {
      return CheckResult.forbid("runAsNonRoot != true", String.join(" and ", badSetters)
          + " must not set securityContext.runAsNonRoot=false");
    }
    if (!implicitlyBad.isEmpty()) {
      return CheckResult.forbid("runAsNonRoot != true", "pod or " + containersPhrase(implicitlyBad)
          + " must set securityContext.runAsNonRoot=true");
    }
    return CheckResult.allow();
  }

  static CheckResult runAsNonRoot1_35(MapValue podMetadata, MapValue podSpec) {
    if (PodFields.userNamespacePod(podSpec)) {
      return CheckResult.allow();
    }
    return runAsNonRoot1_0(podMetadata, podSpec);
  }

  static CheckResult runAsUser1_23(MapValue podMetadata, MapValue podSpec) {
    List<String> badSetters = new ArrayList<>();
    Long pod = integer(map(podSpec, "securityContext"), "runAsUser");
    if (pod != null && pod == 0) {
      badSetters.add("pod");
    }
    List<String> badContainers = new ArrayList<>();
    for (MapValue c : containers(podSpec)) {
      Long v = integer(map(c, "securityContext"), "runAsUser");
      if (v != null && v == 0) {
        badContainers.add(string(c, "name"));
      }
    }
    if (!badContainers.isEmpty()) {
      badSetters.add(containersPhrase(badContainers));
    }
    if (!badSetters.isEmpty()) {
      return CheckResult.forbid("runAsUser=0",
          String.join(" and ", badSetters) + " must not set runAsUser=0");
    }
    return CheckResult.allow();
  }

  static CheckResult runAsUser1_35(MapValue podMetadata, MapValue podSpec) {
    if (PodFields.userNamespacePod(podSpec)) {
      return CheckResult.allow();
    }
    return runAsUser1_23(podMetadata, podSpec);
  }

  static CheckResult seccompProfileRestricted1_19(MapValue podMetadata, MapValue podSpec) {
    List<String> badSetters = new ArrayList<>();
    TreeSet<String> badValues = new TreeSet<>();
    boolean podSeccompSet = false;
    MapValue podProfile = map(podSpec, "securityContext", "seccompProfile");
    if (podProfile != null) {
      if (!BaselineChecks.validSeccompType(string(podProfile, "type"))) {
        badSetters.add("pod");
        badValues.add(string(podProfile, "type"));
      } else {
        podSeccompSet = true;
      }
    }
    List<String> explicitlyBad = new ArrayList<>();
    List<String> implicitlyBad = new ArrayList<>();
    for (MapValue c : containers(podSpec)) {
      MapValue profile = map(c, "securityContext", "seccompProfile");
      if (profile != null) {
        if (!BaselineChecks.validSeccompType(string(profile, "type"))) {
          explicitlyBad.add(string(c, "name"));
          badValues.add(string(profile, "type"));
        }
      } else if (!podSeccompSet) {
        implicitlyBad.add(string(c, "name"));
      }
    }
    if (!explicitlyBad.isEmpty()) {
      badSetters.add(containersPhrase(explicitlyBad));
    }
    if (!badSetters.isEmpty()) {
      return CheckResult.forbid("seccompProfile", String.join(" and ", badSetters)
          + " must not set securityContext.seccompProfile.type to " + joinQuote(badValues));
    }
    if (!implicitlyBad.isEmpty()) {
      return CheckResult.forbid("seccompProfile", "pod or " + containersPhrase(implicitlyBad)
          + " must set securityContext.seccompProfile.type to \"RuntimeDefault\" or \"Localhost\"");
    }
    return CheckResult.allow();
  }

  static CheckResult seccompProfileRestricted1_25(MapValue podMetadata, MapValue podSpec) {
    // API validation refuses seccomp profiles on Windows pods
    if (PodFields.windowsPod(podSpec)) {
      return CheckResult.allow();
    }
    return seccompProfileRestricted1_19(podMetadata, podSpec);
  }
}
