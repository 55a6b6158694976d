/*
 * Copyright The apiserver4j authors.
 * SPDX-License-Identifier: Apache-2.0
 */
package io.apiserver4j.http;

import static io.apiserver4j.http.WebhookServer.allow;
import static io.apiserver4j.http.WebhookServer.patch;
import static io.apiserver4j.http.WebhookServer.request;
import static io.apiserver4j.http.WebhookServer.respond;
import static org.assertj.core.api.Assertions.assertThat;

import io.apiserver4j.apiserver.ApiRequest;
import io.apiserver4j.apiserver.ApiResponse;
import io.apiserver4j.apiserver.ApiServer;
import io.apiserver4j.apiserver.ResourceClient;
import io.apiserver4j.core.GroupVersionResource;
import io.apiserver4j.core.Json;
import io.apiserver4j.core.MapValue;
import io.apiserver4j.core.Meta;
import io.apiserver4j.core.Nested;
import io.apiserver4j.core.errors.Status;
import io.apiserver4j.core.Value;
import io.apiserver4j.core.Yaml;
import java.nio.file.Path;
import java.util.List;
import java.util.concurrent.CountDownLatch;
import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * Admission webhooks configured by Validating/MutatingWebhookConfigurations, called over HTTPS
 * by the server: real webhook servers (JDK HttpsServer with a generated CA), the server in
 * process and through kubectl. Expected texts are kube-apiserver's.
 */
class AdmissionWebhookTest {
  private static final GroupVersionResource CONFIGMAPS =
      new GroupVersionResource("", "v1", "configmaps");
  private static final String AR = "admissionregistration.k8s.io/v1";

  @TempDir
  static Path dir;
  static WebhookServer webhooks;
  static ApiServer api;
  static HttpApiServer http;
  static Kubectl kubectl;
  private final CountDownLatch release = new CountDownLatch(1);

  @BeforeAll
  static void start() throws Exception {
    webhooks = new WebhookServer(TestCertificates.create(
        java.nio.file.Files.createDirectories(dir.resolve("pki"))));
    // about webhook calls: no controller writes (kube-root-ca.crt, ServiceAccounts) reach them
    api = ApiServer.builder().disableAdmissionPlugins("ServiceAccount").build();
    http = HttpApiServer.builder(api).build();
    http.start();
    kubectl = new Kubectl(dir, http.kubeconfig().build());
  }

  @AfterAll
  static void stop() {
    http.close();
    api.close();
    webhooks.close();
  }

  @AfterEach
  void cleanUp() {
    release.countDown();
    for (String r : List.of("validatingwebhookconfigurations", "mutatingwebhookconfigurations")) {
      ResourceClient c = api.resources(AR, r);
      c.list().forEach(o -> c.delete(Meta.metaString(o, "name")));
    }
    webhooks.reset();
  }

  private static String namespace(String name) {
    api.resources("v1", "namespaces").create(Json.read(
        "{\"apiVersion\":\"v1\",\"kind\":\"Namespace\",\"metadata\":{\"name\":\"" + name
            + "\",\"labels\":{\"team\":\"" + name + "\"}}}"));
    return name;
  }

  private static MapValue configMap(String ns, String name, String labels) {
    return (MapValue) Json.read("{\"apiVersion\":\"v1\",\"kind\":\"ConfigMap\",\"metadata\":"
        + "{\"name\":\"" + name + "\",\"namespace\":\"" + ns + "\",\"labels\":" + labels
        + "},\"data\":{\"a\":\"1\"}}");
  }

  private static ApiResponse create(String ns, MapValue object, boolean dryRun) {
    return api.handle(ApiRequest.builder(ApiRequest.Verb.CREATE, CONFIGMAPS).namespace(ns)
        .body(object).dryRun(dryRun).fieldManager("test").build());
  }

  private static String message(ApiResponse r) {
    return r.failure().map(Status::message).orElse("(succeeded)");
  }

