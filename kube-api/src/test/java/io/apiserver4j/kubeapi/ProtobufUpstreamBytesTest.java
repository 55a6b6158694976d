/*
 * Copyright The apiserver4j authors.
 * SPDX-License-Identifier: Apache-2.0
 */
package io.apiserver4j.kubeapi;

import static org.assertj.core.api.Assertions.assertThat;

import io.apiserver4j.core.Json;
import io.apiserver4j.core.MapValue;
import io.apiserver4j.core.StringValue;
import io.apiserver4j.kubeapi.internal.proto.ProtoCodec;
import java.io.IOException;
import java.io.InputStream;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.List;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.MethodSource;

/**
 * Upstream's protobuf round-trip fixtures (bytes written by Go's generated marshallers, see
 * {@code upstream-pb/README.md}) decode to upstream's JSON fixtures of the same objects, and the
 * JSON fixtures encode to exactly those bytes.
 */
class ProtobufUpstreamBytesTest {
  private final ProtobufCodec codec = ProtobufCodec.builtIn();

  static List<String> fixtures() {
    return List.of("core.v1.ConfigMap", "core.v1.Secret", "core.v1.Pod", "core.v1.Service",
        "core.v1.Namespace", "apps.v1.Deployment", "batch.v1.Job", "batch.v1.CronJob",
        "rbac.authorization.k8s.io.v1.Role", "networking.k8s.io.v1.Ingress",
        "coordination.k8s.io.v1.Lease", "autoscaling.v2.HorizontalPodAutoscaler");
  }

  static byte[] upstream(String name) throws IOException {
    try (InputStream in = ProtobufUpstreamBytesTest.class.getResourceAsStream(
        "upstream-pb/" + name + ".pb")) {
      return in.readAllBytes();
    }
  }

  static MapValue json(String name) throws IOException {
    return (MapValue) Json.read(Files.readAllBytes(ProtobufRoundTripTest.roundtrip()
        .resolve(name + ".json")));
  }

  @ParameterizedTest(name = "{0}")
  @MethodSource("fixtures")
  void decodesGoBytesToTheJsonFixtureAndEncodesItBackByteForByte(String name)
      throws IOException {
    byte[] bytes = upstream(name);
    MapValue expected = json(name);
    MapValue decoded = codec.decode(bytes);
    List<String> differences = new java.util.ArrayList<>();
    ProtobufRoundTripTest.diff("", expected, decoded, differences);
    assertThat(differences).isEmpty();
    assertThat(decoded).isEqualTo(expected);
    assertThat(codec.encode(expected)).isEqualTo(bytes);
  }

  @org.junit.jupiter.api.Test
  void watchEventOfAnUnknownTypeCarriesItsJson() throws IOException {
    // upstream's WatchEvent fixture: an envelope without type, a WatchEvent holding JSON
    ProtoCodec.Envelope envelope = ProtoCodec.envelope(upstream("core.v1.WatchEvent"));
    assertThat(envelope.kind()).isEmpty();
    MapValue expected = json("core.v1.WatchEvent");
    ProtobufCodec.WatchEvent event = codec.decodeWatchEvent(envelope.raw());
    assertThat(event.type()).isEqualTo(((StringValue) expected.getOrNull("type")).value());
    assertThat(event.object()).isEqualTo(expected.getOrNull("object"));
    assertThat(codec.encodeWatchEvent(event.type(), event.object())).isEqualTo(envelope.raw());
  }
}
