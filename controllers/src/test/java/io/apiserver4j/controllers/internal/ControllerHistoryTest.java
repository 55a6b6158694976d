/*
 * Copyright The apiserver4j authors.
 * SPDX-License-Identifier: Apache-2.0
 */
package io.apiserver4j.controllers.internal;

import static org.assertj.core.api.Assertions.assertThat;

import io.apiserver4j.core.Json;
import io.apiserver4j.core.MapValue;
import io.apiserver4j.core.Meta;
import io.apiserver4j.core.Value;
import java.nio.charset.StandardCharsets;
import java.util.List;
import java.util.Optional;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.CsvSource;

/**
 * kube's pkg/controller/history expectations: the revision hashes of kube's StatefulSet
 * compatibility fixtures (stateful_set_compatibility_test.go and testdata/), the name rule,
 * ordering and equality of history_test.go.
 */
class ControllerHistoryTest {
  /** The 1.33 revision data of kube's compatibility test, hashed by kube as c77f6d978. */
  private static final String DATA_133 = "{\"spec\":{\"template\":{\"$patch\":\"replace\","
      + "\"metadata\":{\"annotations\":{\"test\":\"value\"},\"creationTimestamp\":null,"
      + "\"labels\":{\"app\":\"foo\"}},\"spec\":{\"containers\":[{\"image\":\"test\","
      + "\"imagePullPolicy\":\"Always\",\"name\":\"test\",\"resources\":{},"
      + "\"terminationMessagePath\":\"/dev/termination-log\",\"terminationMessagePolicy\":"
      + "\"File\"}],\"dnsPolicy\":\"ClusterFirst\",\"restartPolicy\":\"Always\","
      + "\"schedulerName\":\"default-scheduler\",\"securityContext\":{},"
      + "\"terminationGracePeriodSeconds\":30}}}}";
  /** The same template as 1.34 writes it (no creationTimestamp), hashed by kube 776999688b. */
  private static final String DATA_134 = DATA_133.replace("\"creationTimestamp\":null,", "");

  @ParameterizedTest(name = "{1}")
  @CsvSource({"133, c77f6d978", "134, 776999688b"})
  void hashOfKubesCompatibilityRevisions(int release, String expected) {
    String data = release == 133 ? DATA_133 : DATA_134;
    assertThat(ControllerHistory.hash(data.getBytes(StandardCharsets.UTF_8), Optional.of(0L)))
        .isEqualTo(expected);
    // the canonical writer reproduces Go's map encoding byte for byte
    assertThat(new String(ControllerHistory.canonicalJson(Json.read(data)),
        StandardCharsets.UTF_8)).isEqualTo(data);
  }

  @Test
  void newRevisionIsNamedByItsHashAndLabelledAsKube() {
    ControllerHistory history = new ControllerHistory("apps/v1", "StatefulSet", ns -> {
      throw new AssertionError("no API call expected");
    });
    MapValue set = (MapValue) Json.read("{\"metadata\":{\"name\":\"test\",\"namespace\":"
        + "\"default\",\"uid\":\"u1\"}}");
    MapValue rev = history.newRevision(set, java.util.Map.of("app", "foo"), Json.read(DATA_134),
        2, Optional.of(0L));
    assertThat(Meta.metaString(rev, "name")).isEqualTo("test-776999688b");
    assertThat(Meta.labels(rev)).containsExactlyInAnyOrderEntriesOf(
        java.util.Map.of("app", "foo", ControllerHistory.HASH_LABEL, "776999688b"));
    assertThat(ControllerHistory.revision(rev)).isEqualTo(2);
  }

  /** kube's TestControllerRevisionName: a prefix longer than 223 bytes is cut. */
  @Test
  void longPrefixIsCut() {
    String prefix = "a".repeat(300);
    assertThat(ControllerHistory.name(prefix, "hash")).isEqualTo("a".repeat(223) + "-hash");
    assertThat(ControllerHistory.name("web", "5d8f")).isEqualTo("web-5d8f");
  }

  /** apimachinery's TestSafeEncodeString: digits map into the vowel-free alphabet. */
  @Test
  void safeEncode() {
    assertThat(ControllerHistory.safeEncode("0123456789")).isEqualTo("456789bcdf");
  }

  /** kube's TestSortControllerRevisions: by revision, then creation time, then name. */
  @Test
  void sortsByRevisionThenCreationThenName() {
    MapValue a = rev("a", 3, "2026-01-01T00:00:00Z");
    MapValue b = rev("b", 1, "2026-01-01T00:00:02Z");
    MapValue c = rev("c", 1, "2026-01-01T00:00:01Z");
    MapValue d = rev("d", 1, "2026-01-01T00:00:01Z");
    assertThat(ControllerHistory.sorted(List.of(a, b, d, c)).stream()
        .map(r -> Meta.metaString(r, "name"))).containsExactly("c", "d", "b", "a");
    assertThat(ControllerHistory.nextRevision(ControllerHistory.sorted(List.of(a, b))))
        .isEqualTo(4);
    assertThat(ControllerHistory.nextRevision(List.of())).isEqualTo(1);
  }

  /**
   * kube's TestEqualRevision: equal data are equal; different hash labels are not equal even
   * with equal data; an unparsable label is ignored.
   */
  @Test
  void equalRevision() {
    MapValue x = withData(rev("x", 1, "2026-01-01T00:00:00Z"), "{\"a\":1}", "");
    MapValue y = withData(rev("y", 2, "2026-01-01T00:00:00Z"), "{\"a\":1}", "");
    MapValue z = withData(rev("z", 2, "2026-01-01T00:00:00Z"), "{\"a\":2}", "");
    assertThat(ControllerHistory.equalRevision(x, y)).isTrue();
    assertThat(ControllerHistory.equalRevision(x, z)).isFalse();
    assertThat(ControllerHistory.equalRevision(withData(x, "{\"a\":1}", "1"),
        withData(y, "{\"a\":1}", "2"))).isFalse();
    assertThat(ControllerHistory.equalRevision(withData(x, "{\"a\":1}", "bad"),
        withData(y, "{\"a\":1}", "2"))).isTrue();
    assertThat(ControllerHistory.findEqual(List.of(x, z, y), y)).containsExactly(x, y);
  }

  private static MapValue rev(String name, long revision, String created) {
    return (MapValue) Json.read("{\"metadata\":{\"name\":\"" + name + "\",\"namespace\":\"ns\","
        + "\"creationTimestamp\":\"" + created + "\"},\"revision\":" + revision + "}");
  }

  private static MapValue withData(MapValue r, String data, String hashLabel) {
    MapValue out = r.with("data", Json.read(data));
    if (!hashLabel.isEmpty()) {
      out = Meta.withMeta(out, "labels",
          MapValue.ofEntries(ControllerHistory.HASH_LABEL, Value.of(hashLabel)));
    }
    return out;
  }
}
