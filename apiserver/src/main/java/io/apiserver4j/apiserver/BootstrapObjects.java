/*
 * Copyright The apiserver4j authors.
 * SPDX-License-Identifier: Apache-2.0
 */
package io.apiserver4j.apiserver;

import static java.util.Objects.requireNonNull;

import io.apiserver4j.core.GroupVersionResource;
import io.apiserver4j.core.Json;
import io.apiserver4j.core.MapValue;
import io.apiserver4j.core.errors.StatusReason;
import io.apiserver4j.core.StringValue;
import io.apiserver4j.core.Value;
import java.util.ArrayList;
import java.util.List;

/**
 * The objects kube-apiserver writes when it starts: the namespaces {@code default},
 * {@code kube-system}, {@code kube-public} and {@code kube-node-lease}; the {@code kubernetes}
 * Service in {@code default} with its Endpoints and EndpointSlice pointing at the server; the
 * {@code extension-apiserver-authentication} ConfigMap in {@code kube-system}; the priority
 * classes {@code system-node-critical} and {@code system-cluster-critical}. The bootstrap RBAC
 * policy, which kube writes when RBAC authorizes, is the auth module's {@code Bootstrap}.
 *
 * <p>{@link #ensure} creates those that are missing through the server, as kube-apiserver's
 * bootstrap controllers do, as system writes that skip the kinds' validation (kube's endpoint
 * reconciler writes to storage, so a loopback advertise address is written although the
 * Endpoints validation refuses it from clients), and leaves existing ones alone except
 * the {@code kubernetes} Service, Endpoints and EndpointSlice, whose ports and addresses are
 * brought back to the server's, as kube's endpoint reconciler does. A server built with
 * {@link ApiServer.Builder#bootstrap} (the default) has already written them once.
 * Thread-safe (stateless).
 */
public final class BootstrapObjects {
  /** The first address of the default service cluster IP range, 10.0.0.0/24. */
  public static final String KUBERNETES_SERVICE_IP = "10.0.0.1";

  /** Where a server's {@code kubernetes} endpoints point unless told otherwise. */
  static final String DEFAULT_ADVERTISE_ADDRESS = "127.0.0.1";
  /** kube-apiserver's default {@code --secure-port}. */
  static final int DEFAULT_SECURE_PORT = 6443;

  private static final String USER_AGENT = "kube-apiserver/v1.36.0 (linux/amd64) kubernetes";

  private BootstrapObjects() {}

  /**
   * The objects, in the order kube-apiserver creates them.
   *
   * @param advertiseAddress the IP address the {@code kubernetes} endpoints point to
   * @param securePort the port they point to
   */
  public static List<MapValue> objects(String advertiseAddress, int securePort) {
    return objects(advertiseAddress, securePort, KUBERNETES_SERVICE_IP);
  }

  /**
   * The objects, in the order kube-apiserver creates them, the {@code kubernetes} Service at
   * {@code serviceIp} (the first address of the server's service cluster IP range).
   */
  public static List<MapValue> objects(String advertiseAddress, int securePort,
      String serviceIp) {
    requireNonNull(advertiseAddress, "advertiseAddress");
    requireNonNull(serviceIp, "serviceIp");
    if (securePort < 1 || securePort > 65535) {
      throw new IllegalArgumentException("securePort must be a port number: " + securePort);
    }
    List<MapValue> out = new ArrayList<>();
    for (String ns : List.of("default", "kube-system", "kube-public", "kube-node-lease")) {
      out.add(json("{\"apiVersion\":\"v1\",\"kind\":\"Namespace\",\"metadata\":{\"name\":\""
          + ns + "\"}}"));
    }
    out.add(json("{\"apiVersion\":\"v1\",\"kind\":\"Service\",\"metadata\":{\"name\":"
        + "\"kubernetes\",\"namespace\":\"default\",\"labels\":{\"component\":\"apiserver\","
        + "\"provider\":\"kubernetes\"}},\"spec\":{\"type\":\"ClusterIP\",\"clusterIP\":\""
        + serviceIp + "\",\"clusterIPs\":[\"" + serviceIp + "\"],"
        + "\"ipFamilies\":[\"IPv4\"],\"ipFamilyPolicy\":\"SingleStack\",\"sessionAffinity\":"
        + "\"None\",\"ports\":[{\"name\":\"https\",\"port\":443,\"protocol\":\"TCP\","
        + "\"targetPort\":" + securePort + "}]}}"));
    out.add(json("{\"apiVersion\":\"v1\",\"kind\":\"Endpoints\",\"metadata\":{\"name\":"
        + "\"kubernetes\",\"namespace\":\"default\",\"labels\":{"
        + "\"endpointslice.kubernetes.io/skip-mirror\":\"true\"}},\"subsets\":[{\"addresses\":"
        + "[{\"ip\":\"" + advertiseAddress + "\"}],\"ports\":[{\"name\":\"https\",\"port\":"
        + securePort + ",\"protocol\":\"TCP\"}]}]}"));
    out.add(json("{\"apiVersion\":\"discovery.k8s.io/v1\",\"kind\":\"EndpointSlice\","
        + "\"metadata\":{\"name\":\"kubernetes\",\"namespace\":\"default\",\"labels\":{"
        + "\"kubernetes.io/service-name\":\"kubernetes\"}},\"addressType\":\""
        + (advertiseAddress.contains(":") ? "IPv6" : "IPv4") + "\",\"endpoints\":[{"
        + "\"addresses\":[\"" + advertiseAddress + "\"],\"conditions\":{\"ready\":true}}],"
        + "\"ports\":[{\"name\":\"https\",\"port\":" + securePort + ",\"protocol\":\"TCP\"}]}"));
    out.add(json("{\"apiVersion\":\"v1\",\"kind\":\"ConfigMap\",\"metadata\":{\"name\":"
        + "\"extension-apiserver-authentication\",\"namespace\":\"kube-system\"},\"data\":{}}"));
    out.add(priorityClass("system-node-critical", 2000001000L, "Used for system critical pods"
        + " that must not be moved from their current node."));
    out.add(priorityClass("system-cluster-critical", 2000000000L, "Used for system critical"
        + " pods that must run in the cluster, but can be moved to another node if necessary."));
    return List.copyOf(out);
  }

