/*
 * Copyright The apiserver4j authors.
 * SPDX-License-Identifier: Apache-2.0
 */
package io.apiserver4j.apiserver.internal;

import io.apiserver4j.admission.AdmissionAttributes;
import io.apiserver4j.admission.MutatingPlugin;
import io.apiserver4j.admission.SideEffects;
import io.apiserver4j.admission.ValidatingPlugin;
import io.apiserver4j.admission.matching.ConfigurationSource;
import io.apiserver4j.admission.matching.ConfigurationSources;
import io.apiserver4j.admission.matching.EquivalentResources;
import io.apiserver4j.admission.matching.LabelSelectors;
import io.apiserver4j.admission.matching.NamespaceLookup;
import io.apiserver4j.admission.policy.MutatingAdmissionPolicies;
import io.apiserver4j.admission.policy.ParamSource;
import io.apiserver4j.admission.policy.PolicyContext;
import io.apiserver4j.cel.CelAuthorizer;
import io.apiserver4j.admission.policy.PolicyOutcome;
import io.apiserver4j.admission.policy.ValidatingAdmissionPolicies;
import io.apiserver4j.apiserver.ResourceDefinition;
import io.apiserver4j.core.GroupResource;
import io.apiserver4j.core.GroupVersionKind;
import io.apiserver4j.core.GroupVersionResource;
import io.apiserver4j.core.MapValue;
import io.apiserver4j.core.Value;
import io.apiserver4j.core.Meta;
import io.apiserver4j.core.errors.StatusErrors;
import io.apiserver4j.merge.ParseableType;
import io.apiserver4j.merge.ValidationException;
import io.apiserver4j.core.labels.LabelSelector;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import java.util.concurrent.ConcurrentHashMap;
import java.util.concurrent.atomic.AtomicReference;

/**
 * The admission policy stage: Mutating- and ValidatingAdmissionPolicies and their bindings read
 * from the server's configuration sources, compiled again only when they change, run after the
 * in-JVM plugins of their phase and before the webhooks (kube-apiserver's order). Parameters of any
 * served kind (custom resources included) come from a configuration source of their resource.
 * An admission plugin of both phases; warnings and audit annotations go to the request's
 * context. Thread-safe.
 */
final class PolicyStage implements PolicyContext, MutatingPlugin, ValidatingPlugin {
  private static final String GROUP = "admissionregistration.k8s.io";
  private static final GroupResource POLICIES =
      new GroupResource(GROUP, "validatingadmissionpolicies");
  private static final GroupResource BINDINGS =
      new GroupResource(GROUP, "validatingadmissionpolicybindings");
  private static final GroupResource MUTATING_POLICIES =
      new GroupResource(GROUP, "mutatingadmissionpolicies");
  private static final GroupResource MUTATING_BINDINGS =
      new GroupResource(GROUP, "mutatingadmissionpolicybindings");

  private final ConfigurationSources sources;
  private final Registry registry;
  private final AtomicReference<Compiled> compiled = new AtomicReference<>();
  private final AtomicReference<CompiledMutating> compiledMutating = new AtomicReference<>();
  private final EquivalentResources equivalents;

  /** The policies of one pair of snapshots. */
  private record Compiled(ConfigurationSource.Snapshot policies,
      ConfigurationSource.Snapshot bindings, ValidatingAdmissionPolicies value) {}

  /** The mutating policies of one pair of snapshots. */
  private record CompiledMutating(ConfigurationSource.Snapshot policies,
      ConfigurationSource.Snapshot bindings, MutatingAdmissionPolicies value) {}

  PolicyStage(ConfigurationSources sources, Registry registry) {
    this.sources = sources;
    this.registry = registry;
    this.equivalents = new CachedEquivalents();
  }

  /** Whether the server serves admission policies at all. */
  static boolean served(Registry registry) {
    return !registry.versionsOf(POLICIES).isEmpty()
        || !registry.versionsOf(MUTATING_POLICIES).isEmpty();
  }

  @Override
  public String name() {
    return "AdmissionPolicies";
  }

  @Override
  public SideEffects sideEffects() {
    return SideEffects.NONE;
  }

  /**
   * Mutates the object of a create or update with the MutatingAdmissionPolicies (after the
   * in-JVM mutating plugins, before mutating webhooks).
   */
  @Override
  public MapValue admit(AdmissionAttributes attributes, MapValue object) {
    return mutate(attributes.withObject(object));
  }

  private MapValue mutate(AdmissionAttributes attributes) {
    ConfigurationSource.Snapshot p = sources.source(MUTATING_POLICIES).snapshot();
    ConfigurationSource.Snapshot b = sources.source(MUTATING_BINDINGS).snapshot();
    CompiledMutating c = compiledMutating.get();
    if (c == null || c.policies() != p || c.bindings() != b) {
      MutatingAdmissionPolicies base = c == null ? MutatingAdmissionPolicies.empty() : c.value();
      c = new CompiledMutating(p, b, base.update(p.objects(), b.objects()));
      compiledMutating.set(c);
    }
    return c.value().isEmpty() ? attributes.object().orElseThrow()
        : c.value().admit(attributes, this);
  }

