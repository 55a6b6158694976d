/*
 * Copyright The apiserver4j authors.
 * SPDX-License-Identifier: Apache-2.0
 */
package io.apiserver4j.controllers;

import static java.util.Objects.requireNonNull;

import io.apiserver4j.apiserver.ApiServer;
import io.apiserver4j.controllers.internal.ControllerDescriptor;
import io.apiserver4j.controllers.internal.ControllerRuntime;
import io.apiserver4j.controllers.internal.ControllerSettings;
import io.apiserver4j.controllers.internal.LeaderElector;
import io.apiserver4j.controllers.internal.ServiceAccountTokenSigning;
import io.apiserver4j.controllers.internal.SigningFiles;
import io.apiserver4j.controllers.metrics.CustomMetrics;
import io.apiserver4j.controllers.metrics.MetricsApi;
import io.apiserver4j.controllers.metrics.PodMetrics;
import java.io.IOException;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Clock;
import java.time.Duration;
import java.util.Arrays;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import java.util.TreeMap;
import java.util.concurrent.atomic.AtomicBoolean;

/**
 * kube-controller-manager in the server's JVM: the controllers its {@code --controllers} flag
 * selects, sharing one informer per resource over the server's store, each writing through the
 * server ({@link ApiServer#handle}) as kube's controller user for it
 * ({@code system:serviceaccount:kube-system:<account>}) with field manager
 * {@code kube-controller-manager}, so admission, finalizers and managed fields see them as in a
 * cluster.
 *
 * <pre>{@code
 * try (ApiServer api = ApiServer.builder().clock(clock).build();
 *     ControllerManager controllers = ControllerManager.builder(api).clock(clock).start()) {
 *   ... delete an owner ...
 *   controllers.awaitIdle(Duration.ofSeconds(10));   // its dependents are gone
 * }
 * }</pre>
 *
 * <p>Every timer of a controller runs on the given clock (the server's): after a test advances
 * it, {@link #awaitIdle} runs what became due. Retries after failed requests back off on wall
 * time, as client-go's work queues do.
 *
 * <p>With {@link Builder#leaderElection} (kube-controller-manager's {@code --leader-elect}),
 * several managers over one store (servers sharing an etcd) elect one leader on the
 * {@code kube-system/kube-controller-manager} Lease as kube does; only the leader runs the
 * controllers, and another takes over once the leader stops renewing and the lease expires on
 * the server clock. A manager that loses the lease stops its controllers and campaigns again
 * (kube-controller-manager exits and is restarted by its supervisor).
 *
 * <p>Thread-safe. See {@link #knownControllers()} for the names.
 */
public final class ControllerManager implements AutoCloseable {
  /** The namespace of kube-controller-manager's lease. */
  public static final String LEASE_NAMESPACE = "kube-system";
  /** The name of kube-controller-manager's lease. */
  public static final String LEASE_NAME = "kube-controller-manager";

  private final ApiServer api;
  private final Clock clock;
  private final List<ControllerDescriptor> descriptors;
  /** The controllers {@code --controllers} switched off by name: the server's are stopped too. */
  private final List<String> disabled;
  private final Map<String, Integer> concurrentSyncs;
  private final Map<String, Integer> flags;
  private final List<String> names;
  private final Optional<LeaderElector> elector;
  private final boolean simulatedStorage;
  private final SigningFiles clusterSigning;
  private final PodMetrics podMetrics;
  private final Optional<CustomMetrics> customMetrics;
  private final boolean serveMetricsApi;
  /** The metrics API while this manager serves it. */
  private MetricsApi metricsApi;
  private final Optional<ServiceAccountTokenSigning> tokenSigning;
  private final Object lock = new Object();
  /** The running controllers; null while this manager does not lead. */
  private ControllerRuntime runtime;
  private final AtomicBoolean closed = new AtomicBoolean();

