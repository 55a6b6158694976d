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
import static org.assertj.core.api.Assertions.catchThrowableOfType;

import io.apiserver4j.admission.AdmissionAttributes;
import io.apiserver4j.admission.AdmissionChain;
import io.apiserver4j.admission.MutatingPlugin;
import io.apiserver4j.admission.SideEffects;
import io.apiserver4j.admission.ValidatingPlugin;
import io.apiserver4j.admission.plugins.NamespaceAutoProvision;
import io.apiserver4j.admission.plugins.NamespaceLifecycle;
import io.apiserver4j.admission.plugins.ResourceQuotaCounter;
import io.apiserver4j.apiserver.ApiRequest.Verb;
import io.apiserver4j.apimachinery.patch.PatchType;
import io.apiserver4j.core.GroupResource;
import io.apiserver4j.core.GroupVersionResource;
import io.apiserver4j.core.MapValue;
import io.apiserver4j.core.errors.StatusException;
import io.apiserver4j.core.Value;
import java.time.Duration;
import java.util.List;
import java.util.Map;
import java.util.concurrent.CopyOnWriteArrayList;
import java.util.function.UnaryOperator;
import java.util.stream.Stream;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.Arguments;
import org.junit.jupiter.params.provider.MethodSource;

/**
 * {@code dryRun=All} (spec section 4, issue 5): everything runs except the write, and the
 * response is what the real request returns but for the generated values.
 */
class DryRunTest {
  /** What every plugin saw: operation, resource, and the dry-run flag. */
  private final List<String> seen = new CopyOnWriteArrayList<>();
  private ResourceQuotaCounter quota;
  private Fixtures f;

  /** Adds a label on every CREATE and UPDATE of a ConfigMap or Deployment. */
  private final class Labeller implements MutatingPlugin {
    @Override
    public String name() {
      return "Labeller";
    }

    @Override
    public SideEffects sideEffects() {
      return SideEffects.NONE;
    }

    @Override
    public MapValue admit(AdmissionAttributes a, MapValue object) {
      seen.add("Labeller " + a.operation() + " " + a.resource().resource() + " " + a.isDryRun());
      if (!a.resource().resource().equals("configmaps")
          && !a.resource().resource().equals("deployments")) {
        return object;
      }
      MapValue meta = (MapValue) object.getOrNull("metadata");
      MapValue labels = meta.getOrNull("labels") instanceof MapValue l ? l : MapValue.empty();
      return object.with("metadata", meta.with("labels", labels.with("admitted", Value.of("yes"))));
    }

    @Override
    public void admitWithoutObject(AdmissionAttributes a) {
      seen.add("Labeller " + a.operation() + " " + a.resource().resource() + " " + a.isDryRun());
    }
  }

  private final class Recorder implements ValidatingPlugin {
    @Override
    public String name() {
      return "Recorder";
    }

    @Override
    public SideEffects sideEffects() {
      return SideEffects.NONE;
    }

    @Override
    public void validate(AdmissionAttributes a) {
      seen.add("Recorder " + a.operation() + " " + a.resource().resource() + " " + a.isDryRun());
    }
  }

  /** A plugin with side effects that only cares about Secrets. */
  private static final class SecretAuditor implements ValidatingPlugin {
    @Override
    public String name() {
      return "secret-auditor.example.com";
    }

    @Override
    public SideEffects sideEffects() {
      return SideEffects.SOME;
    }

    @Override
    public boolean handles(AdmissionAttributes a) {
      return a.resource().resource().equals("secrets");
    }

    @Override
    public void validate(AdmissionAttributes a) {}
  }

  @BeforeEach
  void setUp() {
    quota = ResourceQuotaCounter.builder()
        .quota("default", "q", Map.of("count/configmaps", 10L)).build();
    f = new Fixtures(ApiServer.builder().random(new java.util.Random(7)).admission(ns ->
        AdmissionChain.builder()
            .add(new NamespaceAutoProvision(ns))
            .add(new Labeller())
            .add(new NamespaceLifecycle(ns))
            .add(quota)
            .add(new SecretAuditor())
            .add(new Recorder())
            .build()));
    f.create(Fixtures.NAMESPACES, "", yaml("""
        apiVersion: v1
        kind: Namespace
        metadata: {name: default}
        """), "setup").orThrow();
    seen.clear();
  }

  private static final String CM = """
      apiVersion: v1
      kind: ConfigMap
      metadata: {name: cm}
      data: {a: "1"}
      """;

