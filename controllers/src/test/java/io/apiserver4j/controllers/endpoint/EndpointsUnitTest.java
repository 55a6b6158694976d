/*
 * Copyright The apiserver4j authors.
 * SPDX-License-Identifier: Apache-2.0
 */
package io.apiserver4j.controllers.endpoint;

import static org.assertj.core.api.Assertions.assertThat;

import io.apiserver4j.core.Json;
import io.apiserver4j.core.ListValue;
import io.apiserver4j.core.MapValue;
import io.apiserver4j.core.Nested;
import io.apiserver4j.core.Value;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.List;
import java.util.Optional;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.CsvSource;

/** Tables of kube's endpoints_controller_test.go, run on the controller's pure functions. */
class EndpointsUnitTest {

  /** kube's TestSyncServiceAddresses: which Pods are listed, and how. */
  @ParameterizedTest(name = "{0} ready={1} terminating={2} tolerate={3}")
  @CsvSource({
      "Running, true, false, false, 1, 0",
      "Running, true, true, false, 0, 0",
      "Unknown, true, false, false, 1, 0",
      "Unknown, true, true, false, 0, 0",
      "Pending, true, false, false, 1, 0",
      "Pending, true, true, false, 0, 0",
      "Unknown, false, false, false, 0, 1",
      "Pending, false, false, false, 0, 1",
      "Failed, false, false, false, 0, 0",
      "Succeeded, false, false, false, 0, 0",
      "Running, false, false, true, 1, 0",
      "Running, false, true, true, 1, 0",
      "Unknown, false, false, true, 1, 0",
      "Unknown, false, true, true, 1, 0",
      "Pending, false, false, true, 1, 0",
      "Pending, false, true, true, 1, 0",
      "Failed, false, false, true, 0, 0",
      "Succeeded, false, false, true, 0, 0",
  })
  void syncServiceAddresses(String phase, boolean ready, boolean terminating,
      boolean tolerate, int expectedReady, int expectedUnready) {
    MapValue service = (MapValue) Json.read("{\"metadata\":{\"name\":\"foo\",\"namespace\":"
        + "\"ns\"},\"spec\":{\"selector\":{\"foo\":\"bar\"},\"publishNotReadyAddresses\":"
        + tolerate + ",\"type\":\"ClusterIP\",\"clusterIP\":\"1.1.1.1\",\"ports\":[{\"port\":"
        + "80}],\"ipFamilies\":[\"IPv4\"]}}");
    MapValue pod = (MapValue) Json.read("{\"metadata\":{\"namespace\":\"ns\",\"name\":"
        + "\"fakepod\",\"uid\":\"u\",\"labels\":{\"foo\":\"bar\"}"
        + (terminating ? ",\"deletionTimestamp\":\"2026-01-01T00:00:00Z\"" : "")
        + "},\"spec\":{\"containers\":[{\"ports\":[{\"name\":\"port1\",\"containerPort\":8080}]}]},"
        + "\"status\":{\"phase\":\"" + phase + "\",\"conditions\":[{\"type\":\"Ready\","
        + "\"status\":\"" + (ready ? "True" : "False") + "\"}],\"podIP\":\"10.1.1.1\","
        + "\"podIPs\":[{\"ip\":\"10.1.1.1\"}]}}");
    ListValue subsets = EndpointsController.subsets(service, List.of(pod));
    int r = 0;
    int u = 0;
    for (Value s : subsets.items()) {
      r += Nested.list(s, "addresses").size();
      u += Nested.list(s, "notReadyAddresses").size();
    }
    assertThat(r).isEqualTo(expectedReady);
    assertThat(u).isEqualTo(expectedUnready);
  }

  /** kube's TestTruncateEndpoints: subsets' ready/not ready counts before and after. */
  @ParameterizedTest(name = "{0}")
  @CsvSource(delimiter = '|', value = {
      "empty||||",
      "total endpoints < max capacity|50 100 100 100 100|50 100 100 100 100"
          + "|50 100 100 100 100|50 100 100 100 100",
      "total endpoints = max capacity|100 100 100 100 100|100 100 100 100 100"
          + "|100 100 100 100 100|100 100 100 100 100",
      "total ready < max capacity, total > max capacity|90 110 50 10 20|101 200 200 201 298"
          + "|90 110 50 10 20|73 144 144 145 214",
      "total ready > max capacity|205 400 402 400 693|100 200 200 200 300"
          + "|98 191 192 191 328|0 0 0 0 0",
  })
  void truncateEndpoints(String desc, String ready, String notReady, String expectedReady,
      String expectedNotReady) {
    int[] r = ints(ready);
    int[] n = ints(notReady);
    List<MapValue> subsets = new ArrayList<>();
    for (int i = 0; i < r.length; i++) {
      subsets.add(MapValue.ofEntries("addresses", addresses(r[i]), "notReadyAddresses",
          addresses(n[i])));
    }
    ListValue in = ListValue.of(subsets);
    Optional<ListValue> out = Subsets.truncate(in);
    ListValue result = out.orElse(in);
    int[] er = ints(expectedReady);
    int[] en = ints(expectedNotReady);
    assertThat(out.isPresent()).isEqualTo(Arrays.stream(r).sum() + Arrays.stream(n).sum() > 1000);
    for (int i = 0; i < er.length; i++) {
      assertThat(Nested.list(result.get(i), "addresses")).as("ready %d", i).hasSize(er[i]);
      assertThat(Nested.list(result.get(i), "notReadyAddresses")).as("not ready %d", i)
          .hasSize(en[i]);
    }
  }

  private static int[] ints(String s) {
    if (s == null || s.isBlank()) {
      return new int[0];
    }
    return Arrays.stream(s.trim().split(" ")).mapToInt(Integer::parseInt).toArray();
  }

  private static ListValue addresses(int n) {
    List<MapValue> out = new ArrayList<>();
    for (int i = 0; i < n; i++) {
      out.add(MapValue.empty());
    }
    return ListValue.of(out);
  }
}
