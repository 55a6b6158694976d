/*
 * Copyright The apiserver4j authors.
 * SPDX-License-Identifier: Apache-2.0
 */
package io.apiserver4j.apiserver;

import static io.apiserver4j.apiserver.Fixtures.CONFIGMAPS;
import static io.apiserver4j.apiserver.Fixtures.DEPLOYMENTS;
import static io.apiserver4j.apiserver.Fixtures.at;
import static io.apiserver4j.apiserver.Fixtures.entry;
import static io.apiserver4j.apiserver.Fixtures.json;
import static io.apiserver4j.apiserver.Fixtures.managedFields;
import static io.apiserver4j.apiserver.Fixtures.req;
import static io.apiserver4j.apiserver.Fixtures.str;
import static io.apiserver4j.apiserver.Fixtures.yaml;
import static org.assertj.core.api.Assertions.assertThat;

import io.apiserver4j.apiserver.ApiRequest.Verb;
import io.apiserver4j.apimachinery.patch.PatchType;
import io.apiserver4j.core.Json;
import io.apiserver4j.core.ListValue;
import io.apiserver4j.core.MapValue;
import io.apiserver4j.core.Value;
import io.apiserver4j.storage.InMemoryStore;
import io.apiserver4j.storage.ObjectKey;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.CsvSource;

/** Spec section 2: Apply vs Update semantics of the managed-fields manager. */
class ApplyAndUpdateSemanticsTest {
  private final Fixtures f = new Fixtures();

  private static final String CM = """
      apiVersion: v1
      kind: ConfigMap
      metadata: {name: cm}
      data: {a: "1"}
      """;

  private static List<String> managers(MapValue obj) {
    List<String> out = new ArrayList<>();
    for (Value e : managedFields(obj).items()) {
      out.add(str(e, "manager") + "/" + str(e, "operation"));
    }
    return out;
  }

  // --- 2.1 fieldManager -----------------------------------------------------------------------

  @Test
  void applyRequiresAFieldManager() {
    ApiResponse r = f.server.handle(req(Verb.PATCH, CONFIGMAPS, "default", "cm")
        .patch(PatchType.APPLY_YAML, CM).build());

    assertThat(r.code()).isEqualTo(422);
    assertThat(r.body()).isEqualTo(json("{\"kind\":\"Status\",\"apiVersion\":\"v1\","
        + "\"metadata\":{},\"status\":\"Failure\",\"message\":\"PatchOptions.meta.k8s.io \\\"\\\""
        + " is invalid: fieldManager: Required value: is required for apply patch\",\"reason\":"
        + "\"Invalid\",\"details\":{\"group\":\"meta.k8s.io\",\"kind\":\"PatchOptions\","
        + "\"causes\":[{\"reason\":\"FieldValueRequired\",\"message\":\"Required value: is"
        + " required for apply patch\",\"field\":\"fieldManager\"}]},\"code\":422}"));
  }

  @ParameterizedTest
  @CsvSource({"CREATE,CreateOptions", "UPDATE,UpdateOptions", "PATCH,PatchOptions"})
  void aFieldManagerLongerThan128BytesIsInvalid(Verb verb, String options) {
    f.create(CONFIGMAPS, "default", yaml(CM), "x").orThrow();
    ApiRequest.Builder b = req(verb, CONFIGMAPS, "default", verb == Verb.CREATE ? "" : "cm")
        .fieldManager("é".repeat(64) + "x");
    if (verb == Verb.PATCH) {
      b.patch(PatchType.MERGE_PATCH, "{}");
    } else {
      b.body(yaml(CM));
    }

    ApiResponse r = f.server.handle(b.build());

    assertThat(r.code()).isEqualTo(422);
    assertThat(str(r.body(), "message")).isEqualTo(options + ".meta.k8s.io \"\" is invalid:"
        + " fieldManager: Too long: may not be more than 128 bytes");
    assertThat(at(r.body(), "details", "causes")).isEqualTo(json("[{\"reason\":"
        + "\"FieldValueTooLong\",\"message\":\"Too long: may not be more than 128 bytes\","
        + "\"field\":\"fieldManager\"}]"));
  }

