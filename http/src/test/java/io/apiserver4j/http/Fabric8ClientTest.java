/*
 * Copyright The apiserver4j authors.
 * SPDX-License-Identifier: Apache-2.0
 */
package io.apiserver4j.http;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import io.apiserver4j.apiserver.ApiServer;
import io.fabric8.kubernetes.api.model.ConfigMap;
import io.fabric8.kubernetes.api.model.ConfigMapBuilder;
import io.fabric8.kubernetes.api.model.NamespaceBuilder;
import io.fabric8.kubernetes.api.model.apps.Deployment;
import io.fabric8.kubernetes.api.model.apps.DeploymentBuilder;
import io.fabric8.kubernetes.client.Config;
import io.fabric8.kubernetes.client.ConfigBuilder;
import io.fabric8.kubernetes.client.KubernetesClient;
import io.fabric8.kubernetes.client.KubernetesClientBuilder;
import io.fabric8.kubernetes.client.KubernetesClientException;
import io.fabric8.kubernetes.client.Watch;
import io.fabric8.kubernetes.client.Watcher;
import io.fabric8.kubernetes.client.WatcherException;
import java.util.List;
import java.util.Map;
import java.util.concurrent.BlockingQueue;
import java.util.concurrent.LinkedBlockingQueue;
import java.util.concurrent.TimeUnit;
import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;

/** The fabric8 Kubernetes client, unchanged, against the HTTP server. */
class Fabric8ClientTest {
  static ApiServer api;
  static HttpApiServer http;
  static KubernetesClient client;

  @BeforeAll
  static void start() {
    api = ApiServer.builder().build();
    http = HttpApiServer.builder(api).build();
    http.start();
    Config config = new ConfigBuilder(Config.empty()).withMasterUrl(http.url().toString())
        .withNamespace("default").withRequestTimeout(10_000).build();
    client = new KubernetesClientBuilder().withConfig(config).build();
    // "default" exists from the start, as in kube-apiserver
    for (String ns : List.of("f8-list", "f8-watch")) {
      client.namespaces().resource(new NamespaceBuilder().withNewMetadata().withName(ns)
          .endMetadata().build()).create();
    }
  }

  @AfterAll
  static void stop() {
    client.close();
    http.close();
    api.close();
  }

  static ConfigMap configMap(String name, Map<String, String> labels, Map<String, String> data) {
    return new ConfigMapBuilder().withNewMetadata().withName(name).withLabels(labels)
        .endMetadata().withData(data).build();
  }

  @Test
  void createGetAndListWithSelectors() {
    client.configMaps().inNamespace("f8-list")
        .resource(configMap("a", Map.of("tier", "web"), Map.of("k", "1"))).create();
    client.configMaps().inNamespace("f8-list")
        .resource(configMap("b", Map.of("tier", "db"), Map.of("k", "2"))).create();
    ConfigMap a = client.configMaps().inNamespace("f8-list").withName("a").get();
    assertThat(a.getData()).containsEntry("k", "1");
    assertThat(a.getMetadata().getUid()).isNotEmpty();
    assertThat(a.getMetadata().getCreationTimestamp()).isNotEmpty();
    assertThat(client.configMaps().inNamespace("f8-list").withLabel("tier", "db").list()
        .getItems()).extracting(c -> c.getMetadata().getName()).containsExactly("b");
    assertThat(client.configMaps().inNamespace("f8-list").withField("metadata.name", "a").list()
        .getItems()).extracting(c -> c.getMetadata().getName()).containsExactly("a");
    assertThat(client.configMaps().inAnyNamespace().withLabelIn("tier", "web", "db").list()
        .getItems()).hasSize(2);
    assertThat(client.configMaps().inNamespace("f8-list").withName("absent").get()).isNull();
  }

