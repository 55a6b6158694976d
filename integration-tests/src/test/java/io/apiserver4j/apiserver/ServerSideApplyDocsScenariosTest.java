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
import static io.apiserver4j.apiserver.Fixtures.str;
import static org.assertj.core.api.Assertions.assertThat;

import io.apiserver4j.apimachinery.patch.PatchType;
import io.apiserver4j.core.Json;
import io.apiserver4j.core.MapValue;
import io.apiserver4j.core.Value;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import org.junit.jupiter.api.Test;

/**
 * The scenarios of the Kubernetes server-side apply documentation, through the public API.
 */
class ServerSideApplyDocsScenariosTest {
  private final Fixtures f = new Fixtures();

  private static final String TEST_CM = """
      apiVersion: v1
      kind: ConfigMap
      metadata:
        name: test-cm
        namespace: default
        labels:
          test-label: test
      data:
        key: some value
      """;

  private static List<String> managers(MapValue obj) {
    List<String> out = new ArrayList<>();
    for (Value e : managedFields(obj).items()) {
      out.add(str(e, "manager") + "/" + str(e, "operation"));
    }
    return out;
  }

  private static Value fieldsOf(MapValue obj, String manager) {
    for (Value e : managedFields(obj).items()) {
      if (manager.equals(str(e, "manager"))) {
        return ((MapValue) e).getOrNull("fieldsV1");
      }
    }
    return null;
  }

  @Test
  void applyCreatesTheObjectWithOneApplyEntry() {
    ApiResponse r = f.apply(CONFIGMAPS, "default", "test-cm", "kubectl", TEST_CM);

    assertThat(r.code()).isEqualTo(201);
    MapValue obj = r.body();
    assertThat(str(obj, "data", "key")).isEqualTo("some value");
    assertThat(managedFields(obj).size()).isEqualTo(1);
    MapValue e = entry(obj, 0);
    assertThat(Json.write(e)).isEqualTo("{\"manager\":\"kubectl\",\"operation\":\"Apply\","
        + "\"apiVersion\":\"v1\",\"time\":\"2024-01-02T03:04:05Z\",\"fieldsType\":\"FieldsV1\","
        + "\"fieldsV1\":{\"f:data\":{\"f:key\":{}},\"f:metadata\":{\"f:labels\":"
        + "{\"f:test-label\":{}}}}}");
    assertThat(f.get(CONFIGMAPS, "default", "test-cm").body()).isEqualTo(obj);
  }

  /** The ConfigMap of the docs with an Apply entry and a controller's Update entry. */
  private MapValue twoManagers() {
    f.apply(CONFIGMAPS, "default", "test-cm", "kubectl", TEST_CM).orThrow();
    f.clock.advance(Duration.ofMinutes(1));
    return f.patch(CONFIGMAPS, "default", "test-cm", PatchType.MERGE_PATCH,
        "{\"data\":{\"key\":\"new value\"}}", "kube-controller-manager").orThrow();
  }

  @Test
  void updateByAnotherManagerTakesOverTheFieldItChanged() {
    MapValue obj = twoManagers();

    assertThat(str(obj, "data", "key")).isEqualTo("new value");
    assertThat(managers(obj)).containsExactly("kubectl/Apply", "kube-controller-manager/Update");
    assertThat(fieldsOf(obj, "kubectl"))
        .isEqualTo(json("{\"f:metadata\":{\"f:labels\":{\"f:test-label\":{}}}}"));
    assertThat(fieldsOf(obj, "kube-controller-manager"))
        .isEqualTo(json("{\"f:data\":{\"f:key\":{}}}"));
    assertThat(str(entry(obj, 1), "time")).isEqualTo("2024-01-02T03:05:05Z");
    assertThat(str(entry(obj, 1), "apiVersion")).isEqualTo("v1");
  }

