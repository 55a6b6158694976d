/*
 * Copyright The apiserver4j authors.
 * SPDX-License-Identifier: Apache-2.0
 */
package io.apiserver4j.apiserver;

import io.apiserver4j.apiserver.kubelet.PodLogs;
import io.apiserver4j.apiserver.admission.AdmissionPluginContext;
import static java.util.Objects.requireNonNull;

import io.apiserver4j.apiserver.informer.CommitListener;
import io.apiserver4j.apiserver.strategy.VirtualCreate;
import io.apiserver4j.kubeapi.KubeVersion;
import io.apiserver4j.admission.AdmissionChain;
import io.apiserver4j.admission.UserInfo;
import io.apiserver4j.admission.plugins.NamespaceStore;
import io.apiserver4j.apiserver.internal.DefaultAdmission;
import io.apiserver4j.apiserver.internal.deep.DeepRequests;
import io.apiserver4j.apiserver.internal.Dispatcher;
import io.apiserver4j.apimachinery.validation.ServiceRanges;
import io.apiserver4j.apiserver.internal.Registry;
import io.apiserver4j.core.GroupResource;
import io.apiserver4j.core.GroupVersionResource;
import io.apiserver4j.core.errors.StatusException;
import io.apiserver4j.dryrun.GeneratedValuesPolicy;
import io.apiserver4j.storage.InMemoryStore;
import io.apiserver4j.storage.Store;
import java.time.Clock;
import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Random;
import java.util.UUID;
import java.util.concurrent.atomic.AtomicBoolean;
import java.util.function.Supplier;

/**
 * An embeddable Kubernetes-style API server: kube-apiserver's write path (create, get, list,
 * watch, update, patch with every patch type including server-side apply, delete and delete
 * collection, the status and scale subresources) with its metadata handling, the
 * managed-fields manager, optimistic concurrency, admission and {@code dryRun=All}, over a
 * pluggable {@link Store}.
 *
 * <pre>{@code
 * try (ApiServer server = ApiServer.builder().build()) {
 *   ResourceClient configMaps = server.resources(new GroupVersionResource("", "v1", "configmaps"))
 *       .namespace("default");
 *   configMaps.apply("my-manager", "apiVersion: v1\nkind: ConfigMap\nmetadata: {name: x}\n");
 * }
 * }</pre>
 *
 * <p>A new server starts as kube-apiserver does: it writes what kube-apiserver's start-up hooks
 * write when it is missing (the system namespaces, the {@code kubernetes} Service, the APIServices
 * of the served group versions, see {@link Builder#bootstrap}); its CRDs' group versions get
 * APIServices while they are served.
 *
 * <p>Several servers may share one store (as kube-apiserver instances share etcd): each serves
 * what the others write, custom resources included, since every server lists the
 * CustomResourceDefinitions in the store when it is built and keeps watching them in the
 * background (see {@link ResourceRegistry}).
 *
 * <p>{@link #handle} never throws for a request a client could send: every failure is an
 * {@link ApiResponse} carrying kube-apiserver's {@code Status}. Programmer errors (a WATCH given
 * to {@code handle}) are {@link IllegalArgumentException}s. Thread-safe.
 */
public final class ApiServer implements AutoCloseable {
  private static final org.slf4j.Logger LOG = org.slf4j.LoggerFactory.getLogger(ApiServer.class);
  private final Registry registry;
  private final Dispatcher pipeline;
  private final Store store;
  private final boolean ownsStore;
  private final AtomicBoolean closed = new AtomicBoolean();
  private final DeepRequests deepRequests = new DeepRequests();
  private final String serviceClusterIpRange;
  private final java.util.Set<String> admissionPlugins;
  private final KubeVersion version;
  private final io.apiserver4j.kubeapi.FeatureGates featureGates;
  /** The built-in controllers started by the constructor, by name, in start order. */
  private final BuiltinController.Slots controllers = new BuiltinController.Slots();
  private volatile PodLogs podLogs;
  private static final GroupVersionResource CRDS =
      new GroupVersionResource("apiextensions.k8s.io", "v1", "customresourcedefinitions");

