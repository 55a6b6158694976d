/*
 * Copyright The apiserver4j authors.
 * SPDX-License-Identifier: Apache-2.0
 */
package io.apiserver4j.http;

import static org.assertj.core.api.Assertions.assertThat;

import io.apiserver4j.apiserver.ApiRequest;
import io.apiserver4j.apiserver.ApiResponse;
import io.apiserver4j.apiserver.ApiServer;
import io.apiserver4j.core.GroupVersionResource;
import io.apiserver4j.core.Json;
import io.apiserver4j.core.ListValue;
import io.apiserver4j.core.MapValue;
import io.apiserver4j.core.Nested;
import io.apiserver4j.core.errors.Status;
import io.apiserver4j.core.Value;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * CRD conversion strategy Webhook against a real HTTPS webhook trusted through the CRD's
 * caBundle: kube's e2e CustomResourceConversionWebhook (v1 {@code hostPort} stored, v2
 * {@code host}/{@code port} served, converted both ways), the ConversionReview it sends and
 * kube's errors when the webhook fails or is unreachable.
 */
class ConversionWebhookTest {
  @TempDir
  static Path dir;
  static WebhookServer webhooks;
  static ApiServer api;

  private static final GroupVersionResource V1 =
      new GroupVersionResource("stable.example.com", "v1", "widgets");
  private static final GroupVersionResource V2 =
      new GroupVersionResource("stable.example.com", "v2", "widgets");
  private static final GroupVersionResource CRDS =
      new GroupVersionResource("apiextensions.k8s.io", "v1", "customresourcedefinitions");

  @BeforeAll
  static void start() throws Exception {
    webhooks = new WebhookServer(TestCertificates.create(
        java.nio.file.Files.createDirectories(dir.resolve("pki"))));
    api = ApiServer.builder().build();
  }

  @AfterAll
  static void stop() {
    api.close();
    webhooks.close();
  }

  @AfterEach
  void cleanUp() {
    api.handle(ApiRequest.builder(ApiRequest.Verb.DELETE, CRDS)
        .name("widgets.stable.example.com").build());
    webhooks.reset();
  }

  private static String crd(String webhook) {
    return """
        {"apiVersion": "apiextensions.k8s.io/v1", "kind": "CustomResourceDefinition",
         "metadata": {"name": "widgets.stable.example.com"},
         "spec": {"group": "stable.example.com", "scope": "Namespaced",
          "names": {"plural": "widgets", "singular": "widget", "kind": "Widget"},
          "conversion": %s,
          "versions": [
           {"name": "v1", "served": true, "storage": true, "schema": {"openAPIV3Schema":
            {"type": "object", "properties": {"hostPort": {"type": "string"}}}}},
           {"name": "v2", "served": true, "storage": false, "schema": {"openAPIV3Schema":
            {"type": "object", "properties": {"host": {"type": "string"},
             "port": {"type": "string"}}}}}]}}
        """.formatted(webhook);
  }

  private static String webhook(String url) {
    return "{\"strategy\": \"Webhook\", \"webhook\": {\"conversionReviewVersions\": [\"v1\","
        + " \"v1beta1\"], \"clientConfig\": {\"url\": \"" + url + "\", \"caBundle\": \""
        + webhooks.caBundle() + "\"}}}";
  }

  /** The e2e test's converter: hostPort (v1) <-> host and port (v2). */
  private static MapValue convert(MapValue review) {
    MapValue request = Nested.map(review, "request");
    String desired = Nested.str(request, "desiredAPIVersion");
    List<Value> out = new ArrayList<>();
    for (Value v : Nested.list(request, "objects")) {
      MapValue o = ((MapValue) v).with("apiVersion", Value.of(desired));
      if (desired.endsWith("/v2") && o.getOrNull("hostPort") != null) {
        String[] hp = Nested.str(o, "hostPort").split(":");
        o = o.without("hostPort").with("host", Value.of(hp[0])).with("port", Value.of(hp[1]));
      } else if (desired.endsWith("/v1") && o.getOrNull("host") != null) {
        o = o.without("host").without("port").with("hostPort",
            Value.of(Nested.str(o, "host") + ":" + Nested.str(o, "port")));
      }
      out.add(o);
    }
    return MapValue.ofEntries("apiVersion", Value.of("apiextensions.k8s.io/v1"),
        "kind", Value.of("ConversionReview"), "response", MapValue.ofEntries(
            "uid", request.getOrNull("uid"), "convertedObjects", ListValue.of(out),
            "result", MapValue.ofEntries("status", Value.of("Success"))));
  }

