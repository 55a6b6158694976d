/*
 * Copyright The apiserver4j authors.
 * SPDX-License-Identifier: Apache-2.0
 */
package io.apiserver4j.apiserver.internal;

import io.apiserver4j.apiserver.ApiRequest;
import io.apiserver4j.apiserver.ApiResponse;
import io.apiserver4j.apiserver.ResourceDefinition;
import io.apiserver4j.core.GroupVersionResource;
import io.apiserver4j.core.ListValue;
import io.apiserver4j.core.MapValue;
import io.apiserver4j.core.Meta;
import io.apiserver4j.core.Nested;
import io.apiserver4j.core.errors.StatusReason;
import io.apiserver4j.core.Value;
import io.apiserver4j.storage.CollectionKey;
import io.apiserver4j.storage.ListOptions;
import io.apiserver4j.storage.ObjectKey;
import io.apiserver4j.storage.Store;
import io.apiserver4j.storage.StoredObject;
import java.time.Clock;
import java.util.LinkedHashMap;
import java.util.Map;
import java.util.Set;
import java.util.function.Function;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * The APIService objects kube-apiserver's aggregator keeps for the group versions it serves
 * itself, with its controllers' work done synchronously through the loopback client:
 *
 * <ul>
 *   <li>autoregistration at start ({@link #registerOnStart}): one APIService
 *       {@code <version>.<group>} per served built-in group version found in kube's priority
 *       table, labelled {@code kube-aggregator.kubernetes.io/automanaged: onstart};
 *   <li>CRD registration: one APIService per served version of every stored
 *       CustomResourceDefinition (group priority 1000, version priority 100, labelled
 *       {@code automanaged: "true"}), removed when no CRD serves that group version any more;
 *   <li>local availability: an APIService without {@code spec.service} is served by this server,
 *       so its condition {@code Available} is True with reason {@code Local}.
 * </ul>
 *
 * <p>As kube's autoregister controller, an APIService without the automanaged label is never
 * touched, and one labelled {@code onstart} is only reconciled at start.
 */
final class ApiServiceRegistration implements WriteListener {
  static final GroupVersionResource API_SERVICES =
      new GroupVersionResource("apiregistration.k8s.io", "v1", "apiservices");
  static final String AUTOMANAGED = "kube-aggregator.kubernetes.io/automanaged";
  private static final String ON_START = "onstart";
  private static final String CONTINUOUSLY = "true";
  private static final String CONTROLLER_AGENT = "kube-apiserver/v1.0.0 (linux/amd64)";
  static final String LOCAL_MESSAGE = "Local APIServices are always available";
  private static final Logger LOG = LoggerFactory.getLogger(ApiServiceRegistration.class);

  /** What CRDs' APIServices get: below every built-in group (kube's crdRegistrationController). */
  private static final Priority CRD_PRIORITY = new Priority(1000, 100);

  private record Priority(int group, int version) {}

  /**
   * kube-apiserver 1.36's {@code apiVersionPriorities}: the generic table of
   * pkg/controlplane/apiserver merged with cmd/kube-apiserver's own entries. Group versions not
   * listed get no APIService, as in kube.
   */
  private static final Map<String, Priority> PRIORITIES = priorities();

  private final Store store;
  private final Registry registry;
  private final Function<ApiRequest, ApiResponse> loopback;
  private final Clock clock;
  private final Object lock = new Object();

  ApiServiceRegistration(Store store, Registry registry,
      Function<ApiRequest, ApiResponse> loopback, Clock clock) {
    this.store = store;
    this.registry = registry;
    this.loopback = loopback;
    this.clock = clock;
  }

  private static Map<String, Priority> priorities() {
    Map<String, Priority> p = new LinkedHashMap<>();
    // the generic control plane's table
    p.put("/v1", new Priority(18000, 1));
    p.put("events.k8s.io/v1", new Priority(17750, 15));
    p.put("events.k8s.io/v1beta1", new Priority(17750, 5));
    p.put("authentication.k8s.io/v1", new Priority(17700, 15));
    p.put("authentication.k8s.io/v1beta1", new Priority(17700, 9));
    p.put("authentication.k8s.io/v1alpha1", new Priority(17700, 1));
    p.put("authorization.k8s.io/v1", new Priority(17600, 15));
    p.put("certificates.k8s.io/v1", new Priority(17300, 15));
    p.put("certificates.k8s.io/v1beta1", new Priority(17300, 9));
    p.put("certificates.k8s.io/v1alpha1", new Priority(17300, 1));
    p.put("rbac.authorization.k8s.io/v1", new Priority(17000, 15));
    p.put("apiextensions.k8s.io/v1", new Priority(16700, 15));
    p.put("admissionregistration.k8s.io/v1", new Priority(16700, 15));
    p.put("admissionregistration.k8s.io/v1beta1", new Priority(16700, 12));
    p.put("admissionregistration.k8s.io/v1alpha1", new Priority(16700, 9));
    p.put("coordination.k8s.io/v1", new Priority(16500, 15));
    p.put("coordination.k8s.io/v1beta1", new Priority(16500, 13));
    p.put("coordination.k8s.io/v1alpha2", new Priority(16500, 12));
    p.put("discovery.k8s.io/v1", new Priority(16200, 15));
    p.put("discovery.k8s.io/v1beta1", new Priority(16200, 12));
    p.put("flowcontrol.apiserver.k8s.io/v1", new Priority(16100, 21));
    p.put("flowcontrol.apiserver.k8s.io/v1beta3", new Priority(16100, 18));
    p.put("flowcontrol.apiserver.k8s.io/v1beta2", new Priority(16100, 15));
    p.put("flowcontrol.apiserver.k8s.io/v1beta1", new Priority(16100, 12));
    p.put("flowcontrol.apiserver.k8s.io/v1alpha1", new Priority(16100, 9));
    p.put("internal.apiserver.k8s.io/v1alpha1", new Priority(16000, 9));
    p.put("storagemigration.k8s.io/v1beta1", new Priority(15800, 9));
    // kube-apiserver's additions
    p.put("apps/v1", new Priority(17800, 15));
    p.put("autoscaling/v1", new Priority(17500, 15));
    p.put("autoscaling/v2", new Priority(17500, 30));
    p.put("autoscaling/v2beta1", new Priority(17500, 9));
    p.put("autoscaling/v2beta2", new Priority(17500, 1));
    p.put("batch/v1", new Priority(17400, 15));
    p.put("batch/v1beta1", new Priority(17400, 9));
    p.put("batch/v2alpha1", new Priority(17400, 9));
    p.put("networking.k8s.io/v1", new Priority(17200, 15));
    p.put("networking.k8s.io/v1beta1", new Priority(17200, 9));
    p.put("policy/v1", new Priority(17100, 15));
    p.put("policy/v1beta1", new Priority(17100, 9));
    p.put("storage.k8s.io/v1", new Priority(16800, 15));
    p.put("storage.k8s.io/v1beta1", new Priority(16800, 9));
    p.put("storage.k8s.io/v1alpha1", new Priority(16800, 1));
    p.put("scheduling.k8s.io/v1", new Priority(16600, 15));
    p.put("node.k8s.io/v1", new Priority(16300, 15));
    p.put("node.k8s.io/v1alpha1", new Priority(16300, 1));
    p.put("node.k8s.io/v1beta1", new Priority(16300, 9));
    // resource.k8s.io/v1 (GA in 1.34): its entry was not in the kube sources at hand; it is
    // ranked above its betas as the table ranks every GA version (flowcontrol v1: 21)
    p.put("resource.k8s.io/v1", new Priority(16200, 21));
    p.put("resource.k8s.io/v1beta2", new Priority(16200, 15));
    p.put("resource.k8s.io/v1beta1", new Priority(16200, 9));
    p.put("resource.k8s.io/v1alpha3", new Priority(16200, 1));
    return Map.copyOf(p);
  }

  boolean served() {
    return registry.find(API_SERVICES).isPresent();
  }

  /**
   * What the aggregator does when it starts: the APIServices of the built-in group versions are
   * created or brought back to their spec, automanaged ones nobody wants any more are deleted,
   * those of the CRDs in storage are registered, and local ones are marked available.
   */
  void registerOnStart() {
    if (!served()) {
      return;
    }
    synchronized (lock) {
      Map<String, MapValue> desired = new LinkedHashMap<>(builtinApiServices());
      Map<String, MapValue> forCrds = crdApiServices(desired.keySet());
      desired.putAll(forCrds);
      Map<String, MapValue> current = currentApiServices();
      for (Map.Entry<String, MapValue> e : desired.entrySet()) {
        MapValue cur = current.get(e.getKey());
        if (cur == null) {
          create(e.getValue());
        } else if (!automanagedType(cur).isEmpty()) {
          updateSpec(cur, e.getValue());
        }
      }
      for (Map.Entry<String, MapValue> e : current.entrySet()) {
        if (!desired.containsKey(e.getKey()) && !automanagedType(e.getValue()).isEmpty()) {
          delete(e.getKey());
        }
      }
      for (MapValue a : currentApiServices().values()) {
        markAvailableIfLocal(a);
      }
    }
  }

  @Override
  public void committed(ResourceDefinition def, WriteOutcome outcome) {
    if (def.resource().equals(CrdController.CRD_RESOURCE)) {
      syncCrds();
    } else if (def.customResource() && outcome instanceof WriteOutcome.Deleted) {
      // the last object of a terminating CRD takes the CRD with it
      String crd = def.plural() + "." + def.kind().group();
      if (store.get(new ObjectKey(CrdController.CRD_RESOURCE.group(),
          CrdController.CRD_RESOURCE.resource(), "", crd)).isEmpty()) {
        syncCrds();
      }
    } else if (def.groupResource().equals(API_SERVICES.groupResource())
        && !(outcome instanceof WriteOutcome.Deleted)) {
      markAvailableIfLocal(outcome.object());
    }
  }

  /** The CRD registration controller's work: continuously managed APIServices follow CRDs. */
  private void syncCrds() {
    if (!served()) {
      return;
    }
    synchronized (lock) {
      Map<String, MapValue> builtin = builtinApiServices();
      Map<String, MapValue> desired = crdApiServices(builtin.keySet());
      Map<String, MapValue> current = currentApiServices();
      for (Map.Entry<String, MapValue> e : desired.entrySet()) {
        MapValue cur = current.get(e.getKey());
        if (cur == null) {
          create(e.getValue());
        } else if (automanagedType(cur).equals(CONTINUOUSLY)) {
          updateSpec(cur, e.getValue());
        }
      }
      for (Map.Entry<String, MapValue> e : current.entrySet()) {
        if (automanagedType(e.getValue()).equals(CONTINUOUSLY)
            && !desired.containsKey(e.getKey()) && !builtin.containsKey(e.getKey())) {
          delete(e.getKey());
        }
      }
    }
  }

  private Map<String, MapValue> builtinApiServices() {
    Map<String, MapValue> out = new LinkedHashMap<>();
    for (ResourceDefinition d : registry.all()) {
      if (d.customResource()) {
        continue;
      }
      String group = d.kind().group();
      String version = d.kind().version();
      Priority p = PRIORITIES.get(group + "/" + version);
      if (p != null) {
        out.putIfAbsent(version + "." + group, apiService(group, version, p, ON_START));
      }
    }
    return out;
  }

  private Map<String, MapValue> crdApiServices(Set<String> local) {
    Map<String, MapValue> out = new LinkedHashMap<>();
    for (StoredObject o : store.list(CollectionKey.all(CrdController.CRD_RESOURCE.group(),
        CrdController.CRD_RESOURCE.resource()), ListOptions.all()).items()) {
      MapValue crd = o.object();
      String group = Nested.str(crd, "spec", "group");
      for (Value v : Nested.list(crd, "spec", "versions")) {
        String version = Nested.str(v, "name");
        String name = version + "." + group;
        // a group version served by the server itself keeps its own APIService
        if (Nested.bool(v, "served") && !local.contains(name)) {
          out.putIfAbsent(name, apiService(group, version, CRD_PRIORITY, CONTINUOUSLY));
        }
      }
    }
    return out;
  }

  private Map<String, MapValue> currentApiServices() {
    Map<String, MapValue> out = new LinkedHashMap<>();
    for (StoredObject o : store.list(CollectionKey.all(API_SERVICES.group(),
        API_SERVICES.resource()), ListOptions.all()).items()) {
      out.put(Meta.metaString(o.object(), "name"), o.object());
    }
    return out;
  }

  private static String automanagedType(MapValue apiService) {
    String v = Meta.labels(apiService).get(AUTOMANAGED);
    return ON_START.equals(v) || CONTINUOUSLY.equals(v) ? v : "";
  }

  private static MapValue apiService(String group, String version, Priority p, String managed) {
    return MapValue.ofEntries(
        "apiVersion", Value.of("apiregistration.k8s.io/v1"),
        "kind", Value.of("APIService"),
        "metadata", MapValue.ofEntries("name", Value.of(version + "." + group),
            "labels", MapValue.ofEntries(AUTOMANAGED, Value.of(managed))),
        "spec", MapValue.ofEntries("group", Value.of(group), "version", Value.of(version),
            "groupPriorityMinimum", Value.of(p.group()),
            "versionPriority", Value.of(p.version())));
  }

  private void create(MapValue apiService) {
    ApiResponse r = loopback.apply(ApiRequest.builder(ApiRequest.Verb.CREATE, API_SERVICES)
        .body(apiService).userAgent(CONTROLLER_AGENT).build());
    if (!r.isSuccess() && r.failure().orElseThrow().reason() != StatusReason.ALREADY_EXISTS) {
      LOG.warn("cannot register APIService {}: {}", Meta.metaString(apiService, "name"),
          r.failure().orElseThrow().message());
    }
  }

  // as kube's autoregister controller, only the spec is brought back to what is desired
  private void updateSpec(MapValue current, MapValue desired) {
    MapValue wanted = Nested.mapOrNull(desired, "spec");
    if (wanted.equals(Nested.mapOrNull(current, "spec"))) {
      return;
    }
    ApiResponse r = loopback.apply(ApiRequest.builder(ApiRequest.Verb.UPDATE, API_SERVICES)
        .name(Meta.metaString(current, "name")).body(current.with("spec", wanted))
        .userAgent(CONTROLLER_AGENT).build());
    if (!r.isSuccess()) {
      LOG.warn("cannot update APIService {}: {}", Meta.metaString(current, "name"),
          r.failure().orElseThrow().message());
    }
  }

  private void delete(String name) {
    ApiResponse r = loopback.apply(ApiRequest.builder(ApiRequest.Verb.DELETE, API_SERVICES)
        .name(name).userAgent(CONTROLLER_AGENT).build());
    if (!r.isSuccess() && r.failure().orElseThrow().reason() != StatusReason.NOT_FOUND) {
      LOG.warn("cannot delete APIService {}: {}", name, r.failure().orElseThrow().message());
    }
  }

  /** kube's local availability controller: a local APIService is always available. */
  private void markAvailableIfLocal(MapValue apiService) {
    if (Nested.has(apiService, "spec", "service")
        || Meta.hasMeta(apiService, "deletionTimestamp")) {
      return;
    }
    Value conditions = Nested.getOrNull(apiService, "status", "conditions");
    if (availableLocally(conditions)) {
      return;
    }
    MapValue condition = CrdSupport.condition("Available", "True", "Local", LOCAL_MESSAGE,
        Meta.formatTime(clock.instant()));
    MapValue body = Nested.set(apiService, CrdSupport.setCondition(conditions, condition),
        "status", "conditions");
    ApiResponse r = loopback.apply(ApiRequest.builder(ApiRequest.Verb.UPDATE, API_SERVICES)
        .name(Meta.metaString(apiService, "name")).subresource("status").body(body)
        .userAgent(CONTROLLER_AGENT).build());
    if (!r.isSuccess() && r.failure().orElseThrow().reason() != StatusReason.NOT_FOUND
        && r.failure().orElseThrow().reason() != StatusReason.CONFLICT) {
      LOG.warn("cannot mark APIService {} available: {}", Meta.metaString(apiService, "name"),
          r.failure().orElseThrow().message());
    }
  }

  private static boolean availableLocally(Value conditions) {
    if (conditions instanceof ListValue l) {
      for (Value c : l.items()) {
        if (c instanceof MapValue m && Meta.string(m, "type").equals("Available")) {
          return Meta.string(m, "status").equals("True") && Meta.string(m, "reason").equals("Local")
              && Meta.string(m, "message").equals(LOCAL_MESSAGE);
        }
      }
    }
    return false;
  }
}