  private ControllerManager(Builder b, List<ControllerDescriptor> descriptors,
      Map<String, Integer> concurrentSyncs) {
    this.api = b.api;
    this.clock = b.clock;
    this.descriptors = descriptors;
    this.disabled = KnownControllers.explicitlyDisabled(b.controllers);
    this.concurrentSyncs = concurrentSyncs;
    this.flags = Map.copyOf(b.flags);
    this.names = descriptors.stream().map(ControllerDescriptor::name).toList();
    this.simulatedStorage = b.simulatedStorage;
    this.clusterSigning = b.clusterSigning.signingFiles();
    this.podMetrics = b.podMetrics;
    this.customMetrics = b.customMetrics;
    this.serveMetricsApi = b.serveMetricsApi;
    this.tokenSigning = b.tokenSigning();
    this.elector = b.leaderElection.map(le -> new LeaderElector(api, clock, LEASE_NAMESPACE,
        LEASE_NAME, le.identity(), le.leaseDuration(), le.renewDeadline(), le.retryPeriod(),
        this::startControllers, this::stopControllers));
  }

  /** A builder of the controllers of {@code api}. */
  public static Builder builder(ApiServer api) {
    return new Builder(requireNonNull(api, "api"));
  }

  /**
   * The canonical names of every controller kube-controller-manager 1.36 knows (the values,
   * with their aliases, {@code --controllers} accepts).
   */
  public static List<String> knownControllers() {
    return KnownControllers.all().stream().map(ControllerDescriptor::name).toList();
  }

  /**
   * The canonical names of the controllers kube-controller-manager's {@code --controllers}
   * values select among those this project implements, in kube's order; see
   * {@link Builder#controllers(String)} for the syntax.
   *
   * @throws IllegalArgumentException for an unknown name, with kube's message, or a known
   *     controller explicitly named that this project does not implement
   */
  public static List<String> select(List<String> values) {
    return KnownControllers.select(List.copyOf(requireNonNull(values, "values"))).stream()
        .map(ControllerDescriptor::name).toList();
  }

  /**
   * The {@code --concurrent-<name>-syncs} flags of the controllers this project implements, by
   * {@code name}, with kube's defaults, sorted by name.
   */
  public static Map<String, Integer> concurrentSyncsDefaults() {
    Map<String, Integer> out = new TreeMap<>();
    for (Map.Entry<String, ConcurrentSyncs.Entry> e : ConcurrentSyncs.all().entrySet()) {
      boolean implemented = KnownControllers.all().stream().anyMatch(d ->
          d.name().equals(e.getValue().controller()) && d.factory().isPresent());
      if (implemented) {
        out.put(e.getKey(), e.getValue().kubeDefault());
      }
    }
    return out;
  }

  /**
   * The resource metrics the horizontal pod autoscaler reads, in place of metrics-server: a test
   * sets Pods' usage here (see {@link Builder#podMetrics} to share one set between managers).
   */
  public PodMetrics podMetrics() {
    return podMetrics;
  }

  /**
   * The custom and external metrics the horizontal pod autoscaler's {@code Pods},
   * {@code Object} and {@code External} metrics read, given to {@link Builder#customMetrics};
   * empty when none was, as in a cluster without a metrics adapter.
   */
  public Optional<CustomMetrics> customMetrics() {
    return customMetrics;
  }

  /** The canonical names of the selected controllers, in kube's order. */
  public List<String> controllers() {
    return names;
  }

  /**
   * Whether this manager's controllers run: always without leader election, else while it holds
   * the lease.
   */
  public boolean isLeader() {
    synchronized (lock) {
      return runtime != null;
    }
  }

  /**
   * Waits until this manager leads (at once without leader election).
   *
   * @return whether it does within {@code timeout}; false too if interrupted
   */
  public boolean awaitLeading(Duration timeout) {
    requireNonNull(timeout, "timeout");
    return elector.map(e -> e.awaitLeading(timeout)).orElse(true);
  }

