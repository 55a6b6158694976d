/*
 * Copyright The apiserver4j authors.
 * SPDX-License-Identifier: Apache-2.0
 */
package io.apiserver4j.http;

import static org.assertj.core.api.Assertions.assertThat;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.ObjectMapper;
import com.fasterxml.jackson.databind.node.ArrayNode;
import com.fasterxml.jackson.databind.node.JsonNodeFactory;
import com.fasterxml.jackson.databind.node.ObjectNode;
import io.apiserver4j.apiserver.ApiServer;
import io.apiserver4j.core.Json;
import io.apiserver4j.core.Value;
import io.apiserver4j.core.Yaml;
import java.io.BufferedReader;
import java.io.InputStream;
import java.io.InputStreamReader;
import java.net.URI;
import java.net.http.HttpClient;
import java.net.http.HttpRequest;
import java.net.http.HttpResponse;
import java.nio.charset.StandardCharsets;
import java.util.ArrayList;
import java.util.HashMap;
import java.util.Iterator;
import java.util.List;
import java.util.Map;
import java.util.Random;
import java.util.stream.Stream;
import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.MethodSource;

/**
 * Random typed garbage against every resource of the 1.36 table, over HTTP, on every verb that
 * writes (create, update, the four patch types, dry run, each fieldValidation) and content type
 * (JSON, YAML, protobuf bytes that are not protobuf). The invariant of the server: no request is
 * answered 5xx, every answer is a decodable body, and whatever was stored can afterwards be read,
 * listed (JSON, protobuf, Table) and watched; the server stays ready.
 *
 * <p>Deterministic: the seed is fixed (override with {@code -Dfuzz.seed=N}, and the rounds with
 * {@code -Dfuzz.rounds=N}) so a failure reproduces; a failing request is printed in full.
 */
class FuzzTest {
  private static final ObjectMapper JSON = new ObjectMapper();
  private static final JsonNodeFactory NODES = JsonNodeFactory.instance;
  private static final long SEED = Long.getLong("fuzz.seed", 20261124L);
  private static final int ROUNDS = Integer.getInteger("fuzz.rounds", 30);
  private static final String NS = "fuzz";

  static ApiServer api;
  static HttpApiServer http;
  static HttpClient client;
  static Map<String, JsonNode> manifests;

  @BeforeAll
  static void start() throws Exception {
    api = ApiServer.builder().build();
    http = HttpApiServer.builder(api).build();
    http.start();
    // HTTP/1.1, as Go clients speak to a plain-HTTP server (no h2c upgrade)
    client = HttpClient.newBuilder().version(HttpClient.Version.HTTP_1_1).build();
    send("POST", "/api/v1/namespaces", "application/json",
        "{\"apiVersion\":\"v1\",\"kind\":\"Namespace\",\"metadata\":{\"name\":\"" + NS + "\"}}");
    manifests = new HashMap<>();
    try (InputStream in = FuzzTest.class.getResourceAsStream("all-resources.yaml")) {
      for (Value doc : Yaml.readAll(new String(in.readAllBytes(), StandardCharsets.UTF_8))) {
        JsonNode m = JSON.readTree(Json.write(doc));
        manifests.put(m.path("apiVersion").asText() + " " + m.path("kind").asText(), m);
      }
    }
  }

  @AfterAll
  static void stop() {
    http.close();
    api.close();
  }

  static Stream<Kube136Table.Row> writable() {
    return Kube136Table.rows().stream().filter(r -> r.verbs().contains("create"));
  }

