/*
 * Copyright The apiserver4j authors.
 * SPDX-License-Identifier: Apache-2.0
 */
package io.apiserver4j.benchmarks;

import com.fasterxml.jackson.core.JsonProcessingException;
import com.fasterxml.jackson.databind.ObjectMapper;
import io.apiserver4j.apiextensions.CrdValidator;
import io.apiserver4j.core.errors.FieldError;
import io.apiserver4j.core.Json;
import io.apiserver4j.core.ListValue;
import io.apiserver4j.core.MapValue;
import io.apiserver4j.core.Value;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.Optional;
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
import org.openjdk.jmh.annotations.Warmup;

/**
 * Validating a custom resource of 50 fields against a CRD schema with 10 CEL rules (the issue's
 * target: at most 2x a Jackson parse of the same object, {@link #jacksonParse}, measured in
 * the same run), on create and on an update that changes one field (ratcheting). The schema is
 * parsed and its rules compiled once, in {@link #setUp}.
 *
 * <p>Run from the repository root:
 * {@code java -jar benchmarks/target/benchmarks.jar CrdValidationBenchmark -prof gc}
 */
@State(Scope.Benchmark)
@BenchmarkMode(Mode.AverageTime)
@OutputTimeUnit(TimeUnit.MICROSECONDS)
@Warmup(iterations = 5, time = 1)
@Measurement(iterations = 5, time = 1)
@Fork(1)
public class CrdValidationBenchmark {
  private final ObjectMapper mapper = new ObjectMapper();
  private CrdValidator validator;
  private MapValue object;
  private MapValue changed;
  private String json;

  @Setup
  public void setUp() {
    MapValue.Builder props = MapValue.builder();
    MapValue.Builder spec = MapValue.builder();
    for (int i = 0; i < 50; i++) {
      switch (i % 5) {
        case 0 -> {
          props.put("int" + i, Json.read("{\"type\":\"integer\",\"minimum\":0,\"maximum\":1000}"));
          spec.put("int" + i, Value.of((long) i));
        }
        case 1 -> {
          props.put("str" + i, Json.read("{\"type\":\"string\",\"maxLength\":64,"
              + "\"pattern\":\"^[a-z0-9-]+$\"}"));
          spec.put("str" + i, Value.of("value-" + i));
        }
        case 2 -> {
          props.put("enum" + i, Json.read("{\"type\":\"string\",\"enum\":[\"a\",\"b\",\"c\"]}"));
          spec.put("enum" + i, Value.of("b"));
        }
        case 3 -> {
          props.put("list" + i, Json.read("{\"type\":\"array\",\"maxItems\":10,"
              + "\"x-kubernetes-list-type\":\"set\",\"items\":{\"type\":\"string\"}}"));
          spec.put("list" + i, Json.read("[\"x\",\"y\",\"z\"]"));
        }
        default -> {
          props.put("bool" + i, Json.read("{\"type\":\"boolean\"}"));
          spec.put("bool" + i, Value.of(true));
        }
      }
    }
    List<Value> rules = new ArrayList<>();
    for (int i = 0; i < 10; i++) {
      int n = i * 5;
      rules.add(MapValue.ofEntries("rule", Value.of(i % 2 == 0
          ? "self.int" + n + " <= 1000 && self.str" + (n + 1) + ".startsWith('value')"
          : "self.list" + (n + 3) + ".all(x, x.size() == 1) && self.enum" + (n + 2) + " != 'z'"),
          "message", Value.of("rule " + i)));
    }
    MapValue specSchema = MapValue.ofEntries("type", Value.of("object"),
        "properties", props.build(), "x-kubernetes-validations", ListValue.of(rules));
    MapValue crd = (MapValue) Json.read("{\"spec\":{\"group\":\"bench.example.com\","
        + "\"names\":{\"kind\":\"Bench\",\"plural\":\"benches\"},\"scope\":\"Namespaced\","
        + "\"versions\":[{\"name\":\"v1\",\"served\":true,\"storage\":true,\"schema\":"
        + "{\"openAPIV3Schema\":{\"type\":\"object\",\"properties\":{}}}}]}}");
    MapValue root = MapValue.ofEntries("type", Value.of("object"), "properties",
        MapValue.ofEntries("spec", specSchema));
    MapValue version = ((MapValue) ((ListValue) ((MapValue) crd.getOrNull("spec"))
        .getOrNull("versions")).get(0)).with("schema", MapValue.ofEntries("openAPIV3Schema", root));
    crd = crd.with("spec", ((MapValue) crd.getOrNull("spec"))
        .with("versions", ListValue.of(List.of(version))));
    validator = CrdValidator.of(crd, "v1");
    object = MapValue.ofEntries("apiVersion", Value.of("bench.example.com/v1"),
        "kind", Value.of("Bench"), "metadata",
        MapValue.ofEntries("name", Value.of("b"), "namespace", Value.of("default")),
        "spec", spec.build());
    MapValue changedSpec = ((MapValue) object.getOrNull("spec")).with("int0", Value.of(7L));
    changed = object.with("spec", changedSpec);
    json = Json.write(object);
    List<FieldError> errs = validator.validateSchema(object, Optional.empty());
    if (!errs.isEmpty()) {
      throw new IllegalStateException("benchmark object is invalid: " + errs);
    }
  }

  @Benchmark
  public Map<?, ?> jacksonParse() throws JsonProcessingException {
    return mapper.readValue(json, Map.class);
  }

  @Benchmark
  public List<FieldError> validateCreate() {
    return validator.validateSchema(object, Optional.empty());
  }

  @Benchmark
  public List<FieldError> validateUpdate() {
    return validator.validateSchema(changed, Optional.of(object));
  }
}