  /**
   * Waits until this manager has lost the lease and stopped its controllers (never without
   * leader election).
   *
   * @return whether that happened within {@code timeout}; false too if interrupted
   */
  public boolean awaitNotLeading(Duration timeout) {
    requireNonNull(timeout, "timeout");
    return elector.map(e -> e.awaitLeading(false, timeout)).orElse(false);
  }

  /**
   * Waits, without sleeping, until the controllers are idle: every informer has seen every
   * write in the store, no work is queued, in process or waiting for an early retry, every
   * Event a controller recorded is written (recording is asynchronous, as kube's event
   * broadcaster), no timer is due by the clock, and nothing was written meanwhile. Work waiting for a later time on the
   * clock, or retried after failing many times, does not count. A manager that does not lead
   * runs nothing, and is idle.
   *
   * @return whether that happened within {@code timeout}; false too if the thread was
   *     interrupted (its interrupt status is kept)
   * @throws IllegalStateException after {@link #close()}
   */
  public boolean awaitIdle(Duration timeout) {
    requireNonNull(timeout, "timeout");
    if (closed.get()) {
      throw new IllegalStateException("the controller manager is closed");
    }
    ControllerRuntime r;
    synchronized (lock) {
      r = runtime;
    }
    return r == null || r.awaitIdle(timeout);
  }

  /**
   * Resets the running controllers in place around {@code restore}, a write-back of the store
   * that bypasses the request pipeline (a test kit's reset between test methods): their workers
   * pause once each finished its item; their queued work, timers, retry backoffs, expectations
   * and other remembered state are dropped; {@code restore} runs; the informers' caches are
   * brought to the store's new revision (by their watch, else a relist replacing the cache) and
   * the handlers see the changes, then every object as an update to itself, as client-go's
   * informer delivers a reflector's relist; periodic loops are armed again
   * and the workers go on, so the controllers then act as if just started on the restored
   * state, without a thread started or stopped. A manager that does not lead only runs
   * {@code restore}.
   *
   * @param restore writes the store; runs on the calling thread while nothing is processed
   * @param timeout how long the informers may take to follow the restored store
   * @throws IllegalStateException after {@link #close()}, or if the informers do not follow
   *     within {@code timeout} (the workers go on all the same)
   */
  public void reset(Runnable restore, Duration timeout) {
    requireNonNull(restore, "restore");
    requireNonNull(timeout, "timeout");
    if (closed.get()) {
      throw new IllegalStateException("the controller manager is closed");
    }
    // holding the lock keeps a leader-election change from stopping the runtime meanwhile
    synchronized (lock) {
      if (runtime == null) {
        restore.run();
      } else {
        runtime.reset(restore, timeout);
      }
    }
  }

  /**
   * Stops the controllers, their informers and the leader election, waiting for their threads.
   * The lease is not released, as kube-controller-manager does not release it. Idempotent.
   */
  @Override
  public void close() {
    if (closed.compareAndSet(false, true)) {
      elector.ifPresent(LeaderElector::close);
      stopControllers();
      MetricsApi served;
      synchronized (lock) {
        served = metricsApi;
        metricsApi = null;
      }
      if (served != null) {
        served.close();
      }
    }
  }

  private void start() {
    if (serveMetricsApi) {
      MetricsApi served = MetricsApi.serve(api, podMetrics, clock);
      synchronized (lock) {
        metricsApi = served;
      }
    }
    if (elector.isPresent()) {
      elector.get().start();
    } else {
      startControllers();
    }
  }

  /** Builds and starts the controllers; they list every resource they follow first. */
  private void startControllers() {
    ControllerRuntime r = new ControllerRuntime(api, clock, descriptors,
        new ControllerSettings(concurrentSyncs, flags, simulatedStorage, clusterSigning,
            podMetrics, customMetrics, tokenSigning));
    try {
      r.stopServerInstances(disabled);
      r.start();
    } catch (RuntimeException e) {
      r.close();
      throw e;
    }
    synchronized (lock) {
      if (!closed.get()) {
        runtime = r;
        return;
      }
    }
    r.close();
  }