  @Test
  void reapplyingTheOldValueConflictsWithTheController() {
    twoManagers();

    ApiResponse r = f.apply(CONFIGMAPS, "default", "test-cm", "kubectl", TEST_CM);

    assertThat(r.code()).isEqualTo(409);
    assertThat(str(r.body(), "reason")).isEqualTo("Conflict");
    assertThat(str(r.body(), "message")).isEqualTo("Apply failed with 1 conflict: conflict with"
        + " \"kube-controller-manager\" using v1: .data.key");
    assertThat(at(r.body(), "details")).isEqualTo(json("{\"causes\":[{\"reason\":"
        + "\"FieldManagerConflict\",\"message\":\"conflict with \\\"kube-controller-manager\\\""
        + " using v1\",\"field\":\".data.key\"}]}"));
    assertThat(str(f.get(CONFIGMAPS, "default", "test-cm").body(), "data", "key"))
        .isEqualTo("new value");
  }

  @Test
  void conflictResolutionForceOverwritesAndTakesOwnership() {
    twoManagers();

    MapValue obj = f.forceApply(CONFIGMAPS, "default", "test-cm", "kubectl", TEST_CM).orThrow();

    assertThat(str(obj, "data", "key")).isEqualTo("some value");
    assertThat(managers(obj)).containsExactly("kubectl/Apply");
    assertThat(fieldsOf(obj, "kubectl")).isEqualTo(json("{\"f:data\":{\"f:key\":{}},"
        + "\"f:metadata\":{\"f:labels\":{\"f:test-label\":{}}}}"));
  }

  @Test
  void conflictResolutionDropTheFieldKeepsTheValueAndGivesUpOwnership() {
    twoManagers();

    MapValue obj = f.apply(CONFIGMAPS, "default", "test-cm", "kubectl", """
        apiVersion: v1
        kind: ConfigMap
        metadata:
          name: test-cm
          labels:
            test-label: test
        """).orThrow();

    assertThat(str(obj, "data", "key")).isEqualTo("new value");
    assertThat(fieldsOf(obj, "kubectl"))
        .isEqualTo(json("{\"f:metadata\":{\"f:labels\":{\"f:test-label\":{}}}}"));
    assertThat(fieldsOf(obj, "kube-controller-manager"))
        .isEqualTo(json("{\"f:data\":{\"f:key\":{}}}"));
  }

  @Test
  void conflictResolutionMatchTheValueSharesOwnership() {
    twoManagers();

    MapValue obj = f.apply(CONFIGMAPS, "default", "test-cm", "kubectl", """
        apiVersion: v1
        kind: ConfigMap
        metadata:
          name: test-cm
          labels:
            test-label: test
        data:
          key: new value
        """).orThrow();

    assertThat(str(obj, "data", "key")).isEqualTo("new value");
    assertThat(fieldsOf(obj, "kubectl")).isEqualTo(json("{\"f:data\":{\"f:key\":{}},"
        + "\"f:metadata\":{\"f:labels\":{\"f:test-label\":{}}}}"));
    assertThat(fieldsOf(obj, "kube-controller-manager"))
        .isEqualTo(json("{\"f:data\":{\"f:key\":{}}}"));
    // once shared, a change by either applier conflicts with the other
    ApiResponse r = f.apply(CONFIGMAPS, "default", "test-cm", "kubectl", TEST_CM);
    assertThat(r.code()).isEqualTo(409);
  }