  @ParameterizedTest(name = "{0}")
  @MethodSource("writable")
  void garbageIsRefusedCleanlyAndNothingStoredIsPoisoned(Kube136Table.Row row)
      throws Exception {
    JsonNode base = manifests.get(row.apiVersion() + " " + row.kind());
    assertThat(base).as("a valid %s in all-resources.yaml", row).isNotNull();
    Random random = new Random(SEED ^ row.toString().hashCode());
    String collection = collection(row);
    for (int round = 0; round < ROUNDS; round++) {
      ObjectNode object = base.deepCopy();
      if (row.namespaced()) {
        ((ObjectNode) object.path("metadata")).put("namespace", NS);
      }
      String name = "fuzz-" + round % 4;
      ((ObjectNode) object.path("metadata")).put("name", name);
      int mutations = 1 + random.nextInt(3);
      for (int i = 0; i < mutations; i++) {
        mutate(object, random);
      }
      String query = query(random);
      String body = JSON.writeValueAsString(object);
      switch (random.nextInt(8)) {
        case 0, 1 -> check(row, send("POST", collection + query, contentType(random), body));
        case 2 -> check(row, send("PUT", collection + "/" + name + query, contentType(random),
            body));
        case 3 -> check(row, send("PATCH", collection + "/" + name + query,
            "application/merge-patch+json", body));
        case 4 -> check(row, send("PATCH", collection + "/" + name + query,
            "application/strategic-merge-patch+json", body));
        case 5 -> check(row, send("PATCH", collection + "/" + name + query,
            "application/json-patch+json", jsonPatch(random)));
        case 6 -> check(row, send("PATCH", collection + "/" + name + addParam(query,
            "fieldManager=fuzz" + (random.nextBoolean() ? "&force=true" : "")),
            "application/apply-patch+yaml", body));
        default -> check(row, sendBytes(random.nextBoolean() ? "POST" : "PUT",
            collection + (random.nextBoolean() ? "" : "/" + name) + query,
            "application/vnd.kubernetes.protobuf", garbageBytes(random)));
      }
    }
    assertEverythingStoredCanBeRead(row);
    assertThat(send("GET", "/readyz", null, null).statusCode()).isEqualTo(200);
  }

  // --- what is checked -----------------------------------------------------------------------

  private static void check(Kube136Table.Row row, Exchange ex) {
    if (isKubesOwn500(ex)) {
      return;
    }
    assertThat(ex.statusCode()).as("%s: %s", row, ex).isLessThan(500);
    if (ex.statusCode() >= 400) {
      JsonNode status = ex.json();
      assertThat(status.path("kind").asText()).as("%s: %s", row, ex).isEqualTo("Status");
      assertThat(status.path("code").asInt()).as("%s: %s", row, ex).isEqualTo(ex.statusCode());
      assertThat(status.path("message").asText()).as("%s: %s", row, ex).isNotEmpty();
    } else {
      assertThat(ex.json().isObject()).as("%s: %s", row, ex).isTrue();
    }
  }

  /**
   * A 500 kube-apiserver answers to a bad body itself: a plain Go error (strategic merge of
   * mismatched lists, server-side apply of a body that does not fit the schema, a Binding's
   * field errors) becomes, through kube's {@code ErrorToAPIStatus}, a 500 without reason. The
   * server's own failures are 500 InternalError ("Internal error occurred: ..."), never accepted.
   */
  private static boolean isKubesOwn500(Exchange ex) {
    if (ex.statusCode() != 500) {
      return false;
    }
    JsonNode status = ex.json();
    return status.path("reason").isMissingNode() && !status.path("message").asText().isEmpty();
  }

  private static void assertEverythingStoredCanBeRead(Kube136Table.Row row) throws Exception {
    if (!row.verbs().contains("list")) {
      return; // the review resources and bindings store nothing
    }
    String collection = collection(row);
    Exchange list = send("GET", collection, null, null);
    assertThat(list.statusCode()).as("list of %s: %s", row, list).isEqualTo(200);
    JsonNode items = list.json().path("items");
    for (JsonNode item : items) {
      String name = item.path("metadata").path("name").asText();
      Exchange got = send("GET", collection + "/" + name, null, null);
      assertThat(got.statusCode()).as("get of %s %s: %s", row, name, got).isEqualTo(200);
    }
    HttpResponse<byte[]> proto = client.send(request("GET", collection, null, null)
        .header("Accept", "application/vnd.kubernetes.protobuf").build(),
        HttpResponse.BodyHandlers.ofByteArray());
    assertThat(proto.statusCode()).as("protobuf list of %s", row).isEqualTo(200);
    HttpResponse<String> table = client.send(request("GET", collection, null, null)
        .header("Accept", "application/json;as=Table;v=v1;g=meta.k8s.io").build(),
        HttpResponse.BodyHandlers.ofString());
    assertThat(table.statusCode()).as("table of %s: %s", row, table.body()).isEqualTo(200);
    if (items.size() > 0) {
      assertWatchReplays(row, collection, items.size());
    }
  }

