/*
 * Copyright The apiserver4j authors.
 * SPDX-License-Identifier: Apache-2.0
 */
package io.apiserver4j.apiserver;

import static io.apiserver4j.apiserver.Fixtures.CRDS;
import static io.apiserver4j.apiserver.Fixtures.str;
import static io.apiserver4j.apiserver.Fixtures.yaml;
import static org.assertj.core.api.Assertions.assertThat;

import io.apiserver4j.core.GroupVersionResource;
import io.apiserver4j.core.MapValue;
import java.util.List;
import org.junit.jupiter.api.Test;

/**
 * A CRD's names as apiextensions-apiserver's {@code ValidateCustomResourceDefinitionNames} checks
 * them: the kind may have any case (an all lower-case kind is served), and a name kube refuses
 * is a 422 that stores nothing.
 */
class CrdNamesTest {
  // kube's IsDNS1035Label message (k8s.io/apimachinery pkg/util/validation)
  private static final String DNS1035 = "a DNS-1035 label must consist of lower case alphanumeric"
      + " characters or '-', start with an alphabetic character, and end with an alphanumeric"
      + " character (e.g. 'my-name',  or 'abc-123', regex used for validation is"
      + " '[a-z]([-a-z0-9]*[a-z0-9])?')";

  private final Fixtures f = new Fixtures();

  private static MapValue crd(String names) {
    return (MapValue) yaml("""
        apiVersion: apiextensions.k8s.io/v1
        kind: CustomResourceDefinition
        metadata: {name: retrysamples.example.com}
        spec:
          group: example.com
          names: %s
          scope: Namespaced
          versions:
          - name: v1
            served: true
            storage: true
            schema:
              openAPIV3Schema: {type: object, x-kubernetes-preserve-unknown-fields: true}
        """.formatted(names));
  }

  private static List<String> causes(ApiResponse r) {
    return r.failure().orElseThrow().causes().stream()
        .map(c -> c.field() + ": " + c.message()).toList();
  }

  @Test
  void anAllLowerCaseKindIsAcceptedAndServed() {
    ApiResponse created = f.create(CRDS, "",
        crd("{plural: retrysamples, singular: retrysample, kind: retrysample}"), "kubectl");

    assertThat(created.code()).isEqualTo(201);
    MapValue stored = f.get(CRDS, "", "retrysamples.example.com").orThrow();
    assertThat(str(stored, "status", "acceptedNames", "kind")).isEqualTo("retrysample");
    GroupVersionResource samples = new GroupVersionResource("example.com", "v1", "retrysamples");
    assertThat(f.server.registry().find(samples)).isPresent();
    ApiResponse cr = f.create(samples, "default", yaml("""
        apiVersion: example.com/v1
        kind: retrysample
        metadata: {name: s1}
        spec: {attempts: 3}
        """), "kubectl");
    assertThat(cr.code()).isEqualTo(201);
    assertThat(str(f.get(samples, "default", "s1").orThrow(), "kind")).isEqualTo("retrysample");
  }

  @Test
  void namesKubeRefusesAreInvalidAndNothingIsStored() {
    ApiResponse r = f.create(CRDS, "", crd("{plural: retrysamples, singular: retrysample,"
        + " kind: retry_sample, listKind: retry_sample, shortNames: [rs, R_S],"
        + " categories: [all, 'a b']}"), "kubectl");

    assertThat(r.code()).isEqualTo(422);
    assertThat(str(r.body(), "reason")).isEqualTo("Invalid");
    assertThat(causes(r)).containsExactly(
        "spec.names.kind: Invalid value: \"retry_sample\": may have mixed case, but should"
            + " otherwise match: " + DNS1035,
        "spec.names.listKind: Invalid value: \"retry_sample\": may have mixed case, but should"
            + " otherwise match: " + DNS1035,
        "spec.names.shortNames[1]: Invalid value: \"R_S\": " + DNS1035,
        "spec.names.listKind: Invalid value: \"retry_sample\": kind and listKind may not be the"
            + " same",
        "spec.names.categories[1]: Invalid value: \"a b\": " + DNS1035);
    assertThat(f.get(CRDS, "", "retrysamples.example.com").code()).isEqualTo(404);
    assertThat(f.server.registry().find(
        new GroupVersionResource("example.com", "v1", "retrysamples"))).isEmpty();
  }

