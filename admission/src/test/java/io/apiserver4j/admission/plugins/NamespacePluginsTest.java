/*
 * Copyright The apiserver4j authors.
 * SPDX-License-Identifier: Apache-2.0
 */
package io.apiserver4j.admission.plugins;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import io.apiserver4j.admission.AdmissionAttributes;
import io.apiserver4j.admission.AdmissionChain;
import io.apiserver4j.admission.Operation;
import io.apiserver4j.admission.OperationOptions;
import io.apiserver4j.admission.TestObjects;
import io.apiserver4j.core.errors.ForbiddenException;
import io.apiserver4j.core.GroupResource;
import io.apiserver4j.core.GroupVersionKind;
import io.apiserver4j.core.GroupVersionResource;
import io.apiserver4j.core.MapValue;
import io.apiserver4j.core.errors.NotFoundException;
import io.apiserver4j.core.errors.StatusCause;
import io.apiserver4j.core.errors.StatusErrors;
import io.apiserver4j.core.Value;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import java.util.concurrent.ConcurrentHashMap;
import org.junit.jupiter.api.Test;

class NamespacePluginsTest {

  /** A namespace registry in memory, recording creations. */
  static final class InMemoryNamespaces implements NamespaceStore {
    final Map<String, NamespacePhase> phases = new ConcurrentHashMap<>();
    final List<String> created = new ArrayList<>();

    @Override
    public Optional<NamespacePhase> phase(String namespace) {
      return Optional.ofNullable(phases.get(namespace));
    }

    @Override
    public void create(String namespace) {
      if (phases.putIfAbsent(namespace, NamespacePhase.ACTIVE) != null) {
        throw StatusErrors.alreadyExists(new GroupResource("", "namespaces"), namespace);
      }
      created.add(namespace);
    }
  }

  private final InMemoryNamespaces namespaces = new InMemoryNamespaces();
  private final AdmissionChain chain = AdmissionChain.builder()
      .add(new NamespaceAutoProvision(namespaces))
      .add(new NamespaceLifecycle(namespaces))
      .build();

  private void admit(AdmissionAttributes a) {
    if (a.object().isPresent()) {
      chain.run(a, o -> o);
    } else {
      chain.admitWithoutObject(a);
      chain.validate(a);
    }
  }

  @Test
  void autoProvisionCreatesMissingNamespaceOnCreate() {
    admit(TestObjects.create("team-a", "x").build());
    assertThat(namespaces.created).containsExactly("team-a");
    admit(TestObjects.create("team-a", "y").build());
    assertThat(namespaces.created).containsExactly("team-a");
  }

  @Test
  void autoProvisionNeverCreatesOnDryRunAndLifecycleRejects() {
    assertThatThrownBy(() -> admit(TestObjects.dryRunCreate("team-b", "x").build()))
        .isInstanceOfSatisfying(NotFoundException.class, e -> {
          assertThat(e.getMessage()).isEqualTo("namespaces \"team-b\" not found");
          assertThat(e.status().toJson()).contains("\"details\":{\"name\":\"team-b\","
              + "\"kind\":\"namespaces\"},\"code\":404");
        });
    assertThat(namespaces.created).isEmpty();
    assertThat(namespaces.phases).isEmpty();
  }

  @Test
  void autoProvisionToleratesAConcurrentCreation() {
    NamespaceStore racing = new NamespaceStore() {
      @Override
      public Optional<NamespacePhase> phase(String namespace) {
        return Optional.empty();
      }

      @Override
      public void create(String namespace) {
        throw StatusErrors.alreadyExists(new GroupResource("", "namespaces"), namespace);
      }
    };
    NamespaceAutoProvision p = new NamespaceAutoProvision(racing);
    AdmissionAttributes a = TestObjects.create("ns", "x").build();
    assertThat(p.admit(a, a.object().orElseThrow())).isSameAs(a.object().orElseThrow());
  }

  @Test
  void autoProvisionFailureIsForbidden() {
    NamespaceStore broken = new NamespaceStore() {
      @Override
      public Optional<NamespacePhase> phase(String namespace) {
        return Optional.empty();
      }

      @Override
      public void create(String namespace) {
        throw StatusErrors.serviceUnavailable("storage is down");
      }
    };
    NamespaceAutoProvision p = new NamespaceAutoProvision(broken);
    AdmissionAttributes a = TestObjects.create("ns", "x").build();
    assertThatThrownBy(() -> p.admit(a, a.object().orElseThrow()))
        .isInstanceOf(ForbiddenException.class)
        .hasMessage("configmaps \"x\" is forbidden: storage is down");
  }

  @Test
  void autoProvisionIgnoresClusterScopedAndNamespaces() {
    AdmissionAttributes ns = namespaceCreate("new-ns");
    admit(ns);
    AdmissionAttributes clusterScoped = TestObjects.create("", "x").build();
    new NamespaceAutoProvision(namespaces).admit(clusterScoped, clusterScoped.object().get());
    assertThat(namespaces.created).isEmpty();
  }

