/*
 * Copyright The apiserver4j authors.
 * SPDX-License-Identifier: Apache-2.0
 */
package io.apiserver4j.registry.core.validation;

import static io.apiserver4j.apimachinery.validation.KubeValidation.str;

import io.apiserver4j.core.MapValue;
import io.apiserver4j.core.Nested;
import io.apiserver4j.core.Value;
import java.util.List;

/**
 * kube's {@code SetDefaults_PodSpec} and the generated defaulters of what a pod spec holds
 * (containers, probes, handlers, field references, volumes), shared by Pods and every pod
 * template. Stateless.
 */
public final class PodSpecDefaults {
  private PodSpecDefaults() {}

  /**
   * {@code SetDefaults_PodSpec} and the generated defaulters of what a pod spec holds: the spec
   * with its absent defaults set ({@code spec} itself is not changed).
   */
  public static MapValue defaultPodSpec(MapValue spec) {
    MapValue s = spec;
    s = Nested.setDefault(s, Value.of("ClusterFirst"), "dnsPolicy");
    s = Nested.setDefault(s, Value.of("Always"), "restartPolicy");
    s = Nested.setDefault(s, Value.of(30L), "terminationGracePeriodSeconds");
    s = Nested.setDefault(s, MapValue.empty(), "securityContext");
    s = Nested.setDefault(s, Value.of("default-scheduler"), "schedulerName");
    s = Nested.updateListItems(s, PodSpecDefaults::defaultContainer, "containers");
    s = Nested.updateListItems(s, PodSpecDefaults::defaultContainer, "initContainers");
    // SetDefaults_EphemeralContainer is SetDefaults_Container on the common fields
    s = Nested.updateListItems(s, PodSpecDefaults::defaultContainer, "ephemeralContainers");
    s = Nested.updateListItems(s, PodSpecDefaults::defaultVolume, "volumes");
    return s;
  }

  private static MapValue defaultContainer(MapValue c) {
    MapValue r = c;
    if (r.getOrNull("imagePullPolicy") == null) {
      r = r.with("imagePullPolicy", Value.of(pullPolicy(str(r, "image"))));
    }
    r = Nested.setDefault(r, Value.of("/dev/termination-log"), "terminationMessagePath");
    r = Nested.setDefault(r, Value.of("File"), "terminationMessagePolicy");
    r = Nested.updateListItems(r, p -> Nested.setDefault(p, Value.of("TCP"), "protocol"), "ports");
    for (String probe : List.of("livenessProbe", "readinessProbe", "startupProbe")) {
      r = Nested.updateMap(r, PodSpecDefaults::defaultProbe, probe);
    }
    for (String hook : List.of("postStart", "preStop")) {
      r = Nested.updateMap(r, PodSpecDefaults::defaultHttpGet, "lifecycle", hook, "httpGet");
    }
    r = Nested.updateListItems(r, PodSpecDefaults::defaultFieldRef, "env");
    // FileKeySelector.optional is "+default=false"
    r = Nested.updateListItems(r, e -> Nested.updateMap(e, k -> Nested.setDefault(k,
        Value.of(false), "optional"), "valueFrom", "fileKeyRef"), "env");
    return r;
  }

  // SetDefaults_ObjectFieldSelector: a field reference is to v1 unless it says otherwise.
  private static MapValue defaultFieldRef(MapValue holder) {
    return Nested.updateMap(holder, f -> Nested.setDefault(f, Value.of("v1"), "apiVersion"),
        holder.containsKey("valueFrom") ? new String[] {"valueFrom", "fieldRef"}
            : new String[] {"fieldRef"});
  }

  /**
   * SetDefaults_Container's pull policy: images tagged (or implied) {@code latest} are pulled
   * always, others if not present; an image that does not parse has no tag.
   */
  static String pullPolicy(String image) {
    if (image.isEmpty()) {
      return "IfNotPresent";
    }
    int at = image.indexOf('@');
    String ref = at >= 0 ? image.substring(0, at) : image;
    int slash = ref.lastIndexOf('/');
    int colon = ref.lastIndexOf(':');
    if (colon <= slash) {
      // no tag: "latest" is implied unless a digest pins the image
      return at >= 0 ? "IfNotPresent" : "Always";
    }
    return ref.substring(colon + 1).equals("latest") ? "Always" : "IfNotPresent";
  }

