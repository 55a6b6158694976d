/*
 * Copyright The apiserver4j authors.
 * SPDX-License-Identifier: Apache-2.0
 */
package io.apiserver4j.registry.core.pod;

import io.apiserver4j.apiserver.CreateCall;
import io.apiserver4j.apiserver.SubresourceCreate;
import io.apiserver4j.apiserver.ApiRequest;
import io.apiserver4j.apiserver.ApiRequest.Verb;
import io.apiserver4j.apiserver.QueryParameters;
import io.apiserver4j.apiserver.ResourceStrategy;
import io.apiserver4j.core.errors.ConflictException;
import io.apiserver4j.core.errors.ConflictException;
import io.apiserver4j.core.GroupResource;
import io.apiserver4j.core.GroupVersionResource;
import io.apiserver4j.core.IntegerValue;
import io.apiserver4j.core.ListValue;
import io.apiserver4j.core.MapValue;
import io.apiserver4j.core.Meta;
import io.apiserver4j.core.Nested;
import io.apiserver4j.core.errors.Status;
import io.apiserver4j.core.errors.StatusCause;
import io.apiserver4j.core.errors.StatusDetails;
import io.apiserver4j.core.errors.StatusErrors;
import io.apiserver4j.core.errors.StatusException;
import io.apiserver4j.core.errors.StatusReason;
import io.apiserver4j.core.StringValue;
import io.apiserver4j.core.Value;
import io.apiserver4j.apiserver.DryRun;
import java.time.Instant;
import java.time.temporal.ChronoUnit;
import java.util.ArrayList;
import java.util.List;
import java.util.Optional;
import io.apiserver4j.apimachinery.validation.KubeValidation;
import io.apiserver4j.registry.internal.Loopback;

/**
 * {@code pods/eviction} as kube-apiserver's {@code EvictionREST}: a pod that already disrupted
 * (pending, terminal, deleting) is deleted at once; otherwise the one PodDisruptionBudget
 * selecting it must allow a disruption, which the eviction takes (decrementing
 * {@code disruptionsAllowed} and recording the pod in {@code disruptedPods}) before deleting the
 * pod with the eviction's delete options, after marking it with the {@code DisruptionTarget}
 * condition. Refusals are kube's 429s with the {@code DisruptionBudget} cause.
 */
final class PodEviction implements SubresourceCreate {
  static final GroupVersionResource PDBS =
      new GroupVersionResource("policy", "v1", "poddisruptionbudgets");
  private static final GroupResource PDB_FORBIDDEN = new GroupResource("policy",
      "poddisruptionbudget");
  /** kube's {@code MaxDisruptedPodSize}. */
  static final int MAX_DISRUPTED_PODS = 2000;
  /** kube's {@code EvictionsRetry} steps; in-process retries need no backoff. */
  private static final int RETRIES = 20;
  private static final String VIOLATION =
      "Cannot evict pod as it would violate the pod's disruption budget.";

  /** kube's EvictionREST accepts policy/v1beta1 Evictions too (older clients send them). */
  @Override
  public java.util.Set<String> acceptedApiVersions() {
    return java.util.Set.of("policy/v1beta1");
  }

