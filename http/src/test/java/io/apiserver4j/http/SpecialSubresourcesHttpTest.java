/*
 * Copyright The apiserver4j authors.
 * SPDX-License-Identifier: Apache-2.0
 */
package io.apiserver4j.http;

import static org.assertj.core.api.Assertions.assertThat;

import io.apiserver4j.apiserver.ApiRequest;
import io.apiserver4j.apiserver.ApiRequest.Verb;
import io.apiserver4j.core.GroupVersionResource;
import io.apiserver4j.core.Json;
import io.apiserver4j.core.MapValue;
import io.apiserver4j.core.Nested;
import io.apiserver4j.core.Value;
import io.fabric8.kubernetes.client.Config;
import io.fabric8.kubernetes.client.ConfigBuilder;
import io.fabric8.kubernetes.client.KubernetesClient;
import io.fabric8.kubernetes.client.KubernetesClientBuilder;
import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;

/**
 * The special subresources through real clients: {@code kubectl drain} evicts through
 * {@code pods/eviction} and honours PodDisruptionBudgets, fabric8's {@code evict()} tells an
 * eviction from a refusal by kube's 429, and {@code kubectl certificate approve} writes
 * {@code certificatesigningrequests/approval}.
 */
class SpecialSubresourcesHttpTest extends KubectlServerTest {
  // an ECDSA P-256 CSR (openssl req -new, CN=alice, O=dev): kube refuses requests that are not CSRs
  private static final String CSR_REQUEST = "LS0tLS1CRUdJTiBDRVJUSUZJQ0FURSBSRVFVRVNULS0tLS0KTUlIYU1JR0FBZ0VBTUI0eERqQU1CZ05WQkFNTUJXRnNhV05sTVF3d0NnWURWUVFLREFOa1pYWXdXVEFUQmdjcQpoa2pPUFFJQkJnZ3Foa2pPUFFNQkJ3TkNBQVF2cHdybUJ0R1ZFKzdNMEJBUW9VTHJkU2YvUjdWOFp0eUdFVFQzCjJ0Ykh2QlFNdE5CdWd0bkd4bEg1TXo5dmU0UEgwdEFBZmRId3FWdHJFTC90ZWx4eW9BQXdDZ1lJS29aSXpqMEUKQXdJRFNRQXdSZ0loQVBMQU1JZmF0amxCa0R5ZDNIcld5eGl2WlpEZjRsd080dUl6dHo4d2dyUjNBaUVBNkNjawp4bzFHcG1ONWM2aUM4R2JKUVQ0NWJHVzhYT0gxLzNITjNJQmlYUkk9Ci0tLS0tRU5EIENFUlRJRklDQVRFIFJFUVVFU1QtLS0tLQo=";
  private static final GroupVersionResource PODS = new GroupVersionResource("", "v1", "pods");
  private static final GroupVersionResource PDBS =
      new GroupVersionResource("policy", "v1", "poddisruptionbudgets");
  static KubernetesClient client;

  @BeforeAll
  static void start() {
    Config config = new ConfigBuilder(Config.empty()).withMasterUrl(http.url().toString())
        .withRequestTimeout(10_000).build();
    client = new KubernetesClientBuilder().withConfig(config).build();
  }

  @AfterAll
  static void stop() {
    client.close();
  }

  private static MapValue ok(Verb verb, GroupVersionResource gvr, String ns, String name,
      String sub, String body) {
    ApiRequest.Builder b = ApiRequest.builder(verb, gvr).namespace(ns);
    if (!name.isEmpty()) {
      b.name(name);
    }
    if (!sub.isEmpty()) {
      b.subresource(sub);
    }
    if (body != null) {
      b.body(Json.read(body));
    }
    return api.handle(b.build()).orThrow();
  }

  private static void namespace(String ns) {
    ok(Verb.CREATE, new GroupVersionResource("", "v1", "namespaces"), "", "", "",
        "{\"apiVersion\":\"v1\",\"kind\":\"Namespace\",\"metadata\":{\"name\":\"" + ns + "\"}}");
  }

  /** A running, ready pod labelled app=web, on {@code node} if given. */
  private static void runningPod(String ns, String name, String node) {
    ok(Verb.CREATE, PODS, ns, "", "", "{\"apiVersion\":\"v1\",\"kind\":\"Pod\",\"metadata\":{"
        + "\"name\":\"" + name + "\",\"labels\":{\"app\":\"web\"}},\"spec\":{"
        + (node.isEmpty() ? "" : "\"nodeName\":\"" + node + "\",")
        + "\"containers\":[{\"name\":\"c\",\"image\":\"nginx\"}]}}");
    MapValue pod = ok(Verb.GET, PODS, ns, name, "", null);
    ok(Verb.UPDATE, PODS, ns, name, "status", Json.write(pod.with("status", Json.read(
        "{\"phase\":\"Running\",\"conditions\":[{\"type\":\"Ready\",\"status\":\"True\"}]}"))));
  }

  private static void budget(String ns, long allowed) {
    ok(Verb.CREATE, PDBS, ns, "", "", "{\"apiVersion\":\"policy/v1\",\"kind\":"
        + "\"PodDisruptionBudget\",\"metadata\":{\"name\":\"web\"},\"spec\":{\"minAvailable\":1,"
        + "\"selector\":{\"matchLabels\":{\"app\":\"web\"}}}}");
    MapValue pdb = ok(Verb.GET, PDBS, ns, "web", "", null);
    ok(Verb.UPDATE, PDBS, ns, "web", "status", Json.write(pdb.with("status", Json.read(
        "{\"observedGeneration\":1,\"disruptionsAllowed\":" + allowed + ",\"currentHealthy\":2,"
            + "\"desiredHealthy\":1,\"expectedPods\":2}"))));
  }