  private void stopControllers() {
    ControllerRuntime r;
    synchronized (lock) {
      r = runtime;
      runtime = null;
    }
    if (r != null) {
      r.close();
    }
  }

  @Override
  public String toString() {
    return "ControllerManager" + names;
  }

  /**
   * Configures a {@link ControllerManager}. Each option may be set once; a second call or a bad
   * value fails at once with a message naming it. Not thread-safe.
   */
  public static final class Builder {
    private final ApiServer api;
    private List<String> controllers = List.of("*");
    private boolean controllersSet;
    private Clock clock = Clock.systemUTC();
    private boolean clockSet;
    private Optional<LeaderElection> leaderElection = Optional.empty();
    private boolean leaderElectionSet;
    private final Map<String, Integer> concurrentSyncs = new LinkedHashMap<>();
    private boolean simulatedStorage = true;
    private final Map<String, Integer> flags = new LinkedHashMap<>();
    private ClusterSigning clusterSigning = ClusterSigning.defaults();
    private boolean clusterSigningSet;
    private PodMetrics podMetrics = PodMetrics.create();
    private boolean podMetricsSet;
    private Optional<CustomMetrics> customMetrics = Optional.empty();
    private boolean serveMetricsApi;
    private Path serviceAccountPrivateKeyFile;
    private Path rootCaFile;
    private String rootCa;

    private Builder(ApiServer api) {
      this.api = api;
    }

    /**
     * The controllers to run, as kube-controller-manager's {@code --controllers} flag: a comma
     * separated list where {@code *} enables those on by default, {@code name} enables one and
     * {@code -name} disables one, by canonical name ({@code garbage-collector-controller}) or
     * alias ({@code garbagecollector}); the first entry naming a controller decides. Default
     * {@code *}.
     *
     * @throws IllegalArgumentException for an unknown name ("\"x\" is not in the list of known
     *     controllers", as kube), or a known controller this project does not implement
     */
    public Builder controllers(String flag) {
      requireNonNull(flag, "flag");
      return controllers(Arrays.stream(flag.split(",")).map(String::trim)
          .filter(s -> !s.isEmpty()).toList());
    }

    /** The {@code --controllers} values, one per element; see {@link #controllers(String)}. */
    public Builder controllers(List<String> values) {
      if (controllersSet) {
        throw new IllegalStateException("controllers was already set");
      }
      List<String> copy = List.copyOf(requireNonNull(values, "values"));
      KnownControllers.select(copy);
      controllersSet = true;
      this.controllers = copy;
      return this;
    }

    /** The server's clock, that every controller timer runs on; default the UTC system clock. */
    public Builder clock(Clock c) {
      if (clockSet) {
        throw new IllegalStateException("clock was already set");
      }
      clockSet = true;
      this.clock = requireNonNull(c, "clock");
      return this;
    }

    /**
     * Runs the controllers only while this manager leads, as kube-controller-manager with
     * {@code --leader-elect} (see {@link LeaderElection#defaults()}). Default: no leader
     * election, the controllers run at once (one manager per store).
     */
    public Builder leaderElection(LeaderElection election) {
      if (leaderElectionSet) {
        throw new IllegalStateException("leaderElection was already set");
      }
      leaderElectionSet = true;
      this.leaderElection = Optional.of(requireNonNull(election, "election"));
      return this;
    }

    /**
     * The workers of a controller, as kube-controller-manager's
     * {@code --concurrent-<name>-syncs} flag (e.g. {@code concurrentSyncs("gc", 20)}); see
     * {@link #concurrentSyncsDefaults()} for the names and kube's defaults.
     *
     * @throws IllegalArgumentException for an unknown name or a count below 1
     * @throws IllegalStateException if that name was already set
     */
    public Builder concurrentSyncs(String name, int workers) {
      requireNonNull(name, "name");
      if (!ConcurrentSyncs.all().containsKey(name)) {
        throw new IllegalArgumentException("unknown flag --concurrent-" + name + "-syncs");
      }
      if (workers < 1) {
        throw new IllegalArgumentException("--concurrent-" + name + "-syncs must be at least 1,"
            + " got " + workers);
      }
      if (concurrentSyncs.putIfAbsent(name, workers) != null) {
        throw new IllegalStateException("concurrentSyncs " + name + " was already set");
      }
      return this;
    }

