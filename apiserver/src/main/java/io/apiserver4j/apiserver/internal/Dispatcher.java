/*
 * Copyright The apiserver4j authors.
 * SPDX-License-Identifier: Apache-2.0
 */
package io.apiserver4j.apiserver.internal;

import io.apiserver4j.admission.AdmissionChain;
import io.apiserver4j.admission.matching.ConfigurationSources;
import io.apiserver4j.admission.plugins.NamespaceStore;
import io.apiserver4j.apiserver.ApiRequest;
import io.apiserver4j.apiserver.ApiRequest.Verb;
import io.apiserver4j.apiserver.ApiResponse;
import io.apiserver4j.apiserver.ApiWatch;
import io.apiserver4j.apiserver.CreateAuthorizer;
import io.apiserver4j.apiserver.ResourceDefinition;
import io.apiserver4j.core.errors.StatusErrors;
import io.apiserver4j.core.errors.StatusException;
import io.apiserver4j.dryrun.GeneratedValuesPolicy;
import io.apiserver4j.storage.Store;
import java.time.Clock;
import java.util.Objects;
import java.util.Random;
import java.util.function.Function;
import java.util.function.Supplier;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * The request path: resolves each request once to a {@link Scope} — its endpoint, its options,
 * its time and where its writes go (the store, or the dry-run store for {@code dryRun=All}) —
 * and hands it to the verb's handler. Every failure becomes kube's Status; an unexpected
 * exception is logged once, with its stack, and answered as kube's 500. Thread-safe.
 *
 * <p>The server's controllers (namespace and CRD finalization, CRD naming) hear of committed
 * writes through {@link WriteListener}s and act through this dispatcher as their loopback
 * client, as kube-apiserver's controllers do.
 */
public final class Dispatcher {
  /** The default limit of a request body: 3 MiB, as kube-apiserver's. */
  public static final long DEFAULT_MAX_BODY_BYTES = 3L * 1024 * 1024;
  private static final Logger LOG = LoggerFactory.getLogger(Dispatcher.class);

  private final NamespaceController namespaceController;
  private final Registry registry;
  private final Clock clock;
  private final Allocations allocations;
  private final Endpoints endpoints;
  private final Storage storage;
  private final Storage dryRun;
  private final CrdInformer crdInformer;
  private final ServerConfigurationSources configurationSources;
  private final CreateHandler creates;
  private final UpdateHandler updates;
  private final PatchHandler patches;
  private final ReadHandler reads;
  private final DeleteHandler deletes;
  private final ScaleSupport scales;
  private final ApiServiceRegistration apiServices;
  private final WriteListener.ToCommitListeners commitListeners =
      new WriteListener.ToCommitListeners();

  public Dispatcher(Registry registry, Store store, Clock clock, Supplier<String> uids,
      Random random, Function<NamespaceStore, AdmissionChain> admissionFactory,
      GeneratedValuesPolicy generatedValues, long maxBodyBytes,
      CreateAuthorizer createAuthorizer) {
    this(registry, store, clock, uids, random, admissionFactory, generatedValues, maxBodyBytes,
        createAuthorizer, java.util.Map.of());
  }

  /** @param settings server settings by kube-apiserver flag name, for allocators */
  public Dispatcher(Registry registry, Store store, Clock clock, Supplier<String> uids,
      Random random, Function<NamespaceStore, AdmissionChain> admissionFactory,
      GeneratedValuesPolicy generatedValues, long maxBodyBytes,
      CreateAuthorizer createAuthorizer, java.util.Map<String, String> settings) {
    this(registry, store, clock, uids, random, new AdmissionSetup(
        (ns, sources) -> admissionFactory.apply(ns),
        (ns, sources) -> AdmissionChain.empty(), java.util.Set.of()), generatedValues, maxBodyBytes,
        createAuthorizer, settings);
  }

  /**
   * How the admission chain is put together: {@code head} before the policy and webhook stages,
   * {@code tail} after them, the stages named in {@code disabledStages} left out.
   */
  public record AdmissionSetup(
      java.util.function.BiFunction<NamespaceStore, ConfigurationSources, AdmissionChain> head,
      java.util.function.BiFunction<NamespaceStore, ConfigurationSources, AdmissionChain> tail,
      java.util.Set<String> disabledStages) {}

