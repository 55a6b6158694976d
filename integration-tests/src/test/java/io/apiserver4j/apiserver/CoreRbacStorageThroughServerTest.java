/*
 * Copyright The apiserver4j authors.
 * SPDX-License-Identifier: Apache-2.0
 */
package io.apiserver4j.apiserver;

import static io.apiserver4j.apiserver.Fixtures.at;
import static io.apiserver4j.apiserver.Fixtures.req;
import static io.apiserver4j.apiserver.Fixtures.str;
import static io.apiserver4j.apiserver.Fixtures.yaml;
import static org.assertj.core.api.Assertions.assertThat;

import io.apiserver4j.apiserver.ApiRequest.Verb;
import io.apiserver4j.core.GroupVersionResource;
import io.apiserver4j.core.Value;
import org.junit.jupiter.api.Test;

/**
 * The strategies of PersistentVolumeClaims, RoleBindings, ConfigMaps, StorageClasses and
 * FlowSchemas through the server: defaults on create and dry run, kube's 422 messages, and
 * a refused write stores nothing (kube-apiserver's registry behaviour).
 */
class CoreRbacStorageThroughServerTest {
  private static final GroupVersionResource PVCS =
      new GroupVersionResource("", "v1", "persistentvolumeclaims");
  private static final GroupVersionResource ROLEBINDINGS =
      new GroupVersionResource("rbac.authorization.k8s.io", "v1", "rolebindings");
  private static final GroupVersionResource STORAGECLASSES =
      new GroupVersionResource("storage.k8s.io", "v1", "storageclasses");
  private final Fixtures f = new Fixtures();

  private static final String PVC = """
      apiVersion: v1
      kind: PersistentVolumeClaim
      metadata: {name: data}
      spec:
        accessModes: [ReadWriteOnce]
        resources: {requests: {storage: 1Gi}}
      """;

  @Test
  void aDryRunPvcShowsItsDefaultsAndStoresNothing() {
    ApiResponse r = f.server.handle(req(Verb.CREATE, PVCS, "default", "").body(yaml(PVC))
        .fieldManager("kubectl").dryRun(true).build());

    assertThat(r.code()).isEqualTo(201);
    assertThat(str(r.body(), "spec", "volumeMode")).isEqualTo("Filesystem");
    assertThat(str(r.body(), "status", "phase")).isEqualTo("Pending");
    assertThat(f.get(PVCS, "default", "data").code()).isEqualTo(404);
  }

  @Test
  void anInvalidPvcIsRefusedWithKubesMessageAlsoInADryRun() {
    String body = PVC.replace("accessModes: [ReadWriteOnce]", "accessModes: []");
    for (boolean dryRun : new boolean[] {true, false}) {
      ApiResponse r = f.server.handle(req(Verb.CREATE, PVCS, "default", "").body(yaml(body))
          .fieldManager("kubectl").dryRun(dryRun).build());

      assertThat(r.code()).isEqualTo(422);
      assertThat(str(r.body(), "message")).isEqualTo("PersistentVolumeClaim \"data\" is invalid:"
          + " spec.accessModes: Required value: at least 1 access mode is required");
    }
    assertThat(f.get(PVCS, "default", "data").code()).isEqualTo(404);
  }

  @Test
  void anUnboundPvcSpecIsImmutable() {
    f.create(PVCS, "default", yaml(PVC), "kubectl").orThrow();

    ApiResponse r = f.forceApply(PVCS, "default", "data", "kubectl",
        PVC.replace("[ReadWriteOnce]", "[ReadWriteMany]"));

    assertThat(r.code()).isEqualTo(422);
    assertThat(str(r.body(), "message")).startsWith("PersistentVolumeClaim \"data\" is invalid:"
        + " spec: Forbidden: spec is immutable after creation except resources.requests and"
        + " volumeAttributesClassName for bound claims");
  }

  @Test
  void aRoleBindingGetsDefaultsAndKeepsItsRoleRef() {
    String rb = """
        apiVersion: rbac.authorization.k8s.io/v1
        kind: RoleBinding
        metadata: {name: rb}
        roleRef: {kind: Role, name: reader}
        subjects: [{kind: User, name: alice}]
        """;
    ApiResponse created = f.create(ROLEBINDINGS, "default", yaml(rb), "kubectl");
    assertThat(created.code()).isEqualTo(201);
    assertThat(str(created.body(), "roleRef", "apiGroup")).isEqualTo("rbac.authorization.k8s.io");
    assertThat(at(created.body(), "subjects")).isEqualTo(Fixtures.json(
        "[{\"kind\":\"User\",\"name\":\"alice\",\"apiGroup\":\"rbac.authorization.k8s.io\"}]"));

    ApiResponse r = f.forceApply(ROLEBINDINGS, "default", "rb", "kubectl",
        rb.replace("kind: Role,", "kind: ClusterRole,"));

    assertThat(r.code()).isEqualTo(422);
    assertThat(str(r.body(), "message")).isEqualTo("RoleBinding.rbac.authorization.k8s.io \"rb\""
        + " is invalid: roleRef: Invalid value: {\"APIGroup\":\"rbac.authorization.k8s.io\","
        + "\"Kind\":\"ClusterRole\",\"Name\":\"reader\"}: cannot change roleRef");
  }

  @Test
  void anImmutableConfigMapKeepsItsData() {
    String cm = """
        apiVersion: v1
        kind: ConfigMap
        metadata: {name: c}
        data: {k: before}
        immutable: true
        """;
    f.create(Fixtures.CONFIGMAPS, "default", yaml(cm), "kubectl").orThrow();

    ApiResponse r = f.forceApply(Fixtures.CONFIGMAPS, "default", "c", "kubectl",
        cm.replace("before", "after"));

    assertThat(r.code()).as(r.body().toString()).isEqualTo(422);
    assertThat(str(r.body(), "message")).isEqualTo("ConfigMap \"c\" is invalid: data: Forbidden:"
        + " field is immutable when `immutable` is set");
    assertThat(at(f.get(Fixtures.CONFIGMAPS, "default", "c").orThrow(), "data", "k"))
        .isEqualTo(Value.of("before"));
  }

  @Test
  void aStorageClassGetsItsDefaults() {
    ApiResponse r = f.create(STORAGECLASSES, "", yaml("""
        apiVersion: storage.k8s.io/v1
        kind: StorageClass
        metadata: {name: fast}
        provisioner: ebs.csi.aws.com
        """), "kubectl");

    assertThat(r.code()).isEqualTo(201);
    assertThat(str(r.body(), "reclaimPolicy")).isEqualTo("Delete");
    assertThat(str(r.body(), "volumeBindingMode")).isEqualTo("Immediate");
  }
}