    /**
     * Runs the volume controllers without the simulated storage beside them: the external
     * provisioner that otherwise creates volumes for claims of a StorageClass with a
     * provisioner, and the external resizer that otherwise expands them (as a CSI driver's
     * sidecars would). For tests that create the volumes themselves, or run their own.
     */
    public Builder withoutSimulatedStorage() {
      simulatedStorage = false;
      return this;
    }

    /**
     * The resource metrics the horizontal pod autoscaler reads; default a new empty set, which
     * {@link ControllerManager#podMetrics()} returns. Managers of servers sharing a store may
     * share one, so that the leader reads what the test set.
     *
     * @throws IllegalStateException if already set
     */
    public Builder podMetrics(PodMetrics metrics) {
      if (podMetricsSet) {
        throw new IllegalStateException("podMetrics was already set");
      }
      podMetricsSet = true;
      this.podMetrics = requireNonNull(metrics, "metrics");
      return this;
    }

    /**
     * Gives the horizontal pod autoscaler a custom and an external metrics API, answered from
     * {@code metrics} (see {@link CustomMetrics}); without it, as in a cluster without a metrics
     * adapter, {@code Pods}, {@code Object} and {@code External} metrics fail with kube's "no
     * custom metrics API registered".
     *
     * @throws IllegalStateException if already set
     */
    public Builder customMetrics(CustomMetrics metrics) {
      if (customMetrics.isPresent()) {
        throw new IllegalStateException("customMetrics was already set");
      }
      this.customMetrics = Optional.of(requireNonNull(metrics, "metrics"));
      return this;
    }

    /**
     * Serves metrics-server's {@code metrics.k8s.io/v1beta1} on the server from the manager's
     * {@link ControllerManager#podMetrics()} while the manager runs (see {@link MetricsApi}), so
     * that {@code kubectl top} works; default off, as a cluster without metrics-server.
     *
     * @throws IllegalStateException if already set
     */
    public Builder serveMetricsApi() {
      if (serveMetricsApi) {
        throw new IllegalStateException("serveMetricsApi was already set");
      }
      serveMetricsApi = true;
      return this;
    }

    /**
     * kube-controller-manager's {@code --terminated-pod-gc-threshold}: how many terminated Pods
     * (Succeeded or Failed) may exist before the pod garbage collector deletes the oldest, 0 or
     * less to never delete them for that reason. Default: kube's 12500.
     *
     * @throws IllegalStateException if already set
     */
    public Builder terminatedPodGcThreshold(int threshold) {
      if (flags.putIfAbsent("terminated-pod-gc-threshold", threshold) != null) {
        throw new IllegalStateException("terminatedPodGcThreshold was already set");
      }
      return this;
    }

    /**
     * The csrsigning controller's CA files and certificate duration, as kube-controller-manager's
     * {@code --cluster-signing-*} flags; default: an in-memory CA and one year. The files are
     * read when the controllers start, which fails with kube's message if they cannot be.
     *
     * @throws IllegalStateException if already set
     */
    public Builder clusterSigning(ClusterSigning signing) {
      if (clusterSigningSet) {
        throw new IllegalStateException("clusterSigning was already set");
      }
      clusterSigningSet = true;
      this.clusterSigning = requireNonNull(signing, "signing");
      return this;
    }

