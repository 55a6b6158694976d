/*
 * Copyright The apiserver4j authors.
 * SPDX-License-Identifier: Apache-2.0
 */
package io.apiserver4j.apiserver;

import static io.apiserver4j.apiserver.Fixtures.CRDS;
import static io.apiserver4j.apiserver.Fixtures.at;
import static io.apiserver4j.apiserver.Fixtures.json;
import static io.apiserver4j.apiserver.Fixtures.req;
import static io.apiserver4j.apiserver.Fixtures.str;
import static io.apiserver4j.apiserver.Fixtures.yaml;
import static org.assertj.core.api.Assertions.assertThat;

import io.apiserver4j.apiserver.ApiRequest.Verb;
import io.apiserver4j.apimachinery.patch.PatchType;
import io.apiserver4j.core.GroupVersionResource;
import io.apiserver4j.core.Json;
import io.apiserver4j.core.ListValue;
import io.apiserver4j.core.MapValue;
import io.apiserver4j.core.Value;
import java.util.ArrayList;
import java.util.List;
import org.junit.jupiter.api.Test;

/** Custom resources served from CustomResourceDefinitions. */
class CrdTest {
  static final String WIDGET_CRD = """
      apiVersion: apiextensions.k8s.io/v1
      kind: CustomResourceDefinition
      metadata:
        name: widgets.example.com
      spec:
        group: example.com
        names:
          plural: widgets
          singular: widget
          kind: Widget
          shortNames: [wd]
        scope: Namespaced
        versions:
        - name: v1
          served: true
          storage: true
          subresources:
            status: {}
            scale:
              specReplicasPath: .spec.replicas
              statusReplicasPath: .status.replicas
              labelSelectorPath: .status.selector
          schema:
            openAPIV3Schema:
              type: object
              properties:
                spec:
                  type: object
                  properties:
                    replicas: {type: integer}
                    color: {type: string}
                    ports:
                      type: array
                      x-kubernetes-list-type: map
                      x-kubernetes-list-map-keys: [name]
                      items:
                        type: object
                        required: [name]
                        properties:
                          name: {type: string}
                          port: {type: integer}
                    tags:
                      type: array
                      x-kubernetes-list-type: set
                      items: {type: string}
                status:
                  type: object
                  properties:
                    replicas: {type: integer}
                    selector: {type: string}
      """;

  static final GroupVersionResource WIDGETS =
      new GroupVersionResource("example.com", "v1", "widgets");

  private final Fixtures f = new Fixtures();
  private final List<String> changes = new ArrayList<>();

  private void installCrd() {
    f.server.registry().addListener((change, def) -> changes.add(change + " " + def.resource()));
    ApiResponse r = f.create(CRDS, "", yaml(WIDGET_CRD), "kubectl");
    assertThat(r.code()).isEqualTo(201);
  }

  @Test
  void creatingACrdServesItsResourceAndEstablishesIt() {
    installCrd();

    assertThat(f.server.registry().find(WIDGETS)).isPresent();
    ResourceDefinition def = f.server.registry().find(WIDGETS).orElseThrow();
    assertThat(def.kind().kind()).isEqualTo("Widget");
    assertThat(def.namespaced()).isTrue();
    assertThat(def.subresources()).containsExactly("status", "scale");
    assertThat(def.shortNames()).containsExactly("wd");
    assertThat(changes).containsExactly("ADDED example.com/v1, Resource=widgets");
    MapValue crd = f.get(CRDS, "", "widgets.example.com").orThrow();
    ListValue conditions = (ListValue) at(crd, "status", "conditions");
    List<String> summary = new ArrayList<>();
    for (Value c : conditions.items()) {
      summary.add(str(c, "type") + "=" + str(c, "status") + "/" + str(c, "reason"));
    }
    assertThat(summary).containsExactly("NamesAccepted=True/NoConflicts",
        "Established=True/InitialNamesAccepted");
    assertThat(at(crd, "status", "acceptedNames", "kind")).isEqualTo(Value.of("Widget"));
    assertThat(at(crd, "status", "storedVersions")).isEqualTo(json("[\"v1\"]"));
    assertThat(Json.write(at(crd, "metadata", "managedFields")))
        .contains("\"manager\":\"kube-apiserver\"").contains("\"subresource\":\"status\"");
  }

  private static final String WIDGET = """
      apiVersion: example.com/v1
      kind: Widget
      metadata: {name: w1}
      spec:
        color: blue
        ports:
        - {name: http, port: 80}
        tags: [a]
      """;

