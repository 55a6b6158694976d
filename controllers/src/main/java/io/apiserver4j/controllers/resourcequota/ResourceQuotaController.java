/*
 * Copyright The apiserver4j authors.
 * SPDX-License-Identifier: Apache-2.0
 */
package io.apiserver4j.controllers.resourcequota;

import io.apiserver4j.admission.UserInfo;
import io.apiserver4j.admission.quota.QuotaEvaluator;
import io.apiserver4j.admission.quota.QuotaEvaluators;
import io.apiserver4j.admission.quota.QuotaUsage;
import io.apiserver4j.admission.quota.ResourceLists;
import io.apiserver4j.apiserver.ApiRequest;
import io.apiserver4j.apiserver.UpdateOptions;
import io.apiserver4j.controllers.internal.Controller;
import io.apiserver4j.controllers.internal.ControllerContext;
import io.apiserver4j.controllers.internal.ControllerContext.Outcome;
import io.apiserver4j.controllers.internal.ControllerContext.Workers;
import io.apiserver4j.controllers.internal.Informer;
import io.apiserver4j.controllers.internal.Pods;
import io.apiserver4j.controllers.internal.ResourceEventHandler;
import io.apiserver4j.controllers.internal.WorkQueue;
import io.apiserver4j.core.GroupResource;
import io.apiserver4j.core.GroupVersionResource;
import io.apiserver4j.core.MapValue;
import io.apiserver4j.core.Meta;
import io.apiserver4j.core.Nested;
import io.apiserver4j.core.errors.ConflictException;
import io.apiserver4j.core.errors.NotFoundException;
import java.time.Duration;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import java.util.concurrent.ConcurrentHashMap;
import java.util.concurrent.atomic.AtomicBoolean;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * kube's resourcequota {@code Controller}
 * (pkg/controller/resourcequota/resource_quota_controller.go and resource_quota_monitor.go), as
 * user {@code system:serviceaccount:kube-system:resourcequota-controller}:
 *
 * <ul>
 *   <li>a quota is synced when added, and when its {@code spec.hard} changes (its own status
 *       writes do not queue it again);
 *   <li>a sync sets {@code status.hard} to {@code spec.hard} and recounts {@code status.used}
 *       from the informers' objects of the namespace with {@link QuotaEvaluators} (the same
 *       evaluators the ResourceQuota admission plugin charges with), and writes the status
 *       through {@code resourcequotas/status} when it changed ({@link QuotaUsage});
 *   <li>replenishment: every resource that can be deleted and listed is monitored (kube's quota
 *       monitors, an object count evaluator for each resource without one); a deletion, or an
 *       update that lowers usage (a Pod becoming terminal, a Service changing its quota type, a
 *       claim's allocated storage changing), queues the namespace's quotas that track the
 *       resource;
 *   <li>a full resync queues every quota each {@code --resource-quota-sync-period} (five
 *       minutes) of the server clock.
 * </ul>
 */
public final class ResourceQuotaController implements Controller {
  private static final Logger LOG = LoggerFactory.getLogger(ResourceQuotaController.class);
  /** kube-controller-manager's {@code --resource-quota-sync-period} default. */
  static final Duration RESYNC = Duration.ofMinutes(5);
  private static final GroupResource QUOTA_RESOURCE = new GroupResource("", "resourcequotas");
  private static final GroupVersionResource QUOTAS =
      new GroupVersionResource("", "v1", "resourcequotas");

  private final ControllerContext context;
  private final UserInfo user;
  private final QuotaEvaluators evaluators;
  private final Informer quotas;
  private final Map<GroupResource, Informer> monitored = new ConcurrentHashMap<>();
  private final WorkQueue<String> queue;
  private final AtomicBoolean closed = new AtomicBoolean();
  private Workers workers;

  private ResourceQuotaController(ControllerContext context) {
    this.context = context;
    this.user = ControllerContext.serviceAccount("resourcequota-controller");
    this.evaluators = QuotaEvaluators.core(context.clock());
    this.queue = context.newQueue("resourcequota_primary");
    this.quotas = context.informers().informer(QUOTA_RESOURCE);
    quotas.addHandler(new ResourceEventHandler() {
      @Override
      public void onAdd(MapValue quota) {
        queue.add(Pods.key(quota));
      }

      @Override
      public void onUpdate(MapValue old, MapValue quota) {
        // only spec changes drive a sync: status updates come from this controller and the
        // admission plugin, and recounting on each would cost a namespace listing per write
        if (!ResourceLists.equal(ResourceLists.fromValue(Nested.getOrNull(old, "spec", "hard")),
            ResourceLists.fromValue(Nested.getOrNull(quota, "spec", "hard")))) {
          queue.add(Pods.key(quota));
        }
      }

      @Override
      public void onDelete(MapValue quota) {
        // nothing to keep in step
      }
    });
    context.informers().forEveryResource(this::monitor);
  }

  /** The {@code resourcequota} controller. */
  public static Controller create(ControllerContext context) {
    return new ResourceQuotaController(context);
  }

  /** kube's {@code QuotaMonitor.controllerFor}: replenishment from one resource's events. */
  private void monitor(Informer informer) {
    GroupResource resource = informer.definition().groupResource();
    if (QuotaEvaluators.ignored(resource)
        || !informer.definition().namespaced()) {
      return;
    }
    evaluators.getOrCount(resource);
    monitored.put(resource, informer);
    informer.addHandler(new ResourceEventHandler() {
      @Override
      public void onAdd(MapValue object) {
        // admission charged it
      }

      @Override
      public void onUpdate(MapValue old, MapValue object) {
        if (evaluators.requiresReplenish(resource, old, object)) {
          replenish(resource, Meta.metaString(object, "namespace"));
        }
      }

      @Override
      public void onDelete(MapValue object) {
        replenish(resource, Meta.metaString(object, "namespace"));
      }
    });
  }

  /** kube's {@code replenishQuota}: the namespace's quotas that track the resource. */
  private void replenish(GroupResource resource, String namespace) {
    Optional<QuotaEvaluator> evaluator = evaluators.get(resource);
    if (evaluator.isEmpty() || namespace.isEmpty()) {
      return;
    }
    for (MapValue quota : quotas.list(namespace)) {
      if (!evaluator.get().matchingResources(ResourceLists.fromValue(
          Nested.getOrNull(quota, "status", "hard")).keySet()).isEmpty()) {
        queue.add(Pods.key(quota));
      }
    }
  }

  @Override
  public void start() {
    workers = context.startWorkers("resourcequota_primary", queue,
        context.concurrentSyncs("resource-quota"), this::sync);
    scheduleResync();
  }

  /** kube's {@code enqueueAll} every resync period, on the server clock. */
  private void scheduleResync() {
    context.timers().schedule(RESYNC, () -> {
      if (closed.get()) {
        return;
      }
      quotas.list().forEach(q -> queue.add(Pods.key(q)));
      scheduleResync();
    });
  }

  @Override
  public void resetInPlace() {
    scheduleResync();
  }

  @Override
  public void close() {
    closed.set(true);
    Workers.close(workers, queue);
  }

  /** kube's {@code syncResourceQuotaFromKey} and {@code syncResourceQuota}. */
  private Outcome sync(String key) {
    int slash = key.indexOf('/');
    Optional<MapValue> cached = quotas.get(key.substring(0, slash), key.substring(slash + 1));
    if (cached.isEmpty()) {
      return Outcome.FORGET;
    }
    MapValue quota = cached.get();
    QuotaUsage usage = QuotaUsage.recalculate(quota, evaluators, this::list);
    if (!usage.errors().isEmpty()) {
      LOG.warn("resource quota {}: cannot list {}; their usage is kept as last observed", key,
          usage.errors());
    }
    if (!usage.dirty()) {
      return usage.errors().isEmpty() ? Outcome.FORGET : Outcome.REQUEUE;
    }
    try {
      context.api().handle(ApiRequest.builder(ApiRequest.Verb.UPDATE, QUOTAS)
          .namespace(Meta.metaString(quota, "namespace")).name(Meta.metaString(quota, "name"))
          .subresource("status").options(UpdateOptions.defaults())
          .fieldManager(ControllerContext.FIELD_MANAGER).user(user)
          .body(quota.with("status", usage.status())).build()).orThrow();
    } catch (ConflictException e) {
      // the admission plugin charged it meanwhile: recount from the newer version
      return Outcome.REQUEUE;
    } catch (NotFoundException e) {
      return Outcome.FORGET;
    }
    return usage.errors().isEmpty() ? Outcome.FORGET : Outcome.REQUEUE;
  }

  private Optional<List<MapValue>> list(GroupResource resource, String namespace) {
    Informer informer = monitored.get(resource);
    return informer == null ? Optional.empty() : Optional.of(informer.list(namespace));
  }
}
