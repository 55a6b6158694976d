/*
 * Copyright The apiserver4j authors.
 * SPDX-License-Identifier: Apache-2.0
 */
package io.apiserver4j.controllers.internal;

import io.apiserver4j.core.MapValue;
import io.apiserver4j.core.Meta;
import io.apiserver4j.core.Nested;
import io.apiserver4j.core.Value;
import java.nio.charset.StandardCharsets;
import java.security.MessageDigest;
import java.security.NoSuchAlgorithmException;
import java.util.ArrayList;
import java.util.HexFormat;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Optional;

/**
 * The attachable CSI volumes of a Pod as kube's volume plugin manager finds them (pkg/volume/csi
 * and pkg/volume/util): a {@code persistentVolumeClaim} volume, or a generic {@code ephemeral}
 * one (claim {@code <pod>-<volume>}), whose claim is {@code Bound} to a PersistentVolume with a
 * {@code csi} source; attachable unless the driver's CSIDriver says
 * {@code attachRequired: false} (a driver without a CSIDriver object is attachable, as kube's
 * {@code skipAttach}). Inline {@code csi} volumes are never attachable in kube and are left out.
 * Used by the attach/detach controller and the simulated kubelet. Stateless.
 */
public final class CsiVolumes {
  /** kube's CSI plugin name, the prefix of its unique volume names. */
  public static final String PLUGIN = "kubernetes.io/csi";

  private CsiVolumes() {}

  /** One attachable CSI volume: the PersistentVolume and its CSI source. */
  public record Volume(String persistentVolume, String driver, String volumeHandle) {
    /**
     * kube's unique volume name, as in Node {@code volumesAttached} and {@code volumesInUse}:
     * {@code kubernetes.io/csi/<driver>^<volumeHandle>} (csi_plugin's {@code GetVolumeName}
     * under the plugin's name).
     */
    public String uniqueName() {
      return PLUGIN + "/" + driver + "^" + volumeHandle;
    }

    /** The name of this volume's VolumeAttachment to {@code node}. */
    public String attachmentName(String node) {
      return CsiVolumes.attachmentName(volumeHandle, driver, node);
    }
  }

  /**
   * kube's CSI attacher's {@code getAttachmentName}: {@code csi-} and the lower-case hex
   * SHA-256 of the volume handle, driver and node name written one after another.
   */
  public static String attachmentName(String volumeHandle, String driver, String node) {
    try {
      byte[] sum = MessageDigest.getInstance("SHA-256").digest(
          (volumeHandle + driver + node).getBytes(StandardCharsets.UTF_8));
      return "csi-" + HexFormat.of().formatHex(sum);
    } catch (NoSuchAlgorithmException e) {
      throw new IllegalStateException("every Java platform has SHA-256", e);
    }
  }

  /** The names of the claims {@code pod}'s volumes use, in the order of its volumes. */
  public static List<String> claimNames(MapValue pod) {
    List<String> out = new ArrayList<>();
    String podName = Meta.metaString(pod, "name");
    for (Value v : Nested.list(pod, "spec", "volumes")) {
      String claim = Nested.str(v, "persistentVolumeClaim", "claimName");
      if (!claim.isEmpty()) {
        out.add(claim);
      } else if (Nested.has(v, "ephemeral")) {
        // kube's ephemeral.VolumeClaimName
        out.add(podName + "-" + Nested.str(v, "name"));
      }
    }
    return out;
  }

  /**
   * The attachable CSI volumes of {@code pod}, by unique name, from the informers of claims,
   * volumes and CSIDrivers; claims not bound yet and volumes of other sources are left out.
   */
  public static Map<String, Volume> attachable(MapValue pod, Informer claims, Informer volumes,
      Informer drivers) {
    Map<String, Volume> out = new LinkedHashMap<>();
    String namespace = Meta.metaString(pod, "namespace");
    for (String claimName : claimNames(pod)) {
      Optional<MapValue> claim = claims.get(namespace, claimName);
      if (claim.isEmpty() || !"Bound".equals(Nested.str(claim.get(), "status", "phase"))) {
        continue;
      }
      String pvName = Nested.str(claim.get(), "spec", "volumeName");
      if (pvName.isEmpty()) {
        continue;
      }
      Optional<MapValue> pv = volumes.get("", pvName);
      if (pv.isEmpty() || !Nested.has(pv.get(), "spec", "csi")) {
        continue;
      }
      String driver = Nested.str(pv.get(), "spec", "csi", "driver");
      String handle = Nested.str(pv.get(), "spec", "csi", "volumeHandle");
      if (driver.isEmpty() || handle.isEmpty() || !attachRequired(drivers, driver)) {
        continue;
      }
      Volume v = new Volume(pvName, driver, handle);
      out.putIfAbsent(v.uniqueName(), v);
    }
    return out;
  }

  /**
   * kube's {@code skipAttach} negated: whether {@code driver} needs attaching, true unless its
   * CSIDriver exists with {@code spec.attachRequired: false}.
   */
  public static boolean attachRequired(Informer drivers, String driver) {
    Optional<MapValue> csiDriver = drivers.get("", driver);
    if (csiDriver.isEmpty()) {
      return true;
    }
    Value required = Nested.getOrNull(csiDriver.get(), "spec", "attachRequired");
    return required == null || required.isNull() || Nested.bool(required);
  }

  /**
   * kube's {@code volumeutil.IsPodTerminated}: a Pod whose volumes are no longer needed
   * (Succeeded or Failed, or deleted with no container running).
   */
  public static boolean terminated(MapValue pod) {
    String phase = Nested.str(pod, "status", "phase");
    if (phase.equals("Succeeded") || phase.equals("Failed")) {
      return true;
    }
    if (!Meta.hasMeta(pod, "deletionTimestamp")) {
      return false;
    }
    for (String field : List.of("initContainerStatuses", "containerStatuses",
        "ephemeralContainerStatuses")) {
      for (Value s : Nested.list(pod, "status", field)) {
        // kube's notRunning: a container neither terminated nor waiting may be running
        if (!Nested.has(s, "state", "terminated") && !Nested.has(s, "state", "waiting")) {
          return false;
        }
      }
    }
    return true;
  }
}
