/*
 * Copyright The apiserver4j authors.
 * SPDX-License-Identifier: Apache-2.0
 */
package io.apiserver4j.registry.admission;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import io.apiserver4j.apiserver.ApiRequest;
import io.apiserver4j.apiserver.ApiServer;
import io.apiserver4j.apiserver.CreateOptions;
import io.apiserver4j.apiserver.DryRun;
import io.apiserver4j.core.GroupVersionResource;
import io.apiserver4j.core.MapValue;
import io.apiserver4j.core.Meta;
import io.apiserver4j.core.Nested;
import io.apiserver4j.core.Yaml;
import io.apiserver4j.core.errors.StatusException;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;

/**
 * The ResourceQuota plugin on a server, with the expectations of kube's
 * {@code plugin/pkg/admission/resourcequota/admission_test.go} (TestAdmitBelowQuotaLimit,
 * TestAdmitDryRun, TestAdmitHandlesOldObjects, TestAdmitEnforceQuotaConstraints,
 * TestAdmitBelowBestEffortQuotaLimit, TestAdmitBestEffortQuotaLimitIgnoresBurstable,
 * TestAdmitRejectsNegativeUsage's sibling for unknown status) and the messages of its
 * controller.go. The quotas' status is written here as the resourcequota controller would.
 */
class ResourceQuotaAdmissionTest {
  private static final GroupVersionResource QUOTAS =
      new GroupVersionResource("", "v1", "resourcequotas");
  private static final GroupVersionResource PODS = new GroupVersionResource("", "v1", "pods");
  private static final GroupVersionResource SERVICES =
      new GroupVersionResource("", "v1", "services");
  private static final GroupVersionResource CONFIGMAPS =
      new GroupVersionResource("", "v1", "configmaps");

  // the Pods here are not about their ServiceAccount
  private final ApiServer server = ApiServer.builder().disableAdmissionPlugins("ServiceAccount")
      .enableAdmissionPlugins("ResourceQuota")
      .build();

  @BeforeEach
  void namespace() {
    server.resources("v1", "namespaces").create(Yaml.read(
        "{apiVersion: v1, kind: Namespace, metadata: {name: test}}"));
  }

  @AfterEach
  void close() {
    server.close();
  }

  /** A quota with {@code status}, as the resourcequota controller leaves it. */
  private void quota(String name, String spec, String status) {
    MapValue created = server.resources(QUOTAS).namespace("test").create(Yaml.read(
        "{apiVersion: v1, kind: ResourceQuota, metadata: {name: " + name + "}, spec: " + spec
            + "}"));
    server.handle(ApiRequest.builder(ApiRequest.Verb.UPDATE, QUOTAS).namespace("test")
        .name(name).subresource("status")
        .body(created.with("status", Yaml.read(status))).build()).orThrow();
  }

  private MapValue quota(String name) {
    return server.resources(QUOTAS).namespace("test").get(name);
  }

  private static String pod(String name, String requests, String limits) {
    return "{apiVersion: v1, kind: Pod, metadata: {name: " + name + "}, spec: {containers:"
        + " [{name: ctr, image: image, resources: {requests: " + requests + ", limits: " + limits
        + "}}]}}";
  }

  private MapValue create(GroupVersionResource r, String yaml) {
    return server.resources(r).namespace("test").create(Yaml.read(yaml));
  }

  private static final String QUOTA_SPEC = "{hard: {cpu: '3', memory: 100Gi, pods: '5'}}";
  private static final String QUOTA_STATUS = "{hard: {cpu: '3', memory: 100Gi, pods: '5'},"
      + " used: {cpu: '1', memory: 50Gi, pods: '3'}}";

  @Test
  void belowQuotaLimitChargesTheQuota() {
    quota("quota", QUOTA_SPEC, QUOTA_STATUS);
    create(PODS, pod("allowed-pod", "{cpu: 100m, memory: 2Gi}", "{}"));
    MapValue q = quota("quota");
    assertThat(Nested.map(q, "status", "used"))
        .isEqualTo(Yaml.read("{cpu: 1100m, memory: 52Gi, pods: '4'}"));
    assertThat(Nested.map(q, "status", "hard"))
        .isEqualTo(Yaml.read("{cpu: '3', memory: 100Gi, pods: '5'}"));
    // written through the server as its loopback client, on the status subresource
    assertThat(Nested.list(q, "metadata", "managedFields").stream()
        .anyMatch(m -> Nested.str(m, "manager").equals("kube-apiserver")
            && Nested.str(m, "subresource").equals("status"))).isTrue();
  }

