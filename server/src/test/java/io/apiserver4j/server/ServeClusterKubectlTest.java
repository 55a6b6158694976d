/*
 * Copyright The apiserver4j authors.
 * SPDX-License-Identifier: Apache-2.0
 */
package io.apiserver4j.server;

import static org.assertj.core.api.Assertions.assertThat;

import io.apiserver4j.http.Kubectl;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.Arrays;
import java.util.List;
import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * Issue 26 as a user meets it: {@code ./scripts/serve --simulated-nodes 3} (the controllers on)
 * through the real kubectl, with kubectl's own waits: a Deployment rolls out and becomes
 * Available, its Service's EndpointSlice lists the ready Pods' IPs, a new image rolls over, a Job
 * completes, a StatefulSet starts in order with bound claims, a Node is cordoned and uncordoned,
 * and a drain respects a PodDisruptionBudget.
 */
class ServeClusterKubectlTest {
  // kubectl's own wait, inside the minute a kubectl run may take here
  private static final String TIMEOUT = "--timeout=50s";
  @TempDir
  static Path dir;
  static Serve.Running running;
  static Kubectl kubectl;

  @BeforeAll
  static void start() throws Exception {
    ServeOptions options = ServeOptions.parse("--secure-port", "0", "--simulated-nodes", "3");
    running = Serve.start(options);
    kubectl = new Kubectl(Files.createDirectories(dir.resolve("kubectl")),
        running.kubeconfig(options));
  }

  @AfterAll
  static void stop() {
    running.close();
  }

  private static List<String> sortedWords(String jsonpathOutput) {
    String t = jsonpathOutput.trim();
    return t.isEmpty() ? List.of() : Arrays.stream(t.split("\\s+")).sorted().toList();
  }

  private static void namespace(String name) {
    kubectl.ok("create", "namespace", name);
    kubectl.ok("wait", "--for=create", "serviceaccount/default", "-n", name, TIMEOUT);
  }

  @Test
  void aDeploymentBecomesAvailableIsServedAndRollsOver() {
    namespace("web");
    kubectl.ok("create", "deployment", "web", "-n", "web", "--image=nginx", "--replicas=3");
    assertThat(kubectl.ok("rollout", "status", "deployment/web", "-n", "web", TIMEOUT))
        .contains("deployment \"web\" successfully rolled out");
    kubectl.ok("wait", "--for=condition=Available", "deployment/web", "-n", "web", TIMEOUT);

    kubectl.ok("expose", "deployment", "web", "-n", "web", "--port=80");
    kubectl.ok("wait", "-n", "web", "endpointslice", "-l", "kubernetes.io/service-name=web",
        "--for=jsonpath={.endpoints[2].conditions.ready}=true", TIMEOUT);
    List<String> podIps = sortedWords(kubectl.ok("get", "pods", "-n", "web", "-l", "app=web",
        "-o", "jsonpath={.items[*].status.podIP}"));
    assertThat(podIps).hasSize(3);
    assertThat(sortedWords(kubectl.ok("get", "endpointslice", "-n", "web", "-l",
        "kubernetes.io/service-name=web", "-o",
        "jsonpath={.items[*].endpoints[*].addresses[0]}"))).isEqualTo(podIps);

    kubectl.ok("set", "image", "deployment/web", "-n", "web", "nginx=nginx:1.27");
    assertThat(kubectl.ok("rollout", "status", "deployment/web", "-n", "web", TIMEOUT))
        .contains("deployment \"web\" successfully rolled out");
    assertThat(sortedWords(kubectl.ok("get", "rs", "-n", "web", "-l", "app=web", "-o",
        "jsonpath={.items[*].spec.replicas}"))).containsExactly("0", "3");
  }

  @Test
  void aJobCompletes() {
    namespace("batch");
    kubectl.ok("create", "job", "pi", "-n", "batch", "--image=perl");
    kubectl.ok("wait", "--for=condition=Complete", "job/pi", "-n", "batch", TIMEOUT);
    assertThat(kubectl.ok("get", "job", "pi", "-n", "batch", "-o",
        "jsonpath={.status.succeeded}")).isEqualTo("1");
  }

  @Test
  void cordonAndUncordon() {
    assertThat(kubectl.ok("cordon", "node-3")).contains("node/node-3 cordoned");
    assertThat(kubectl.ok("get", "node", "node-3", "-o", "jsonpath={.spec.unschedulable}"))
        .isEqualTo("true");
    assertThat(kubectl.ok("uncordon", "node-3")).contains("node/node-3 uncordoned");
    assertThat(kubectl.ok("get", "node", "node-3", "-o", "jsonpath={.spec.unschedulable}"))
        .isEmpty();
  }