  private ApiResponse dry(ApiRequest.Builder b) {
    return f.server.handle(b.dryRun(true).build());
  }

  private String revision() {
    return str(f.server.handle(req(Verb.LIST, CONFIGMAPS, "default", "").build()).orThrow(),
        "metadata", "resourceVersion");
  }

  private long quotaUsage() {
    return quota.usage("default", new GroupResource("", "configmaps"));
  }

  @Test
  void aDryRunCreateReturnsTheFullObjectAndStoresNothing() throws Exception {
    String revision = revision();
    ApiWatch watch = f.server.watch(ApiRequest.builder(Verb.WATCH, CONFIGMAPS)
        .namespace("default").resourceVersion(revision).build());

    ApiResponse r = dry(req(Verb.CREATE, CONFIGMAPS, "default", "").body(yaml(CM))
        .fieldManager("m"));

    assertThat(r.code()).isEqualTo(201);
    assertThat(at(r.body(), "metadata", "labels", "admitted")).isEqualTo(Value.of("yes"));
    assertThat(str(r.body(), "metadata", "uid")).isNotEmpty();
    assertThat(str(r.body(), "metadata", "creationTimestamp")).isEqualTo("2024-01-02T03:04:05Z");
    assertThat(at(r.body(), "metadata", "resourceVersion")).isNull();
    assertThat(str(Fixtures.entry(r.body(), 0), "manager")).isEqualTo("m");
    assertThat(f.get(CONFIGMAPS, "default", "cm").code()).isEqualTo(404);
    assertThat(revision()).isEqualTo(revision);
    assertThat(watch.poll(Duration.ZERO)).isEmpty();
    assertThat(quotaUsage()).isZero();
    assertThat(seen).containsExactly("Labeller CREATE configmaps true",
        "Recorder CREATE configmaps true");
  }

  @Test
  void aDryRunDeploymentShowsDefaultsAndGeneration() {
    ApiResponse r = dry(req(Verb.CREATE, DEPLOYMENTS, "default", "")
        .body(yaml(Fixtures.DEPLOYMENT_YAML)).fieldManager("m"));

    assertThat(r.code()).isEqualTo(201);
    assertThat(at(r.body(), "metadata", "generation")).isEqualTo(Value.of(1L));
    assertThat(at(r.body(), "spec", "revisionHistoryLimit")).isEqualTo(Value.of(10L));
    assertThat(f.get(DEPLOYMENTS, "default", "d").code()).isEqualTo(404);
  }

  @Test
  void aDryRunCreateOfAnExistingObjectIsAlreadyExists() {
    f.create(CONFIGMAPS, "default", yaml(CM), "m").orThrow();

    ApiResponse r = dry(req(Verb.CREATE, CONFIGMAPS, "default", "").body(yaml(CM)));

    assertThat(r.code()).isEqualTo(409);
    assertThat(str(r.body(), "reason")).isEqualTo("AlreadyExists");
  }

  @Test
  void dryRunUpdatesPatchesAndAppliesReturnTheResultAndChangeNothing() throws Exception {
    MapValue stored = f.create(CONFIGMAPS, "default", yaml(CM), "m").orThrow();
    String rv = str(stored, "metadata", "resourceVersion");
    ApiWatch watch = f.server.watch(ApiRequest.builder(Verb.WATCH, CONFIGMAPS)
        .namespace("default").resourceVersion(rv).build());

    ApiResponse update = dry(req(Verb.UPDATE, CONFIGMAPS, "default", "cm")
        .body(stored.with("data", json("{\"a\":\"2\"}"))).fieldManager("u"));
    ApiResponse patch = dry(req(Verb.PATCH, CONFIGMAPS, "default", "cm")
        .patch(PatchType.MERGE_PATCH, "{\"data\":{\"b\":\"3\"}}").fieldManager("p"));
    ApiResponse apply = dry(req(Verb.PATCH, CONFIGMAPS, "default", "cm").fieldManager("a")
        .patch(PatchType.APPLY_YAML, CM.replace("a: \"1\"", "c: \"4\"")));

    assertThat(update.code()).isEqualTo(200);
    assertThat(str(update.body(), "data", "a")).isEqualTo("2");
    assertThat(str(update.body(), "metadata", "resourceVersion")).isEqualTo(rv);
    assertThat(patch.code()).isEqualTo(200);
    assertThat(at(patch.body(), "data")).isEqualTo(json("{\"a\":\"1\",\"b\":\"3\"}"));
    assertThat(apply.code()).isEqualTo(200);
    assertThat(at(apply.body(), "data")).isEqualTo(json("{\"a\":\"1\",\"c\":\"4\"}"));
    assertThat(f.get(CONFIGMAPS, "default", "cm").orThrow()).isEqualTo(stored);
    assertThat(watch.poll(Duration.ZERO)).isEmpty();
  }

