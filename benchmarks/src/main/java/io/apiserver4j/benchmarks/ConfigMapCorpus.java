/*
 * Copyright The apiserver4j authors.
 * SPDX-License-Identifier: Apache-2.0
 */
package io.apiserver4j.benchmarks;

/**
 * ConfigMaps of about 1 KB of JSON, as issue 17 measures memory and lists with: a few labels and
 * an annotation, eight data entries; each one different so that nothing is shared by accident.
 */
final class ConfigMapCorpus {
  static final String NAMESPACE = "bench";

  private ConfigMapCorpus() {}

  static String name(int i) {
    return String.format("config-%06d", i);
  }

  /** ConfigMap {@code i} as a client would POST it. */
  static String json(int i) {
    StringBuilder data = new StringBuilder();
    for (int k = 0; k < 8; k++) {
      if (k > 0) {
        data.append(',');
      }
      data.append("\"setting-").append(k).append("\":\"");
      // deterministic, distinct text: a number spelled out in hex, repeated
      String word = Integer.toHexString(i * 31 + k * 7919) + "-";
      while (data.length() % 100 != 90) {
        data.append(word.charAt(data.length() % word.length()));
      }
      data.append('"');
    }
    return "{\"apiVersion\":\"v1\",\"kind\":\"ConfigMap\",\"metadata\":{\"name\":\"" + name(i)
        + "\",\"namespace\":\"" + NAMESPACE + "\",\"labels\":{\"app\":\"bench\",\"shard\":\""
        + (i % 16) + "\"},\"annotations\":{\"example.com/owner\":\"team-" + (i % 7)
        + "\"}},\"data\":{" + data + "}}";
  }
}