  private static void install(String conversion) {
    api.handle(ApiRequest.builder(ApiRequest.Verb.CREATE, CRDS)
        .body(Json.read(crd(conversion))).build()).orThrow();
  }

  private static ApiResponse create(GroupVersionResource gvr, String body) {
    return api.handle(ApiRequest.builder(ApiRequest.Verb.CREATE, gvr).namespace("default")
        .fieldManager("test").body(Json.read(body)).build());
  }

  private static ApiResponse get(GroupVersionResource gvr, String name) {
    return api.handle(ApiRequest.builder(ApiRequest.Verb.GET, gvr).namespace("default")
        .name(name).build());
  }

  @Test
  void objectsAreConvertedByTheWebhookBothWays() {
    webhooks.handle("/convert", ConversionWebhookTest::convert);
    install(webhook(webhooks.url("/convert")));

    create(V1, "{\"apiVersion\": \"stable.example.com/v1\", \"kind\": \"Widget\","
        + " \"metadata\": {\"name\": \"w1\"}, \"hostPort\": \"localhost:8080\"}").orThrow();
    MapValue asV2 = get(V2, "w1").orThrow();
    assertThat(Nested.str(asV2, "apiVersion")).isEqualTo("stable.example.com/v2");
    assertThat(Nested.str(asV2, "host")).isEqualTo("localhost");
    assertThat(Nested.str(asV2, "port")).isEqualTo("8080");
    assertThat(asV2.getOrNull("hostPort")).isNull();

    MapValue review = webhooks.received("/convert").get(0);
    assertThat(Nested.str(review, "apiVersion")).isEqualTo("apiextensions.k8s.io/v1");
    assertThat(Nested.str(review, "kind")).isEqualTo("ConversionReview");
    assertThat(Nested.str(review, "request", "desiredAPIVersion"))
        .isEqualTo("stable.example.com/v2");
    assertThat(Nested.str(review, "request", "uid")).isNotEmpty();
    assertThat(Nested.list(review, "request", "objects")).hasSize(1);

    // written through v2, stored at v1
    create(V2, "{\"apiVersion\": \"stable.example.com/v2\", \"kind\": \"Widget\","
        + " \"metadata\": {\"name\": \"w2\"}, \"host\": \"example.com\", \"port\": \"443\"}")
        .orThrow();
    assertThat(Nested.str(get(V1, "w2").orThrow(), "hostPort")).isEqualTo("example.com:443");
    MapValue list = api.handle(ApiRequest.builder(ApiRequest.Verb.LIST, V2)
        .namespace("default").build()).orThrow();
    List<String> hosts = new ArrayList<>();
    for (Value item : Nested.list(list, "items")) {
      hosts.add(Nested.str(item, "apiVersion") + " " + Nested.str(item, "host"));
    }
    assertThat(hosts).containsExactly("stable.example.com/v2 localhost",
        "stable.example.com/v2 example.com");
  }

  private static String message(ApiResponse r) {
    return r.failure().map(Status::message).orElse("(succeeded)");
  }

  @Test
  void aFailingWebhookFailsTheRequestWithKubesMessage() {
    webhooks.handle("/fail", review -> MapValue.ofEntries(
        "apiVersion", Value.of("apiextensions.k8s.io/v1"), "kind", Value.of("ConversionReview"),
        "response", MapValue.ofEntries("uid", Nested.getOrNull(review, "request", "uid"),
            "result", MapValue.ofEntries("status", Value.of("Failure"),
                "message", Value.of("cannot convert")))));
    install(webhook(webhooks.url("/fail")));
    create(V1, "{\"apiVersion\": \"stable.example.com/v1\", \"kind\": \"Widget\","
        + " \"metadata\": {\"name\": \"w1\"}, \"hostPort\": \"localhost:8080\"}").orThrow();

    ApiResponse r = get(V2, "w1");

    assertThat(r.code()).isEqualTo(500);
    assertThat(message(r)).isEqualTo("conversion webhook for stable.example.com/v1,"
        + " Kind=Widget failed: cannot convert");
    // a write through v2 is not stored
    ApiResponse w = create(V2, "{\"apiVersion\": \"stable.example.com/v2\", \"kind\": \"Widget\","
        + " \"metadata\": {\"name\": \"w2\"}, \"host\": \"a\", \"port\": \"1\"}");
    assertThat(w.code()).isEqualTo(500);
    assertThat(message(w)).isEqualTo("conversion webhook for stable.example.com/v2,"
        + " Kind=Widget failed: cannot convert");
    assertThat(get(V1, "w2").code()).isEqualTo(404);
  }