  /** A webhook configuration for configmap writes, with extra webhook fields. */
  private static MapValue config(String kind, String name, String path, String extra) {
    String webhook = "{\"name\":\"" + name + "\",\"clientConfig\":{\"url\":\""
        + webhooks.url(path) + "\",\"caBundle\":\"" + webhooks.caBundle() + "\"},"
        + "\"rules\":[{\"operations\":[\"CREATE\",\"UPDATE\"],\"apiGroups\":[\"\"],"
        + "\"apiVersions\":[\"v1\"],\"resources\":[\"configmaps\"]}],"
        + "\"sideEffects\":\"None\",\"admissionReviewVersions\":[\"v1\"]" + extra + "}";
    return (MapValue) Json.read("{\"apiVersion\":\"" + AR + "\",\"kind\":\"" + kind
        + "\",\"metadata\":{\"name\":\"" + name + "\"},\"webhooks\":[" + webhook + "]}");
  }

  private static void validating(String name, String path, String extra) {
    api.resources(AR, "validatingwebhookconfigurations")
        .create(config("ValidatingWebhookConfiguration", name, path, extra));
  }

  private static void mutating(String name, String path, String extra) {
    api.resources(AR, "mutatingwebhookconfigurations")
        .create(config("MutatingWebhookConfiguration", name, path, extra));
  }

  @Test
  void anAllowingWebhookSeesKubesAdmissionReview() {
    String ns = namespace("allowed");
    webhooks.handle("/allow", WebhookServer::allow);
    validating("allow.example.com", "/allow", "");

    ApiResponse r = create(ns, configMap(ns, "cm", "{}"), false);
    assertThat(r.isSuccess()).as(message(r)).isTrue();
    List<MapValue> seen = webhooks.received("/allow");
    assertThat(seen).hasSize(1);
    assertThat(Nested.str(seen.get(0), "apiVersion")).isEqualTo("admission.k8s.io/v1");
    MapValue req = request(seen.get(0));
    assertThat(Json.write(req.getOrNull("kind")))
        .isEqualTo("{\"group\":\"\",\"version\":\"v1\",\"kind\":\"ConfigMap\"}");
    assertThat(Json.write(req.getOrNull("resource")))
        .isEqualTo("{\"group\":\"\",\"version\":\"v1\",\"resource\":\"configmaps\"}");
    assertThat(Nested.str(req, "operation")).isEqualTo("CREATE");
    assertThat(Nested.str(req, "namespace")).isEqualTo(ns);
    assertThat(Nested.str(req, "name")).isEqualTo("cm");
    assertThat(Nested.bool(req, "dryRun")).isFalse();
    assertThat(Nested.str(req, "options", "kind")).isEqualTo("CreateOptions");
    assertThat(Nested.str(req, "object", "data", "a")).isEqualTo("1");
  }

  @Test
  void aDenialCarriesTheWebhooksMessageAndStatus() {
    String ns = namespace("denied");
    webhooks.handle("/deny", review -> respond(review, "{\"allowed\":false,\"status\":"
        + "{\"code\":403,\"reason\":\"Forbidden\",\"message\":\"no thanks\"}}"));
    validating("deny.example.com", "/deny", "");

    ApiResponse r = create(ns, configMap(ns, "cm", "{}"), false);
    assertThat(r.code()).isEqualTo(403);
    assertThat(message(r))
        .isEqualTo("admission webhook \"deny.example.com\" denied the request: no thanks");
    assertThat(api.resources("v1", "configmaps").namespace(ns).find("cm")).isEmpty();

    // no status at all: 400 and kube's "without explanation"
    webhooks.handle("/deny", review -> respond(review, "{\"allowed\":false}"));
    ApiResponse bare = create(ns, configMap(ns, "cm", "{}"), false);
    assertThat(bare.code()).isEqualTo(400);
    assertThat(message(bare))
        .isEqualTo("admission webhook \"deny.example.com\" denied the request without"
            + " explanation");
  }

