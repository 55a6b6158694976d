/*
 * Copyright The apiserver4j authors.
 * SPDX-License-Identifier: Apache-2.0
 */
package io.apiserver4j.apiserver;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import io.apiserver4j.apimachinery.patch.PatchType;
import io.apiserver4j.core.errors.BadRequestException;
import io.apiserver4j.core.errors.ConflictException;
import io.apiserver4j.core.MapValue;
import io.apiserver4j.core.Meta;
import io.apiserver4j.core.Nested;
import io.apiserver4j.core.Value;
import io.apiserver4j.core.Yaml;
import io.apiserver4j.core.fields.FieldSelector;
import io.apiserver4j.core.labels.LabelSelector;
import io.apiserver4j.merge.Force;
import io.apiserver4j.storage.ResourceVersionMatch;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.Optional;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.Test;

/** {@link ResourceClient}'s options on every verb, answered as kube-apiserver answers them. */
class ResourceClientOptionsTest {
  // counts the ConfigMaps of default: no root-ca-cert-publisher (ServiceAccount) here
  private final ApiServer server = ApiServer.builder().disableAdmissionPlugins("ServiceAccount").build();
  private final ResourceClient configMaps = server.resources("v1", "configmaps")
      .namespace("default");

  @AfterEach
  void close() {
    server.close();
  }

  private MapValue configMap(String name, String labels) {
    return configMaps.create(Yaml.read("{apiVersion: v1, kind: ConfigMap, metadata: {name: "
        + name + ", labels: {" + labels + "}}, data: {k: v}}"));
  }

  private static List<String> names(List<MapValue> items) {
    return items.stream().map(m -> Meta.metaString(m, "name")).toList();
  }

  @Test
  void aLabelSelectorFiltersAListAsKubectlDashL() {
    configMap("a", "app: web");
    configMap("b", "app: db");
    configMap("c", "");

    assertThat(names(configMaps.list(CollectionOptions.of(LabelSelector.parse("app=web")))))
        .containsExactly("a");
    // as kubectl get -l 'app!=web': objects without the label match too
    assertThat(names(configMaps.list(CollectionOptions.of(LabelSelector.parse("app!=web")))))
        .containsExactly("b", "c");
    assertThat(names(configMaps.list(CollectionOptions.of(LabelSelector.parse("app")))))
        .containsExactly("a", "b");
  }

  @Test
  void aFieldSelectorFiltersByName() {
    configMap("a", "");
    configMap("b", "");

    assertThat(names(configMaps.list(CollectionOptions.builder()
        .fieldSelector(FieldSelector.parse("metadata.name=b")).build()))).containsExactly("b");
    assertThatThrownBy(() -> configMaps.list(CollectionOptions.builder()
        .fieldSelector(FieldSelector.parse("data.k=v")).build()))
        .isInstanceOf(BadRequestException.class)
        .hasMessageContaining("field label not supported: data.k");
  }

  @Test
  void limitAndContinuePageThroughAList() {
    configMap("a", "");
    configMap("b", "");
    configMap("c", "");

    MapValue first = configMaps.listObject(CollectionOptions.builder().limit(2).build());
    assertThat(names(Nested.list(first, "items").stream().map(v -> (MapValue) v).toList()))
        .containsExactly("a", "b");
    String token = Nested.str(first, "metadata", "continue");
    assertThat(token).isNotEmpty();
    assertThat(Nested.getOrNull(first, "metadata", "remainingItemCount")).isEqualTo(Value.of(1L));

    MapValue second = configMaps.listObject(CollectionOptions.builder().limit(2)
        .continueToken(token).build());
    assertThat(Nested.list(second, "items")).hasSize(1);
    assertThat(Nested.getOrNull(second, "metadata", "continue")).isNull();
  }

  @Test
  void anExactResourceVersionListsThePastState() {
    configMap("a", "");
    String before = Nested.str(configMaps.listObject(CollectionOptions.all()),
        "metadata", "resourceVersion");
    configMap("b", "");

    assertThat(names(configMaps.list(CollectionOptions.builder().resourceVersion(before)
        .resourceVersionMatch(ResourceVersionMatch.EXACT).build()))).containsExactly("a");
    assertThat(names(configMaps.list(CollectionOptions.builder().resourceVersion("0").build())))
        .containsExactly("a", "b");
    assertThatThrownBy(() -> configMaps.list(CollectionOptions.builder()
        .resourceVersion("x").build())).isInstanceOf(BadRequestException.class)
        .hasMessageContaining("invalid resource version");
  }

