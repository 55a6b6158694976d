/*
 * Copyright The apiserver4j authors.
 * SPDX-License-Identifier: Apache-2.0
 */
package io.apiserver4j.server;

import static org.assertj.core.api.Assertions.assertThat;

import io.apiserver4j.controllers.LeaderElection;
import io.apiserver4j.core.Json;
import io.apiserver4j.core.MapValue;
import io.apiserver4j.core.Nested;
import java.time.Duration;
import org.junit.jupiter.api.Test;

/**
 * The server jar runs kube-controller-manager's controllers beside the API server, with its
 * flags: {@code --controllers} (default {@code *}) and {@code --leader-elect} (default true).
 */
class ServeControllersTest {
  private static final Duration WAIT = Duration.ofSeconds(60);
  private static final String REPLICA_SET = "{\"apiVersion\":\"apps/v1\",\"kind\":\"ReplicaSet\","
      + "\"metadata\":{\"name\":\"web\"},\"spec\":{\"replicas\":2,\"selector\":{\"matchLabels\":"
      + "{\"app\":\"web\"}},\"template\":{\"metadata\":{\"labels\":{\"app\":\"web\"}},\"spec\":"
      + "{\"containers\":[{\"name\":\"c\",\"image\":\"nginx\"}]}}}}";

  @Test
  void byDefaultTheLeaderRunsEveryImplementedDefaultController() {
    try (Serve.Running running = Serve.start(ServeOptions.parse("--secure-port=0"))) {
      assertThat(running.controllers()).isPresent();
      var controllers = running.controllers().get();
      assertThat(controllers.controllers()).contains("garbage-collector-controller",
          "replicaset-controller", "replicationcontroller-controller");
      assertThat(controllers.awaitLeading(WAIT)).isTrue();
      MapValue lease = running.api().resources("coordination.k8s.io/v1", "leases")
          .namespace("kube-system").get("kube-controller-manager");
      // kube-controller-manager's identity and default lease duration
      assertThat(Nested.str(lease, "spec", "holderIdentity"))
          .matches(java.util.regex.Pattern.quote(LeaderElection.defaults().identity()
              .replaceAll("_.*", "")) + "_[0-9a-f-]{36}");
      assertThat(Nested.integer(lease, "spec", "leaseDurationSeconds")).isEqualTo(15);
      running.api().resources("apps/v1", "replicasets").namespace("default")
          .create(Json.read(REPLICA_SET));
      assertThat(controllers.awaitIdle(WAIT)).isTrue();
      assertThat(running.api().resources("v1", "pods").namespace("default").list()).hasSize(2);
    }
  }

  @Test
  void withoutLeaderElectionTheyRunAtOnceAndWriteNoLease() {
    try (Serve.Running running = Serve.start(ServeOptions.parse("--secure-port=0",
        "--leader-elect=false", "--controllers=replicaset", "--concurrent-replicaset-syncs=2"))) {
      var controllers = running.controllers().orElseThrow();
      assertThat(controllers.controllers()).containsExactly("replicaset-controller");
      assertThat(controllers.isLeader()).isTrue();
      running.api().resources("apps/v1", "replicasets").namespace("default")
          .create(Json.read(REPLICA_SET));
      assertThat(controllers.awaitIdle(WAIT)).isTrue();
      assertThat(running.api().resources("v1", "pods").namespace("default").list()).hasSize(2);
      assertThat(running.api().resources("coordination.k8s.io/v1", "leases")
          .namespace("kube-system").list()).isEmpty();
    }
  }

  @Test
  void tokenSecretsAreFilledWithTokensTheServerAccepts(@org.junit.jupiter.api.io.TempDir
      java.nio.file.Path dir) throws Exception {
    java.security.KeyPairGenerator g = java.security.KeyPairGenerator.getInstance("RSA");
    g.initialize(2048);
    java.nio.file.Path key = java.nio.file.Files.writeString(dir.resolve("sa.key"),
        "-----BEGIN PRIVATE KEY-----\n" + java.util.Base64.getMimeEncoder(64, new byte[] {'\n'})
            .encodeToString(g.generateKeyPair().getPrivate().getEncoded())
            + "\n-----END PRIVATE KEY-----\n");
    try (Serve.Running running = Serve.start(ServeOptions.parse("--secure-port=0",
        "--leader-elect=false", "--controllers=serviceaccount-token",
        "--service-account-signing-key-file=" + key,
        "--service-account-private-key-file=" + key))) {
      var controllers = running.controllers().orElseThrow();
      running.api().resources("v1", "serviceaccounts").namespace("default").create(Json.read(
          "{\"apiVersion\":\"v1\",\"kind\":\"ServiceAccount\",\"metadata\":{\"name\":"
              + "\"robot\"}}"));
      running.api().resources("v1", "secrets").namespace("default").create(Json.read(
          "{\"apiVersion\":\"v1\",\"kind\":\"Secret\",\"metadata\":{\"name\":\"robot-token\","
              + "\"annotations\":{\"kubernetes.io/service-account.name\":\"robot\"}},"
              + "\"type\":\"kubernetes.io/service-account-token\"}"));
      assertThat(controllers.awaitIdle(WAIT)).isTrue();
      MapValue secret = running.api().resources("v1", "secrets").namespace("default")
          .get("robot-token");
      String token = new String(java.util.Base64.getDecoder().decode(
          Nested.str(secret, "data", "token")), java.nio.charset.StandardCharsets.UTF_8);
      MapValue review = running.api().resources("authentication.k8s.io/v1", "tokenreviews")
          .create(Json.read("{\"apiVersion\":\"authentication.k8s.io/v1\",\"kind\":"
              + "\"TokenReview\",\"spec\":{\"token\":\"" + token + "\"}}"));
      assertThat(Nested.bool(review, "status", "authenticated")).as("%s", review).isTrue();
      assertThat(Nested.str(review, "status", "user", "username"))
          .isEqualTo("system:serviceaccount:default:robot");
    }
  }

  @Test
  void anEmptyControllerListRunsNone() {
    try (Serve.Running running = Serve.start(ServeOptions.parse("--secure-port=0",
        "--controllers="))) {
      assertThat(running.controllers()).isEmpty();
    }
  }
}