  /**
   * Creates through {@code server} every object of {@link #objects} that does not exist yet.
   *
   * @return the names of the objects created, as {@code kind/namespace/name}
   * @throws io.apiserver4j.core.errors.StatusException if the server refuses one for another reason
   *     than that it exists
   */
  public static List<String> ensure(ApiServer server, String advertiseAddress, int securePort) {
    requireNonNull(server, "server");
    return ensure(server, advertiseAddress, securePort, true);
  }

  /** As {@link #ensure}, skipping the objects whose kind the server does not serve. */
  static List<String> ensureServed(ApiServer server, String advertiseAddress, int securePort) {
    return ensure(server, advertiseAddress, securePort, false);
  }

  private static List<String> ensure(ApiServer server, String advertiseAddress, int securePort,
      boolean requireServed) {
    List<String> created = new ArrayList<>();
    for (MapValue o : objects(advertiseAddress, securePort, server.kubernetesServiceIp())) {
      String apiVersion = str(o, "apiVersion");
      ResourceDefinition def = server.registry().all().stream()
          .filter(d -> d.kind().apiVersion().equals(apiVersion)
              && d.kind().kind().equals(str(o, "kind")))
          .findFirst().orElse(null);
      if (def == null) {
        if (requireServed) {
          throw new IllegalStateException("the server does not serve " + apiVersion + " "
              + str(o, "kind"));
        }
        continue;
      }
      MapValue meta = (MapValue) o.getOrNull("metadata");
      String namespace = str(meta, "namespace");
      if (str(o, "kind").equals("Service") && server.handle(ApiRequest.builder(
          ApiRequest.Verb.GET, def.resource()).namespace(namespace).name(str(meta, "name"))
          .userAgent(USER_AGENT).build()).isSuccess()) {
        // kube's kubernetes-service controller reads the Service first: a create would claim
        // its cluster IP again, which the existing Service holds
        reconcile(server, def, namespace, o);
        continue;
      }
      ApiResponse r = server.handleSystemWrite(ApiRequest.builder(ApiRequest.Verb.CREATE,
          def.resource())
          .namespace(namespace).body(o).userAgent(USER_AGENT).build());
      if (r.isSuccess()) {
        created.add(str(o, "kind") + "/" + namespace + "/" + str(meta, "name"));
      } else if (r.failure().orElseThrow().reason() != StatusReason.ALREADY_EXISTS) {
        r.orThrow();
      } else if (str(meta, "name").equals("kubernetes")) {
        reconcile(server, def, namespace, o);
      }
    }
    return List.copyOf(created);
  }

  /** The fields of the kubernetes Service and its endpoints that say where the server is. */
  private static final List<String> SERVER_LOCATION = List.of("subsets", "addressType",
      "endpoints", "ports");

  private static void reconcile(ApiServer server, ResourceDefinition def, String namespace,
      MapValue wanted) {
    String name = str((MapValue) wanted.getOrNull("metadata"), "name");
    ApiResponse got = server.handle(ApiRequest.builder(ApiRequest.Verb.GET, def.resource())
        .namespace(namespace).name(name).userAgent(USER_AGENT).build());
    if (!got.isSuccess()) {
      return;
    }
    MapValue current = got.body();
    MapValue updated = current;
    if (wanted.getOrNull("spec") instanceof MapValue spec) {
      // the Service: only its ports follow the server, as kube's service reconciliation
      MapValue curSpec = current.getOrNull("spec") instanceof MapValue m ? m : MapValue.empty();
      if (!java.util.Objects.equals(spec.getOrNull("ports"), curSpec.getOrNull("ports"))) {
        updated = updated.with("spec", curSpec.with("ports", spec.getOrNull("ports")));
      }
    } else {
      for (String field : SERVER_LOCATION) {
        Value v = wanted.getOrNull(field);
        if (v != null && !v.equals(current.getOrNull(field))) {
          updated = updated.with(field, v);
        }
      }
    }
    if (!updated.equals(current)) {
      server.handleSystemWrite(ApiRequest.builder(ApiRequest.Verb.UPDATE, def.resource())
          .namespace(namespace).name(name).body(updated).userAgent(USER_AGENT).build())
          .orThrow();
    }
  }

  private static MapValue priorityClass(String name, long value, String description) {
    return json("{\"apiVersion\":\"scheduling.k8s.io/v1\",\"kind\":\"PriorityClass\","
        + "\"metadata\":{\"name\":\"" + name + "\"},\"value\":" + value + ",\"description\":\""
        + description + "\",\"preemptionPolicy\":\"PreemptLowerPriority\"}");
  }

  private static MapValue json(String s) {
    return (MapValue) Json.read(s);
  }

  private static String str(MapValue m, String key) {
    return m.getOrNull(key) instanceof StringValue s ? s.value() : "";
  }
}