  private static MapValue defaultProbe(MapValue p) {
    MapValue r = p;
    r = Nested.setDefault(r, Value.of(1L), "timeoutSeconds");
    r = Nested.setDefault(r, Value.of(10L), "periodSeconds");
    r = Nested.setDefault(r, Value.of(1L), "successThreshold");
    r = Nested.setDefault(r, Value.of(3L), "failureThreshold");
    // GRPCAction.service is "+default=\"\"" and not omitempty: kube always writes it
    r = Nested.updateMap(r, g -> Nested.setDefault(g, Value.of(""), "service"), "grpc");
    return Nested.updateMap(r, PodSpecDefaults::defaultHttpGet, "httpGet");
  }

  private static MapValue defaultHttpGet(MapValue h) {
    return Nested.setDefault(Nested.setDefault(h, Value.of("/"), "path"), Value.of("HTTP"),
        "scheme");
  }

  private static MapValue defaultVolume(MapValue v) {
    MapValue r = v;
    for (String source : List.of("secret", "configMap", "downwardAPI", "projected")) {
      r = Nested.updateMap(r, s -> Nested.setDefault(s, Value.of(420L), "defaultMode"), source);
    }
    r = Nested.updateListItems(r, PodSpecDefaults::defaultFieldRef, "downwardAPI", "items");
    r = Nested.updateListItems(r, src -> Nested.updateListItems(src,
        PodSpecDefaults::defaultFieldRef, "downwardAPI", "items"), "projected", "sources");
    // SetDefaults_ServiceAccountTokenProjection: a projected token lives an hour unless told
    r = Nested.updateListItems(r, src -> Nested.updateMap(src, t -> Nested.setDefault(t,
        Value.of(3600L), "expirationSeconds"), "serviceAccountToken"), "projected", "sources");
    r = defaultVolumeSource(r);
    r = Nested.updateMap(r, spec -> Nested.setDefault(spec, Value.of("Filesystem"), "volumeMode"),
        "ephemeral", "volumeClaimTemplate", "spec");
    boolean hasSource = false;
    for (int i = 0; i < r.size(); i++) {
      hasSource |= !r.keyAt(i).equals("name");
    }
    return hasSource ? r : r.with("emptyDir", MapValue.empty());
  }

  /**
   * The defaults of the volume sources a pod volume and a PersistentVolume share (the
   * {@code SetDefaults_HostPathVolumeSource} and the {@code +default} markers of the iSCSI, RBD,
   * Azure Disk and ScaleIO sources, as kube's generated defaulters apply them): {@code holder}
   * with its present sources' absent fields set.
   */
  public static MapValue defaultVolumeSource(MapValue holder) {
    MapValue r = Nested.updateMap(holder, h -> Nested.setDefault(h, Value.of(""), "type"),
        "hostPath");
    r = Nested.updateMap(r, i -> Nested.setDefault(i, Value.of("default"), "iscsiInterface"),
        "iscsi");
    r = Nested.updateMap(r, rbd -> Nested.setDefault(Nested.setDefault(Nested.setDefault(rbd,
        Value.of("rbd"), "pool"), Value.of("admin"), "user"), Value.of("/etc/ceph/keyring"),
        "keyring"), "rbd");
    r = Nested.updateMap(r, d -> {
      MapValue out = Nested.setDefault(d, Value.of("ReadWrite"), "cachingMode");
      out = Nested.setDefault(out, Value.of("ext4"), "fsType");
      out = Nested.setDefault(out, Value.of(false), "readOnly");
      return Nested.setDefault(out, Value.of("Shared"), "kind");
    }, "azureDisk");
    return Nested.updateMap(r, d -> Nested.setDefault(Nested.setDefault(d,
        Value.of("ThinProvisioned"), "storageMode"), Value.of("xfs"), "fsType"), "scaleIO");
  }
}
