/*
 * Copyright The apiserver4j authors.
 * SPDX-License-Identifier: Apache-2.0
 */
package io.apiserver4j.auth.audit;

import static org.assertj.core.api.Assertions.assertThat;

import io.apiserver4j.apiserver.ApiServer;
import io.apiserver4j.core.errors.NotFoundException;
import io.apiserver4j.http.HttpApiServer;
import java.net.URI;
import java.net.http.HttpClient;
import java.net.http.HttpRequest;
import java.net.http.HttpResponse;
import org.assertj.core.api.Assertions;
import org.junit.jupiter.api.Test;

/**
 * A sink that cannot store a request's first event stops the request, as kube's audit filter
 * answers {@code InternalError(... "failed to store audit event")} before handling it; failures
 * at later stages leave the request alone.
 */
class AuditSinkFailureTest {
  @Test
  void aRequestWhoseReceiptCannotBeRecordedIsRefusedAndNotExecuted() throws Exception {
    RecordingSink later = new RecordingSink();
    AuditSink failing = e -> {
      if (e.stage() == AuditStage.REQUEST_RECEIVED && e.verb().equals("create")) {
        throw new IllegalStateException("disk full");
      }
    };
    try (ApiServer api = ApiServer.builder().build();
        HttpApiServer http = HttpApiServer.builder(api)
            .auditor(Audit.of(AuditPolicy.allAt(AuditLevel.METADATA), failing, later))
            .start()) {
      HttpClient client = HttpClient.newHttpClient();
      String uri = "/api/v1/namespaces/default/configmaps?fieldManager=x";
      HttpResponse<String> r = client.send(HttpRequest.newBuilder(URI.create(http.url() + uri))
          .POST(HttpRequest.BodyPublishers.ofString("{\"apiVersion\":\"v1\",\"kind\":"
              + "\"ConfigMap\",\"metadata\":{\"name\":\"never\"}}"))
          .header("Content-Type", "application/json").build(),
          HttpResponse.BodyHandlers.ofString());
      assertThat(r.statusCode()).isEqualTo(500);
      assertThat(r.body()).isEqualTo("Internal Server Error: \"" + uri
          + "\": failed to store audit event\n");
      Assertions.assertThatThrownBy(() -> api.resources("v1", "configmaps")
          .namespace("default").get("never")).isInstanceOf(NotFoundException.class);

      // a sink failing after the receipt is logged; the answer stands
      AuditSink failsLate = e -> {
        if (e.stage() == AuditStage.RESPONSE_COMPLETE) {
          throw new IllegalStateException("disk full");
        }
      };
      try (HttpApiServer other = HttpApiServer.builder(api)
          .auditor(Audit.of(AuditPolicy.allAt(AuditLevel.METADATA), failsLate, later))
          .start()) {
        HttpResponse<String> ok = client.send(HttpRequest.newBuilder(URI.create(other.url()
            + "/api/v1/namespaces/default/configmaps")).build(),
            HttpResponse.BodyHandlers.ofString());
        assertThat(ok.statusCode()).isEqualTo(200);
        String id = ok.headers().firstValue("Audit-Id").orElseThrow();
        later.await(e -> e.auditId().equals(id) && e.stage() == AuditStage.RESPONSE_COMPLETE);
      }
    }
  }
}
