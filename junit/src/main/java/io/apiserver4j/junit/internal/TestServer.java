/*
 * Copyright The apiserver4j authors.
 * SPDX-License-Identifier: Apache-2.0
 */
package io.apiserver4j.junit.internal;

import static java.util.Objects.requireNonNull;

import io.apiserver4j.apiserver.admission.AdmissionConfigurationFile;
import io.apiserver4j.apiserver.ApiServer;
import io.apiserver4j.apiserver.ResourceDefinition;
import io.apiserver4j.kubeapi.KubeVersion;
import io.apiserver4j.cluster.SimulatedCluster;
import io.apiserver4j.controllers.ControllerManager;
import io.apiserver4j.core.errors.AlreadyExistsException;
import io.apiserver4j.core.GroupResource;
import io.apiserver4j.core.MapValue;
import io.apiserver4j.core.Meta;
import io.apiserver4j.core.errors.NotFoundException;
import io.apiserver4j.core.Value;
import io.apiserver4j.http.HttpApiServer;
import io.apiserver4j.http.Kubeconfig;
import io.apiserver4j.junit.ClientFactory;
import io.apiserver4j.junit.TestApiServer;
import io.apiserver4j.junit.TestClock;
import io.apiserver4j.junit.TestKubeconfig;
import io.apiserver4j.storage.CollectionKey;
import io.apiserver4j.storage.InMemoryStore;
import io.apiserver4j.storage.ListOptions;
import io.apiserver4j.storage.ObjectKey;
import io.apiserver4j.storage.Preconditions;
import io.apiserver4j.storage.Store;
import io.apiserver4j.storage.StoredObject;
import java.io.IOException;
import java.io.UncheckedIOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;
import java.time.Instant;
import java.util.ArrayList;
import java.util.Collections;
import java.util.LinkedHashMap;
import java.util.LinkedHashSet;
import java.util.List;
import java.util.Map;
import java.util.Random;
import java.util.ServiceLoader;
import java.util.Set;
import java.util.concurrent.ConcurrentHashMap;
import java.util.concurrent.atomic.AtomicLong;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/** The servers, clock, kubeconfig and clients of one {@code @ApiServerTest} scope. */
public final class TestServer implements TestApiServer.Standalone {
  private static final Logger LOG = LoggerFactory.getLogger(TestServer.class);
  /** The namespaces kube-apiserver's bootstrap controller creates. */
  static final List<String> SYSTEM_NAMESPACES =
      List.of("default", "kube-system", "kube-public", "kube-node-lease");
  private static final long RANDOM_SEED = 20260101L;
  private static final Duration REGISTRY_TIMEOUT = Duration.ofSeconds(30);
  private static final String CRD_GROUP = "apiextensions.k8s.io";

  private final InMemoryStore store;
  private final TestClock clock;
  private final AtomicLong uidCounter = new AtomicLong();
  private final Random random = new Random(RANDOM_SEED);
  private final ApiServer api;
  /**
   * HTTP and its kubeconfig, started on first use: a test that only calls {@link #api()} never
   * pays for Jetty's start and stop; guarded by {@code this}, null until then.
   */
  private HttpApiServer http;
  private TestKubeconfig kubeconfig;
  private boolean closed;
  private final ClassLoader loader;
  /** kube-controller-manager's {@code --controllers} values; empty for none. */
  private final List<String> controllerFlags;
  /** kube-controller-manager's controllers when asked for; replaced around a reset. */
  private ControllerManager controllers;
  /** How many simulated Nodes run; 0 for none. */
  private final int nodes;
  /** The simulated Nodes when asked for; replaced around a reset. */
  private SimulatedCluster cluster;
  private final Map<Class<?>, ClientFactory<?>> factories;
  private final Map<Class<?>, Object> clients = new ConcurrentHashMap<>();
  /** Every resource ever served, so a reset finds objects of custom resources deleted since. */
  private final Set<GroupResource> served = ConcurrentHashMap.newKeySet();
  private Baseline baseline;
  /**
   * The store's revision when the baseline was last in place (at the start and after each
   * reset); a reset finding it unchanged has nothing to write back. Guarded by {@code this}.
   */
  private long restoredRevision;

