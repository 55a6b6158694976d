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
 * Issue 25 as a user meets it: {@code ./scripts/serve} (every implemented controller on, leader
 * election on) through the real kubectl. Names, labels and revisions are what kube's deployment
 * controller writes; no Pod becomes ready (no kubelet), so a rollout stops after its surge.
 */
class ServeWorkloadsKubectlTest {
  private static final String TIMEOUT = "--timeout=120s";
  @TempDir
  static Path dir;
  static Serve.Running running;
  static Kubectl kubectl;

  @BeforeAll
  static void start() throws Exception {
    ServeOptions options = ServeOptions.parse("--secure-port", "0");
    running = Serve.start(options);
    kubectl = new Kubectl(Files.createDirectories(dir.resolve("kubectl")),
        running.kubeconfig(options));
  }

  @AfterAll
  static void stop() {
    running.close();
  }

  private static List<String> words(String jsonpathOutput) {
    String t = jsonpathOutput.trim();
    return t.isEmpty() ? List.of() : Arrays.asList(t.split("\\s+"));
  }

  @Test
  void aDeploymentRollsOutRollsBackAndIsDeletedInTheForeground() {
    kubectl.ok("create", "namespace", "apps");
    kubectl.ok("wait", "--for=create", "serviceaccount/default", "-n", "apps", TIMEOUT);
    kubectl.ok("create", "deployment", "web", "-n", "apps", "--image=nginx", "--replicas=3");
    kubectl.ok("wait", "-n", "apps", "deployment/web", "--for=jsonpath={.status.replicas}=3",
        TIMEOUT);

    List<String> sets = words(kubectl.ok("get", "rs", "-n", "apps", "-l", "app=web", "-o",
        "jsonpath={.items[*].metadata.name}"));
    assertThat(sets).hasSize(1);
    String first = sets.get(0);
    String hash = kubectl.ok("get", "rs", first, "-n", "apps", "-o",
        "jsonpath={.metadata.labels.pod-template-hash}");
    assertThat(first).isEqualTo("web-" + hash);
    assertThat(kubectl.ok("get", "rs", first, "-n", "apps", "-o",
        "jsonpath={.metadata.annotations.deployment\\.kubernetes\\.io/revision}")).isEqualTo("1");
    List<String> pods = words(kubectl.ok("get", "pods", "-n", "apps", "-l", "app=web", "-o",
        "jsonpath={.items[*].metadata.name}"));
    assertThat(pods).hasSize(3)
        .allSatisfy(p -> assertThat(p).matches("web-" + hash + "-[bcdfghjklmnpqrstvwxz2456789]{5}"));

    // maxSurge 25% of 3 rounds up to 1, maxUnavailable 25% rounds down to 0: one new Pod, and
    // no old one goes while the new one is not available
    kubectl.ok("set", "image", "deployment/web", "-n", "apps", "nginx=nginx:1.27");
    kubectl.ok("wait", "-n", "apps", "deployment/web",
        "--for=jsonpath={.status.updatedReplicas}=1", TIMEOUT);
    assertThat(words(kubectl.ok("get", "rs", "-n", "apps", "-l", "app=web", "-o",
        "jsonpath={.items[*].spec.replicas}"))).containsExactlyInAnyOrder("3", "1");

    kubectl.ok("rollout", "undo", "deployment/web", "-n", "apps");
    // the first ReplicaSet is the new one again, at the next revision
    kubectl.ok("wait", "-n", "apps", "rs/" + first,
        "--for=jsonpath={.metadata.annotations.deployment\\.kubernetes\\.io/revision}=3", TIMEOUT);
    assertThat(kubectl.ok("get", "deployment", "web", "-n", "apps", "-o",
        "jsonpath={.spec.template.spec.containers[0].image}")).isEqualTo("nginx");

    // kubectl waits for the foreground deletion: the garbage collector must finish it
    kubectl.ok("delete", "deployment", "web", "-n", "apps", "--cascade=foreground", TIMEOUT);
    kubectl.ok("wait", "-n", "apps", "--for=delete", "pods", "-l", "app=web", TIMEOUT);
    assertThat(kubectl.ok("get", "rs,pods", "-n", "apps", "-l", "app=web", "-o",
        "jsonpath={.items[*].metadata.name}").trim()).isEmpty();
  }

  @Test
  void deletingAFullNamespaceCompletes() {
    kubectl.ok("create", "namespace", "full");
    kubectl.ok("wait", "--for=create", "serviceaccount/default", "-n", "full", TIMEOUT);
    kubectl.ok("create", "deployment", "db", "-n", "full", "--image=postgres", "--replicas=2");
    kubectl.ok("create", "configmap", "settings", "-n", "full", "--from-literal=a=b");
    kubectl.ok("wait", "-n", "full", "deployment/db", "--for=jsonpath={.status.replicas}=2",
        TIMEOUT);
    kubectl.ok("delete", "namespace", "full", TIMEOUT);
    assertThat(kubectl.run("get", "namespace", "full").stderr())
        .contains("namespaces \"full\" not found");
  }
}