  @Test
  void everyNonPrintableCharacterOfTheFieldManagerIsACause() {
    ApiResponse r = f.server.handle(req(Verb.CREATE, CONFIGMAPS, "default", "")
        .body(yaml(CM)).fieldManager("a\u0007b\tc").build());

    assertThat(r.code()).isEqualTo(422);
    ListValue causes = (ListValue) at(r.body(), "details", "causes");
    assertThat(causes.size()).isEqualTo(2);
    assertThat(str(causes.get(0), "message")).endsWith("invalid character U+0007 (at position 1)");
    assertThat(str(causes.get(1), "message")).endsWith("invalid character U+0009 (at position 3)");
    assertThat(str(r.body(), "message")).startsWith("CreateOptions.meta.k8s.io \"\" is invalid: [");
  }

  // --- 2.2 force -------------------------------------------------------------------------------

  @Test
  void forceIsOnlyForApply() {
    f.create(CONFIGMAPS, "default", yaml(CM), "x").orThrow();

    ApiResponse r = f.server.handle(req(Verb.PATCH, CONFIGMAPS, "default", "cm").force(false)
        .patch(PatchType.MERGE_PATCH, "{}").build());

    assertThat(r.code()).isEqualTo(422);
    assertThat(str(r.body(), "message")).isEqualTo("PatchOptions.meta.k8s.io \"\" is invalid:"
        + " force: Forbidden: may not be specified for non-apply patch");
    assertThat(str(((ListValue) at(r.body(), "details", "causes")).get(0), "reason"))
        .isEqualTo("FieldValueForbidden");
  }

  // --- 2.3 default manager ---------------------------------------------------------------------

  @ParameterizedTest
  @CsvSource(value = {
      "Mozilla/5.0 (X11; Linux x86_64)|Mozilla",
      "kubectl/v1.30.0 (linux/amd64) kubernetes/abc|kubectl",
      "/leading-slash|unknown",
      "|unknown"}, delimiter = '|')
  void theManagerOfAnUpdateDefaultsToTheUserAgentPrefix(String ua, String manager) {
    ApiResponse r = f.server.handle(req(Verb.CREATE, CONFIGMAPS, "default", "")
        .body(yaml(CM)).userAgent(ua == null ? "" : ua).build());

    assertThat(str(entry(r.orThrow(), 0), "manager")).isEqualTo(manager);
  }

  @Test
  void userAgentPrefixesAreCutAt128BytesOnWholeCharacters() {
    MapValue a = f.server.handle(req(Verb.CREATE, CONFIGMAPS, "default", "")
        .body(yaml(CM)).userAgent("f".repeat(129) + "/Something").build()).orThrow();
    MapValue b = f.server.handle(req(Verb.CREATE, CONFIGMAPS, "default", "")
        .body(yaml(CM.replace("name: cm", "name: cm2"))).userAgent("🍔".repeat(60)).build())
        .orThrow();
    MapValue c = f.server.handle(req(Verb.CREATE, CONFIGMAPS, "default", "")
        .body(yaml(CM.replace("name: cm", "name: cm3"))).userAgent("a\u0000b\u0001c/x").build())
        .orThrow();

    assertThat(str(entry(a, 0), "manager")).isEqualTo("f".repeat(128));
    assertThat(str(entry(b, 0), "manager")).isEqualTo("🍔".repeat(32));
    assertThat(str(entry(c, 0), "manager")).isEqualTo("abc");
  }

  // --- 2.4 apply creating ----------------------------------------------------------------------

