/*
 * Copyright The apiserver4j authors.
 * SPDX-License-Identifier: Apache-2.0
 */
package io.apiserver4j.benchmarks;

import io.apiserver4j.apiserver.ApiRequest;
import io.apiserver4j.apiserver.ApiResponse;
import io.apiserver4j.apiserver.ApiServer;
import io.apiserver4j.core.GroupVersionResource;
import io.apiserver4j.core.Json;
import io.apiserver4j.core.MapValue;
import java.util.concurrent.TimeUnit;
import org.openjdk.jmh.annotations.Benchmark;
import org.openjdk.jmh.annotations.BenchmarkMode;
import org.openjdk.jmh.annotations.Fork;
import org.openjdk.jmh.annotations.Level;
import org.openjdk.jmh.annotations.Measurement;
import org.openjdk.jmh.annotations.Mode;
import org.openjdk.jmh.annotations.OutputTimeUnit;
import org.openjdk.jmh.annotations.Param;
import org.openjdk.jmh.annotations.Scope;
import org.openjdk.jmh.annotations.Setup;
import org.openjdk.jmh.annotations.State;
import org.openjdk.jmh.annotations.TearDown;
import org.openjdk.jmh.annotations.Warmup;

/**
 * What webhook configurations cost a request that none of them ends up calling: a dry-run
 * create of a ConfigMap with {@code none} configured, with 10 ValidatingWebhookConfigurations
 * whose rules match but whose object selector excludes the object ({@code selector}), and with
 * 10 whose match conditions (CEL, evaluated on every request) exclude it ({@code conditions}).
 * The ratio of the last two to {@code none} is the matching overhead; the call itself (an HTTPS
 * round trip) is not measured.
 *
 * <p>Run from the repository root:
 * {@code java -jar benchmarks/target/benchmarks.jar WebhookAdmissionBenchmark -prof gc}
 */
@State(Scope.Benchmark)
@BenchmarkMode(Mode.AverageTime)
@OutputTimeUnit(TimeUnit.MICROSECONDS)
@Warmup(iterations = 5, time = 1)
@Measurement(iterations = 5, time = 1)
@Fork(1)
public class WebhookAdmissionBenchmark {
  private static final GroupVersionResource CONFIGMAPS =
      new GroupVersionResource("", "v1", "configmaps");

  @Param({"none", "selector", "conditions"})
  public String webhooks;

  private ApiServer server;
  private ApiRequest create;

  @Setup(Level.Trial)
  public void setUp() {
    server = ApiServer.builder().build();
    for (int i = 0; i < 10 && !webhooks.equals("none"); i++) {
      String exclusion = webhooks.equals("selector")
          ? "\"objectSelector\":{\"matchLabels\":{\"hooked\":\"yes\"}}"
          : "\"matchConditions\":[{\"name\":\"hooked\",\"expression\":"
              + "\"has(object.metadata.labels) && 'hooked' in object.metadata.labels"
              + " && object.metadata.labels.hooked == 'yes'\"}]";
      server.resources("admissionregistration.k8s.io/v1", "validatingwebhookconfigurations")
          .create(Json.read("{\"apiVersion\":\"admissionregistration.k8s.io/v1\",\"kind\":"
              + "\"ValidatingWebhookConfiguration\",\"metadata\":{\"name\":\"hook" + i
              + ".example.com\"},\"webhooks\":[{\"name\":\"hook" + i + ".example.com\","
              + "\"clientConfig\":{\"url\":\"https://127.0.0.1:1/never\"},\"rules\":[{"
              + "\"operations\":[\"CREATE\"],\"apiGroups\":[\"\"],\"apiVersions\":[\"v1\"],"
              + "\"resources\":[\"configmaps\"]}],\"sideEffects\":\"None\","
              + "\"admissionReviewVersions\":[\"v1\"]," + exclusion + "}]}"));
    }
    MapValue configMap = (MapValue) Json.read("{\"apiVersion\":\"v1\",\"kind\":\"ConfigMap\","
        + "\"metadata\":{\"name\":\"bench\",\"labels\":{\"app\":\"bench\"}},"
        + "\"data\":{\"a\":\"1\",\"b\":\"2\"}}");
    create = ApiRequest.builder(ApiRequest.Verb.CREATE, CONFIGMAPS).namespace("default")
        .body(configMap).dryRun(true).fieldManager("bench").build();
    ApiResponse r = server.handle(create);
    if (!r.isSuccess()) {
      throw new IllegalStateException("benchmark request fails: " + r);
    }
  }

  @TearDown(Level.Trial)
  public void tearDown() {
    server.close();
  }

  @Benchmark
  public ApiResponse dryRunCreate() {
    return server.handle(create);
  }
}