  @Test
  void aDryRunApplyStillReportsConflicts() {
    f.apply(CONFIGMAPS, "default", "cm", "a", CM).orThrow();

    ApiResponse r = dry(req(Verb.PATCH, CONFIGMAPS, "default", "cm").fieldManager("b")
        .patch(PatchType.APPLY_YAML, CM.replace("\"1\"", "\"2\"")));

    assertThat(r.code()).isEqualTo(409);
    assertThat(str(r.body(), "message")).isEqualTo("Apply failed with 1 conflict: conflict with"
        + " \"a\": .data.a");
  }

  @Test
  void aDryRunApplyOfAMissingObjectCreatesNothing() {
    ApiResponse r = dry(req(Verb.PATCH, CONFIGMAPS, "default", "cm").fieldManager("a")
        .patch(PatchType.APPLY_YAML, CM));

    assertThat(r.code()).isEqualTo(201);
    assertThat(str(r.body(), "metadata", "uid")).isNotEmpty();
    assertThat(f.get(CONFIGMAPS, "default", "cm").code()).isEqualTo(404);
    assertThat(quotaUsage()).isZero();
  }

  @Test
  void dryRunWritesOfMissingObjectsAreNotFound() {
    assertThat(dry(req(Verb.UPDATE, CONFIGMAPS, "default", "cm").body(yaml(CM))).code())
        .isEqualTo(404);
    assertThat(dry(req(Verb.PATCH, CONFIGMAPS, "default", "cm")
        .patch(PatchType.MERGE_PATCH, "{}")).code()).isEqualTo(404);
    assertThat(dry(req(Verb.DELETE, CONFIGMAPS, "default", "cm")).code()).isEqualTo(404);
  }

  @Test
  void aDryRunDeleteReturnsWhatTheDeleteWouldAndKeepsTheObject() {
    f.create(CONFIGMAPS, "default", yaml(CM), "m").orThrow();
    long usage = quotaUsage();

    ApiResponse r = dry(req(Verb.DELETE, CONFIGMAPS, "default", "cm"));

    assertThat(r.code()).isEqualTo(200);
    assertThat(r.body()).isEqualTo(json("{\"kind\":\"Status\",\"apiVersion\":\"v1\","
        + "\"metadata\":{},\"status\":\"Success\",\"details\":{\"name\":\"cm\",\"kind\":"
        + "\"configmaps\",\"uid\":\"uid-2\"}}"));
    assertThat(f.get(CONFIGMAPS, "default", "cm").code()).isEqualTo(200);
    assertThat(quotaUsage()).isEqualTo(usage);
    assertThat(seen).contains("Labeller DELETE configmaps true", "Recorder DELETE configmaps true");
  }

  @Test
  void aDryRunDeleteOfAnObjectWithFinalizersShowsTheDeletionTimestamp() {
    f.create(CONFIGMAPS, "default", yaml(CM.replace("metadata: {name: cm}",
        "metadata: {name: cm, finalizers: [example.com/f]}")), "m").orThrow();
    MapValue before = f.get(CONFIGMAPS, "default", "cm").orThrow();

    ApiResponse r = dry(req(Verb.DELETE, CONFIGMAPS, "default", "cm"));

    assertThat(r.code()).isEqualTo(200);
    assertThat(str(r.body(), "metadata", "deletionTimestamp")).isEqualTo("2024-01-02T03:04:05Z");
    assertThat(at(r.body(), "metadata", "deletionGracePeriodSeconds")).isEqualTo(Value.of(0L));
    assertThat(f.get(CONFIGMAPS, "default", "cm").orThrow()).isEqualTo(before);
  }

  static Stream<Arguments> invalidDryRuns() {
    return Stream.of(
        Arguments.of(Verb.CREATE, "CreateOptions"),
        Arguments.of(Verb.UPDATE, "UpdateOptions"),
        Arguments.of(Verb.PATCH, "PatchOptions"),
        Arguments.of(Verb.DELETE, "DeleteOptions"));
  }