  @Test
  void applyCreatesWith201AndUpdatesWith200() {
    ApiResponse created = f.apply(CONFIGMAPS, "default", "cm", "a", CM);
    ApiResponse updated = f.apply(CONFIGMAPS, "default", "cm", "a", CM.replace("\"1\"", "\"2\""));

    assertThat(created.code()).isEqualTo(201);
    assertThat(str(created.body(), "metadata", "uid")).isEqualTo("uid-1");
    assertThat(str(created.body(), "metadata", "creationTimestamp"))
        .isEqualTo("2024-01-02T03:04:05Z");
    assertThat(managers(created.body())).containsExactly("a/Apply");
    assertThat(updated.code()).isEqualTo(200);
  }

  @Test
  void applyRefusesAUidForAMissingObject() {
    ApiResponse r = f.apply(CONFIGMAPS, "default", "cm", "a", """
        apiVersion: v1
        kind: ConfigMap
        metadata: {name: cm, uid: abc}
        """);

    assertThat(r.code()).isEqualTo(409);
    assertThat(r.body()).isEqualTo(json("{\"kind\":\"Status\",\"apiVersion\":\"v1\","
        + "\"metadata\":{},\"status\":\"Failure\",\"message\":\"Operation cannot be fulfilled on"
        + " configmaps \\\"cm\\\": uid mismatch: the provided object specified uid abc, and no"
        + " existing object was found\",\"reason\":\"Conflict\",\"details\":{\"name\":\"cm\","
        + "\"kind\":\"configmaps\"},\"code\":409}"));
  }

  @Test
  void creatingThroughApplyNeedsCreatePermission() {
    Fixtures g = new Fixtures(ApiServer.builder().createAuthorizer(
        (user, resource, sub, ns, name) -> user.name().equals("admin") ? java.util.Optional.empty()
            : java.util.Optional.of("")));
    ApiRequest.Builder apply = req(Verb.PATCH, CONFIGMAPS, "default", "cm").fieldManager("a")
        .patch(PatchType.APPLY_YAML, CM);

    ApiResponse denied = g.server.handle(apply.user(io.apiserver4j.admission.UserInfo.of("jane"))
        .build());
    ApiResponse created = g.server.handle(apply.user(io.apiserver4j.admission.UserInfo.of("admin"))
        .build());
    ApiResponse updated = g.server.handle(apply.user(io.apiserver4j.admission.UserInfo.of("jane"))
        .patch(PatchType.APPLY_YAML, CM.replace("\"1\"", "\"2\"")).build());

    assertThat(denied.code()).isEqualTo(403);
    assertThat(str(denied.body(), "message")).isEqualTo("configmaps \"cm\" is forbidden: User"
        + " \"jane\" cannot create resource \"configmaps\" in API group \"\" in the namespace"
        + " \"default\"");
    assertThat(created.code()).isEqualTo(201);
    assertThat(updated.code()).isEqualTo(200);
  }

  @Test
  void otherPatchTypesDoNotCreate() {
    ApiResponse r = f.patch(CONFIGMAPS, "default", "cm", PatchType.MERGE_PATCH, "{}", "a");

    assertThat(r.code()).isEqualTo(404);
    assertThat(str(r.body(), "message")).isEqualTo("configmaps \"cm\" not found");
  }

  // --- 2.5 apply body ----------------------------------------------------------------------------

  @Test
  void theApplyBodyMustBeOfTheEndpointsKind() {
    ApiResponse wrongKind = f.apply(CONFIGMAPS, "default", "cm", "a", """
        apiVersion: v1
        kind: Secret
        metadata: {name: cm}
        """);
    ApiResponse noKind = f.apply(CONFIGMAPS, "default", "cm", "a", "metadata: {name: cm}");

    assertThat(wrongKind.code()).isEqualTo(400);
    assertThat(str(wrongKind.body(), "message")).isEqualTo("invalid object type: /v1, Kind=Secret");
    assertThat(str(noKind.body(), "message")).isEqualTo("invalid object type: /, Kind=");
  }

