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
import io.etcd.jetcd.ByteSequence;
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
  void aWrittenValueIsDecodedAsAReadWouldReturnIt() {
    StateCache cache = new StateCache(10, 1 << 20);
    ByteSequence value = ObjectCodec.encode(object("a", "v").with("n", Value.of(1.0)));
    cache.rememberWritten(key("a"), 7, value);
    StoredObject s = cache.latest(key("a"));
    // 1.0 is written as 1, which reads back as an integer
    assertThat(s).isEqualTo(ObjectCodec.decode(key("a"), value, 7));
    assertThat(s.object().getOrNull("n")).isEqualTo(Value.of(1L));
    assertThat(cache.at(key("a"), 7)).isSameAs(s);
    assertThat(cache.at(key("a"), 6)).isNull();
    assertThat(cache.latest(key("b"))).isNull();
  }

  @Test
  void anOlderStateNeverReplacesANewerOne() {
    StateCache cache = new StateCache(10, 1 << 20);
    cache.remember(state("a", "new", 9), 10);
    cache.remember(state("a", "old", 8), 10);
    assertThat(cache.latest(key("a"))).isEqualTo(state("a", "new", 9));
    // the same revision read back replaces the undecoded written value, not the other way round
    cache.rememberWritten(key("b"), 5, ObjectCodec.encode(object("b", "w")));
    StoredObject read = state("b", "w", 5);
    cache.remember(read, 10);
    assertThat(cache.latest(key("b"))).isSameAs(read);
    cache.rememberWritten(key("b"), 5, ObjectCodec.encode(object("b", "w")));
    assertThat(cache.latest(key("b"))).isSameAs(read);
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
