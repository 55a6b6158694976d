/*
 * Copyright The apiserver4j authors.
 * SPDX-License-Identifier: Apache-2.0
 */
package io.apiserver4j.benchmarks;

import io.apiserver4j.apiserver.ApiRequest;
import io.apiserver4j.apiserver.ApiRequest.Verb;
import io.apiserver4j.apiserver.ApiServer;
import io.apiserver4j.core.GroupVersionResource;
import io.apiserver4j.core.Json;
import io.apiserver4j.core.MapValue;
import io.apiserver4j.core.Value;
import java.lang.management.ManagementFactory;
import java.util.ArrayList;
import java.util.List;

/**
 * Heap held per stored object (issue 17): 100,000 ConfigMaps of about 1 KB created through
 * {@link ApiServer} on the in-memory store, the heap measured after full collections before and
 * after, divided by the objects' JSON as a GET answers it (the ratio is what to read). For
 * comparison in the same run, the same objects held as value trees alone (what the store held
 * before it kept compact JSON). Then the history bound: 3,000 updates of a 100 KB object, and
 * the heap they leave behind.
 *
 * <p>Not a JMH benchmark (a heap figure, not a time). Run from the repository root:
 * {@code java -Xmx2g -cp benchmarks/target/benchmarks.jar
 * io.apiserver4j.benchmarks.StoreMemoryBenchmark [count]}
 */
public final class StoreMemoryBenchmark {
  static final GroupVersionResource CONFIG_MAPS = new GroupVersionResource("", "v1", "configmaps");
  static final GroupVersionResource NAMESPACES = new GroupVersionResource("", "v1", "namespaces");

  private StoreMemoryBenchmark() {}

  public static void main(String[] args) {
    int count = args.length > 0 ? Integer.parseInt(args[0]) : 100_000;
    long before = usedAfterGc();
    ApiServer server = ApiServer.builder().build();
    server.handle(ApiRequest.builder(Verb.CREATE, NAMESPACES).body(Json.read(
        "{\"metadata\":{\"name\":\"" + ConfigMapCorpus.NAMESPACE + "\"}}")).build()).orThrow();
    long empty = usedAfterGc();
    for (int i = 0; i < count; i++) {
      server.handle(ApiRequest.builder(Verb.CREATE, CONFIG_MAPS)
          .namespace(ConfigMapCorpus.NAMESPACE).body(Json.read(ConfigMapCorpus.json(i)))
          .build()).orThrow();
    }
    long full = usedAfterGc();
    long jsonBytes = 0;
    for (int i = 0; i < count; i++) {
      jsonBytes += Json.writeBytes(get(server, i)).length;
    }
    double perObject = (full - empty) / (double) count;
    double json = jsonBytes / (double) count;
    System.out.printf("server+store, empty: %.1f MB%n", (empty - before) / 1e6);
    System.out.printf("stored objects: %d, JSON %.0f bytes each, heap %.0f bytes each: %.2fx%n",
        count, json, perObject, perObject / json);

    // the same objects as value trees alone, decoded from their JSON as a GET answers it
    long treesBefore = usedAfterGc();
    List<MapValue> trees = new ArrayList<>(count);
    for (int i = 0; i < count; i++) {
      trees.add((MapValue) Json.read(Json.writeBytes(get(server, i))));
    }
    long treesAfter = usedAfterGc();
    double perTree = (treesAfter - treesBefore) / (double) trees.size();
    System.out.printf("value trees alone: %.0f bytes each: %.2fx%n", perTree, perTree / json);
    trees = null;
    server.close();
    server = null;

    // history: 3,000 updates of one 100 KB object
    long historyBefore = usedAfterGc();
    ApiServer s = ApiServer.builder().build();
    s.handle(ApiRequest.builder(Verb.CREATE, NAMESPACES).body(Json.read(
        "{\"metadata\":{\"name\":\"" + ConfigMapCorpus.NAMESPACE + "\"}}")).build()).orThrow();
    String big = "x".repeat(100_000);
    MapValue cm = (MapValue) Json.read("{\"apiVersion\":\"v1\",\"kind\":\"ConfigMap\","
        + "\"metadata\":{\"name\":\"big\",\"namespace\":\"" + ConfigMapCorpus.NAMESPACE + "\"}}");
    s.handle(ApiRequest.builder(Verb.CREATE, CONFIG_MAPS).namespace(ConfigMapCorpus.NAMESPACE)
        .body(cm).build()).orThrow();
    for (int i = 0; i < 3000; i++) {
      s.handle(ApiRequest.builder(Verb.UPDATE, CONFIG_MAPS).namespace(ConfigMapCorpus.NAMESPACE)
          .name("big").body(cm.with("data", MapValue.ofEntries("v", Value.of(i + big))))
          .build()).orThrow();
    }
    long historyAfter = usedAfterGc();
    System.out.printf("3,000 updates of a 100 KB object: %.1f MB retained%n",
        (historyAfter - historyBefore) / 1e6);
    s.close();
  }

  private static MapValue get(ApiServer server, int i) {
    return server.handle(ApiRequest.builder(Verb.GET, CONFIG_MAPS)
        .namespace(ConfigMapCorpus.NAMESPACE).name(ConfigMapCorpus.name(i)).build()).orThrow();
  }

  static long usedAfterGc() {
    for (int i = 0; i < 3; i++) {
      System.gc();
    }
    return ManagementFactory.getMemoryMXBean().getHeapMemoryUsage().getUsed();
  }
}
