/*
 * Copyright The apiserver4j authors.
 * SPDX-License-Identifier: Apache-2.0
 */
package io.apiserver4j.apiserver;

import static io.apiserver4j.apiserver.Fixtures.DEPLOYMENTS;
import static io.apiserver4j.apiserver.Fixtures.req;
import static io.apiserver4j.apiserver.Fixtures.str;
import static org.assertj.core.api.Assertions.assertThat;

import io.apiserver4j.apiserver.ApiRequest.Verb;
import io.apiserver4j.apimachinery.patch.PatchType;
import io.apiserver4j.core.GroupVersionResource;
import io.apiserver4j.core.ListValue;
import io.apiserver4j.core.MapValue;
import io.apiserver4j.core.StringValue;
import io.apiserver4j.core.Value;
import io.apiserver4j.core.Yaml;
import java.io.IOException;
import java.io.InputStream;
import java.nio.charset.StandardCharsets;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.stream.Stream;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.Arguments;
import org.junit.jupiter.params.provider.MethodSource;

/**
 * Issue 12 item 1: built-in objects are decoded by their Go types on every write path, with
 * kube's codes and texts (the cases and where each text comes from:
 * {@code go-decoding.yaml}). Each case runs for real and as a dry run, with the same answer, and
 * a rejected request changes nothing.
 */
class GoDecodingTest {
  static final GroupVersionResource SECRETS = new GroupVersionResource("", "v1", "secrets");
  static final GroupVersionResource EVENTS = new GroupVersionResource("", "v1", "events");
  static final GroupVersionResource QUOTAS =
      new GroupVersionResource("", "v1", "resourcequotas");

  static final Map<String, String> OBJECTS = Map.of(
      "deployment", "{\"apiVersion\":\"apps/v1\",\"kind\":\"Deployment\",\"metadata\":{\"name\":"
          + "\"d\",\"labels\":{\"app\":\"d\"}},\"spec\":{\"replicas\":1,\"selector\":{"
          + "\"matchLabels\":{\"app\":\"d\"}},\"strategy\":{\"type\":\"RollingUpdate\","
          + "\"rollingUpdate\":{\"maxSurge\":1}},\"template\":{\"metadata\":{\"labels\":{\"app\":"
          + "\"d\"}},\"spec\":{\"containers\":[{\"name\":\"c\",\"image\":\"nginx\"}]}}}}",
      "secret", "{\"apiVersion\":\"v1\",\"kind\":\"Secret\",\"metadata\":{\"name\":\"s\"},"
          + "\"data\":{\"a\":\"aGk=\"}}",
      "event", "{\"apiVersion\":\"v1\",\"kind\":\"Event\",\"metadata\":{\"name\":\"e\"},"
          + "\"involvedObject\":{\"kind\":\"Pod\",\"name\":\"p\",\"namespace\":\"default\"},"
          + "\"reason\":\"r\",\"message\":\"m\",\"type\":\"Normal\",\"action\":\"a\","
          + "\"reportingComponent\":\"c\",\"reportingInstance\":\"i\","
          + "\"firstTimestamp\":\"2024-01-02T03:04:05+01:00\","
          + "\"eventTime\":\"2024-01-02T03:04:05.123456+01:00\"}",
      "quota", "{\"apiVersion\":\"v1\",\"kind\":\"ResourceQuota\",\"metadata\":{\"name\":"
          + "\"q\"},\"spec\":{\"hard\":{\"cpu\":\"2\",\"memory\":\"1Gi\"}}}",
      "scale", "{\"apiVersion\":\"autoscaling/v1\",\"kind\":\"Scale\",\"metadata\":{\"name\":"
          + "\"d\",\"namespace\":\"default\"},\"spec\":{\"replicas\":2}}");

  record Case(String name, MapValue spec) {
    String get(String key, String otherwise) {
      return spec.getOrNull(key) instanceof StringValue s ? s.value() : otherwise;
    }

    @Override
    public String toString() {
      return name;
    }
  }

  static Stream<Arguments> cases() throws IOException {
    List<Arguments> out = new ArrayList<>();
    try (InputStream in = GoDecodingTest.class.getResourceAsStream("go-decoding.yaml")) {
      ListValue all = (ListValue) Yaml.read(new String(in.readAllBytes(), StandardCharsets.UTF_8));
      for (Value v : all.items()) {
        MapValue m = (MapValue) v;
        Case c = new Case(((StringValue) m.getOrNull("name")).value(), m);
        out.add(Arguments.of(c, false));
        out.add(Arguments.of(c, true));
      }
    }
    return out.stream();
  }

