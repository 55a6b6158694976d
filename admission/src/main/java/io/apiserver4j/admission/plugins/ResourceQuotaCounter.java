/*
 * Copyright The apiserver4j authors.
 * SPDX-License-Identifier: Apache-2.0
 */
package io.apiserver4j.admission.plugins;

import static java.util.Objects.requireNonNull;

import io.apiserver4j.admission.AdmissionAttributes;
import io.apiserver4j.admission.AdmissionErrors;
import io.apiserver4j.admission.Operation;
import io.apiserver4j.admission.SideEffects;
import io.apiserver4j.admission.ValidatingPlugin;
import io.apiserver4j.core.GroupResource;
import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.concurrent.ConcurrentHashMap;

/**
 * Object-count quotas, after kube-apiserver's {@code ResourceQuota} admission plugin restricted
 * to {@code count/<resource>[.<group>]} limits: each configured quota caps how many objects of
 * a resource a namespace may hold.
 *
 * <p>A CREATE that would exceed a quota fails with 403, in kube's words:
 * {@code configmaps "x" is forbidden: exceeded quota: q, requested: count/configmaps=1, used:
 * count/configmaps=2, limited: count/configmaps=2}. Quotas of a namespace are checked in the
 * order they were configured; the first one exceeded is reported.
 *
 * <p><b>When usage changes.</b> Like kube-apiserver, this plugin charges quota during admission,
 * before the object is written: an admitted, non-dry-run CREATE adds one, an admitted,
 * non-dry-run DELETE takes one away (never below zero). Admission runs before the write, so a
 * write that then fails (an AlreadyExists, a conflict) leaves the charge in place; a delete that
 * only marks an object with finalizers as deleting releases it early. kube-apiserver accepts the
 * same drift and corrects it with its quota controller's periodic recount; here the server (or
 * a test) corrects it with {@link #reconcile}, giving the real object count. Dry-run requests
 * are checked against the limits exactly as real ones but never change usage, hence
 * {@link SideEffects#NONE_ON_DRY_RUN}. Subresource requests and cluster-scoped objects are not
 * counted.
 *
 * <p>Thread-safe: the check and the charge for one namespace and resource are atomic.
 */
public final class ResourceQuotaCounter implements ValidatingPlugin {
  /** The plugin's name in kube-apiserver. */
  public static final String NAME = "ResourceQuota";

  private static final String COUNT_PREFIX = "count/";

  /** One configured limit. */
  private record Limit(String quotaName, String resourceName, long hard) {}

  private record UsageKey(String namespace, GroupResource resource) {}

  private final Map<UsageKey, List<Limit>> limits;
  private final ConcurrentHashMap<UsageKey, Long> usage = new ConcurrentHashMap<>();

  private ResourceQuotaCounter(Map<UsageKey, List<Limit>> limits) {
    Map<UsageKey, List<Limit>> copy = new LinkedHashMap<>();
    limits.forEach((k, v) -> copy.put(k, List.copyOf(v)));
    this.limits = Map.copyOf(copy);
  }

  /**
   * A builder with no quotas.
   *
   * @return a new builder
   */
  public static Builder builder() {
    return new Builder();
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
    return (a.operation() == Operation.CREATE || a.operation() == Operation.DELETE)
        && a.subresource().isEmpty()
        && !a.namespace().isEmpty()
        && limits.containsKey(new UsageKey(a.namespace(), a.resource().groupResource()));
  }

  @Override
  public void validate(AdmissionAttributes a) {
    UsageKey key = new UsageKey(a.namespace(), a.resource().groupResource());
    List<Limit> quotas = limits.get(key);
    if (quotas == null) {
      return;
    }
    if (a.operation() == Operation.DELETE) {
      if (!a.isDryRun()) {
        usage.computeIfPresent(key, (k, used) -> Math.max(0, used - 1));
      }
      return;
    }
    if (a.operation() != Operation.CREATE) {
      return;
    }
    // compute() makes check-and-charge atomic per key; throwing inside it leaves usage as it was.
    usage.compute(key, (k, current) -> {
      long used = current == null ? 0 : current;
      for (Limit limit : quotas) {
        if (used + 1 > limit.hard()) {
          String r = limit.resourceName();
          throw AdmissionErrors.forbidden(a, "exceeded quota: " + limit.quotaName()
              + ", requested: " + r + "=1, used: " + r + "=" + used
              + ", limited: " + r + "=" + limit.hard());
        }
      }
      return a.isDryRun() ? current : Long.valueOf(used + 1);
    });
  }