  @Test
  void serverSideApplyWithForceAndDryRun() {
    Deployment d = new DeploymentBuilder().withNewMetadata().withName("ssa").endMetadata()
        .withNewSpec().withReplicas(2).withNewSelector().addToMatchLabels("app", "ssa")
        .endSelector().withNewTemplate().withNewMetadata().addToLabels("app", "ssa")
        .endMetadata().withNewSpec().addNewContainer().withName("main").withImage("nginx")
        .endContainer().endSpec().endTemplate().endSpec().build();
    Deployment applied = client.apps().deployments().resource(d).fieldManager("fabric8")
        .serverSideApply();
    assertThat(applied.getSpec().getReplicas()).isEqualTo(2);
    assertThat(applied.getMetadata().getManagedFields()).anySatisfy(m -> {
      assertThat(m.getManager()).isEqualTo("fabric8");
      assertThat(m.getOperation()).isEqualTo("Apply");
    });

    Deployment other = new DeploymentBuilder(d).editSpec().withReplicas(5).endSpec().build();
    assertThatThrownBy(() -> client.apps().deployments().resource(other).fieldManager("other")
        .serverSideApply())
        .isInstanceOfSatisfying(KubernetesClientException.class, e -> {
          assertThat(e.getCode()).isEqualTo(409);
          assertThat(e.getStatus().getMessage())
              .isEqualTo("Apply failed with 1 conflict: conflict with \"fabric8\": .spec.replicas");
        });

    Deployment dry = client.apps().deployments().resource(other).dryRun().fieldManager("other")
        .forceConflicts().serverSideApply();
    assertThat(dry.getSpec().getReplicas()).isEqualTo(5);
    assertThat(client.apps().deployments().withName("ssa").get().getSpec().getReplicas())
        .isEqualTo(2);

    Deployment forced = client.apps().deployments().resource(other).fieldManager("other")
        .forceConflicts().serverSideApply();
    assertThat(forced.getSpec().getReplicas()).isEqualTo(5);
  }

  @Test
  void staleUpdateIs409() {
    ConfigMap created = client.configMaps()
        .resource(configMap("stale", Map.of(), Map.of("v", "1"))).create();
    ConfigMap fresh = new ConfigMapBuilder(created).withData(Map.of("v", "2")).build();
    client.configMaps().resource(fresh).update();
    ConfigMap stale = new ConfigMapBuilder(created).withData(Map.of("v", "3")).build();
    assertThatThrownBy(() -> client.configMaps().resource(stale).update())
        .isInstanceOfSatisfying(KubernetesClientException.class, e -> {
          assertThat(e.getCode()).isEqualTo(409);
          assertThat(e.getStatus().getReason()).isEqualTo("Conflict");
          assertThat(e.getStatus().getMessage()).isEqualTo("Operation cannot be fulfilled on"
              + " configmaps \"stale\": the object has been modified; please apply your changes"
              + " to the latest version and try again");
        });
    assertThat(client.configMaps().withName("stale").get().getData()).containsEntry("v", "2");
  }

  @Test
  void watchSeesChanges() throws Exception {
    BlockingQueue<String> events = new LinkedBlockingQueue<>();
    // without kube-root-ca.crt, which the root-ca-cert-publisher writes at its own time
    try (Watch w = client.configMaps().inNamespace("f8-watch")
        .withoutField("metadata.name", "kube-root-ca.crt").watch(new Watcher<>() {
      @Override
      public void eventReceived(Action action, ConfigMap resource) {
        events.add(action + " " + resource.getMetadata().getName());
      }

      @Override
      public void onClose(WatcherException cause) {
        events.add("CLOSED");
      }
    })) {
      client.configMaps().inNamespace("f8-watch")
          .resource(configMap("w", Map.of(), Map.of("a", "1"))).create();
      assertThat(events.poll(10, TimeUnit.SECONDS)).isEqualTo("ADDED w");
      client.configMaps().inNamespace("f8-watch").withName("w")
          .edit(c -> new ConfigMapBuilder(c).addToData("b", "2").build());
      assertThat(events.poll(10, TimeUnit.SECONDS)).isEqualTo("MODIFIED w");
      client.configMaps().inNamespace("f8-watch").withName("w").delete();
      assertThat(events.poll(10, TimeUnit.SECONDS)).isEqualTo("DELETED w");
    }
  }

  @Test
  void informerListsThenWatches() throws Exception {
    client.configMaps().inNamespace("f8-list")
        .resource(configMap("inf", Map.of("inf", "yes"), Map.of())).create();
    BlockingQueue<String> seen = new LinkedBlockingQueue<>();
    var informer = client.configMaps().inNamespace("f8-list").withLabel("inf", "yes")
        .inform(new io.fabric8.kubernetes.client.informers.ResourceEventHandler<>() {
          @Override
          public void onAdd(ConfigMap obj) {
            seen.add("add " + obj.getMetadata().getName());
          }

          @Override
          public void onUpdate(ConfigMap oldObj, ConfigMap newObj) {
            seen.add("update " + newObj.getMetadata().getName());
          }

          @Override
          public void onDelete(ConfigMap obj, boolean deletedFinalStateUnknown) {
            seen.add("delete " + obj.getMetadata().getName());
          }
        });
    try {
      assertThat(seen.poll(10, TimeUnit.SECONDS)).isEqualTo("add inf");
      client.configMaps().inNamespace("f8-list")
          .resource(configMap("inf2", Map.of("inf", "yes"), Map.of())).create();
      assertThat(seen.poll(10, TimeUnit.SECONDS)).isEqualTo("add inf2");
    } finally {
      informer.close();
    }
  }
}
