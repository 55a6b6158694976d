/*
 * Copyright The apiserver4j authors.
 * SPDX-License-Identifier: Apache-2.0
 */
package io.apiserver4j.registry.core;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import io.apiserver4j.apiserver.ApiRequest;
import io.apiserver4j.apiserver.ApiServer;
import io.apiserver4j.core.GroupVersionResource;
import io.apiserver4j.core.MapValue;
import io.apiserver4j.core.Nested;
import io.apiserver4j.core.Yaml;
import io.apiserver4j.core.errors.Status;
import io.apiserver4j.core.errors.StatusCause;
import io.apiserver4j.kubeapi.KubeVersion;
import io.apiserver4j.storage.InMemoryStore;
import io.apiserver4j.storage.Store;
import java.util.List;
import java.util.stream.Stream;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.Arguments;
import org.junit.jupiter.params.provider.MethodSource;

/**
 * The feature gates through the server for every kind that embeds a pod template (kube's
 * {@code DropDisabledTemplateFields}, called by the strategies of Deployment, ReplicaSet,
 * StatefulSet, DaemonSet, Job, CronJob, ReplicationController and PodTemplate), the Pod status
 * endpoint's {@code dropDisabledPodStatusFields}, and the pod validation options that follow the
 * emulated release's gates.
 */
class PodTemplateFeatureGatesTest {
  private static final String POD_SPEC = "{hostnameOverride: my-host, containers: [{name: c,"
      + " image: nginx}]}";

  /** A valid object of each kind with {@code POD_SPEC} in its template, and the template path. */
  static Stream<Arguments> kinds() {
    String labels = "{labels: {app: a}}";
    String selector = "{matchLabels: {app: a}}";
    return Stream.of(
        Arguments.of(new GroupVersionResource("apps", "v1", "deployments"),
            "{apiVersion: apps/v1, kind: Deployment, metadata: {name: x}, spec: {selector: "
                + selector + ", template: {metadata: " + labels + ", spec: " + POD_SPEC + "}}}",
            List.of("spec", "template")),
        Arguments.of(new GroupVersionResource("apps", "v1", "replicasets"),
            "{apiVersion: apps/v1, kind: ReplicaSet, metadata: {name: x}, spec: {selector: "
                + selector + ", template: {metadata: " + labels + ", spec: " + POD_SPEC + "}}}",
            List.of("spec", "template")),
        Arguments.of(new GroupVersionResource("apps", "v1", "statefulsets"),
            "{apiVersion: apps/v1, kind: StatefulSet, metadata: {name: x}, spec: {serviceName: s,"
                + " selector: " + selector + ", template: {metadata: " + labels + ", spec: "
                + POD_SPEC + "}}}",
            List.of("spec", "template")),
        Arguments.of(new GroupVersionResource("apps", "v1", "daemonsets"),
            "{apiVersion: apps/v1, kind: DaemonSet, metadata: {name: x}, spec: {selector: "
                + selector + ", template: {metadata: " + labels + ", spec: " + POD_SPEC + "}}}",
            List.of("spec", "template")),
        Arguments.of(new GroupVersionResource("batch", "v1", "jobs"),
            "{apiVersion: batch/v1, kind: Job, metadata: {name: x}, spec: {template: {spec:"
                + " {restartPolicy: Never, hostnameOverride: my-host, containers: [{name: c,"
                + " image: nginx}]}}}}",
            List.of("spec", "template")),
        Arguments.of(new GroupVersionResource("batch", "v1", "cronjobs"),
            "{apiVersion: batch/v1, kind: CronJob, metadata: {name: x}, spec: {schedule: '* * * *"
                + " *', jobTemplate: {spec: {template: {spec: {restartPolicy: Never,"
                + " hostnameOverride: my-host, containers: [{name: c, image: nginx}]}}}}}}",
            List.of("spec", "jobTemplate", "spec", "template")),
        Arguments.of(new GroupVersionResource("", "v1", "replicationcontrollers"),
            "{apiVersion: v1, kind: ReplicationController, metadata: {name: x}, spec: {selector:"
                + " {app: a}, template: {metadata: " + labels + ", spec: " + POD_SPEC + "}}}",
            List.of("spec", "template")),
        Arguments.of(new GroupVersionResource("", "v1", "podtemplates"),
            "{apiVersion: v1, kind: PodTemplate, metadata: {name: x}, template: {metadata: "
                + labels + ", spec: " + POD_SPEC + "}}",
            List.of("template")));
  }

  private static MapValue create(ApiServer server, GroupVersionResource r, MapValue body) {
    return server.handle(ApiRequest.builder(ApiRequest.Verb.CREATE, r).namespace("default")
        .body(body).build()).orThrow();
  }

  private static MapValue update(ApiServer server, GroupVersionResource r, MapValue body) {
    return server.handle(ApiRequest.builder(ApiRequest.Verb.UPDATE, r).namespace("default")
        .name(Nested.str(body, "metadata", "name")).body(body).build()).orThrow();
  }

