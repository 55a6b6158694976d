/*
 * Copyright The apiserver4j authors.
 * SPDX-License-Identifier: Apache-2.0
 */
package io.apiserver4j.apiserver;

import static io.apiserver4j.apiserver.Fixtures.CONFIGMAPS;
import static io.apiserver4j.apiserver.Fixtures.DEPLOYMENTS;
import static io.apiserver4j.apiserver.Fixtures.at;
import static io.apiserver4j.apiserver.Fixtures.json;
import static io.apiserver4j.apiserver.Fixtures.req;
import static io.apiserver4j.apiserver.Fixtures.str;
import static io.apiserver4j.apiserver.Fixtures.yaml;
import static org.assertj.core.api.Assertions.assertThat;

import io.apiserver4j.apiserver.ApiRequest.Verb;
import io.apiserver4j.apimachinery.patch.PatchType;
import io.apiserver4j.core.MapValue;
import io.apiserver4j.core.errors.StatusException;
import io.apiserver4j.core.Value;
import io.apiserver4j.core.fields.FieldSelector;
import java.nio.charset.StandardCharsets;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.function.Function;
import java.util.stream.Stream;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.Arguments;
import org.junit.jupiter.params.provider.MethodSource;

/**
 * Spec section 6 and the client mistakes of issue 4: every one is a Status with kube's reason
 * and code, and a rejected request leaves storage and watch streams untouched.
 */
class ClientErrorsAndLimitsTest {
  private static final String CM = "{\"apiVersion\":\"v1\",\"kind\":\"ConfigMap\","
      + "\"metadata\":{\"name\":\"cm\"},\"data\":{\"a\":\"1\"}}";

  private static ApiRequest.Builder raw(Verb verb, String name, String body) {
    return req(verb, CONFIGMAPS, "default", name)
        .rawBody(body.getBytes(StandardCharsets.UTF_8), "application/json");
  }

  private static String jsonPatchOps(int n) {
    StringBuilder sb = new StringBuilder("[");
    for (int i = 0; i < n; i++) {
      sb.append(i == 0 ? "" : ",").append("{\"op\":\"test\",\"path\":\"/kind\",\"value\":"
          + "\"ConfigMap\"}");
    }
    return sb.append(']').toString();
  }

  /** A client mistake, its expected code, reason and message (or message start). */
  record Mistake(String name, Function<Fixtures, ApiRequest> request, int code, String reason,
      String message) {
    @Override
    public String toString() {
      return name;
    }
  }