  /**
   * Validates a request (all verbs with an admission phase) with the ValidatingAdmissionPolicies,
   * adding their warnings and audit annotations to the request's context.
   */
  @Override
  public void validate(AdmissionAttributes attributes) {
    ValidatingAdmissionPolicies policies = current();
    if (policies.isEmpty()) {
      return;
    }
    PolicyOutcome outcome = policies.validate(attributes, this);
    outcome.warnings().forEach(attributes.context()::addWarning);
    outcome.auditAnnotations().forEach(attributes.context()::addAuditAnnotation);
  }

  private ValidatingAdmissionPolicies current() {
    ConfigurationSource.Snapshot p = sources.source(POLICIES).snapshot();
    ConfigurationSource.Snapshot b = sources.source(BINDINGS).snapshot();
    Compiled c = compiled.get();
    if (c != null && c.policies() == p && c.bindings() == b) {
      return c.value();
    }
    // compiled once per change of a policy's spec: unchanged policies are reused
    ValidatingAdmissionPolicies base = c == null ? ValidatingAdmissionPolicies.empty() : c.value();
    Compiled fresh = new Compiled(p, b, base.update(p.objects(), b.objects()));
    compiled.set(fresh);
    return fresh.value();
  }

  /**
   * Merges with the kind's schema, as kube merges an apply configuration with
   * structured-merge-diff: associative lists item by item by their keys, atomic values replaced.
   */
  @Override
  public CelAuthorizer authorizer(AdmissionAttributes attributes) {
    return attributes.authorizer();
  }

  @Override
  public MapValue applyConfiguration(GroupVersionKind kind, MapValue object, MapValue patch) {
    Optional<ResourceDefinition> def = registry.findByKind(kind);
    if (def.isEmpty()) {
      return PolicyContext.super.applyConfiguration(kind, object, patch);
    }
    try {
      ParseableType type = def.get().schema().type(def.get().schemaType());
      Value merged = type.fromValue(object).merge(type.fromValue(patch)).value();
      if (!(merged instanceof MapValue m)) {
        throw new IllegalArgumentException("error applying patch: the result is not an object");
      }
      return m;
    } catch (ValidationException | IllegalArgumentException e) {
      throw new IllegalArgumentException("error applying patch: " + e.getMessage(), e);
    }
  }

  @Override
  public NamespaceLookup namespaces() {
    return sources.namespaces();
  }

  @Override
  public EquivalentResources equivalents() {
    return equivalents;
  }

  /**
   * The sources' equivalents, remembered until the registry changes: every request a policy's
   * rules do not name directly asks for them once per policy.
   */
  private final class CachedEquivalents implements EquivalentResources {
    private record Key(GroupVersionResource resource, String subresource) {}

    private record Cache(List<ResourceDefinition> registryState,
        Map<Key, List<GroupVersionResource>> lists) {}

    private final EquivalentResources delegate = sources.equivalents();
    private volatile Cache cache = new Cache(List.of(), Map.of());

    @Override
    public List<GroupVersionResource> equivalents(GroupVersionResource r, String sub) {
      List<ResourceDefinition> state = registry.all();
      Cache c = cache;
      if (c.registryState() != state) {
        c = new Cache(state, new ConcurrentHashMap<>());
        cache = c;
      }
      return c.lists().computeIfAbsent(new Key(r, sub),
          k -> List.copyOf(delegate.equivalents(r, sub)));
    }

    @Override
    public Optional<GroupVersionKind> kindFor(GroupVersionResource r, String sub) {
      return delegate.kindFor(r, sub);
    }
  }

  @Override
  public Optional<ParamSource> params(String apiVersion, String kind) {
    Optional<ResourceDefinition> def;
    try {
      def = registry.findByKind(GroupVersionKind.of(apiVersion, kind));
    } catch (IllegalArgumentException e) {
      return Optional.empty();
    }
    return def.map(d -> new SourceParams(d.namespaced(), sources.source(d.groupResource())));
  }

  /** Parameter objects read from the configuration source of their resource. */
  private record SourceParams(boolean namespaced, ConfigurationSource source)
      implements ParamSource {
    @Override
    public Optional<MapValue> get(String namespace, String name) {
      for (MapValue o : source.snapshot().objects()) {
        if (Meta.metaString(o, "namespace").equals(namespace)
            && Meta.metaString(o, "name").equals(name)) {
          return Optional.of(o);
        }
      }
      return Optional.empty();
    }

    @Override
    public List<MapValue> list(String namespace, MapValue labelSelector) {
      LabelSelector selector;
      try {
        selector = LabelSelectors.parse(labelSelector);
      } catch (IllegalArgumentException e) {
        throw StatusErrors.badRequest(e.getMessage());
      }
      List<MapValue> out = new ArrayList<>();
      for (MapValue o : source.snapshot().objects()) {
        if (Meta.metaString(o, "namespace").equals(namespace) && selector.matches(o)) {
          out.add(o);
        }
      }
      return out;
    }
  }
}