  /**
   * What a reset restores. {@code objects} holds each object as last written by the start or a
   * reset (a reset replaces the row of an object it wrote back, so that the next reset does not
   * write it again while nothing changed it); only {@link #restore()} changes it.
   */
  private record Baseline(Map<ObjectKey, MapValue> objects, Instant time, long uids) {}

  /** What decides the content of a new server's namespaces. */
  private record BootstrapKey(KubeVersion version, String featureGates, Admission admission) {}

  /**
   * A new server's namespaces as the first server of their {@link BootstrapKey} stored them
   * (without resourceVersion), the uid count after them and the store's revision before them
   * (a new store's); immutable.
   */
  private record Bootstrap(Map<ObjectKey, MapValue> objects, long uids, long revision) {}

  /**
   * The namespaces of each configuration, computed once per JVM: immutable values shared by
   * servers as their class data is, never a server's state.
   */
  private static final Map<BootstrapKey, Bootstrap> BOOTSTRAPS = new ConcurrentHashMap<>();

  /**
   * The admission plugin options of {@code @ApiServerTest}, as kube-apiserver's flags.
   *
   * @param enable plugins to enable besides the defaults
   * @param disable plugins to switch off
   * @param configFile an AdmissionConfiguration (class path resource or file), or empty
   */
  public record Admission(List<String> enable, List<String> disable, String configFile) {
    /** As {@code @ApiServerTest}'s defaults: kube-apiserver's, without ServiceAccount. */
    public static final Admission DEFAULTS = new Admission(List.of(), List.of("ServiceAccount"),
        "");
  }

  private TestServer(ClassLoader loader, Map<Class<?>, ClientFactory<?>> factories,
      List<String> controllerFlags, Admission admission, KubeVersion version,
      String featureGates, int nodes) {
    if (nodes < 0) {
      throw new IllegalArgumentException("nodes " + nodes + " is negative");
    }
    this.nodes = nodes;
    this.loader = loader;
    this.factories = factories;
    this.store = InMemoryStore.create();
    this.clock = TestClock.create();
    ApiServer a = null;
    ControllerManager cm = null;
    try {
      // the extension writes kube's namespaces itself, so that uids count from its baseline
      ApiServer.Builder builder = ApiServer.builder().bootstrap(false).store(store).clock(clock)
          .emulatedVersion(version)
          .featureGates(featureGates)
          .uidSource(() -> uid(uidCounter.incrementAndGet())).random(random)
          .enableAdmissionPlugins(admission.enable().toArray(String[]::new))
          .disableAdmissionPlugins(admission.disable().toArray(String[]::new));
      if (!admission.configFile().isEmpty()) {
        builder.admissionConfiguration(AdmissionConfigurationFile.read(
            configFile(loader, admission.configFile())));
      }
      a = builder.build();
      cm = startControllers(a, clock, controllerFlags);
    } catch (RuntimeException e) {
      if (cm != null) {
        cm.close();
      }
      closeAll(null, a, store, null);
      throw e;
    }
    this.api = a;
    this.controllerFlags = List.copyOf(controllerFlags);
    this.controllers = cm;
    a.registry().addListener((change, definition) -> served.add(definition.groupResource()));
  }

  /** The controllers {@code flags} select on the test clock, or null when they select none. */
  private static ControllerManager startControllers(ApiServer api, TestClock clock,
      List<String> flags) {
    // no flags select nothing: most tests run none, and need not load every controller's class
    if (flags.isEmpty() || ControllerManager.select(flags).isEmpty()) {
      return null;
    }
    return ControllerManager.builder(api).clock(clock).controllers(flags).start();
  }

  /**
   * Starts a server with kube-apiserver's namespaces and the manifests, and records that state
   * for {@link #reset()}.
   *
   * @param controllers kube-controller-manager's {@code --controllers} values; empty for none
   */
  public static TestServer start(List<String> manifests, ClassLoader loader,
      Map<Class<?>, ClientFactory<?>> factories, List<String> controllers) {
    return start(manifests, loader, factories, controllers, Admission.DEFAULTS);
  }

