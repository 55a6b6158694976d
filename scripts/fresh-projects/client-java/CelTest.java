/*
 * Copyright The apiserver4j authors.
 * SPDX-License-Identifier: Apache-2.0
 */
package demo;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import com.google.gson.JsonParser;
import com.google.protobuf.RuntimeVersion;
import io.apiserver4j.junit.ApiServerTest;
import io.apiserver4j.junit.WithManifests;
import io.kubernetes.client.openapi.ApiClient;
import io.kubernetes.client.util.generic.KubernetesApiResponse;
import io.kubernetes.client.util.generic.dynamic.DynamicKubernetesApi;
import io.kubernetes.client.util.generic.dynamic.DynamicKubernetesObject;
import org.junit.jupiter.api.Test;

/**
 * A user's test with the official Java client, whose protobuf-java is the one on the class path:
 * a CRD's CEL rule and a ValidatingAdmissionPolicy still run, and refuse with kube's messages.
 */
@ApiServerTest
@WithManifests("policies.yaml")
class CelTest {
  ApiClient client;

  private static DynamicKubernetesObject object(String json) {
    return new DynamicKubernetesObject(JsonParser.parseString(json.replace('\'', '"'))
        .getAsJsonObject());
  }

  @Test
  void theCrdRuleRefusesWhatBreaksIt() {
    DynamicKubernetesApi widgets =
        new DynamicKubernetesApi("demo.example.com", "v1", "widgets", client);
    KubernetesApiResponse<DynamicKubernetesObject> created = widgets.create(object(
        "{'apiVersion':'demo.example.com/v1','kind':'Widget',"
            + "'metadata':{'name':'small','namespace':'default'},'spec':{'replicas':3}}"));
    assertTrue(created.isSuccess(), String.valueOf(created.getStatus()));
    KubernetesApiResponse<DynamicKubernetesObject> refused = widgets.create(object(
        "{'apiVersion':'demo.example.com/v1','kind':'Widget',"
            + "'metadata':{'name':'big','namespace':'default'},'spec':{'replicas':11}}"));
    assertEquals(422, refused.getHttpStatusCode());
    // apiextensions-apiserver's CEL validator: field.Invalid on the rule's field with the rule's
    // message, the value omitted for an object (fieldErrorForReason)
    assertEquals("Widget.demo.example.com \"big\" is invalid: spec: Invalid value:"
        + " replicas must be at most 10", refused.getStatus().getMessage());
  }

  @Test
  void thePolicyRefusesWhatBreaksIt() {
    DynamicKubernetesApi configMaps = new DynamicKubernetesApi("", "v1", "configmaps", client);
    KubernetesApiResponse<DynamicKubernetesObject> refused = configMaps.create(object(
        "{'apiVersion':'v1','kind':'ConfigMap',"
            + "'metadata':{'name':'bad','namespace':'default'},'data':{'forbidden':'x'}}"));
    assertEquals(422, refused.getHttpStatusCode());
    // the policy dispatcher: admission.NewForbidden of "ValidatingAdmissionPolicy '%s' with
    // binding '%s' denied request: %s", with the reason Invalid (422) when the rule names none
    assertEquals("configmaps \"bad\" is forbidden: ValidatingAdmissionPolicy 'no-forbidden-data'"
        + " with binding"
        + " 'no-forbidden-data-binding' denied request: data must not hold the key forbidden",
        refused.getStatus().getMessage());
  }

  @Test
  void protobufIsTheClients() {
    System.out.println("protobuf-java runtime: " + RuntimeVersion.MAJOR + "."
        + RuntimeVersion.MINOR + "." + RuntimeVersion.PATCH);
  }
}