  @Test
  void theCrdSchemaDrivesMergingAndOwnership() {
    installCrd();
    f.apply(WIDGETS, "default", "w1", "alice", WIDGET).orThrow();

    MapValue obj = f.apply(WIDGETS, "default", "w1", "bob", """
        apiVersion: example.com/v1
        kind: Widget
        metadata: {name: w1}
        spec:
          ports:
          - {name: https, port: 443}
          tags: [b]
        """).orThrow();

    assertThat(at(obj, "spec", "ports")).isEqualTo(json(
        "[{\"name\":\"http\",\"port\":80},{\"name\":\"https\",\"port\":443}]"));
    assertThat(at(obj, "spec", "tags")).isEqualTo(json("[\"a\",\"b\"]"));
    assertThat(at(obj, "metadata", "generation")).isEqualTo(Value.of(2L));
    ApiResponse conflict = f.apply(WIDGETS, "default", "w1", "bob", """
        apiVersion: example.com/v1
        kind: Widget
        metadata: {name: w1}
        spec:
          color: red
        """);
    assertThat(conflict.code()).isEqualTo(409);
    assertThat(str(conflict.body(), "message")).isEqualTo("Apply failed with 1 conflict: conflict"
        + " with \"alice\": .spec.color");
  }

  @Test
  void unknownFieldsArePrunedAndReportedPerFieldValidation() {
    installCrd();
    MapValue body = yaml(WIDGET).with("spec", ((MapValue) yaml(WIDGET).getOrNull("spec"))
        .with("size", Value.of(3L)));

    ApiResponse warn = f.create(WIDGETS, "default", body, "x");
    ApiResponse strict = f.server.handle(req(Verb.CREATE, WIDGETS, "default", "")
        .body(body.with("metadata", Fixtures.jsonMap("{\"name\":\"w2\"}"))).fieldValidation(FieldValidation.STRICT).build());

    assertThat(warn.code()).isEqualTo(201);
    assertThat(warn.warnings()).containsExactly("unknown field \"spec.size\"");
    assertThat(at(warn.body(), "spec", "size")).isNull();
    assertThat(strict.code()).isEqualTo(400);
    assertThat(str(strict.body(), "message")).isEqualTo("Widget in version \"v1\" cannot be"
        + " handled as a Widget: strict decoding error: unknown field \"spec.size\"");
  }

  @Test
  void listsKeepTheirApiVersionAndKind() {
    installCrd();
    f.apply(WIDGETS, "default", "w1", "alice", WIDGET).orThrow();

    MapValue list = f.server.handle(req(Verb.LIST, WIDGETS, "default", "").build()).orThrow();

    assertThat(str(list, "kind")).isEqualTo("WidgetList");
    assertThat(str(((ListValue) list.getOrNull("items")).get(0), "kind")).isEqualTo("Widget");
  }

  @Test
  void strategicMergePatchIsNotOfferedForCustomResources() {
    installCrd();
    f.apply(WIDGETS, "default", "w1", "alice", WIDGET).orThrow();

    ApiResponse r = f.patch(WIDGETS, "default", "w1", PatchType.STRATEGIC_MERGE_PATCH,
        "{\"spec\":{\"color\":\"red\"}}", "x");

    assertThat(r.code()).isEqualTo(415);
    assertThat(str(r.body(), "message")).isEqualTo("the body of the request was in an unknown"
        + " format - accepted media types include: application/json-patch+json,"
        + " application/merge-patch+json, application/apply-patch+yaml");
  }

  @Test
  void statusAndScaleSubresourcesOfACustomResource() {
    installCrd();
    f.apply(WIDGETS, "default", "w1", "alice", WIDGET + "  replicas: 2\n").orThrow();

    MapValue afterMain = f.patch(WIDGETS, "default", "w1", PatchType.MERGE_PATCH,
        "{\"status\":{\"replicas\":7}}", "x").orThrow();
    MapValue afterStatus = f.server.handle(req(Verb.PATCH, WIDGETS, "default", "w1")
        .subresource("status").fieldManager("controller").patch(PatchType.MERGE_PATCH,
            "{\"status\":{\"replicas\":2,\"selector\":\"app=w\"},\"spec\":{\"color\":\"red\"}}")
        .build()).orThrow();
    MapValue scale = f.server.handle(req(Verb.GET, WIDGETS, "default", "w1")
        .subresource("scale").build()).orThrow();

    assertThat(at(afterMain, "status")).isNull();
    assertThat(at(afterStatus, "status")).isEqualTo(json("{\"replicas\":2,\"selector\":\"app=w\"}"));
    assertThat(at(afterStatus, "spec", "color")).isEqualTo(Value.of("blue"));
    assertThat(at(scale, "spec")).isEqualTo(json("{\"replicas\":2}"));
    assertThat(at(scale, "status")).isEqualTo(json("{\"replicas\":2,\"selector\":\"app=w\"}"));
  }

