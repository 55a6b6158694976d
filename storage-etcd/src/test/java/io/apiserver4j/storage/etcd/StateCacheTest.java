/*
 * Copyright The apiserver4j authors.
 * SPDX-License-Identifier: Apache-2.0
 */
package io.apiserver4j.storage.etcd;

import static org.assertj.core.api.Assertions.assertThat;

import io.apiserver4j.core.MapValue;
import io.apiserver4j.core.Value;
import io.apiserver4j.storage.ObjectKey;
import io.apiserver4j.storage.StoredObject;
import io.apiserver4j.storage.StoredObjects;
import com.google.protobuf.ByteString;
import org.junit.jupiter.api.Test;

class StateCacheTest {
  private static ObjectKey key(String name) {
    return ObjectKey.namespaced("", "configmaps", "default", name);
  }

  private static MapValue object(String name, String data) {
    return MapValue.ofEntries("metadata", MapValue.ofEntries("name", Value.of(name)),
        "data", MapValue.ofEntries("k", Value.of(data)));
  }

  private static StoredObject state(String name, String data, long revision) {
    return StoredObjects.stored(key(name), object(name, data), revision);
  }

  @Test
  void aWrittenObjectIsRememberedAsAReadWouldReturnIt() {
    StateCache cache = new StateCache(10, 1 << 20);
    MapValue withFloat = object("a", "v").with("n", Value.of(1.0));
    ByteString value = ObjectCodec.encode(withFloat);
    cache.rememberWritten(StoredObjects.stored(key("a"), withFloat, 7), value);
    StoredObject s = cache.latest(key("a"));
    // 1.0 is written as 1, which reads back as an integer
    assertThat(s).isEqualTo(ObjectCodec.decode(key("a"), value, 7));
    assertThat(s.object().getOrNull("n")).isEqualTo(Value.of(1L));
    assertThat(cache.at(key("a"), 7)).isSameAs(s);
    assertThat(cache.at(key("a"), 6)).isNull();
    assertThat(cache.latest(key("b"))).isNull();
  }

  @Test
  void aWrittenObjectWithoutFloatsIsRememberedAsItIs() {
    StateCache cache = new StateCache(10, 1 << 20);
    MapValue o = object("a", "v").with("n", Value.of(1L)).with("l",
        io.apiserver4j.core.ListValue.of(java.util.List.of(Value.of(true), Value.of("x"), Value.nullValue())));
    ByteString value = ObjectCodec.encode(o);
    StoredObject written = StoredObjects.stored(key("a"), o, 7);
    cache.rememberWritten(written, value);
    assertThat(cache.latest(key("a"))).isSameAs(written)
        .isEqualTo(ObjectCodec.decode(key("a"), value, 7));
    assertThat(cache.bytes()).isEqualTo(value.size());
    // a float anywhere below makes it remember the decoded value
    MapValue nested = o.with("l", io.apiserver4j.core.ListValue.of(
        java.util.List.of(MapValue.ofEntries("f", Value.of(2.5)))));
    StoredObject other = StoredObjects.stored(key("b"), nested, 8);
    cache.rememberWritten(other, ObjectCodec.encode(nested));
    assertThat(cache.latest(key("b"))).isNotSameAs(other).isEqualTo(other);
  }

  @Test
  void anOlderStateNeverReplacesANewerOne() {
    StateCache cache = new StateCache(10, 1 << 20);
    cache.remember(state("a", "new", 9), 10);
    cache.remember(state("a", "old", 8), 10);
    assertThat(cache.latest(key("a"))).isEqualTo(state("a", "new", 9));
    // the state first remembered at a revision stays
    StoredObject written = state("b", "w", 5);
    cache.rememberWritten(written, ObjectCodec.encode(object("b", "w")));
    cache.remember(state("b", "w", 5), 10);
    assertThat(cache.latest(key("b"))).isSameAs(written);
  }

  @Test
  void aKeyIsForgottenOnlyByAnAbsenceNewerThanItsState() {
    StateCache cache = new StateCache(10, 1 << 20);
    cache.remember(state("a", "v", 9), 10);
    cache.forget(key("a"), 9);
    assertThat(cache.latest(key("a"))).isNotNull();
    cache.forget(key("a"), 10);
    assertThat(cache.latest(key("a"))).isNull();
    assertThat(cache.bytes()).isZero();
  }

  @Test
  void theLeastRecentlyUsedGoFirstWhenAnyBoundIsExceeded() {
    StateCache cache = new StateCache(3, 100);
    cache.remember(state("a", "v", 1), 10);
    cache.remember(state("b", "v", 2), 10);
    cache.remember(state("c", "v", 3), 10);
    cache.latest(key("a"));
    cache.remember(state("d", "v", 4), 10);
    assertThat(cache.latest(key("b"))).isNull();
    assertThat(cache.size()).isEqualTo(3);
    // bytes: 10 + 10 + 10 + 85 > 100, so the two least recently used (c, a) go
    cache.latest(key("a"));
    cache.latest(key("d"));
    cache.remember(state("e", "v", 5), 85);
    assertThat(cache.latest(key("c"))).isNull();
    assertThat(cache.latest(key("a"))).isNull();
    assertThat(cache.latest(key("d"))).isNotNull();
    assertThat(cache.bytes()).isEqualTo(95);
    // a replacement counts its own size only
    cache.remember(state("e", "w", 6), 80);
    assertThat(cache.bytes()).isEqualTo(90);
    // a value larger than the whole bound is not remembered, and evicts nothing
    cache.remember(state("f", "v", 7), 101);
    assertThat(cache.latest(key("f"))).isNull();
    assertThat(cache.size()).isEqualTo(2);
  }

  @Test
  void zeroBoundsRememberNothing() {
    for (StateCache cache : new StateCache[] {new StateCache(0, 100), new StateCache(5, 0)}) {
      cache.remember(state("a", "v", 1), 1);
      assertThat(cache.enabled()).isFalse();
      assertThat(cache.latest(key("a"))).isNull();
      assertThat(cache.size()).isZero();
    }
  }
}
