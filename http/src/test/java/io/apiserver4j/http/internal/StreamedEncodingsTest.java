/*
 * Copyright The apiserver4j authors.
 * SPDX-License-Identifier: Apache-2.0
 */
package io.apiserver4j.http.internal;

import static org.assertj.core.api.Assertions.assertThat;

import io.apiserver4j.apiserver.ApiRequest;
import io.apiserver4j.apiserver.ApiRequest.Verb;
import io.apiserver4j.apiserver.ApiServer;
import io.apiserver4j.apiserver.BuiltinResources;
import io.apiserver4j.apiserver.ResourceDefinition;
import io.apiserver4j.apiserver.answer.StreamedList;
import io.apiserver4j.core.GroupVersionResource;
import io.apiserver4j.core.Json;
import io.apiserver4j.core.ListValue;
import io.apiserver4j.core.MapValue;
import io.apiserver4j.core.Value;
import io.apiserver4j.http.HttpApiServer;
import io.apiserver4j.http.ManualClock;
import io.apiserver4j.storage.ObjectKey;
import io.apiserver4j.storage.StoredObject;
import java.io.IOException;
import java.io.OutputStream;
import java.net.URI;
import java.net.http.HttpClient;
import java.net.http.HttpRequest;
import java.net.http.HttpResponse;
import java.nio.charset.StandardCharsets;
import java.time.Duration;
import java.time.Instant;
import java.util.ArrayList;
import java.util.List;
import java.util.Optional;
import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.ValueSource;

/**
 * Issue 17: protobuf lists (kube 1.33+ streams them) and the Table and partial-metadata
 * conversions of JSON lists are written item by item, byte for byte what the list built whole
 * gave: the server's own list answer ({@code ApiServer.handle}) encoded as the HTTP layer
 * encodes whole bodies.
 */
class StreamedEncodingsTest {
  private static final io.apiserver4j.kubeapi.ProtobufCodec CODEC =
      io.apiserver4j.kubeapi.ProtobufCodec.builtIn();
  private static final GroupVersionResource CONFIG_MAPS =
      new GroupVersionResource("", "v1", "configmaps");
  private static final String NS = "encodings";
  private static final String PATH = "/api/v1/namespaces/" + NS + "/configmaps";
  private static final String TABLE = "application/json;as=Table;v=v1;g=meta.k8s.io";
  static final ManualClock CLOCK = new ManualClock(Instant.parse("2026-01-02T03:04:05Z"));
  static ApiServer api;
  static HttpApiServer http;
  static URI base;
  static HttpClient client;

  @BeforeAll
  static void start() throws Exception {
    // counts the ConfigMaps of default: without the root-ca-cert-publisher's kube-root-ca.crt
    api = ApiServer.builder().clock(CLOCK).disableAdmissionPlugins("ServiceAccount").build();
    http = HttpApiServer.builder(api).clock(CLOCK).build();
    http.start();
    base = http.url();
    client = HttpClient.newBuilder().version(HttpClient.Version.HTTP_1_1).build();
    api.handle(ApiRequest.builder(Verb.CREATE, new GroupVersionResource("", "v1",
        "namespaces")).body(Json.read("{\"metadata\":{\"name\":\"" + NS + "\"}}")).build())
        .orThrow();
    for (int i = 0; i < 7; i++) {
      CLOCK.advance(Duration.ofMinutes(7));
      api.handle(ApiRequest.builder(Verb.CREATE, CONFIG_MAPS).namespace(NS).body(Json.read(
          "{\"metadata\":{\"name\":\"cm-" + i + "\",\"labels\":{\"n\":\"" + i + "\"}},"
              + "\"data\":{\"k\":\"<&> \\u2028 é " + i + "\",\"x\":\"" + "y".repeat(i * 100)
              + "\"},\"binaryData\":{\"b\":\"AAEC\"}}")).build()).orThrow();
    }
    CLOCK.advance(Duration.ofHours(3));
  }

  @AfterAll
  static void stop() {
    http.close();
    api.close();
  }

  static HttpResponse<byte[]> get(String pathAndQuery, String accept) throws Exception {
    return client.send(HttpRequest.newBuilder(base.resolve(pathAndQuery)).header("Accept",
        accept).GET().build(), HttpResponse.BodyHandlers.ofByteArray());
  }

