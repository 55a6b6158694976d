/*
 * Copyright The apiserver4j authors.
 * SPDX-License-Identifier: Apache-2.0
 */
package io.apiserver4j.auth.audit;

import static org.assertj.core.api.Assertions.assertThat;

import io.apiserver4j.apiserver.ApiServer;
import io.apiserver4j.core.MapValue;
import io.apiserver4j.core.Nested;
import io.apiserver4j.http.HttpApiServer;
import java.net.URI;
import java.net.http.HttpClient;
import java.net.http.HttpRequest;
import java.net.http.HttpResponse;
import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;

/**
 * A policy's own {@code omitStages} and {@code omitManagedFields} ({@code policy-wide.yaml}),
 * one rule setting {@code omitManagedFields: false} back: kube's policy evaluator semantics,
 * through a server without authentication (its requests run as {@code system:unsecured}).
 */
class AuditPolicyWideTest {
  static RecordingSink events = new RecordingSink();
  static ApiServer api;
  static HttpApiServer http;
  static HttpClient client = HttpClient.newHttpClient();

  @BeforeAll
  static void start() {
    api = ApiServer.builder().build();
    http = HttpApiServer.builder(api)
        .auditor(Audit.of(AuditPolicy.parse(AuditPolicyTest.resource("policy-wide.yaml")),
            events))
        .start();
    api.resources("v1", "namespaces").apply("setup",
        "{\"apiVersion\":\"v1\",\"kind\":\"Namespace\",\"metadata\":{\"name\":\"keep\"}}");
    api.resources("v1", "namespaces").apply("setup",
        "{\"apiVersion\":\"v1\",\"kind\":\"Namespace\",\"metadata\":{\"name\":\"other\"}}");
  }

  @AfterAll
  static void stop() {
    http.close();
    api.close();
  }

  static AuditEvent create(String namespace, String name) throws Exception {
    HttpResponse<String> r = client.send(HttpRequest.newBuilder(URI.create(http.url()
            + "/api/v1/namespaces/" + namespace + "/configmaps?fieldManager=tester"))
        .POST(HttpRequest.BodyPublishers.ofString("{\"apiVersion\":\"v1\",\"kind\":\"ConfigMap\","
            + "\"metadata\":{\"name\":\"" + name + "\"},\"data\":{\"a\":\"1\"}}"))
        .header("Content-Type", "application/json").build(), HttpResponse.BodyHandlers.ofString());
    assertThat(r.statusCode()).isEqualTo(201);
    String id = r.headers().firstValue("Audit-Id").orElseThrow();
    return events.await(e -> e.auditId().equals(id) && e.stage() == AuditStage.RESPONSE_COMPLETE);
  }

  @Test
  void thePolicyDropsManagedFieldsUnlessTheRuleKeepsThem() throws Exception {
    AuditEvent kept = create("keep", "kept");
    AuditEvent dropped = create("other", "dropped");
    assertThat(Nested.list((MapValue) kept.responseObject().orElseThrow(),
        "metadata", "managedFields")).hasSize(1);
    assertThat(Nested.map((MapValue) dropped.responseObject().orElseThrow(), "metadata")
        .getOrNull("managedFields")).isNull();
    assertThat(kept.level()).isEqualTo(AuditLevel.REQUEST_RESPONSE);
    assertThat(kept.user().name()).isEqualTo("system:unsecured");
  }

  @Test
  void thePolicysOmittedStagesAreLeftOutOfEveryRule() throws Exception {
    AuditEvent e = create("keep", "stages");
    assertThat(events.of(e.auditId())).extracting(AuditEvent::stage)
        .containsExactly(AuditStage.RESPONSE_COMPLETE);
  }
}