  private ApiServer(Builder b) {
    this.registry = new Registry();
    this.podLogs = b.podLogs;
    List<ResourceDefinition> defs = new ArrayList<>();
    if (b.builtins) {
      defs.addAll(BuiltinApi.load().definitions(b.version));
    }
    defs.addAll(b.resources);
    this.version = b.version;
    this.featureGates = b.gates;
    // kube-apiserver's answers with its default authorizer (AlwaysAllow) and no token
    // authenticator, for the review resources the embedder does not answer itself
    java.util.Map<io.apiserver4j.core.GroupResource, VirtualCreate> defaults =
        b.builtins ? BuiltinApi.load().defaultVirtualCreates() : java.util.Map.of();
    List<ResourceDefinition> served = new ArrayList<>(defs.size());
    for (ResourceDefinition def : defs) {
      VirtualCreate create = b.virtualCreates.getOrDefault(def.groupResource(),
          defaults.get(def.groupResource()));
      java.util.Map<String, SubresourceCreate> subCreates =
          b.subresourceCreates.getOrDefault(def.groupResource(), java.util.Map.of());
      if (def.strategy().dropsDisabledFields()
          && !def.strategy().featureGates().equals(featureGates)) {
        // the kind's dropDisabledFields reads this server's gates (kube's global feature gate)
        def = def.toBuilder().strategy(def.strategy().toBuilder().featureGates(featureGates)
            .build()).build();
      }
      if (create != null || !subCreates.isEmpty()) {
        ResourceStrategy.Builder strategy = def.strategy().toBuilder();
        if (create != null) {
          strategy.virtualCreate(create);
        }
        subCreates.forEach(strategy::subresourceCreate);
        def = def.toBuilder().strategy(strategy.build()).build();
      }
      served.add(def);
    }
    registry.addAll(served);
    this.ownsStore = b.store == null;
    this.store = b.store == null ? InMemoryStore.create() : b.store;
    this.serviceClusterIpRange = b.serviceClusterIpRange;
    DefaultAdmission admission = b.builtins ? DefaultAdmission.select(
        BuiltinApi.load().admissionPlugins(), b.enabledPlugins, b.disabledPlugins,
        b.pluginImplementations) : DefaultAdmission.select(java.util.List.of(),
            java.util.Set.of(), java.util.Set.of(), java.util.Map.of());
    this.admissionPlugins = admission.enabled();
    java.util.Map<String, io.apiserver4j.core.MapValue> pluginConfig = b.admissionConfiguration;
    Random random = b.random;
    Store theStore = this.store;
    // the head is built first; the tail leaves out what it has (an embedder's ResourceQuota)
    java.util.concurrent.atomic.AtomicReference<AdmissionChain> head =
        new java.util.concurrent.atomic.AtomicReference<>(AdmissionChain.empty());
    Dispatcher.AdmissionSetup setup = new Dispatcher.AdmissionSetup(
        (ns, sources) -> {
          AdmissionChain h = DefaultAdmission.chain(b.admission.apply(ns), admission.head(),
              DefaultAdmission.context(theStore, ns, sources, random, b.clock, pluginConfig,
                  this::handle));
          head.set(h);
          return h;
        },
        (ns, sources) -> DefaultAdmission.chainAfter(head.get(), admission.tail(),
            DefaultAdmission.context(theStore, ns, sources, random, b.clock, pluginConfig,
                this::handle)),
        admission.disabledStages());
    this.pipeline = new Dispatcher(registry, store, b.clock, b.uids, b.random, setup,
        b.generatedValues, b.maxRequestBodyBytes, b.createAuthorizer, java.util.Map.of(
            ServiceRanges.CLUSTER_IP_RANGE_FLAG, b.serviceClusterIpRange,
            ServiceRanges.NODE_PORT_RANGE_FLAG, b.serviceNodePortRange));
    try {
      if (b.bootstrap) {
        // what kube-apiserver's post-start hooks write: the aggregator's APIServices, the
        // system namespaces, the kubernetes Service and the rest of its bootstrap objects;
        // before the CRD watch starts, which then has none of these writes to go through
        pipeline.registerApiServices();
        pipeline.startAllocators();
        BootstrapObjects.ensureServed(this, b.advertiseAddress, b.securePort);
      }
      if (registry.find(CRDS).isPresent()) {
        pipeline.followCrds();
      }
      controllers.add(BuiltinController.NAMESPACE, pipeline::startNamespaceController);
      if (b.builtins) {
        BuiltinController.Context context = new BuiltinController.Context(this, store,
            b.rootCaCertificate);
        for (BuiltinController c : BuiltinApi.load().controllers()) {
          if (admission.enabled().contains(c.admissionPlugin())) {
            controllers.add(c.name(), () -> c.start().apply(context));
          }
        }
      }
    } catch (RuntimeException e) {
      stopControllers();
      pipeline.stopFollowingCrds();
      deepRequests.close();
      if (ownsStore) {
        store.close();
      }
      throw e;
    }
  }

