/*
 * Copyright The apiserver4j authors.
 * SPDX-License-Identifier: Apache-2.0
 */
package io.apiserver4j.server.validate;

import java.time.Duration;
import java.nio.charset.StandardCharsets;
import java.util.ArrayList;
import java.util.List;

/**
 * How long {@code validate} takes for 1,000 manifests once its server has started: a quarter
 * each of ConfigMaps, Deployments, custom resources with a CEL rule and ConfigMaps that a
 * ValidatingAdmissionPolicy checks (one in ten of each invalid). Prints the start time, then the
 * time of each of five rounds (the first one warms the JIT up): wall-clock and the CPU time the
 * process used meanwhile (JIT and GC included; on a shared machine the wall clock also counts the
 * time other processes had the cores).
 *
 * <p>Run (after {@code mvn -o -q -pl server -am test-compile}) with the test class path, e.g.:
 * <pre>
 * java -cp server/target/test-classes:server/target/classes:$(cat cp.txt) \
 *     io.apiserver4j.server.validate.ValidateThroughput
 * </pre>
 * where {@code cp.txt} comes from {@code mvn -pl server dependency:build-classpath
 * -Dmdep.outputFile=cp.txt}.
 */
public final class ValidateThroughput {
  private static final int MANIFESTS = 1_000;

  private ValidateThroughput() {}

  /**
   * Runs the measurement and prints it.
   *
   * @param args ignored
   */
  public static void main(String[] args) {
    List<Manifest> setup = ManifestReader.documents("setup.yaml", SETUP, false);
    List<Manifest> manifests = ManifestReader.documents("manifests.yaml", manifests(), false);
    long t0 = System.nanoTime();
    try (Validator validator = new Validator()) {
      validator.validate(setup);
      long started = System.nanoTime();
      System.out.printf("start (server, CRD, policy): %d ms%n", (started - t0) / 1_000_000);
      for (int round = 1; round <= 5; round++) {
        long t = System.nanoTime();
        long cpu = cpuMillis();
        List<Verdict> verdicts = validator.validate(manifests);
        long ms = (System.nanoTime() - t) / 1_000_000;
        long cpuMs = cpuMillis() - cpu;
        long invalid = verdicts.stream().filter(v -> v.result() != Verdict.Result.VALID).count();
        System.out.printf("round %d: %d manifests (%d invalid) in %d ms (%d ms CPU)%n", round,
            verdicts.size(), invalid, ms, cpuMs);
      }
    }
  }

  private static final String SETUP = """
      apiVersion: apiextensions.k8s.io/v1
      kind: CustomResourceDefinition
      metadata: {name: widgets.demo.example.com}
      spec:
        group: demo.example.com
        scope: Namespaced
        names: {plural: widgets, singular: widget, kind: Widget, listKind: WidgetList}
        versions:
        - name: v1
          served: true
          storage: true
          schema:
            openAPIV3Schema:
              type: object
              properties:
                spec:
                  type: object
                  properties:
                    replicas: {type: integer}
                  x-kubernetes-validations:
                  - {rule: self.replicas <= 10, message: replicas must be at most 10}
      ---
      apiVersion: admissionregistration.k8s.io/v1
      kind: ValidatingAdmissionPolicy
      metadata: {name: no-forbidden-data}
      spec:
        failurePolicy: Fail
        matchConstraints:
          resourceRules:
          - {apiGroups: [""], apiVersions: [v1], operations: [CREATE], resources: [configmaps]}
        validations:
        - expression: '!has(object.data) || !("forbidden" in object.data)'
          message: data must not hold the key forbidden
      ---
      apiVersion: admissionregistration.k8s.io/v1
      kind: ValidatingAdmissionPolicyBinding
      metadata: {name: no-forbidden-data-binding}
      spec: {policyName: no-forbidden-data, validationActions: [Deny]}
      """;

  private static long cpuMillis() {
    return ProcessHandle.current().info().totalCpuDuration().map(Duration::toMillis).orElse(0L);
  }

  private static String manifests() {
    List<String> docs = new ArrayList<>();
    for (int i = 0; i < MANIFESTS; i++) {
      boolean bad = i % 40 < 4;
      docs.add(switch (i % 4) {
        case 0 -> "apiVersion: v1\nkind: ConfigMap\nmetadata: {name: " + (bad ? "Bad_" : "cm-")
            + i + "}\ndata: {a: \"1\"}\n";
        case 1 -> "apiVersion: apps/v1\nkind: Deployment\nmetadata: {name: d-" + i + "}\n"
            + "spec:\n  replicas: " + (bad ? -1 : 2) + "\n  selector: {matchLabels: {app: a}}\n"
            + "  template:\n    metadata: {labels: {app: a}}\n    spec:\n      containers:\n"
            + "      - {name: web, image: nginx}\n";
        case 2 -> "apiVersion: demo.example.com/v1\nkind: Widget\nmetadata: {name: w-" + i
            + "}\nspec: {replicas: " + (bad ? 11 : 3) + "}\n";
        default -> "apiVersion: v1\nkind: ConfigMap\nmetadata: {name: p-" + i + "}\ndata: {"
            + (bad ? "forbidden" : "fine") + ": x}\n";
      });
    }
    return new String(String.join("---\n", docs).getBytes(StandardCharsets.UTF_8),
        StandardCharsets.UTF_8);
  }
}