  @Test
  void aMutatingPatchIsAppliedAndOwnedByNoManager() {
    String ns = namespace("mutated");
    webhooks.handle("/mutate", review -> patch(review,
        "[{\"op\":\"add\",\"path\":\"/data/injected\",\"value\":\"yes\"}]"));
    mutating("inject.example.com", "/mutate", "");

    ApiResponse r = create(ns, configMap(ns, "cm", "{}"), false);
    assertThat(r.isSuccess()).as(message(r)).isTrue();
    MapValue stored = api.resources("v1", "configmaps").namespace(ns).get("cm");
    assertThat(Nested.str(stored, "data", "injected")).isEqualTo("yes");
    List<Value> managed = Nested.list(stored, "metadata", "managedFields");
    assertThat(managed).hasSize(1);
    assertThat(Json.write(Nested.getOrNull(managed.get(0), "fieldsV1")))
        .contains("\"f:a\"").doesNotContain("injected");
  }

  @Test
  void timeoutsFailClosedWithKubesTextOrAreIgnored() {
    String ns = namespace("slow");
    webhooks.handle("/slow", review -> {
      try {
        release.await();
      } catch (InterruptedException e) {
        Thread.currentThread().interrupt();
      }
      return allow(review);
    });
    validating("slow.example.com", "/slow", ",\"timeoutSeconds\":1");
    ApiResponse failed = create(ns, configMap(ns, "cm", "{}"), false);
    assertThat(failed.code()).isEqualTo(500);
    assertThat(message(failed)).isEqualTo("Internal error occurred: failed calling webhook"
        + " \"slow.example.com\": failed to call webhook: Post \"" + webhooks.url("/slow")
        + "?timeout=1s\": context deadline exceeded");

    api.resources(AR, "validatingwebhookconfigurations").delete("slow.example.com");
    validating("slow.example.com", "/slow", ",\"timeoutSeconds\":1,\"failurePolicy\":\"Ignore\"");
    ApiResponse ignored = create(ns, configMap(ns, "cm", "{}"), false);
    assertThat(ignored.isSuccess()).as(message(ignored)).isTrue();
  }

  @Test
  void anUnreachableWebhookFailsWithGosDialError() throws Exception {
    String ns = namespace("unreachable");
    int port;
    try (java.net.ServerSocket s = new java.net.ServerSocket(0)) {
      port = s.getLocalPort();
    }
    MapValue c = config("ValidatingWebhookConfiguration", "gone.example.com", "/x", "");
    String url = "https://127.0.0.1:" + port + "/x";
    c = Nested.updateListItems(c, w -> Nested.set(w, Value.of(url), "clientConfig", "url"),
        "webhooks");
    api.resources(AR, "validatingwebhookconfigurations").create(c);
    ApiResponse r = create(ns, configMap(ns, "cm", "{}"), false);
    assertThat(message(r)).isEqualTo("Internal error occurred: failed calling webhook"
        + " \"gone.example.com\": failed to call webhook: Post \"" + url
        + "?timeout=10s\": dial tcp 127.0.0.1:" + port + ": connect: connection refused");
  }

  @Test
  void dryRunsCallNoneAndNoneOnDryRunWebhooksWithDryRunTrue() {
    String ns = namespace("dry");
    webhooks.handle("/none", WebhookServer::allow);
    webhooks.handle("/nodry", WebhookServer::allow);
    validating("none.example.com", "/none", "");
    MapValue noDry = config("ValidatingWebhookConfiguration", "nodry.example.com", "/nodry", "");
    noDry = Nested.updateListItems(noDry,
        w -> w.with("sideEffects", Value.of("NoneOnDryRun")), "webhooks");
    api.resources(AR, "validatingwebhookconfigurations").create(noDry);

    ApiResponse r = create(ns, configMap(ns, "cm", "{}"), true);
    assertThat(r.isSuccess()).as(message(r)).isTrue();
    for (String path : List.of("/none", "/nodry")) {
      assertThat(webhooks.received(path)).hasSize(1);
      MapValue req = request(webhooks.received(path).get(0));
      assertThat(Nested.bool(req, "dryRun")).isTrue();
      assertThat(Json.write(Nested.getOrNull(req, "options", "dryRun"))).isEqualTo("[\"All\"]");
    }
    assertThat(api.resources("v1", "configmaps").namespace(ns).find("cm")).isEmpty();
  }