  @Test
  void getWithAResourceVersion() {
    MapValue a = configMap("a", "");

    assertThat(configMaps.get("a", GetOptions.of("0"))).isEqualTo(a);
    assertThat(configMaps.get("a", GetOptions.of(Meta.metaString(a, "resourceVersion"))))
        .isEqualTo(a);
  }

  @Test
  void orphanLeavesTheDependentsBackgroundDeletesTheOwnerAtOnce() {
    MapValue owner = configMap("owner", "");
    configMaps.create(Yaml.read("{apiVersion: v1, kind: ConfigMap, metadata: {name: dependent,"
        + " ownerReferences: [{apiVersion: v1, kind: ConfigMap, name: owner, uid: "
        + Meta.metaString(owner, "uid") + "}]}}"));

    MapValue orphaned = configMaps.delete("owner", DeleteOptions.of(PropagationPolicy.ORPHAN));

    // kube: the owner stays with the orphan finalizer until the garbage collector has removed
    // the owner references; the dependent stays
    assertThat(orphaned.getOrNull("kind")).isEqualTo(Value.of("ConfigMap"));
    assertThat(Meta.stringList(Nested.getOrNull(orphaned, "metadata", "finalizers")))
        .containsExactly("orphan");
    assertThat(configMaps.find("dependent")).isPresent();

    configMap("other", "");
    MapValue status = configMaps.delete("other",
        DeleteOptions.of(PropagationPolicy.BACKGROUND));
    assertThat(status.getOrNull("kind")).isEqualTo(Value.of("Status"));
    assertThat(configMaps.find("other")).isEmpty();

    configMap("fg", "");
    MapValue foreground = configMaps.delete("fg", DeleteOptions.of(PropagationPolicy.FOREGROUND));
    assertThat(Meta.stringList(Nested.getOrNull(foreground, "metadata", "finalizers")))
        .containsExactly("foregroundDeletion");
  }

  @Test
  void deletePreconditionsAreChecked() {
    MapValue a = configMap("a", "");

    assertThatThrownBy(() -> configMaps.delete("a", DeleteOptions.builder()
        .preconditionUid("not-the-uid").build()))
        .isInstanceOf(ConflictException.class)
        .hasMessageContaining("the UID in the precondition (not-the-uid) does not match the UID"
            + " in record (" + Meta.metaString(a, "uid") + ")");
    assertThatThrownBy(() -> configMaps.delete("a", DeleteOptions.builder()
        .preconditionResourceVersion("1").build()))
        .isInstanceOf(ConflictException.class)
        .hasMessageContaining("the ResourceVersion in the precondition (1) does not match");

    configMaps.delete("a", DeleteOptions.builder().preconditionUid(Meta.metaString(a, "uid"))
        .preconditionResourceVersion(Meta.metaString(a, "resourceVersion")).build());
    assertThat(configMaps.find("a")).isEmpty();
  }

  @Test
  void aGracePeriodKeepsAScheduledPodUntilItEnds() {
    ResourceClient pods = server.resources("v1", "pods").namespace("default");
    String pod = "{apiVersion: v1, kind: Pod, metadata: {name: NAME}, spec: {nodeName: node-1,"
        + " containers: [{name: c, image: nginx}]}}";
    pods.create(Yaml.read(pod.replace("NAME", "slow")));
    pods.create(Yaml.read(pod.replace("NAME", "fast")));

    MapValue slow = pods.delete("slow", DeleteOptions.builder().gracePeriodSeconds(45).build());
    assertThat(Nested.getOrNull(slow, "metadata", "deletionGracePeriodSeconds"))
        .isEqualTo(Value.of(45L));
    assertThat(pods.find("slow")).isPresent();

    pods.delete("fast", DeleteOptions.builder().gracePeriodSeconds(0).build());
    assertThat(pods.find("fast")).isEmpty();
  }

  @Test
  void deleteCollectionDeletesWhatTheSelectorSelects() {
    configMap("a", "app: web");
    configMap("b", "app: db");

    configMaps.deleteCollection(new DeleteCollectionOptions(DeleteOptions.defaults(),
        CollectionOptions.of(LabelSelector.parse("app=web"))));

    assertThat(names(configMaps.list())).containsExactly("b");
  }