  @Test
  void wrongAnswersAreRejectedAsKube() {
    webhooks.handle("/uid", review -> {
      MapValue ok = convert(review);
      return ok.with("response", Nested.map(ok, "response").with("uid", Value.of("other")));
    });
    install(webhook(webhooks.url("/uid")));
    create(V1, "{\"apiVersion\": \"stable.example.com/v1\", \"kind\": \"Widget\","
        + " \"metadata\": {\"name\": \"w1\"}, \"hostPort\": \"localhost:8080\"}").orThrow();
    ApiResponse r = get(V2, "w1");
    String uid = Nested.str(webhooks.received("/uid").get(0), "request", "uid");
    assertThat(message(r)).isEqualTo("conversion webhook for stable.example.com/v1,"
        + " Kind=Widget failed: expected response.uid=\"" + uid + "\", got \"other\"");

    cleanUp();
    webhooks.handle("/kind", review -> {
      MapValue ok = convert(review);
      MapValue o = (MapValue) Nested.list(ok, "response", "convertedObjects").get(0);
      return ok.with("response", Nested.map(ok, "response").with("convertedObjects",
          ListValue.of(List.of(o.with("kind", Value.of("Gadget"))))));
    });
    install(webhook(webhooks.url("/kind")));
    create(V1, "{\"apiVersion\": \"stable.example.com/v1\", \"kind\": \"Widget\","
        + " \"metadata\": {\"name\": \"w1\"}, \"hostPort\": \"localhost:8080\"}").orThrow();
    assertThat(message(get(V2, "w1"))).isEqualTo("conversion webhook for stable.example.com/v1,"
        + " Kind=Widget returned invalid object at index 0: invalid kind (expected Widget,"
        + " received Gadget)");
  }

  @Test
  void theFirstReviewVersionTheServerSpeaksIsSent() {
    webhooks.handle("/beta", review -> {
      MapValue answer = convert(review);
      return answer.with("apiVersion", Value.of("apiextensions.k8s.io/v1beta1"));
    });
    install("{\"strategy\": \"Webhook\", \"webhook\": {\"conversionReviewVersions\":"
        + " [\"v9\", \"v1beta1\", \"v1\"], \"clientConfig\": {\"url\": \""
        + webhooks.url("/beta") + "\", \"caBundle\": \"" + webhooks.caBundle() + "\"}}}");
    create(V1, "{\"apiVersion\": \"stable.example.com/v1\", \"kind\": \"Widget\","
        + " \"metadata\": {\"name\": \"w1\"}, \"hostPort\": \"localhost:8080\"}").orThrow();

    assertThat(Nested.str(get(V2, "w1").orThrow(), "host")).isEqualTo("localhost");
    assertThat(Nested.str(webhooks.received("/beta").get(0), "apiVersion"))
        .isEqualTo("apiextensions.k8s.io/v1beta1");
  }

  @Test
  void aV1AnswerMustBeAV1ConversionReview() {
    webhooks.handle("/old", review -> convert(review).with("apiVersion",
        Value.of("apiextensions.k8s.io/v1beta1")));
    install(webhook(webhooks.url("/old")));
    create(V1, "{\"apiVersion\": \"stable.example.com/v1\", \"kind\": \"Widget\","
        + " \"metadata\": {\"name\": \"w1\"}, \"hostPort\": \"localhost:8080\"}").orThrow();

    assertThat(message(get(V2, "w1"))).isEqualTo("conversion webhook for stable.example.com/v1,"
        + " Kind=Widget failed: expected webhook response of apiextensions.k8s.io/v1,"
        + " Kind=ConversionReview, got apiextensions.k8s.io/v1beta1, Kind=ConversionReview");
  }