  @Test
  void managedFieldsInAnApplyBodyAreRejectedEvenWhenEmpty() {
    ApiResponse r = f.apply(CONFIGMAPS, "default", "cm", "a", CM.replace("metadata: {name: cm}",
        "metadata: {name: cm, managedFields: []}"));

    assertThat(r.code()).isEqualTo(400);
    assertThat(str(r.body(), "message")).isEqualTo("metadata.managedFields must be nil");
    assertThat(f.apply(CONFIGMAPS, "default", "cm", "a", CM.replace("metadata: {name: cm}",
        "metadata: {name: cm, managedFields: null}")).code()).isEqualTo(201);
  }

  @Test
  void anApplyBodyThatDoesNotFitTheSchemaIsAPlainServerError() {
    ApiResponse r = f.apply(CONFIGMAPS, "default", "cm", "a", CM + "bogus: 1\n");

    assertThat(r.code()).isEqualTo(500);
    assertThat(at(r.body(), "reason")).isNull();
    assertThat(str(r.body(), "message")).startsWith("failed to create typed patch object"
        + " (/cm; /v1, Kind=ConfigMap): ").contains(".bogus");
  }

  @Test
  void duplicateListKeysAreRejectedInAnApplyBody() {
    ApiResponse r = f.apply(DEPLOYMENTS, "default", "d", "a", Fixtures.DEPLOYMENT_YAML
        + "      - {name: c, image: other}\n");

    assertThat(r.code()).isEqualTo(500);
    assertThat(str(r.body(), "message")).contains("duplicate");
  }

  @Test
  void malformedApplyYamlIsABadRequest() {
    ApiResponse r = f.apply(CONFIGMAPS, "default", "cm", "a", "kind: [unclosed");
    ApiResponse list = f.apply(CONFIGMAPS, "default", "cm", "a", "[1, 2]");
    ApiResponse bool = f.apply(CONFIGMAPS, "default", "cm", "a", "true");

    assertThat(r.code()).isEqualTo(400);
    assertThat(str(r.body(), "message")).startsWith("error encoding patch: error converting YAML"
        + " to JSON: ");
    assertThat(list.code()).isEqualTo(400);
    assertThat(str(list.body(), "message")).isEqualTo("error decoding patch: json: cannot"
        + " unmarshal array into Go value of type map[string]interface {}");
    // encoding/json's UnmarshalTypeError names a JSON boolean "bool"
    assertThat(str(bool.body(), "message")).isEqualTo("error decoding patch: json: cannot"
        + " unmarshal bool into Go value of type map[string]interface {}");
  }

  // --- 2.7 conflicts ---------------------------------------------------------------------------

  @Test
  void conflictsWithSeveralManagersAreGroupedByManagerIdentity() {
    f.apply(CONFIGMAPS, "default", "cm", "foo", """
        apiVersion: v1
        kind: ConfigMap
        metadata: {name: cm, labels: {app: x}}
        """).orThrow();
    f.patch(CONFIGMAPS, "default", "cm", PatchType.MERGE_PATCH, "{\"data\":{\"a\":\"1\","
        + "\"b\":\"1\"}}", "bar").orThrow();

    ApiResponse r = f.apply(CONFIGMAPS, "default", "cm", "baz", """
        apiVersion: v1
        kind: ConfigMap
        metadata: {name: cm, labels: {app: z}}
        data: {a: "2", b: "2"}
        """);

    assertThat(r.code()).as(Json.write(r.body())).isEqualTo(409);
    // managers sorted by their identity JSON: {"manager":"bar",...} before {"manager":"foo",...}
    assertThat(str(r.body(), "message")).isEqualTo("Apply failed with 3 conflicts: conflicts with"
        + " \"bar\" using v1:\n- .data.a\n- .data.b\nconflicts with \"foo\":\n-"
        + " .metadata.labels.app");
    assertThat(((ListValue) at(r.body(), "details", "causes")).size()).isEqualTo(3);
    assertThat(((MapValue) at(r.body(), "details")).containsKey("name")).isFalse();
  }