  /**
   * Starts a server as {@link #start(List, ClassLoader, Map, List)} with these admission
   * plugin options.
   */
  public static TestServer start(List<String> manifests, ClassLoader loader,
      Map<Class<?>, ClientFactory<?>> factories, List<String> controllers,
      Admission admission) {
    return start(manifests, loader, factories, controllers, admission, KubeVersion.latest());
  }

  /**
   * Starts a server as {@link #start(List, ClassLoader, Map, List, Admission)} serving the
   * API of Kubernetes {@code version} ({@code ApiServer.Builder#emulatedVersion}), with the
   * release's feature gates and no simulated Nodes.
   */
  public static TestServer start(List<String> manifests, ClassLoader loader,
      Map<Class<?>, ClientFactory<?>> factories, List<String> controllers,
      Admission admission, KubeVersion version) {
    return start(manifests, loader, factories, controllers, admission, version, "", 0);
  }

  /**
   * Starts a server as {@link #start(List, ClassLoader, Map, List, Admission, KubeVersion)} with
   * kube-apiserver's {@code --feature-gates} ({@code ApiServer.Builder#featureGates}) and
   * {@code nodes} simulated Nodes (none when 0).
   */
  public static TestServer start(List<String> manifests, ClassLoader loader,
      Map<Class<?>, ClientFactory<?>> factories, List<String> controllers,
      Admission admission, KubeVersion version, String featureGates, int nodes) {
    TestServer s = new TestServer(loader, factories, controllers, admission, version,
        featureGates, nodes);
    try {
      s.writeSystemNamespaces(new BootstrapKey(version, featureGates, admission));
      s.awaitNamespaceDefaults();
      // the Nodes' Leases live in kube-node-lease, which exists from here on
      s.cluster = s.startCluster();
      if (s.cluster != null && !s.awaitControllersIdle(REGISTRY_TIMEOUT)) {
        throw new IllegalStateException("the simulated Nodes did not register within "
            + REGISTRY_TIMEOUT);
      }
      if (!manifests.isEmpty()) {
        Manifests.create(s.api, Manifests.read(manifests, loader));
      }
      // the baseline holds what the controllers make of the manifests, whenever they run
      s.awaitBaselineIdle();
      s.baseline = new Baseline(s.snapshot(), s.clock.instant(), s.uidCounter.get());
      s.restoredRevision = s.store.currentRevision();
      return s;
    } catch (RuntimeException e) {
      s.close();
      throw e;
    }
  }

  /**
   * Writes kube-apiserver's namespaces. The first server of a configuration creates them through
   * the request pipeline and keeps what it stored; later servers of that configuration store
   * the same objects directly, which a test cannot tell apart (the clock starts at the same
   * instant, uids count from 1, and the store numbers resourceVersions alike) but which skips
   * four requests through admission and the managed-fields manager.
   */
  private void writeSystemNamespaces(BootstrapKey key) {
    Bootstrap known = BOOTSTRAPS.get(key);
    long revision = store.currentRevision();
    if (known != null && revision == known.revision() && uidCounter.get() == 0) {
      for (Map.Entry<ObjectKey, MapValue> o : known.objects().entrySet()) {
        store.create(o.getKey(), o.getValue());
      }
      uidCounter.set(known.uids());
      return;
    }
    long uids = uidCounter.get();
    for (String ns : SYSTEM_NAMESPACES) {
      api.resources("v1", "namespaces").create(MapValue.of(Map.of("apiVersion", Value.of("v1"),
          "kind", Value.of("Namespace"),
          "metadata", MapValue.of(Map.of("name", Value.of(ns))))));
    }
    // kept only when the creates alone wrote (no controller reacted in between) from a new store
    if (uids == 0 && uidCounter.get() == SYSTEM_NAMESPACES.size()
        && store.currentRevision() == revision + SYSTEM_NAMESPACES.size()) {
      Map<ObjectKey, MapValue> objects = new LinkedHashMap<>();
      for (String ns : SYSTEM_NAMESPACES) {
        ObjectKey k = ObjectKey.clusterScoped("", "namespaces", ns);
        store.get(k).ifPresent(o -> objects.put(k, Meta.withoutMeta(o.object(),
            "resourceVersion")));
      }
      if (objects.size() == SYSTEM_NAMESPACES.size()) {
        BOOTSTRAPS.putIfAbsent(key, new Bootstrap(Collections.unmodifiableMap(objects),
            uidCounter.get(), revision));
      }
    }
  }

