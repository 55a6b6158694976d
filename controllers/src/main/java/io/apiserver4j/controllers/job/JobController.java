/*
 * Copyright The apiserver4j authors.
 * SPDX-License-Identifier: Apache-2.0
 */
package io.apiserver4j.controllers.job;

import static io.apiserver4j.controllers.job.JobUtils.completionIndex;
import static io.apiserver4j.controllers.job.JobUtils.completionMode;
import static io.apiserver4j.controllers.job.JobUtils.failJobMessage;
import static io.apiserver4j.controllers.job.JobUtils.finished;
import static io.apiserver4j.controllers.job.JobUtils.hasBackoffLimitPerIndex;
import static io.apiserver4j.controllers.job.JobUtils.hasFinalizer;
import static io.apiserver4j.controllers.job.JobUtils.indexed;
import static io.apiserver4j.controllers.job.JobUtils.managedByOther;
import static io.apiserver4j.controllers.job.JobUtils.matchSuccessPolicy;
import static io.apiserver4j.controllers.job.JobUtils.pastActiveDeadline;
import static io.apiserver4j.controllers.job.JobUtils.pastBackoffLimitOnFailure;
import static io.apiserver4j.controllers.job.JobUtils.podFailed;
import static io.apiserver4j.controllers.job.JobUtils.selector;
import static io.apiserver4j.controllers.job.JobUtils.suspended;
import static io.apiserver4j.controllers.job.JobUtils.terminating;

import io.apiserver4j.admission.UserInfo;
import io.apiserver4j.controllers.internal.Controller;
import io.apiserver4j.controllers.internal.ControllerContext;
import io.apiserver4j.controllers.internal.ControllerContext.Outcome;
import io.apiserver4j.controllers.internal.ControllerContext.Workers;
import io.apiserver4j.controllers.internal.EventRecorder;
import io.apiserver4j.controllers.internal.Expectations;
import io.apiserver4j.controllers.internal.Informer;
import io.apiserver4j.controllers.internal.Pods;
import io.apiserver4j.controllers.internal.ResourceEventHandler;
import io.apiserver4j.controllers.internal.WorkQueue;
import io.apiserver4j.core.GroupResource;
import io.apiserver4j.core.MapValue;
import io.apiserver4j.core.Meta;
import io.apiserver4j.core.Nested;
import io.apiserver4j.core.errors.ConflictException;
import io.apiserver4j.core.errors.NotFoundException;
import io.apiserver4j.core.errors.StatusException;
import io.apiserver4j.core.labels.LabelSelector;
import java.time.Instant;
import java.util.ArrayList;
import java.util.HashSet;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import java.util.Set;
import java.util.concurrent.ConcurrentHashMap;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * kube's job controller (pkg/controller/job/job_controller.go), as user
 * {@code system:serviceaccount:kube-system:job-controller}. Each sync claims the Job's Pods,
 * counts newly finished ones through {@code status.uncountedTerminatedPods} before it removes
 * their {@code batch.kubernetes.io/job-tracking} finalizer, decides whether the Job failed
 * (pod failure policy, backoff limit, active deadline) or met its success criteria (success
 * policy, completions), creates or deletes Pods towards its parallelism (after the failure
 * backoff on the server clock), and writes the status with kube's interim
 * {@code FailureTarget}/{@code SuccessCriteriaMet} conditions before the terminal
 * {@code Failed}/{@code Complete} ones, once no Pod is terminating. An Indexed Job with
 * {@code spec.backoffLimitPerIndex} has its indexes fail on their own: a failed index
 * ({@code status.failedIndexes}) is not recreated, the others back off per index, and the Job
 * fails once {@code spec.maxFailedIndexes} is exceeded or every index succeeded or failed.
 *
 * <p>Deviation: kube batches Pod events for a second ({@code syncJobBatchPeriod}); here they
 * queue the Job at once, so a test clock that never moves still sees the Job synced.
 */
