/*
 * Copyright The apiserver4j authors.
 * SPDX-License-Identifier: Apache-2.0
 */
package io.apiserver4j.apiserver;

import static org.assertj.core.api.Assertions.assertThat;

import io.apiserver4j.apiserver.ApiRequest.Verb;
import io.apiserver4j.apimachinery.patch.PatchType;
import io.apiserver4j.core.GroupVersionResource;
import io.apiserver4j.core.Json;
import io.apiserver4j.core.MapValue;
import io.apiserver4j.core.Nested;
import java.time.Instant;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.Test;

/**
 * {@code certificatesigningrequests/approval} as kube's csrApprovalStrategy
 * (pkg/registry/certificates/certificates/strategy.go) and
 * ValidateCertificateSigningRequestApprovalUpdate.
 */
class CsrApprovalTest {
  private static final GroupVersionResource CSRS =
      new GroupVersionResource("certificates.k8s.io", "v1", "certificatesigningrequests");
  private final ApiServer server = ApiServer.builder()
      .clock(new TestClock(Instant.parse("2026-01-02T03:04:05Z"))).build();

  // an ECDSA P-256 CSR (openssl req -new, CN=alice, O=dev): kube refuses requests that are not
  private static final String REQUEST = "LS0tLS1CRUdJTiBDRVJUSUZJQ0FURSBSRVFVRVNULS0tLS0KTUlIYU1JR0FBZ0VBTUI0eERqQU1CZ05WQkFNTUJXRnNhV05sTVF3d0NnWURWUVFLREFOa1pYWXdXVEFUQmdjcQpoa2pPUFFJQkJnZ3Foa2pPUFFNQkJ3TkNBQVF2cHdybUJ0R1ZFKzdNMEJBUW9VTHJkU2YvUjdWOFp0eUdFVFQzCjJ0Ykh2QlFNdE5CdWd0bkd4bEg1TXo5dmU0UEgwdEFBZmRId3FWdHJFTC90ZWx4eW9BQXdDZ1lJS29aSXpqMEUKQXdJRFNRQXdSZ0loQVBMQU1JZmF0amxCa0R5ZDNIcld5eGl2WlpEZjRsd080dUl6dHo4d2dyUjNBaUVBNkNjawp4bzFHcG1ONWM2aUM4R2JKUVQ0NWJHVzhYT0gxLzNITjNJQmlYUkk9Ci0tLS0tRU5EIENFUlRJRklDQVRFIFJFUVVFU1QtLS0tLQo=";

  @AfterEach
  void close() {
    server.close();
  }

  private MapValue create() {
    return server.handle(ApiRequest.builder(Verb.CREATE, CSRS).body(Json.read("{\"apiVersion\":"
        + "\"certificates.k8s.io/v1\",\"kind\":\"CertificateSigningRequest\",\"metadata\":{"
        + "\"name\":\"csr\"},\"spec\":{\"request\":\"" + REQUEST + "\",\"signerName\":"
        + "\"example.com/signer\",\"usages\":[\"client auth\"]}}")).build()).orThrow();
  }

  private ApiResponse approval(String conditions, String extra) {
    return server.handle(ApiRequest.builder(Verb.PATCH, CSRS).name("csr").subresource("approval")
        .patch(PatchType.MERGE_PATCH, "{" + extra + "\"status\":{\"conditions\":" + conditions
            + "}}").build());
  }

  @Test
  void anApprovalAddsTheConditionWithItsTimesAndNothingElse() {
    create();

    ApiResponse r = approval("[{\"type\":\"Approved\",\"status\":\"True\",\"reason\":"
        + "\"KubectlApprove\",\"message\":\"ok\"}]", "\"spec\":{\"signerName\":\"x/y\"},");

    assertThat(r.code()).isEqualTo(200);
    assertThat(Json.write(Nested.getOrNull(r.body(), "status", "conditions"))).isEqualTo(
        "[{\"type\":\"Approved\",\"status\":\"True\",\"reason\":\"KubectlApprove\",\"message\":"
            + "\"ok\",\"lastUpdateTime\":\"2026-01-02T03:04:05Z\",\"lastTransitionTime\":"
            + "\"2026-01-02T03:04:05Z\"}]");
    assertThat(Nested.str(r.body(), "spec", "signerName")).isEqualTo("example.com/signer");
  }