  @Test
  void v1ConfigurationsAcceptOnlyNoneAndNoneOnDryRun() {
    for (String sideEffects : List.of("Some", "Unknown")) {
      MapValue c = Nested.updateListItems(
          config("ValidatingWebhookConfiguration", "some.example.com", "/x", ""),
          w -> w.with("sideEffects", Value.of(sideEffects)), "webhooks");
      ApiResponse r = api.handle(ApiRequest.builder(ApiRequest.Verb.CREATE,
          new GroupVersionResource("admissionregistration.k8s.io", "v1",
              "validatingwebhookconfigurations")).body(c).build());
      assertThat(r.code()).isEqualTo(422);
      assertThat(message(r)).isEqualTo("ValidatingWebhookConfiguration.admissionregistration"
          + ".k8s.io \"some.example.com\" is invalid: webhooks[0].sideEffects: Unsupported value:"
          + " \"" + sideEffects + "\": supported values: \"None\", \"NoneOnDryRun\"");
    }
  }

  @Test
  void selectorsAndMatchConditionsExcludeRequests() {
    String ns = namespace("selected");
    String other = namespace("other");
    webhooks.handle("/deny", review -> respond(review,
        "{\"allowed\":false,\"status\":{\"message\":\"denied\"}}"));
    validating("ns.example.com", "/deny",
        ",\"namespaceSelector\":{\"matchLabels\":{\"team\":\"selected\"}}");
    assertThat(create(other, configMap(other, "a", "{}"), false).isSuccess()).isTrue();
    assertThat(message(create(ns, configMap(ns, "a", "{}"), false)))
        .isEqualTo("admission webhook \"ns.example.com\" denied the request: denied");
    api.resources(AR, "validatingwebhookconfigurations").delete("ns.example.com");

    validating("obj.example.com", "/deny",
        ",\"objectSelector\":{\"matchExpressions\":[{\"key\":\"app\",\"operator\":\"In\","
            + "\"values\":[\"locked\"]}]}");
    assertThat(create(ns, configMap(ns, "b", "{\"app\":\"free\"}"), false).isSuccess())
        .isTrue();
    assertThat(message(create(ns, configMap(ns, "c", "{\"app\":\"locked\"}"), false)))
        .isEqualTo("admission webhook \"obj.example.com\" denied the request: denied");
    api.resources(AR, "validatingwebhookconfigurations").delete("obj.example.com");

    validating("cond.example.com", "/deny", ",\"matchConditions\":[{\"name\":\"not-exempt\","
        + "\"expression\":\"!has(object.metadata.labels) || !('exempt' in"
        + " object.metadata.labels)\"}]");
    assertThat(create(ns, configMap(ns, "d", "{\"exempt\":\"yes\"}"), false).isSuccess())
        .isTrue();
    assertThat(message(create(ns, configMap(ns, "e", "{}"), false)))
        .isEqualTo("admission webhook \"cond.example.com\" denied the request: denied");
    // a condition that errors fails closed under Fail: kube's 403 with the CEL error
    api.resources(AR, "validatingwebhookconfigurations").delete("cond.example.com");
    validating("cond.example.com", "/deny", ",\"matchConditions\":[{\"name\":\"broken\","
        + "\"expression\":\"object.data.missing == 'x'\"}]");
    ApiResponse broken = create(ns, configMap(ns, "f", "{}"), false);
    assertThat(broken.code()).isEqualTo(403);
    assertThat(message(broken)).startsWith("configmaps \"f\" is forbidden: expression"
        + " 'object.data.missing == 'x'' resulted in error: ");
    assertThat(webhooks.received("/deny")).hasSize(3);
  }

