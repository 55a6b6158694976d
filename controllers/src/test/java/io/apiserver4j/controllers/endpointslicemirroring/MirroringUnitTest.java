/*
 * Copyright The apiserver4j authors.
 * SPDX-License-Identifier: Apache-2.0
 */
package io.apiserver4j.controllers.endpointslicemirroring;

import static org.assertj.core.api.Assertions.assertThat;

import io.apiserver4j.controllers.internal.EndpointSliceTracker;
import io.apiserver4j.controllers.internal.EndpointSliceWriter;
import io.apiserver4j.core.Json;
import io.apiserver4j.core.MapValue;
import io.apiserver4j.core.Meta;
import io.apiserver4j.core.Nested;
import java.util.ArrayList;
import java.util.List;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.CsvSource;

/**
 * kube's endpointslicemirroring tables: TestShouldMirror, address types of
 * {@code getAddressType}, and reconciler_test.go's invalid-address and
 * maxEndpointsPerSubset cases, with a recording writer.
 */
class MirroringUnitTest {

  @ParameterizedTest(name = "{0}")
  @CsvSource(delimiter = '|', value = {
      "10.1.2.3|IPv4",
      "2001:db8::1|IPv6",
      "1234::5678:0000:0000:9abc:def0|IPv6",
      "not-an-ip|",
      "10.1.2|",
      "256.1.1.1|",
  })
  void addressType(String ip, String expected) {
    assertThat(MirroringReconciler.addressType(ip)).isEqualTo(expected);
  }

  /** kube's TestShouldMirror. */
  @ParameterizedTest(name = "{0}")
  @CsvSource(delimiter = '|', value = {
      "{}|true",
      "{\"labels\":{\"endpointslice.kubernetes.io/skip-mirror\":\"true\"}}|false",
      "{\"labels\":{\"endpointslice.kubernetes.io/skip-mirror\":\"false\"}}|true",
      "{\"annotations\":{\"control-plane.alpha.kubernetes.io/leader\":\"x\"}}|false",
  })
  void shouldMirror(String meta, boolean expected) {
    assertThat(MirroringController.shouldMirror(MapValue.ofEntries("metadata", Json.read(meta))))
        .isEqualTo(expected);
  }

  private static final class Recorder implements EndpointSliceWriter {
    final List<MapValue> created = new ArrayList<>();

    @Override
    public MapValue create(MapValue slice) {
      MapValue s = Meta.withMetaString(Meta.withMetaString(slice, "name", "ext-"
          + created.size()), "uid", "s" + created.size());
      created.add(s);
      return s;
    }

    @Override
    public MapValue update(MapValue slice) {
      throw new AssertionError("no update expected");
    }

    @Override
    public void delete(MapValue slice) {
      throw new AssertionError("no delete expected");
    }
  }

  /** Invalid addresses are skipped; a subset mirrors at most maxEndpointsPerSubset. */
  @Test
  void invalidAddressesSkippedAndSubsetCapped() {
    StringBuilder addrs = new StringBuilder("{\"ip\":\"bad\"}");
    for (int i = 1; i <= 5; i++) {
      addrs.append(",{\"ip\":\"10.0.0.").append(i).append("\"}");
    }
    MapValue endpoints = (MapValue) Json.read("{\"metadata\":{\"name\":\"ext\",\"namespace\":"
        + "\"ns\",\"uid\":\"ep\"},\"subsets\":[{\"addresses\":[" + addrs + "],\"ports\":"
        + "[{\"port\":80}]}]}");
    Recorder w = new Recorder();
    new MirroringReconciler(3, w, (e, r, m) -> { }, new EndpointSliceTracker())
        .reconcile(endpoints, List.of());
    assertThat(w.created).hasSize(1);
    assertThat(Nested.list(w.created.get(0), "endpoints")).hasSize(3);
    assertThat(Nested.list(w.created.get(0), "ports")).containsExactly(
        Json.read("{\"name\":\"\",\"port\":80,\"protocol\":\"TCP\"}"));
  }
}