  @Override
  public MapValue create(CreateCall call) {
    MapValue eviction = call.object();
    if (!call.name().equals(Meta.metaString(eviction, "name"))) {
      throw StatusErrors.badRequest("name in URL does not match name in Eviction object");
    }
    MapValue options = deleteOptions(eviction, call.dryRun());
    call.validation().accept(eviction);
    Loopback server = new Loopback(call.server(), call.user());
    boolean dryRun = Meta.stringList(options.getOrNull("dryRun")).contains(DryRun.ALL_VALUE);
    Optional<String> requestedRv = preconditionRv(options);

    MapValue pod = null;
    for (int attempt = 0; ; attempt++) {
      pod = server.get(Loopback.PODS, call.namespace(), call.name());
      if (!canIgnoreBudget(pod)) {
        break;
      }
      Optional<String> rv = requestedRv.isEmpty() && shouldEnforceResourceVersion(pod)
          ? Optional.of(Meta.metaString(pod, "resourceVersion")) : requestedRv;
      try {
        markAndDelete(server, call, options, rv, dryRun);
        return success();
      } catch (ConflictException e) {
        if (requestedRv.isPresent() || attempt + 1 >= RETRIES) {
          throw e;
        }
      }
    }

    List<MapValue> budgets = budgetsOf(server, pod);
    if (budgets.size() > 1) {
      return new Status(Status.Outcome.FAILURE, 500, StatusReason.UNKNOWN,
          "This pod has more than one PodDisruptionBudget, which the eviction subresource"
              + " does not support.", Optional.empty()).toValue();
    }
    Optional<String> rv = requestedRv;
    String budgetName = "";
    boolean pinned = false;
    if (budgets.size() == 1) {
      MapValue budget = budgets.get(0);
      budgetName = Meta.metaString(budget, "name");
      if (!isReady(pod) && (Nested.str(budget, "spec", "unhealthyPodEvictionPolicy")
          .equals("AlwaysAllow") || (integer(budget, "currentHealthy")
          >= integer(budget, "desiredHealthy") && integer(budget, "desiredHealthy") > 0))) {
        // an unready pod does not count as healthy: deleting it disrupts nothing, as long as
        // it does not become ready meanwhile
        pinned = true;
        rv = Optional.of(Meta.metaString(pod, "resourceVersion"));
      } else {
        takeDisruption(server, call, budget, dryRun);
      }
    }
    try {
      markAndDelete(server, call, options, rv, dryRun);
    } catch (ConflictException e) {
      if (pinned && requestedRv.isEmpty()) {
        throw stillProcessing(budgetName);
      }
      throw e;
    }
    return success();
  }

  private static MapValue success() {
    return MapValue.ofEntries("kind", Value.of("Status"), "apiVersion", Value.of("v1"),
        "metadata", MapValue.empty(), "status", Value.of("Success"));
  }

  /** kube's {@code propagateDryRun}: the request's dryRun goes into the eviction's options. */
  private static MapValue deleteOptions(MapValue eviction, DryRun requestDryRun) {
    MapValue options = Nested.mapOrNull(eviction, "deleteOptions");
    List<String> request = requestDryRun.wireValues();
    if (options == null) {
      options = MapValue.empty();
    }
    List<String> content = Meta.stringList(options.getOrNull("dryRun"));
    if (content.isEmpty()) {
      return request.isEmpty() ? options : options.with("dryRun", strings(request));
    }
    if (!request.isEmpty() && !request.equals(content)) {
      throw StatusException.of(Status.failure(StatusReason.UNKNOWN,
          "Non-matching dry-run options in request and content: [" + String.join(" ", request)
              + "] and [" + String.join(" ", content) + "]"));
    }
    return options;
  }

  private static Optional<String> preconditionRv(MapValue options) {
    return Nested.getOrNull(options, "preconditions", "resourceVersion") instanceof StringValue s
        ? Optional.of(s.value()) : Optional.empty();
  }

  /** kube's {@code canIgnorePDB}: the pod is not running or already going. */
  private static boolean canIgnoreBudget(MapValue pod) {
    String phase = Nested.str(pod, "status", "phase");
    return phase.equals("Succeeded") || phase.equals("Failed") || phase.equals("Pending")
        || Meta.hasMeta(pod, "deletionTimestamp");
  }

  private static boolean shouldEnforceResourceVersion(MapValue pod) {
    String phase = Nested.str(pod, "status", "phase");
    return !phase.equals("Succeeded") && !phase.equals("Failed")
        && !Meta.hasMeta(pod, "deletionTimestamp");
  }

  /** kube's {@code IsPodReady}: the Ready condition is True. */
  static boolean isReady(MapValue pod) {
    for (Value c : Nested.list(pod, "status", "conditions")) {
      if (Nested.str(c, "type").equals("Ready")) {
        return Nested.str(c, "status").equals("True");
      }
    }
    return false;
  }

  private static long integer(MapValue budget, String statusField) {
    return Nested.getOrNull(budget, "status", statusField) instanceof IntegerValue i
        ? i.value() : 0;
  }

