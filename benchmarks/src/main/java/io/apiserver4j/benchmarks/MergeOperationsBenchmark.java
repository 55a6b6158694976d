/*
 * Copyright The apiserver4j authors.
 * SPDX-License-Identifier: Apache-2.0
 */
package io.apiserver4j.benchmarks;

import io.apiserver4j.core.Yaml;
import io.apiserver4j.merge.Duplicates;
import io.apiserver4j.merge.Force;
import io.apiserver4j.merge.ManagedFieldsMap;
import io.apiserver4j.merge.ParseableType;
import io.apiserver4j.merge.Schema;
import io.apiserver4j.merge.TypedValue;
import io.apiserver4j.merge.UpdateResult;
import io.apiserver4j.merge.Updater;
import io.apiserver4j.merge.VersionConverter;
import java.util.Map;
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
import org.openjdk.jmh.annotations.Warmup;

/**
 * structured-merge-diff's {@code merge/} BenchmarkOperations workload: on a fresh state (no live
 * object, no managers) run
 *
 * <ul>
 *   <li>Create: one update by "controller";
 *   <li>Apply: one apply by "controller";
 *   <li>ApplyTwice: apply by "controller", then the same object applied by "other-controller";
 *   <li>ApplyTwiceNoCompare: the same, with the no-op comparison skipped;
 *   <li>Update: update by "controller", then the same object by "other-controller";
 *   <li>UpdateVersion: the same, the second update at version v2 (same type, identity conversion).
 * </ul>
 *
 * Objects and schemas are those of SMD's benchmark ({@code ../shared/bench}), parsed and
 * validated in {@code @Setup} as SMD's benchmark pre-processes them. Compare with
 * {@code JacksonBaselineBenchmark.objectRoundTrip} (Jackson parse + serialize of the same object).
 *
 * <p>Run from the repository root:
 * {@code java -jar benchmarks/target/benchmarks.jar MergeOperationsBenchmark -prof gc}
 */
@State(Scope.Benchmark)
@BenchmarkMode(Mode.AverageTime)
@OutputTimeUnit(TimeUnit.MICROSECONDS)
@Warmup(iterations = 5, time = 1)
@Measurement(iterations = 5, time = 1)
@Fork(1)
public class MergeOperationsBenchmark {
  @Param({"Pod", "Node", "Endpoints", "PrometheusCRD", "apiresourceimport"})
  public String object;

  @Param({"Create", "Apply", "ApplyTwice", "ApplyTwiceNoCompare", "Update", "UpdateVersion"})
  public String operation;

  private ParseableType type;
  // One parsed object per operation of a case, as SMD's benchmark pre-processes each operation.
  private TypedValue applied1;
  private TypedValue applied2;
  private TypedValue updated1;
  private TypedValue updated2;
  private Updater updater;

  /** The schema file, type and object of each {@code object} parameter, as SMD's benchmark. */
  private record Input(String schemaFile, String typeName, String objectFile) {}

  private static final Map<String, Input> INPUTS = Map.of(
      "Pod", new Input("k8s-schema.yaml", "io.k8s.api.core.v1.Pod", "pod.yaml"),
      "Node", new Input("k8s-schema.yaml", "io.k8s.api.core.v1.Node", "node.yaml"),
      "Endpoints", new Input("k8s-schema.yaml", "io.k8s.api.core.v1.Endpoints", "endpoints.yaml"),
      "PrometheusCRD", new Input("k8s-schema.yaml",
          "io.k8s.apiextensions-apiserver.pkg.apis.apiextensions.v1beta1.CustomResourceDefinition",
          "prometheus-crd.yaml"),
      "apiresourceimport", new Input("apiresourceimport.yaml", "apiresourceimport",
          "apiresourceimport-cr.yaml"));

  @Setup
  public void setUp() {
    Input in = INPUTS.get(object);
    if (in == null) {
      throw new IllegalArgumentException("unknown object " + object);
    }
    Schema schema = Schema.fromSmdYaml(BenchInputs.text(in.schemaFile()));
    type = schema.type(in.typeName());
    String yaml = BenchInputs.text(in.objectFile());
    applied1 = type.fromValue(Yaml.read(yaml));
    applied2 = type.fromValue(Yaml.read(yaml));
    updated1 = type.fromValue(Yaml.read(yaml), Duplicates.ALLOW);
    updated2 = type.fromValue(Yaml.read(yaml), Duplicates.ALLOW);
    Updater.Builder b = Updater.builder().converter(VersionConverter.identity());
    if (operation.equals("ApplyTwiceNoCompare")) {
      b.skipNoopComparison();
    }
    updater = b.build();
    // Fail fast (as SMD's benchmark checks its case first) rather than time an error.
    run();
  }

  @Benchmark
  public UpdateResult run() {
    switch (operation) {
      case "Create":
        return update(null, updated1, "controller", "v1");
      case "Apply":
        return apply(null, applied1, "controller");
      case "ApplyTwice":
      case "ApplyTwiceNoCompare":
        return apply(apply(null, applied1, "controller"), applied2, "other-controller");
      case "Update":
        return update(update(null, updated1, "controller", "v1"), updated2, "other-controller", "v1");
      case "UpdateVersion":
        return update(update(null, updated1, "controller", "v1"), updated2, "other-controller", "v2");
      default:
        throw new IllegalArgumentException("unknown operation " + operation);
    }
  }

  private UpdateResult apply(UpdateResult state, TypedValue config, String manager) {
    TypedValue live = state == null ? type.nullValue() : state.object();
    ManagedFieldsMap managers = state == null ? ManagedFieldsMap.empty() : state.managers();
    return updater.apply(live, config, "v1", managers, manager, Force.NO);
  }

  private UpdateResult update(UpdateResult state, TypedValue object, String manager, String version) {
    TypedValue live = state == null ? type.nullValue() : state.object();
    ManagedFieldsMap managers = state == null ? ManagedFieldsMap.empty() : state.managers();
    return updater.update(live, object, version, managers, manager);
  }
}