  @Test
  void sharedOwnershipIsReleasedByOmission() {
    String both = """
        apiVersion: v1
        kind: ConfigMap
        metadata: {name: shared}
        data: {a: "1", b: "2"}
        """;
    f.apply(CONFIGMAPS, "default", "shared", "alice", both).orThrow();
    MapValue shared = f.apply(CONFIGMAPS, "default", "shared", "bob", both).orThrow();
    assertThat(fieldsOf(shared, "alice")).isEqualTo(fieldsOf(shared, "bob"));

    MapValue obj = f.apply(CONFIGMAPS, "default", "shared", "bob", """
        apiVersion: v1
        kind: ConfigMap
        metadata: {name: shared}
        data: {a: "1"}
        """).orThrow();

    assertThat(at(obj, "data")).isEqualTo(json("{\"a\":\"1\",\"b\":\"2\"}"));
    assertThat(fieldsOf(obj, "alice")).isEqualTo(json("{\"f:data\":{\"f:a\":{},\"f:b\":{}}}"));
    assertThat(fieldsOf(obj, "bob")).isEqualTo(json("{\"f:data\":{\"f:a\":{}}}"));
    // alice is now the only owner of b: she may change it without conflict
    MapValue changed = f.apply(CONFIGMAPS, "default", "shared", "alice", """
        apiVersion: v1
        kind: ConfigMap
        metadata: {name: shared}
        data: {a: "1", b: "3"}
        """).orThrow();
    assertThat(str(changed, "data", "b")).isEqualTo("3");
  }

  @Test
  void aFieldNoOneElseOwnsIsRemovedWhenTheApplierOmitsIt() {
    f.apply(CONFIGMAPS, "default", "cm", "alice", """
        apiVersion: v1
        kind: ConfigMap
        metadata: {name: cm, labels: {x: "1", y: "2"}}
        data: {a: "1", b: "2"}
        """).orThrow();

    MapValue obj = f.apply(CONFIGMAPS, "default", "cm", "alice", """
        apiVersion: v1
        kind: ConfigMap
        metadata: {name: cm, labels: {x: "1"}}
        data: {a: "1"}
        """).orThrow();

    assertThat(at(obj, "data")).isEqualTo(json("{\"a\":\"1\"}"));
    assertThat(at(obj, "metadata", "labels")).isEqualTo(json("{\"x\":\"1\"}"));
    assertThat(fieldsOf(obj, "alice")).isEqualTo(
        json("{\"f:data\":{\"f:a\":{}},\"f:metadata\":{\"f:labels\":{\"f:x\":{}}}}"));
  }

  private static final String NGINX = """
      apiVersion: apps/v1
      kind: Deployment
      metadata:
        name: nginx-deployment
        labels:
          app: nginx
      spec:
        replicas: 3
        selector:
          matchLabels:
            app: nginx
        template:
          metadata:
            labels:
              app: nginx
          spec:
            containers:
            - name: nginx
              image: nginx:1.14.2
      """;

  @Test
  void replicasAreHandedOverToTheAutoscalerThroughATemporaryManager() {
    f.apply(DEPLOYMENTS, "default", "nginx-deployment", "kubectl", NGINX).orThrow();

    // 1. the temporary manager applies only replicas, with the same value: shared ownership
    MapValue step1 = f.apply(DEPLOYMENTS, "default", "nginx-deployment", "handover-to-hpa", """
        apiVersion: apps/v1
        kind: Deployment
        metadata:
          name: nginx-deployment
        spec:
          replicas: 3
        """).orThrow();
    assertThat(fieldsOf(step1, "handover-to-hpa")).isEqualTo(json("{\"f:spec\":{\"f:replicas\":{}}}"));

    // 2. the user drops replicas from the configuration: the value stays (3, not the default 1)
    MapValue step2 = f.apply(DEPLOYMENTS, "default", "nginx-deployment", "kubectl",
        NGINX.replace("  replicas: 3\n", "")).orThrow();
    assertThat(at(step2, "spec", "replicas")).isEqualTo(Value.of(3L));
    assertThat(Json.write(fieldsOf(step2, "kubectl"))).doesNotContain("f:replicas");

    // 3. the autoscaler sets replicas: the temporary manager owns nothing more and disappears
    f.clock.advance(Duration.ofSeconds(30));
    MapValue step3 = f.server.handle(Fixtures.req(ApiRequest.Verb.PATCH, DEPLOYMENTS, "default",
            "nginx-deployment").subresource("scale").fieldManager("horizontal-pod-autoscaler")
        .patch(PatchType.MERGE_PATCH, "{\"spec\":{\"replicas\":5}}").build()).orThrow();
    assertThat(at(step3, "spec", "replicas")).isEqualTo(Value.of(5L));
    MapValue deployment = f.get(DEPLOYMENTS, "default", "nginx-deployment").orThrow();
    assertThat(managers(deployment)).containsExactly("kubectl/Apply",
        "horizontal-pod-autoscaler/Update");
    assertThat(fieldsOf(deployment, "horizontal-pod-autoscaler"))
        .isEqualTo(json("{\"f:spec\":{\"f:replicas\":{}}}"));
    assertThat(str(managedFields(deployment).get(1), "subresource")).isEqualTo("scale");
    assertThat(at(deployment, "spec", "replicas")).isEqualTo(Value.of(5L));
  }

