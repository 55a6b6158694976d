/*
 * Copyright The apiserver4j authors.
 * SPDX-License-Identifier: Apache-2.0
 */
package io.apiserver4j.kubeapi;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import io.apiserver4j.core.ListValue;
import io.apiserver4j.core.MapValue;
import io.apiserver4j.core.Meta;
import io.apiserver4j.core.StringValue;
import io.apiserver4j.core.Value;
import io.apiserver4j.kubeapi.internal.proto.ProtoCodec;
import java.io.ByteArrayOutputStream;
import java.io.IOException;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.List;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.MethodSource;

/**
 * Lists written item by item as kube 1.33+ streams protobuf lists (apimachinery's
 * {@code serializer/protobuf/collections.go}): byte for byte the list encoded whole, each item's
 * bytes those of Go's marshaller, and the items not kept encoded again as they are written.
 */
class ProtobufStreamedListTest {
  private final ProtobufCodec codec = ProtobufCodec.builtIn();

  static List<String> fixtures() {
    // the kinds that have a list kind
    ProtobufCodec codec = ProtobufCodec.builtIn();
    return ProtobufUpstreamBytesTest.fixtures().stream().filter(n -> {
      try {
        MapValue o = ProtobufUpstreamBytesTest.json(n);
        return codec.streamsList(Meta.string(o, "apiVersion"), Meta.string(o, "kind") + "List");
      } catch (IOException e) {
        throw new java.io.UncheckedIOException(e);
      }
    }).toList();
  }

  /** A list of {@code n} copies of the fixture object, as kube's typed lists hold items. */
  static MapValue list(MapValue object, int n, MapValue listMeta) {
    String apiVersion = ((StringValue) object.getOrNull("apiVersion")).value();
    String kind = ((StringValue) object.getOrNull("kind")).value();
    ListValue.Builder items = ListValue.builder();
    for (int i = 0; i < n; i++) {
      items.add(object.without("apiVersion").without("kind"));
    }
    return MapValue.ofEntries("apiVersion", Value.of(apiVersion), "items", items.build(),
        "kind", Value.of(kind + "List"), "metadata", listMeta);
  }

  static MapValue pageMeta() {
    return MapValue.ofEntries("resourceVersion", Value.of("12345"), "continue",
        Value.of("eyJ2IjoibWV0YS5rOHMuaW8vdjEiLCJydiI6MTIzNDV9"), "remainingItemCount",
        Value.of(42L));
  }

  byte[] streamed(MapValue whole, long retain) throws IOException {
    List<Value> items = ((ListValue) whole.getOrNull("items")).items();
    ProtobufCodec.PreparedList prepared = codec.prepareList(whole.with("items",
        ListValue.empty()), items.size(), i -> (MapValue) items.get(i), retain);
    ByteArrayOutputStream out = new ByteArrayOutputStream();
    prepared.writeTo(out);
    return out.toByteArray();
  }

  @ParameterizedTest(name = "{0}")
  @MethodSource("fixtures")
  void aStreamedListIsTheWholeListsBytesWithGosItemBytes(String name) throws IOException {
    MapValue object = ProtobufUpstreamBytesTest.json(name);
    MapValue whole = list(object, 3, pageMeta());
    byte[] expected = codec.encode(whole);
    int itemSize = ProtoCodec.envelope(ProtobufUpstreamBytesTest.goBytes(name)).raw().length;
    for (long retain : new long[] {0, itemSize, Long.MAX_VALUE}) {
      assertThat(streamed(whole, retain)).as("keeping %d bytes", retain).isEqualTo(expected);
    }
    // each item of the list is the message Go wrote for the object, after its tag and length
    byte[] goItem = ProtoCodec.envelope(ProtobufUpstreamBytesTest.goBytes(name)).raw();
    byte[] raw = ProtoCodec.envelope(expected).raw();
    byte[] lastItem = Arrays.copyOfRange(raw, raw.length - goItem.length, raw.length);
    assertThat(lastItem).isEqualTo(goItem);
  }