  @Test
  void aDrainRespectsAPodDisruptionBudget() {
    namespace("drain");
    kubectl.ok("create", "deployment", "db", "-n", "drain", "--image=postgres",
        "--replicas=3");
    kubectl.ok("wait", "--for=condition=Available", "deployment/db", "-n", "drain", TIMEOUT);
    kubectl.ok("create", "poddisruptionbudget", "db", "-n", "drain", "--selector=app=db",
        "--min-available=3");
    kubectl.ok("wait", "-n", "drain", "pdb/db", "--for=jsonpath={.status.currentHealthy}=3",
        TIMEOUT);
    String node = kubectl.ok("get", "pods", "-n", "drain", "-l", "app=db", "-o",
        "jsonpath={.items[0].spec.nodeName}").trim();

    // no disruption allowed: kubectl retries the eviction until its timeout, then fails
    Kubectl.Result refused = kubectl.run("drain", node, "--ignore-daemonsets",
        "--grace-period=1", "--timeout=8s");
    assertThat(refused.exitCode()).isNotZero();
    assertThat(refused.stdout() + refused.stderr())
        .contains("Cannot evict pod as it would violate the pod's disruption budget");
    assertThat(kubectl.ok("get", "node", node, "-o", "jsonpath={.spec.unschedulable}"))
        .isEqualTo("true");

    kubectl.ok("patch", "pdb", "db", "-n", "drain", "--type=merge", "-p",
        "{\"spec\":{\"minAvailable\":2}}");
    kubectl.ok("wait", "-n", "drain", "pdb/db", "--for=jsonpath={.status.disruptionsAllowed}=1",
        TIMEOUT);
    assertThat(kubectl.ok("drain", node, "--ignore-daemonsets", "--grace-period=1", TIMEOUT))
        .contains("node/" + node + " drained");
    // the evicted Pod's replacement runs elsewhere
    kubectl.ok("wait", "--for=condition=Available", "deployment/db", "-n", "drain", TIMEOUT);
    assertThat(sortedWords(kubectl.ok("get", "pods", "-n", "drain", "-l", "app=db", "-o",
        "jsonpath={.items[*].spec.nodeName}"))).hasSize(3).doesNotContain(node);
    kubectl.ok("uncordon", node);
  }
  @Test
  void aStatefulSetStartsInOrderWithBoundClaims() {
    namespace("sts");
    kubectl.ok("apply", "-f", kubectl.file("sts.yaml", """
        apiVersion: storage.k8s.io/v1
        kind: StorageClass
        metadata: {name: simulated}
        provisioner: example.com/simulated
        ---
        apiVersion: v1
        kind: Service
        metadata: {name: web, namespace: sts}
        spec:
          clusterIP: None
          selector: {app: web}
          ports: [{port: 80}]
        ---
        apiVersion: apps/v1
        kind: StatefulSet
        metadata: {name: web, namespace: sts}
        spec:
          serviceName: web
          replicas: 2
          selector: {matchLabels: {app: web}}
          template:
            metadata: {labels: {app: web}}
            spec:
              containers:
              - name: nginx
                image: registry.k8s.io/nginx-slim:0.24
                volumeMounts: [{name: www, mountPath: /usr/share/nginx/html}]
          volumeClaimTemplates:
          - metadata: {name: www}
            spec:
              accessModes: [ReadWriteOnce]
              storageClassName: simulated
              resources: {requests: {storage: 1Gi}}
        """).toString());
    assertThat(kubectl.ok("rollout", "status", "statefulset/web", "-n", "sts", TIMEOUT))
        .contains("partitioned roll out complete: 2 new pods have been updated");
    assertThat(kubectl.ok("get", "pvc", "-n", "sts", "-o",
        "jsonpath={.items[*].metadata.name} {.items[*].status.phase}").trim())
        .isEqualTo("www-web-0 www-web-1 Bound Bound");
    // OrderedReady: web-1 is made only once web-0 is Ready
    String web0Ready = kubectl.ok("get", "pod", "web-0", "-n", "sts", "-o",
        "jsonpath={.status.conditions[?(@.type==\"Ready\")].lastTransitionTime}").trim();
    String web1Created = kubectl.ok("get", "pod", "web-1", "-n", "sts", "-o",
        "jsonpath={.metadata.creationTimestamp}").trim();
    assertThat(web1Created).isGreaterThanOrEqualTo(web0Ready);
  }
}