  /** The first address of the service cluster IP range: the {@code kubernetes} Service's. */
  String kubernetesServiceIp() {
    return ServiceRanges.firstAddress(serviceClusterIpRange);
  }

  /** A builder with the defaults listed on its methods. */
  public static Builder builder() {
    return new Builder();
  }

  /**
   * {@return the Kubernetes release whose API this server serves: its
   * {@link Builder#emulatedVersion emulated version}, by default the newest}
   */
  public KubeVersion kubernetesVersion() {
    return version;
  }

  /**
   * {@return the server's feature gates: the defaults of its
   * {@link #kubernetesVersion() release} with {@link Builder#featureGates} applied}
   */
  public io.apiserver4j.kubeapi.FeatureGates featureGates() {
    return featureGates;
  }

  /**
   * Writes one of the server's own objects ({@link BootstrapObjects}), skipping its kind's
   * validation as kube-apiserver's reconcilers writing straight to storage do.
   */
  ApiResponse handleSystemWrite(ApiRequest request) {
    requireNonNull(request, "request");
    checkOpen();
    return pipeline.handleSystemWrite(request);
  }

  /**
   * Runs one request (any verb but WATCH) and returns what kube-apiserver would answer.
   *
   * @throws IllegalArgumentException for a WATCH request
   * @throws IllegalStateException after {@link #close()}
   */
  public ApiResponse handle(ApiRequest request) {
    requireNonNull(request, "request");
    checkOpen();
    ApiResponse response;
    if (DeepRequests.isDeep(request.rawBodyUnsafe(), request.body())) {
      response = deepRequests.call(() -> pipeline.handle(request));
    } else {
      try {
        response = pipeline.handle(request);
      } catch (StackOverflowError e) {
        // a shallow request on a deep stored object: every walk happens before the write
        response = deepRequests.call(() -> pipeline.handle(request));
      }
    }
    // an unexpected exception was logged, with its stack, where it was caught
    return response;
  }

  /**
   * Opens a watch (verb WATCH) on a collection, or on one object when the request names it.
   *
   * @throws StatusException for a request kube-apiserver would refuse (unknown resource, bad
   *     selector, 410 Expired for a compacted resourceVersion)
   */
  public ApiWatch watch(ApiRequest request) {
    requireNonNull(request, "request");
    checkOpen();
    if (request.verb() != ApiRequest.Verb.WATCH) {
      throw new IllegalArgumentException("watch needs a WATCH request, got " + request.verb());
    }
    return pipeline.watch(request);
  }

  /**
   * Why the storage cannot serve requests now, or empty when it can (see {@code Store#check}):
   * what kube-apiserver's {@code etcd} health checks report.
   */
  public java.util.Optional<String> storageCheck() {
    try {
      return store.check();
    } catch (RuntimeException e) {
      return java.util.Optional.of(String.valueOf(e.getMessage()));
    }
  }

  /**
   * How many objects of {@code resource} the storage holds, in all namespaces (what
   * kube-apiserver's {@code apiserver_storage_objects} reports); reads one object, not all.
   */
  public long storedObjects(io.apiserver4j.core.GroupResource resource) {
    requireNonNull(resource, "resource");
    checkOpen();
    io.apiserver4j.storage.ListResult page = store.list(
        io.apiserver4j.storage.CollectionKey.all(resource.group(), resource.resource()),
        io.apiserver4j.storage.ListOptions.builder().limit(1).build());
    return page.items().size() + page.remainingItemCount().orElse(0L);
  }

  /** The storage, as text for logs (its {@code Store}'s {@code toString()}). */
  public String storageDescription() {
    return store.toString();
  }

  /**
   * The names of the kube-apiserver admission plugins this server runs (the defaults and those
   * enabled, minus those disabled), policy and webhook stages included.
   */
  public java.util.Set<String> admissionPlugins() {
    return admissionPlugins;
  }

  /**
   * The storage the server serves from, for what reads it as kube's informers read etcd through
   * a watch cache (the controllers' shared informers: list and watch). Writes must go through
   * {@link #handle}, so that the request path (admission, managed fields, finalizers, deletion
   * propagation) applies to them.
   */
  public Store store() {
    return store;
  }

  /**
   * Tells {@code listener} of every write this server commits from now on (see {@link
   * CommitListener}).
   */
  public void addCommitListener(CommitListener listener) {
    requireNonNull(listener, "listener");
    pipeline.addCommitListener(listener);
  }