  private static String[] specPath(List<String> template) {
    String[] path = template.toArray(new String[template.size() + 1]);
    path[template.size()] = "spec";
    return path;
  }

  /**
   * HostnameOverride off: a template's {@code hostnameOverride} is dropped on create, and kept by
   * an update of an object stored while the gate was on.
   */
  @ParameterizedTest(name = "{0}")
  @MethodSource("kinds")
  void templatesLoseTheFieldsOfDisabledGatesUnlessInUse(GroupVersionResource resource,
      String yaml, List<String> template) {
    MapValue object = (MapValue) Yaml.read(yaml);
    String[] spec = specPath(template);
    Store store = InMemoryStore.create();
    MapValue stored;
    try (ApiServer on = ApiServer.builder().store(store).build()) {
      stored = create(on, resource, object);
      assertThat(Nested.str(stored, append(spec, "hostnameOverride"))).isEqualTo("my-host");
    }
    try (ApiServer off = ApiServer.builder().store(store).featureGates("HostnameOverride=false")
        .build()) {
      MapValue kept = update(off, resource, Nested.set(stored, Yaml.read("{b: c}"), "metadata",
          "annotations"));
      assertThat(Nested.str(kept, append(spec, "hostnameOverride"))).isEqualTo("my-host");
      MapValue fresh = create(off, resource, Nested.set(object, Yaml.read("second"), "metadata",
          "name"));
      assertThat(Nested.has(fresh, append(spec, "hostnameOverride"))).isFalse();
    }
    // alpha (off) in 1.34
    try (ApiServer at134 = ApiServer.builder().emulatedVersion(KubeVersion.V1_34).build()) {
      assertThat(Nested.has(create(at134, resource, object), append(spec, "hostnameOverride")))
          .isFalse();
    }
  }

  private static String[] append(String[] path, String name) {
    String[] out = java.util.Arrays.copyOf(path, path.length + 1);
    out[path.length] = name;
    return out;
  }

  static final GroupVersionResource PODS = new GroupVersionResource("", "v1", "pods");

  /**
   * The status endpoint drops {@code status.resourceClaimStatuses} while DynamicResourceAllocation
   * is off (1.33) and the Pod has no resource claims, and keeps it from 1.34.
   */
  @Test
  void podStatusLosesTheStatusFieldsOfDisabledGates() {
    MapValue pod = (MapValue) Yaml.read("{apiVersion: v1, kind: Pod, metadata: {name: p},"
        + " spec: {containers: [{name: c, image: nginx}]}}");
    for (KubeVersion version : List.of(KubeVersion.V1_33, KubeVersion.V1_34)) {
      try (ApiServer server = ApiServer.builder().emulatedVersion(version).build()) {
        MapValue created = create(server, PODS, pod);
        MapValue written = server.handle(ApiRequest.builder(ApiRequest.Verb.UPDATE, PODS)
            .namespace("default").name("p").subresource("status").body(Nested.set(created,
                Yaml.read("[{name: claim, resourceClaimName: c}]"), "status",
                "resourceClaimStatuses")).build()).orThrow();
        assertThat(Nested.has(written, "status", "resourceClaimStatuses")).as(version.toString())
            .isEqualTo(version != KubeVersion.V1_33);
        assertThat(Nested.str(written, "status", "phase")).isEqualTo("Pending");
      }
    }
  }

  private static final String STRICT_ENV_MESSAGE = "a valid environment variable name must"
      + " consist of alphabetic characters, digits, '_', '-', or '.', and must not start with a"
      + " digit (e.g. 'my.env-name',  or 'MY_ENV.NAME',  or 'MyEnvName1', regex used for"
      + " validation is '[-._a-zA-Z][-._a-zA-Z0-9]*')";

  private static MapValue podWithEnv(String name, String env) {
    return (MapValue) Yaml.read("{apiVersion: v1, kind: Pod, metadata: {name: " + name + "},"
        + " spec: {containers: [{name: c, image: nginx, env: [{name: '" + env + "', value: v}]}]}}");
  }

