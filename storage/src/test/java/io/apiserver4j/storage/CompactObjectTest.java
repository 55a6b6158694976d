/*
 * Copyright The apiserver4j authors.
 * SPDX-License-Identifier: Apache-2.0
 */
package io.apiserver4j.storage;

import static org.assertj.core.api.Assertions.assertThat;

import io.apiserver4j.core.Json;
import io.apiserver4j.core.MapValue;
import io.apiserver4j.core.Value;
import io.apiserver4j.storage.StoredObject.TypeMeta;
import java.io.ByteArrayOutputStream;
import java.nio.charset.StandardCharsets;
import java.util.stream.Stream;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.MethodSource;
import org.junit.jupiter.api.Test;

/** The in-memory store's encoded objects read and write back exactly as the trees they hold. */
class CompactObjectTest {
  private static final ObjectKey KEY = ObjectKey.namespaced("", "configmaps", "default", "a");

  static Stream<String> objects() {
    return Stream.of(
        "{\"apiVersion\":\"v1\",\"kind\":\"ConfigMap\",\"metadata\":{\"name\":\"a\","
            + "\"resourceVersion\":\"7\"},\"data\":{\"k\":\"<&>\\u2028é\\\"\"}}",
        // kind before apiVersion, as kube's typed objects write them
        "{\"kind\":\"ConfigMap\",\"apiVersion\":\"v1\",\"metadata\":{\"name\":\"a\"}}",
        // type meta not leading, or missing, or not strings
        "{\"metadata\":{\"name\":\"a\"},\"apiVersion\":\"v1\",\"kind\":\"ConfigMap\"}",
        "{\"apiVersion\":\"v1\",\"metadata\":{\"name\":\"a\"}}",
        "{\"apiVersion\":1,\"kind\":\"ConfigMap\",\"metadata\":{}}",
        "{\"spec\":{\"x\":[1,2.5,null,true,{\"y\":{}}]}}",
        "{\"apiVersion\":\"v1\",\"kind\":\"ConfigMap\"}",
        "{\"apiVersion\":\"v1\",\"kind\":\"ConfigMap\",\"metadata\":\"not a map\"}",
        "{\"metadata\":{\"resourceVersion\":\"\",\"annotations\":{\"resourceVersion\":\"\"}}}");
  }

  private static StoredObject stored(String json, long rv) {
    MapValue object = (MapValue) Json.read(json);
    CompactObject c = CompactObject.encode(StoredObjects.withResourceVersion(object, ""));
    return StoredObject.compact(KEY, c, rv, null);
  }

  @ParameterizedTest
  @MethodSource("objects")
  void decodesToTheObjectAtItsRevision(String json) {
    MapValue object = (MapValue) Json.read(json);
    assertThat(stored(json, 42).object())
        .isEqualTo(StoredObjects.withResourceVersion(object, 42));
    // the same order of keys, which is what a client sees
    assertThat(Json.write(stored(json, 42).object()))
        .isEqualTo(Json.write(StoredObjects.withResourceVersion(object, 42)));
  }

  @ParameterizedTest
  @MethodSource("objects")
  void writesTheBytesOfTheDecodedObject(String json) {
    MapValue expected = StoredObjects.withResourceVersion((MapValue) Json.read(json), 12345);
    StoredObject s = stored(json, 12345);
    assertThat(written(s, TypeMeta.KEEP)).isEqualTo(Json.write(expected));
    assertThat(written(s, TypeMeta.OMIT))
        .isEqualTo(Json.write(expected.without("apiVersion").without("kind")));
    StoredObject tree = new StoredObject(KEY, expected, 12345);
    assertThat(written(tree, TypeMeta.OMIT)).isEqualTo(written(s, TypeMeta.OMIT));
  }

  @Test
  void oneEncodingServesEveryRevision() {
    String json = "{\"apiVersion\":\"v1\",\"kind\":\"ConfigMap\",\"metadata\":{\"name\":\"a\"}}";
    MapValue object = (MapValue) Json.read(json);
    CompactObject c = CompactObject.encode(StoredObjects.withResourceVersion(object, ""));
    assertThat(StoredObject.compact(KEY, c, 9, null).object())
        .isEqualTo(StoredObjects.withResourceVersion(object, 9));
    assertThat(written(StoredObject.compact(KEY, c, 1234567890123L, null), TypeMeta.KEEP))
        .contains("\"resourceVersion\":\"1234567890123\"");
    assertThat(c.sameBytes(CompactObject.encode(StoredObjects.withResourceVersion(
        object.with("kind", Value.of("Other")), "")))).isFalse();
  }

  @Test
  void equalsAsARecordOfKeyObjectAndRevision() {
    String json = "{\"metadata\":{\"name\":\"a\"}}";
    MapValue object = (MapValue) Json.read(json);
    StoredObject tree = new StoredObject(KEY, StoredObjects.withResourceVersion(object, 3), 3);
    assertThat(stored(json, 3)).isEqualTo(tree).hasSameHashCodeAs(tree);
    assertThat(stored(json, 4)).isNotEqualTo(tree);
  }

  private static String written(StoredObject s, TypeMeta typeMeta) {
    ByteArrayOutputStream out = new ByteArrayOutputStream();
    s.writeJson(out, typeMeta);
    return out.toString(StandardCharsets.UTF_8);
  }
}
