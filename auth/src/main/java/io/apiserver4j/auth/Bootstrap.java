/*
 * Copyright The apiserver4j authors.
 * SPDX-License-Identifier: Apache-2.0
 */
package io.apiserver4j.auth;

import io.apiserver4j.admission.UserInfo;
import io.apiserver4j.apiserver.ApiRequest;
import io.apiserver4j.apiserver.ApiResponse;
import io.apiserver4j.apiserver.ApiServer;
import io.apiserver4j.core.GroupVersionResource;
import io.apiserver4j.core.ListValue;
import io.apiserver4j.core.MapValue;
import io.apiserver4j.core.Value;
import java.util.ArrayList;
import java.util.List;

/**
 * The bootstrap RBAC policy kube-apiserver writes at start (its {@code rbac/bootstrap-roles}
 * post-start hook): the user-facing roles cluster-admin, admin, edit and view (the last three
 * aggregated from {@code system:aggregate-to-*}), system:discovery, system:basic-user,
 * system:public-info-viewer, system:auth-delegator and system:service-account-issuer-discovery,
 * and their bindings — cluster-admin to {@code system:masters}, the discovery, basic-user and
 * public-info roles to authenticated (and, for public info, unauthenticated) users, issuer
 * discovery to service accounts; and kube's {@code system:controller:*} roles and bindings of the
 * kube-controller-manager controllers the server runs itself (clusterrole-aggregation-controller,
 * root-ca-cert-publisher, service-account-controller), bound to their service accounts in
 * {@code kube-system}. Objects that exist are left as they are.
 */
public final class Bootstrap {
  static final GroupVersionResource CLUSTER_ROLES =
      new GroupVersionResource("rbac.authorization.k8s.io", "v1", "clusterroles");
  static final GroupVersionResource CLUSTER_ROLE_BINDINGS =
      new GroupVersionResource("rbac.authorization.k8s.io", "v1", "clusterrolebindings");
  /** kube-apiserver's privileged loopback user, which writes the bootstrap policy. */
  static final UserInfo LOOPBACK = UserInfo.of("system:apiserver", "system:masters");
  private static final List<String> READ = List.of("get", "list", "watch");
  private static final List<String> WRITE = List.of("create", "delete", "deletecollection",
      "patch", "update");
  private static final List<String> ALL = List.of("create", "delete", "deletecollection", "get",
      "list", "patch", "update", "watch");

  private Bootstrap() {}

  /** Creates what is missing of the bootstrap policy through {@code server}. */
  public static void ensure(ApiServer server) {
    for (MapValue role : clusterRoles()) {
      create(server, CLUSTER_ROLES, role);
    }
    create(server, CLUSTER_ROLE_BINDINGS, binding("cluster-admin", "system:masters"));
    create(server, CLUSTER_ROLE_BINDINGS, binding("system:basic-user", "system:authenticated"));
    create(server, CLUSTER_ROLE_BINDINGS, binding("system:discovery", "system:authenticated"));
    create(server, CLUSTER_ROLE_BINDINGS, binding("system:public-info-viewer",
        "system:authenticated", "system:unauthenticated"));
    create(server, CLUSTER_ROLE_BINDINGS, binding("system:service-account-issuer-discovery",
        "system:serviceaccounts"));
    create(server, CLUSTER_ROLE_BINDINGS, binding("system:monitoring", "system:monitoring"));
    for (MapValue role : controllerRoles()) {
      create(server, CLUSTER_ROLES, role);
      String name = io.apiserver4j.core.Meta.metaString(role, "name");
      create(server, CLUSTER_ROLE_BINDINGS, controllerBinding(name,
          name.substring(CONTROLLER_PREFIX.length())));
    }
  }

  /** The prefix of kube's controller roles and bindings ({@code saRolePrefix}). */
  private static final String CONTROLLER_PREFIX = "system:controller:";

  /**
   * kube's roles of the kube-controller-manager controllers that the server itself runs
   * (bootstrappolicy's controller_policy.go), each bound to its service account in
   * {@code kube-system}.
   */
  static List<MapValue> controllerRoles() {
    MapValue events = rule(List.of("create", "update", "patch"),
        List.of("", "events.k8s.io"), List.of("events"));
    return List.of(
        role(CONTROLLER_PREFIX + "clusterrole-aggregation-controller", List.of(
            rule(List.of("escalate", "get", "list", "watch", "update", "patch"),
                List.of("rbac.authorization.k8s.io"), List.of("clusterroles")))),
        role(CONTROLLER_PREFIX + "root-ca-cert-publisher", List.of(
            rule(List.of("create", "update"), List.of(""), List.of("configmaps")), events)),
        role(CONTROLLER_PREFIX + "service-account-controller", List.of(
            rule(List.of("create"), List.of(""), List.of("serviceaccounts")), events)));
  }