  /** Stops telling {@code listener} of writes. */
  public void removeCommitListener(CommitListener listener) {
    requireNonNull(listener, "listener");
    pipeline.removeCommitListener(listener);
  }

  /**
   * Where {@code pods/log} reads container logs from: the source given to
   * {@link Builder#podLogs} or installed last, else {@link PodLogs#NONE}.
   */
  public PodLogs podLogs() {
    return podLogs;
  }

  /**
   * Makes {@code logs} the source of {@code pods/log} from now on (a simulated cluster installs
   * its kubelets' logs when it starts and {@link PodLogs#NONE} when it stops).
   */
  public void installPodLogs(PodLogs logs) {
    this.podLogs = requireNonNull(logs, "logs");
  }

  /**
   * Serves {@code definitions} from now on until the result is closed: resources computed by
   * their strategy's {@link ResourceStrategy#virtualRead()} and never stored, as the group of an
   * aggregated API server (metrics-server's {@code metrics.k8s.io}) is served in a cluster.
   * Discovery, OpenAPI and tables follow at once, as for a CustomResourceDefinition; closing
   * removes them (idempotent), after which requests to them are kube's 404.
   *
   * @throws IllegalArgumentException if a definition has no virtual read, or its resource or
   *     kind is already served
   */
  public AutoCloseable serveComputed(List<ResourceDefinition> definitions) {
    requireNonNull(definitions, "definitions");
    Map<GroupResource, List<ResourceDefinition>> byGroup =
        new LinkedHashMap<>();
    for (ResourceDefinition d : definitions) {
      if (d.strategy().virtualRead().isEmpty()) {
        throw new IllegalArgumentException(d + " is not computed: its strategy has no"
            + " virtualRead");
      }
      if (!registry.versionsOf(d.groupResource()).isEmpty()) {
        throw new IllegalArgumentException("resource " + d.groupResource()
            + " is already served");
      }
      byGroup.computeIfAbsent(d.groupResource(), k -> new ArrayList<>()).add(d);
    }
    List<GroupResource> added = new ArrayList<>();
    try {
      byGroup.forEach((gr, defs) -> {
        registry.replaceGroupResource(gr, defs);
        added.add(gr);
      });
    } catch (RuntimeException e) {
      added.forEach(gr -> registry.replaceGroupResource(gr, List.of()));
      throw e;
    }
    AtomicBoolean removed = new AtomicBoolean();
    return () -> {
      if (removed.compareAndSet(false, true)) {
        added.forEach(gr -> registry.replaceGroupResource(gr, List.of()));
      }
    };
  }

  /** The served resources. */
  public ResourceRegistry registry() {
    return registry;
  }

  /** A typed client for {@code resource}, for embedders. */
  public ResourceClient resources(GroupVersionResource resource) {
    requireNonNull(resource, "resource");
    return new ResourceClient(this, resource, "", DryRun.NONE, "", UserInfo.empty());
  }

  /** A typed client for the resource {@code plural} of {@code apiVersion} ({@code apps/v1}). */
  public ResourceClient resources(String apiVersion, String plural) {
    requireNonNull(apiVersion, "apiVersion");
    requireNonNull(plural, "plural");
    int slash = apiVersion.indexOf('/');
    GroupVersionResource gvr = slash < 0 ? new GroupVersionResource("", apiVersion, plural)
        : new GroupVersionResource(apiVersion.substring(0, slash), apiVersion.substring(slash + 1),
            plural);
    return resources(gvr);
  }

  /**
   * Stops the watch of CustomResourceDefinitions (waiting for its thread to end) and closes the
   * store if the server created it; later requests fail. Idempotent.
   */
  @Override
  public void close() {
    if (closed.compareAndSet(false, true)) {
      stopControllers();
      pipeline.stopFollowingCrds();
      deepRequests.close();
      if (ownsStore) {
        store.close();
      }
    }
  }

  /** Stops the controllers in reverse start order; a failure to stop is logged, not thrown. */
  private void stopControllers() {
    controllers.closeAll();
  }

  /**
   * The kube-controller-manager names of the controllers this server runs itself (handed over
   * or not): {@value BuiltinController#NAMESPACE} always, and those of {@link BuiltinController}s
   * whose admission plugin is enabled ({@code serviceaccount}, {@code root-ca-cert-publisher},
   * {@code pvc-protection}, {@code pv-protection} by default).
   */
  public java.util.Set<String> builtinControllers() {
    return controllers.names();
  }