  @Test
  void subresourceManagersArePrintedWithTheirSubresource() {
    f.apply(DEPLOYMENTS, "default", "d", "kubectl", Fixtures.DEPLOYMENT_YAML).orThrow();
    f.server.handle(req(Verb.PATCH, DEPLOYMENTS, "default", "d").subresource("scale")
        .fieldManager("hpa").patch(PatchType.MERGE_PATCH, "{\"spec\":{\"replicas\":3}}").build())
        .orThrow();

    ApiResponse r = f.apply(DEPLOYMENTS, "default", "d", "kubectl",
        Fixtures.DEPLOYMENT_YAML.replace("replicas: 1", "replicas: 2"));

    assertThat(str(r.body(), "message")).isEqualTo("Apply failed with 1 conflict: conflict with"
        + " \"hpa\" with subresource \"scale\" using apps/v1: .spec.replicas");
  }

  // --- 2.8 initial ownership -------------------------------------------------------------------

  @Test
  void updatesOfAnObjectWithoutManagedFieldsAreNotTrackedButApplyStartsBeforeFirstApply() {
    f.create(CONFIGMAPS, "default", yaml("""
        apiVersion: v1
        kind: ConfigMap
        metadata: {name: cm, labels: {app: old}}
        """), "creator").orThrow();
    f.patch(CONFIGMAPS, "default", "cm", PatchType.MERGE_PATCH,
        "{\"metadata\":{\"managedFields\":[{}]}}", "cleaner").orThrow();
    MapValue untracked = f.patch(CONFIGMAPS, "default", "cm", PatchType.MERGE_PATCH,
        "{\"data\":{\"x\":\"1\"}}", "someone").orThrow();
    assertThat(managedFields(untracked).size()).isZero();

    ApiResponse conflict = f.apply(CONFIGMAPS, "default", "cm", "applier", """
        apiVersion: v1
        kind: ConfigMap
        metadata: {name: cm, labels: {app: new}}
        """);
    assertThat(str(conflict.body(), "message")).isEqualTo("Apply failed with 1 conflict: conflict"
        + " with \"before-first-apply\" using v1: .metadata.labels.app");

    f.clock.advance(Duration.ofSeconds(2));
    MapValue forced = f.forceApply(CONFIGMAPS, "default", "cm", "applier", """
        apiVersion: v1
        kind: ConfigMap
        metadata: {name: cm, labels: {app: new}}
        """).orThrow();
    assertThat(managers(forced)).containsExactly("applier/Apply", "before-first-apply/Update");
    // before-first-apply keeps the labels map itself (a leaf now) and what nobody applied
    assertThat(at(entry(forced, 1), "fieldsV1")).isEqualTo(json("{\"f:data\":{\".\":{},"
        + "\"f:x\":{}},\"f:metadata\":{\"f:labels\":{}}}"));
    assertThat(str(entry(forced, 1), "time")).isEqualTo("2024-01-02T03:04:07Z");
  }

  // --- 2.9 incoming and live managedFields ----------------------------------------------------

  @Test
  void invalidManagedFieldsInARequestAreIgnored() {
    MapValue obj = f.create(CONFIGMAPS, "default", yaml(CM), "creator").orThrow();
    MapValue body = obj.with("metadata", ((MapValue) obj.getOrNull("metadata"))
        .with("managedFields", json("[{\"manager\":\"x\",\"operation\":\"Bogus\"}]")));

    ApiResponse r = f.update(CONFIGMAPS, "default", "cm", body, "creator");

    assertThat(r.code()).isEqualTo(200);
    assertThat(managers(r.body())).containsExactly("creator/Update");
    assertThat(r.warnings()).isEmpty();
  }