  @Test
  void reinvocationCallsIfNeededWebhooksAgainAfterLaterMutations() {
    String ns = namespace("reinvoke");
    // first: records the label the second webhook adds; second: adds it
    webhooks.handle("/first", review -> {
      String saw = Nested.str(request(review), "object", "metadata", "labels", "second");
      return patch(review, "[{\"op\":\"add\",\"path\":\"/metadata/annotations\",\"value\":"
          + "{\"first-saw\":\"" + (saw.isEmpty() ? "nothing" : saw) + "\"}}]");
    });
    webhooks.handle("/second", review -> patch(review,
        "[{\"op\":\"add\",\"path\":\"/metadata/labels/second\",\"value\":\"done\"}]"));
    MapValue c = config("MutatingWebhookConfiguration", "chain.example.com", "/first",
        ",\"reinvocationPolicy\":\"IfNeeded\"");
    MapValue second = (MapValue) Nested.list(
        config("MutatingWebhookConfiguration", "second.example.com", "/second", ""),
        "webhooks").get(0);
    c = c.with("webhooks", io.apiserver4j.core.ListValue.of(List.of(
        Nested.list(c, "webhooks").get(0), second)));
    api.resources(AR, "mutatingwebhookconfigurations").create(c);

    ApiResponse r = create(ns, configMap(ns, "cm", "{}"), false);
    assertThat(r.isSuccess()).as(message(r)).isTrue();
    MapValue stored = api.resources("v1", "configmaps").namespace(ns).get("cm");
    assertThat(Meta.annotations(stored)).containsEntry("first-saw", "done");
    assertThat(webhooks.received("/first")).hasSize(2);
    assertThat(webhooks.received("/second")).hasSize(1);
  }

  @Test
  void anIfNeededWebhookIsNotCalledAgainForItsOwnPatch() {
    // kube's "no webhook reinvocation for webhook when no in-tree reinvocation mutations"
    String ns = namespace("own-patch");
    webhooks.handle("/addlabel", review -> patch(review,
        "[{\"op\":\"add\",\"path\":\"/metadata/labels/a\",\"value\":\"true\"}]"));
    mutating("addlabel.example.com", "/addlabel", ",\"reinvocationPolicy\":\"IfNeeded\"");
    assertThat(create(ns, configMap(ns, "cm", "{}"), false).isSuccess()).isTrue();
    assertThat(webhooks.received("/addlabel")).hasSize(1);
  }

  @Test
  void anIfNeededPolicyRunsAgainAfterAWebhookChangedTheObject() {
    String ns = namespace("policy-then-webhook");
    webhooks.handle("/late", review -> patch(review,
        "[{\"op\":\"add\",\"path\":\"/metadata/labels/late\",\"value\":\"done\"}]"));
    mutating("late.example.com", "/late", "");
    for (String policy : List.of("IfNeeded", "Never")) {
      api.resources(AR, "mutatingadmissionpolicies").create(Yaml.read("""
          apiVersion: admissionregistration.k8s.io/v1
          kind: MutatingAdmissionPolicy
          metadata: {name: recorder}
          spec:
            reinvocationPolicy: %s
            matchConstraints:
              resourceRules:
              - {apiGroups: [""], apiVersions: [v1], operations: [CREATE], resources: [configmaps]}
            mutations:
            - patchType: ApplyConfiguration
              applyConfiguration:
                expression: >
                  Object{metadata: Object.metadata{annotations: {"saw":
                  object.metadata.?labels["late"].orValue("nothing")}}}
          """.formatted(policy)));
      api.resources(AR, "mutatingadmissionpolicybindings").create(Yaml.read("""
          apiVersion: admissionregistration.k8s.io/v1
          kind: MutatingAdmissionPolicyBinding
          metadata: {name: recorder}
          spec: {policyName: recorder}
          """));
      try {
        String name = policy.toLowerCase();
        ApiResponse r = create(ns, configMap(ns, name, "{}"), false);
        assertThat(r.isSuccess()).as(message(r)).isTrue();
        MapValue stored = api.resources("v1", "configmaps").namespace(ns).get(name);
        assertThat(Meta.labels(stored)).containsEntry("late", "done");
        assertThat(Meta.annotations(stored)).containsEntry("saw",
            policy.equals("IfNeeded") ? "done" : "nothing");
      } finally {
        api.resources(AR, "mutatingadmissionpolicybindings").delete("recorder");
        api.resources(AR, "mutatingadmissionpolicies").delete("recorder");
      }
    }
    // the webhook (Never) saw no change after it in the second round: called once each time
    assertThat(webhooks.received("/late")).hasSize(2);
  }