public final class JobController implements Controller {
  private static final Logger LOG = LoggerFactory.getLogger(JobController.class);
  static final String TRACKING_FINALIZER = "batch.kubernetes.io/job-tracking";
  static final String COMPLETION_INDEX = "batch.kubernetes.io/job-completion-index";
  /** kube's {@code JobIndexFailureCountAnnotation}. */
  static final String INDEX_FAILURE_COUNT = "batch.kubernetes.io/job-index-failure-count";
  /** kube's {@code JobIndexIgnoredFailureCountAnnotation}. */
  static final String INDEX_IGNORED_FAILURE_COUNT =
      "batch.kubernetes.io/job-index-ignored-failure-count";
  /** kube's {@code MaxUncountedPods}. */
  static final int MAX_UNCOUNTED_PODS = 500;
  /** kube's {@code MaxPodCreateDeletePerSync}. */
  static final int MAX_POD_CREATE_DELETE_PER_SYNC = 500;
  /** kube's {@code --concurrent-job-syncs} default. */
  private static final int WORKERS = 5;
  static final String JOB_CONTROLLER_NAME = "kubernetes.io/job-controller";

  private final ControllerContext context;
  private final Informer jobs;
  private final Informer pods;
  private final WorkQueue<String> queue;
  private final WorkQueue<String> orphanQueue;
  private final Expectations expectations;
  private final FinalizerExpectations finalizerExpectations;
  private final Map<String, Backoff> backoffs = new ConcurrentHashMap<>();
  private final JobEvents events;
  private final JobApi api;
  private final JobPodManager podManager;
  private final JobStatusTracker statusTracker;
  private Workers workers;
  private Workers orphanWorkers;

  private JobController(ControllerContext context) {
    this.context = context;
    UserInfo user = ControllerContext.serviceAccount("job-controller");
    this.events = new JobEvents(new EventRecorder(context, user, "job-controller"));
    this.expectations = context.newExpectations();
    this.finalizerExpectations = new FinalizerExpectations(context);
    context.forgetOnReset(backoffs);
    this.api = new JobApi(context, user, events);
    this.queue = context.newQueue("job");
    this.podManager = new JobPodManager(api, events, expectations, queue, context.clock());
    this.statusTracker = new JobStatusTracker(api, events, finalizerExpectations, backoffs);
    this.orphanQueue = context.newQueue("orphan_pod");
    this.jobs = context.informers().informer(new GroupResource("batch", "jobs"));
    this.pods = context.informers().informer(new GroupResource("", "pods"));
    jobs.addHandler(new JobHandler());
    pods.addHandler(new PodHandler());
  }

  /** The {@code job} controller. */
  public static Controller create(ControllerContext context) {
    return new JobController(context);
  }

  @Override
  public void start() {
    workers = context.startWorkers("job", queue, WORKERS, this::sync);
    orphanWorkers = context.startWorkers("orphan_pod", orphanQueue, 1, this::syncOrphanPod);
  }

  @Override
  public void close() {
    for (Workers w : new Workers[] {workers, orphanWorkers}) {
      if (w != null) {
        w.close();
      }
    }
    queue.shutDown();
    orphanQueue.shutDown();
  }

  // ---- event handlers ----

  private final class JobHandler implements ResourceEventHandler {
    @Override
    public void onAdd(MapValue job) {
      enqueue(job);
    }

    @Override
    public void onUpdate(MapValue old, MapValue job) {
      if (!Meta.metaString(old, "uid").equals(Meta.metaString(job, "uid"))) {
        onDelete(old);
      }
      enqueue(job);
    }

    @Override
    public void onDelete(MapValue job) {
      String key = Pods.key(job);
      expectations.delete(key);
      finalizerExpectations.delete(key);
      queue.add(key);
      // kube's cleanupPodFinalizers: the Pods it still held go to the orphan queue
      for (MapValue pod : pods.list(Meta.metaString(job, "namespace"))) {
        if (hasFinalizer(pod) && Pods.controllerRef(pod)
            .map(r -> Nested.str(r, "uid").equals(Meta.metaString(job, "uid"))).orElse(false)) {
          orphanQueue.add(Pods.key(pod));
        }
      }
    }

