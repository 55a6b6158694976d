/*
 * Copyright The apiserver4j authors.
 * SPDX-License-Identifier: Apache-2.0
 */
package io.apiserver4j.apiserver;

import static io.apiserver4j.apiserver.Fixtures.at;
import static io.apiserver4j.apiserver.Fixtures.req;
import static io.apiserver4j.apiserver.Fixtures.str;
import static io.apiserver4j.apiserver.Fixtures.yaml;
import static org.assertj.core.api.Assertions.assertThat;

import io.apiserver4j.apiserver.ApiRequest.Verb;
import io.apiserver4j.core.GroupVersionResource;
import io.apiserver4j.core.MapValue;
import io.apiserver4j.core.Meta;
import org.junit.jupiter.api.Test;

/**
 * The strategies of the networking, policy, autoscaling, scheduling, discovery and
 * events.k8s.io kinds through the server: defaults on create, apply and dry run alike, and
 * kube-apiserver's 422 messages ({@code <Kind>.<group> "<name>" is invalid: ...}).
 */
class GroupKindsThroughServerTest {
  private static final GroupVersionResource NETWORK_POLICIES =
      new GroupVersionResource("networking.k8s.io", "v1", "networkpolicies");
  private static final GroupVersionResource INGRESSES =
      new GroupVersionResource("networking.k8s.io", "v1", "ingresses");
  private static final GroupVersionResource PRIORITY_CLASSES =
      new GroupVersionResource("scheduling.k8s.io", "v1", "priorityclasses");
  private static final GroupVersionResource HPAS =
      new GroupVersionResource("autoscaling", "v2", "horizontalpodautoscalers");
  private static final GroupVersionResource PDBS =
      new GroupVersionResource("policy", "v1", "poddisruptionbudgets");
  private static final GroupVersionResource SLICES =
      new GroupVersionResource("discovery.k8s.io", "v1", "endpointslices");
  private static final GroupVersionResource EVENTS =
      new GroupVersionResource("events.k8s.io", "v1", "events");
  private final Fixtures f = new Fixtures();

  private static final String NETWORK_POLICY = """
      apiVersion: networking.k8s.io/v1
      kind: NetworkPolicy
      metadata: {name: np}
      spec:
        podSelector: {}
        egress: [{ports: [{port: 53}]}]
      """;

  @Test
  void dryRunAndCreateReturnTheSameDefaultedNetworkPolicy() {
    ApiResponse dry = f.server.handle(req(Verb.CREATE, NETWORK_POLICIES, "default", "")
        .body(yaml(NETWORK_POLICY)).fieldManager("kubectl").dryRun(true).build());
    ApiResponse real = f.create(NETWORK_POLICIES, "default", yaml(NETWORK_POLICY), "kubectl");

    assertThat(dry.code()).isEqualTo(201);
    assertThat(real.code()).isEqualTo(201);
    // SetDefaults_NetworkPolicy and SetDefaults_NetworkPolicyPort
    assertThat(at(real.body(), "spec")).isEqualTo(yaml("""
        podSelector: {}
        egress: [{ports: [{port: 53, protocol: TCP}]}]
        policyTypes: [Ingress, Egress]
        """));
    assertThat(at(dry.body(), "spec")).isEqualTo(at(real.body(), "spec"));
    assertThat(Meta.generation((MapValue) real.body())).isEqualTo(1);
  }

  @Test
  void applyDefaultsAnHpaAsKube() {
    ApiResponse r = f.apply(HPAS, "default", "h", "kubectl", """
        apiVersion: autoscaling/v2
        kind: HorizontalPodAutoscaler
        metadata: {name: h}
        spec:
          scaleTargetRef: {apiVersion: apps/v1, kind: Deployment, name: d}
          maxReplicas: 4
        """);

    assertThat(r.code()).isEqualTo(201);
    assertThat(at(r.body(), "spec", "minReplicas")).isEqualTo(io.apiserver4j.core.Value.of(1L));
    assertThat(at(r.body(), "spec", "metrics")).isEqualTo(yaml("""
        m: [{type: Resource, resource: {name: cpu, target: {type: Utilization, averageUtilization: 80}}}]
        """).getOrNull("m"));
  }