  /** A class path resource of that name as a file, else the path itself. */
  private static Path configFile(ClassLoader loader, String name) {
    java.net.URL url = loader.getResource(name.startsWith("/") ? name.substring(1) : name);
    if (url != null && url.getProtocol().equals("file")) {
      try {
        return Path.of(url.toURI());
      } catch (java.net.URISyntaxException e) {
        throw new IllegalArgumentException("bad admission configuration location " + url, e);
      }
    }
    return Path.of(name);
  }

  /**
   * Waits until kube-controller-manager's per-namespace objects (the {@code default}
   * ServiceAccount and the {@code kube-root-ca.crt} ConfigMap, when the ServiceAccount plugin
   * runs) are in every system namespace, so that the baseline a reset restores holds them and
   * the uid sequence after it does not depend on when the controllers ran.
   */
  private void awaitNamespaceDefaults() {
    if (!api.admissionPlugins().contains("ServiceAccount")) {
      return;
    }
    long deadline = System.nanoTime() + REGISTRY_TIMEOUT.toNanos();
    for (String ns : SYSTEM_NAMESPACES) {
      for (ObjectKey key : List.of(ObjectKey.namespaced("", "serviceaccounts", ns, "default"),
          ObjectKey.namespaced("", "configmaps", ns, "kube-root-ca.crt"))) {
        while (store.get(key).isEmpty()) {
          if (System.nanoTime() > deadline) {
            throw new IllegalStateException("the controllers did not write " + key);
          }
          // the controllers' worker writes it in a moment; poll without spinning a core
          java.util.concurrent.locks.LockSupport.parkNanos(100_000);
        }
      }
    }
  }

  /** The client factories on the class path, by type. */
  public static Map<Class<?>, ClientFactory<?>> loadFactories(ClassLoader loader) {
    Map<Class<?>, ClientFactory<?>> out = new LinkedHashMap<>();
    for (ClientFactory<?> f : ServiceLoader.load(ClientFactory.class, loader)) {
      ClientFactory<?> clash = out.putIfAbsent(f.type(), f);
      if (clash != null) {
        throw new IllegalStateException("two client factories make " + f.type().getName() + ": "
            + clash.getClass().getName() + " and " + f.getClass().getName());
      }
    }
    return Map.copyOf(out);
  }

  /** A uid in UUID form, counting from 1. */
  static String uid(long n) {
    return String.format("00000000-0000-4000-8000-%012x", n);
  }

  @Override
  public ApiServer api() {
    return api;
  }

  @Override
  public HttpApiServer http() {
    return startHttp().http;
  }

  /** Starts HTTP and writes its kubeconfig unless done before; this server for chaining. */
  private synchronized TestServer startHttp() {
    if (http != null) {
      return this;
    }
    if (closed) {
      throw new IllegalStateException("the test server is closed");
    }
    HttpApiServer h = HttpApiServer.builder(api).clock(clock)
        .shutdownTimeout(Duration.ofSeconds(1)).start();
    Path file = null;
    try {
      Kubeconfig config = h.kubeconfig().build();
      file = Files.createTempFile("apiserver4j-", ".kubeconfig");
      config.write(file);
      kubeconfig = new TestKubeconfig(file, config.toYaml());
    } catch (IOException | RuntimeException e) {
      h.close();
      deleteQuietly(file);
      throw e instanceof IOException io ? new UncheckedIOException(io) : (RuntimeException) e;
    }
    http = h;
    return this;
  }