  static Stream<Arguments> mistakes() {
    String big = "{\"apiVersion\":\"v1\",\"kind\":\"ConfigMap\",\"metadata\":{\"name\":\"big\"},"
        + "\"data\":{\"a\":\"" + "x".repeat(3 * 1024 * 1024) + "\"}}";
    return Stream.of(
        new Mistake("malformed JSON body", fx -> raw(Verb.CREATE, "", "{\"kind\":").build(), 400,
            "BadRequest", "the object provided is unrecognized (must be of type ConfigMap):"
                + " couldn't get version/kind; json parse error: "),
        new Mistake("a body that is no object", fx -> raw(Verb.CREATE, "", "[1]").build(), 400,
            "BadRequest", "the object provided is unrecognized (must be of type ConfigMap):"
                + " couldn't get version/kind; json parse error: json: cannot unmarshal array"),
        new Mistake("wrong kind for the endpoint", fx -> raw(Verb.CREATE, "",
            CM.replace("ConfigMap", "Secret")).build(), 400, "BadRequest",
            "Secret in version \"v1\" cannot be handled as a ConfigMap: converting (v1.Secret) to"
                + " (core.ConfigMap): unknown conversion"),
        new Mistake("wrong version for the endpoint", fx -> req(Verb.CREATE, DEPLOYMENTS,
            "default", "").body(yaml(Fixtures.DEPLOYMENT_YAML.replace("apps/v1",
            "apps/v1beta2"))).build(), 400, "BadRequest", "the API version in the data"
            + " (apps/v1beta2) does not match the expected API version (apps/v1)"),
        new Mistake("name mismatch on update", fx -> raw(Verb.UPDATE, "other", CM).build(), 400,
            "BadRequest", "the name of the object (cm) does not match the name on the URL (other)"),
        new Mistake("namespace mismatch", fx -> raw(Verb.CREATE, "",
            CM.replace("\"name\":\"cm\"", "\"name\":\"cm\",\"namespace\":\"other\"")).build(), 400,
            "BadRequest", "the namespace of the provided object does not match the namespace"
                + " sent on the request"),
        new Mistake("unknown field, Strict", fx -> raw(Verb.CREATE, "",
            CM.replace("\"data\"", "\"bogus\":1,\"data\"")).fieldValidation(FieldValidation.STRICT).build(), 400,
            "BadRequest", "ConfigMap in version \"v1\" cannot be handled as a ConfigMap: strict"
                + " decoding error: unknown field \"bogus\""),
        new Mistake("duplicate field, Strict", fx -> raw(Verb.CREATE, "",
            CM.replace("\"data\"", "\"kind\":\"ConfigMap\",\"data\"")).fieldValidation(FieldValidation.STRICT)
            .build(), 400, "BadRequest", "ConfigMap in version \"v1\" cannot be handled as a"
            + " ConfigMap: strict decoding error: duplicate field \"kind\""),
        new Mistake("bad fieldValidation value", fx -> QueryParameters.apply(raw(Verb.CREATE, "", CM),
            Verb.CREATE, Map.of("fieldValidation", List.of("Loose"))).build(), 422, "Invalid", "CreateOptions.meta.k8s.io \"\" is"
            + " invalid: fieldValidation: Unsupported value: \"Loose\": supported values: \"\","
            + " \"Ignore\", \"Strict\", \"Warn\""),
        new Mistake("body over 3 MiB", fx -> raw(Verb.CREATE, "", big).build(), 413,
            "RequestEntityTooLarge", "Request entity too large: limit is 3145728"),
        new Mistake("JSON patch over 10000 operations", fx -> req(Verb.PATCH, CONFIGMAPS,
            "default", "cm").patch(PatchType.JSON_PATCH, jsonPatchOps(10_001)).build(), 413,
            "RequestEntityTooLarge", "Request entity too large: The allowed maximum operations in"
                + " a JSON patch is 10000, got 10001"),
        new Mistake("unknown patch content type", fx -> req(Verb.PATCH, CONFIGMAPS, "default",
            "cm").rawBody("{}".getBytes(StandardCharsets.UTF_8), "application/xml").build(), 415,
            "UnsupportedMediaType", "the body of the request was in an unknown format - accepted"
                + " media types include: application/json-patch+json,"
                + " application/merge-patch+json, application/strategic-merge-patch+json,"
                + " application/apply-patch+yaml"),
        new Mistake("patch body that is no JSON", fx -> req(Verb.PATCH, CONFIGMAPS, "default",
            "cm").patch(PatchType.MERGE_PATCH, "{not json").build(), 400, "BadRequest",
            "invalid JSON patch"),
        new Mistake("failing JSON patch operation", fx -> req(Verb.PATCH, CONFIGMAPS, "default",
            "cm").patch(PatchType.JSON_PATCH, "[{\"op\":\"test\",\"path\":\"/data/a\","
            + "\"value\":\"2\"}]").build(), 422, "Invalid", "the server rejected our request due"
            + " to an error in our request"),
        new Mistake("invalid name", fx -> raw(Verb.CREATE, "",
            CM.replace("\"name\":\"cm\"", "\"name\":\"Bad_Name\"")).build(), 422, "Invalid",
            "ConfigMap \"Bad_Name\" is invalid: metadata.name: Invalid value: \"Bad_Name\": a"
                + " lowercase RFC 1123 subdomain must consist of lower case alphanumeric"
                + " characters, '-' or '.', and must start and end with an alphanumeric character"
                + " (e.g. 'example.com', regex used for validation is"
                + " '[a-z0-9]([-a-z0-9]*[a-z0-9])?(\\.[a-z0-9]([-a-z0-9]*[a-z0-9])?)*')"),
        new Mistake("missing name", fx -> raw(Verb.CREATE, "",
            CM.replace("\"name\":\"cm\"", "\"labels\":{}")).build(), 422, "Invalid",
            "ConfigMap \"\" is invalid: metadata.name: Required value: name or generateName is"
                + " required"),
        new Mistake("invalid dryRun", fx -> QueryParameters.apply(raw(Verb.CREATE, "", CM), Verb.CREATE,
            Map.of("dryRun", List.of("Yes"))).build(), 422,
            "Invalid", "CreateOptions.meta.k8s.io \"\" is invalid: dryRun: Unsupported value:"
                + " [\"Yes\"]: supported values: \"All\""),
        new Mistake("stale resourceVersion", fx -> raw(Verb.UPDATE, "cm",
            CM.replace("\"name\":\"cm\"", "\"name\":\"cm\",\"resourceVersion\":\"1\"")).build(),
            409, "Conflict", "Operation cannot be fulfilled on configmaps \"cm\": the object has"
                + " been modified; please apply your changes to the latest version and try again"),
        new Mistake("unknown subresource", fx -> req(Verb.GET, CONFIGMAPS, "default", "cm")
            .subresource("status").build(), 404, "NotFound",
            "the server could not find the requested resource"),
        new Mistake("bad label selector", fx -> QueryParameters.apply(req(Verb.LIST, CONFIGMAPS,
            "default", ""), Verb.LIST, Map.of("labelSelector", List.of("a in (b"))).build(), 400, "BadRequest", "unable to parse requirement"),
        new Mistake("unsupported field selector", fx -> req(Verb.LIST, CONFIGMAPS, "default", "")
            .fieldSelector(FieldSelector.parse("data.a=1")).build(), 400, "BadRequest",
            "field label not supported: data.a"))
        .map(Arguments::of);
  }