  @ParameterizedTest
  @MethodSource("invalidDryRuns")
  void dryRunValuesOtherThanAllAreRejected(Verb verb, String options) {
    f.create(CONFIGMAPS, "default", yaml(CM), "m").orThrow();
    ApiRequest.Builder b = req(verb, CONFIGMAPS, "default", verb == Verb.CREATE ? "" : "cm");

    StatusException e = catchThrowableOfType(() -> QueryParameters.apply(b, verb,
        Map.of("dryRun", List.of("All", ""))), StatusException.class);

    assertThat(e.status().code()).isEqualTo(422);
    assertThat(e.status().message()).isEqualTo(options + ".meta.k8s.io \"\" is invalid:"
        + " dryRun: Unsupported value: [\"All\",\"\"]: supported values: \"All\"");
  }

  @Test
  void repeatedAllIsAccepted() {
    ApiResponse r = f.server.handle(QueryParameters.apply(req(Verb.CREATE, CONFIGMAPS,
        "default", "").body(yaml(CM)), Verb.CREATE, Map.of("dryRun", List.of("All", "All")))
        .build());

    assertThat(r.code()).isEqualTo(201);
    assertThat(f.get(CONFIGMAPS, "default", "cm").code()).isEqualTo(404);
  }

  @Test
  void aPluginWithSideEffectsRejectsDryRunsItHandles() {
    ApiResponse secret = dry(req(Verb.CREATE, Fixtures.SECRETS, "default", "")
        .body(yaml("""
            apiVersion: v1
            kind: Secret
            metadata: {name: s}
            """)));
    ApiResponse other = dry(req(Verb.CREATE, CONFIGMAPS, "default", "").body(yaml(CM)));

    assertThat(secret.code()).isEqualTo(400);
    assertThat(str(secret.body(), "reason")).isEqualTo("BadRequest");
    assertThat(str(secret.body(), "message")).isEqualTo("admission webhook"
        + " \"secret-auditor.example.com\" does not support dry run");
    assertThat(other.code()).isEqualTo(201);
  }

  @Test
  void namespaceAutoProvisionDoesNotCreateTheNamespaceOnADryRun() {
    ApiResponse dryRun = dry(req(Verb.CREATE, CONFIGMAPS, "fresh", "").body(yaml(CM)));

    assertThat(dryRun.code()).isEqualTo(404);
    assertThat(str(dryRun.body(), "message")).isEqualTo("namespaces \"fresh\" not found");
    assertThat(f.get(Fixtures.NAMESPACES, "", "fresh").code()).isEqualTo(404);

    ApiResponse real = f.create(CONFIGMAPS, "fresh", yaml(CM), "m");
    assertThat(real.code()).isEqualTo(201);
    assertThat(str(f.get(Fixtures.NAMESPACES, "", "fresh").orThrow(), "status", "phase"))
        .isEqualTo("Active");
  }

  @Test
  void everyPluginSeesTheDryRunFlagOnEveryOperation() {
    f.create(CONFIGMAPS, "default", yaml(CM), "m").orThrow();
    seen.clear();

    dry(req(Verb.CREATE, CONFIGMAPS, "default", "").body(yaml(CM.replace("name: cm",
        "name: cm2"))));
    dry(req(Verb.PATCH, CONFIGMAPS, "default", "cm").patch(PatchType.MERGE_PATCH, "{}"));
    dry(req(Verb.PATCH, CONFIGMAPS, "default", "new").fieldManager("a")
        .patch(PatchType.APPLY_YAML, CM.replace("name: cm", "name: new")));
    dry(req(Verb.DELETE, CONFIGMAPS, "default", "cm"));

    assertThat(seen).isNotEmpty().allMatch(s -> s.endsWith(" true"));
    assertThat(seen).contains("Labeller CREATE configmaps true", "Labeller UPDATE configmaps true",
        "Recorder UPDATE configmaps true", "Labeller DELETE configmaps true");
  }

  // --- fidelity: the dry run answers what the real request answers --------------------------

  /** Removes what a dry run cannot predict: uid, resourceVersion and generated names. */
  private static MapValue generatedValuesRemoved(MapValue body) {
    if (!(body.getOrNull("metadata") instanceof MapValue meta)) {
      return body;
    }
    MapValue m = meta.without("uid").without("resourceVersion");
    if (meta.containsKey("generateName")) {
      m = m.without("name");
    }
    MapValue out = body.with("metadata", m);
    if (body.getOrNull("details") instanceof MapValue d) {
      out = out.with("details", d.without("uid"));
    }
    return out;
  }

  record Scenario(String name, GroupVersionResource gvr, String setup,
      UnaryOperator<ApiRequest.Builder> request) {
    @Override
    public String toString() {
      return name;
    }
  }

