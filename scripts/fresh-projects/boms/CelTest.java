/*
 * Copyright The apiserver4j authors.
 * SPDX-License-Identifier: Apache-2.0
 */
package demo;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertThrows;

import com.google.protobuf.RuntimeVersion;
import io.apiserver4j.apiserver.ApiServer;
import io.apiserver4j.core.Json;
import io.apiserver4j.core.MapValue;
import io.apiserver4j.core.errors.StatusException;
import io.apiserver4j.junit.ApiServerTest;
import io.apiserver4j.junit.WithManifests;
import org.junit.jupiter.api.Test;

/**
 * A user's test in a project whose Spring Boot and Quarkus BOMs manage the libraries that
 * apiserver4j shares with them (protobuf-java among them): a CRD's CEL rule and a
 * ValidatingAdmissionPolicy still run, and refuse with kube's messages.
 */
@ApiServerTest
@WithManifests("policies.yaml")
class CelTest {
  ApiServer api;

  private static MapValue object(String json) {
    return (MapValue) Json.read(json.replace('\'', '"'));
  }

  @Test
  void theCrdRuleRefusesWhatBreaksIt() {
    api.resources("demo.example.com/v1", "widgets").namespace("default").create(object(
        "{'apiVersion':'demo.example.com/v1','kind':'Widget',"
            + "'metadata':{'name':'small'},'spec':{'replicas':3}}"));
    StatusException refused = assertThrows(StatusException.class, () ->
        api.resources("demo.example.com/v1", "widgets").namespace("default").create(object(
            "{'apiVersion':'demo.example.com/v1','kind':'Widget',"
                + "'metadata':{'name':'big'},'spec':{'replicas':11}}")));
    assertEquals(422, refused.code());
    // apiextensions-apiserver's CEL validator: field.Invalid on the rule's field with the rule's
    // message, the value omitted for an object (fieldErrorForReason)
    assertEquals("Widget.demo.example.com \"big\" is invalid: spec: Invalid value:"
        + " replicas must be at most 10", refused.status().message());
  }

  @Test
  void thePolicyRefusesWhatBreaksIt() {
    StatusException refused = assertThrows(StatusException.class, () ->
        api.resources("v1", "configmaps").namespace("default").create(object(
            "{'apiVersion':'v1','kind':'ConfigMap',"
                + "'metadata':{'name':'bad'},'data':{'forbidden':'x'}}")));
    assertEquals(422, refused.code());
    // the policy dispatcher: admission.NewForbidden of "ValidatingAdmissionPolicy '%s' with
    // binding '%s' denied request: %s", with the reason Invalid (422) when the rule names none
    assertEquals("configmaps \"bad\" is forbidden: ValidatingAdmissionPolicy 'no-forbidden-data'"
        + " with binding"
        + " 'no-forbidden-data-binding' denied request: data must not hold the key forbidden",
        refused.status().message());
  }

  @Test
  void protobufIsTheBoms() {
    System.out.println("protobuf-java runtime: " + RuntimeVersion.MAJOR + "."
        + RuntimeVersion.MINOR + "." + RuntimeVersion.PATCH);
  }
}