  @Test
  void aQuotaChargedByAnotherServerOnTheSameStorageIsCheckedAtItsCurrentUsage() {
    // the second server's quota informer may not have seen the first server's charge yet: its
    // charge then conflicts and the quota is read live, as kube's evaluator retries
    quota("quota", "{hard: {pods: '4'}}", "{hard: {pods: '4'}, used: {pods: '3'}}");
    try (ApiServer other = ApiServer.builder().store(server.store())
        .disableAdmissionPlugins("ServiceAccount").enableAdmissionPlugins("ResourceQuota")
        .build()) {
      // the other server has read the quota before the charge below
      assertThat(other.resources(PODS).namespace("test").list()).isEmpty();
      other.resources(PODS).namespace("test").dryRun()
          .create(Yaml.read(pod("probe", "{}", "{}")));
      create(PODS, pod("first", "{}", "{}"));
      assertThatThrownBy(() -> other.resources(PODS).namespace("test")
          .create(Yaml.read(pod("second", "{}", "{}"))))
          .isInstanceOfSatisfying(StatusException.class, e -> assertThat(e.status().message())
              .isEqualTo("pods \"second\" is forbidden: exceeded quota: quota, requested:"
                  + " pods=1, used: pods=4, limited: pods=4"));
      assertThat(Nested.map(quota("quota"), "status", "used"))
          .isEqualTo(Yaml.read("{pods: '4'}"));
    }
  }

  @Test
  void exceedingTheQuotaIsForbiddenWithKubesMessage() {
    quota("quota", QUOTA_SPEC, QUOTA_STATUS);
    assertThatThrownBy(() -> create(PODS, pod("not-allowed-pod", "{cpu: '3', memory: 2Gi}",
        "{}"))).isInstanceOfSatisfying(StatusException.class, e -> {
          assertThat(e.status().code()).isEqualTo(403);
          assertThat(e.status().reason().wireName()).isEqualTo("Forbidden");
          assertThat(e.status().message()).isEqualTo("pods \"not-allowed-pod\" is forbidden:"
              + " exceeded quota: quota, requested: cpu=3, used: cpu=1, limited: cpu=3");
        });
    assertThat(Nested.map(quota("quota"), "status", "used"))
        .isEqualTo(Yaml.read("{cpu: '1', memory: 50Gi, pods: '3'}"));
    assertThat(server.resources(PODS).namespace("test").find("not-allowed-pod")).isEmpty();
  }

  @Test
  void dryRunsAreCheckedButNeverCharged() {
    quota("quota", QUOTA_SPEC, QUOTA_STATUS);
    String version = Meta.metaString(quota("quota"), "resourceVersion");
    server.resources(PODS).namespace("test").dryRun().create(Yaml.read(
        pod("allowed-pod", "{cpu: 100m, memory: 2Gi}", "{}")));
    assertThatThrownBy(() -> server.resources(PODS).namespace("test").create(Yaml.read(
        pod("too-large-pod", "{cpu: 100m, memory: 60Gi}", "{}")),
        CreateOptions.defaults().withDryRun(DryRun.ALL)))
        .isInstanceOfSatisfying(StatusException.class, e -> assertThat(e.status().message())
            .isEqualTo("pods \"too-large-pod\" is forbidden: exceeded quota: quota, requested:"
                + " memory=60Gi, used: memory=50Gi, limited: memory=100Gi"));
    assertThat(Meta.metaString(quota("quota"), "resourceVersion")).isEqualTo(version);
  }