  static Stream<Scenario> verbs() {
    String deploy = Fixtures.DEPLOYMENT_YAML;
    return Stream.of(
        new Scenario("create configmap", CONFIGMAPS, null,
            b -> b.verb(Verb.CREATE).body(yaml(CM)).fieldManager("m")),
        new Scenario("create with generateName", CONFIGMAPS, null, b -> b.verb(Verb.CREATE)
            .body(yaml(CM.replace("name: cm", "generateName: cm-"))).fieldManager("m")),
        new Scenario("create deployment", DEPLOYMENTS, null,
            b -> b.verb(Verb.CREATE).body(yaml(deploy)).fieldManager("m")),
        new Scenario("update configmap", CONFIGMAPS, CM, b -> b.verb(Verb.UPDATE).name("cm")
            .body(yaml(CM.replace("\"1\"", "\"2\""))).fieldManager("u")),
        new Scenario("merge patch deployment", DEPLOYMENTS, deploy, b -> b.verb(Verb.PATCH)
            .name("d").patch(PatchType.MERGE_PATCH, "{\"spec\":{\"replicas\":3}}")
            .fieldManager("p")),
        new Scenario("strategic merge patch deployment", DEPLOYMENTS, deploy, b -> b
            .verb(Verb.PATCH).name("d").patch(PatchType.STRATEGIC_MERGE_PATCH,
                "{\"spec\":{\"template\":{\"spec\":{\"containers\":[{\"name\":\"side\","
                    + "\"image\":\"busybox\"}]}}}}").fieldManager("p")),
        new Scenario("json patch configmap", CONFIGMAPS, CM, b -> b.verb(Verb.PATCH).name("cm")
            .patch(PatchType.JSON_PATCH, "[{\"op\":\"add\",\"path\":\"/data/b\",\"value\":\"x\"}]")
            .fieldManager("p")),
        new Scenario("apply existing deployment", DEPLOYMENTS, deploy, b -> b.verb(Verb.PATCH)
            .name("d").patch(PatchType.APPLY_YAML, deploy.replace("replicas: 1", "replicas: 2"))
            .fieldManager("kubectl").force(true)),
        new Scenario("apply new configmap", CONFIGMAPS, null, b -> b.verb(Verb.PATCH).name("cm")
            .patch(PatchType.APPLY_YAML, CM).fieldManager("a")),
        new Scenario("scale deployment", DEPLOYMENTS, deploy, b -> b.verb(Verb.PATCH).name("d")
            .subresource("scale").patch(PatchType.MERGE_PATCH, "{\"spec\":{\"replicas\":4}}")
            .fieldManager("hpa")),
        new Scenario("status of deployment", DEPLOYMENTS, deploy, b -> b.verb(Verb.PATCH)
            .name("d").subresource("status").patch(PatchType.MERGE_PATCH,
                "{\"status\":{\"replicas\":1}}").fieldManager("ctrl")),
        new Scenario("delete configmap", CONFIGMAPS, CM, b -> b.verb(Verb.DELETE).name("cm")),
        new Scenario("delete deployment with finalizer", DEPLOYMENTS,
            deploy.replace("metadata: {name: d, labels: {app: d}}",
                "metadata: {name: d, labels: {app: d}, finalizers: [example.com/f]}"),
            b -> b.verb(Verb.DELETE).name("d")),
        new Scenario("delete with orphan policy", DEPLOYMENTS, deploy, b -> b.verb(Verb.DELETE)
            .name("d").propagationPolicy(PropagationPolicy.fromWireName("Orphan"))),
        new Scenario("delete collection", CONFIGMAPS, CM, b -> b.verb(Verb.DELETE_COLLECTION)));
  }

  @ParameterizedTest(name = "{0}")
  @MethodSource("verbs")
  void theDryRunAnswersWhatTheRealRequestAnswers(Scenario s) {
    if (s.setup() != null) {
      f.create(s.gvr(), "default", yaml(s.setup()), "setup").orThrow();
    }
    ApiRequest.Builder base = s.request().apply(ApiRequest.builder(Verb.GET, s.gvr())
        .namespace("default"));
    String revision = revision();

    ApiResponse dry = f.server.handle(base.dryRun(true).build());
    assertThat(revision()).isEqualTo(revision);
    ApiResponse real = f.server.handle(base.dryRun(false).build());

    assertThat(dry.code()).isEqualTo(real.code());
    assertThat(dry.warnings()).isEqualTo(real.warnings());
    assertThat(generatedValuesRemoved(dry.body())).isEqualTo(generatedValuesRemoved(real.body()));
  }
}