  @Test
  void withoutReinvocationEachWebhookIsCalledOnce() {
    String ns = namespace("once");
    webhooks.handle("/first", review -> patch(review,
        "[{\"op\":\"add\",\"path\":\"/metadata/annotations\",\"value\":{\"first\":\"x\"}}]"));
    webhooks.handle("/second", review -> patch(review,
        "[{\"op\":\"add\",\"path\":\"/metadata/labels/second\",\"value\":\"done\"}]"));
    mutating("a.example.com", "/first", "");
    mutating("b.example.com", "/second", "");
    assertThat(create(ns, configMap(ns, "cm", "{}"), false).isSuccess()).isTrue();
    assertThat(webhooks.received("/first")).hasSize(1);
    assertThat(webhooks.received("/second")).hasSize(1);
  }

  @Test
  void warningsReachTheClientAndV1beta1OnlyWebhooksGetV1beta1Reviews() {
    String ns = namespace("warned");
    webhooks.handle("/warn", review -> respond(review,
        "{\"allowed\":true,\"warnings\":[\"be careful\"]}"));
    MapValue c = Nested.updateListItems(
        config("ValidatingWebhookConfiguration", "warn.example.com", "/warn", ""),
        w -> w.with("admissionReviewVersions", Json.read("[\"v1beta1\"]")), "webhooks");
    api.resources(AR, "validatingwebhookconfigurations").create(c);
    ApiResponse r = create(ns, configMap(ns, "cm", "{}"), false);
    assertThat(r.isSuccess()).as(message(r)).isTrue();
    assertThat(r.warnings()).containsExactly("be careful");
    assertThat(Nested.str(webhooks.received("/warn").get(0), "apiVersion"))
        .isEqualTo("admission.k8s.io/v1beta1");
  }

  @Test
  void kubectlAppliesAConfigurationAndPrintsKubesDenialAlsoForServerDryRuns() {
    String ns = namespace("kubectl");
    webhooks.handle("/deny", review -> respond(review, "{\"allowed\":false,\"status\":"
        + "{\"code\":403,\"reason\":\"Forbidden\",\"message\":\"configmaps are frozen\"}}"));
    kubectl.file("vwc.yaml", Yaml.write(config("ValidatingWebhookConfiguration",
        "freeze.example.com", "/deny", "")));
    assertThat(kubectl.ok("apply", "-f", "vwc.yaml")).isEqualTo(
        "validatingwebhookconfiguration.admissionregistration.k8s.io/freeze.example.com"
            + " created\n");
    kubectl.file("cm.yaml", Yaml.write(configMap(ns, "frozen", "{}")));
    String expected = "Error from server (Forbidden): error when creating \"cm.yaml\":"
        + " admission webhook \"freeze.example.com\" denied the request: configmaps are frozen";
    Kubectl.Result denied = kubectl.run("create", "-f", "cm.yaml");
    assertThat(denied.exitCode()).isNotZero();
    assertThat(denied.stderr().trim()).isEqualTo(expected);
    Kubectl.Result dryRun = kubectl.run("create", "--dry-run=server", "-f", "cm.yaml");
    assertThat(dryRun.exitCode()).isNotZero();
    assertThat(dryRun.stderr().trim()).isEqualTo(expected);
    assertThat(webhooks.received("/deny")).hasSize(2);
    assertThat(Nested.bool(request(webhooks.received("/deny").get(1)), "dryRun")).isTrue();
  }

  private static ApiResponse createConfig(MapValue c) {
    return api.handle(ApiRequest.builder(ApiRequest.Verb.CREATE,
        new GroupVersionResource("admissionregistration.k8s.io", "v1",
            "validatingwebhookconfigurations")).body(c).build());
  }

  private static MapValue withWebhookField(MapValue c, String field, Value value) {
    return Nested.updateListItems(c, w -> value == null ? w.without(field)
        : w.with(field, value), "webhooks");
  }

