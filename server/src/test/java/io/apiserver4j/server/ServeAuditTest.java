/*
 * Copyright The apiserver4j authors.
 * SPDX-License-Identifier: Apache-2.0
 */
package io.apiserver4j.server;

import static org.assertj.core.api.Assertions.assertThat;

import io.apiserver4j.core.Json;
import io.apiserver4j.core.MapValue;
import io.apiserver4j.core.Meta;
import io.apiserver4j.http.Kubectl;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.List;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * kube-apiserver's {@code --audit-policy-file} and {@code --audit-log-path}: with both, every
 * request is written as an audit.k8s.io/v1 Event at the level the policy gives it.
 */
class ServeAuditTest {
  @TempDir
  Path dir;

  @Test
  void thePolicyAndTheLogPathTurnAuditingOn() throws Exception {
    // the first rule of kube's documented example policy shape: one level for everything
    Path policy = Files.writeString(dir.resolve("policy.yaml"), """
        apiVersion: audit.k8s.io/v1
        kind: Policy
        omitStages: [RequestReceived]
        rules:
        - level: Metadata
        """);
    Path log = dir.resolve("audit/audit.log");
    ServeOptions options = ServeOptions.parse("--secure-port", "0", "--audit-policy-file",
        policy.toString(), "--audit-log-path", log.toString());
    try (Serve.Running running = Serve.start(options)) {
      Kubectl kubectl = new Kubectl(Files.createDirectories(dir.resolve("kubectl")),
          running.kubeconfig(options));
      kubectl.ok("create", "configmap", "audited", "--from-literal=a=1");
    }
    List<MapValue> creates = Files.readAllLines(log).stream()
        .map(line -> (MapValue) Json.read(line))
        .filter(e -> Meta.string(e, "verb").equals("create")
            && Meta.string(e, "requestURI").startsWith("/api/v1/namespaces/default/configmaps"))
        .toList();
    assertThat(creates).hasSize(1);
    MapValue event = creates.get(0);
    assertThat(Meta.string(event, "kind")).isEqualTo("Event");
    assertThat(Meta.string(event, "apiVersion")).isEqualTo("audit.k8s.io/v1");
    assertThat(Meta.string(event, "level")).isEqualTo("Metadata");
    assertThat(Meta.string(event, "stage")).isEqualTo("ResponseComplete");
    // Metadata level: no request or response bodies
    assertThat(event.get("requestObject")).isEmpty();
    assertThat(event.get("responseObject")).isEmpty();
  }

  @Test
  void aPolicyWithoutALogPathAuditsNothing() {
    ServeOptions options = ServeOptions.parse("--audit-policy-file", "/nonexistent/policy.yaml");
    assertThat(Serve.auditLog(options)).isEmpty();
  }
}