  private static final String CSA_CONFIG = "{\"apiVersion\":\"apps/v1\",\"kind\":\"Deployment\","
      + "\"metadata\":{\"annotations\":{},\"name\":\"web\",\"namespace\":\"default\"},"
      + "\"spec\":{\"replicas\":2,\"selector\":{\"matchLabels\":{\"app\":\"web\"}},"
      + "\"template\":{\"metadata\":{\"labels\":{\"app\":\"web\"}},\"spec\":{\"containers\":"
      + "[{\"image\":\"nginx\",\"name\":\"web\"}]}}}}\n";

  /** What kubectl's client-side apply creates: the object with the last-applied annotation. */
  private void clientSideApply() {
    MapValue obj = Fixtures.jsonMap(CSA_CONFIG);
    obj = obj.with("metadata", ((MapValue) obj.getOrNull("metadata")).with("annotations",
        MapValue.ofEntries("kubectl.kubernetes.io/last-applied-configuration",
            Value.of(CSA_CONFIG))));
    f.create(DEPLOYMENTS, "default", obj, "kubectl-client-side-apply").orThrow();
  }

  private static final String SSA_CONFIG = """
      apiVersion: apps/v1
      kind: Deployment
      metadata: {name: web, namespace: default}
      spec:
        replicas: 2
        selector: {matchLabels: {app: web}}
        template:
          metadata: {labels: {app: web}}
          spec:
            containers:
            - {name: web, image: nginx}
      """;

  @Test
  void clientSideApplyUpgradesToServerSideApplyWithoutConflicts() {
    clientSideApply();

    // replicas is owned by kubectl-client-side-apply; kubectl may change it because the live
    // value still equals the last-applied configuration
    ApiResponse r = f.apply(DEPLOYMENTS, "default", "web", "kubectl",
        SSA_CONFIG.replace("replicas: 2", "replicas: 3"));

    assertThat(r.code()).isEqualTo(200);
    MapValue obj = r.body();
    assertThat(at(obj, "spec", "replicas")).isEqualTo(Value.of(3L));
    assertThat(managers(obj)).contains("kubectl/Apply");
    // the annotation is kept up to date (downgrade support): the applied configuration
    String lastApplied = str(obj, "metadata", "annotations",
        "kubectl.kubernetes.io/last-applied-configuration");
    assertThat(lastApplied).endsWith("\n");
    assertThat(Json.read(lastApplied))
        .isEqualTo(Fixtures.yaml(SSA_CONFIG.replace("replicas: 2", "replicas: 3")));
  }

  @Test
  void upgradeReportsOnlyFieldsChangedSinceTheLastClientSideApply() {
    clientSideApply();
    f.patch(DEPLOYMENTS, "default", "web", PatchType.MERGE_PATCH,
        "{\"spec\":{\"replicas\":4}}", "kubectl-scale").orThrow();

    // image still matches the annotation (forgiven); replicas was changed by someone else
    ApiResponse r = f.apply(DEPLOYMENTS, "default", "web", "kubectl",
        SSA_CONFIG.replace("replicas: 2", "replicas: 3").replace("image: nginx", "image: httpd"));

    assertThat(r.code()).isEqualTo(409);
    assertThat(str(r.body(), "message")).isEqualTo("Apply failed with 1 conflict: conflict with"
        + " \"kubectl-scale\" using apps/v1: .spec.replicas");
  }

