/*
 * Copyright The apiserver4j authors.
 * SPDX-License-Identifier: Apache-2.0
 */
package io.apiserver4j.controllers.internal;

import static org.assertj.core.api.Assertions.assertThat;

import io.apiserver4j.core.Json;
import io.apiserver4j.core.MapValue;
import org.junit.jupiter.api.Test;

/**
 * kube's names for CSI volumes: pkg/volume/csi/csi_attacher.go {@code getAttachmentName}
 * (expected values are the SHA-256 of the three strings written one after another, computed
 * with sha256sum), csi_plugin.go's unique volume names, and pkg/volume/util's
 * {@code IsPodTerminated} with its {@code notRunning}.
 */
class CsiVolumesTest {
  @Test
  void theAttachmentNameIsCsiAndTheSha256OfHandleDriverAndNode() {
    assertThat(CsiVolumes.attachmentName("vol-1", "hostpath.csi.k8s.io", "node-1"))
        .isEqualTo("csi-a5a2e67339ab5660a390dc86be397e784322823ff01f40cf2c01a72c3cab1374");
    assertThat(CsiVolumes.attachmentName("pvc-uid-5", "ebs.csi.example.com", "node-1"))
        .isEqualTo("csi-5dfc493b5c463cc80fac9c26a8b98e4edaec2d49f105894c41a6bf4abb214c3b");
  }

  @Test
  void theUniqueNameIsThePluginThenDriverCaretHandle() {
    CsiVolumes.Volume v = new CsiVolumes.Volume("pv-1", "hostpath.csi.k8s.io", "vol-1");
    assertThat(v.uniqueName()).isEqualTo("kubernetes.io/csi/hostpath.csi.k8s.io^vol-1");
    assertThat(v.attachmentName("node-1")).isEqualTo(
        CsiVolumes.attachmentName("vol-1", "hostpath.csi.k8s.io", "node-1"));
  }

  @Test
  void claimNamesIncludeGenericEphemeralVolumesAsPodDashVolume() {
    MapValue pod = (MapValue) Json.read("{\"metadata\":{\"name\":\"web\"},\"spec\":{\"volumes\":"
        + "[{\"name\":\"a\",\"persistentVolumeClaim\":{\"claimName\":\"data\"}},"
        + "{\"name\":\"scratch\",\"ephemeral\":{\"volumeClaimTemplate\":{}}},"
        + "{\"name\":\"cfg\",\"configMap\":{\"name\":\"x\"}}]}}");
    assertThat(CsiVolumes.claimNames(pod)).containsExactly("data", "web-scratch");
  }

  @Test
  void aPodIsTerminatedWhenTerminalOrDeletedWithNoContainerRunning() {
    assertThat(CsiVolumes.terminated(pod("{\"phase\":\"Succeeded\"}", false))).isTrue();
    assertThat(CsiVolumes.terminated(pod("{\"phase\":\"Failed\"}", false))).isTrue();
    assertThat(CsiVolumes.terminated(pod("{\"phase\":\"Running\"}", false))).isFalse();
    assertThat(CsiVolumes.terminated(pod("{\"phase\":\"Running\",\"containerStatuses\":"
        + "[{\"state\":{\"running\":{}}}]}", true))).isFalse();
    // kube's notRunning: a waiting or terminated container is not running
    assertThat(CsiVolumes.terminated(pod("{\"phase\":\"Running\",\"containerStatuses\":"
        + "[{\"state\":{\"waiting\":{}}},{\"state\":{\"terminated\":{}}}]}", true))).isTrue();
    assertThat(CsiVolumes.terminated(pod("{\"phase\":\"Pending\"}", true))).isTrue();
  }

  private static MapValue pod(String status, boolean deleted) {
    return (MapValue) Json.read("{\"metadata\":{\"name\":\"p\"" + (deleted
        ? ",\"deletionTimestamp\":\"2026-01-01T00:00:00Z\"" : "") + "},\"status\":" + status
        + "}");
  }
}