    private void enqueue(MapValue job) {
      if (managedByOther(job)) {
        return;
      }
      queue.add(Pods.key(job));
    }
  }

  private final class PodHandler implements ResourceEventHandler {
    @Override
    public void onAdd(MapValue pod) {
      if (Nested.has(pod, "metadata", "deletionTimestamp")) {
        deleted(pod, false);
        return;
      }
      Optional<MapValue> ref = Pods.controllerRef(pod);
      if (ref.isPresent()) {
        Optional<MapValue> job = resolve(Meta.metaString(pod, "namespace"), ref.get());
        if (job.isEmpty()) {
          if (hasFinalizer(pod)) {
            orphanQueue.add(Pods.key(pod));
          }
          return;
        }
        expectations.creationObserved(Pods.key(job.get()));
        queue.add(Pods.key(job.get()));
        return;
      }
      if (hasFinalizer(pod)) {
        orphanQueue.add(Pods.key(pod));
      }
      for (MapValue job : matchingJobs(pod)) {
        queue.add(Pods.key(job));
      }
    }

    @Override
    public void onUpdate(MapValue old, MapValue pod) {
      if (Meta.metaString(old, "resourceVersion").equals(Meta.metaString(pod, "resourceVersion"))) {
        return;
      }
      if (Nested.has(pod, "metadata", "deletionTimestamp")) {
        deleted(pod, false);
        return;
      }
      boolean finalizerRemoved = !hasFinalizer(pod);
      Optional<MapValue> oldRef = Pods.controllerRef(old);
      Optional<MapValue> ref = Pods.controllerRef(pod);
      boolean refChanged = !oldRef.equals(ref);
      if (refChanged && oldRef.isPresent()) {
        resolve(Meta.metaString(old, "namespace"), oldRef.get()).ifPresent(job -> {
          if (finalizerRemoved) {
            finalizerExpectations.removalObserved(Pods.key(job), Meta.metaString(pod, "uid"));
          }
          queue.add(Pods.key(job));
        });
      }
      if (ref.isPresent()) {
        Optional<MapValue> job = resolve(Meta.metaString(pod, "namespace"), ref.get());
        if (job.isEmpty()) {
          if (hasFinalizer(pod)) {
            orphanQueue.add(Pods.key(pod));
          }
          return;
        }
        if (finalizerRemoved) {
          finalizerExpectations.removalObserved(Pods.key(job.get()), Meta.metaString(pod, "uid"));
        }
        queue.add(Pods.key(job.get()));
        return;
      }
      if (hasFinalizer(pod)) {
        orphanQueue.add(Pods.key(pod));
      }
      if (refChanged || !Meta.labels(old).equals(Meta.labels(pod))) {
        for (MapValue job : matchingJobs(pod)) {
          queue.add(Pods.key(job));
        }
      }
    }

    @Override
    public void onDelete(MapValue pod) {
      deleted(pod, true);
    }
  }

  /** kube's {@code deletePod}: {@code gone} when the Pod left the store, not just marked. */
  private void deleted(MapValue pod, boolean gone) {
    Optional<MapValue> ref = Pods.controllerRef(pod);
    if (ref.isEmpty()) {
      return;
    }
    Optional<MapValue> job = resolve(Meta.metaString(pod, "namespace"), ref.get());
    if (job.isEmpty()) {
      if (hasFinalizer(pod) && !gone) {
        orphanQueue.add(Pods.key(pod));
      }
      return;
    }
    String key = Pods.key(job.get());
    expectations.deletionObserved(key, Pods.key(pod));
    if (gone || !hasFinalizer(pod)) {
      finalizerExpectations.removalObserved(key, Meta.metaString(pod, "uid"));
    }
    queue.add(key);
  }

  private Optional<MapValue> resolve(String namespace, MapValue ref) {
    return jobs.resolveControllerRef(namespace, ref, "Job");
  }

  private List<MapValue> matchingJobs(MapValue pod) {
    return jobs.selecting(pod, JobUtils::selector);
  }