  /**
   * The number of objects of {@code resource} currently charged to {@code namespace}.
   *
   * @param namespace the namespace
   * @param resource the resource
   * @return the usage
   */
  public long usage(String namespace, GroupResource resource) {
    requireNonNull(namespace, "namespace");
    requireNonNull(resource, "resource");
    Long used = usage.get(new UsageKey(namespace, resource));
    return used == null ? 0 : used;
  }

  /**
   * Sets the usage to the real object count (as kube's quota controller does when it
   * recalculates), e.g. at startup or after writes that failed after admission.
   *
   * @throws IllegalArgumentException when {@code count} is negative
   * @param namespace the namespace
   * @param resource the resource
   * @param count the real object count
   */
  public void reconcile(String namespace, GroupResource resource, long count) {
    requireNonNull(namespace, "namespace");
    requireNonNull(resource, "resource");
    if (count < 0) {
      throw new IllegalArgumentException("reconcile: negative object count " + count + " for "
          + resource + " in namespace " + namespace);
    }
    usage.put(new UsageKey(namespace, resource), count);
  }

  /** Configures quotas; strict: a malformed or clashing quota is rejected at once. */
  public static final class Builder {
    private final Map<UsageKey, List<Limit>> limits = new LinkedHashMap<>();
    private final Map<String, Boolean> quotaNames = new LinkedHashMap<>();

    private Builder() {}

    /**
     * Adds quota {@code quotaName} in {@code namespace} with {@code hard} limits keyed by
     * kube's object-count resource names, e.g. {@code count/configmaps} or
     * {@code count/deployments.apps}.
     *
     * @throws IllegalArgumentException naming the culprit for an empty namespace or name, a
     *     quota name used twice in a namespace, a resource name not of the {@code count/} form,
     *     or a negative limit
     * @param namespace the namespace
     * @param quotaName the quota's name
     * @param hard the limits
     * @return this builder
     */
    public Builder quota(String namespace, String quotaName, Map<String, Long> hard) {
      requireNonNull(namespace, "namespace");
      requireNonNull(quotaName, "quotaName");
      requireNonNull(hard, "hard");
      if (namespace.isEmpty()) {
        throw new IllegalArgumentException("quota \"" + quotaName + "\": namespace is empty");
      }
      if (quotaName.isEmpty()) {
        throw new IllegalArgumentException("quota in namespace " + namespace + ": name is empty");
      }
      if (quotaNames.put(namespace + "/" + quotaName, Boolean.TRUE) != null) {
        throw new IllegalArgumentException(
            "quota \"" + quotaName + "\" configured twice in namespace " + namespace);
      }
      for (Map.Entry<String, Long> e : hard.entrySet()) {
        String resourceName = requireNonNull(e.getKey(), "hard resource name");
        long limit = requireNonNull(e.getValue(), "hard limit of " + resourceName);
        GroupResource gr = parseCountResource(quotaName, resourceName);
        if (limit < 0) {
          throw new IllegalArgumentException("quota \"" + quotaName + "\": negative limit "
              + limit + " for " + resourceName);
        }
        limits.computeIfAbsent(new UsageKey(namespace, gr), k -> new ArrayList<>())
            .add(new Limit(quotaName, resourceName, limit));
      }
      return this;
    }

    /**
     * Builds the counter, all usage zero.
     *
     * @return the counter
     */
    public ResourceQuotaCounter build() {
      return new ResourceQuotaCounter(limits);
    }

    private static GroupResource parseCountResource(String quotaName, String resourceName) {
      if (!resourceName.startsWith(COUNT_PREFIX) || resourceName.length() == COUNT_PREFIX.length()) {
        throw new IllegalArgumentException("quota \"" + quotaName + "\": unsupported resource name"
            + " \"" + resourceName + "\"; only object counts (count/<resource>[.<group>]) are"
            + " supported");
      }
      String qualified = resourceName.substring(COUNT_PREFIX.length());
      int dot = qualified.indexOf('.');
      if (dot == 0 || dot == qualified.length() - 1) {
        throw new IllegalArgumentException("quota \"" + quotaName + "\": malformed resource name"
            + " \"" + resourceName + "\"");
      }
      return dot < 0 ? new GroupResource("", qualified)
          : new GroupResource(qualified.substring(dot + 1), qualified.substring(0, dot));
    }
  }
}