  /** The list the server answers, built whole. */
  static MapValue built(String namespace, long limit, String continueToken) {
    ApiRequest.Builder b = ApiRequest.builder(Verb.LIST, CONFIG_MAPS).namespace(namespace);
    if (limit > 0) {
      b.limit(limit);
    }
    if (!continueToken.isEmpty()) {
      b.continueToken(continueToken);
    }
    return api.handle(b.build()).orThrow();
  }

  static ResourceDefinition configMaps() {
    return BuiltinResources.definitions().stream().filter(d -> d.kind().group().isEmpty()
        && d.plural().equals("configmaps")).findFirst().orElseThrow();
  }

  /** Pages of the list: the whole, an empty one, and pages with continue tokens. */
  static List<String[]> pages() {
    List<String[]> out = new ArrayList<>();
    out.add(new String[] {PATH, NS, "0", ""});
    out.add(new String[] {"/api/v1/namespaces/empty-here/configmaps", "empty-here", "0", ""});
    MapValue first = built(NS, 3, "");
    String cont = io.apiserver4j.core.Nested.str(first, "metadata", "continue");
    assertThat(cont).isNotEmpty();
    out.add(new String[] {PATH + "?limit=3", NS, "3", ""});
    out.add(new String[] {PATH + "?limit=3&continue=" + java.net.URLEncoder.encode(cont,
        StandardCharsets.UTF_8), NS, "3", cont});
    return out;
  }

  @Test
  void protobufListsAreStreamedAsTheWholeListEncodes() throws Exception {
    for (String[] page : pages()) {
      HttpResponse<byte[]> r = get(page[0], ProtobufBodies.MEDIA_TYPE);
      assertThat(r.statusCode()).isEqualTo(200);
      assertThat(r.headers().firstValue("Content-Type")).hasValue(ProtobufBodies.MEDIA_TYPE);
      assertThat(r.headers().firstValue("Content-Length")).as("streamed").isEmpty();
      MapValue whole = built(page[1], Long.parseLong(page[2]), page[3]);
      assertThat(r.body()).as(page[0]).isEqualTo(Exchange.encode(CODEC, whole,
          OutputFormat.Encoding.PROTOBUF));
      // and it says what the JSON list says (the codec reads no items as none: Go's nil)
      MapValue decoded = ProtobufBodies.decode(CODEC, r.body(), List.of());
      assertThat(decoded.with("items", whole.getOrNull("items"))).isEqualTo(whole);
    }
    MapValue paged = built(NS, 3, "");
    assertThat(io.apiserver4j.core.Nested.map(paged, "metadata").getOrNull("remainingItemCount"))
        .isEqualTo(Value.of(4L));
  }

  @ParameterizedTest
  @ValueSource(strings = {"", "None", "Metadata", "Object"})
  void tablesOfListsAreStreamedAsTheWholeTableWrites(String include) throws Exception {
    Tables tables = Tables.of(configMaps(), List.of(), Tables.IncludeObject.parse(include),
        "v1");
    for (String[] page : pages()) {
      String query = include.isEmpty() ? "" : (page[0].contains("?") ? "&" : "?")
          + "includeObject=" + include;
      HttpResponse<byte[]> r = get(page[0] + query, TABLE);
      assertThat(r.statusCode()).isEqualTo(200);
      assertThat(r.headers().firstValue("Content-Type")).hasValue(TABLE);
      assertThat(r.headers().firstValue("Content-Length")).as("streamed").isEmpty();
      MapValue whole = built(page[1], Long.parseLong(page[2]), page[3]);
      assertThat(new String(r.body(), StandardCharsets.UTF_8)).as(page[0]).isEqualTo(
          new String(Exchange.encode(CODEC, tables.ofList(whole, CLOCK.instant()),
              OutputFormat.Encoding.JSON), StandardCharsets.UTF_8));
    }
  }

  @Test
  void partialObjectMetadataListsAreStreamedAsTheWholeListWrites() throws Exception {
    String accept = "application/json;as=PartialObjectMetadataList;v=v1;g=meta.k8s.io";
    for (String[] page : pages()) {
      HttpResponse<byte[]> r = get(page[0], accept);
      assertThat(r.statusCode()).isEqualTo(200);
      MapValue whole = built(page[1], Long.parseLong(page[2]), page[3]);
      assertThat(new String(r.body(), StandardCharsets.UTF_8)).isEqualTo(new String(
          Exchange.encode(CODEC, Tables.partialObjectMetadataList(whole, "v1"),
              OutputFormat.Encoding.JSON), StandardCharsets.UTF_8));
    }
  }