  // ---- orphan Pods ----

  /** kube's {@code syncOrphanPod}: the finalizer leaves a Pod no unfinished Job controls. */
  private Outcome syncOrphanPod(String key) {
    int slash = key.indexOf('/');
    Optional<MapValue> cached = pods.get(key.substring(0, slash), key.substring(slash + 1));
    if (cached.isEmpty()) {
      return Outcome.FORGET;
    }
    MapValue pod = cached.get();
    Optional<MapValue> ref = Pods.controllerRef(pod);
    if (ref.isPresent()) {
      if (!Nested.str(ref.get(), "kind").equals("Job")
          || !Nested.str(ref.get(), "apiVersion").equals("batch/v1")) {
        return Outcome.FORGET;
      }
      Optional<MapValue> job = resolve(Meta.metaString(pod, "namespace"), ref.get());
      if (job.isPresent() && (managedByOther(job.get()) || !finished(job.get()))) {
        return Outcome.FORGET;
      }
    }
    if (hasFinalizer(pod)) {
      try {
        api.removeFinalizer(pod);
      } catch (NotFoundException e) {
        // gone already
      }
    }
    return Outcome.FORGET;
  }

  // ---- sync ----
  /**
   * A sync; a conflict (the cached Job is older than the server's) is retried quietly, as
   * the informer brings the newer Job.
   */
  private Outcome sync(String key) {
    try {
      return syncJob(key);
    } catch (ConflictException e) {
      LOG.debug("Job {} changed meanwhile, retrying: {}", key, e.getMessage());
      return Outcome.REQUEUE;
    }
  }