  @Test
  void deletingTheCrdDeletesItsObjectsAndStopsServingThem() {
    installCrd();
    f.apply(WIDGETS, "default", "w1", "alice", WIDGET).orThrow();

    ApiResponse r = f.delete(CRDS, "", "widgets.example.com");

    assertThat(r.code()).isEqualTo(200);
    assertThat(at(r.body(), "metadata", "deletionTimestamp")).isNotNull();
    assertThat(Json.write(at(r.body(), "status", "conditions"))).contains("\"type\":"
        + "\"Terminating\"");
    assertThat(f.get(CRDS, "", "widgets.example.com").code()).isEqualTo(404);
    assertThat(f.server.registry().find(WIDGETS)).isEmpty();
    assertThat(changes).containsExactly("ADDED example.com/v1, Resource=widgets",
        "REMOVED example.com/v1, Resource=widgets");
    assertThat(f.get(WIDGETS, "default", "w1").code()).isEqualTo(404);
  }

  @Test
  void aCrdWhoseKindIsTakenIsNotEstablished() {
    installCrd();
    String gadgets = WIDGET_CRD.replace("widgets", "gadgets").replace("singular: widget",
        "singular: gadget").replace("shortNames: [wd]", "shortNames: [gd]");

    f.create(CRDS, "", yaml(gadgets), "kubectl").orThrow();

    MapValue crd = f.get(CRDS, "", "gadgets.example.com").orThrow();
    assertThat(Json.write(at(crd, "status", "conditions"))).contains("\"reason\":\"KindConflict\"")
        .contains("\\\"Widget\\\" is already in use");
    assertThat(f.server.registry().find(new GroupVersionResource("example.com", "v1", "gadgets")))
        .isEmpty();
  }

  @Test
  void anEstablishedCrdWhoseNewKindIsTakenKeepsBeingServedUnderItsAcceptedNames() {
    installCrd();
    String gadgets = WIDGET_CRD.replace("widgets", "gadgets").replace("singular: widget",
        "singular: gadget").replace("shortNames: [wd]", "shortNames: [gd]");
    GroupVersionResource gadgetsResource = new GroupVersionResource("example.com", "v1",
        "gadgets");
    f.apply(CRDS, "", "gadgets.example.com", "installer",
        gadgets.replace("kind: Widget", "kind: Gadget")).orThrow();
    assertThat(f.server.registry().find(gadgetsResource).orElseThrow().kind().kind())
        .isEqualTo("Gadget");

    f.apply(CRDS, "", "gadgets.example.com", "installer", gadgets).orThrow();

    // as kube's naming controller: NamesAccepted turns False, Established stays True, and the
    // resource keeps being served under the names accepted before
    MapValue crd = f.get(CRDS, "", "gadgets.example.com").orThrow();
    List<String> summary = new ArrayList<>();
    for (Value c : ((ListValue) at(crd, "status", "conditions")).items()) {
      summary.add(str(c, "type") + "=" + str(c, "status") + "/" + str(c, "reason"));
    }
    assertThat(summary).containsExactly("NamesAccepted=False/KindConflict",
        "Established=True/InitialNamesAccepted");
    assertThat(at(crd, "status", "acceptedNames", "kind")).isEqualTo(Value.of("Gadget"));
    assertThat(f.server.registry().find(gadgetsResource).orElseThrow().kind().kind())
        .isEqualTo("Gadget");
    assertThat(f.server.registry().find(WIDGETS).orElseThrow().kind().kind())
        .isEqualTo("Widget");
  }

  @Test
  void aCrdIsValidated() {
    MapValue bad = yaml(WIDGET_CRD.replace("name: widgets.example.com", "name: wrong"));

    ApiResponse r = f.create(CRDS, "", bad, "kubectl");

    assertThat(r.code()).isEqualTo(422);
    assertThat(str(r.body(), "message")).isEqualTo("CustomResourceDefinition.apiextensions.k8s.io"
        + " \"wrong\" is invalid: metadata.name: Invalid value: \"wrong\": must be"
        + " spec.names.plural+\".\"+spec.group");
  }