  @Test
  void updatesAreChargedTheirDelta() {
    quota("quota", "{hard: {services: '10', services.loadbalancers: '10',"
        + " services.nodeports: '10'}}", "{hard: {services: '10', services.loadbalancers: '10',"
        + " services.nodeports: '10'}, used: {services: '0', services.loadbalancers: '0',"
        + " services.nodeports: '0'}}");
    MapValue svc = create(SERVICES, "{apiVersion: v1, kind: Service, metadata: {name: service},"
        + " spec: {type: ClusterIP, ports: [{port: 1234}]}}");
    assertThat(Nested.map(quota("quota"), "status", "used")).isEqualTo(Yaml.read(
        "{services: '1', services.loadbalancers: '0', services.nodeports: '0'}"));
    MapValue nodePort = Nested.set(svc, io.apiserver4j.core.Value.of("NodePort"), "spec", "type");
    server.resources(SERVICES).namespace("test").update(nodePort);
    // the old Service counted services=1 already: only the node port is new
    assertThat(Nested.map(quota("quota"), "status", "used")).isEqualTo(Yaml.read(
        "{services: '1', services.loadbalancers: '0', services.nodeports: '1'}"));
  }

  @Test
  void aCpuQuotaRequiresEveryContainerToStateIt() {
    quota("quota", "{hard: {cpu: '3', memory: 100Gi, limits.cpu: '4', limits.memory: 200Gi,"
        + " pods: '5'}}", "{hard: {cpu: '3', memory: 100Gi, limits.cpu: '4',"
        + " limits.memory: 200Gi, pods: '5'}, used: {cpu: '1', memory: 50Gi, limits.cpu: '2',"
        + " limits.memory: 100Gi, pods: '3'}}");
    assertThatThrownBy(() -> create(PODS, pod("not-allowed-pod", "{cpu: 100m, memory: 2Gi}",
        "{cpu: 200m}"))).isInstanceOfSatisfying(StatusException.class, e -> {
          assertThat(e.status().code()).isEqualTo(403);
          assertThat(e.status().message()).isEqualTo("pods \"not-allowed-pod\" is forbidden:"
              + " failed quota: quota: must specify limits.memory for: ctr");
        });
  }

  @Test
  void scopedQuotasCountOnlyTheirPods() {
    quota("quota-besteffort", "{hard: {pods: '5'}, scopes: [BestEffort]}",
        "{hard: {pods: '5'}, used: {pods: '3'}}");
    // a burstable Pod is not in the BestEffort scope: nothing charged
    create(PODS, pod("burstable", "{cpu: 100m}", "{}"));
    assertThat(Nested.map(quota("quota-besteffort"), "status", "used"))
        .isEqualTo(Yaml.read("{pods: '3'}"));
    create(PODS, pod("besteffort", "{}", "{}"));
    assertThat(Nested.map(quota("quota-besteffort"), "status", "used"))
        .isEqualTo(Yaml.read("{pods: '4'}"));
  }

  @Test
  void aQuotaWithoutUsageForALimitedResourceRefuses() {
    quota("quota", "{hard: {pods: '5'}}", "{hard: {pods: '5'}}");
    assertThatThrownBy(() -> create(PODS, pod("p", "{}", "{}")))
        .isInstanceOfSatisfying(StatusException.class, e -> assertThat(e.status().message())
            .isEqualTo("pods \"p\" is forbidden: status unknown for quota: quota,"
                + " resources: pods"));
  }

  @Test
  void objectCountsUseTheCountFormAndTheLegacyName() {
    quota("quota", "{hard: {count/configmaps: '1', configmaps: '5'}}",
        "{hard: {count/configmaps: '1', configmaps: '5'}, used: {count/configmaps: '0',"
            + " configmaps: '0'}}");
    create(CONFIGMAPS, "{apiVersion: v1, kind: ConfigMap, metadata: {name: a}}");
    assertThat(Nested.map(quota("quota"), "status", "used"))
        .isEqualTo(Yaml.read("{count/configmaps: '1', configmaps: '1'}"));
    assertThatThrownBy(() -> create(CONFIGMAPS,
        "{apiVersion: v1, kind: ConfigMap, metadata: {name: b}}"))
        .isInstanceOfSatisfying(StatusException.class, e -> assertThat(e.status().message())
            .isEqualTo("configmaps \"b\" is forbidden: exceeded quota: quota, requested:"
                + " count/configmaps=1, used: count/configmaps=1, limited: count/configmaps=1"));
  }

