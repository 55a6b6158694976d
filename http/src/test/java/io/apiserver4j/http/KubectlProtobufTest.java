/*
 * Copyright The apiserver4j authors.
 * SPDX-License-Identifier: Apache-2.0
 */
package io.apiserver4j.http;

import static org.assertj.core.api.Assertions.assertThat;

import io.apiserver4j.core.Json;
import io.apiserver4j.core.MapValue;
import io.apiserver4j.core.Value;
import org.junit.jupiter.api.Test;

/**
 * kubectl's typed commands send protobuf bodies (and ask for protobuf answers): the real kubectl
 * creates built-in objects through them, and what it reads back is what it sent.
 */
class KubectlProtobufTest extends KubectlServerTest {
  static String namespace(String name) {
    api.resources("v1", "namespaces").create(MapValue.ofEntries("apiVersion", Value.of("v1"),
        "kind", Value.of("Namespace"), "metadata", MapValue.ofEntries("name", Value.of(name))));
    return name;
  }

  static Value at(Value v, String... path) {
    for (String p : path) {
      if (v instanceof MapValue m) {
        v = m.getOrNull(p);
      } else if (v instanceof io.apiserver4j.core.ListValue l) {
        v = l.get(Integer.parseInt(p));
      } else {
        return null;
      }
    }
    return v;
  }

  static MapValue get(String ns, String... what) {
    String[] args = new String[what.length + 5];
    args[0] = "-n";
    args[1] = ns;
    args[2] = "get";
    System.arraycopy(what, 0, args, 3, what.length);
    args[what.length + 3] = "-o";
    args[what.length + 4] = "json";
    return (MapValue) Json.read(kubectl.ok(args));
  }

  @Test
  void createDeployment() {
    String ns = namespace("pb-deploy");
    assertThat(kubectl.ok("-n", ns, "create", "deployment", "web", "--image=nginx:1.25",
        "--replicas=2", "--port=80")).isEqualTo("deployment.apps/web created\n");
    MapValue d = get(ns, "deployment", "web");
    assertThat(at(d, "spec", "replicas")).isEqualTo(Value.of(2L));
    assertThat(at(d, "spec", "selector", "matchLabels", "app")).isEqualTo(Value.of("web"));
    assertThat(at(d, "spec", "template", "metadata", "labels", "app")).isEqualTo(Value.of("web"));
    MapValue container = (MapValue) at(d, "spec", "template", "spec", "containers", "0");
    assertThat(container.getOrNull("name")).isEqualTo(Value.of("nginx"));
    assertThat(container.getOrNull("image")).isEqualTo(Value.of("nginx:1.25"));
    assertThat(at(container, "ports", "0", "containerPort")).isEqualTo(Value.of(80L));
    // kubectl read its own answer (protobuf) and lists what it created
    assertThat(kubectl.ok("-n", ns, "get", "deployments", "-o", "name"))
        .isEqualTo("deployment.apps/web\n");
    // the error comes back as a protobuf Status, which kubectl reads
    Kubectl.Result again = kubectl.run("-n", ns, "create", "deployment", "web",
        "--image=nginx:1.25");
    assertThat(again.exitCode()).isEqualTo(1);
    assertThat(again.stderr()).isEqualTo("error: failed to create deployment: deployments.apps"
        + " \"web\" already exists\n");
  }

  @Test
  void createJob() {
    String ns = namespace("pb-job");
    assertThat(kubectl.ok("-n", ns, "create", "job", "pi", "--image=perl:5.34", "--", "perl",
        "-e", "print 1")).isEqualTo("job.batch/pi created\n");
    MapValue job = get(ns, "job", "pi");
    MapValue container = (MapValue) at(job, "spec", "template", "spec", "containers", "0");
    assertThat(container.getOrNull("name")).isEqualTo(Value.of("pi"));
    assertThat(container.getOrNull("image")).isEqualTo(Value.of("perl:5.34"));
    assertThat(Json.write(container.getOrNull("command")))
        .isEqualTo("[\"perl\",\"-e\",\"print 1\"]");
    assertThat(at(job, "spec", "template", "spec", "restartPolicy"))
        .isEqualTo(Value.of("Never"));
  }

  @Test
  void createServiceClusterIp() {
    String ns = namespace("pb-svc");
    assertThat(kubectl.ok("-n", ns, "create", "service", "clusterip", "my-svc",
        "--tcp=80:8080")).isEqualTo("service/my-svc created\n");
    MapValue svc = get(ns, "service", "my-svc");
    assertThat(at(svc, "spec", "type")).isEqualTo(Value.of("ClusterIP"));
    MapValue port = (MapValue) at(svc, "spec", "ports", "0");
    assertThat(port.getOrNull("port")).isEqualTo(Value.of(80L));
    assertThat(port.getOrNull("targetPort")).isEqualTo(Value.of(8080L));
    assertThat(port.getOrNull("name")).isEqualTo(Value.of("80-8080"));
    assertThat(at(svc, "spec", "selector", "app")).isEqualTo(Value.of("my-svc"));
  }

  @Test
  void createdObjectsAreTheSameInProtobufAndJson() {
    String ns = namespace("pb-cm");
    assertThat(kubectl.ok("-n", ns, "create", "configmap", "cm", "--from-literal=a=1"))
        .isEqualTo("configmap/cm created\n");
    assertThat(kubectl.ok("-n", ns, "create", "secret", "generic", "s", "--from-literal=k=v"))
        .isEqualTo("secret/s created\n");
    assertThat(at(get(ns, "configmap", "cm"), "data", "a")).isEqualTo(Value.of("1"));
    assertThat(at(get(ns, "secret", "s"), "data", "k")).isEqualTo(Value.of("dg=="));
  }
}