  @Test
  void approvedAndDeniedAreMutuallyExclusive() {
    create();

    ApiResponse r = approval("[{\"type\":\"Approved\",\"status\":\"True\"},{\"type\":"
        + "\"Denied\",\"status\":\"True\"}]", "");

    assertThat(r.code()).isEqualTo(422);
    assertThat(Nested.str(r.body(), "message")).isEqualTo("CertificateSigningRequest.certificates"
        + ".k8s.io \"csr\" is invalid: status.conditions[1].type: Invalid value: \"Denied\":"
        + " Approved and Denied conditions are mutually exclusive");
  }

  @Test
  void conditionsMayNotBeRemovedAndMustBeKnownAndTrue() {
    create();
    approval("[{\"type\":\"Approved\",\"status\":\"True\"}]", "").orThrow();

    ApiResponse removed = approval("[]", "");
    ApiResponse unknown = approval("[{\"type\":\"Approved\",\"status\":\"True\"},"
        + "{\"type\":\"Approved\",\"status\":\"False\"},{\"type\":\"Other\",\"status\":\"True\"}]",
        "");

    assertThat(removed.code()).isEqualTo(422);
    assertThat(Nested.str(removed.body(), "message")).isEqualTo("CertificateSigningRequest"
        + ".certificates.k8s.io \"csr\" is invalid: status.conditions: Forbidden: updates may"
        + " not remove a condition of type \"Approved\"");
    assertThat(unknown.code()).isEqualTo(422);
    assertThat(Nested.str(unknown.body(), "message")).isEqualTo("CertificateSigningRequest"
        + ".certificates.k8s.io \"csr\" is invalid: [status.conditions[1].type: Duplicate value:"
        + " \"Approved\", status.conditions[1].status: Unsupported value: \"False\": supported"
        + " values: \"True\", status.conditions[2].type: Unsupported value: \"Other\": supported"
        + " values: \"Approved\", \"Denied\", \"Failed\"]");
  }

  @Test
  void theStatusSubresourceKeepsApprovalToTheApprovalSubresource() {
    create();
    approval("[{\"type\":\"Approved\",\"status\":\"True\",\"reason\":\"R\"}]", "")
        .orThrow();

    ApiResponse issued = server.handle(ApiRequest.builder(Verb.PATCH, CSRS).name("csr")
        .subresource("status").patch(PatchType.JSON_PATCH, "[{\"op\":\"replace\",\"path\":"
            + "\"/status/conditions/0/reason\",\"value\":\"Changed\"},{\"op\":\"add\",\"path\":"
            + "\"/status/certificate\",\"value\":\"Q0VSVA==\"}]").build());
    ApiResponse denied = server.handle(ApiRequest.builder(Verb.PATCH, CSRS).name("csr")
        .subresource("status").patch(PatchType.JSON_PATCH, "[{\"op\":\"add\",\"path\":"
            + "\"/status/conditions/-\",\"value\":{\"type\":\"Denied\",\"status\":\"True\"}}]")
        .build());

    // the stored Approved condition is kept as it was; the certificate is written
    assertThat(issued.code()).isEqualTo(200);
    assertThat(Nested.str((MapValue) Nested.list(issued.body(), "status", "conditions").get(0),
        "reason")).isEqualTo("R");
    assertThat(Nested.str(issued.body(), "status", "certificate")).isEqualTo("Q0VSVA==");
    assertThat(denied.code()).isEqualTo(422);
    assertThat(Nested.str(denied.body(), "message")).isEqualTo("CertificateSigningRequest"
        + ".certificates.k8s.io \"csr\" is invalid: [status.conditions[1].type: Invalid value:"
        + " \"Denied\": Approved and Denied conditions are mutually exclusive, status.conditions:"
        + " Forbidden: updates may not add a condition of type \"Denied\"]");
  }
}