  @Test
  void anUnreachableWebhookFailsWithGosDialError() throws Exception {
    int port;
    try (java.net.ServerSocket s = new java.net.ServerSocket(0)) {
      port = s.getLocalPort();
    }
    install(webhook("https://127.0.0.1:" + port + "/convert"));
    create(V1, "{\"apiVersion\": \"stable.example.com/v1\", \"kind\": \"Widget\","
        + " \"metadata\": {\"name\": \"w1\"}, \"hostPort\": \"localhost:8080\"}").orThrow();

    assertThat(message(get(V2, "w1"))).isEqualTo("conversion webhook for stable.example.com/v1,"
        + " Kind=Widget failed: Post \"https://127.0.0.1:" + port
        + "/convert?timeout=30s\": dial tcp 127.0.0.1:" + port + ": connect: connection refused");
  }

  private static void createV1Widgets(int n) {
    for (int i = 0; i < n; i++) {
      create(V1, "{\"apiVersion\": \"stable.example.com/v1\", \"kind\": \"Widget\","
          + " \"metadata\": {\"name\": \"w" + i + "\"}, \"hostPort\": \"h" + i + ":80\"}")
          .orThrow();
    }
  }

  private static ApiResponse list(GroupVersionResource gvr) {
    return api.handle(ApiRequest.builder(ApiRequest.Verb.LIST, gvr).namespace("default")
        .build());
  }

  /** The converter with {@code change} applied to its answer's converted objects. */
  private static java.util.function.Function<MapValue, MapValue> answering(
      java.util.function.UnaryOperator<List<Value>> change) {
    return review -> {
      MapValue ok = convert(review);
      MapValue response = Nested.map(ok, "response");
      return ok.with("response", response.with("convertedObjects",
          ListValue.of(change.apply(Nested.list(response, "convertedObjects")))));
    };
  }

  @Test
  void aListIsConvertedWithOneReview() {
    webhooks.handle("/convert", ConversionWebhookTest::convert);
    install(webhook(webhooks.url("/convert")));
    createV1Widgets(5);

    MapValue list = list(V2).orThrow();

    // kube's webhook converter sends every item of the list in one ConversionReview
    List<MapValue> reviews = webhooks.received("/convert");
    assertThat(reviews).hasSize(1);
    assertThat(Nested.list(reviews.get(0), "request", "objects")).hasSize(5);
    assertThat(Nested.str(reviews.get(0), "request", "desiredAPIVersion"))
        .isEqualTo("stable.example.com/v2");
    List<String> items = new ArrayList<>();
    for (Value item : Nested.list(list, "items")) {
      items.add(Nested.str(item, "apiVersion") + " " + Nested.str(item, "metadata", "name") + " "
          + Nested.str(item, "host") + ":" + Nested.str(item, "port"));
    }
    assertThat(items).containsExactly("stable.example.com/v2 w0 h0:80",
        "stable.example.com/v2 w1 h1:80", "stable.example.com/v2 w2 h2:80",
        "stable.example.com/v2 w3 h3:80", "stable.example.com/v2 w4 h4:80");
    assertThat(Nested.str(list, "kind")).isEqualTo("WidgetList");

    // items already at the desired version are not sent: a list at the storage version sends none
    webhooks.reset();
    webhooks.handle("/convert", ConversionWebhookTest::convert);
    assertThat(Nested.list(list(V1).orThrow(), "items")).hasSize(5);
    assertThat(webhooks.received("/convert")).isEmpty();
  }