  @Override
  public TestClock clock() {
    return clock;
  }

  @Override
  public TestKubeconfig kubeconfig() {
    return startHttp().kubeconfig;
  }

  /** Whether a factory makes {@code type}. */
  public boolean makes(Class<?> type) {
    return factories.containsKey(type);
  }

  @Override
  public <T> T client(Class<T> type) {
    requireNonNull(type, "type");
    ClientFactory<?> f = factories.get(type);
    if (f == null) {
      throw new IllegalArgumentException("no ClientFactory on the class path makes "
          + type.getName() + "; add apiserver4j-junit-fabric8 or apiserver4j-junit-client-java");
    }
    return type.cast(clients.computeIfAbsent(type, t -> f.create(this)));
  }

  @Override
  public void load(String... locations) {
    requireNonNull(locations, "locations");
    Manifests.create(api, Manifests.read(List.of(locations), loader));
  }

  /** The simulated Nodes on the test clock, or null when none are asked for. */
  private SimulatedCluster startCluster() {
    return nodes == 0 ? null
        : SimulatedCluster.builder(api).clock(clock).nodes(nodes).start();
  }

  @Override
  public boolean awaitControllersIdle(Duration timeout) {
    requireNonNull(timeout, "timeout");
    ControllerManager c;
    SimulatedCluster n;
    synchronized (this) {
      c = controllers;
      n = cluster;
    }
    if (n == null) {
      return c == null || c.awaitIdle(timeout);
    }
    // each side writes what the other reacts to: idle once a round of both wrote nothing
    for (int round = 0; round < 1_000; round++) {
      long before = store.currentRevision();
      if (!n.awaitIdle(timeout) || c != null && !c.awaitIdle(timeout)) {
        return false;
      }
      if (store.currentRevision() == before) {
        return true;
      }
    }
    return false;
  }

  // ---------------------------------------------------------------- reset

  private Set<GroupResource> storedResources() {
    Set<GroupResource> out = new LinkedHashSet<>();
    for (ResourceDefinition d : api.registry().all()) {
      out.add(d.groupResource());
    }
    out.addAll(served);
    return out;
  }

  private Map<ObjectKey, MapValue> snapshot() {
    Map<ObjectKey, MapValue> out = new LinkedHashMap<>();
    for (GroupResource gr : storedResources()) {
      for (StoredObject o : store.list(CollectionKey.all(gr.group(), gr.resource()),
          ListOptions.all()).items()) {
        out.put(o.key(), o.object());
      }
    }
    return out;
  }

  @Override
  public synchronized void reset() {
    if (controllers == null && cluster == null) {
      restore();
      return;
    }
    // the simulated Nodes start again from the restored state, building their caches anew
    if (cluster != null) {
      cluster.close();
      cluster = null;
    }
    if (controllers == null) {
      restore();
    } else {
      // the controllers are reset in place: paused while the baseline is written back, their
      // queues and timers dropped, their informers brought to the restored store
      controllers.reset(this::restore, REGISTRY_TIMEOUT);
    }
    cluster = startCluster();
    awaitBaselineIdle();
  }

  /**
   * Waits until the controllers and Nodes have taken in the baseline (after a start or a reset)
   * and have nothing left to do, so that the test that follows does not race their work; a
   * baseline they never settle on is logged, not failed, as before this wait existed.
   */
  private void awaitBaselineIdle() {
    if ((controllers != null || cluster != null) && !awaitControllersIdle(REGISTRY_TIMEOUT)) {
      LOG.warn("the controllers did not become idle on the test server's baseline within {}",
          REGISTRY_TIMEOUT);
    }
  }

