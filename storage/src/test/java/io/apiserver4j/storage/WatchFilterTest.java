/*
 * Copyright The apiserver4j authors.
 * SPDX-License-Identifier: Apache-2.0
 */
package io.apiserver4j.storage;

import static org.assertj.core.api.Assertions.assertThat;

import io.apiserver4j.core.MapValue;
import io.apiserver4j.core.Value;
import io.apiserver4j.core.fields.FieldSelector;
import io.apiserver4j.core.labels.LabelSelector;
import java.util.List;
import java.util.Optional;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.CsvSource;

class WatchFilterTest {
  private static MapValue pod(String name, String app) {
    return MapValue.ofEntries("metadata", MapValue.ofEntries("name", Value.of(name),
        "labels", MapValue.ofEntries("app", Value.of(app))));
  }

  private static StoredObject stored(String name, String app, long rv) {
    return StoredObjects.stored(ObjectKey.namespaced("", "pods", "default", name), pod(name, app), rv);
  }

  @ParameterizedTest(name = "before={0} now={1}")
  @CsvSource({"true, true, MODIFIED", "false, true, ADDED", "true, false, DELETED",
      "false, false, NONE"})
  void transitionsLikeKubesCacheWatcher(boolean before, boolean now, String expected) {
    Optional<WatchEvent.Type> type = WatchFilter.transition(before, now);
    assertThat(type.map(Enum::name).orElse("NONE")).isEqualTo(expected);
  }

  @Test
  void selectsWithBothSelectorsAndChecksTheRequiredName() {
    WatchFilter f = WatchFilter.of(WatchOptions.builder()
        .labelSelector(LabelSelector.parse("app=web"))
        .fieldSelector(FieldSelector.equal("metadata.name", "a")).build());
    assertThat(f.selects(pod("a", "web"))).isTrue();
    assertThat(f.selects(pod("a", "db"))).isFalse();
    assertThat(f.selects(pod("b", "web"))).isFalse();
    assertThat(f.admitsName("a")).isTrue();
    assertThat(f.admitsName("b")).isFalse();
    assertThat(WatchFilter.of(WatchOptions.fromNow()).admitsName("b")).isTrue();
  }

  @Test
  void initialEventsAreTheSelectedObjectsThenTheEndBookmarkOnlyWhenAskedFor() {
    List<StoredObject> snapshot = List.of(stored("a", "web", 3), stored("b", "db", 4),
        stored("c", "web", 5));
    WatchOptions.Builder b = WatchOptions.builder().labelSelector(LabelSelector.parse("app=web"));
    List<WatchEvent> plain = WatchFilter.of(b.build()).initialEvents(snapshot, 9);
    assertThat(plain).containsExactly(
        new WatchEvent.ObjectChange(WatchEvent.Type.ADDED, snapshot.get(0)),
        new WatchEvent.ObjectChange(WatchEvent.Type.ADDED, snapshot.get(2)));
    assertThat(WatchFilter.of(b.allowBookmarks(true).build()).initialEvents(snapshot, 9))
        .isEqualTo(plain);
    assertThat(WatchFilter.of(b.initialEvents(InitialEvents.SEND).build())
        .initialEvents(snapshot, 9))
        .endsWith(new WatchEvent.Bookmark(9, true)).hasSize(3);
    assertThat(WatchFilter.of(b.allowBookmarks(false).build()).initialEvents(snapshot, 9))
        .isEqualTo(plain);
  }
}
