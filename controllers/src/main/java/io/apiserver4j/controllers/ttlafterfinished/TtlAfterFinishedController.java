/*
 * Copyright The apiserver4j authors.
 * SPDX-License-Identifier: Apache-2.0
 */
package io.apiserver4j.controllers.ttlafterfinished;

import io.apiserver4j.admission.UserInfo;
import io.apiserver4j.apiserver.DeleteOptions;
import io.apiserver4j.apiserver.PropagationPolicy;
import io.apiserver4j.apiserver.ResourceClient;
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
import io.apiserver4j.core.Value;
import io.apiserver4j.core.errors.ConflictException;
import io.apiserver4j.core.errors.NotFoundException;
import java.time.Duration;
import java.time.Instant;
import java.util.Optional;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * kube's {@code ttlafterfinished.Controller}
 * (pkg/controller/ttlafterfinished/ttlafterfinished_controller.go), as user
 * {@code system:serviceaccount:kube-system:ttl-after-finished-controller}: a finished Job (a
 * True {@code Complete} or {@code Failed} condition) with {@code spec.ttlSecondsAfterFinished}
 * is queued for the time its condition's {@code lastTransitionTime} plus the TTL reaches on the
 * server clock, then checked again against a fresh read and deleted with foreground propagation
 * and its UID as a precondition.
 */
public final class TtlAfterFinishedController implements Controller {
  private static final Logger LOG = LoggerFactory.getLogger(TtlAfterFinishedController.class);
  /** kube's {@code --concurrent-ttl-after-finished-syncs} default. */
  private static final int WORKERS = 5;
  private static final GroupVersionResource JOBS =
      new GroupVersionResource("batch", "v1", "jobs");

  private final ControllerContext context;
  private final UserInfo user;
  private final Informer jobs;
  private final WorkQueue<String> queue;
  private Workers workers;

  private TtlAfterFinishedController(ControllerContext context) {
    this.context = context;
    this.user = ControllerContext.serviceAccount("ttl-after-finished-controller");
    this.queue = context.newQueue("ttl_jobs_to_delete");
    this.jobs = context.informers().informer(new GroupResource("batch", "jobs"));
    jobs.addHandler(new ResourceEventHandler() {
      @Override
      public void onAdd(MapValue job) {
        enqueueIfNeeded(job);
      }

      @Override
      public void onUpdate(MapValue old, MapValue job) {
        enqueueIfNeeded(job);
      }

      @Override
      public void onDelete(MapValue job) {
        // nothing to clean up
      }
    });
  }

  /** The {@code ttl-after-finished} controller. */
  public static Controller create(ControllerContext context) {
    return new TtlAfterFinishedController(context);
  }

  @Override
  public void start() {
    workers = context.startWorkers("ttl_jobs_to_delete", queue, WORKERS, this::process);
  }

  @Override
  public void close() {
    Workers.close(workers, queue);
  }

  private void enqueueIfNeeded(MapValue job) {
    if (!Nested.has(job, "metadata", "deletionTimestamp") && needsCleanup(job)) {
      queue.add(Pods.key(job));
    }
  }

  /** kube's {@code needsCleanup}: a TTL and a finished Job. */
  static boolean needsCleanup(MapValue job) {
    return Nested.has(job, "spec", "ttlSecondsAfterFinished") && finishTime(job).isPresent();
  }

  /** kube's {@code jobFinishTime}: the True Complete or Failed condition's transition time. */
  static Optional<Instant> finishTime(MapValue job) {
    for (Value c : Nested.list(job, "status", "conditions")) {
      String type = Nested.str(c, "type");
      if ((type.equals("Complete") || type.equals("Failed"))
          && Nested.str(c, "status").equals("True")) {
        return Pods.time(c, "lastTransitionTime");
      }
    }
    return Optional.empty();
  }

  /**
   * kube's {@code timeLeft}: how long until the Job expires at {@code now} (zero or less:
   * expired); empty when it needs no cleanup or its finish time is unknown.
   */
  static Optional<Duration> timeLeft(MapValue job, Instant now) {
    if (Nested.has(job, "metadata", "deletionTimestamp") || !needsCleanup(job)) {
      return Optional.empty();
    }
    Instant finishedAt = finishTime(job).orElseThrow();
    if (finishedAt.isAfter(now)) {
      LOG.info("Warning: Found Job {} finished in the future. This is likely due to time skew "
          + "in the cluster. Job cleanup will be deferred.", Pods.key(job));
    }
    Instant expireAt = finishedAt.plusSeconds(Nested.integer(job, "spec",
        "ttlSecondsAfterFinished"));
    return Optional.of(Duration.between(now, expireAt));
  }

  /** kube's {@code processJob}. */
  private Outcome process(String key) {
    int slash = key.indexOf('/');
    String namespace = key.substring(0, slash);
    String name = key.substring(slash + 1);
    Optional<MapValue> cached = jobs.get(namespace, name);
    if (cached.isEmpty() || !expired(key, cached.get())) {
      return Outcome.FORGET;
    }
    // the cached Job may be stale (its TTL changed): read it again before deleting
    Optional<MapValue> fresh = jobClient(namespace).find(name);
    if (fresh.isEmpty() || !expired(key, fresh.get())) {
      return Outcome.FORGET;
    }
    try {
      jobClient(namespace).delete(name, DeleteOptions.builder()
          .propagationPolicy(PropagationPolicy.FOREGROUND)
          .preconditionUid(Meta.metaString(fresh.get(), "uid")).build());
    } catch (NotFoundException e) {
      // gone already
    } catch (ConflictException e) {
      // replaced by a Job of the same name: its own events queue it
      LOG.debug("Job {} changed before its TTL deletion: {}", key, e.getMessage());
    }
    return Outcome.FORGET;
  }

  /** kube's {@code processTTL}: whether expired now; if not yet, queued for when it will be. */
  private boolean expired(String key, MapValue job) {
    Instant now = context.clock().instant();
    Optional<Duration> left = timeLeft(job, now);
    if (left.isEmpty()) {
      return false;
    }
    if (left.get().isNegative() || left.get().isZero()) {
      return true;
    }
    queue.addAt(key, now.plus(left.get()));
    return false;
  }

  private ResourceClient jobClient(String namespace) {
    return context.client(JOBS, user).namespace(namespace);
  }
}
