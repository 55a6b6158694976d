/*
 * Copyright The apiserver4j authors.
 * SPDX-License-Identifier: Apache-2.0
 */
package io.apiserver4j.apiserver;

import static org.assertj.core.api.Assertions.assertThat;

import io.apiserver4j.admission.UserInfo;
import io.apiserver4j.apiserver.ApiRequest.Verb;
import io.apiserver4j.apimachinery.patch.PatchType;
import io.apiserver4j.core.GroupVersionResource;
import io.apiserver4j.core.Json;
import io.apiserver4j.core.MapValue;
import io.apiserver4j.core.Nested;
import io.apiserver4j.core.Value;
import java.util.List;
import java.util.Map;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.Test;

/**
 * A CertificateSigningRequest records who asked, as kube's csrStrategy.PrepareForCreate
 * (pkg/registry/certificates/certificates/strategy.go): the client's spec.username, uid, groups
 * and extra are dropped and the request's user info stored; with no user in the request, the
 * fields stay empty (absent on the wire, Go's omitempty).
 */
class CsrRequesterTest {
  private static final GroupVersionResource CSRS =
      new GroupVersionResource("certificates.k8s.io", "v1", "certificatesigningrequests");
  // an ECDSA P-256 CSR (openssl req -new, CN=alice, O=dev), as in CsrApprovalTest
  private static final String REQUEST = "LS0tLS1CRUdJTiBDRVJUSUZJQ0FURSBSRVFVRVNULS0tLS0KTUlIYU1JR0FBZ0VBTUI0eERqQU1CZ05WQkFNTUJXRnNhV05sTVF3d0NnWURWUVFLREFOa1pYWXdXVEFUQmdjcQpoa2pPUFFJQkJnZ3Foa2pPUFFNQkJ3TkNBQVF2cHdybUJ0R1ZFKzdNMEJBUW9VTHJkU2YvUjdWOFp0eUdFVFQzCjJ0Ykh2QlFNdE5CdWd0bkd4bEg1TXo5dmU0UEgwdEFBZmRId3FWdHJFTC90ZWx4eW9BQXdDZ1lJS29aSXpqMEUKQXdJRFNRQXdSZ0loQVBMQU1JZmF0amxCa0R5ZDNIcld5eGl2WlpEZjRsd080dUl6dHo4d2dyUjNBaUVBNkNjawp4bzFHcG1ONWM2aUM4R2JKUVQ0NWJHVzhYT0gxLzNITjNJQmlYUkk9Ci0tLS0tRU5EIENFUlRJRklDQVRFIFJFUVVFU1QtLS0tLQo=";
  private static final UserInfo ALICE = new UserInfo("alice", "uid-1",
      List.of("dev", "system:authenticated"), Map.of("scopes", List.of("a", "b")));
  private final ApiServer server = ApiServer.builder().build();

  @AfterEach
  void close() {
    server.close();
  }

  /** A CSR whose spec claims to come from someone else. */
  private static String body(String name) {
    return "{\"apiVersion\":\"certificates.k8s.io/v1\",\"kind\":\"CertificateSigningRequest\","
        + "\"metadata\":{\"name\":\"" + name + "\"},\"spec\":{\"request\":\"" + REQUEST + "\","
        + "\"signerName\":\"example.com/signer\",\"usages\":[\"client auth\"],"
        + "\"username\":\"mallory\",\"uid\":\"forged\",\"groups\":[\"system:masters\"],"
        + "\"extra\":{\"forged\":[\"yes\"]}},"
        + "\"status\":{\"conditions\":[{\"type\":\"Approved\",\"status\":\"True\"}]}}";
  }

  private MapValue stored(String name) {
    return server.resources("certificates.k8s.io/v1", "certificatesigningrequests").get(name);
  }

  @Test
  void aCreateStoresTheRequestingUserAndNotWhatTheClientSent() {
    ApiResponse r = server.handle(ApiRequest.builder(Verb.CREATE, CSRS)
        .body(Json.read(body("by-alice"))).user(ALICE).build());

    assertThat(r.code()).as(r.toString()).isEqualTo(201);
    MapValue spec = Nested.map(stored("by-alice"), "spec");
    assertThat(Json.write(MapValue.ofEntries("username", spec.getOrNull("username"),
        "uid", spec.getOrNull("uid"), "groups", spec.getOrNull("groups"),
        "extra", spec.getOrNull("extra")))).isEqualTo("{\"username\":\"alice\",\"uid\":\"uid-1\","
            + "\"groups\":[\"dev\",\"system:authenticated\"],\"extra\":{\"scopes\":[\"a\",\"b\"]}}");
    // users cannot create pre-approved requests
    assertThat(Nested.map(stored("by-alice"), "status").isEmpty()).isTrue();
    assertThat(r.body()).isEqualTo(stored("by-alice"));
  }

  @Test
  void withoutAUserTheRequesterFieldsStayEmpty() {
    ApiResponse r = server.handle(ApiRequest.builder(Verb.CREATE, CSRS)
        .body(Json.read(body("in-process"))).build());

    assertThat(r.code()).as(r.toString()).isEqualTo(201);
    MapValue spec = Nested.map(stored("in-process"), "spec");
    assertThat(spec.asMap().keySet()).doesNotContain("username", "uid", "groups", "extra");
    assertThat(Nested.str(spec, "signerName")).isEqualTo("example.com/signer");
  }

  @Test
  void anApplyThatCreatesRecordsTheUserToo() {
    ApiResponse r = server.handle(ApiRequest.builder(Verb.PATCH, CSRS).name("applied")
        .patch(PatchType.APPLY_YAML, body("applied")).fieldManager("test")
        .user(UserInfo.of("bob", "ops")).build());

    assertThat(r.code()).as(r.toString()).isEqualTo(201);
    MapValue spec = Nested.map(stored("applied"), "spec");
    assertThat(Nested.str(spec, "username")).isEqualTo("bob");
    assertThat(Json.write(spec.getOrNull("groups"))).isEqualTo("[\"ops\"]");
    assertThat(spec.asMap().keySet()).doesNotContain("uid", "extra");
  }

  @Test
  void anUpdateKeepsTheRecordedRequester() {
    server.handle(ApiRequest.builder(Verb.CREATE, CSRS).body(Json.read(body("kept")))
        .user(ALICE).build()).orThrow();
    MapValue changed = stored("kept").with("spec", Nested.map(stored("kept"), "spec")
        .with("username", Value.of("mallory")));

    ApiResponse r = server.handle(ApiRequest.builder(Verb.UPDATE, CSRS).name("kept")
        .body(changed).user(UserInfo.of("mallory")).build());

    assertThat(r.code()).as(r.toString()).isEqualTo(200);
    assertThat(Nested.str(stored("kept"), "spec", "username")).isEqualTo("alice");
  }
}
