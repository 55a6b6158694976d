/*
 * Copyright The apiserver4j authors.
 * SPDX-License-Identifier: Apache-2.0
 */
package io.apiserver4j.http;

import static org.assertj.core.api.Assertions.assertThat;

import io.apiserver4j.core.MapValue;
import io.apiserver4j.core.Nested;
import io.apiserver4j.core.Value;
import io.apiserver4j.core.Yaml;
import java.util.List;
import org.junit.jupiter.api.Test;

/**
 * Issue 24 as a new user meets it, through the real kubectl: {@code kubectl create namespace t1;
 * kubectl run p1 -n t1 --image=nginx -o yaml} answers with the Pod a 1.36 cluster returns
 * (kube-apiserver's default admission plugins and kube-controller-manager's per-namespace
 * objects), also in a server-side dry run.
 */
class KubectlDefaultAdmissionTest extends KubectlServerTest {

  private static void assertClusterPod(MapValue pod, String name) {
    MapValue spec = Nested.map(pod, "spec");
    assertThat(Nested.str(spec, "serviceAccountName")).isEqualTo("default");
    assertThat(Nested.str(spec, "serviceAccount")).isEqualTo("default");
    assertThat(Nested.integer(spec, "priority")).isZero();
    assertThat(Nested.str(spec, "preemptionPolicy")).isEqualTo("PreemptLowerPriority");
    assertThat(Nested.list(spec, "tolerations")).containsExactly(
        Yaml.read("{key: node.kubernetes.io/not-ready, operator: Exists, effect: NoExecute,"
            + " tolerationSeconds: 300}"),
        Yaml.read("{key: node.kubernetes.io/unreachable, operator: Exists, effect: NoExecute,"
            + " tolerationSeconds: 300}"));
    List<Value> volumes = Nested.list(spec, "volumes");
    assertThat(volumes).hasSize(1);
    String volume = Nested.str(volumes.get(0), "name");
    assertThat(volume).matches("kube-api-access-[bcdfghjklmnpqrstvwxz2456789]{5}");
    assertThat(Nested.list(Nested.map(volumes.get(0), "projected"), "sources")).hasSize(3);
    MapValue container = (MapValue) Nested.list(spec, "containers").get(0);
    assertThat(Nested.str(container, "name")).isEqualTo(name);
    assertThat(Nested.list(container, "volumeMounts")).containsExactly(Yaml.read("{name: "
        + volume + ", readOnly: true, mountPath: /var/run/secrets/kubernetes.io/serviceaccount}"));
  }

  @Test
  void runInANewNamespace() {
    kubectl.ok("create", "namespace", "t1");
    // the serviceaccount controller writes the default ServiceAccount in the background
    kubectl.ok("wait", "--for=create", "serviceaccount/default", "-n", "t1", "--timeout=60s");
    MapValue pod = (MapValue) Yaml.read(kubectl.ok("run", "p1", "-n", "t1", "--image=nginx",
        "-o", "yaml"));
    assertClusterPod(pod, "p1");
    assertThat(kubectl.ok("get", "serviceaccount", "default", "-n", "t1", "-o",
        "jsonpath={.metadata.name}")).isEqualTo("default");
  }

  @Test
  void serverSideDryRunGivesTheSamePod() {
    kubectl.ok("create", "namespace", "t2");
    // the serviceaccount controller writes the default ServiceAccount in the background
    kubectl.ok("wait", "--for=create", "serviceaccount/default", "-n", "t2", "--timeout=60s");
    MapValue pod = (MapValue) Yaml.read(kubectl.ok("run", "p2", "-n", "t2", "--image=nginx",
        "--dry-run=server", "-o", "yaml"));
    assertClusterPod(pod, "p2");
    assertThat(kubectl.run("get", "pod", "p2", "-n", "t2").exitCode()).isNotZero();
  }

  @Test
  void everyNamespaceGetsTheRootCaConfigMap() {
    kubectl.ok("create", "namespace", "t3");
    kubectl.ok("wait", "--for=create", "configmap/kube-root-ca.crt", "-n", "t3",
        "--timeout=30s");
    assertThat(kubectl.ok("get", "configmap", "kube-root-ca.crt", "-n", "t3", "-o",
        "jsonpath={.metadata.annotations.kubernetes\\.io/description}"))
        .startsWith("Contains a CA bundle that can be used to verify the kube-apiserver");
  }
}