  @ParameterizedTest(name = "{0}")
  @MethodSource("mistakes")
  void everyClientMistakeIsAStatusAndChangesNothing(Mistake m) throws Exception {
    Fixtures f = new Fixtures();
    MapValue before = f.server.handle(raw(Verb.CREATE, "", CM).build()).orThrow();
    ApiWatch watch = f.server.watch(ApiRequest.builder(Verb.WATCH, CONFIGMAPS)
        .namespace("default").resourceVersion(str(before, "metadata", "resourceVersion"))
        .build());

    ApiResponse r;
    try {
      r = f.server.handle(m.request().apply(f));
    } catch (StatusException e) {
      // options that do not parse are refused where the request is built, as by kube's decoder
      r = ApiResponse.of(e.status(), List.of());
    }

    assertThat(r.code()).isEqualTo(m.code());
    assertThat(str(r.body(), "kind")).isEqualTo("Status");
    assertThat(str(r.body(), "status")).isEqualTo("Failure");
    assertThat(str(r.body(), "reason")).isEqualTo(m.reason());
    assertThat(at(r.body(), "code")).isEqualTo(Value.of((long) m.code()));
    assertThat(str(r.body(), "message")).startsWith(m.message());
    MapValue list = f.server.handle(req(Verb.LIST, CONFIGMAPS, "default", "").build()).orThrow();
    assertThat(at(list, "items")).isEqualTo(Value.list(before.without("apiVersion")
        .without("kind")));
    assertThat(watch.poll(Duration.ZERO)).isEmpty();
    watch.close();
  }

  @Test
  void unknownFieldsAreWarnedAboutByDefaultAndDroppedSilentlyWithIgnore() {
    Fixtures f = new Fixtures();
    String body = CM.replace("\"data\"", "\"bogus\":1,\"spec\":{\"x\":1},\"data\"");

    ApiResponse warn = f.server.handle(raw(Verb.CREATE, "", body).build());
    ApiResponse ignore = f.server.handle(raw(Verb.CREATE, "",
        body.replace("\"name\":\"cm\"", "\"name\":\"cm2\"")).fieldValidation(FieldValidation.IGNORE).build());

    assertThat(warn.code()).isEqualTo(201);
    assertThat(warn.warnings()).containsExactly("unknown field \"bogus\"",
        "unknown field \"spec\"");
    assertThat(warn.body().containsKey("bogus")).isFalse();
    assertThat(ignore.code()).isEqualTo(201);
    assertThat(ignore.warnings()).isEmpty();
    assertThat(ignore.body().containsKey("spec")).isFalse();
  }

  @Test
  void unknownFieldsInAPatchResultAreInvalidUnderStrict() {
    Fixtures f = new Fixtures();
    f.server.handle(raw(Verb.CREATE, "", CM).build()).orThrow();

    ApiResponse strict = f.server.handle(req(Verb.PATCH, CONFIGMAPS, "default", "cm")
        .patch(PatchType.MERGE_PATCH, "{\"bogus\":1}").fieldValidation(FieldValidation.STRICT).build());
    ApiResponse warn = f.server.handle(req(Verb.PATCH, CONFIGMAPS, "default", "cm")
        .patch(PatchType.MERGE_PATCH, "{\"bogus\":1}").build());

    assertThat(strict.code()).isEqualTo(422);
    assertThat(str(strict.body(), "message")).startsWith(" \"\" is invalid: patch: Invalid value:")
        .endsWith("strict decoding error: unknown field \"bogus\"");
    assertThat(warn.code()).isEqualTo(200);
    assertThat(warn.warnings()).containsExactly("unknown field \"bogus\"");
  }

