/*
 * Copyright The apiserver4j authors.
 * SPDX-License-Identifier: Apache-2.0
 */
package io.apiserver4j.cluster;

import static org.assertj.core.api.Assertions.assertThat;

import io.apiserver4j.core.GroupVersionResource;
import io.apiserver4j.core.Json;
import io.apiserver4j.core.MapValue;
import io.apiserver4j.core.Meta;
import io.apiserver4j.core.Nested;
import io.apiserver4j.core.Value;
import java.security.MessageDigest;
import java.util.HexFormat;
import java.util.List;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.Test;

/**
 * A Pod with a dynamically provisioned CSI volume on a simulated Node, with the binder, the
 * simulated provisioner, the attach/detach controller and the simulated attacher: as in a
 * cluster, the volume gets a VolumeAttachment named by kube's CSI attacher
 * ({@code csi-<sha256(volumeHandle+driver+node)>}, pkg/volume/csi/csi_attacher.go), the Node
 * lists it in {@code status.volumesAttached} and its kubelet in {@code status.volumesInUse}
 * ({@code kubernetes.io/csi/<driver>^<handle>}); once the Pod is gone the kubelet no longer
 * reports it and the controller detaches it.
 */
class AttachDetachScenarioTest {
  private static final GroupVersionResource PVCS =
      new GroupVersionResource("", "v1", "persistentvolumeclaims");
  private static final GroupVersionResource ATTACHMENTS =
      new GroupVersionResource("storage.k8s.io", "v1", "volumeattachments");
  private static final String DRIVER = "ebs.csi.example.com";
  private ClusterFixture f;

  @AfterEach
  void close() {
    if (f != null) {
      f.close();
    }
  }

  /** kube's getAttachmentName, written from its Go source for this test's expectations. */
  private static String attachmentName(String handle, String driver, String node)
      throws Exception {
    return "csi-" + HexFormat.of().formatHex(MessageDigest.getInstance("SHA-256")
        .digest((handle + driver + node).getBytes(java.nio.charset.StandardCharsets.UTF_8)));
  }

  private MapValue node(String name) {
    return f.api.resources(ClusterFixture.NODES).get(name);
  }

  @Test
  void aPodsVolumeIsAttachedToItsNodeInUseThereAndDetachedWhenThePodIsGone() throws Exception {
    f = new ClusterFixture(b -> b.nodes(2), "persistentvolume-binder,attachdetach");
    f.api.resources(new GroupVersionResource("storage.k8s.io", "v1", "storageclasses"))
        .create(Json.read("{\"apiVersion\":\"storage.k8s.io/v1\",\"kind\":\"StorageClass\","
            + "\"metadata\":{\"name\":\"fast\"},\"provisioner\":\"" + DRIVER + "\","
            + "\"volumeBindingMode\":\"WaitForFirstConsumer\"}"));
    f.api.resources(PVCS).namespace("ns").create(Json.read("{\"apiVersion\":\"v1\",\"kind\":"
        + "\"PersistentVolumeClaim\",\"metadata\":{\"name\":\"data\"},\"spec\":{\"accessModes\":"
        + "[\"ReadWriteOnce\"],\"storageClassName\":\"fast\",\"resources\":{\"requests\":"
        + "{\"storage\":\"1Gi\"}}}}"));
    f.createPod("{\"apiVersion\":\"v1\",\"kind\":\"Pod\",\"metadata\":{\"name\":\"db\"},"
        + "\"spec\":{\"containers\":[{\"name\":\"c\",\"image\":\"postgres\"}],\"volumes\":"
        + "[{\"name\":\"data\",\"persistentVolumeClaim\":{\"claimName\":\"data\"}}]}}");
    f.idle();

    MapValue pod = f.pods().get("db");
    assertThat(Nested.str(pod, "status", "phase")).isEqualTo("Running");
    String nodeName = Nested.str(pod, "spec", "nodeName");
    MapValue claim = f.api.resources(PVCS).namespace("ns").get("data");
    String volume = Nested.str(claim, "spec", "volumeName");
    // the simulated provisioner's volume handle is the volume's name
    String unique = "kubernetes.io/csi/" + DRIVER + "^" + volume;
    MapValue attachment = f.api.resources(ATTACHMENTS)
        .get(attachmentName(volume, DRIVER, nodeName));
    assertThat(Nested.str(attachment, "spec", "attacher")).isEqualTo(DRIVER);
    assertThat(Nested.str(attachment, "spec", "nodeName")).isEqualTo(nodeName);
    assertThat(Nested.str(attachment, "spec", "source", "persistentVolumeName"))
        .isEqualTo(volume);
    assertThat(Nested.bool(attachment, "status", "attached")).isTrue();
    MapValue node = node(nodeName);
    assertThat(Nested.list(node, "status", "volumesAttached")).containsExactly(Json.read(
        "{\"name\":\"" + unique + "\",\"devicePath\":\"\"}"));
    assertThat(Nested.list(node, "status", "volumesInUse")).containsExactly(Value.of(unique));
    for (String other : f.cluster.nodes()) {
      if (!other.equals(nodeName)) {
        assertThat(Nested.list(node(other), "status", "volumesAttached")).isEmpty();
        assertThat(Nested.list(node(other), "status", "volumesInUse")).isEmpty();
      }
    }

    f.pods().delete("db");
    f.advance(java.time.Duration.ofSeconds(30));
    assertThat(f.pods().find("db")).isEmpty();
    assertThat(f.api.resources(ATTACHMENTS).list()).isEmpty();
    assertThat(Nested.list(node(nodeName), "status", "volumesInUse")).isEmpty();
    assertThat(Nested.list(node(nodeName), "status", "volumesAttached")).isEmpty();
    assertThat(f.api.resources(ATTACHMENTS).list()).extracting(a -> Meta.metaString(a, "name"))
        .isEqualTo(List.of());
  }
}