  /**
   * Stops the server's own controller {@code name} (one of {@link #builtinControllers()}) for a
   * caller that runs kube-controller-manager's controller of that name instead, as a
   * {@code ControllerManager} does for each controller it runs, so that exactly one of them
   * runs. The server's controller starts again when the returned handover is closed (after every
   * handover of that name is closed), and catches up with what happened meanwhile; it does not
   * if the server was closed. A bare server, that nothing took its controllers from, deletes
   * terminating namespaces and writes default ServiceAccounts itself.
   *
   * @throws IllegalArgumentException if the server runs no controller of that name
   */
  public BuiltinController.Handover handOver(String name) {
    requireNonNull(name, "name");
    return controllers.handOver(name);
  }

  /**
   * Adds a built-in controller that a component beside the built-in API brings (the RBAC
   * authorizer's {@code clusterrole-aggregation}), run by the server as those of {@link
   * #builtinControllers()}: started now unless a {@link #handOver} of that name is held, handed
   * over to a controller manager that runs kube-controller-manager's controller of the same name,
   * and stopped when the server closes. Add it before a manager starts, which takes over only
   * the controllers there are then.
   *
   * @param name the controller's kube-controller-manager name
   * @param start starts an instance; closing the result stops it
   * @return closing it stops the server's instance and forgets the controller
   * @throws IllegalStateException if the server is closed or already runs a controller of that
   *     name
   */
  public AutoCloseable addBuiltinController(String name,
      java.util.function.Supplier<AutoCloseable> start) {
    requireNonNull(name, "name");
    requireNonNull(start, "start");
    checkOpen();
    controllers.add(name, start);
    return () -> controllers.remove(name);
  }

  private void checkOpen() {
    if (closed.get()) {
      throw new IllegalStateException("the server is closed");
    }
  }

  /**
   * Configures an {@link ApiServer}. Each option may be set once; a second call, a clashing
   * definition or a bad value fails at once with a message naming it. Not thread-safe.
   */
  public static final class Builder {
    private boolean builtins = true;
    private boolean builtinsSet;
    private KubeVersion version = KubeVersion.latest();
    private boolean versionSet;
    private final List<ResourceDefinition> resources = new ArrayList<>();
    private final java.util.Map<io.apiserver4j.core.GroupResource, VirtualCreate>
        virtualCreates = new java.util.HashMap<>();
    private final java.util.Map<io.apiserver4j.core.GroupResource,
        java.util.Map<String, SubresourceCreate>> subresourceCreates =
        new java.util.HashMap<>();
    private Store store;
    private Clock clock = Clock.systemUTC();
    private boolean clockSet;
    private Supplier<String> uids = () -> UUID.randomUUID().toString();
    private boolean uidsSet;
    private Random random = new Random();
    private boolean randomSet;
    private java.util.function.Function<NamespaceStore, AdmissionChain> admission =
        ns -> AdmissionChain.empty();
    private boolean admissionSet;
    private GeneratedValuesPolicy generatedValues = GeneratedValuesPolicy.defaultPolicy();
    private boolean generatedValuesSet;
    private long maxRequestBodyBytes = Dispatcher.DEFAULT_MAX_BODY_BYTES;
    private boolean maxBodySet;
    private CreateAuthorizer createAuthorizer = CreateAuthorizer.ALLOW_ALL;
    private boolean createAuthorizerSet;
    private boolean bootstrap = true;
    private boolean bootstrapSet;
    private String advertiseAddress = BootstrapObjects.DEFAULT_ADVERTISE_ADDRESS;
    private int securePort = BootstrapObjects.DEFAULT_SECURE_PORT;
    private boolean advertiseSet;
    private String serviceClusterIpRange = ServiceRanges.DEFAULT_CLUSTER_IP_RANGE;
    private final java.util.Set<String> enabledPlugins = new java.util.LinkedHashSet<>();
    private final java.util.Set<String> disabledPlugins = new java.util.LinkedHashSet<>();
    private final java.util.Map<String, java.util.function.Function<AdmissionPluginContext,
        io.apiserver4j.admission.AdmissionPlugin>> pluginImplementations =
        new java.util.LinkedHashMap<>();
    private java.util.Map<String, io.apiserver4j.core.MapValue> admissionConfiguration =
        java.util.Map.of();
    private boolean admissionConfigurationSet;
    private String rootCaCertificate = "";
    private boolean rootCaSet;
    private String featureGatesFlag = "";
    private boolean featureGatesSet;
    private io.apiserver4j.kubeapi.FeatureGates gates;
    private PodLogs podLogs = PodLogs.NONE;
    private boolean podLogsSet;

