/*
 * Copyright The apiserver4j authors.
 * SPDX-License-Identifier: Apache-2.0
 */
package io.apiserver4j.registry.core.resourcequota;

import static java.util.Objects.requireNonNull;

import io.apiserver4j.admission.AdmissionAttributes;
import io.apiserver4j.admission.AdmissionErrors;
import io.apiserver4j.admission.Operation;
import io.apiserver4j.admission.SideEffects;
import io.apiserver4j.admission.UserInfo;
import io.apiserver4j.admission.ValidatingPlugin;
import io.apiserver4j.admission.quota.QuotaEvaluator;
import io.apiserver4j.admission.quota.QuotaEvaluators;
import io.apiserver4j.admission.quota.ResourceLists;
import io.apiserver4j.admission.quota.ScopeRequirement;
import io.apiserver4j.apimachinery.validation.GroupRules.Quantity;
import io.apiserver4j.apiserver.admission.AdmissionPluginContext;
import io.apiserver4j.core.GroupResource;
import io.apiserver4j.core.GroupVersionResource;
import io.apiserver4j.core.MapValue;
import io.apiserver4j.core.Meta;
import io.apiserver4j.core.Nested;
import io.apiserver4j.core.errors.Status;
import io.apiserver4j.core.errors.StatusException;
import io.apiserver4j.core.errors.StatusReason;
import io.apiserver4j.storage.CollectionKey;
import java.util.ArrayList;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import java.util.Set;
import java.util.SortedMap;
import java.util.TreeSet;
import java.util.function.Supplier;

/**
 * kube-apiserver's {@code ResourceQuota} admission plugin
 * ({@code k8s.io/apiserver/pkg/admission/plugin/resourcequota}: admission.go, controller.go,
 * resource_access.go) with kube's evaluators ({@link QuotaEvaluators}): a namespaced create (or
 * an update that changes usage: Services, PersistentVolumeClaims) is measured against every
 * ResourceQuota of its namespace whose {@code status.hard} names a resource it consumes and
 * whose scopes it is in, and refused with 403 in kube's words when it would exceed one
 * ({@code exceeded quota: q, requested: pods=1, used: pods=2, limited: pods=2}), when a Pod
 * does not state what a cpu or memory quota needs ({@code failed quota: q: must specify
 * limits.cpu for: c}), or when a quota has no usage recorded yet for a resource it limits
 * ({@code status unknown for quota: q, resources: pods}). The admission configuration file's
 * {@code limitedResources} ({@link LimitedResource}) make some consumption and some scopes need a
 * covering quota even where the namespace has none ({@code insufficient quota to consume:
 * requests.cpu}).
 *
 * <p>An admitted request is charged before it is stored: each quota whose usage changed gets
 * its new {@code status.used} through the server ({@code resourcequotas/status}, checked
 * against the resourceVersion read, as user {@code system:apiserver}); on a conflict the
 * quotas that failed are read again and the request re-checked against them, three times, as
 * kube's quota evaluator does. Dry runs are checked and never charged. As in kube, a quota
 * counts nothing until the resourcequota controller has set its {@code status.hard}, usage is
 * released by that controller (deletes are not charged here), and a charge stays when the
 * write fails after admission until the controller recalculates.
 *
 * <p>Cluster-scoped objects and the resources kube's quota ignores (events, reviews, bindings)
 * are not evaluated; of subresources, those whose evaluator handles them (a Pod's
 * {@code resize}, a claim's or a Service's {@code status}), as in kube 1.36. Requests of one namespace are checked and charged one
 * at a time, as kube's per-namespace work queue does. The quotas are read from the server's
 * informer of ResourceQuotas, not from storage per request. Thread-safe.
 */
public final class ResourceQuotaAdmission implements ValidatingPlugin {
  /** The plugin's name in kube-apiserver. */
  public static final String NAME = "ResourceQuota";
  private static final GroupVersionResource QUOTAS =
      new GroupVersionResource("", "v1", "resourcequotas");
  /** kube-apiserver's loopback client. */
  private static final UserInfo LOOPBACK = UserInfo.of("system:apiserver",
      "system:authenticated", "system:masters");
  private static final String FIELD_MANAGER = "kube-apiserver";
  private static final int RETRIES = 3;

  /** Lock stripes: requests of one namespace always take the same one. */
  private static final int STRIPES = 64;

  private final AdmissionPluginContext server;
  private final QuotaEvaluators evaluators;
  private final Object[] stripes = new Object[STRIPES];
  /** The configuration's {@code limitedResources}: consumption that needs a covering quota. */
  private final List<LimitedResource> limited;
  /** By namespace, from the server's informer; set at the first evaluated request. */
  private volatile Supplier<Map<String, List<MapValue>>> quotasByNamespace;