  @Test
  void aWatchConvertsEachEventWithItsOwnReview() throws Exception {
    webhooks.handle("/convert", ConversionWebhookTest::convert);
    install(webhook(webhooks.url("/convert")));
    try (io.apiserver4j.apiserver.ApiWatch watch = api.watch(ApiRequest.builder(
        ApiRequest.Verb.WATCH, V2).namespace("default").build())) {
      createV1Widgets(2);
      List<String> events = new ArrayList<>();
      for (int polls = 0; polls < 10 && events.size() < 2; polls++) {
        watch.poll(java.time.Duration.ofSeconds(30)).ifPresent(e -> events.add(e.type() + " "
            + Nested.str(e.object(), "apiVersion") + " " + Nested.str(e.object(), "host")));
      }
      assertThat(events).containsExactly("ADDED stable.example.com/v2 h0",
          "ADDED stable.example.com/v2 h1");
    }
    // kube encodes each watch event on its own: one review of one object per event
    List<MapValue> reviews = webhooks.received("/convert");
    assertThat(reviews).hasSize(2);
    assertThat(reviews).allSatisfy(r -> assertThat(Nested.list(r, "request", "objects"))
        .hasSize(1));
  }

  @Test
  void onlyTheItemsNotAtTheDesiredVersionAreSent() {
    webhooks.handle("/convert", ConversionWebhookTest::convert);
    install(webhook(webhooks.url("/convert")));
    createV1Widgets(1);
    // the storage version moves to v2: w0 stays stored at v1, w1 is stored at v2
    MapValue crd = api.handle(ApiRequest.builder(ApiRequest.Verb.GET, CRDS)
        .name("widgets.stable.example.com").build()).orThrow();
    List<Value> versions = new ArrayList<>();
    for (Value v : Nested.list(crd, "spec", "versions")) {
      versions.add(((MapValue) v).with("storage",
          Value.of(Nested.str(v, "name").equals("v2"))));
    }
    api.handle(ApiRequest.builder(ApiRequest.Verb.UPDATE, CRDS).name("widgets.stable.example.com")
        .body(Nested.set(crd, ListValue.of(versions), "spec", "versions")).build()).orThrow();
    create(V2, "{\"apiVersion\": \"stable.example.com/v2\", \"kind\": \"Widget\","
        + " \"metadata\": {\"name\": \"w1\"}, \"host\": \"h1\", \"port\": \"81\"}").orThrow();
    webhooks.reset();
    webhooks.handle("/convert", ConversionWebhookTest::convert);

    List<String> asV2 = new ArrayList<>();
    for (Value item : Nested.list(list(V2).orThrow(), "items")) {
      asV2.add(Nested.str(item, "metadata", "name") + " " + Nested.str(item, "host") + ":"
          + Nested.str(item, "port"));
    }
    assertThat(asV2).containsExactly("w0 h0:80", "w1 h1:81");
    List<Value> sent = Nested.list(webhooks.received("/convert").get(0), "request", "objects");
    assertThat(sent).hasSize(1);
    assertThat(Nested.str(sent.get(0), "metadata", "name")).isEqualTo("w0");

    // a bad answer is reported at its index among the objects sent, not in the list
    webhooks.handle("/convert", answering(objects -> replace(objects, 0,
        ((MapValue) objects.get(0)).with("kind", Value.of("Gadget")))));
    assertThat(message(list(V1))).isEqualTo("conversion webhook for stable.example.com/v1,"
        + " Kind=WidgetList returned invalid converted object at index 0: invalid kind"
        + " (expected Widget, received Gadget)");
  }

  @Test
  void anEmptyListSendsNoReview() {
    webhooks.handle("/convert", ConversionWebhookTest::convert);
    install(webhook(webhooks.url("/convert")));

    assertThat(Nested.list(list(V2).orThrow(), "items")).isEmpty();
    assertThat(webhooks.received("/convert")).isEmpty();
  }

  @Test
  void aDeleteCollectionConvertsTheCollectionWithOneReview() {
    webhooks.handle("/convert", ConversionWebhookTest::convert);
    install(webhook(webhooks.url("/convert")));
    createV1Widgets(3);

    MapValue deleted = api.handle(ApiRequest.builder(ApiRequest.Verb.DELETE_COLLECTION, V2)
        .namespace("default").build()).orThrow();

    assertThat(Nested.list(deleted, "items")).hasSize(3);
    assertThat(Nested.list(webhooks.received("/convert").get(0), "request", "objects"))
        .hasSize(3);
    assertThat(Nested.list(list(V1).orThrow(), "items")).isEmpty();
  }