  @Test
  void configurationsAreValidatedWithKubesMessages() {
    String prefix = "ValidatingWebhookConfiguration.admissionregistration.k8s.io \"v.example.com\""
        + " is invalid: ";
    MapValue valid = config("ValidatingWebhookConfiguration", "v.example.com", "/x", "");
    assertThat(message(createConfig(withWebhookField(valid, "admissionReviewVersions", null))))
        .isEqualTo(prefix + "webhooks[0].admissionReviewVersions: Required value: must specify"
            + " one of v1, v1beta1");
    assertThat(message(createConfig(withWebhookField(valid, "sideEffects", null))))
        .isEqualTo(prefix + "webhooks[0].sideEffects: Required value: must specify one of"
            + " None, NoneOnDryRun");
    assertThat(message(createConfig(withWebhookField(valid, "timeoutSeconds", Value.of(31)))))
        .isEqualTo(prefix + "webhooks[0].timeoutSeconds: Invalid value: 31: the timeout value"
            + " must be between 1 and 30 seconds");
    assertThat(message(createConfig(withWebhookField(valid, "name", Value.of("short.name")))))
        .isEqualTo(prefix + "webhooks[0].name: Invalid value: \"short.name\": should be a"
            + " domain with at least three segments separated by dots");
    assertThat(message(createConfig(withWebhookField(valid, "clientConfig",
        Json.read("{\"url\":\"http://127.0.0.1/x\"}")))))
        .isEqualTo(prefix + "webhooks[0].clientConfig.url: Invalid value: \"http\": 'https' is"
            + " the only allowed URL scheme; desired format: https://host[/path]");
    MapValue twice = valid.with("webhooks", io.apiserver4j.core.ListValue.of(List.of(
        Nested.list(valid, "webhooks").get(0), Nested.list(valid, "webhooks").get(0))));
    assertThat(message(createConfig(twice)))
        .isEqualTo(prefix + "webhooks[1].name: Duplicate value: \"v.example.com\"");
    assertThat(api.resources(AR, "validatingwebhookconfigurations").list()).isEmpty();
  }

  @Test
  void configurationsGetKubesDefaults() {
    mutating("m.example.com", "/x", "");
    MapValue hook = (MapValue) Nested.list(
        api.resources(AR, "mutatingwebhookconfigurations").get("m.example.com"), "webhooks")
        .get(0);
    assertThat(Nested.str(hook, "failurePolicy")).isEqualTo("Fail");
    assertThat(Nested.str(hook, "matchPolicy")).isEqualTo("Equivalent");
    assertThat(Nested.str(hook, "reinvocationPolicy")).isEqualTo("Never");
    assertThat(Nested.integer(hook, "timeoutSeconds")).isEqualTo(10);
    assertThat(Json.write(hook.getOrNull("namespaceSelector"))).isEqualTo("{}");
    assertThat(Json.write(hook.getOrNull("objectSelector"))).isEqualTo("{}");
    assertThat(Nested.str((MapValue) Nested.list(hook, "rules").get(0), "scope"))
        .isEqualTo("*");
  }

  private static final String GADGET_CRD = """
      apiVersion: apiextensions.k8s.io/v1
      kind: CustomResourceDefinition
      metadata: {name: gadgets.example.com}
      spec:
        group: example.com
        names: {plural: gadgets, singular: gadget, kind: Gadget}
        scope: Namespaced
        versions:
        - name: v2
          served: true
          storage: false
          schema:
            openAPIV3Schema: {type: object, x-kubernetes-preserve-unknown-fields: true}
        - name: v1
          served: true
          storage: true
          schema:
            openAPIV3Schema: {type: object, x-kubernetes-preserve-unknown-fields: true}
      """;