  /** The budgets of the pod's namespace whose valid selector selects its labels. */
  private static List<MapValue> budgetsOf(Loopback server, MapValue pod) {
    MapValue labels = Nested.mapOrNull(pod, "metadata", "labels");
    List<MapValue> out = new ArrayList<>();
    for (MapValue budget : server.list(PDBS, Meta.metaString(pod, "namespace"))) {
      // a missing selector selects nothing; an empty one every pod (policy/v1)
      if (Nested.getOrNull(budget, "spec", "selector") instanceof MapValue selector
          && KubeValidation.selectorMatches(selector, labels == null ? MapValue.empty()
              : labels)) {
        out.add(budget);
      }
    }
    return out;
  }

  /** kube's verify-and-decrement, retried on conflicts with a fresh budget. */
  private static void takeDisruption(Loopback server, CreateCall call,
      MapValue budget, boolean dryRun) {
    MapValue current = budget;
    for (int attempt = 0; ; attempt++) {
      try {
        checkAndDecrement(server, call, current, dryRun);
        return;
      } catch (ConflictException e) {
        if (attempt + 1 >= RETRIES) {
          throw e;
        }
        current = server.get(PDBS, Meta.metaString(budget, "namespace"),
            Meta.metaString(budget, "name"));
      }
    }
  }

  private static void checkAndDecrement(Loopback server, CreateCall call,
      MapValue budget, boolean dryRun) {
    String name = Meta.metaString(budget, "name");
    if (integer(budget, "observedGeneration") < Meta.generation(budget)) {
      throw stillProcessing(name);
    }
    long allowed = integer(budget, "disruptionsAllowed");
    if (allowed < 0) {
      throw StatusErrors.forbidden(PDB_FORBIDDEN, name, "pdb disruptions allowed is negative");
    }
    MapValue disrupted = Nested.mapOrNull(budget, "status", "disruptedPods");
    if (disrupted != null && disrupted.size() > MAX_DISRUPTED_PODS) {
      throw StatusErrors.forbidden(PDB_FORBIDDEN, name, "DisruptedPods map too big - too many"
          + " evictions not confirmed by PDB controller");
    }
    if (allowed == 0) {
      throw tooManyRequests(0, "The disruption budget " + name + " needs "
          + integer(budget, "desiredHealthy") + " healthy pods and has "
          + integer(budget, "currentHealthy") + " currently");
    }
    if (dryRun) {
      return;
    }
    MapValue status = Nested.map(budget, "status").with("disruptionsAllowed",
        Value.of(allowed - 1));
    if (allowed - 1 == 0) {
      status = status.with("conditions", insufficientPods(status, call.now()));
    }
    status = status.with("disruptedPods", (disrupted == null ? MapValue.empty() : disrupted)
        .with(call.name(), Value.of(call.now().truncatedTo(ChronoUnit.SECONDS).toString())));
    server.call(server.request(Verb.UPDATE, PDBS, Meta.metaString(budget, "namespace"), name)
        .subresource("status").body(budget.with("status", status)));
  }

  /**
   * kube's {@code UpdateDisruptionAllowedCondition} with no disruption left: the
   * {@code DisruptionAllowed} condition False with reason {@code InsufficientPods}, its
   * transition time moving only when its status changes ({@code meta.SetStatusCondition}).
   */
  private static ListValue insufficientPods(MapValue status, Instant now) {
    ListValue.Builder out = ListValue.builder(4);
    boolean found = false;
    Value observed = status.getOrNull("observedGeneration");
    for (Value c : Nested.list(status, "conditions")) {
      if (c instanceof MapValue m && Nested.str(m, "type").equals("DisruptionAllowed")) {
        found = true;
        MapValue updated = m.with("reason", Value.of("InsufficientPods"))
            .with("message", Value.of(""));
        if (!Nested.str(m, "status").equals("False")) {
          updated = updated.with("status", Value.of("False")).with("lastTransitionTime",
              Value.of(now.truncatedTo(ChronoUnit.SECONDS).toString()));
        }
        out.add(observed == null ? updated.without("observedGeneration")
            : updated.with("observedGeneration", observed));
      } else {
        out.add(c);
      }
    }
    if (!found) {
      MapValue.Builder c = MapValue.builder().put("type", Value.of("DisruptionAllowed"))
          .put("status", Value.of("False"));
      if (observed != null) {
        c.put("observedGeneration", observed);
      }
      out.add(c.put("lastTransitionTime",
              Value.of(now.truncatedTo(ChronoUnit.SECONDS).toString()))
          .put("reason", Value.of("InsufficientPods")).put("message", Value.of("")).build());
    }
    return out.build();
  }