  @Test
  void undecodableLiveManagedFieldsAreClearedByUpdatesAndFailApplies() {
    InMemoryStore store = InMemoryStore.create();
    Fixtures g = new Fixtures(ApiServer.builder().store(store));
    g.create(CONFIGMAPS, "default", yaml(CM), "creator").orThrow();
    ObjectKey key = new ObjectKey("", "configmaps", "default", "cm");
    MapValue stored = store.get(key).orElseThrow().object();
    MapValue broken = stored.with("metadata", ((MapValue) stored.getOrNull("metadata"))
        .without("resourceVersion").with("managedFields", json("[{\"manager\":\"x\","
            + "\"operation\":\"Update\",\"apiVersion\":\"v1\",\"fieldsType\":\"FieldsV2\"}]")));
    store.update(key, broken, store.get(key).orElseThrow().resourceVersion());

    ApiResponse apply = g.apply(CONFIGMAPS, "default", "cm", "a", CM);
    MapValue updated = g.patch(CONFIGMAPS, "default", "cm", PatchType.MERGE_PATCH,
        "{\"data\":{\"a\":\"2\"}}", "m").orThrow();

    assertThat(apply.code()).isEqualTo(500);
    assertThat(str(apply.body(), "message")).isEqualTo("failed to decode managed fields: invalid"
        + " fieldsType \"FieldsV2\" in managed fields entry 0");
    assertThat(managedFields(updated).size()).isZero();
  }

  @Test
  void subresourceWritesIgnoreManagedFieldsInTheRequest() {
    MapValue d = f.apply(DEPLOYMENTS, "default", "d", "kubectl", Fixtures.DEPLOYMENT_YAML)
        .orThrow();
    MapValue body = d.with("metadata", ((MapValue) d.getOrNull("metadata"))
        .with("managedFields", json("[{}]")))
        .with("status", json("{\"replicas\":1}"));

    MapValue out = f.server.handle(req(Verb.UPDATE, DEPLOYMENTS, "default", "d")
        .subresource("status").body(body).fieldManager("controller").build()).orThrow();

    assertThat(managers(out)).containsExactly("kubectl/Apply", "controller/Update");
  }

  // --- 2.10 capping ----------------------------------------------------------------------------

  @Test
  void moreThanTenUpdateManagersAreMergedIntoAncientChanges() {
    f.apply(CONFIGMAPS, "default", "cm", "applier", CM).orThrow();
    for (int i = 0; i < 11; i++) {
      f.clock.advance(Duration.ofSeconds(1));
      f.patch(CONFIGMAPS, "default", "cm", PatchType.MERGE_PATCH,
          "{\"data\":{\"k" + i + "\":\"v\"}}", "m" + i).orThrow();
    }

    MapValue obj = f.get(CONFIGMAPS, "default", "cm").orThrow();

    List<String> managers = managers(obj);
    assertThat(managers).hasSize(11);
    assertThat(managers.get(0)).isEqualTo("applier/Apply");
    assertThat(managers.subList(1, 11)).containsExactly("ancient-changes/Update", "m2/Update",
        "m3/Update", "m4/Update", "m5/Update", "m6/Update", "m7/Update", "m8/Update", "m9/Update",
        "m10/Update");
    assertThat(at(entry(obj, 1), "fieldsV1")).isEqualTo(json(
        "{\"f:data\":{\"f:k0\":{},\"f:k1\":{}}}"));
    assertThat(str(entry(obj, 1), "time")).isEqualTo("2024-01-02T03:04:07Z");
  }

  // --- 2.11 reset fields -----------------------------------------------------------------------

  @Test
  void statusAppliedToTheMainResourceIsNeitherOwnedNorStored() {
    MapValue obj = f.apply(DEPLOYMENTS, "default", "d", "kubectl",
        Fixtures.DEPLOYMENT_YAML + "status: {replicas: 5}\n").orThrow();

    assertThat(at(obj, "status")).isEqualTo(json("{}"));
    assertThat(Json.write(at(entry(obj, 0), "fieldsV1"))).doesNotContain("f:status");
  }