  /**
   * A plugin reading and charging the ResourceQuotas of {@code server}.
   *
   * @param server the server the plugin runs in
   */
  public ResourceQuotaAdmission(AdmissionPluginContext server) {
    this.server = requireNonNull(server, "server");
    this.evaluators = QuotaEvaluators.core(server.clock());
    this.limited = LimitedResource.ofConfiguration(server.configuration(NAME));
    for (int i = 0; i < STRIPES; i++) {
      stripes[i] = new Object();
    }
  }

  @Override
  public String name() {
    return NAME;
  }

  @Override
  public SideEffects sideEffects() {
    return SideEffects.NONE_ON_DRY_RUN;
  }

  @Override
  public boolean handles(AdmissionAttributes a) {
    // as kube 1.36, subresources too: each evaluator says which requests can change usage
    // (a Pod's resize, a claim's status)
    return !a.namespace().isEmpty()
        && (a.operation() == Operation.CREATE || a.operation() == Operation.UPDATE)
        && a.object().isPresent()
        && !QuotaEvaluators.ignored(a.resource().groupResource());
  }

  @Override
  public void validate(AdmissionAttributes a) {
    QuotaEvaluator evaluator = evaluators.getOrCount(a.resource().groupResource());
    if (!evaluator.handles(a.operation(), a.subresource())) {
      return;
    }
    Object lock = stripes[Math.floorMod(a.namespace().hashCode(), STRIPES)];
    synchronized (lock) {
      List<MapValue> quotas = cachedQuotas(a.namespace());
      if (quotas.isEmpty() && limited.isEmpty()) {
        return;
      }
      for (int retries = RETRIES; ; retries--) {
        List<MapValue> charged = checkRequest(quotas, a, evaluator, limited);
        if (a.isDryRun()) {
          return;
        }
        List<String> failed = new ArrayList<>();
        StatusException lastError = null;
        for (int i = 0; i < quotas.size(); i++) {
          if (charged.get(i) == quotas.get(i)) {
            continue;
          }
          try {
            updateStatus(charged.get(i));
          } catch (StatusException e) {
            failed.add(Meta.metaString(quotas.get(i), "name"));
            lastError = e;
          }
        }
        if (failed.isEmpty()) {
          return;
        }
        if (retries <= 0) {
          throw lastError;
        }
        // the quotas that failed, read live (kube's live lookup); one deleted meanwhile is not
        // checked again
        quotas = server.list(CollectionKey.inNamespace("", "resourcequotas", a.namespace()))
            .stream()
            .filter(q -> failed.contains(Meta.metaString(q, "name"))).toList();
        if (quotas.isEmpty()) {
          return;
        }
      }
    }
  }

  /**
   * The namespace's quotas as the server's informer has them (kube's quota lister): current for
   * this server's writes; a quota another server charged meanwhile fails the status update
   * with a conflict and is then read live.
   */
  private List<MapValue> cachedQuotas(String namespace) {
    Supplier<Map<String, List<MapValue>>> index = quotasByNamespace;
    if (index == null) {
      index = server.informer(QUOTAS.groupResource()).derived(s -> {
        Map<String, List<MapValue>> byNamespace = new HashMap<>();
        for (MapValue q : s.objects()) {
          byNamespace.computeIfAbsent(Meta.metaString(q, "namespace"), k -> new ArrayList<>())
              .add(q);
        }
        return byNamespace;
      });
      quotasByNamespace = index;
    }
    return index.get().getOrDefault(namespace, List.of());
  }

  private void updateStatus(MapValue quota) {
    server.updateStatus(QUOTAS, quota, LOOPBACK, FIELD_MANAGER);
  }