  @Test
  void lifecycleRejectsCreateInTerminatingNamespace() {
    namespaces.phases.put("old", NamespacePhase.TERMINATING);
    assertThatThrownBy(() -> admit(TestObjects.create("old", "x").build()))
        .isInstanceOfSatisfying(ForbiddenException.class, e -> {
          assertThat(e.getMessage()).isEqualTo("configmaps \"x\" is forbidden: unable to create"
              + " new content in namespace old because it is being terminated");
          assertThat(e.status().causes()).containsExactly(new StatusCause(
              "NamespaceTerminating", "namespace old is being terminated", "metadata.namespace"));
          assertThat(e.status().details().orElseThrow().kind()).isEqualTo("configmaps");
        });
  }

  @Test
  void lifecycleAllowsUpdatesAndDeletesInTerminatingOrMissingNamespaces() {
    namespaces.phases.put("old", NamespacePhase.TERMINATING);
    NamespaceLifecycle lifecycle = new NamespaceLifecycle(namespaces);
    lifecycle.validate(update("old", "x"));
    lifecycle.validate(TestObjects.delete("old", "x").build());
    lifecycle.validate(update("gone", "x"));
    lifecycle.validate(TestObjects.delete("gone", "x").build());
  }

  @Test
  void lifecycleExemptions() {
    NamespaceLifecycle lifecycle = new NamespaceLifecycle(namespaces);
    // cluster-scoped object
    lifecycle.validate(TestObjects.create("", "x").build());
    // the namespace object itself
    lifecycle.validate(namespaceCreate("brand-new"));
    // access reviews never reveal whether a namespace exists
    lifecycle.validate(TestObjects.create("secret-ns", "review")
        .resource(new GroupVersionResource("authorization.k8s.io", "v1",
            "localsubjectaccessreviews"))
        .kind(new GroupVersionKind("authorization.k8s.io", "v1", "LocalSubjectAccessReview"))
        .build());
    assertThat(lifecycle.handles(TestObjects.create("ns", "x").operation(Operation.CONNECT)
        .options(MapValue.empty()).build())).isFalse();
  }

  @Test
  void immortalNamespacesCannotBeDeleted() {
    for (String ns : List.of("default", "kube-system", "kube-public")) {
      assertThatThrownBy(() -> admit(namespaceDelete(ns)))
          .isInstanceOfSatisfying(ForbiddenException.class, e -> {
            assertThat(e.getMessage())
                .isEqualTo("namespaces \"" + ns + "\" is forbidden: this namespace may not be deleted");
            assertThat(e.status().details().orElseThrow().name()).isEqualTo(ns);
          });
    }
    admit(namespaceDelete("ordinary"));
    NamespaceLifecycle custom = new NamespaceLifecycle(namespaces, java.util.Set.of("keep"));
    assertThatThrownBy(() -> custom.validate(namespaceDelete("keep")))
        .hasMessage("namespaces \"keep\" is forbidden: this namespace may not be deleted");
    custom.validate(namespaceDelete("default"));
  }

  @Test
  void existingActiveNamespaceAdmits() {
    namespaces.phases.put("live", NamespacePhase.ACTIVE);
    admit(TestObjects.create("live", "x").build());
    admit(TestObjects.dryRunCreate("live", "x").build());
    assertThat(namespaces.created).isEmpty();
  }

  private static final GroupVersionResource NAMESPACES_GVR =
      new GroupVersionResource("", "v1", "namespaces");
  private static final GroupVersionKind NAMESPACE_GVK = new GroupVersionKind("", "v1", "Namespace");

  private static AdmissionAttributes namespaceCreate(String name) {
    MapValue ns = MapValue.ofEntries("apiVersion", Value.of("v1"), "kind", Value.of("Namespace"),
        "metadata", MapValue.ofEntries("name", Value.of(name)));
    return AdmissionAttributes.builder().operation(Operation.CREATE).resource(NAMESPACES_GVR)
        .kind(NAMESPACE_GVK).name(name).object(ns).build();
  }

  private static AdmissionAttributes namespaceDelete(String name) {
    MapValue ns = MapValue.ofEntries("apiVersion", Value.of("v1"), "kind", Value.of("Namespace"),
        "metadata", MapValue.ofEntries("name", Value.of(name)));
    // kube sets the namespace of a namespace request to the namespace's own name
    return AdmissionAttributes.builder().operation(Operation.DELETE).resource(NAMESPACES_GVR)
        .kind(NAMESPACE_GVK).name(name).namespace(name).oldObject(ns)
        .options(OperationOptions.of(Operation.DELETE, false, "")).build();
  }

  private static AdmissionAttributes update(String namespace, String name) {
    return TestObjects.create(namespace, name).operation(Operation.UPDATE)
        .oldObject(TestObjects.configMap(namespace, name))
        .options(OperationOptions.of(Operation.UPDATE, false, "test")).build();
  }
}