    /**
     * Sets feature gates as kube-apiserver's {@code --feature-gates} does, in its syntax
     * ({@code A=true,B=false}, optionally {@code kube:}-prefixed), checked against the
     * {@link #emulatedVersion emulated release} when the server is built: kind strategies drop
     * the fields of disabled gates on writes as kube's {@code dropDisabledFields} does. Default:
     * the release's defaults ({@link io.apiserver4j.kubeapi.FeatureGates#defaults}).
     *
     * @param flag the flag's value
     * @return this builder
     * @throws IllegalStateException if the gates were already set
     */
    public Builder featureGates(String flag) {
      requireNonNull(flag, "flag");
      if (featureGatesSet) {
        throw new IllegalStateException("featureGates was already set");
      }
      featureGatesSet = true;
      this.featureGatesFlag = flag;
      return this;
    }

    /**
     * Where {@code pods/log} reads container logs from; default {@link PodLogs#NONE}, every
     * kubelet unreachable, as a server without nodes answers.
     */
    public Builder podLogs(PodLogs logs) {
      if (podLogsSet) {
        throw new IllegalStateException("podLogs was already set");
      }
      podLogsSet = true;
      this.podLogs = requireNonNull(logs, "logs");
      return this;
    }

    /**
     * Serves the built-in API of an older Kubernetes release, as kube-apiserver's
     * {@code --emulated-version} does (KEP-4330): only the resources that release serves by
     * default (others answer 404), its discovery documents and storage version hashes, its
     * OpenAPI, and its schemas, so that pruning, unknown-field warnings and strict field
     * validation follow its types; {@code /version} reports it as the emulation version. Default:
     * the newest release, {@link KubeVersion#latest()}. Several servers of different releases
     * can run in one JVM.
     *
     * @param version the release, e.g. {@code KubeVersion.parse("1.33")}
     * @throws IllegalStateException if the version was already set
     */
    public Builder emulatedVersion(KubeVersion version) {
      requireNonNull(version, "version");
      if (versionSet) {
        throw new IllegalStateException("emulatedVersion was already set");
      }
      versionSet = true;
      this.version = version;
      return this;
    }

    /**
     * Enables kube-apiserver admission plugins that are off by default
     * ({@code --enable-admission-plugins}); the default-on plugins stay on. Names are checked
     * when the server is built.
     *
     * @param names plugin names as kube spells them, e.g. {@code NamespaceAutoProvision}
     */
    public Builder enableAdmissionPlugins(String... names) {
      for (String n : names) {
        enabledPlugins.add(requireNonNull(n, "name"));
      }
      return this;
    }

    /**
     * Switches kube-apiserver admission plugins off ({@code --disable-admission-plugins}); by
     * default the server runs every plugin kube-apiserver 1.36 runs by default (NamespaceLifecycle,
     * LimitRanger, ServiceAccount, Priority, DefaultTolerationSeconds, ...). Names are checked
     * when the server is built: an unknown name, or one also enabled, fails it.
     *
     * @param names plugin names as kube spells them, e.g. {@code ServiceAccount}
     */
    public Builder disableAdmissionPlugins(String... names) {
      for (String n : names) {
        disabledPlugins.add(requireNonNull(n, "name"));
      }
      return this;
    }

    /**
     * Implements the named slot of kube's plugin order that the built-in API leaves open (e.g.
     * {@code PodSecurity}, from its own module); it runs where kube runs it, when enabled.
     *
     * @throws IllegalStateException if the name was already given an implementation
     */
    public Builder admissionPlugin(String name, java.util.function.Function<
        AdmissionPluginContext, io.apiserver4j.admission.AdmissionPlugin> implementation) {
      requireNonNull(name, "name");
      requireNonNull(implementation, "implementation");
      if (pluginImplementations.putIfAbsent(name, implementation) != null) {
        throw new IllegalStateException("admission plugin " + name + " was already set");
      }
      return this;
    }

    /**
     * The plugins' configurations by plugin name, as an admission configuration file
     * ({@code --admission-control-config-file}) gives them; default: none.
     */
    public Builder admissionConfiguration(
        java.util.Map<String, io.apiserver4j.core.MapValue> byPlugin) {
      if (admissionConfigurationSet) {
        throw new IllegalStateException("admissionConfiguration was already set");
      }
      admissionConfigurationSet = true;
      this.admissionConfiguration = java.util.Map.copyOf(byPlugin);
      return this;
    }

