/*
 * Copyright The apiserver4j authors.
 * SPDX-License-Identifier: Apache-2.0
 */
package io.apiserver4j.benchmarks;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.ObjectMapper;
import io.apiserver4j.apiserver.ApiRequest;
import io.apiserver4j.apiserver.ApiRequest.Verb;
import io.apiserver4j.apiserver.ApiServer;
import io.apiserver4j.apiserver.answer.StreamedList;
import io.apiserver4j.core.Json;
import io.apiserver4j.core.ListValue;
import io.apiserver4j.kubeapi.ProtobufCodec;
import java.io.IOException;
import java.lang.management.ManagementFactory;
import java.util.LinkedHashMap;
import java.util.Map;

/**
 * {@link ListStreamingBenchmark}'s list of ConfigMaps encoded on one thread into a stream that
 * counts and discards, reported as the thread's CPU time and allocation per list, against
 * Jackson databind writing as many ConfigMaps (the JMH baseline): on a machine shared with other
 * work, wall-clock times mostly measure the other work, while CPU time stays comparable within
 * one run. Cases: the JSON list as the server streams it, the protobuf list as the server
 * streams it (sized, then written item by item, keeping up to 8 MiB of encoded items as the
 * server does), and the protobuf list as it was written before (the whole list decoded, then
 * encoded in one piece). Not a JMH benchmark.
 *
 * <p>Run from the repository root:
 * {@code java -Xmx2g -cp benchmarks/target/benchmarks.jar
 * io.apiserver4j.benchmarks.ListEncodingCpuTime [count] [rounds]}
 */
public final class ListEncodingCpuTime {
  private ListEncodingCpuTime() {}

  /** A list encoding; returns the bytes written. */
  private interface Case {
    long run() throws IOException;
  }

  public static void main(String[] args) throws IOException {
    int count = args.length > 0 ? Integer.parseInt(args[0]) : 100_000;
    int rounds = args.length > 1 ? Integer.parseInt(args[1]) : 3;
    ApiServer api = ListStreamingBenchmark.load(count);
    StreamedList list = api.handle(ApiRequest.builder(Verb.LIST,
        StoreMemoryBenchmark.CONFIG_MAPS).namespace(ConfigMapCorpus.NAMESPACE).build())
        .streamedList().orElseThrow();
    ObjectMapper mapper = new ObjectMapper();
    JsonNode[] trees = new JsonNode[Math.min(1000, count)];
    for (int i = 0; i < trees.length; i++) {
      trees[i] = mapper.readTree(Json.writeBytes(list.item(i)));
    }
    ProtobufCodec codec = ProtobufCodec.builtIn();
    Map<String, Case> cases = new LinkedHashMap<>();
    cases.put("jackson (baseline)", () -> {
      ListStreamingBenchmark.Counting out = new ListStreamingBenchmark.Counting();
      try (var g = mapper.createGenerator(out)) {
        g.writeStartArray();
        for (int i = 0; i < count; i++) {
          mapper.writeTree(g, trees[i % trees.length]);
        }
        g.writeEndArray();
      }
      return out.count;
    });
    cases.put("json list, streamed", () -> {
      ListStreamingBenchmark.Counting out = new ListStreamingBenchmark.Counting();
      list.writeJson(out);
      return out.count;
    });
    cases.put("protobuf list, streamed", () -> {
      ListStreamingBenchmark.Counting out = new ListStreamingBenchmark.Counting();
      codec.prepareList(list.shell().with("items", ListValue.empty()), list.size(), list::item,
          8L << 20).writeTo(out);
      return out.count;
    });
    cases.put("protobuf list, whole", () -> codec.encode(list.toValue()).length);
    com.sun.management.ThreadMXBean threads =
        (com.sun.management.ThreadMXBean) ManagementFactory.getThreadMXBean();
    double baseline = 0;
    for (var c : cases.entrySet()) {
      c.getValue().run();
      double best = Double.MAX_VALUE;
      long allocated = 0;
      long bytes = 0;
      StringBuilder all = new StringBuilder();
      for (int r = 0; r < rounds; r++) {
        long id = Thread.currentThread().getId();
        long alloc = threads.getThreadAllocatedBytes(id);
        long start = threads.getCurrentThreadCpuTime();
        bytes = c.getValue().run();
        double ms = (threads.getCurrentThreadCpuTime() - start) / 1e6;
        allocated = threads.getThreadAllocatedBytes(id) - alloc;
        best = Math.min(best, ms);
        all.append(String.format(" %.0f", ms));
      }
      if (baseline == 0) {
        baseline = best;
      }
      System.out.printf("%-24s best %6.0f ms CPU, %.2fx baseline, %5.0f MB allocated, %.1f MB"
          + " written (rounds:%s)%n", c.getKey(), best, best / baseline, allocated / 1e6,
          bytes / 1e6, all);
    }
    api.close();
  }
}