  /** kube's {@code syncJob}. */
  private Outcome syncJob(String key) {
    int slash = key.indexOf('/');
    Optional<MapValue> cached = jobs.get(key.substring(0, slash), key.substring(slash + 1));
    if (cached.isEmpty()) {
      expectations.delete(key);
      finalizerExpectations.delete(key);
      backoffs.remove(key);
      return Outcome.FORGET;
    }
    MapValue job = cached.get();
    if (managedByOther(job)) {
      return Outcome.FORGET;
    }
    if (finished(job)) {
      backoffs.remove(key);
      return Outcome.FORGET;
    }
    String mode = completionMode(job);
    if (!mode.equals("NonIndexed") && !mode.equals("Indexed")) {
      return Outcome.FORGET;
    }
    Optional<LabelSelector> selector = selector(job);
    if (selector.isEmpty()) {
      LOG.warn("Job {} has a selector that cannot be parsed", key);
      return Outcome.FORGET;
    }
    Instant now = context.clock().instant();
    boolean satisfied = expectations.satisfied(key);
    JobSyncContext ctx = new JobSyncContext();
    ctx.job = job;
    ctx.status = JobStatus.of(job);
    ctx.pods = claimPods(job, selector.get());
    ctx.activePods = ctx.pods.stream().filter(Pods::active).toList();
    ctx.ready = ctx.activePods.stream().filter(Pods::ready).count();
    ctx.uncountedSucceeded = new HashSet<>(ctx.status.uncountedSucceeded);
    ctx.uncountedFailed = new HashSet<>(ctx.status.uncountedFailed);
    ctx.expectedRmFinalizers = finalizerExpectations.expected(key);
    ctx.terminating = ctx.pods.stream().filter(JobUtils::terminating).count();
    long active = ctx.activePods.size();
    List<MapValue> newSucceeded = validPods(ctx, ctx.uncountedSucceeded,
        p -> Nested.str(p, "status", "phase").equals("Succeeded"));
    List<MapValue> newFailed = validPods(ctx, ctx.uncountedFailed, p -> podFailed(p, job));
    ctx.succeeded = ctx.status.succeeded + newSucceeded.size() + ctx.uncountedSucceeded.size();
    ctx.failed = ctx.status.failed
        + newFailed.stream().filter(p -> PodFailurePolicy.match(job, p).countFailed()).count()
        + ctx.uncountedFailed.size();
    if (ctx.status.startTime.isEmpty() && !suspended(job)) {
      ctx.status.startTime = Optional.of(Meta.formatTime(now));
    }
    ctx.newBackoff = backoffs.getOrDefault(key, Backoff.NONE).next(newSucceeded, newFailed);

    StatusException manageError = null;
    boolean exceedsBackoffLimit = ctx.failed > Nested.integer(job, "spec", "backoffLimit");
    ctx.finishedCondition = ctx.status.condition("SuccessCriteriaMet")
        .filter(c -> Nested.str(c, "status").equals("True")).orElse(null);
    if (ctx.finishedCondition == null) {
      Optional<MapValue> failureTarget = ctx.status.condition("FailureTarget")
          .filter(c -> Nested.str(c, "status").equals("True"));
      Optional<String> failJob = failJobMessage(job, ctx.pods);
      if (failureTarget.isPresent()) {
        ctx.finishedCondition = JobStatus.condition("Failed", "True",
            Nested.str(failureTarget.get(), "reason"), Nested.str(failureTarget.get(), "message"),
            now);
      } else if (failJob.isPresent()) {
        ctx.finishedCondition = JobStatus.condition("FailureTarget", "True", "PodFailurePolicy",
            failJob.get(), now);
      }
    }
    if (ctx.finishedCondition == null) {
      if (exceedsBackoffLimit || pastBackoffLimitOnFailure(job, ctx.pods)) {
        ctx.finishedCondition = JobStatus.condition("FailureTarget", "True",
            "BackoffLimitExceeded", "Job has reached the specified backoff limit", now);
      } else if (pastActiveDeadline(job, ctx.status, now)) {
        ctx.finishedCondition = JobStatus.condition("FailureTarget", "True", "DeadlineExceeded",
            "Job was active longer than specified deadline", now);
      } else if (Nested.has(job, "spec", "activeDeadlineSeconds") && !suspended(job)) {
        Instant start = Instant.parse(ctx.status.startTime.orElseThrow());
        queue.addAt(key, start.plusSeconds(Nested.integer(job, "spec", "activeDeadlineSeconds")));
      }
    }
    long completions = Nested.integer(job, "spec", "completions");
    if (indexed(job)) {
      ctx.prevSucceededIndexes = Intervals.parse(ctx.status.completedIndexes, completions);
      List<Integer> fresh = new ArrayList<>();
      for (MapValue p : ctx.pods) {
        int ix = completionIndex(p);
        if (Nested.str(p, "status", "phase").equals("Succeeded") && ix >= 0 && ix < completions
            && hasFinalizer(p)) {
          fresh.add(ix);
        }
      }
      ctx.succeededIndexes = ctx.prevSucceededIndexes.with(fresh);
      ctx.succeeded = ctx.succeededIndexes.total();
      if (hasBackoffLimitPerIndex(job)) {
        ctx.failedIndexes = IndexedJobs.failedIndexes(job, ctx.pods);
        if (ctx.finishedCondition == null) {
          int failedIndexes = ctx.failedIndexes.total();
          if (Nested.has(job, "spec", "maxFailedIndexes")
              && failedIndexes > Nested.integer(job, "spec", "maxFailedIndexes")) {
            ctx.finishedCondition = JobStatus.condition("FailureTarget", "True",
                "MaxFailedIndexesExceeded",
                "Job has exceeded the specified maximal number of failed indexes", now);
          } else if (failedIndexes > 0
              && failedIndexes + ctx.succeededIndexes.total() >= completions) {
            ctx.finishedCondition = JobStatus.condition("FailureTarget", "True",
                "FailedIndexes", "Job has failed indexes", now);
          }
        }
        ctx.podsWithDelayedDeletion = IndexedJobs.podsWithDelayedDeletion(ctx);
      }
      if (ctx.finishedCondition == null) {
        Optional<String> msg = matchSuccessPolicy(job, completions, ctx.succeededIndexes);
        if (msg.isPresent()) {
          ctx.finishedCondition = JobStatus.condition("SuccessCriteriaMet", "True",
              "SuccessPolicy", msg.get(), now);
        }
      }
    }
    boolean suspendChanged = false;
    if (ctx.finishedCondition != null) {
      long[] deleted = podManager.deleteActivePods(ctx, ctx.activePods);
      if (deleted[1] != active || !satisfied) {
        // Pods left or not yet seen: the Job cannot be declared finished yet
        ctx.finishedCondition = null;
      }
      active -= deleted[1];
      ctx.terminating += deleted[1];
      ctx.ready -= deleted[0];
      manageError = ctx.error;
    } else {
      boolean managed = false;
      if (satisfied && !Nested.has(job, "metadata", "deletionTimestamp")) {
        active = podManager.manageJob(key, ctx);
        manageError = ctx.error;
        managed = true;
      }
      boolean complete;
      if (!Nested.has(job, "spec", "completions")) {
        complete = ctx.succeeded > 0 && active == 0;
      } else {
        complete = ctx.succeeded >= completions && active == 0;
      }
      if (complete) {
        ctx.finishedCondition = JobStatus.condition("SuccessCriteriaMet", "True",
            "CompletionsReached", "Reached expected number of succeeded pods", now);
      } else if (managed) {
        if (suspended(job)) {
          suspendChanged = ctx.status.ensureCondition("Suspended", "True", "JobSuspended",
              "Job suspended", now);
          if (suspendChanged) {
            events.suspended(job);
          }
        } else {
          suspendChanged = ctx.status.ensureCondition("Suspended", "False", "JobResumed",
              "Job resumed", now);
          if (suspendChanged) {
            events.resumed(job);
            // a resumed Job's deadline counts from now, as one created suspended
            ctx.status.startTime = Optional.of(Meta.formatTime(now));
          }
        }
      }
    }
    boolean needsUpdate = suspendChanged || active != ctx.status.active
        || ctx.ready != ctx.status.ready || ctx.terminating != ctx.status.terminating
        || !Nested.has(job, "status", "ready") || !Nested.has(job, "status", "terminating");
    ctx.status.active = active;
    ctx.status.ready = ctx.ready;
    ctx.status.terminating = ctx.terminating;
    statusTracker.trackStatusAndRemoveFinalizers(key, ctx, needsUpdate, now);
    if (manageError != null) {
      throw manageError;
    }
    return Outcome.FORGET;
  }