  /**
   * RelaxedEnvironmentVariableValidation: beta and on in 1.33 but settable off (then names are
   * apimachinery's IsEnvVarName, unless the stored Pod already has the relaxed name), GA and
   * locked on in 1.36.
   */
  @Test
  void envVarNamesFollowTheEmulatedReleasesGate() {
    try (ApiServer server = ApiServer.builder().emulatedVersion(KubeVersion.V1_33).build()) {
      assertThat(server.featureGates().enabled("RelaxedEnvironmentVariableValidation")).isTrue();
      create(server, PODS, podWithEnv("p", "1FOO:BAR"));
    }
    Store store = InMemoryStore.create();
    MapValue stored;
    try (ApiServer server = ApiServer.builder().store(store).emulatedVersion(KubeVersion.V1_33)
        .build()) {
      stored = create(server, PODS, podWithEnv("kept", "1FOO"));
    }
    try (ApiServer server = ApiServer.builder().store(store).emulatedVersion(KubeVersion.V1_33)
        .featureGates("RelaxedEnvironmentVariableValidation=false").build()) {
      Status refused = server.handle(ApiRequest.builder(ApiRequest.Verb.CREATE, PODS)
          .namespace("default").body(podWithEnv("p", "1FOO")).build()).failure().orElseThrow();
      assertThat(refused.code()).isEqualTo(422);
      assertThat(refused.message()).isEqualTo("Pod \"p\" is invalid:"
          + " spec.containers[0].env[0].name: Invalid value: \"1FOO\": " + STRICT_ENV_MESSAGE);
      assertThat(refused.causes()).containsExactly(new StatusCause("FieldValueInvalid",
          "Invalid value: \"1FOO\": " + STRICT_ENV_MESSAGE, "spec.containers[0].env[0].name"));
      // the stored Pod relies on the relaxed rule: its updates keep it
      update(server, PODS, Nested.set(stored, Yaml.read("{a: b}"), "metadata", "labels"));
      create(server, PODS, podWithEnv("strict", "MY_ENV.NAME"));
    }
    try (ApiServer server = ApiServer.builder().build()) {
      create(server, PODS, podWithEnv("p", "1FOO:BAR"));
    }
    assertThatThrownBy(() -> ApiServer.builder()
        .featureGates("RelaxedEnvironmentVariableValidation=false").build())
        .isInstanceOf(IllegalArgumentException.class).hasMessage("cannot set feature gate"
            + " RelaxedEnvironmentVariableValidation to false, feature is locked to true");
  }

  /**
   * The workload kinds' templates follow the same options (kube's
   * {@code GetValidationOptionsFromPodTemplate}).
   */
  @ParameterizedTest(name = "{0}")
  @MethodSource("kinds")
  void templatesFollowTheEmulatedReleasesValidationOptions(GroupVersionResource resource,
      String yaml, List<String> template) {
    String[] spec = specPath(template);
    MapValue object = Nested.set((MapValue) Yaml.read(yaml), Yaml.read("[{name: c, image: nginx,"
        + " env: [{name: '1FOO', value: v}]}]"), append(spec, "containers"));
    String field = String.join(".", spec) + ".containers[0].env[0].name";
    try (ApiServer server = ApiServer.builder().emulatedVersion(KubeVersion.V1_33)
        .featureGates("RelaxedEnvironmentVariableValidation=false").build()) {
      Status refused = server.handle(ApiRequest.builder(ApiRequest.Verb.CREATE, resource)
          .namespace("default").body(object).build()).failure().orElseThrow();
      assertThat(refused.code()).isEqualTo(422);
      assertThat(refused.causes()).contains(new StatusCause("FieldValueInvalid",
          "Invalid value: \"1FOO\": " + STRICT_ENV_MESSAGE, field));
    }
    try (ApiServer server = ApiServer.builder().emulatedVersion(KubeVersion.V1_33).build()) {
      create(server, resource, object);
    }
  }

  /**
   * RelaxedDNSSearchValidation: beta and on in 1.33, settable off there (search domains are then
   * DNS-1123 subdomains: no {@code _}, no {@code .} alone), GA and locked on from 1.34; the same
   * options hold for a PodTemplate's spec.
   */
  @Test
  void dnsSearchDomainsFollowTheEmulatedReleasesGate() {
    String template = "{apiVersion: v1, kind: PodTemplate, metadata: {name: t}, template:"
        + " {spec: {containers: [{name: c, image: nginx}], dnsConfig: {searches:"
        + " [_sip._tcp.example.com]}}}}";
    GroupVersionResource podTemplates = new GroupVersionResource("", "v1", "podtemplates");
    try (ApiServer server = ApiServer.builder().emulatedVersion(KubeVersion.V1_33)
        .featureGates("RelaxedDNSSearchValidation=false").build()) {
      Status refused = server.handle(ApiRequest.builder(ApiRequest.Verb.CREATE, podTemplates)
          .namespace("default").body(Yaml.read(template)).build()).failure().orElseThrow();
      assertThat(refused.code()).isEqualTo(422);
      assertThat(refused.causes()).extracting(StatusCause::field)
          .containsExactly("template.spec.dnsConfig.searches[0]");
      assertThat(refused.causes().get(0).message()).startsWith(
          "Invalid value: \"_sip._tcp.example.com\": a lowercase RFC 1123 subdomain");
    }
    try (ApiServer server = ApiServer.builder().emulatedVersion(KubeVersion.V1_33).build()) {
      create(server, podTemplates, (MapValue) Yaml.read(template));
    }
    try (ApiServer server = ApiServer.builder().build()) {
      create(server, podTemplates, (MapValue) Yaml.read(template));
    }
  }
}