  /** A watch from resourceVersion 0 begins with one ADDED event per stored object. */
  private static void assertWatchReplays(Kube136Table.Row row, String collection, int count)
      throws Exception {
    HttpResponse<InputStream> watch = client.send(request("GET", collection
        + "?watch=true&resourceVersion=0", null, null).build(),
        HttpResponse.BodyHandlers.ofInputStream());
    assertThat(watch.statusCode()).as("watch of %s", row).isEqualTo(200);
    try (BufferedReader lines = new BufferedReader(
        new InputStreamReader(watch.body(), StandardCharsets.UTF_8))) {
      for (int i = 0; i < count; i++) {
        String line = lines.readLine();
        assertThat(line).as("watch event %d of %s", i, row).isNotNull();
        JsonNode event = JSON.readTree(line);
        assertThat(event.path("type").asText()).as("watch event of %s: %s", row, line)
            .isEqualTo("ADDED");
      }
    }
  }

  // --- garbage ---------------------------------------------------------------------------------

  /** Replaces, removes or adds one field somewhere in the object, metadata included. */
  private static void mutate(ObjectNode object, Random random) {
    List<JsonNode> containers = new ArrayList<>();
    collect(object, containers);
    JsonNode target = containers.get(random.nextInt(containers.size()));
    if (target instanceof ObjectNode o) {
      List<String> fields = new ArrayList<>();
      o.fieldNames().forEachRemaining(fields::add);
      int choice = random.nextInt(4);
      if (fields.isEmpty() || choice == 0) {
        o.set(random.nextBoolean() ? "zz" + random.nextInt(3) : "metadata", garbage(random, 0));
      } else if (choice == 1 && o != object) {
        o.remove(fields.get(random.nextInt(fields.size())));
      } else {
        String f = fields.get(random.nextInt(fields.size()));
        if (o == object && (f.equals("apiVersion") || f.equals("kind")) && random.nextInt(4) > 0) {
          f = "spec";
        }
        o.set(f, garbage(random, 0));
      }
    } else if (target instanceof ArrayNode a) {
      if (a.isEmpty() || random.nextBoolean()) {
        a.add(garbage(random, 0));
      } else {
        a.set(random.nextInt(a.size()), garbage(random, 0));
      }
    }
  }

  private static void collect(JsonNode node, List<JsonNode> out) {
    if (node.isContainerNode()) {
      out.add(node);
      for (Iterator<JsonNode> it = node.elements(); it.hasNext(); ) {
        collect(it.next(), out);
      }
    }
  }

  private static JsonNode garbage(Random random, int depth) {
    switch (random.nextInt(depth > 3 ? 10 : 13)) {
      case 0:
        return NODES.numberNode(new long[] {-1, 0, 2147483648L, Long.MAX_VALUE,
            Integer.MIN_VALUE}[random.nextInt(5)]);
      case 1:
        return NODES.numberNode(new double[] {1.5, -0.0, 1e3, 1e300, 3.4e38}[random.nextInt(5)]);
      case 2:
        return NODES.numberNode(new java.math.BigInteger("18446744073709551616"));
      case 3:
        return NODES.textNode(new String[] {"", "abc", "1e400", "2^64", "100Mi", "1.5Gi",
            "-1", "*", "::", "a/b", "0.0.0.0/0", "2026-11-24T00:00:00Z", "not-a-time",
            "\u0000", "\ud800", "x".repeat(300), "é€𝄞", "${x}", "null"}[random.nextInt(19)]);
      case 4:
        return NODES.booleanNode(random.nextBoolean());
      case 5:
        return NODES.nullNode();
      case 6:
        return NODES.textNode("system:" + random.nextInt(10));
      case 7:
        return NODES.numberNode(random.nextInt(70000) - 100);
      case 8:
        return NODES.textNode("ZmFrZQ==");
      case 9:
        return NODES.objectNode();
      case 10: {
        ArrayNode a = NODES.arrayNode();
        int n = random.nextInt(3);
        for (int i = 0; i < n; i++) {
          a.add(garbage(random, depth + 1));
        }
        return a;
      }
      case 11: {
        ObjectNode o = NODES.objectNode();
        int n = 1 + random.nextInt(3);
        for (int i = 0; i < n; i++) {
          o.set(new String[] {"name", "key", "value", "a", "kind", "port", "spec",
              "metadata"}[random.nextInt(8)], garbage(random, depth + 1));
        }
        return o;
      }
      default: {
        // deep nesting, past any sane schema
        JsonNode inner = NODES.textNode("deep");
        int levels = 50 + random.nextInt(200);
        for (int i = 0; i < levels; i++) {
          inner = random.nextBoolean() ? NODES.arrayNode().add(inner)
              : NODES.objectNode().set("d", inner);
        }
        return inner;
      }
    }
  }