  @Test
  void theBodyLimitCanBeLiftedButNotMadeNegative() {
    Fixtures f = new Fixtures(ApiServer.builder().maxRequestBodyBytes(0));
    String big = CM.replace("\"1\"", "\"" + "x".repeat(4 * 1024 * 1024) + "\"");

    ApiResponse r = f.server.handle(raw(Verb.CREATE, "", big).build());

    // past the lifted 3 MiB body limit, the ConfigMap's own 1 MiB data limit answers
    assertThat(r.code()).isEqualTo(422);
    assertThat(str(r.body(), "message")).endsWith("Too long: may not be more than 1048576 bytes");
    org.assertj.core.api.Assertions.assertThatThrownBy(
        () -> ApiServer.builder().maxRequestBodyBytes(-1))
        .isInstanceOf(IllegalArgumentException.class)
        .hasMessageContaining("maxRequestBodyBytes");
  }

  @Test
  void aJsonPatchOfExactly10000OperationsIsAccepted() {
    Fixtures f = new Fixtures();
    f.server.handle(raw(Verb.CREATE, "", CM).build()).orThrow();

    ApiResponse r = f.patch(CONFIGMAPS, "default", "cm", PatchType.JSON_PATCH,
        jsonPatchOps(10_000), "m");

    assertThat(r.code()).isEqualTo(200);
  }

  @Test
  void annotationsAreLimitedTo256KiBInTotal() {
    Fixtures f = new Fixtures();
    MapValue body = yaml("""
        apiVersion: v1
        kind: ConfigMap
        metadata: {name: cm}
        """);
    MapValue tooBig = body.with("metadata", json("{\"name\":\"cm\",\"annotations\":{\"a\":\""
        + "x".repeat(262_144) + "\"}}"));
    MapValue justFits = body.with("metadata", json("{\"name\":\"cm\",\"annotations\":{\"a\":\""
        + "x".repeat(262_143) + "\"}}"));

    ApiResponse r = f.create(CONFIGMAPS, "default", tooBig, "m");

    assertThat(r.code()).isEqualTo(422);
    assertThat(str(r.body(), "message")).isEqualTo("ConfigMap \"cm\" is invalid:"
        + " metadata.annotations: Too long: may not be more than 262144 bytes");
    assertThat(f.create(CONFIGMAPS, "default", justFits, "m").code()).isEqualTo(201);
  }

  @Test
  void generateNameGivesUpAfterEightCollisions() {
    // a random source that always produces the same five characters
    Fixtures f = new Fixtures(ApiServer.builder().random(new java.util.Random() {
      @Override
      public int nextInt(int bound) {
        return 0;
      }
    }));
    MapValue gen = yaml("""
        apiVersion: v1
        kind: ConfigMap
        metadata: {generateName: x-}
        """);
    assertThat(str(f.create(CONFIGMAPS, "default", gen, "m").orThrow(), "metadata", "name"))
        .isEqualTo("x-bbbbb");

    ApiResponse r = f.create(CONFIGMAPS, "default", gen, "m");

    assertThat(r.code()).isEqualTo(409);
    assertThat(r.body()).isEqualTo(json("{\"kind\":\"Status\",\"apiVersion\":\"v1\","
        + "\"metadata\":{},\"status\":\"Failure\",\"message\":\"configmaps \\\"x-bbbbb\\\" already"
        + " exists, the server was not able to generate a unique name for the object\",\"reason\":"
        + "\"AlreadyExists\",\"details\":{\"name\":\"x-bbbbb\",\"kind\":\"configmaps\","
        + "\"retryAfterSeconds\":1},\"code\":409}"));
    List<String> names = new ArrayList<>();
    for (Value v : ((io.apiserver4j.core.ListValue) at(f.server.handle(req(Verb.LIST,
        CONFIGMAPS, "default", "").build()).orThrow(), "items")).items()) {
      names.add(str(v, "metadata", "name"));
    }
    assertThat(names).containsExactly("x-bbbbb");
  }
}