  @Test
  void invalidIngressIsRefusedWithKubesMessageAndNotStored() {
    ApiResponse r = f.create(INGRESSES, "default", yaml("""
        apiVersion: networking.k8s.io/v1
        kind: Ingress
        metadata: {name: i}
        spec:
          rules:
          - http: {paths: [{path: /, backend: {service: {name: s, port: {number: 80}}}}]}
        """), "kubectl");

    assertThat(r.code()).isEqualTo(422);
    assertThat(str(r.body(), "message")).isEqualTo("Ingress.networking.k8s.io \"i\" is invalid:"
        + " spec.rules[0].http.paths[0].pathType: Required value: pathType must be specified");
    assertThat(f.get(INGRESSES, "default", "i").code()).isEqualTo(404);
  }

  @Test
  void priorityClassValueCannotChange() {
    f.create(PRIORITY_CLASSES, "", yaml("""
        apiVersion: scheduling.k8s.io/v1
        kind: PriorityClass
        metadata: {name: tier1}
        value: 1000
        """), "kubectl").orThrow();
    MapValue stored = f.get(PRIORITY_CLASSES, "", "tier1").orThrow();
    assertThat(str(stored, "preemptionPolicy")).isEqualTo("PreemptLowerPriority");

    ApiResponse r = f.update(PRIORITY_CLASSES, "", "tier1",
        stored.with("value", io.apiserver4j.core.Value.of(2000L)), "kubectl");

    assertThat(r.code()).isEqualTo(422);
    assertThat(str(r.body(), "message")).isEqualTo("PriorityClass.scheduling.k8s.io \"tier1\" is"
        + " invalid: value: Forbidden: may not be changed in an update.");
  }

  @Test
  void pdbWithBothBoundsIsInvalid() {
    ApiResponse r = f.create(PDBS, "default", yaml("""
        apiVersion: policy/v1
        kind: PodDisruptionBudget
        metadata: {name: p}
        spec: {maxUnavailable: "120%", selector: {matchLabels: {app: a}}}
        """), "kubectl");

    assertThat(r.code()).isEqualTo(422);
    assertThat(str(r.body(), "message")).isEqualTo("PodDisruptionBudget.policy \"p\" is invalid:"
        + " spec.maxUnavailable: Invalid value: \"120%\": must not be greater than 100%");
  }

  @Test
  void endpointSliceAddressTypeIsImmutable() {
    MapValue created = f.create(SLICES, "default", yaml("""
        apiVersion: discovery.k8s.io/v1
        kind: EndpointSlice
        metadata: {name: s}
        addressType: IPv4
        endpoints: [{addresses: [10.0.0.1]}]
        ports: [{port: 80}]
        """), "kubectl").orThrow();
    assertThat(at(created, "ports")).isEqualTo(yaml("p: [{port: 80, name: '', protocol: TCP}]")
        .getOrNull("p"));

    ApiResponse r = f.update(SLICES, "default", "s", created.with("addressType",
        io.apiserver4j.core.Value.of("FQDN")).with("endpoints", yaml("e: [{addresses: [a.b]}]")
        .getOrNull("e")), "kubectl");

    assertThat(r.code()).isEqualTo(422);
    assertThat(str(r.body(), "message")).isEqualTo("EndpointSlice.discovery.k8s.io \"s\" is"
        + " invalid: addressType: Invalid value: \"FQDN\": field is immutable");
  }

  @Test
  void eventsV1NeedsEventTime() {
    ApiResponse r = f.create(EVENTS, "default", yaml("""
        apiVersion: events.k8s.io/v1
        kind: Event
        metadata: {name: e}
        regarding: {kind: Pod, name: p, namespace: default}
        type: Normal
        """), "kubectl");

    assertThat(r.code()).isEqualTo(422);
    assertThat(str(r.body(), "message")).isEqualTo("Event.events.k8s.io \"e\" is invalid:"
        + " eventTime: Required value");
  }

  @Test
  void pdbStatusIsValidatedOnTheStatusSubresource() {
    MapValue created = f.create(PDBS, "default", yaml("""
        apiVersion: policy/v1
        kind: PodDisruptionBudget
        metadata: {name: p}
        spec: {minAvailable: 1, selector: {matchLabels: {app: a}}}
        """), "kubectl").orThrow();

    ApiResponse r = f.server.handle(req(Verb.UPDATE, PDBS, "default", "p").subresource("status")
        .body(created.with("status", yaml("{disruptionsAllowed: -1, currentHealthy: 0,"
            + " desiredHealthy: 1, expectedPods: 1}"))).fieldManager("controller").build());

    assertThat(r.code()).isEqualTo(422);
    assertThat(str(r.body(), "message")).isEqualTo("PodDisruptionBudget.policy \"p\" is invalid:"
        + " status.disruptionsAllowed: Invalid value: -1: must be greater than or equal to 0");
  }
}