  @Test
  void aCrdWithoutSchemaServesDeducedObjects() {
    String schemaless = """
        apiVersion: apiextensions.k8s.io/v1
        kind: CustomResourceDefinition
        metadata: {name: things.example.com}
        spec:
          group: example.com
          names: {plural: things, kind: Thing}
          scope: Cluster
          versions:
          - {name: v1alpha1, served: true, storage: true}
        """;
    f.create(CRDS, "", yaml(schemaless), "kubectl").orThrow();
    GroupVersionResource things = new GroupVersionResource("example.com", "v1alpha1", "things");

    f.apply(things, "", "t", "a", """
        apiVersion: example.com/v1alpha1
        kind: Thing
        metadata: {name: t}
        spec: {x: 1, list: [1, 2]}
        """).orThrow();
    MapValue obj = f.apply(things, "", "t", "b", """
        apiVersion: example.com/v1alpha1
        kind: Thing
        metadata: {name: t}
        spec: {z: 2}
        """).orThrow();

    assertThat(at(obj, "spec")).isEqualTo(json("{\"x\":1,\"list\":[1,2],\"z\":2}"));
    ApiResponse conflict = f.apply(things, "", "t", "b", """
        apiVersion: example.com/v1alpha1
        kind: Thing
        metadata: {name: t}
        spec: {list: [3]}
        """);
    assertThat(str(conflict.body(), "message")).isEqualTo("Apply failed with 1 conflict: conflict"
        + " with \"a\": .spec.list");
  }

  private static final String V1_SERVED =
      "  - name: v1\n    served: true\n    storage: true\n";
  private static final String TWO_VERSIONS = WIDGET_CRD.replace(V1_SERVED,
      "  - name: v2\n    served: true\n    storage: false\n    schema:\n"
          + "      openAPIV3Schema:\n        type: object\n        properties:\n"
          + "          spec:\n            type: object\n            properties:\n"
          + "              color: {type: string}\n              size: {type: integer}\n"
          + V1_SERVED);

  @Test
  void managersOfOtherVersionsAreComparedInTheirVersionAndDroppedWhenItGoes() {
    assertThat(TWO_VERSIONS).contains("name: v2");
    f.create(CRDS, "", yaml(TWO_VERSIONS), "kubectl").orThrow();
    GroupVersionResource v2 = new GroupVersionResource("example.com", "v2", "widgets");
    f.apply(WIDGETS, "default", "w1", "alice", WIDGET).orThrow();
    f.patch(WIDGETS, "default", "w1", PatchType.MERGE_PATCH, "{\"spec\":{\"replicas\":3}}",
        "carol").orThrow();

    ApiResponse viaV2 = f.apply(v2, "default", "w1", "bob", """
        apiVersion: example.com/v2
        kind: Widget
        metadata: {name: w1}
        spec: {color: red}
        """);
    MapValue readV2 = f.get(v2, "default", "w1").orThrow();

    assertThat(viaV2.code()).isEqualTo(409);
    assertThat(str(viaV2.body(), "message")).isEqualTo("Apply failed with 1 conflict: conflict"
        + " with \"alice\": .spec.color");
    assertThat(str(readV2, "apiVersion")).isEqualTo("example.com/v2");
    assertThat(Json.write(at(readV2, "metadata", "managedFields")))
        .contains("\"manager\":\"carol\",\"operation\":\"Update\",\"apiVersion\":\"example.com/v1\"");

    // v1 is no longer served: ownership recorded at v1 is dropped by the next write
    MapValue crd = f.get(CRDS, "", "widgets.example.com").orThrow();
    String onlyV2 = TWO_VERSIONS.replace(V1_SERVED,
        "  - name: v1\n    served: false\n    storage: true\n");
    assertThat(onlyV2).isNotEqualTo(TWO_VERSIONS);
    MapValue updatedSpec = yaml(onlyV2);
    f.update(CRDS, "", "widgets.example.com", crd.with("spec", updatedSpec.getOrNull("spec")),
        "kubectl").orThrow();
    assertThat(f.server.registry().find(WIDGETS)).isEmpty();

    MapValue after = f.apply(v2, "default", "w1", "bob", """
        apiVersion: example.com/v2
        kind: Widget
        metadata: {name: w1}
        spec: {color: red}
        """).orThrow();
    assertThat(str(after, "spec", "color")).isEqualTo("red");
    assertThat(Json.write(at(after, "metadata", "managedFields"))).doesNotContain("carol")
        .contains("\"manager\":\"bob\"");
  }
}
