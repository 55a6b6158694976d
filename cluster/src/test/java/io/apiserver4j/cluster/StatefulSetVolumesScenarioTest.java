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
import java.util.List;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.Test;

/**
 * Issue 26's "a StatefulSet's Pods start in order with bound PVCs" on simulated Nodes: a default
 * StorageClass that binds WaitForFirstConsumer, the scheduler selecting each claim's Node (kube's
 * VolumeBinding PreBind), the binder and the simulated provisioner binding it. Expected names and
 * annotations are kube's (the StatefulSet tutorial's www-web-N claims, pv_controller.go's
 * annotations, {@code volume.kubernetes.io/selected-node}).
 */
class StatefulSetVolumesScenarioTest {
  private static final GroupVersionResource PVCS =
      new GroupVersionResource("", "v1", "persistentvolumeclaims");
  private ClusterFixture f;

  @AfterEach
  void close() {
    if (f != null) {
      f.close();
    }
  }

  @Test
  void podsStartInOrderWithBoundClaimsOnTheirNodes() {
    f = new ClusterFixture(b -> b, "statefulset,persistentvolume-binder");
    f.api.resources(new GroupVersionResource("storage.k8s.io", "v1", "storageclasses"))
        .create(Json.read("{\"apiVersion\":\"storage.k8s.io/v1\",\"kind\":\"StorageClass\","
            + "\"metadata\":{\"name\":\"standard\",\"annotations\":{"
            + "\"storageclass.kubernetes.io/is-default-class\":\"true\"}},"
            + "\"provisioner\":\"example.com/simulated\","
            + "\"volumeBindingMode\":\"WaitForFirstConsumer\"}"));
    f.api.resources(new GroupVersionResource("apps", "v1", "statefulsets")).namespace("ns")
        .create(Json.read("{\"apiVersion\":\"apps/v1\",\"kind\":\"StatefulSet\",\"metadata\":"
            + "{\"name\":\"web\"},\"spec\":{\"serviceName\":\"nginx\",\"replicas\":3,"
            + "\"selector\":{\"matchLabels\":{\"app\":\"nginx\"}},\"template\":{\"metadata\":"
            + "{\"labels\":{\"app\":\"nginx\"}},\"spec\":{\"containers\":[{\"name\":\"nginx\","
            + "\"image\":\"nginx\",\"volumeMounts\":[{\"name\":\"www\",\"mountPath\":"
            + "\"/usr/share/nginx/html\"}]}]}},\"volumeClaimTemplates\":[{\"metadata\":"
            + "{\"name\":\"www\"},\"spec\":{\"accessModes\":[\"ReadWriteOnce\"],\"resources\":"
            + "{\"requests\":{\"storage\":\"1Gi\"}}}}]}}"));
    f.idle();
    List<MapValue> pods = f.pods().list();
    assertThat(pods).extracting(p -> Meta.metaString(p, "name"))
        .containsExactlyInAnyOrder("web-0", "web-1", "web-2");
    for (MapValue pod : pods) {
      assertThat(Nested.str(pod, "status", "phase")).isEqualTo("Running");
      MapValue claim = f.api.resources(PVCS).namespace("ns")
          .get("www-" + Meta.metaString(pod, "name"));
      assertThat(Nested.str(claim, "status", "phase")).isEqualTo("Bound");
      assertThat(Nested.str(claim, "spec", "storageClassName")).isEqualTo("standard");
      assertThat(Meta.annotations(claim)).containsEntry("volume.kubernetes.io/selected-node",
          Nested.str(pod, "spec", "nodeName"));
      assertThat(Nested.str(claim, "spec", "volumeName"))
          .isEqualTo("pvc-" + Meta.metaString(claim, "uid"));
    }
  }
}