    /**
     * kube-controller-manager's {@code --service-account-private-key-file}: the PEM RSA or
     * ECDSA private key (PKCS#8, PKCS#1 or SEC 1) the serviceaccount-token controller signs
     * legacy tokens with, read when the manager starts. Without it that controller does not
     * run, as in kube. The server's token authenticator must verify with the same key.
     *
     * @throws IllegalStateException if already set
     */
    public Builder serviceAccountPrivateKeyFile(Path pem) {
      if (serviceAccountPrivateKeyFile != null) {
        throw new IllegalStateException("serviceAccountPrivateKeyFile was already set");
      }
      this.serviceAccountPrivateKeyFile = requireNonNull(pem, "pem");
      return this;
    }

    /**
     * kube-controller-manager's {@code --root-ca-file}: the PEM CA bundle the
     * serviceaccount-token controller writes into token Secrets as {@code ca.crt}, read when the
     * manager starts. kube otherwise writes the CA its own kubeconfig trusts; embedders give
     * that with {@link #rootCa(String)}. Neither: no {@code ca.crt}.
     *
     * @throws IllegalStateException if a root CA was already set
     */
    public Builder rootCaFile(Path pem) {
      if (rootCaFile != null || rootCa != null) {
        throw new IllegalStateException("the root CA was already set");
      }
      this.rootCaFile = requireNonNull(pem, "pem");
      return this;
    }

    /**
     * The PEM CA bundle written into token Secrets as {@code ca.crt}: what kube's
     * serviceaccount-token controller writes without {@code --root-ca-file}, the CA of the
     * server it talks to. See {@link #rootCaFile(Path)}.
     *
     * @throws IllegalStateException if a root CA was already set
     */
    public Builder rootCa(String pem) {
      if (rootCaFile != null || rootCa != null) {
        throw new IllegalStateException("the root CA was already set");
      }
      this.rootCa = requireNonNull(pem, "pem");
      return this;
    }

    /** The key and CA read, with kube's messages for files that cannot be. */
    private Optional<ServiceAccountTokenSigning> tokenSigning() {
      if (serviceAccountPrivateKeyFile == null) {
        return Optional.empty();
      }
      java.security.PrivateKey key;
      try {
        key = io.apiserver4j.controllers.certificates.signer.CaFileLoader.privateKey(
            Files.readString(serviceAccountPrivateKeyFile, StandardCharsets.UTF_8));
      } catch (IOException | IllegalArgumentException e) {
        throw new IllegalArgumentException("error reading key for service account token"
            + " controller: " + e.getMessage(), e);
      }
      byte[] ca = new byte[0];
      if (rootCaFile != null) {
        try {
          ca = Files.readAllBytes(rootCaFile);
        } catch (IOException e) {
          throw new IllegalArgumentException("error reading root-ca-file at " + rootCaFile
              + ": " + e.getMessage(), e);
        }
        if (!new String(ca, StandardCharsets.US_ASCII).contains("-----BEGIN CERTIFICATE-----")) {
          throw new IllegalArgumentException("error parsing root-ca-file at " + rootCaFile
              + ": data does not contain any valid RSA or ECDSA certificates");
        }
      } else if (rootCa != null) {
        ca = rootCa.getBytes(StandardCharsets.UTF_8);
      }
      return Optional.of(new ServiceAccountTokenSigning(key, ca));
    }

    /**
     * Builds the manager and starts it: without leader election the controllers list every
     * resource they follow, then start their workers; with it, the manager campaigns on its own
     * thread and starts them once it leads.
     *
     * @throws io.apiserver4j.core.errors.StatusException if the store cannot be listed
     */
    public ControllerManager start() {
      Map<String, Integer> syncs = new LinkedHashMap<>();
      ConcurrentSyncs.all().forEach((k, v) -> syncs.put(k, v.kubeDefault()));
      syncs.putAll(concurrentSyncs);
      ControllerManager m = new ControllerManager(this, KnownControllers.select(controllers),
          syncs);
      try {
        m.start();
      } catch (RuntimeException e) {
        m.close();
        throw e;
      }
      return m;
    }
  }
}
