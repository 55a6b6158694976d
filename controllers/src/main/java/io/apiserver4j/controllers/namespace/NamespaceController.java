/*
 * Copyright The apiserver4j authors.
 * SPDX-License-Identifier: Apache-2.0
 */
package io.apiserver4j.controllers.namespace;

import io.apiserver4j.controllers.internal.Controller;
import io.apiserver4j.controllers.internal.ControllerContext;
import io.apiserver4j.controllers.internal.ControllerContext.Outcome;
import io.apiserver4j.controllers.internal.ControllerContext.Workers;
import io.apiserver4j.controllers.internal.Informer;
import io.apiserver4j.controllers.internal.ResourceEventHandler;
import io.apiserver4j.controllers.internal.WorkQueue;
import io.apiserver4j.core.GroupResource;
import io.apiserver4j.core.MapValue;
import io.apiserver4j.core.Meta;
import io.apiserver4j.core.errors.StatusException;
import java.time.Duration;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * kube's {@code NamespaceController} (pkg/controller/namespace/namespace_controller.go), as user
 * {@code system:serviceaccount:kube-system:namespace-controller} with
 * {@code --concurrent-namespace-syncs} workers (kube's 10): a namespace with a
 * deletionTimestamp is queued {@value #DELETION_GRACE_SECONDS} s after each change on the server
 * clock (kube's {@code namespaceDeletionGracePeriod}), and each pass of the {@link
 * NamespacedResourcesDeleter} that leaves content behind comes back after half kube's estimate
 * plus a second; a pass that fails is retried with backoff. While it runs, the server's own
 * namespace controller is stopped (the manager hands it over).
 */
public final class NamespaceController implements Controller {
  private static final Logger LOG = LoggerFactory.getLogger(NamespaceController.class);
  /** kube's {@code namespaceDeletionGracePeriod}. */
  static final long DELETION_GRACE_SECONDS = 5;

  private final ControllerContext context;
  private final Informer namespaces;
  private final WorkQueue<String> queue;
  private final NamespacedResourcesDeleter deleter;
  private Workers workers;

  private NamespaceController(ControllerContext context) {
    this.context = context;
    this.namespaces = context.informers().informer(new GroupResource("", "namespaces"));
    this.queue = context.newQueue("namespace");
    this.deleter = new NamespacedResourcesDeleter(context,
        ControllerContext.serviceAccount("namespace-controller"));
    namespaces.addHandler(new ResourceEventHandler() {
      @Override
      public void onAdd(MapValue namespace) {
        enqueue(namespace);
      }

      @Override
      public void onUpdate(MapValue old, MapValue namespace) {
        enqueue(namespace);
      }

      @Override
      public void onDelete(MapValue namespace) {
        // gone: nothing left to delete
      }
    });
  }

  /** The {@code namespace} controller. */
  public static Controller create(ControllerContext context) {
    return new NamespaceController(context);
  }

  /** kube's {@code enqueueNamespace}: only namespaces being deleted, after the grace period. */
  private void enqueue(MapValue namespace) {
    if (Meta.hasMeta(namespace, "deletionTimestamp")) {
      queue.addAfter(Meta.metaString(namespace, "name"),
          Duration.ofSeconds(DELETION_GRACE_SECONDS));
    }
  }

  @Override
  public void start() {
    workers = context.startWorkers("namespace", queue, context.concurrentSyncs("namespace"),
        this::sync);
  }

  @Override
  public void close() {
    Workers.close(workers, queue);
  }

  /** kube's worker with {@code syncNamespaceFromKey}. */
  private Outcome sync(String name) {
    if (namespaces.get("", name).isEmpty()) {
      return Outcome.FORGET;
    }
    try {
      deleter.delete(name);
      return Outcome.FORGET;
    } catch (NamespacedResourcesDeleter.ResourcesRemaining e) {
      long wait = e.estimate() / 2 + 1;
      LOG.debug("content remaining in namespace {}, waiting {} s", name, wait);
      queue.addAfter(name, Duration.ofSeconds(wait));
      return Outcome.FORGET;
    } catch (NamespacedResourcesDeleter.DeletionFailed | StatusException e) {
      LOG.warn("deletion of namespace {} failed: {}", name, e.getMessage());
      return Outcome.REQUEUE;
    }
  }
}