  private static MapValue controllerBinding(String role, String serviceAccount) {
    MapValue b = binding(role);
    return b.with("subjects", ListValue.of(List.of(MapValue.ofEntries(
        "kind", Value.of("ServiceAccount"), "name", Value.of(serviceAccount),
        "namespace", Value.of("kube-system")))));
  }

  private static void create(ApiServer server, GroupVersionResource resource, MapValue object) {
    ApiResponse r = server.handle(ApiRequest.builder(ApiRequest.Verb.CREATE, resource)
        .body(object).userAgent("kube-apiserver/v1.36.0").user(LOOPBACK).build());
    if (!r.isSuccess() && r.code() != 409) {
      r.orThrow();
    }
  }

  static List<MapValue> clusterRoles() {
    List<MapValue> out = new ArrayList<>();
    out.add(aggregated("admin", List.of(), "rbac.authorization.k8s.io/aggregate-to-admin"));
    out.add(role("cluster-admin", List.of(rule(List.of("*"), List.of("*"), List.of("*")),
        urls(List.of("*"), List.of("*")))));
    out.add(aggregated("edit", List.of("rbac.authorization.k8s.io/aggregate-to-admin"),
        "rbac.authorization.k8s.io/aggregate-to-edit"));
    out.add(role("system:aggregate-to-admin", List.of(
        rule(List.of("create"), List.of("authorization.k8s.io"),
            List.of("localsubjectaccessreviews")),
        rule(ALL, List.of("rbac.authorization.k8s.io"), List.of("rolebindings", "roles"))),
        "rbac.authorization.k8s.io/aggregate-to-admin"));
    out.add(role("system:aggregate-to-edit", List.of(
        rule(READ, List.of(""), List.of("pods/attach", "pods/exec", "pods/portforward",
            "pods/proxy", "secrets", "services/proxy")),
        rule(List.of("impersonate"), List.of(""), List.of("serviceaccounts")),
        rule(WRITE, List.of(""), List.of("pods", "pods/attach", "pods/exec",
            "pods/portforward", "pods/proxy")),
        rule(List.of("create"), List.of(""), List.of("pods/eviction")),
        rule(WRITE, List.of(""), List.of("configmaps", "events", "persistentvolumeclaims",
            "replicationcontrollers", "replicationcontrollers/scale", "secrets",
            "serviceaccounts", "services", "services/proxy")),
        rule(List.of("create"), List.of(""), List.of("serviceaccounts/token")),
        rule(WRITE, List.of("apps"), List.of("daemonsets", "deployments",
            "deployments/rollback", "deployments/scale", "replicasets", "replicasets/scale",
            "statefulsets", "statefulsets/scale")),
        rule(WRITE, List.of("autoscaling"), List.of("horizontalpodautoscalers")),
        rule(WRITE, List.of("batch"), List.of("cronjobs", "jobs")),
        rule(WRITE, List.of("extensions"), List.of("daemonsets", "deployments",
            "deployments/rollback", "deployments/scale", "ingresses", "networkpolicies",
            "replicasets", "replicasets/scale", "replicationcontrollers/scale")),
        rule(WRITE, List.of("policy"), List.of("poddisruptionbudgets")),
        rule(WRITE, List.of("networking.k8s.io"), List.of("ingresses", "networkpolicies")),
        rule(ALL, List.of("coordination.k8s.io"), List.of("leases"))),
        "rbac.authorization.k8s.io/aggregate-to-edit"));
    out.add(role("system:aggregate-to-view", List.of(
        rule(READ, List.of(""), List.of("configmaps", "endpoints", "persistentvolumeclaims",
            "persistentvolumeclaims/status", "pods", "replicationcontrollers",
            "replicationcontrollers/scale", "serviceaccounts", "services", "services/status")),
        rule(READ, List.of(""), List.of("bindings", "events", "limitranges",
            "namespaces/status", "pods/log", "pods/status", "replicationcontrollers/status",
            "resourcequotas", "resourcequotas/status")),
        rule(READ, List.of(""), List.of("namespaces")),
        rule(READ, List.of("discovery.k8s.io"), List.of("endpointslices")),
        rule(READ, List.of("apps"), List.of("controllerrevisions", "daemonsets",
            "daemonsets/status", "deployments", "deployments/scale", "deployments/status",
            "replicasets", "replicasets/scale", "replicasets/status", "statefulsets",
            "statefulsets/scale", "statefulsets/status")),
        rule(READ, List.of("autoscaling"), List.of("horizontalpodautoscalers",
            "horizontalpodautoscalers/status")),
        rule(READ, List.of("batch"), List.of("cronjobs", "cronjobs/status", "jobs",
            "jobs/status")),
        rule(READ, List.of("extensions"), List.of("daemonsets", "daemonsets/status",
            "deployments", "deployments/scale", "deployments/status", "ingresses",
            "ingresses/status", "networkpolicies", "replicasets", "replicasets/scale",
            "replicasets/status", "replicationcontrollers/scale")),
        rule(READ, List.of("policy"), List.of("poddisruptionbudgets",
            "poddisruptionbudgets/status")),
        rule(READ, List.of("networking.k8s.io"), List.of("ingresses", "ingresses/status",
            "networkpolicies"))),
        "rbac.authorization.k8s.io/aggregate-to-view"));
    out.add(role("system:auth-delegator", List.of(
        rule(List.of("create"), List.of("authentication.k8s.io"), List.of("tokenreviews")),
        rule(List.of("create"), List.of("authorization.k8s.io"),
            List.of("subjectaccessreviews")))));
    out.add(role("system:basic-user", List.of(
        rule(List.of("create"), List.of("authorization.k8s.io"),
            List.of("selfsubjectaccessreviews", "selfsubjectrulesreviews")),
        rule(List.of("create"), List.of("authentication.k8s.io"),
            List.of("selfsubjectreviews")))));
    out.add(role("system:discovery", List.of(urls(List.of("get"), List.of("/api", "/api/*",
        "/apis", "/apis/*", "/healthz", "/livez", "/openapi", "/openapi/*", "/readyz",
        "/version", "/version/")))));
    out.add(role("system:public-info-viewer", List.of(urls(List.of("get"), List.of("/healthz",
        "/livez", "/readyz", "/version", "/version/")))));
    out.add(role("system:monitoring", List.of(urls(List.of("get"), List.of("/healthz",
        "/healthz/*", "/livez", "/livez/*", "/metrics", "/metrics/slis", "/readyz",
        "/readyz/*")))));
    out.add(role("system:service-account-issuer-discovery", List.of(urls(List.of("get"),
        List.of("/.well-known/openid-configuration", "/.well-known/openid-configuration/",
            "/openid/v1/jwks", "/openid/v1/jwks/")))));
    out.add(aggregated("view", List.of("rbac.authorization.k8s.io/aggregate-to-edit"),
        "rbac.authorization.k8s.io/aggregate-to-view"));
    return out;
  }

