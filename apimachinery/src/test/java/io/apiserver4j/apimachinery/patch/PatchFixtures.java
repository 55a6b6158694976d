/*
 * Copyright The apiserver4j authors.
 * SPDX-License-Identifier: Apache-2.0
 */
package io.apiserver4j.apimachinery.patch;

import io.apiserver4j.core.Json;
import io.apiserver4j.core.ListValue;
import io.apiserver4j.core.MapValue;
import io.apiserver4j.core.StringValue;
import io.apiserver4j.core.Value;
import io.apiserver4j.core.Yaml;
import java.io.IOException;
import java.io.InputStream;
import java.io.UncheckedIOException;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import org.junit.jupiter.params.provider.Arguments;

/** Loads the YAML case tables beside the tests and the shared OpenAPI documents. */
final class PatchFixtures {
  private static OpenApiPatchSchemas kube;

  private PatchFixtures() {}

  /** Each case of a fixture file's {@code cases} list, as (name, case) arguments. */
  static List<Arguments> cases(String resource) {
    Value doc = Yaml.read(resource(resource));
    List<Arguments> result = new ArrayList<>();
    for (Value c : ((ListValue) ((MapValue) doc).getOrNull("cases")).items()) {
      MapValue m = (MapValue) c;
      result.add(Arguments.of(((StringValue) m.getOrNull("name")).value(), m));
    }
    return result;
  }

  static String resource(String name) {
    try (InputStream in = PatchFixtures.class.getResourceAsStream(name)) {
      if (in == null) {
        throw new IllegalStateException("missing test resource " + name);
      }
      return new String(in.readAllBytes(), StandardCharsets.UTF_8);
    } catch (IOException e) {
      throw new UncheckedIOException(e);
    }
  }

  static Path shared() {
    return Path.of(System.getProperty("apiserver4j.shared", "../shared"));
  }

  static Value openApi(String file) {
    try {
      return Json.read(Files.readString(shared().resolve("openapi").resolve(file)));
    } catch (IOException e) {
      throw new UncheckedIOException(e);
    }
  }

  /** The upstream core/v1 and apps/v1 documents, read once. */
  static synchronized OpenApiPatchSchemas kube() {
    if (kube == null) {
      kube = OpenApiPatchSchemas.of(openApi("core-v1.json"), openApi("apps-v1.json"));
    }
    return kube;
  }

  static PatchSchema kubeSchema(String componentName) {
    return kube().named(componentName).orElseThrow();
  }

  /**
   * A hand-built schema shaped like apimachinery's test type {@code MergeItem}: merging and
   * non-merging lists of itself and of integers, a plain map, a replace map, retainKeys map.
   */
  static PatchSchema mergeItem() {
    Map<String, PatchField> fields = new HashMap<>();
    TestSchema self = new TestSchema(fields, PatchSchema.unknown());
    TestSchema listOfSelf = new TestSchema(Map.of(), self);
    TestSchema listOfScalars = new TestSchema(Map.of(), PatchSchema.unknown());
    fields.put("mergingList", PatchField.merge("name", listOfSelf));
    fields.put("nonMergingList", PatchField.of(listOfSelf));
    fields.put("mergingIntList", PatchField.mergeSet(listOfScalars));
    fields.put("nonMergingIntList", PatchField.of(listOfScalars));
    fields.put("simpleMap", PatchField.of(PatchSchema.unknown()));
    fields.put("replacingItem", PatchField.replace(PatchSchema.unknown()));
    fields.put("retainKeysMap", PatchField.of(self).withRetainKeys());
    fields.put("retainKeysMergingList", PatchField.merge("name", listOfSelf).withRetainKeys());
    return self;
  }

  /** A map-backed schema for tests. */
  record TestSchema(Map<String, PatchField> fields, PatchSchema items) implements PatchSchema {
    @Override
    public PatchField field(String name) {
      return fields.getOrDefault(name, PatchField.unknown());
    }
  }

  static Value json(String s) {
    return io.apiserver4j.core.Json.read(s);
  }

  static io.apiserver4j.core.errors.StatusException catchStatus(Runnable r) {
    try {
      r.run();
    } catch (io.apiserver4j.core.errors.StatusException e) {
      return e;
    }
    throw new AssertionError("expected a StatusException");
  }
}
