/*
 * Copyright The apiserver4j authors.
 * SPDX-License-Identifier: Apache-2.0
 */
package io.apiserver4j.benchmarks;

import io.apiserver4j.validate.Manifest;
import io.apiserver4j.validate.ManifestValidator;
import io.apiserver4j.validate.Manifests;
import io.apiserver4j.validate.Verdict;
import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.TimeUnit;
import org.openjdk.jmh.annotations.Benchmark;
import org.openjdk.jmh.annotations.BenchmarkMode;
import org.openjdk.jmh.annotations.Fork;
import org.openjdk.jmh.annotations.Measurement;
import org.openjdk.jmh.annotations.Mode;
import org.openjdk.jmh.annotations.OutputTimeUnit;
import org.openjdk.jmh.annotations.Scope;
import org.openjdk.jmh.annotations.Setup;
import org.openjdk.jmh.annotations.State;
import org.openjdk.jmh.annotations.TearDown;
import org.openjdk.jmh.annotations.Warmup;

/**
 * {@code apiserver4j validate} on 1,000 manifests once its server has started (the issue's
 * target: under 5 s): a quarter each of ConfigMaps, Deployments, custom resources with a CEL rule
 * and ConfigMaps a ValidatingAdmissionPolicy checks, one in ten of each invalid. The baseline of
 * the same run, {@link #read1000}, only reads the same text into documents; {@link
 * #startAndValidate1000} is a single shot from a new validator (server, CRD and policy) on.
 *
 * <p>Run from the repository root:
 * {@code java -jar benchmarks/target/benchmarks.jar ValidateBenchmark}
 */
@State(Scope.Benchmark)
@BenchmarkMode(Mode.AverageTime)
@OutputTimeUnit(TimeUnit.MILLISECONDS)
@Warmup(iterations = 3, time = 2)
@Measurement(iterations = 5, time = 2)
@Fork(1)
public class ValidateBenchmark {
  static final int MANIFESTS = 1_000;
  static final String SETUP = """
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

  private String text;
  private List<Manifest> manifests;
  private ManifestValidator validator;

  @Setup
  public void setUp() {
    text = manifests();
    manifests = Manifests.documents("manifests.yaml", text, false);
    validator = new ManifestValidator();
    check(validator.validate(Manifests.documents("setup.yaml", SETUP, false)), 0);
    // a tenth of each kind is invalid: the run must see exactly those
    check(validator.validate(manifests), MANIFESTS / 10);
  }

  @TearDown
  public void tearDown() {
    validator.close();
  }

  /** Validates the 1,000 manifests on the started server. */
  @Benchmark
  public List<Verdict> validate1000() {
    return validator.validate(manifests);
  }

  /** Baseline: reads the same text into its 1,000 documents. */
  @Benchmark
  public List<Manifest> read1000() {
    return Manifests.documents("manifests.yaml", text, false);
  }

  /** A new validator (its server, the CRD and the policy), then the 1,000 manifests. */
  @Benchmark
  @BenchmarkMode(Mode.SingleShotTime)
  @Warmup(iterations = 2)
  @Measurement(iterations = 5)
  public List<Verdict> startAndValidate1000() {
    try (ManifestValidator fresh = new ManifestValidator()) {
      fresh.validate(Manifests.documents("setup.yaml", SETUP, false));
      return fresh.validate(Manifests.documents("manifests.yaml", text, false));
    }
  }

  private static void check(List<Verdict> verdicts, long invalid) {
    long refused = verdicts.stream().filter(v -> v.result() != Verdict.Result.VALID).count();
    if (refused != invalid) {
      throw new IllegalStateException("expected " + invalid + " refused but " + refused + ": "
          + verdicts.stream().filter(v -> v.result() != Verdict.Result.VALID).findFirst());
    }
  }

  static String manifests() {
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
    return String.join("---\n", docs);
  }
}