  @Test
  void aDeleteCollectionWhoseConversionFailsDeletesNothing() {
    webhooks.handle("/short", answering(objects -> objects.subList(0, 1)));
    install(webhook(webhooks.url("/short")));
    createV1Widgets(2);

    ApiResponse r = api.handle(ApiRequest.builder(ApiRequest.Verb.DELETE_COLLECTION, V2)
        .namespace("default").build());

    assertThat(r.code()).isEqualTo(500);
    assertThat(message(r)).isEqualTo("conversion webhook for stable.example.com/v2,"
        + " Kind=WidgetList returned 1 objects, expected 2");
    assertThat(Nested.list(list(V1).orThrow(), "items")).hasSize(2);
  }

  @Test
  void wrongListAnswersAreRejectedAsKube() {
    // kube's webhook_converter.go: the list's kind in the message, the index of the bad object
    webhooks.handle("/count", answering(objects -> List.of()));
    install(webhook(webhooks.url("/count")));
    createV1Widgets(3);
    ApiResponse r = list(V2);
    assertThat(r.code()).isEqualTo(500);
    assertThat(r.failure().orElseThrow().reason().wireName()).isEmpty();
    assertThat(message(r)).isEqualTo("conversion webhook for stable.example.com/v2,"
        + " Kind=WidgetList returned 0 objects, expected 3");

    webhooks.handle("/count", answering(objects -> replace(objects, 1,
        ((MapValue) objects.get(1)).with("kind", Value.of("Gadget")))));
    assertThat(message(list(V2))).isEqualTo("conversion webhook for stable.example.com/v2,"
        + " Kind=WidgetList returned invalid converted object at index 1: invalid kind"
        + " (expected Widget, received Gadget)");

    webhooks.handle("/count", answering(objects -> replace(objects, 2,
        ((MapValue) objects.get(2)).with("apiVersion", Value.of("stable.example.com/v1")))));
    assertThat(message(list(V2))).isEqualTo("conversion webhook for stable.example.com/v2,"
        + " Kind=WidgetList returned invalid converted object at index 2: invalid groupVersion"
        + " (expected stable.example.com/v2, received stable.example.com/v1)");

    webhooks.handle("/count", answering(objects -> replace(objects, 0,
        Nested.set((MapValue) objects.get(0), Value.of("other"), "metadata", "name"))));
    assertThat(message(list(V2))).isEqualTo("conversion webhook for stable.example.com/v2,"
        + " Kind=WidgetList returned invalid converted object at index 0: must have the same"
        + " name: w0 != other");

    // the name is checked before the metadata is restored
    webhooks.handle("/count", answering(objects -> replace(objects, 1,
        ((MapValue) objects.get(1)).without("metadata"))));
    assertThat(message(list(V2))).isEqualTo("conversion webhook for stable.example.com/v2,"
        + " Kind=WidgetList returned invalid converted object at index 1: must have the same"
        + " name: w1 != ");

    webhooks.handle("/count", answering(objects -> replace(objects, 1,
        Nested.set((MapValue) objects.get(1), Value.of("x"), "metadata", "labels"))));
    assertThat(message(list(V2))).isEqualTo("conversion webhook for stable.example.com/v2,"
        + " Kind=WidgetList returned invalid metadata in object at index 1: invalid"
        + " metadata.labels of type string in converted object");

    webhooks.handle("/count", answering(objects -> replace(objects, 1, Value.of("x"))));
    assertThat(message(list(V2))).isEqualTo("conversion webhook for stable.example.com/v2,"
        + " Kind=WidgetList returned invalid converted object at index 1: json: cannot"
        + " unmarshal string into Go value of type map[string]interface {}");
  }

  private static List<Value> replace(List<Value> objects, int index, Value v) {
    List<Value> out = new ArrayList<>(objects);
    out.set(index, v);
    return out;
  }