  /**
   * Writes the baseline back. Objects may still change meanwhile (an informer-driven controller
   * a test left running), so a vanished object is not an error and a write is retried on a
   * conflict.
   */
  private void restore() {
    if (store.currentRevision() == restoredRevision) {
      // nothing was written since the baseline was last in place: the storage holds it
      resetSequences();
      return;
    }
    Map<ObjectKey, MapValue> now = snapshot();
    Map<ObjectKey, MapValue> want = baseline.objects();
    List<ObjectKey> deletes = new ArrayList<>();
    for (ObjectKey k : now.keySet()) {
      if (!want.containsKey(k)) {
        deletes.add(k);
      }
    }
    // dependents before definitions: custom resources go before their CRDs
    deletes.sort((p, q) -> Boolean.compare(isCrd(p), isCrd(q)));
    for (ObjectKey k : deletes) {
      try {
        store.delete(k, Preconditions.none());
      } catch (NotFoundException e) {
        // deleted meanwhile: what the reset wanted
      }
    }
    List<ObjectKey> writes = new ArrayList<>(want.keySet());
    writes.sort((p, q) -> Boolean.compare(!isCrd(p), !isCrd(q)));
    for (ObjectKey k : writes) {
      MapValue before = want.get(k);
      MapValue current = now.get(k);
      if (current == null || !current.equals(before)) {
        want.put(k, put(k, Meta.withoutMeta(before, "resourceVersion")).object());
      }
    }
    long revision = store.currentRevision();
    if (!api.registry().awaitRevision(revision, REGISTRY_TIMEOUT)) {
      throw new IllegalStateException("the resource registry did not follow the reset within "
          + REGISTRY_TIMEOUT);
    }
    restoredRevision = revision;
    resetSequences();
  }

  /** Puts the clock and the uid and name sequences back to where they were at the baseline. */
  private void resetSequences() {
    clock.set(baseline.time());
    uidCounter.set(baseline.uids());
    random.setSeed(RANDOM_SEED + store.currentRevision());
  }

  /**
   * Creates or replaces the object at {@code key}, whatever happens to it meanwhile.
   *
   * @return the state written
   */
  private StoredObject put(ObjectKey key, MapValue object) {
    while (true) {
      try {
        if (store.get(key).isPresent()) {
          return store.update(key, object, Store.ANY_VERSION);
        }
        return store.create(key, object);
      } catch (NotFoundException | AlreadyExistsException e) {
        // created or deleted between the read and the write: look again
      }
    }
  }

  private static boolean isCrd(ObjectKey k) {
    return k.group().equals(CRD_GROUP) && k.resource().equals("customresourcedefinitions");
  }

  // ---------------------------------------------------------------- close

  @Override
  public void close() {
    if (controllers != null) {
      controllers.close();
    }
    if (cluster != null) {
      cluster.close();
    }
    List<Throwable> failures = new ArrayList<>();
    for (Map.Entry<Class<?>, Object> c : clients.entrySet()) {
      try {
        closeClient(factories.get(c.getKey()), c.getValue());
      } catch (Exception | LinkageError e) {
        failures.add(e);
      }
    }
    clients.clear();
    HttpApiServer h;
    TestKubeconfig k;
    synchronized (this) {
      closed = true;
      h = http;
      k = kubeconfig;
    }
    closeAll(h, api, store, k == null ? null : k.path());
    if (!failures.isEmpty()) {
      IllegalStateException e = new IllegalStateException("closing the test clients failed");
      failures.forEach(e::addSuppressed);
      throw e;
    }
  }

  @SuppressWarnings("unchecked")
  private static <T> void closeClient(ClientFactory<T> f, Object client) throws Exception {
    f.close((T) client);
  }

  private static void closeAll(HttpApiServer h, ApiServer a, Store s, Path file) {
    if (h != null) {
      h.close();
    }
    if (a != null) {
      a.close();
    }
    s.close();
    deleteQuietly(file);
  }

  private static void deleteQuietly(Path file) {
    if (file != null) {
      try {
        Files.deleteIfExists(file);
      } catch (IOException e) {
        // a temporary file left behind is harmless; the test outcome must not depend on it
      }
    }
  }

  @Override
  public String toString() {
    HttpApiServer h;
    synchronized (this) {
      h = http;
    }
    return "TestApiServer[" + (h == null ? "HTTP not started" : h.url()) + "]";
  }
}