  @Test
  void anotherManagerNameGetsNoUpgrade() {
    clientSideApply();

    ApiResponse r = f.apply(DEPLOYMENTS, "default", "web", "my-manager",
        SSA_CONFIG.replace("replicas: 2", "replicas: 3"));

    assertThat(r.code()).isEqualTo(409);
    assertThat(str(r.body(), "message")).isEqualTo("Apply failed with 1 conflict: conflict with"
        + " \"kubectl-client-side-apply\" using apps/v1: .spec.replicas");
  }

  @Test
  void withoutAnAnnotationNothingIsForgiven() {
    clientSideApply();
    f.patch(DEPLOYMENTS, "default", "web", PatchType.JSON_PATCH, "[{\"op\":\"remove\",\"path\":"
        + "\"/metadata/annotations/kubectl.kubernetes.io~1last-applied-configuration\"}]",
        "editor").orThrow();

    ApiResponse r = f.apply(DEPLOYMENTS, "default", "web", "kubectl",
        SSA_CONFIG.replace("replicas: 2", "replicas: 3"));

    assertThat(r.code()).isEqualTo(409);
  }

  @Test
  void clearingWithOneEmptyEntryRemovesAllManagedFields() {
    twoManagers();

    MapValue obj = f.patch(CONFIGMAPS, "default", "test-cm", PatchType.MERGE_PATCH,
        "{\"metadata\":{\"managedFields\":[{}]}}", "cleaner").orThrow();

    assertThat(managedFields(obj).size()).isZero();
    assertThat(((MapValue) obj.getOrNull("metadata")).containsKey("managedFields")).isFalse();
    // with no managedFields, later updates of the existing object are not tracked either
    MapValue later = f.patch(CONFIGMAPS, "default", "test-cm", PatchType.MERGE_PATCH,
        "{\"data\":{\"other\":\"x\"}}", "someone").orThrow();
    assertThat(managedFields(later).size()).isZero();
  }

  @Test
  void clearingWithAJsonPatchReplacingByOneEmptyEntry() {
    twoManagers();

    MapValue obj = f.patch(CONFIGMAPS, "default", "test-cm", PatchType.JSON_PATCH,
        "[{\"op\": \"replace\", \"path\": \"/metadata/managedFields\", \"value\": [{}]}]",
        "cleaner").orThrow();

    assertThat(managedFields(obj).size()).isZero();
  }

  @Test
  void anEmptyListResetsToo() {
    // kube-apiserver's code treats [] like [{}] (isResetManagedFields); the documentation's
    // remark that an empty list does not reset does not match the code.
    twoManagers();

    MapValue obj = f.patch(CONFIGMAPS, "default", "test-cm", PatchType.MERGE_PATCH,
        "{\"metadata\":{\"managedFields\":[]}}", "cleaner").orThrow();

    assertThat(managedFields(obj).size()).isZero();
  }

  @Test
  void omittingManagedFieldsKeepsThem() {
    MapValue before = twoManagers();
    MapValue body = before.with("metadata",
        ((MapValue) before.getOrNull("metadata")).without("managedFields"))
        .with("data", MapValue.ofEntries("key", Value.of("new value"), "other", Value.of("x")));

    f.clock.advance(Duration.ofSeconds(1));
    MapValue obj = f.update(CONFIGMAPS, "default", "test-cm", body, "editor").orThrow();

    assertThat(managers(obj)).containsExactly("kubectl/Apply", "kube-controller-manager/Update",
        "editor/Update");
  }
}