  /** @param settings server settings by kube-apiserver flag name, for allocators */
  public Dispatcher(Registry registry, Store store, Clock clock, Supplier<String> uids,
      Random random, AdmissionSetup admissionSetup,
      GeneratedValuesPolicy generatedValues, long maxBodyBytes,
      CreateAuthorizer createAuthorizer, java.util.Map<String, String> settings) {
    this.registry = registry;
    this.clock = clock;
    this.endpoints = new Endpoints(registry);
    ServerNamespaces namespaces = new ServerNamespaces(store);
    this.configurationSources = new ServerConfigurationSources(store, registry);
    AdmissionChain chain;
    try {
      chain = ConfiguredAdmission.append(Objects.requireNonNull(
          admissionSetup.head().apply(namespaces, configurationSources),
          "the admission factory returned null"),
          admissionSetup.tail().apply(namespaces, configurationSources),
          admissionSetup.disabledStages(),
          registry, configurationSources);
    } catch (RuntimeException e) {
      // the sources already started stop with the server that will not be
      configurationSources.close();
      throw e;
    }
    this.crdInformer = new CrdInformer(store, registry);
    AdmissionStage admission = new AdmissionStage(chain, crdInformer::terminating);
    Bodies bodies = new Bodies(maxBodyBytes);
    FieldManagers fieldManagers = new FieldManagers(registry);
    this.allocations = new Allocations(settings, this::handle, store, random, clock);
    GuaranteedWrite write = new GuaranteedWrite(new ObjectMetaRules(uids, random), admission,
        createAuthorizer, allocations);
    this.scales = new ScaleSupport(registry, bodies, fieldManagers, admission, write);
    this.creates = new CreateHandler(bodies, fieldManagers, admission, write, this::handle,
        registry);
    this.updates = new UpdateHandler(bodies, fieldManagers, admission, write);
    this.patches = new PatchHandler(bodies, fieldManagers, admission, write);
    this.reads = new ReadHandler();
    this.deletes = new DeleteHandler(admission);

    CrdController crds = new CrdController(store, registry, crdInformer, admission,
        this::handle, clock);
    NamespaceController namespaceController = new NamespaceController(store, registry,
        admission, this::handle);
    this.namespaceController = namespaceController;
    deletes.register(CrdController.CRD_RESOURCE.groupResource(), crds::delete);
    deletes.register(NamespaceController.NAMESPACES, namespaceController::delete);
    namespaces.connect(this::handle);
    this.apiServices = new ApiServiceRegistration(store, registry, this::handle, clock);
    // followers hear of a write before the server's controllers write what it causes
    this.storage = Storage.real(store, commitListeners.andThen(crds)
        .andThen(namespaceController).andThen(apiServices).andThen(configurationSources)
        .andThen(new PolicyStatusController(registry, this::handle)).andThen(allocations));
    this.dryRun = Storage.dryRun(store, clock, generatedValues);
  }

  /**
   * Runs the server's namespace controller (deleting a terminating namespace's content and the
   * namespace once empty) until the result is closed; it runs from the start.
   */
  public AutoCloseable startNamespaceController() {
    return namespaceController.start();
  }

  public void addCommitListener(io.apiserver4j.apiserver.informer.CommitListener listener) {
    commitListeners.add(listener);
  }

  public void removeCommitListener(io.apiserver4j.apiserver.informer.CommitListener listener) {
    commitListeners.remove(listener);
  }

  /**
   * Starts the allocators of the served kinds (kube's allocator repair and default ServiceCIDR
   * at start), before the server writes its bootstrap objects.
   */
  public void startAllocators() {
    allocations.start(registry.all());
  }

  /**
   * Serves the established CustomResourceDefinitions in the store and follows their changes in
   * the background until {@link #stopFollowingCrds()}.
   *
   * @throws StatusException if the store cannot list them
   */
  public void followCrds() {
    crdInformer.start();
    registry.followedBy(crdInformer);
  }

  /**
   * Registers the APIServices of the served group versions and of the stored CRDs, as
   * kube-apiserver's aggregator does when it starts (nothing when APIServices are not served).
   */
  public void registerApiServices() {
    apiServices.registerOnStart();
  }

  /**
   * Stops following CustomResourceDefinitions and the objects that configure admission; waits
   * for the background watches to end.
   */
  public void stopFollowingCrds() {
    crdInformer.close();
    configurationSources.close();
  }

  /** Runs a request (any verb but WATCH); every failure becomes a Status response. */
  public ApiResponse handle(ApiRequest request) {
    return handle(request, Scope.Writer.CLIENT);
  }

  /**
   * Runs a write of the server's own objects (its bootstrap objects), which skips the kind's
   * validation as kube's writes straight to storage do; everything else is as {@link #handle}.
   */
  public ApiResponse handleSystemWrite(ApiRequest request) {
    return handle(request, Scope.Writer.SYSTEM);
  }

  private ApiResponse handle(ApiRequest request, Scope.Writer writer) {
    if (request.verb() == Verb.WATCH) {
      throw new IllegalArgumentException("WATCH requests go to ApiServer.watch");
    }
    Warnings warnings = new Warnings();
    try {
      Scope s = resolve(request, warnings, writer);
      if (s.scaleView()) {
        // a Scale is a view of its parent with a kind of its own, as kube's ScaleREST serves it
        return scales.serve(s);
      }
      switch (request.verb()) {
        case CREATE:
          return creates.create(s);
        case GET:
          return reads.get(s);
        case LIST:
          return reads.list(s);
        case UPDATE:
          return updates.update(s);
        case PATCH:
          return patches.patch(s);
        case DELETE:
          return deletes.delete(s);
        default:
          return deletes.deleteCollection(s);
      }
    } catch (StatusException e) {
      return ApiResponse.of(e.status(), warnings.list());
    } catch (RuntimeException e) {
      LOG.error("internal error serving {}", request, e);
      return ApiResponse.of(StatusErrors.internal(e.toString()).status(), warnings.list());
    }
  }

  /**
   * Opens a watch.
   *
   * @throws StatusException for a request kube-apiserver refuses
   */
  public ApiWatch watch(ApiRequest request) {
    return reads.watch(resolve(request, new Warnings(), Scope.Writer.CLIENT));
  }

  private Scope resolve(ApiRequest r, Warnings warnings, Scope.Writer writer) {
    ResourceDefinition def = endpoints.resolve(r);
    warnings.addAll(def.warnings());
    // only writes are recorded under a manager
    String manager = r.verb().isWrite()
        ? WriteOptionRules.managerOrUserAgent(r.fieldManager(), r.userAgent()) : "";
    return new Scope(r, def, r.namespace(), r.name(), r.subresource(), clock.instant(), manager,
        r.dryRun().isDryRun() ? dryRun : storage, warnings, writer);
  }
}
