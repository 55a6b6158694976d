/*
 * Copyright The apiserver4j authors.
 * SPDX-License-Identifier: Apache-2.0
 */
package io.apiserver4j.kubeapi;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

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
 * ({@code upstream-pb-blobs.txt}; the bytes themselves are not copied here) must equal the blob
 * id of our encoding, for every GA kind. Our encoding then also decodes back to the fixture.
 */
class ProtobufUpstreamBytesTest {
  /**
   * {@code git ls-tree v0.36.3 testdata/HEAD/} of kubernetes/api, the {@code .pb} entries: the
   * blob id of each file by fixture name.
   */
  private static final Map<String, String> UPSTREAM_BLOBS = upstreamBlobs();
  private static final java.util.regex.Pattern PRERELEASE =
      java.util.regex.Pattern.compile("\\.v\\d+(alpha|beta)\\d+\\.");
  private static final String WATCH_EVENT = "core.v1.WatchEvent";

  private final ProtobufCodec codec = ProtobufCodec.builtIn();

  /** The GA kinds: the built-in descriptors cover every GA group version. */
  static List<String> fixtures() {
    return UPSTREAM_BLOBS.keySet().stream()
        .filter(n -> !PRERELEASE.matcher(n).find() && !n.equals(WATCH_EVENT)).toList();
  }

  static List<String> prereleaseFixtures() {
    return UPSTREAM_BLOBS.keySet().stream().filter(n -> PRERELEASE.matcher(n).find()).toList();
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

  private static Map<String, String> upstreamBlobs() {
    Map<String, String> out = new java.util.TreeMap<>();
    try (java.io.InputStream in = ProtobufUpstreamBytesTest.class.getResourceAsStream(
        "upstream-pb-blobs.txt")) {
      for (String line : new String(in.readAllBytes(), StandardCharsets.UTF_8).split("\n")) {
        if (!line.isBlank() && !line.startsWith("#")) {
          String[] f = line.trim().split(" ");
          out.put(f[0], f[1]);
        }
      }
    } catch (IOException e) {
      throw new java.io.UncheckedIOException(e);
    }
    return out;
  }

  @Test
  void everyUpstreamFixtureIsCoveredAndEveryGaKindIsEncoded() {
    assertThat(UPSTREAM_BLOBS).hasSize(185);
    assertThat(fixtures()).hasSize(90);
  }

  @ParameterizedTest(name = "{0}")
  @MethodSource("prereleaseFixtures")
  void alphaAndBetaVersionsHaveNoBuiltInMessage(String name) throws IOException {
    MapValue object = json(name);
    assertThatThrownBy(() -> codec.encode(object)).isInstanceOf(IllegalArgumentException.class)
        .hasMessageStartingWith("no protobuf message for ");
  }

  @Test
  void watchEventOfAnUnknownTypeCarriesItsJson() throws IOException {
    // upstream's WatchEvent fixture: an envelope without type around a WatchEvent holding JSON
    MapValue expected = json(WATCH_EVENT);
    String type = ((StringValue) expected.getOrNull("type")).value();
    byte[] raw = codec.encodeWatchEvent(type, (MapValue) expected.getOrNull("object"));
    byte[] file = ProtoCodec.envelopeOf("", "", raw);
    assertThat(gitBlobId(file)).isEqualTo(UPSTREAM_BLOBS.get(WATCH_EVENT));
    ProtoCodec.Envelope envelope = ProtoCodec.envelope(file);
    assertThat(envelope.kind()).isEmpty();
    ProtobufCodec.WatchEvent event = codec.decodeWatchEvent(envelope.raw());
    assertThat(event.type()).isEqualTo(type);
    assertThat(event.object()).isEqualTo(expected.getOrNull("object"));
  }
}