  /** kube's {@code getValidPodsWithFilter}. */
  private static List<MapValue> validPods(JobSyncContext ctx, Set<String> uncounted,
      java.util.function.Predicate<MapValue> filter) {
    List<MapValue> out = new ArrayList<>();
    long completions = Nested.integer(ctx.job, "spec", "completions");
    for (MapValue p : ctx.pods) {
      String uid = Meta.metaString(p, "uid");
      if (!hasFinalizer(p) || uncounted.contains(uid) || ctx.expectedRmFinalizers.contains(uid)) {
        continue;
      }
      if (indexed(ctx.job)) {
        int ix = completionIndex(p);
        if (ix < 0 || ix >= completions) {
          continue;
        }
      }
      if (filter.test(p)) {
        out.add(p);
      }
    }
    return out;
  }

  /** kube's {@code getPodsForJob}: claims with adoption adding the tracking finalizer. */
  private List<MapValue> claimPods(MapValue job, LabelSelector selector) {
    List<MapValue> all = pods.list(Meta.metaString(job, "namespace"));
    List<MapValue> claimed = api.refs().claim(job, selector, all);
    String uid = Meta.metaString(job, "uid");
    List<MapValue> out = new ArrayList<>(claimed.size());
    for (MapValue p : claimed) {
      boolean adopted = Nested.list(p, "metadata", "ownerReferences").stream()
          .noneMatch(r -> Nested.str(r, "uid").equals(uid));
      if (adopted && !hasFinalizer(p)) {
        List<String> f = new ArrayList<>(Meta.finalizers(p));
        f.add(TRACKING_FINALIZER);
        p = Meta.withFinalizers(p, f);
      }
      out.add(p);
    }
    return out;
  }
}