  private static String jsonPatch(Random random) throws Exception {
    ArrayNode ops = NODES.arrayNode();
    int n = 1 + random.nextInt(3);
    for (int i = 0; i < n; i++) {
      ObjectNode op = ops.addObject();
      op.put("op", new String[] {"add", "replace", "remove", "test", "move", "copy",
          "bogus"}[random.nextInt(7)]);
      op.put("path", new String[] {"/spec", "/metadata/labels/a", "/metadata/name", "/zz",
          "/spec/-", "/status", "/metadata/annotations", "", "/data/a~1b", "/spec/0"}
          [random.nextInt(10)]);
      if (random.nextBoolean()) {
        op.set("value", garbage(random, 0));
      }
      if (random.nextInt(4) == 0) {
        op.put("from", "/metadata/labels");
      }
    }
    return JSON.writeValueAsString(ops);
  }

  private static byte[] garbageBytes(Random random) {
    byte[] b = new byte[random.nextInt(64)];
    random.nextBytes(b);
    if (b.length > 4 && random.nextBoolean()) {
      // kube's protobuf envelope magic, then garbage
      b[0] = 'k';
      b[1] = '8';
      b[2] = 's';
      b[3] = 0;
    }
    return b;
  }

  private static String query(Random random) {
    List<String> params = new ArrayList<>();
    if (random.nextInt(3) == 0) {
      params.add("dryRun=All");
    }
    if (random.nextInt(3) == 0) {
      params.add("fieldValidation=" + new String[] {"Strict", "Warn", "Ignore", "bogus"}
          [random.nextInt(4)]);
    }
    if (random.nextInt(6) == 0) {
      params.add("fieldManager=" + new String[] {"", "x".repeat(200), "%00"}[random.nextInt(3)]);
    }
    return params.isEmpty() ? "" : "?" + String.join("&", params);
  }

  private static String addParam(String query, String param) {
    return query.isEmpty() ? "?" + param : query + "&" + param;
  }

  private static String contentType(Random random) {
    return random.nextInt(3) == 0 ? "application/yaml" : "application/json";
  }

  // --- HTTP ----------------------------------------------------------------------------------

  private static String collection(Kube136Table.Row row) {
    String prefix = row.group().isEmpty() ? "/api/v1" : "/apis/" + row.apiVersion();
    return prefix + (row.namespaced() ? "/namespaces/" + NS : "") + "/" + row.plural();
  }

  private static HttpRequest.Builder request(String method, String path, String contentType,
      byte[] body) {
    HttpRequest.Builder b = HttpRequest.newBuilder(URI.create(http.url() + path))
        .method(method, body == null ? HttpRequest.BodyPublishers.noBody()
            : HttpRequest.BodyPublishers.ofByteArray(body));
    if (contentType != null) {
      b.header("Content-Type", contentType);
    }
    return b;
  }

  private static Exchange send(String method, String path, String contentType, String body)
      throws Exception {
    return sendBytes(method, path, contentType,
        body == null ? null : body.getBytes(StandardCharsets.UTF_8));
  }

  private static Exchange sendBytes(String method, String path, String contentType, byte[] body)
      throws Exception {
    HttpResponse<String> r = client.send(request(method, path, contentType, body).build(),
        HttpResponse.BodyHandlers.ofString());
    return new Exchange(method, path, contentType, body, r.statusCode(), r.body());
  }

  /** A request and its answer, printed in full when an assertion fails. */
  record Exchange(String method, String path, String contentType, byte[] body, int statusCode,
      String response) {
    JsonNode json() {
      try {
        return JSON.readTree(response);
      } catch (Exception e) {
        throw new AssertionError("not JSON: " + this, e);
      }
    }

    @Override
    public String toString() {
      String sent = body == null ? "" : contentType != null && contentType.contains("protobuf")
          ? body.length + " bytes" : new String(body, StandardCharsets.UTF_8);
      return method + " " + path + " (" + contentType + ") " + sent + "\n  -> " + statusCode
          + " " + response;
    }
  }
}
