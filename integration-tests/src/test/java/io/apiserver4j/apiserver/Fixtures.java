/*
 * Copyright The apiserver4j authors.
 * SPDX-License-Identifier: Apache-2.0
 */
package io.apiserver4j.apiserver;

import io.apiserver4j.apiserver.ApiRequest.Verb;
import io.apiserver4j.apimachinery.patch.PatchType;
import io.apiserver4j.core.GroupVersionResource;
import io.apiserver4j.core.Json;
import io.apiserver4j.core.ListValue;
import io.apiserver4j.core.MapValue;
import io.apiserver4j.core.Value;
import io.apiserver4j.core.Yaml;
import java.util.Random;
import java.util.concurrent.atomic.AtomicInteger;

/** Servers with an injected clock and uids, and request shorthands. */
final class Fixtures {
  /**
   * The text of a third-party CRD manifest in {@code ../shared/crds} (read from there, never
   * copied into the repository), e.g. {@code cert-manager/cert-manager.io_certificates.yaml}.
   */
  static String sharedCrd(String path) {
    try {
      return java.nio.file.Files.readString(java.nio.file.Path.of(
          System.getProperty("apiserver4j.shared", "../shared"), "crds").resolve(path));
    } catch (java.io.IOException e) {
      throw new java.io.UncheckedIOException(e);
    }
  }

  static final GroupVersionResource CONFIGMAPS = new GroupVersionResource("", "v1", "configmaps");
  static final GroupVersionResource SECRETS = new GroupVersionResource("", "v1", "secrets");
  static final GroupVersionResource PODS = new GroupVersionResource("", "v1", "pods");
  static final GroupVersionResource SERVICES = new GroupVersionResource("", "v1", "services");
  static final GroupVersionResource NAMESPACES = new GroupVersionResource("", "v1", "namespaces");
  static final GroupVersionResource DEPLOYMENTS =
      new GroupVersionResource("apps", "v1", "deployments");
  static final GroupVersionResource STATEFULSETS =
      new GroupVersionResource("apps", "v1", "statefulsets");
  static final GroupVersionResource CRDS =
      new GroupVersionResource("apiextensions.k8s.io", "v1", "customresourcedefinitions");

  static final String DEPLOYMENT_YAML = """
      apiVersion: apps/v1
      kind: Deployment
      metadata: {name: d, labels: {app: d}}
      spec:
        replicas: 1
        selector: {matchLabels: {app: d}}
        template:
          metadata: {labels: {app: d}}
          spec:
            containers:
            - {name: c, image: "nginx:1.25"}
      """;

  final TestClock clock = new TestClock();
  final AtomicInteger uids = new AtomicInteger();
  final ApiServer server;

  Fixtures() {
    this(ApiServer.builder().random(new Random(42)));
  }

  /**
   * kube-apiserver's in-process default admission plugins: off in these scenarios, which run the
   * request path on an empty store (no namespaces, no default ServiceAccount), as a kube-apiserver
   * started with them in {@code --disable-admission-plugins}; the policy and webhook stages stay.
   */
  static final String[] IN_PROCESS_PLUGINS = {"NamespaceLifecycle", "LimitRanger",
      "ServiceAccount", "TaintNodesByCondition", "PodSecurity", "Priority",
      "DefaultTolerationSeconds", "DefaultStorageClass", "StorageObjectInUseProtection",
      "PersistentVolumeClaimResize", "RuntimeClass", "CertificateApproval", "CertificateSigning",
      "ClusterTrustBundleAttest", "CertificateSubjectRestriction", "DefaultIngressClass"};

  /** A server from {@code b} with the fixture's clock and uid source. */
  Fixtures(ApiServer.Builder b) {
    // the scenarios count objects, uids and revisions from an empty store
    server = b.bootstrap(false).clock(clock).uidSource(() -> "uid-" + uids.incrementAndGet())
        .disableAdmissionPlugins(IN_PROCESS_PLUGINS).build();
  }

  static MapValue yaml(String text) {
    return (MapValue) Yaml.read(text);
  }

  static Value json(String text) {
    return Json.read(text);
  }

  static MapValue jsonMap(String text) {
    return (MapValue) Json.read(text);
  }

  static ApiRequest.Builder req(Verb verb, GroupVersionResource gvr, String ns, String name) {
    return ApiRequest.builder(verb, gvr).namespace(ns).name(name);
  }

  ApiResponse apply(GroupVersionResource gvr, String ns, String name, String manager, String yaml) {
    return server.handle(req(Verb.PATCH, gvr, ns, name).fieldManager(manager)
        .patch(PatchType.APPLY_YAML, yaml).build());
  }

  ApiResponse forceApply(GroupVersionResource gvr, String ns, String name, String manager,
      String yaml) {
    return server.handle(req(Verb.PATCH, gvr, ns, name).fieldManager(manager).force(true)
        .patch(PatchType.APPLY_YAML, yaml).build());
  }

  ApiResponse create(GroupVersionResource gvr, String ns, Value body, String manager) {
    return server.handle(req(Verb.CREATE, gvr, ns, "").body(body).fieldManager(manager).build());
  }

  ApiResponse update(GroupVersionResource gvr, String ns, String name, Value body,
      String manager) {
    return server.handle(req(Verb.UPDATE, gvr, ns, name).body(body).fieldManager(manager)
        .build());
  }

  ApiResponse patch(GroupVersionResource gvr, String ns, String name, PatchType type,
      String patch, String manager) {
    return server.handle(req(Verb.PATCH, gvr, ns, name).fieldManager(manager)
        .patch(type, patch).build());
  }

  ApiResponse get(GroupVersionResource gvr, String ns, String name) {
    return server.handle(req(Verb.GET, gvr, ns, name).build());
  }

  ApiResponse delete(GroupVersionResource gvr, String ns, String name) {
    return server.handle(req(Verb.DELETE, gvr, ns, name).build());
  }

  /** {@code metadata.managedFields} as a list (empty when absent). */
  static ListValue managedFields(MapValue obj) {
    Value mf = ((MapValue) obj.getOrNull("metadata")).getOrNull("managedFields");
    return mf == null ? ListValue.empty() : (ListValue) mf;
  }

  static MapValue entry(MapValue obj, int i) {
    return (MapValue) managedFields(obj).get(i);
  }

  static String str(Value v, String... path) {
    Value cur = v;
    for (String p : path) {
      cur = ((MapValue) cur).getOrNull(p);
      if (cur == null) {
        return null;
      }
    }
    return cur instanceof io.apiserver4j.core.StringValue s ? s.value() : Json.write(cur);
  }

  static Value at(Value v, String... path) {
    return io.apiserver4j.core.Nested.getOrNull(v, path);
  }
}