  /**
   * kube's {@code addConditionAndDeletePod}: unless a dry run, the latest pod gets the
   * {@code DisruptionTarget} condition (checked against the options' preconditions, whose
   * resourceVersion then moves to the marked pod's), and is deleted with the options.
   */
  private static void markAndDelete(Loopback server, CreateCall call,
      MapValue options, Optional<String> rv, boolean dryRun) {
    String namespace = call.namespace();
    Optional<String> deleteRv = rv;
    if (!dryRun) {
      // kube's store update on the latest pod: no admission, no managed fields
      MapValue marked = call.storage().update(Loopback.PODS, call.name(), Optional.empty(),
          Optional.empty(), latest -> {
            String uid = Nested.str(options, "preconditions", "uid");
            if (!uid.isEmpty() && !uid.equals(Meta.metaString(latest, "uid"))) {
              throw podConflict(call.name(), "the UID in the precondition (" + uid + ") does"
                  + " not match the UID in record (" + Meta.metaString(latest, "uid") + ")."
                  + " The object might have been deleted and then recreated");
            }
            String latestRv = Meta.metaString(latest, "resourceVersion");
            if (rv.isPresent() && !rv.get().isEmpty() && !rv.get().equals(latestRv)) {
              throw podConflict(call.name(), "the ResourceVersion in the precondition ("
                  + rv.get() + ") does not match the ResourceVersion in record (" + latestRv
                  + "). The object might have been modified");
            }
            return withDisruptionTarget(latest, call.now());
          });
      if (rv.isPresent()) {
        deleteRv = Optional.of(Meta.metaString(marked, "resourceVersion"));
      }
    }
    ApiRequest.Builder delete = server.request(Verb.DELETE, Loopback.PODS, namespace,
        call.name());
    QueryParameters.applyDeleteOptions(delete, options.without("dryRun").without("kind")
        .without("apiVersion"));
    if (dryRun) {
      delete.dryRun(DryRun.ALL);
    }
    deleteRv.ifPresent(delete::preconditionResourceVersion);
    server.call(delete);
  }

  /** kube's {@code UpdatePodCondition} with the eviction's {@code DisruptionTarget}. */
  private static MapValue withDisruptionTarget(MapValue pod, Instant now) {
    String time = now.truncatedTo(ChronoUnit.SECONDS).toString();
    MapValue condition = MapValue.ofEntries("type", Value.of("DisruptionTarget"),
        "status", Value.of("True"), "lastTransitionTime", Value.of(time),
        "reason", Value.of("EvictionByEvictionAPI"), "message", Value.of("Eviction API: evicting"));
    ListValue.Builder conditions = ListValue.builder(4);
    boolean found = false;
    for (Value c : Nested.list(pod, "status", "conditions")) {
      if (c instanceof MapValue m && Nested.str(m, "type").equals("DisruptionTarget")) {
        found = true;
        MapValue kept = condition;
        if (Nested.str(m, "status").equals("True") && m.getOrNull("lastTransitionTime") != null) {
          kept = kept.with("lastTransitionTime", m.getOrNull("lastTransitionTime"));
        }
        conditions.add(kept);
      } else {
        conditions.add(c);
      }
    }
    if (!found) {
      conditions.add(condition);
    }
    return Nested.set(pod, conditions.build(), "status", "conditions");
  }

  private static ConflictException podConflict(String name, String reason) {
    return StatusErrors.conflict(new GroupResource("", "Pod"), name, reason);
  }

  /** kube's {@code createTooManyRequestsError}. */
  private static StatusException stillProcessing(String budget) {
    return tooManyRequests(10, "The disruption budget " + budget
        + " is still being processed by the server.");
  }

  private static StatusException tooManyRequests(int retryAfter, String cause) {
    return StatusException.of(Status.failure(StatusReason.TOO_MANY_REQUESTS, VIOLATION,
        StatusDetails.of("", "", "").withRetryAfterSeconds(retryAfter)
            .withCauses(List.of(new StatusCause("DisruptionBudget", cause, "")))));
  }

  private static ListValue strings(List<String> values) {
    ListValue.Builder b = ListValue.builder(values.size());
    values.forEach(v -> b.add(Value.of(v)));
    return b.build();
  }
}