  @ParameterizedTest(name = "{0} (dry run {1})")
  @MethodSource("cases")
  void decodesAsKube(Case c, boolean dryRun) {
    Fixtures f = new Fixtures();
    String verb = c.get("verb", "create");
    String object = c.get("object", "deployment");
    String body = OBJECTS.get(object);
    if (c.spec().getOrNull("edits") instanceof ListValue edits) {
      for (Value e : edits.items()) {
        List<Value> pair = ((ListValue) e).items();
        String from = ((StringValue) pair.get(0)).value();
        assertThat(body).as("template of %s", object).contains(from);
        body = body.replace(from, ((StringValue) pair.get(1)).value());
      }
    }
    GroupVersionResource gvr = switch (object) {
      case "secret" -> SECRETS;
      case "event" -> EVENTS;
      case "quota" -> QUOTAS;
      default -> DEPLOYMENTS;
    };
    if (!verb.equals("create") && !verb.equals("apply")) {
      f.server.handle(req(Verb.CREATE, DEPLOYMENTS, "default", "")
          .rawBody(OBJECTS.get("deployment").getBytes(StandardCharsets.UTF_8), "application/json")
          .build()).orThrow();
    }
    byte[] bytes = body.getBytes(StandardCharsets.UTF_8);
    String patch = c.get("patch", "");
    ApiRequest.Builder r = switch (verb) {
      case "create" -> req(Verb.CREATE, gvr, "default", "").rawBody(bytes,
          c.get("contentType", "application/json"));
      case "update" -> req(Verb.UPDATE, gvr, "default", "d").rawBody(bytes, "application/json");
      case "status", "scale" -> req(Verb.UPDATE, gvr, "default", "d").subresource(verb)
          .rawBody(bytes, "application/json");
      case "merge" -> req(Verb.PATCH, gvr, "default", "d").patch(PatchType.MERGE_PATCH, patch);
      case "json" -> req(Verb.PATCH, gvr, "default", "d").patch(PatchType.JSON_PATCH, patch);
      case "strategic" -> req(Verb.PATCH, gvr, "default", "d")
          .patch(PatchType.STRATEGIC_MERGE_PATCH, patch);
      case "apply" -> req(Verb.PATCH, gvr, "default", "d").fieldManager("m")
          .patch(PatchType.APPLY_YAML, patch);
      default -> throw new IllegalArgumentException(verb);
    };
    ApiResponse response = f.server.handle(r.dryRun(dryRun).build());

    int code = (int) ((io.apiserver4j.core.IntegerValue) c.spec().getOrNull("code")).value();
    assertThat(response.code()).as("%s", response.body()).isEqualTo(code);
    if (code >= 400) {
      String expected = c.get("message", null);
      if (expected != null) {
        assertThat(str(response.body(), "message")).isEqualTo(expected);
      } else {
        assertThat(str(response.body(), "message")).endsWith(c.get("messageEnd", ""));
      }
      String reason = str(response.body(), "reason");
      // a plain Go error reaches the client as a 500 without a reason
      assertThat(reason == null ? "" : reason).isEqualTo(switch (code) {
        case 400 -> "BadRequest";
        case 422 -> "Invalid";
        default -> "";
      });
    }
    if (c.spec().getOrNull("check") instanceof MapValue check) {
      String[] path = ((StringValue) check.getOrNull("path")).value().split("\\.");
      assertThat(Fixtures.at(response.body(), path)).isEqualTo(check.getOrNull("value"));
    }
    // nothing written by a dry run or a rejected request
    ApiResponse stored = f.get(gvr, "default", str(Yaml.read(body), "metadata", "name"));
    if (verb.equals("create") || verb.equals("apply")) {
      assertThat(stored.code()).isEqualTo(dryRun || code >= 400 ? 404 : 200);
    } else if (dryRun || code >= 400) {
      ApiResponse d = f.get(DEPLOYMENTS, "default", "d");
      assertThat(Fixtures.at(d.body(), "spec", "replicas")).isEqualTo(Value.of(1L));
    }
  }
}