  @Test
  void anEmptyListAndAListWithoutPagingAreTheirWholeBytes() throws IOException {
    MapValue object = ProtobufUpstreamBytesTest.json("core.v1.ConfigMap");
    for (MapValue whole : List.of(list(object, 0, MapValue.ofEntries("resourceVersion",
        Value.of("7"))), list(object, 0, MapValue.empty()), list(object, 2, MapValue.empty()))) {
      assertThat(streamed(whole, 0)).isEqualTo(codec.encode(whole));
      assertThat(streamed(whole, Long.MAX_VALUE)).isEqualTo(codec.encode(whole));
    }
  }

  @Test
  void itemsNotKeptAreEncodedAgainOneByOneAsTheBodyIsWritten() throws IOException {
    MapValue object = ProtobufUpstreamBytesTest.json("core.v1.Pod")
        .without("apiVersion").without("kind");
    int n = 50;
    List<Integer> asked = new ArrayList<>();
    List<Long> writtenWhenAsked = new ArrayList<>();
    CountingStream out = new CountingStream();
    ProtobufCodec.PreparedList prepared = codec.prepareList(MapValue.ofEntries("apiVersion",
        Value.of("v1"), "kind", Value.of("PodList"), "metadata", MapValue.empty()), n, i -> {
          asked.add(i);
          writtenWhenAsked.add(out.count);
          return object;
        }, 0);
    // keeping nothing, the prepared list holds no item's bytes
    assertThat(prepared.keptItems()).isZero();
    assertThat(asked).hasSize(n);
    prepared.writeTo(out);
    assertThat(asked).hasSize(2 * n);
    // the second time around, item i is asked for after item i - 1 reached the stream
    for (int i = 1; i < n; i++) {
      assertThat(asked.get(n + i)).isEqualTo(i);
      assertThat(writtenWhenAsked.get(n + i)).isGreaterThan(writtenWhenAsked.get(n + i - 1));
    }
  }

  @Test
  void aBudgetKeepsAsManyItemsAsFitInIt() throws IOException {
    MapValue object = ProtobufUpstreamBytesTest.json("core.v1.ConfigMap");
    int itemSize = ProtoCodec.envelope(codec.encode(object)).raw().length;
    MapValue item = object.without("apiVersion").without("kind");
    MapValue shell = MapValue.ofEntries("apiVersion", Value.of("v1"), "kind",
        Value.of("ConfigMapList"));
    assertThat(codec.prepareList(shell, 10, i -> item, 3L * itemSize).keptItems()).isEqualTo(3);
    assertThat(codec.prepareList(shell, 10, i -> item, 3L * itemSize - 1).keptItems())
        .isEqualTo(2);
    assertThat(codec.prepareList(shell, 10, i -> item, Long.MAX_VALUE).keptItems())
        .isEqualTo(10);
  }

  @Test
  void onlyListKindsOfMetadataAndItemsAreStreamed() throws IOException {
    assertThat(codec.streamsList("v1", "ConfigMapList")).isTrue();
    assertThat(codec.streamsList("apps/v1", "DeploymentList")).isTrue();
    assertThat(codec.streamsList("v1", "ConfigMap")).isFalse();
    assertThat(codec.streamsList("example.org/v1", "WidgetList")).isFalse();
    assertThatThrownBy(() -> codec.prepareList(MapValue.ofEntries("apiVersion", Value.of("v1"),
        "kind", Value.of("ConfigMap")), 0, i -> MapValue.empty(), 0))
        .isInstanceOf(IllegalArgumentException.class);
  }

  @Test
  void anItemThatDoesNotFitFailsBeforeAnythingIsWritten() throws IOException {
    MapValue bad = MapValue.ofEntries("metadata", MapValue.ofEntries("name", Value.of(3L)));
    assertThatThrownBy(() -> codec.prepareList(MapValue.ofEntries("apiVersion", Value.of("v1"),
        "kind", Value.of("ConfigMapList")), 1, i -> bad, 0))
        .isInstanceOf(IllegalArgumentException.class)
        .hasMessageContaining("ConfigMapList.items[].metadata.name");
  }

  /** Discards bytes, counting them. */
  static final class CountingStream extends java.io.OutputStream {
    long count;

    @Override
    public void write(int b) {
      count++;
    }

    @Override
    public void write(byte[] b, int off, int len) {
      count += len;
    }
  }
}