    /**
     * The PEM of the cluster's CA, which the root CA publisher writes into every namespace's
     * {@code kube-root-ca.crt} ConfigMap (kube-controller-manager's {@code --root-ca-file});
     * default: none, the ConfigMap's {@code ca.crt} is then empty.
     */
    public Builder rootCaCertificate(String pem) {
      if (rootCaSet) {
        throw new IllegalStateException("rootCaCertificate was already set");
      }
      rootCaSet = true;
      this.rootCaCertificate = requireNonNull(pem, "pem");
      return this;
    }
    private String serviceNodePortRange = ServiceRanges.DEFAULT_NODE_PORT_RANGE;

    /**
     * The CIDR Services' cluster IPs are allocated from (kube-apiserver's
     * {@code --service-cluster-ip-range}); default {@code 10.0.0.0/24}, kube-apiserver's. The {@code kubernetes}
     * Service gets its first address.
     *
     * @throws IllegalArgumentException if it is no CIDR or holds fewer than 8 addresses
     */
    public Builder serviceClusterIpRange(String cidr) {
      ServiceRanges.checkClusterIpRange(requireNonNull(cidr, "cidr"));
      this.serviceClusterIpRange = cidr;
      return this;
    }

    /**
     * The ports NodePort and LoadBalancer Services' node ports are allocated from, as
     * {@code min-max} (kube-apiserver's {@code --service-node-port-range}); default
     * {@code 30000-32767}.
     *
     * @throws IllegalArgumentException if it is no such range
     */
    public Builder serviceNodePortRange(String range) {
      ServiceRanges.checkNodePortRange(requireNonNull(range, "range"));
      this.serviceNodePortRange = range;
      return this;
    }

    private Builder() {}

    /**
     * Whether the built-in kinds (the 68 resources of Kubernetes 1.36) are served. Default: true.
     */
    public Builder builtinResources(boolean enabled) {
      if (builtinsSet) {
        throw new IllegalStateException("builtinResources was already set");
      }
      builtinsSet = true;
      this.builtins = enabled;
      return this;
    }

    /** Serves {@code definition} in addition to the built-in kinds. */
    /**
     * Answers the creates of {@code resource} (every served version) with {@code create}, storing
     * nothing: how kube's review resources (SelfSubjectAccessReview, TokenReview, ...) are served.
     */
    public Builder virtualCreate(io.apiserver4j.core.GroupResource resource,
        VirtualCreate create) {
      virtualCreates.put(requireNonNull(resource, "resource"), requireNonNull(create, "create"));
      return this;
    }

    /**
     * Answers POST on {@code subresource} of the named objects of {@code resource} with
     * {@code create}, storing nothing: how kube's {@code serviceaccounts/token} is served. The
     * body is decoded as the kind discovery lists for the subresource.
     */
    public Builder subresourceCreate(io.apiserver4j.core.GroupResource resource,
        String subresource, SubresourceCreate create) {
      subresourceCreates.computeIfAbsent(requireNonNull(resource, "resource"),
          r -> new java.util.HashMap<>()).put(requireNonNull(subresource, "subresource"),
          requireNonNull(create, "create"));
      return this;
    }

    public Builder resource(ResourceDefinition definition) {
      requireNonNull(definition, "definition");
      for (ResourceDefinition d : resources) {
        if (d.resource().equals(definition.resource()) || d.kind().equals(definition.kind())) {
          throw new IllegalArgumentException(definition + " clashes with " + d);
        }
      }
      resources.add(definition);
      return this;
    }

    /** The storage; default: a new {@link InMemoryStore}, closed with the server. */
    public Builder store(Store s) {
      if (store != null) {
        throw new IllegalStateException("store was already set");
      }
      this.store = requireNonNull(s, "store");
      return this;
    }

    /** The clock of every timestamp the server writes; default: the UTC system clock. */
    public Builder clock(Clock c) {
      if (clockSet) {
        throw new IllegalStateException("clock was already set");
      }
      clockSet = true;
      this.clock = requireNonNull(c, "clock");
      return this;
    }

    /** The source of {@code metadata.uid}s; default: random UUIDs. */
    public Builder uidSource(Supplier<String> source) {
      if (uidsSet) {
        throw new IllegalStateException("uidSource was already set");
      }
      uidsSet = true;
      this.uids = requireNonNull(source, "source");
      return this;
    }

    /** The randomness of names generated from {@code generateName}; default: a new Random. */
    public Builder random(Random r) {
      if (randomSet) {
        throw new IllegalStateException("random was already set");
      }
      randomSet = true;
      this.random = requireNonNull(r, "random");
      return this;
    }

