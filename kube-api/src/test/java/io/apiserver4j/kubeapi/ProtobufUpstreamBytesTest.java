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
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.security.MessageDigest;
import java.security.NoSuchAlgorithmException;
import java.util.HexFormat;
import java.util.List;
import java.util.Map;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.MethodSource;

/**
 * The protobuf encoding of upstream's round-trip fixtures ({@code ../shared/api/roundtrip}) is
 * byte for byte what Go's generated marshallers write: kubernetes/api keeps those bytes as
 * {@code testdata/HEAD/<name>.pb}, and the git blob id of each file at tag {@code v0.36.3}
 * (listed below; the bytes themselves are not copied here) must equal the blob id of our
 * encoding. Our encoding then also decodes back to the fixture.
 */
class ProtobufUpstreamBytesTest {
  /** {@code git ls-tree v0.36.3 testdata/HEAD/} of kubernetes/api, the {@code .pb} entries. */
  private static final Map<String, String> UPSTREAM_BLOBS = Map.ofEntries(
      Map.entry("core.v1.ConfigMap", "10e9c13b6c8c90e95cfe79baf764905daa29e3eb"),
      Map.entry("core.v1.Secret", "ca841c63ff5e45c37d4338a954db08d0ccee593f"),
      Map.entry("core.v1.Pod", "9e570fd6e7a899d703709b3c60a0862c6f753ec5"),
      Map.entry("core.v1.Service", "e70163900c392c016fd38f74111c16b5216cd5fd"),
      Map.entry("core.v1.Namespace", "665796b15032e0d1eacf1fb04d995c612f1f50c9"),
      Map.entry("apps.v1.Deployment", "b3b253f448b6f83b27d02896e5b3026642d2e9c4"),
      Map.entry("batch.v1.Job", "8452949e9e810ac7616111e5fdf724fa15a13ea7"),
      Map.entry("batch.v1.CronJob", "4c0637715a98982461ebff17873cb0c6e2d20e64"),
      Map.entry("rbac.authorization.k8s.io.v1.Role", "5aaea0025d63d63b88c01b3e0ac21b004c31c0c0"),
      Map.entry("networking.k8s.io.v1.Ingress", "d7b9a162970cff9495fb0c4a3a2e1c1e77d46023"),
      Map.entry("coordination.k8s.io.v1.Lease", "9a8f59bfd5af5fe4bd7bb6ddfb2a521b3c7d9b78"),
      Map.entry("autoscaling.v2.HorizontalPodAutoscaler",
          "0d57f89ae3c6564f0c16a2cbaadbf3f25542218d"),
      Map.entry("core.v1.WatchEvent", "6d7c78307c4ae78af710386b01ef615676382f6d"));

  private final ProtobufCodec codec = ProtobufCodec.builtIn();

  static List<String> fixtures() {
    return UPSTREAM_BLOBS.keySet().stream().filter(n -> !n.equals("core.v1.WatchEvent"))
        .sorted().toList();
  }

  static MapValue json(String name) throws IOException {
    return (MapValue) Json.read(Files.readAllBytes(ProtobufRoundTripTest.roundtrip()
        .resolve(name + ".json")));
  }

  /**
   * The bytes Go writes for the fixture {@code name}: our encoding, checked against upstream's
   * blob id first.
   */
  static byte[] goBytes(String name) throws IOException {
    byte[] bytes = ProtobufCodec.builtIn().encode(json(name));
    assertThat(gitBlobId(bytes)).as("blob id of %s", name).isEqualTo(UPSTREAM_BLOBS.get(name));
    return bytes;
  }

  /** {@code git hash-object}: SHA-1 of {@code "blob <length>\0"} and the bytes. */
  static String gitBlobId(byte[] bytes) {
    try {
      MessageDigest sha1 = MessageDigest.getInstance("SHA-1");
      sha1.update(("blob " + bytes.length + "\0").getBytes(StandardCharsets.US_ASCII));
      return HexFormat.of().formatHex(sha1.digest(bytes));
    } catch (NoSuchAlgorithmException e) {
      throw new AssertionError(e);
    }
  }

  @Test
  void theBlobIdIsGitsHashObject() {
    // `printf 'hello\n' | git hash-object --stdin`
    assertThat(gitBlobId("hello\n".getBytes(StandardCharsets.US_ASCII)))
        .isEqualTo("ce013625030ba8dba906f756967f9e9ca394464a");
  }

  @ParameterizedTest(name = "{0}")
  @MethodSource("fixtures")
  void encodesTheJsonFixtureToGosBytesAndDecodesThemBack(String name) throws IOException {
    MapValue expected = json(name);
    byte[] bytes = codec.encode(expected);
    assertThat(gitBlobId(bytes)).isEqualTo(UPSTREAM_BLOBS.get(name));
    MapValue decoded = codec.decode(bytes);
    List<String> differences = new java.util.ArrayList<>();
    ProtobufRoundTripTest.diff("", expected, decoded, differences);
    assertThat(differences).isEmpty();
    assertThat(decoded).isEqualTo(expected);
  }

  @Test
  void watchEventOfAnUnknownTypeCarriesItsJson() throws IOException {
    // upstream's WatchEvent fixture: an envelope without type around a WatchEvent holding JSON
    MapValue expected = json("core.v1.WatchEvent");
    String type = ((StringValue) expected.getOrNull("type")).value();
    byte[] raw = codec.encodeWatchEvent(type, (MapValue) expected.getOrNull("object"));
    byte[] file = ProtoCodec.envelopeOf("", "", raw);
    assertThat(gitBlobId(file)).isEqualTo(UPSTREAM_BLOBS.get("core.v1.WatchEvent"));
    ProtoCodec.Envelope envelope = ProtoCodec.envelope(file);
    assertThat(envelope.kind()).isEmpty();
    ProtobufCodec.WatchEvent event = codec.decodeWatchEvent(envelope.raw());
    assertThat(event.type()).isEqualTo(type);
    assertThat(event.object()).isEqualTo(expected.getOrNull("object"));
  }
}