  /** An aggregated role: selects the roles labelled {@code aggregateFrom}, has labels. */
  private static MapValue aggregated(String name, List<String> labels, String aggregateFrom) {
    MapValue selector = MapValue.ofEntries("matchLabels",
        MapValue.ofEntries(aggregateFrom, Value.of("true")));
    return meta(name, labels).with("aggregationRule", MapValue.ofEntries(
        "clusterRoleSelectors", ListValue.of(List.of(selector))));
  }

  /** A role with rules, labelled to be aggregated into {@code labels}' roles. */
  private static MapValue role(String name, List<MapValue> rules, String... labels) {
    return meta(name, List.of(labels)).with("rules", ListValue.of(List.copyOf(rules)));
  }

  private static MapValue meta(String name, List<String> aggregatedInto) {
    MapValue.Builder labels = MapValue.builder()
        .put("kubernetes.io/bootstrapping", Value.of("rbac-defaults"));
    aggregatedInto.forEach(l -> labels.put(l, Value.of("true")));
    return MapValue.ofEntries("apiVersion", Value.of("rbac.authorization.k8s.io/v1"),
        "kind", Value.of("ClusterRole"), "metadata", MapValue.ofEntries(
            "name", Value.of(name), "labels", labels.build(), "annotations",
            MapValue.ofEntries("rbac.authorization.kubernetes.io/autoupdate", Value.of("true"))));
  }

  private static MapValue binding(String role, String... groups) {
    ListValue.Builder subjects = ListValue.builder(groups.length);
    for (String g : groups) {
      subjects.add(MapValue.ofEntries("apiGroup", Value.of("rbac.authorization.k8s.io"),
          "kind", Value.of("Group"), "name", Value.of(g)));
    }
    return MapValue.ofEntries("apiVersion", Value.of("rbac.authorization.k8s.io/v1"),
        "kind", Value.of("ClusterRoleBinding"), "metadata", MapValue.ofEntries(
            "name", Value.of(role), "labels", MapValue.ofEntries("kubernetes.io/bootstrapping",
                Value.of("rbac-defaults")), "annotations", MapValue.ofEntries(
                "rbac.authorization.kubernetes.io/autoupdate", Value.of("true"))),
        "roleRef", MapValue.ofEntries("apiGroup", Value.of("rbac.authorization.k8s.io"),
            "kind", Value.of("ClusterRole"), "name", Value.of(role)),
        "subjects", subjects.build());
  }

  private static MapValue rule(List<String> verbs, List<String> groups, List<String> resources) {
    return MapValue.ofEntries("apiGroups", strings(groups), "resources", strings(resources),
        "verbs", strings(verbs));
  }

  private static MapValue urls(List<String> verbs, List<String> urls) {
    return MapValue.ofEntries("nonResourceURLs", strings(urls), "verbs", strings(verbs));
  }

  private static ListValue strings(List<String> values) {
    return ListValue.of(values.stream().map(Value::of).toList());
  }
}