  @Test
  void aMixedCaseKindWhoseLowerCaseIsALabelIsValid() {
    assertThat(f.create(CRDS, "", crd("{plural: retrysamples, kind: RetrySample-V2}"),
        "kubectl").code()).isEqualTo(201);
  }

  private static MapValue withScale(String scale) {
    MapValue crd = crd("{plural: retrysamples, kind: RetrySample}");
    String text = io.apiserver4j.core.Json.write(crd).replace("\"storage\":true,",
        "\"storage\":true,\"subresources\":{\"scale\":" + scale + "},");
    return (MapValue) io.apiserver4j.core.Json.read(text);
  }

  @Test
  void scalePathsAreCheckedAsKubeDoesAndWhatKubeAcceptsIsServed() {
    // ValidateCustomResourceDefinitionSubresources: replicas paths under .spec. and .status.
    ApiResponse bad = f.create(CRDS, "", withScale("{\"specReplicasPath\":\".status.replicas\","
        + "\"statusReplicasPath\":\"status.replicas\",\"labelSelectorPath\":\".metadata.x\"}"),
        "kubectl");
    assertThat(bad.code()).isEqualTo(422);
    assertThat(causes(bad)).containsExactly(
        "spec.subresources.scale.specReplicasPath: Invalid value: \".status.replicas\":"
            + " should be a json path under .spec",
        "spec.subresources.scale.statusReplicasPath: Invalid value:"
            + " \"status.replicas\": must be a simple json path starting with .",
        "spec.subresources.scale.labelSelectorPath: Invalid value: \".metadata.x\":"
            + " should be a json path under either .spec or .status");
    assertThat(f.get(CRDS, "", "retrysamples.example.com").code()).isEqualTo(404);

    // kube takes "[0]" as part of a field name: such a CRD is valid, and it is served
    ApiResponse odd = f.create(CRDS, "", withScale("{\"specReplicasPath\":\".spec.replicas[0]\","
        + "\"statusReplicasPath\":\".status.replicas\"}"), "kubectl");
    assertThat(odd.code()).as(odd.body().toString()).isEqualTo(201);
    assertThat(f.server.registry().find(
        new GroupVersionResource("example.com", "v1", "retrysamples"))).isPresent();
  }

  @Test
  void aStatusUpdateIsValidatedAsKubesStatusStrategyDoesTheAcceptedNamesOnly() {
    // ValidateUpdateCustomResourceDefinitionStatus: object meta and status.acceptedNames
    assertThat(f.create(CRDS, "", crd("{plural: retrysamples, kind: RetrySample}"), "kubectl")
        .code()).isEqualTo(201);
    MapValue stored = f.get(CRDS, "", "retrysamples.example.com").orThrow();
    MapValue bad = io.apiserver4j.core.Nested.set(stored,
        io.apiserver4j.core.Value.of("Retry_Samples"), "status", "acceptedNames", "plural");

    ApiResponse r = f.server.handle(Fixtures.req(ApiRequest.Verb.UPDATE, CRDS, "",
        "retrysamples.example.com").subresource("status").body(bad).fieldManager("test")
        .build());

    assertThat(r.code()).isEqualTo(422);
    assertThat(causes(r)).containsExactly("status.acceptedNames.plural: Invalid value:"
        + " \"Retry_Samples\": " + DNS1035);
    assertThat(str(f.get(CRDS, "", "retrysamples.example.com").orThrow(), "status",
        "acceptedNames", "plural")).isEqualTo("retrysamples");
  }
}
