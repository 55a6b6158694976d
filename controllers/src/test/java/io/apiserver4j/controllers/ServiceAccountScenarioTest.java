/*
 * Copyright The apiserver4j authors.
 * SPDX-License-Identifier: Apache-2.0
 */
package io.apiserver4j.controllers;

import static org.assertj.core.api.Assertions.assertThat;

import io.apiserver4j.apiserver.ApiServer;
import io.apiserver4j.apiserver.ResourceClient;
import io.apiserver4j.core.GroupVersionResource;
import io.apiserver4j.core.Json;
import io.apiserver4j.core.MapValue;
import io.apiserver4j.core.Meta;
import io.apiserver4j.core.Nested;
import io.apiserver4j.core.Value;
import java.time.Duration;
import java.util.List;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;

/**
 * kube-controller-manager's serviceaccount and root-ca-cert-publisher controllers (the server's
 * implementations, run by the manager in place of the server's own instances and counted by its
 * quiescence wait): kube's {@code --controllers=*,-serviceaccount} leaves a new namespace without
 * its {@code default} ServiceAccount (the server's own instance is stopped too); the publisher restores a deleted or edited
 * {@code kube-root-ca.crt} (kube's publisher_test: a deleted ConfigMap is created again, a
 * changed one is updated back).
 */
class ServiceAccountScenarioTest {
  private static final Duration IDLE = Duration.ofSeconds(30);
  private static final String CA = "-----BEGIN CERTIFICATE-----\nMIIB\n-----END CERTIFICATE-----\n";
  private static final GroupVersionResource NAMESPACES =
      new GroupVersionResource("", "v1", "namespaces");
  private static final GroupVersionResource SERVICE_ACCOUNTS =
      new GroupVersionResource("", "v1", "serviceaccounts");
  private static final GroupVersionResource CONFIGMAPS =
      new GroupVersionResource("", "v1", "configmaps");

  private final SettableClock clock = new SettableClock("2026-01-01T00:00:00Z");
  private ApiServer api;
  private ControllerManager controllers;

  @BeforeEach
  void start() {
    api = ApiServer.builder().bootstrap(false).clock(clock).rootCaCertificate(CA).build();
  }

  @AfterEach
  void stop() {
    if (controllers != null) {
      controllers.close();
    }
    api.close();
  }

  private void startManager(String... flags) {
    controllers = ControllerManager.builder(api).clock(clock).controllers(List.of(flags)).start();
  }

  private void idle() {
    assertThat(controllers.awaitIdle(IDLE)).as("idle").isTrue();
  }

  private void createNamespace(String name) {
    api.resources(NAMESPACES).create(Json.read("{\"apiVersion\":\"v1\",\"kind\":\"Namespace\","
        + "\"metadata\":{\"name\":\"" + name + "\"}}"));
  }

  private ResourceClient serviceAccounts(String namespace) {
    return api.resources(SERVICE_ACCOUNTS).namespace(namespace);
  }

  private ResourceClient configMaps(String namespace) {
    return api.resources(CONFIGMAPS).namespace(namespace);
  }

  private static List<String> managers(MapValue object) {
    return Nested.list(object, "metadata", "managedFields").stream()
        .map(e -> Nested.str(e, "manager")).toList();
  }

  @Test
  void theManagerRunsBothInTheServersPlaceAndAwaitIdleCoversThem() {
    startManager("serviceaccount", "root-ca-cert-publisher");
    assertThat(controllers.controllers()).containsExactly("serviceaccount-controller",
        "root-ca-certificate-publisher-controller");
    createNamespace("team");
    idle();
    // no watch: the quiescence wait saw the controllers' work
    assertThat(serviceAccounts("team").find("default")).isPresent();
    MapValue ca = configMaps("team").get("kube-root-ca.crt");
    assertThat(Nested.str(ca, "data", "ca.crt")).isEqualTo(CA);
    assertThat(managers(ca)).containsExactly("kube-controller-manager");

    serviceAccounts("team").delete("default");
    idle();
    assertThat(serviceAccounts("team").find("default")).isPresent();
  }

  @Test
  void withoutTheServiceAccountControllerANewNamespaceHasNoDefaultServiceAccount() {
    startManager("*", "-serviceaccount");
    assertThat(controllers.controllers()).doesNotContain("serviceaccount-controller")
        .contains("root-ca-certificate-publisher-controller");
    createNamespace("bare");
    idle();
    assertThat(serviceAccounts("bare").find("default")).isEmpty();
    // the publisher still runs
    assertThat(configMaps("bare").find("kube-root-ca.crt")).isPresent();
  }

  @Test
  void aDeletedRootCaConfigMapIsCreatedAgain() {
    startManager("root-ca-cert-publisher");
    createNamespace("team");
    idle();
    configMaps("team").delete("kube-root-ca.crt");
    idle();
    MapValue ca = configMaps("team").get("kube-root-ca.crt");
    assertThat(Nested.str(ca, "data", "ca.crt")).isEqualTo(CA);
  }

  @Test
  void anEditedRootCaConfigMapIsSetBack() {
    startManager("root-ca-cert-publisher");
    createNamespace("team");
    idle();
    MapValue ca = configMaps("team").get("kube-root-ca.crt");
    configMaps("team").update(ca.with("data", MapValue.ofEntries("ca.crt", Value.of("changed"),
        "other", Value.of("x"))));
    idle();
    MapValue restored = configMaps("team").get("kube-root-ca.crt");
    // kube's publisher replaces the data with the CA alone
    assertThat(Nested.map(restored, "data")).isEqualTo(MapValue.ofEntries("ca.crt",
        Value.of(CA)));
    assertThat(Meta.annotations(restored)).containsKey("kubernetes.io/description");
  }

  @Test
  void theServersInstanceComesBackWhenTheManagerStops() throws InterruptedException {
    startManager("serviceaccount");
    controllers.close();
    controllers = null;
    // the server runs its own again, which writes in the background: wait on a watch
    var watch = serviceAccounts("late").watch();
    try {
      createNamespace("late");
      while (serviceAccounts("late").find("default").isEmpty()) {
        assertThat(watch.poll(IDLE)).as("a ServiceAccount event").isPresent();
      }
    } finally {
      watch.close();
    }
  }
}