  @Test
  void yamlListsAreStillBuiltWholeAndSayTheSame() throws Exception {
    HttpResponse<byte[]> r = get(PATH, "application/yaml");
    assertThat(r.statusCode()).isEqualTo(200);
    // built whole: its length is known
    assertThat(r.headers().firstValue("Content-Length")).isPresent();
    assertThat(io.apiserver4j.core.Yaml.read(new String(r.body(), StandardCharsets.UTF_8)))
        .isEqualTo(built(NS, 0, ""));
  }

  /** Discards bytes, counting them. */
  static final class Counting extends OutputStream {
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

  /** A list of {@code n} stored ConfigMaps that notes how far the output was when each item is made. */
  static StreamedList recording(int n, Counting out, List<Long> writtenWhenMade) {
    List<StoredObject> items = new ArrayList<>();
    for (int i = 0; i < n; i++) {
      items.add(new StoredObject(ObjectKey.namespaced("", "configmaps", NS, "cm-" + i),
          (MapValue) Json.read("{\"apiVersion\":\"v1\",\"kind\":\"ConfigMap\",\"metadata\":"
              + "{\"name\":\"cm-" + i + "\",\"namespace\":\"" + NS + "\",\"resourceVersion\":\""
              + (i + 1) + "\",\"creationTimestamp\":\"2026-01-01T00:00:00Z\"},\"data\":{\"a\":\""
              + i + "\"}}"), i + 1));
    }
    MapValue shell = MapValue.ofEntries("apiVersion", Value.of("v1"), "items",
        ListValue.empty(), "kind", Value.of("ConfigMapList"), "metadata",
        MapValue.ofEntries("resourceVersion", Value.of(Long.toString(n))));
    return StreamedList.of(shell, items, o -> {
      writtenWhenMade.add(out.count);
      return o.without("apiVersion").without("kind");
    }, Optional.empty());
  }

  @Test
  void tableRowsReachTheWriterOneByOne() throws IOException {
    Counting out = new Counting();
    List<Long> made = new ArrayList<>();
    StreamedList list = recording(20, out, made);
    Tables.of(configMaps(), List.of(), Tables.IncludeObject.METADATA, "v1")
        .writeList(list, CLOCK.instant(), out);
    assertThat(made).hasSize(20);
    // the column definitions are out before the first row is made, each row before the next
    assertThat(made.get(0)).isPositive();
    for (int i = 1; i < made.size(); i++) {
      assertThat(made.get(i)).isGreaterThan(made.get(i - 1));
    }
  }

  @Test
  void protobufItemsReachTheWriterOneByOneBeyondTheBudget() throws IOException {
    Counting out = new Counting();
    List<Long> made = new ArrayList<>();
    int n = 20;
    StreamedList list = recording(n, out, made);
    io.apiserver4j.kubeapi.ProtobufCodec.PreparedList prepared = ProtobufBodies.prepareList(CODEC, list)
        .orElseThrow();
    // small items all fit the budget: sized and kept in one pass, written without more work
    assertThat(prepared.keptItems()).isEqualTo(n);
    assertThat(made).hasSize(n);
    prepared.writeTo(out);
    assertThat(made).hasSize(n);
    // with no budget every item is made again as it is written, after the one before it
    Counting out2 = new Counting();
    List<Long> made2 = new ArrayList<>();
    StreamedList list2 = recording(n, out2, made2);
    io.apiserver4j.kubeapi.ProtobufCodec.PreparedList none = io.apiserver4j.kubeapi.ProtobufCodec
        .builtIn().prepareList(list2.shell(), n, list2::item, 0);
    assertThat(none.keptItems()).isZero();
    none.writeTo(out2);
    assertThat(made2).hasSize(2 * n);
    for (int i = n + 1; i < 2 * n; i++) {
      assertThat(made2.get(i)).isGreaterThan(made2.get(i - 1));
    }
    assertThat(out2.count).isEqualTo(out.count);
  }
}
