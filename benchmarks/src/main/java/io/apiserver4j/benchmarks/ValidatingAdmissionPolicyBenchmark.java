/*
 * Copyright The apiserver4j authors.
 * SPDX-License-Identifier: Apache-2.0
 */
package io.apiserver4j.benchmarks;

import io.apiserver4j.apiserver.ApiRequest;
import io.apiserver4j.apiserver.ApiRequest.Verb;
import io.apiserver4j.apiserver.ApiResponse;
import io.apiserver4j.apiserver.ApiServer;
import io.apiserver4j.core.GroupVersionResource;
import io.apiserver4j.core.MapValue;
import io.apiserver4j.core.Yaml;
import java.util.concurrent.TimeUnit;
import org.openjdk.jmh.annotations.Benchmark;
import org.openjdk.jmh.annotations.BenchmarkMode;
import org.openjdk.jmh.annotations.Fork;
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
 * The cost of ValidatingAdmissionPolicies on the in-process pipeline (issue 14's target: a
 * request matched by 10 policies of 3 CEL validations each costs at most 2x the same request
 * with no policy, both measured in the same run through {@link #policies}): each operation
 * creates a ConfigMap (matched by every policy, all validations pass) and deletes it (not
 * matched: the policies name CREATE and UPDATE only).
 *
 * <p>Run from the repository root:
 * {@code java -jar benchmarks/target/benchmarks.jar ValidatingAdmissionPolicyBenchmark -prof gc}
 */
@State(Scope.Benchmark)
@BenchmarkMode(Mode.AverageTime)
@OutputTimeUnit(TimeUnit.MICROSECONDS)
@Warmup(iterations = 5, time = 1)
@Measurement(iterations = 5, time = 1)
@Fork(1)
public class ValidatingAdmissionPolicyBenchmark {
  static final GroupVersionResource CONFIGMAPS = new GroupVersionResource("", "v1", "configmaps");
  static final GroupVersionResource POLICIES = new GroupVersionResource(
      "admissionregistration.k8s.io", "v1", "validatingadmissionpolicies");
  static final GroupVersionResource BINDINGS = new GroupVersionResource(
      "admissionregistration.k8s.io", "v1", "validatingadmissionpolicybindings");

  @Param({"0", "10"})
  public int policies;

  private ApiServer server;
  private MapValue configMap;

  @Setup
  public void setUp() {
    server = ApiServer.builder().build();
    for (int i = 0; i < policies; i++) {
      check(server.handle(ApiRequest.builder(Verb.CREATE, POLICIES).body(Yaml.read("""
          apiVersion: admissionregistration.k8s.io/v1
          kind: ValidatingAdmissionPolicy
          metadata: {name: policy-%d}
          spec:
            failurePolicy: Fail
            matchConstraints:
              resourceRules:
              - {apiGroups: [""], apiVersions: [v1], operations: [CREATE, UPDATE], resources: [configmaps]}
            validations:
            - expression: "object.metadata.name.startsWith('bench')"
            - expression: "has(object.data) && size(object.data) < 100"
            - expression: "!has(object.metadata.labels) || object.metadata.labels.all(k, k.size() < 64)"
              messageExpression: "'label keys must be short: ' + object.metadata.name"
          """.formatted(i))).build()), 201);
      check(server.handle(ApiRequest.builder(Verb.CREATE, BINDINGS).body(Yaml.read("""
          apiVersion: admissionregistration.k8s.io/v1
          kind: ValidatingAdmissionPolicyBinding
          metadata: {name: binding-%d}
          spec: {policyName: policy-%d, validationActions: [Deny]}
          """.formatted(i, i))).build()), 201);
    }
    configMap = (MapValue) Yaml.read("""
        apiVersion: v1
        kind: ConfigMap
        metadata: {name: bench-cm, namespace: default, labels: {app: bench, tier: web}}
        data: {a: "1", b: "2", c: "3"}
        """);
    // fails unless the policies admit the object (and so are evaluated)
    createAndDelete();
  }

  @TearDown
  public void tearDown() {
    server.close();
  }

  private static ApiResponse check(ApiResponse r, int code) {
    if (r.code() != code) {
      throw new IllegalStateException("expected " + code + ": " + r.body());
    }
    return r;
  }

  @Benchmark
  public ApiResponse createAndDelete() {
    check(server.handle(ApiRequest.builder(Verb.CREATE, CONFIGMAPS).namespace("default")
        .body(configMap).build()), 201);
    return check(server.handle(ApiRequest.builder(Verb.DELETE, CONFIGMAPS).namespace("default")
        .name("bench-cm").build()), 200);
  }
}