  @Test
  void labelsAndAnnotationsAreTheOnlyMetadataAWebhookChanges() {
    webhooks.handle("/meta", answering(objects -> replace(objects, 0,
        Nested.set(Nested.set(Nested.set((MapValue) objects.get(0),
            MapValue.ofEntries("converted", Value.of("yes")), "metadata", "labels"),
            Value.of(7), "metadata", "generation"),
            MapValue.ofEntries("note", Value.of("v2")), "metadata", "annotations"))));
    install(webhook(webhooks.url("/meta")));
    createV1Widgets(1);

    MapValue got = get(V2, "w0").orThrow();

    assertThat(Nested.str(got, "metadata", "labels", "converted")).isEqualTo("yes");
    assertThat(Nested.str(got, "metadata", "annotations", "note")).isEqualTo("v2");
    assertThat(Nested.getOrNull(got, "metadata", "generation")).isEqualTo(Value.of(1));

    // changed labels are validated as kube's ValidateLabels does
    String long64 = "a".repeat(64);
    webhooks.handle("/meta", answering(objects -> replace(objects, 0, Nested.set(
        (MapValue) objects.get(0), MapValue.ofEntries("l", Value.of(long64)), "metadata",
        "labels"))));
    assertThat(message(get(V2, "w0"))).isEqualTo("conversion webhook for stable.example.com/v1,"
        + " Kind=Widget returned invalid metadata: metadata.labels: Invalid value: \"" + long64
        + "\": must be no more than 63 bytes");

    webhooks.handle("/meta", answering(objects -> replace(objects, 0, Nested.set(
        (MapValue) objects.get(0), MapValue.ofEntries("n", Value.of(3)), "metadata",
        "annotations"))));
    assertThat(message(get(V2, "w0"))).isEqualTo("conversion webhook for stable.example.com/v1,"
        + " Kind=Widget returned invalid metadata: metadata.annotations[n] must be a string, but"
        + " is int64 in converted object");

    webhooks.handle("/meta", answering(objects -> replace(objects, 0, Nested.set(
        (MapValue) objects.get(0), ListValue.of(List.of()), "metadata", "annotations"))));
    assertThat(message(get(V2, "w0"))).isEqualTo("conversion webhook for stable.example.com/v1,"
        + " Kind=Widget returned invalid metadata: invalid metadata.annotations of type"
        + " []interface {} in converted object");
  }

  @Test
  void aSingleObjectAnswerMustHoldOneObject() {
    webhooks.handle("/none", answering(objects -> List.of()));
    install(webhook(webhooks.url("/none")));
    createV1Widgets(1);

    // kube's integration test expects "returned 0 objects, expected 1"
    assertThat(message(get(V2, "w0"))).isEqualTo("conversion webhook for stable.example.com/v1,"
        + " Kind=Widget returned 0 objects, expected 1");

    List<Value> nullObject = new ArrayList<>();
    nullObject.add(Value.nullValue());
    webhooks.handle("/none", answering(objects -> nullObject));
    assertThat(message(get(V2, "w0"))).isEqualTo("unexpected end of JSON input");
  }

  @Test
  void conversionSettingsAreValidated() {
    ApiResponse r = api.handle(ApiRequest.builder(ApiRequest.Verb.CREATE, CRDS)
        .body(Json.read(crd("{\"strategy\": \"Webhook\"}"))).build());
    assertThat(r.code()).isEqualTo(422);
    assertThat(message(r)).isEqualTo("CustomResourceDefinition.apiextensions.k8s.io"
        + " \"widgets.stable.example.com\" is invalid: [spec.conversion.webhookClientConfig:"
        + " Required value: required when strategy is set to Webhook,"
        + " spec.conversion.conversionReviewVersions: Required value]");

    r = api.handle(ApiRequest.builder(ApiRequest.Verb.CREATE, CRDS).body(Json.read(crd(
        "{\"strategy\": \"Webhook\", \"webhook\": {\"conversionReviewVersions\": [\"v2\"],"
            + " \"clientConfig\": {\"url\": \"https://x.example.com\"}}}"))).build());
    assertThat(message(r)).isEqualTo("CustomResourceDefinition.apiextensions.k8s.io"
        + " \"widgets.stable.example.com\" is invalid: spec.conversion.conversionReviewVersions:"
        + " Invalid value: [\"v2\"]: must include at least one of v1, v1beta1");

    r = api.handle(ApiRequest.builder(ApiRequest.Verb.CREATE, CRDS)
        .body(Json.read(crd("{\"strategy\": \"Other\"}"))).build());
    assertThat(message(r)).isEqualTo("CustomResourceDefinition.apiextensions.k8s.io"
        + " \"widgets.stable.example.com\" is invalid: spec.conversion.strategy: Unsupported"
        + " value: \"Other\": supported values: \"None\", \"Webhook\"");
  }
}