  @Test
  void specSentToTheStatusEndpointIsNeitherOwnedNorStored() {
    f.apply(DEPLOYMENTS, "default", "d", "kubectl", Fixtures.DEPLOYMENT_YAML).orThrow();

    MapValue obj = f.server.handle(req(Verb.PATCH, DEPLOYMENTS, "default", "d")
        .subresource("status").fieldManager("ctrl").patch(PatchType.APPLY_YAML, """
            apiVersion: apps/v1
            kind: Deployment
            metadata: {name: d, labels: {extra: x}}
            spec: {replicas: 9}
            status: {replicas: 1}
            """).build()).orThrow();

    assertThat(at(obj, "spec", "replicas")).isEqualTo(Value.of(1L));
    assertThat(at(obj, "status", "replicas")).isEqualTo(Value.of(1L));
    assertThat(at(obj, "metadata", "labels")).isEqualTo(json("{\"app\":\"d\"}"));
    assertThat(managers(obj)).containsExactly("ctrl/Apply", "kubectl/Apply");
    assertThat(at(entry(obj, 0), "fieldsV1")).isEqualTo(json("{\"f:status\":{\"f:replicas\":{}}}"));
    assertThat(str(entry(obj, 0), "subresource")).isEqualTo("status");
  }

  // --- 2.12 last-applied ---------------------------------------------------------------------

  @Test
  void aLastAppliedAnnotationThatWouldBeTooLargeIsDropped() {
    String big = "x".repeat(200_000);
    MapValue created = yaml(CM).with("metadata", json("{\"name\":\"cm\",\"annotations\":{"
        + "\"kubectl.kubernetes.io/last-applied-configuration\":\"{}\"}}"));
    f.create(CONFIGMAPS, "default", created, "kubectl-client-side-apply").orThrow();

    MapValue obj = f.apply(CONFIGMAPS, "default", "cm", "kubectl", """
        apiVersion: v1
        kind: ConfigMap
        metadata: {name: cm, annotations: {big: %s}}
        """.formatted(big)).orThrow();

    assertThat(at(obj, "metadata", "annotations", "big")).isEqualTo(Value.of(big));
    assertThat(at(obj, "metadata", "annotations",
        "kubectl.kubernetes.io/last-applied-configuration")).isNull();
  }

  @Test
  void otherManagersNeverWriteTheAnnotation() {
    MapValue created = yaml(CM).with("metadata", json("{\"name\":\"cm\",\"annotations\":{"
        + "\"kubectl.kubernetes.io/last-applied-configuration\":\"{}\"}}"));
    f.create(CONFIGMAPS, "default", created, "kubectl-client-side-apply").orThrow();

    MapValue obj = f.apply(CONFIGMAPS, "default", "cm", "my-tool", CM).orThrow();

    assertThat(at(obj, "metadata", "annotations",
        "kubectl.kubernetes.io/last-applied-configuration")).isEqualTo(Value.of("{}"));
  }

  // --- 2.13 no-op ------------------------------------------------------------------------------

  @Test
  void aPutOfTheSameObjectKeepsTheResourceVersion() {
    MapValue obj = f.create(CONFIGMAPS, "default", yaml(CM), "m").orThrow();

    MapValue again = f.update(CONFIGMAPS, "default", "cm", obj, "m").orThrow();

    assertThat(again).isEqualTo(obj);
  }

  @Test
  void listKeysAnItemOmitsTakeTheSchemasDefault() {
    String config = """
        apiVersion: apps/v1
        kind: Deployment
        metadata: {name: d, labels: {app: d}}
        spec:
          selector: {matchLabels: {app: d}}
          template:
            metadata: {labels: {app: d}}
            spec:
              containers:
              - name: c
                image: nginx
                ports:
                - containerPort: 80
        """;
    MapValue first = f.apply(DEPLOYMENTS, "default", "d", "kubectl", config).orThrow();

    MapValue again = f.apply(DEPLOYMENTS, "default", "d", "kubectl", config).orThrow();

    // protocol is defaulted to TCP, and the applied item {containerPort: 80} is keyed as
    // (80, TCP): the same item, not a new one
    assertThat(again).isEqualTo(first);
    assertThat(Json.write(at(entry(first, 0), "fieldsV1")))
        .contains("k:{\\\"containerPort\\\":80,\\\"protocol\\\":\\\"TCP\\\"}");
  }