    /**
     * The embedder's admission plugins, run before kube-apiserver's default plugins (a default
     * plugin whose name the chain already has is left out); default: none.
     */
    public Builder admission(AdmissionChain chain) {
      requireNonNull(chain, "chain");
      return admission(ns -> chain);
    }

    /**
     * The admission chain, built from the server's view of its namespaces (what
     * {@code NamespaceLifecycle} and {@code NamespaceAutoProvision} need): the factory is called
     * once, while the server is built.
     */
    public Builder admission(java.util.function.Function<NamespaceStore, AdmissionChain> factory) {
      if (admissionSet) {
        throw new IllegalStateException("admission was already set");
      }
      admissionSet = true;
      this.admission = requireNonNull(factory, "factory");
      return this;
    }

    /** Which generated values dry-run creates show; default: kube-apiserver's. */
    public Builder generatedValuesPolicy(GeneratedValuesPolicy policy) {
      if (generatedValuesSet) {
        throw new IllegalStateException("generatedValuesPolicy was already set");
      }
      generatedValuesSet = true;
      this.generatedValues = requireNonNull(policy, "policy");
      return this;
    }

    /**
     * The largest request body accepted (413 above it); 0 means unlimited. Default: 3 MiB, as
     * kube-apiserver.
     *
     * @throws IllegalArgumentException if negative
     */
    public Builder maxRequestBodyBytes(long bytes) {
      if (maxBodySet) {
        throw new IllegalStateException("maxRequestBodyBytes was already set");
      }
      if (bytes < 0) {
        throw new IllegalArgumentException("maxRequestBodyBytes must not be negative: " + bytes);
      }
      maxBodySet = true;
      this.maxRequestBodyBytes = bytes;
      return this;
    }

    /**
     * Who may create objects through PUT or server-side apply (kube-apiserver's extra
     * {@code create} authorization); default: everyone.
     */
    public Builder createAuthorizer(CreateAuthorizer authorizer) {
      if (createAuthorizerSet) {
        throw new IllegalStateException("createAuthorizer was already set");
      }
      createAuthorizerSet = true;
      this.createAuthorizer = requireNonNull(authorizer, "authorizer");
      return this;
    }

    /**
     * Whether the server starts as kube-apiserver does, writing what its start-up hooks write
     * when it is missing from the store: an APIService per served group version (and per
     * version of each stored CRD), the namespaces {@code default}, {@code kube-system},
     * {@code kube-public} and {@code kube-node-lease}, the {@code kubernetes} Service with its
     * endpoints, and the other {@link BootstrapObjects}, each only if its kind is served.
     * Default: true; false for an empty store (e.g. tests that count objects).
     */
    public Builder bootstrap(boolean enabled) {
      if (bootstrapSet) {
        throw new IllegalStateException("bootstrap was already set");
      }
      bootstrapSet = true;
      this.bootstrap = enabled;
      return this;
    }

    /**
     * Where the bootstrap {@code kubernetes} Endpoints and EndpointSlice point (kube-apiserver's
     * {@code --advertise-address} and {@code --secure-port}). Default: 127.0.0.1 and 6443.
     *
     * @throws IllegalArgumentException if the port is not in 1..65535
     */
    public Builder advertise(String address, int port) {
      if (advertiseSet) {
        throw new IllegalStateException("advertise was already set");
      }
      requireNonNull(address, "address");
      if (port < 1 || port > 65535) {
        throw new IllegalArgumentException("advertise port must be a port number: " + port);
      }
      advertiseSet = true;
      this.advertiseAddress = address;
      this.securePort = port;
      return this;
    }

    /**
     * Builds the server; when it serves CustomResourceDefinitions it lists those in the store
     * (serving the established ones) and starts a background watch of them, ended by
     * {@link ApiServer#close()}.
     *
     * @throws IllegalArgumentException if a definition clashes with a built-in kind, or with
     *     kube's message for bad {@link #featureGates feature gates}
     * @throws StatusException if the store cannot list the CustomResourceDefinitions or refuses
     *     a bootstrap object
     */
    public ApiServer build() {
      // kube's errors (unrecognized feature gate, locked, not available at the release)
      gates = io.apiserver4j.kubeapi.FeatureGates.parse(version, featureGatesFlag);
      if (builtins) {
        for (ResourceDefinition b : BuiltinApi.load().definitions(version)) {
          for (ResourceDefinition d : resources) {
            if (d.resource().equals(b.resource()) || d.kind().equals(b.kind())) {
              throw new IllegalArgumentException(d + " clashes with the built-in " + b);
            }
          }
        }
      }
      return new ApiServer(this);
    }
  }
}