  @Test
  void kubectlDrainEvictsThePodsOfTheNodeThroughTheirBudget() {
    namespace("drain");
    ok(Verb.CREATE, new GroupVersionResource("", "v1", "nodes"), "", "", "", "{\"apiVersion\":"
        + "\"v1\",\"kind\":\"Node\",\"metadata\":{\"name\":\"node-1\"}}");
    runningPod("drain", "a", "node-1");
    runningPod("drain", "b", "node-1");
    runningPod("drain", "elsewhere", "");
    budget("drain", 2);

    Kubectl.Result r = kubectl.run("drain", "node-1", "--force", "--grace-period=0",
        "--timeout=60s");

    assertThat(r.exitCode()).as(r.toString()).isZero();
    assertThat(r.out()).contains("node/node-1 cordoned", "evicting pod drain/a",
        "pod/a evicted", "pod/b evicted", "node/node-1 drained");
    MapValue pdb = ok(Verb.GET, PDBS, "drain", "web", "", null);
    assertThat(Nested.getOrNull(pdb, "status", "disruptionsAllowed")).isEqualTo(Value.of(0L));
    assertThat(Nested.map(pdb, "status", "disruptedPods").size()).isEqualTo(2);
    assertThat(api.handle(ApiRequest.builder(Verb.GET, PODS).namespace("drain").name("a")
        .build()).code()).isEqualTo(404);
    assertThat(ok(Verb.GET, PODS, "drain", "elsewhere", "", null)).isNotNull();
    assertThat(Nested.getOrNull(ok(Verb.GET, new GroupVersionResource("", "v1", "nodes"), "",
        "node-1", "", null), "spec", "unschedulable")).isEqualTo(Value.of(true));
  }

  @Test
  void fabric8EvictIsRefusedByABudgetWithoutDisruptions() {
    namespace("evict");
    runningPod("evict", "a", "");
    runningPod("evict", "b", "");
    budget("evict", 1);

    boolean first = client.pods().inNamespace("evict").withName("a").evict();
    boolean second = client.pods().inNamespace("evict").withName("b").evict();

    assertThat(first).isTrue();
    assertThat(second).isFalse();
    assertThat(client.pods().inNamespace("evict").withName("a").get()).isNull();
    assertThat(client.pods().inNamespace("evict").withName("b").get()).isNotNull();
  }

  @Test
  void kubectlCertificateApproveWritesTheApprovalSubresource() {
    ok(Verb.CREATE, new GroupVersionResource("certificates.k8s.io", "v1",
        "certificatesigningrequests"), "", "", "", "{\"apiVersion\":\"certificates.k8s.io/v1\","
        + "\"kind\":\"CertificateSigningRequest\",\"metadata\":{\"name\":\"csr-1\"},\"spec\":{"
        + "\"request\":\"" + CSR_REQUEST + "\",\"signerName\":\"example.com/signer\",\"usages\":["
        + "\"client auth\"]}}");

    Kubectl.Result approve = kubectl.run("certificate", "approve", "csr-1");
    Kubectl.Result deny = kubectl.run("certificate", "deny", "csr-1");

    assertThat(approve.exitCode()).as(approve.toString()).isZero();
    assertThat(approve.out()).contains("certificatesigningrequest.certificates.k8s.io/csr-1"
        + " approved");
    MapValue csr = ok(Verb.GET, new GroupVersionResource("certificates.k8s.io", "v1",
        "certificatesigningrequests"), "", "csr-1", "", null);
    MapValue condition = (MapValue) Nested.list(csr, "status", "conditions").get(0);
    assertThat(Nested.str(condition, "type")).isEqualTo("Approved");
    assertThat(Nested.str(condition, "reason")).isEqualTo("KubectlApprove");
    // kubectl refuses to deny an approved request itself, without asking the server
    assertThat(deny.exitCode()).isNotZero();
    assertThat(deny.toString()).contains("certificate signing request \"csr-1\" is already Approved");
  }

  @Test
  void kubectlDebugAddsAnEphemeralContainerAndKubectlPatchResizes() {
    namespace("debug");
    ok(Verb.CREATE, PODS, "debug", "", "", "{\"apiVersion\":\"v1\",\"kind\":\"Pod\",\"metadata\":{"
        + "\"name\":\"p\"},\"spec\":{\"containers\":[{\"name\":\"app\",\"image\":\"nginx\","
        + "\"resources\":{\"requests\":{\"cpu\":\"100m\"},\"limits\":{\"cpu\":\"200m\"}}}]}}");

    Kubectl.Result debug = kubectl.run("-n", "debug", "debug", "p", "--image=busybox",
        "-c", "dbg", "--target=app");
    Kubectl.Result resize = kubectl.run("-n", "debug", "patch", "pod", "p",
        "--subresource=resize", "-p", "{\"spec\":{\"containers\":[{\"name\":\"app\","
            + "\"resources\":{\"limits\":{\"cpu\":\"300m\"}}}]}}");

    assertThat(debug.exitCode()).as(debug.toString()).isZero();
    MapValue pod = ok(Verb.GET, PODS, "debug", "p", "", null);
    MapValue dbg = (MapValue) Nested.list(pod, "spec", "ephemeralContainers").get(0);
    assertThat(Nested.str(dbg, "name")).isEqualTo("dbg");
    assertThat(Nested.str(dbg, "targetContainerName")).isEqualTo("app");
    assertThat(resize.exitCode()).as(resize.toString()).isZero();
    assertThat(resize.out()).contains("pod/p patched");
    pod = ok(Verb.GET, PODS, "debug", "p", "", null);
    assertThat(Nested.str((MapValue) Nested.list(pod, "spec", "containers").get(0), "resources",
        "limits", "cpu")).isEqualTo("300m");
  }
}