  @Test
  void aQuotaWithoutStatusCountsNothing() {
    server.resources(QUOTAS).namespace("test").create(Yaml.read(
        "{apiVersion: v1, kind: ResourceQuota, metadata: {name: quota}, spec: {hard:"
            + " {pods: '0'}}}"));
    create(PODS, pod("p", "{}", "{}"));
    assertThat(Nested.has(quota("quota"), "status", "used")).isFalse();
  }
  @Test
  void aLimitedResourceOfTheConfigurationNeedsACoveringQuota() {
    // the admission configuration file's ResourceQuotaConfiguration, as kube's
    // TestAdmitLimitedResourceNoQuota/WithQuota set it: cpu is consumed only under a quota
    try (ApiServer limited = ApiServer.builder().disableAdmissionPlugins("ServiceAccount")
        .enableAdmissionPlugins("ResourceQuota")
        .admissionConfiguration(java.util.Map.of("ResourceQuota", (MapValue) Yaml.read(
            "{apiVersion: apiserver.config.k8s.io/v1, kind: ResourceQuotaConfiguration,"
                + " limitedResources: [{resource: pods, matchContains: [requests.cpu]}]}")))
        .build()) {
      limited.resources("v1", "namespaces").create(Yaml.read(
          "{apiVersion: v1, kind: Namespace, metadata: {name: test}}"));
      assertThatThrownBy(() -> limited.resources(PODS).namespace("test")
          .create(Yaml.read(pod("cpu-pod", "{cpu: 100m}", "{}"))))
          .isInstanceOfSatisfying(StatusException.class, e -> {
            assertThat(e.status().code()).isEqualTo(403);
            assertThat(e.status().message()).isEqualTo("pods \"cpu-pod\" is forbidden:"
                + " insufficient quota to consume: requests.cpu");
          });
      assertThat(limited.resources(PODS).namespace("test").list()).isEmpty();
      // nothing consumed that the configuration limits: admitted without a quota
      limited.resources(PODS).namespace("test")
          .create(Yaml.read(pod("memory-pod", "{memory: 1Gi}", "{}")));
    }
  }

  @Test
  void aConfigurationEntryWithoutAResourceIsRefusedAtStart() {
    // kube's ValidateConfiguration: the plugin, and so the server, does not start
    assertThatThrownBy(() -> ApiServer.builder().enableAdmissionPlugins("ResourceQuota")
        .admissionConfiguration(java.util.Map.of("ResourceQuota", (MapValue) Yaml.read(
            "{limitedResources: [{matchContains: [cpu]}]}")))
        .build().close())
        .hasMessageContaining("limitedResources[0].resource: Required value");
  }
  @Test
  void aPodResizeIsChargedItsIncreaseAndRefusedBeyondTheQuota() {
    // kube 1.36's pod evaluator handles pods/resize updates (Handles: "update-resize" is true);
    // the charge is the delta of usage, as CheckRequest computes it for updates
    quota("quota", "{hard: {cpu: '1'}}", "{hard: {cpu: '1'}, used: {cpu: '0'}}");
    MapValue pod = create(PODS, pod("resized", "{cpu: 500m}", "{}"));
    assertThat(Nested.map(quota("quota"), "status", "used")).isEqualTo(Yaml.read("{cpu: 500m}"));
    MapValue container = (MapValue) Nested.list(pod, "spec", "containers").get(0);
    MapValue bigger = Nested.set(pod, io.apiserver4j.core.ListValue.of(java.util.List.of(
        Nested.set(container, io.apiserver4j.core.Value.of("2"), "resources", "requests",
            "cpu"))), "spec", "containers");
    assertThatThrownBy(() -> server.handle(ApiRequest.builder(ApiRequest.Verb.UPDATE, PODS)
        .namespace("test").name("resized").subresource("resize").body(bigger).build())
        .orThrow())
        .isInstanceOfSatisfying(StatusException.class, e -> {
          assertThat(e.status().code()).isEqualTo(403);
          assertThat(e.status().message()).isEqualTo("pods \"resized\" is forbidden: exceeded"
              + " quota: quota, requested: cpu=1500m, used: cpu=500m, limited: cpu=1");
        });
    MapValue within = Nested.set(pod, io.apiserver4j.core.ListValue.of(java.util.List.of(
        Nested.set(container, io.apiserver4j.core.Value.of("800m"), "resources", "requests",
            "cpu"))), "spec", "containers");
    server.handle(ApiRequest.builder(ApiRequest.Verb.UPDATE, PODS).namespace("test")
        .name("resized").subresource("resize").body(within).build()).orThrow();
    assertThat(Nested.map(quota("quota"), "status", "used")).isEqualTo(Yaml.read("{cpu: 800m}"));
  }
}