  // --- 2.14 other metadata ---------------------------------------------------------------------

  @Test
  void clientsCannotSetGenerationCreationTimestampOrUid() {
    MapValue obj = f.apply(DEPLOYMENTS, "default", "d", "kubectl", Fixtures.DEPLOYMENT_YAML)
        .orThrow();
    f.clock.advance(Duration.ofMinutes(1));
    MapValue meta = ((MapValue) obj.getOrNull("metadata"))
        .with("generation", Value.of(42L))
        .with("creationTimestamp", Value.of("2000-01-01T00:00:00Z"));

    MapValue out = f.update(DEPLOYMENTS, "default", "d", obj.with("metadata", meta), "x")
        .orThrow();

    assertThat(at(out, "metadata", "generation")).isEqualTo(Value.of(1L));
    assertThat(at(out, "metadata", "creationTimestamp"))
        .isEqualTo(Value.of("2024-01-02T03:04:05Z"));
  }

  @Test
  void generationMovesOnlyWithTheSpec() {
    f.apply(DEPLOYMENTS, "default", "d", "kubectl", Fixtures.DEPLOYMENT_YAML).orThrow();
    MapValue labels = f.patch(DEPLOYMENTS, "default", "d", PatchType.MERGE_PATCH,
        "{\"metadata\":{\"labels\":{\"x\":\"y\"}}}", "m").orThrow();
    MapValue spec = f.patch(DEPLOYMENTS, "default", "d", PatchType.MERGE_PATCH,
        "{\"spec\":{\"replicas\":4}}", "m").orThrow();
    MapValue status = f.server.handle(req(Verb.PATCH, DEPLOYMENTS, "default", "d")
        .subresource("status").patch(PatchType.MERGE_PATCH, "{\"status\":{\"replicas\":4}}")
        .fieldManager("c").build()).orThrow();

    assertThat(at(labels, "metadata", "generation")).isEqualTo(Value.of(1L));
    assertThat(at(spec, "metadata", "generation")).isEqualTo(Value.of(2L));
    assertThat(at(status, "metadata", "generation")).isEqualTo(Value.of(2L));
  }

  @Test
  void generateNameAddsFiveCharactersToAPrefixOfAtMost58() {
    MapValue a = f.create(CONFIGMAPS, "default", yaml("""
        apiVersion: v1
        kind: ConfigMap
        metadata: {generateName: web-}
        """), "m").orThrow();
    MapValue b = f.create(CONFIGMAPS, "default", yaml("""
        apiVersion: v1
        kind: ConfigMap
        metadata: {generateName: %s}
        """.formatted("p".repeat(70))), "m").orThrow();

    assertThat(str(a, "metadata", "name")).matches("web-[bcdfghjklmnpqrstvwxz2456789]{5}");
    assertThat(str(b, "metadata", "name")).hasSize(63).startsWith("p".repeat(58));
  }

  @Test
  void duplicateOwnerReferencesAreDroppedWithAWarning() {
    MapValue body = yaml("""
        apiVersion: v1
        kind: ConfigMap
        metadata:
          name: cm
          ownerReferences:
          - {apiVersion: v1, kind: Pod, name: p, uid: u1}
          - {apiVersion: v1, kind: Pod, name: p, uid: u1}
        """);

    ApiResponse r = f.create(CONFIGMAPS, "default", body, "m");

    assertThat(((ListValue) at(r.body(), "metadata", "ownerReferences")).size()).isEqualTo(1);
    assertThat(r.warnings()).containsExactly(".metadata.ownerReferences contains duplicate"
        + " entries; API server dedups owner references in 1.20+, and may reject such requests"
        + " as early as 1.24; please fix your requests; duplicate UID(s) observed: u1");
  }
}
