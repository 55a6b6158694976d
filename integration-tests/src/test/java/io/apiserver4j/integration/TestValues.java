/*
 * Copyright The apiserver4j authors.
 * SPDX-License-Identifier: Apache-2.0
 */
package io.apiserver4j.integration;

import io.apiserver4j.apiserver.ApiRequest;
import io.apiserver4j.apiserver.ApiRequest.Verb;
import io.apiserver4j.core.GroupVersionResource;
import io.apiserver4j.core.Json;
import io.apiserver4j.core.ListValue;
import io.apiserver4j.core.MapValue;
import io.apiserver4j.core.StringValue;
import io.apiserver4j.core.Value;
import io.apiserver4j.core.Yaml;
import java.time.Duration;
import java.util.function.BooleanSupplier;

/** Small helpers shared by the integration tests: resources, value navigation, polling. */
final class TestValues {
  static final GroupVersionResource CONFIGMAPS = new GroupVersionResource("", "v1", "configmaps");
  static final GroupVersionResource CRDS =
      new GroupVersionResource("apiextensions.k8s.io", "v1", "customresourcedefinitions");

  private TestValues() {}

  static MapValue yaml(String text) {
    return (MapValue) Yaml.read(text);
  }

  static Value json(String text) {
    return Json.read(text);
  }

  static ApiRequest.Builder req(Verb verb, GroupVersionResource gvr, String ns, String name) {
    return ApiRequest.builder(verb, gvr).namespace(ns).name(name);
  }

  /** The value at {@code path} (map keys), or null when a step is missing. */
  static Value at(Value v, String... path) {
    Value cur = v;
    for (String p : path) {
      if (!(cur instanceof MapValue m)) {
        return null;
      }
      cur = m.getOrNull(p);
    }
    return cur;
  }

  /** The string at {@code path}; fails the test when it is missing or not a string. */
  static String str(Value v, String... path) {
    Value s = at(v, path);
    if (!(s instanceof StringValue sv)) {
      throw new AssertionError("no string at " + String.join(".", path) + " in " + v);
    }
    return sv.value();
  }

  static String resourceVersion(Value object) {
    return str(object, "metadata", "resourceVersion");
  }

  static ListValue managedFields(Value object) {
    Value v = at(object, "metadata", "managedFields");
    return v instanceof ListValue l ? l : ListValue.empty();
  }

  /** Waits (polling) until {@code condition} holds; fails after {@code timeout}. */
  static void await(String what, Duration timeout, BooleanSupplier condition)
      throws InterruptedException {
    long deadline = System.nanoTime() + timeout.toNanos();
    while (!condition.getAsBoolean()) {
      if (System.nanoTime() > deadline) {
        throw new AssertionError("timed out after " + timeout + " waiting for " + what);
      }
      Thread.sleep(10);
    }
  }
}
