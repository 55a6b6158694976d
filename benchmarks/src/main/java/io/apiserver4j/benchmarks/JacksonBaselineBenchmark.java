/*
 * Copyright The apiserver4j authors.
 * SPDX-License-Identifier: Apache-2.0
 */
package io.apiserver4j.benchmarks;

import com.fasterxml.jackson.core.JsonProcessingException;
import com.fasterxml.jackson.databind.ObjectMapper;
import io.apiserver4j.core.Json;
import io.apiserver4j.fieldpath.FieldsV1;
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
 * The yardstick for {@link FieldsV1Benchmark} and for whole-object work: plain Jackson databind
 * parsing into and serializing from {@code Map}, on the same FieldsV1 texts and on the bench
 * objects themselves as JSON. Report our figures as ratios to these, measured in the same run.
 *
 * <p>Run from the repository root:
 * {@code java -jar benchmarks/target/benchmarks.jar JacksonBaselineBenchmark -prof gc}
 */
@State(Scope.Benchmark)
@BenchmarkMode(Mode.AverageTime)
@OutputTimeUnit(TimeUnit.MICROSECONDS)
@Warmup(iterations = 5, time = 1)
@Measurement(iterations = 5, time = 1)
@Fork(1)
public class JacksonBaselineBenchmark {
  @Param({"pod", "node", "endpoints", "prometheus-crd", "apiresourceimport-cr"})
  public String object;

  private final ObjectMapper mapper = new ObjectMapper();
  private String fieldsJson;
  private Map<?, ?> fieldsMap;
  private String objectJson;
  private Map<?, ?> objectMap;

  @Setup
  public void setUp() throws JsonProcessingException {
    var value = BenchInputs.object(object);
    fieldsJson = FieldsV1.encode(BenchInputs.fieldSet(value));
    fieldsMap = mapper.readValue(fieldsJson, Map.class);
    objectJson = Json.write(value);
    objectMap = mapper.readValue(objectJson, Map.class);
  }

  @Benchmark
  public Map<?, ?> fieldsV1Parse() throws JsonProcessingException {
    return mapper.readValue(fieldsJson, Map.class);
  }

  @Benchmark
  public String fieldsV1Serialize() throws JsonProcessingException {
    return mapper.writeValueAsString(fieldsMap);
  }

  @Benchmark
  public String fieldsV1RoundTrip() throws JsonProcessingException {
    return mapper.writeValueAsString(mapper.readValue(fieldsJson, Map.class));
  }

  @Benchmark
  public Map<?, ?> objectParse() throws JsonProcessingException {
    return mapper.readValue(objectJson, Map.class);
  }

  @Benchmark
  public String objectSerialize() throws JsonProcessingException {
    return mapper.writeValueAsString(objectMap);
  }

  @Benchmark
  public String objectRoundTrip() throws JsonProcessingException {
    return mapper.writeValueAsString(mapper.readValue(objectJson, Map.class));
  }
}