  /**
   * kube's {@code CheckRequest}: the quotas with the request charged (the same object where
   * nothing changed), or the 403 of the first quota it does not fit; consumption that the
   * configuration limits by default and no quota covers is refused too.
   */
  static List<MapValue> checkRequest(List<MapValue> quotas, AdmissionAttributes a,
      QuotaEvaluator evaluator, List<LimitedResource> limited) {
    MapValue object = a.object().orElseThrow();
    List<ScopeRequirement> limitedScopes = new ArrayList<>();
    for (LimitedResource l : limited) {
      limitedScopes.addAll(evaluator.matchingScopes(object, l.matchScopes()));
    }
    GroupResource gr = a.resource().groupResource();
    List<LimitedResource> limitedHere = limited.stream().filter(l -> l.resource().equals(gr))
        .toList();
    // what the object consumes, measured once for the limited names and the charge
    SortedMap<String, Quantity> input = evaluator.usage(object);
    Set<String> limitedNames = limitedHere.isEmpty() ? Set.of()
        : LimitedResource.limitedByDefault(input, limitedHere);
    List<Integer> interesting = new ArrayList<>();
    Set<String> restrictedAll = new TreeSet<>();
    List<ScopeRequirement> restrictedScopes = new ArrayList<>();
    for (int i = 0; i < quotas.size(); i++) {
      MapValue quota = quotas.get(i);
      restrictedScopes.addAll(evaluator.matchingScopes(object, ScopeRequirement.ofQuota(quota)));
      if (!evaluator.matches(quota, object)) {
        continue;
      }
      Map<String, Quantity> hard = hard(quota);
      List<String> restricted = evaluator.matchingResources(hard.keySet());
      Optional<String> failed = evaluator.constraints(restricted, object);
      if (failed.isPresent()) {
        throw AdmissionErrors.forbidden(a, "failed quota: " + name(quota) + ": "
            + failed.get());
      }
      Map<String, Quantity> used = used(quota);
      for (String r : restricted) {
        if (!used.containsKey(r)) {
          throw AdmissionErrors.forbidden(a, "status unknown for quota: " + name(quota)
              + ", resources: " + String.join(",", new TreeSet<>(restricted)));
        }
      }
      interesting.add(i);
      restrictedAll.addAll(restricted);
    }
    List<String> negative = ResourceLists.negative(input);
    if (!negative.isEmpty()) {
      throw AdmissionErrors.forbidden(a, "quota usage is negative for resource(s): "
          + String.join(",", negative));
    }
    Map<Integer, Map<String, Quantity>> delta = new HashMap<>();
    for (int i : interesting) {
      delta.put(i, input);
    }
    // what the request consumes when no quota is interesting, for the limited-resource check
    Map<String, Quantity> unquotedDelta =
        a.operation() == Operation.CREATE && interesting.isEmpty() ? input : Map.of();
    if (a.operation() == Operation.UPDATE) {
      Optional<MapValue> old = a.oldObject();
      if (old.isEmpty()) {
        throw AdmissionErrors.forbidden(a, "unable to get previous usage since prior version"
            + " of object was not found");
      }
      if (!Meta.metaString(old.get(), "resourceVersion").isEmpty()) {
        Map<String, Quantity> change = ResourceLists.subtractNonNegative(input,
            evaluator.usage(old.get()));
        if (interesting.isEmpty()) {
          unquotedDelta = change;
        }
        for (int i : interesting) {
          if (evaluator.matches(quotas.get(i), old.get())) {
            delta.put(i, change);
          }
        }
      } else if (interesting.isEmpty()) {
        unquotedDelta = input;
      }
    }
    delta.replaceAll((i, d) -> ResourceLists.removeZeros(d));
    delta.values().removeIf(Map::isEmpty);
    if (interesting.isEmpty() ? ResourceLists.removeZeros(unquotedDelta).isEmpty()
        : delta.isEmpty()) {
      return quotas;
    }
    Set<String> uncovered = new TreeSet<>(limitedNames);
    uncovered.removeAll(restrictedAll);
    if (!uncovered.isEmpty()) {
      throw AdmissionErrors.forbidden(a, "insufficient quota to consume: "
          + String.join(",", uncovered));
    }
    List<ScopeRequirement> uncoveredScopes =
        evaluator.uncoveredQuotaScopes(limitedScopes, restrictedScopes);
    if (!uncoveredScopes.isEmpty()) {
      // kube returns a plain error here, which the API server answers as a 500 of no reason
      throw new StatusException(Status.failure(StatusReason.UNKNOWN,
          "insufficient quota to match these scopes: [" + String.join(" ",
              uncoveredScopes.stream().map(ScopeRequirement::goText).toList()) + "]"));
    }
    if (interesting.isEmpty()) {
      return quotas;
    }
    List<MapValue> out = new ArrayList<>(quotas);
    for (int i : interesting) {
      Map<String, Quantity> d = delta.get(i);
      if (d == null) {
        continue;
      }
      MapValue quota = quotas.get(i);
      Map<String, Quantity> hard = hard(quota);
      Map<String, Quantity> used = used(quota);
      Map<String, Quantity> requested = ResourceLists.mask(d, hard.keySet());
      Map<String, Quantity> newUsage = ResourceLists.add(used, requested);
      List<String> exceeded = ResourceLists.exceeded(
          ResourceLists.mask(newUsage, requested.keySet()), hard);
      if (!exceeded.isEmpty()) {
        throw AdmissionErrors.forbidden(a, "exceeded quota: " + name(quota)
            + ", requested: " + ResourceLists.prettyPrint(ResourceLists.mask(requested, exceeded))
            + ", used: " + ResourceLists.prettyPrint(ResourceLists.mask(used, exceeded))
            + ", limited: " + ResourceLists.prettyPrint(ResourceLists.mask(hard, exceeded)));
      }
      if (!ResourceLists.equal(newUsage, used)) {
        out.set(i, Nested.set(quota, ResourceLists.toValue(newUsage), "status", "used"));
      }
    }
    return out;
  }

  private static String name(MapValue quota) {
    return Meta.metaString(quota, "name");
  }

  private static Map<String, Quantity> hard(MapValue quota) {
    return ResourceLists.fromValue(Nested.getOrNull(quota, "status", "hard"));
  }

  private static Map<String, Quantity> used(MapValue quota) {
    return ResourceLists.fromValue(Nested.getOrNull(quota, "status", "used"));
  }
}