  @Test
  void aWatchWithALabelSelectorSeesOnlyWhatItSelects() throws InterruptedException {
    List<String> seen = new ArrayList<>();
    try (ApiWatch watch = configMaps.watch(CollectionOptions.of(LabelSelector.parse("app=web")))) {
      configMap("db", "app: db");
      configMap("web", "app: web");
      Optional<ApiWatchEvent> e;
      while ((e = watch.poll(Duration.ofMillis(500))).isPresent()) {
        seen.add(e.get().type() + " " + Meta.metaString(e.get().object(), "name"));
      }
    }
    assertThat(seen).containsExactly("ADDED web");
  }

  @Test
  void aDryRunCreateStoresNothing() {
    MapValue answer = configMaps.create(Yaml.read("{apiVersion: v1, kind: ConfigMap,"
        + " metadata: {name: dry}}"), CreateOptions.defaults().withDryRun(DryRun.ALL));

    assertThat(Meta.metaString(answer, "uid")).isNotEmpty();
    assertThat(configMaps.find("dry")).isEmpty();
  }

  @Test
  void theFieldManagerOfACreateOwnsItsFields() {
    MapValue created = configMaps.create(Yaml.read("{apiVersion: v1, kind: ConfigMap,"
        + " metadata: {name: m}, data: {k: v}}"), CreateOptions.defaults()
        .withFieldManager("my-operator"));

    assertThat(Nested.str((MapValue) Nested.list(created, "metadata", "managedFields").get(0),
        "manager")).isEqualTo("my-operator");
  }

  @Test
  void strictFieldValidationRefusesUnknownFields() {
    Value body = Yaml.read("{apiVersion: v1, kind: ConfigMap, metadata: {name: s},"
        + " spec: {replicas: 1}}");

    assertThatThrownBy(() -> configMaps.create(body, CreateOptions.defaults()
        .withFieldValidation(FieldValidation.STRICT)))
        .isInstanceOf(BadRequestException.class)
        .hasMessageContaining("strict decoding error: unknown field \"spec\"");
    // kube's default (Warn) drops the field
    assertThat(configMaps.create(body).getOrNull("spec")).isNull();
  }

  @Test
  void updateAndPatchTakeTheirOptions() {
    MapValue a = configMap("a", "");

    MapValue dry = configMaps.update(a.with("data", Yaml.read("{k: changed}")),
        UpdateOptions.defaults().withDryRun(DryRun.ALL).withFieldManager("editor"));
    assertThat(Nested.str(dry, "data", "k")).isEqualTo("changed");
    assertThat(Nested.str(configMaps.get("a"), "data", "k")).isEqualTo("v");

    MapValue patched = configMaps.patch("a", PatchType.MERGE_PATCH, "{\"data\":{\"k\":\"p\"}}",
        PatchOptions.defaults().withFieldManager("patcher"));
    assertThat(Nested.str(patched, "data", "k")).isEqualTo("p");
    assertThat(Nested.list(patched, "metadata", "managedFields").stream()
        .map(m -> Nested.str((MapValue) m, "manager"))).contains("patcher");
    assertThatThrownBy(() -> configMaps.patch("a", PatchType.MERGE_PATCH, "{}",
        PatchOptions.defaults().withForce(Force.NO)))
        .hasMessageContaining("force: Forbidden: may not be specified for non-apply patch");
  }

  @Test
  void applyConflictsUnlessForced() {
    String config = "{apiVersion: v1, kind: ConfigMap, metadata: {name: shared},"
        + " data: {k: VALUE}}";
    configMaps.apply("alice", config.replace("VALUE", "a"));

    assertThatThrownBy(() -> configMaps.apply("bob", config.replace("VALUE", "b")))
        .isInstanceOf(ConflictException.class)
        .hasMessageContaining("conflict with \"alice\"");
    MapValue forced = configMaps.apply("bob", config.replace("VALUE", "b"), Force.YES);
    assertThat(Nested.str(forced, "data", "k")).isEqualTo("b");

    MapValue dry = configMaps.apply(config.replace("VALUE", "c"),
        PatchOptions.apply("carol", Force.YES).withDryRun(DryRun.ALL));
    assertThat(Nested.str(dry, "data", "k")).isEqualTo("c");
    assertThat(Nested.str(configMaps.get("shared"), "data", "k")).isEqualTo("b");
  }
}
