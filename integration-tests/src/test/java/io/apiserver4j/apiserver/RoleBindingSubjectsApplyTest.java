/*
 * Copyright The apiserver4j authors.
 * SPDX-License-Identifier: Apache-2.0
 */
package io.apiserver4j.apiserver;

import static io.apiserver4j.apiserver.Fixtures.str;
import static org.assertj.core.api.Assertions.assertThat;

import io.apiserver4j.core.GroupVersionResource;
import io.apiserver4j.core.MapValue;
import io.apiserver4j.core.Nested;
import io.apiserver4j.core.Value;
import org.junit.jupiter.api.Test;

/**
 * A RoleBinding with a ServiceAccount subject is stored as kube stores it: {@code
 * SetDefaults_Subject} gives a service account the core group, {@code ""}, which Go's {@code
 * omitempty} never writes. So the stored subjects are what a manifest says, two managers applying
 * the same binding share {@code .subjects} without a conflict, and an unchanged apply changes
 * nothing (the same resourceVersion). (A User subject is written with its group, as manifests
 * and {@code kubectl create rolebinding} write it: kube defaults a missing one into the atomic
 * list, which a second manager's apply without it would change.)
 */
class RoleBindingSubjectsApplyTest {
  private static final GroupVersionResource ROLEBINDINGS =
      new GroupVersionResource("rbac.authorization.k8s.io", "v1", "rolebindings");
  private static final GroupVersionResource CLUSTERROLEBINDINGS =
      new GroupVersionResource("rbac.authorization.k8s.io", "v1", "clusterrolebindings");

  private static final String BINDING = """
      apiVersion: rbac.authorization.k8s.io/v1
      kind: RoleBinding
      metadata: {name: read-pods, namespace: default}
      roleRef: {apiGroup: rbac.authorization.k8s.io, kind: Role, name: pod-reader}
      subjects:
      - {kind: ServiceAccount, name: builder, namespace: default}
      - {kind: User, name: jane, apiGroup: rbac.authorization.k8s.io}
      """;

  private final Fixtures f = new Fixtures();

  private static MapValue subject(Value binding, int i) {
    return (MapValue) Nested.list(binding, "subjects").get(i);
  }

  @Test
  void aServiceAccountSubjectIsStoredWithoutAnApiGroup() {
    ApiResponse r = f.apply(ROLEBINDINGS, "default", "read-pods", "kubectl", BINDING);
    assertThat(r.code()).as("%s", r.body()).isEqualTo(201);
    MapValue sa = subject(r.body(), 0);
    assertThat(sa.containsKey("apiGroup")).as("%s", sa).isFalse();
    assertThat(str(subject(r.body(), 1), "apiGroup")).isEqualTo("rbac.authorization.k8s.io");
    // what was stored is what a read gives
    MapValue stored = subject(f.get(ROLEBINDINGS, "default", "read-pods").body(), 0);
    assertThat(stored.containsKey("apiGroup")).isFalse();
  }

  @Test
  void anExplicitEmptyApiGroupIsNotStoredEither() {
    ApiResponse r = f.apply(CLUSTERROLEBINDINGS, "", "view-all", "kubectl", """
        apiVersion: rbac.authorization.k8s.io/v1
        kind: ClusterRoleBinding
        metadata: {name: view-all}
        roleRef: {apiGroup: rbac.authorization.k8s.io, kind: ClusterRole, name: view}
        subjects: [{kind: ServiceAccount, apiGroup: "", name: builder, namespace: default}]
        """);
    assertThat(r.code()).as("%s", r.body()).isEqualTo(201);
    assertThat((subject(r.body(), 0)).containsKey("apiGroup")).isFalse();
  }

  @Test
  void twoManagersApplyingTheSameBindingDoNotConflict() {
    ApiResponse first = f.apply(ROLEBINDINGS, "default", "read-pods", "kubectl", BINDING);
    assertThat(first.code()).isEqualTo(201);
    ApiResponse second = f.apply(ROLEBINDINGS, "default", "read-pods", "argocd", BINDING);
    assertThat(second.code()).as("%s", second.body()).isEqualTo(200);
    // both now own the atomic subjects list
    assertThat(Fixtures.managedFields((MapValue) second.body()).size()).isEqualTo(2);
  }

  @Test
  void anUnchangedApplyIsANoOp() {
    ApiResponse first = f.apply(ROLEBINDINGS, "default", "read-pods", "kubectl", BINDING);
    String rv = str(first.body(), "metadata", "resourceVersion");
    ApiResponse again = f.apply(ROLEBINDINGS, "default", "read-pods", "kubectl", BINDING);
    assertThat(again.code()).isEqualTo(200);
    assertThat(str(again.body(), "metadata", "resourceVersion")).isEqualTo(rv);
  }
}