  @Test
  void equivalentMatchPolicySendsTheMatchedVersionAndExactSkips() {
    String ns = namespace("equivalent");
    api.resources("apiextensions.k8s.io/v1", "customresourcedefinitions")
        .create(Yaml.read(GADGET_CRD));
    webhooks.handle("/gadgets", WebhookServer::allow);
    MapValue c = Nested.updateListItems(
        config("ValidatingWebhookConfiguration", "gadgets.example.com", "/gadgets", ""),
        w -> w.with("rules", Json.read("[{\"operations\":[\"CREATE\"],\"apiGroups\":"
            + "[\"example.com\"],\"apiVersions\":[\"v1\"],\"resources\":[\"gadgets\"]}]")),
        "webhooks");
    api.resources(AR, "validatingwebhookconfigurations").create(c);
    try {
      api.resources("example.com/v2", "gadgets").namespace(ns).create(Json.read(
          "{\"apiVersion\":\"example.com/v2\",\"kind\":\"Gadget\",\"metadata\":"
              + "{\"name\":\"g1\"},\"spec\":{\"size\":1}}"));
      MapValue req = request(webhooks.received("/gadgets").get(0));
      assertThat(Json.write(req.getOrNull("kind")))
          .isEqualTo("{\"group\":\"example.com\",\"version\":\"v1\",\"kind\":\"Gadget\"}");
      assertThat(Json.write(req.getOrNull("requestKind")))
          .isEqualTo("{\"group\":\"example.com\",\"version\":\"v2\",\"kind\":\"Gadget\"}");
      assertThat(Nested.str(req, "resource", "version")).isEqualTo("v1");
      assertThat(Nested.str(req, "requestResource", "version")).isEqualTo("v2");
      assertThat(Nested.str(req, "object", "apiVersion")).isEqualTo("example.com/v1");

      api.resources(AR, "validatingwebhookconfigurations").delete("gadgets.example.com");
      api.resources(AR, "validatingwebhookconfigurations").create(
          withWebhookField(c, "matchPolicy", Value.of("Exact")));
      api.resources("example.com/v2", "gadgets").namespace(ns).create(Json.read(
          "{\"apiVersion\":\"example.com/v2\",\"kind\":\"Gadget\",\"metadata\":"
              + "{\"name\":\"g2\"}}"));
      assertThat(webhooks.received("/gadgets")).hasSize(1);
    } finally {
      api.resources("apiextensions.k8s.io/v1", "customresourcedefinitions")
          .delete("gadgets.example.com");
    }
  }

  @Test
  void dryRunsAreRefusedForSomeAndUnknownSideEffectsAsKube() {
    // v1 objects cannot declare them: they are stored directly, as older servers left them
    io.apiserver4j.storage.InMemoryStore store = io.apiserver4j.storage.InMemoryStore.create();
    for (String sideEffects : List.of("Some", "Unknown", "")) {
      String name = (sideEffects.isEmpty() ? "nil" : sideEffects.toLowerCase()) + ".example.com";
      MapValue c = config("ValidatingWebhookConfiguration", name, "/allow", "");
      c = Nested.updateListItems(c, w -> sideEffects.isEmpty() ? w.without("sideEffects")
          : w.with("sideEffects", Value.of(sideEffects)), "webhooks");
      store.create(new io.apiserver4j.storage.ObjectKey("admissionregistration.k8s.io",
          "validatingwebhookconfigurations", "", name), c);
    }
    webhooks.handle("/allow", WebhookServer::allow);
    // without the bootstrap writes, which go through these webhooks as kube's post-start hooks do
    // and without a default namespace: NamespaceLifecycle, which would refuse first, is off
    try (ApiServer old = ApiServer.builder().store(store).bootstrap(false)
        .disableAdmissionPlugins("NamespaceLifecycle", "ServiceAccount").build()) {
      ApiResponse dry = old.handle(ApiRequest.builder(ApiRequest.Verb.CREATE, CONFIGMAPS)
          .namespace("default").body(configMap("default", "cm", "{}")).dryRun(true).build());
      // the first refusal in webhook order (configurations by name: nil, some, unknown)
      assertThat(dry.code()).isEqualTo(500);
      assertThat(message(dry)).isEqualTo("Internal error occurred: failed calling webhook"
          + " \"nil.example.com\": Webhook SideEffects is nil");
      old.resources(AR, "validatingwebhookconfigurations").delete("nil.example.com");
      ApiResponse some = old.handle(ApiRequest.builder(ApiRequest.Verb.CREATE, CONFIGMAPS)
          .namespace("default").body(configMap("default", "cm", "{}")).dryRun(true).build());
      assertThat(some.code()).isEqualTo(400);
      assertThat(message(some))
          .isEqualTo("admission webhook \"some.example.com\" does not support dry run");
      assertThat(webhooks.received("/allow")).isEmpty();

      ApiResponse real = old.handle(ApiRequest.builder(ApiRequest.Verb.CREATE, CONFIGMAPS)
          .namespace("default").body(configMap("default", "cm", "{}")).build());
      assertThat(real.isSuccess()).as(message(real)).isTrue();
      assertThat(webhooks.received("/allow")).hasSize(2);
    }
  }
}
