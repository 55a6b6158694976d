/*
 * Copyright The apiserver4j authors.
 * SPDX-License-Identifier: Apache-2.0
 */
package io.apiserver4j.controllers.job;

import static io.apiserver4j.controllers.job.JobUtils.completionIndex;
import static io.apiserver4j.controllers.job.JobUtils.completionMode;
import static io.apiserver4j.controllers.job.JobUtils.failJobMessage;
import static io.apiserver4j.controllers.job.JobUtils.finished;
import static io.apiserver4j.controllers.job.JobUtils.generateNameWithIndex;
import static io.apiserver4j.controllers.job.JobUtils.hasFinalizer;
import static io.apiserver4j.controllers.job.JobUtils.indexed;
import static io.apiserver4j.controllers.job.JobUtils.isSuccessCriteriaMet;
import static io.apiserver4j.controllers.job.JobUtils.managedByOther;
import static io.apiserver4j.controllers.job.JobUtils.matchSuccessPolicy;
import static io.apiserver4j.controllers.job.JobUtils.onlyReplaceFailed;
import static io.apiserver4j.controllers.job.JobUtils.pastActiveDeadline;
import static io.apiserver4j.controllers.job.JobUtils.pastBackoffLimitOnFailure;
import static io.apiserver4j.controllers.job.JobUtils.podFailed;
import static io.apiserver4j.controllers.job.JobUtils.podsForRemoval;
import static io.apiserver4j.controllers.job.JobUtils.selector;
import static io.apiserver4j.controllers.job.JobUtils.suspended;
import static io.apiserver4j.controllers.job.JobUtils.terminating;
import static io.apiserver4j.controllers.job.JobUtils.withIndexEnv;

import io.apiserver4j.admission.UserInfo;
import io.apiserver4j.apimachinery.patch.PatchType;
import io.apiserver4j.apiserver.ApiRequest;
import io.apiserver4j.apiserver.ResourceClient;
import io.apiserver4j.apiserver.UpdateOptions;
import io.apiserver4j.controllers.internal.Controller;
import io.apiserver4j.controllers.internal.ControllerContext;
import io.apiserver4j.controllers.internal.ControllerContext.Outcome;
import io.apiserver4j.controllers.internal.ControllerContext.Workers;
import io.apiserver4j.controllers.internal.ControllerRefManager;
import io.apiserver4j.controllers.internal.EventRecorder;
import io.apiserver4j.controllers.internal.Expectations;
import io.apiserver4j.controllers.internal.Informer;
import io.apiserver4j.controllers.internal.Pods;
import io.apiserver4j.controllers.internal.ResourceEventHandler;
import io.apiserver4j.controllers.internal.WorkQueue;
import io.apiserver4j.core.GroupResource;
import io.apiserver4j.core.GroupVersionResource;
import io.apiserver4j.core.ListValue;
import io.apiserver4j.core.MapValue;
import io.apiserver4j.core.Meta;
import io.apiserver4j.core.Nested;
import io.apiserver4j.core.Value;
import io.apiserver4j.core.errors.ConflictException;
import io.apiserver4j.core.errors.NotFoundException;
import io.apiserver4j.core.errors.StatusException;
import io.apiserver4j.core.labels.LabelSelector;
import java.time.Duration;
import java.time.Instant;
import java.util.ArrayList;
import java.util.Comparator;
import java.util.HashMap;
import java.util.HashSet;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import java.util.Set;
import java.util.TreeSet;
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
 * {@code Failed}/{@code Complete} ones, once no Pod is terminating.
 *
 * <p>Deviation: kube batches Pod events for a second ({@code syncJobBatchPeriod}); here they
 * queue the Job at once, so a test clock that never moves still sees the Job synced.
 * {@code backoffLimitPerIndex}/{@code maxFailedIndexes} are not implemented.
 */
public final class JobController implements Controller {
  private static final Logger LOG = LoggerFactory.getLogger(JobController.class);
  static final String TRACKING_FINALIZER = "batch.kubernetes.io/job-tracking";
  static final String COMPLETION_INDEX = "batch.kubernetes.io/job-completion-index";
  /** kube's {@code MaxUncountedPods}. */
  static final int MAX_UNCOUNTED_PODS = 500;
  /** kube's {@code MaxPodCreateDeletePerSync}. */
  static final int MAX_POD_CREATE_DELETE_PER_SYNC = 500;
  /** kube's {@code --concurrent-job-syncs} default. */
  private static final int WORKERS = 5;
  static final String JOB_CONTROLLER_NAME = "kubernetes.io/job-controller";
  private static final GroupVersionResource PODS = new GroupVersionResource("", "v1", "pods");
  private static final GroupVersionResource JOBS =
      new GroupVersionResource("batch", "v1", "jobs");

  private final ControllerContext context;
  private final UserInfo user;
  private final Informer jobs;
  private final Informer pods;
  private final WorkQueue<String> queue;
  private final WorkQueue<String> orphanQueue;
  private final Expectations expectations;
  private final Map<String, Set<String>> finalizerExpectations = new HashMap<>();
  private final Map<String, Backoff> backoffs = new ConcurrentHashMap<>();
  private final ControllerRefManager refs;
  private final JobEvents events;
  private Workers workers;
  private Workers orphanWorkers;

  private JobController(ControllerContext context) {
    this.context = context;
    this.user = ControllerContext.serviceAccount("job-controller");
    this.events = new JobEvents(new EventRecorder(context, user, "job-controller"));
    this.expectations = context.newExpectations();
    context.forgetOnReset(finalizerExpectations, backoffs);
    this.refs = new ControllerRefManager("batch/v1", "Job", this::jobClient, this::podClient,
        List.of(TRACKING_FINALIZER));
    this.queue = context.newQueue("job");
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
      synchronized (finalizerExpectations) {
        finalizerExpectations.remove(key);
      }
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
            finalizerRemovalObserved(Pods.key(job), Meta.metaString(pod, "uid"));
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
          finalizerRemovalObserved(Pods.key(job.get()), Meta.metaString(pod, "uid"));
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
      finalizerRemovalObserved(key, Meta.metaString(pod, "uid"));
    }
    queue.add(key);
  }

  private void finalizerRemovalObserved(String key, String uid) {
    synchronized (finalizerExpectations) {
      Set<String> uids = finalizerExpectations.get(key);
      if (uids != null) {
        uids.remove(uid);
      }
    }
  }

  private Set<String> expectedRemovals(String key) {
    synchronized (finalizerExpectations) {
      return Set.copyOf(finalizerExpectations.getOrDefault(key, Set.of()));
    }
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
        removeFinalizer(pod);
      } catch (NotFoundException e) {
        // gone already
      }
    }
    return Outcome.FORGET;
  }

  private void removeFinalizer(MapValue pod) {
    podClient(Meta.metaString(pod, "namespace")).patch(Meta.metaString(pod, "name"),
        PatchType.STRATEGIC_MERGE_PATCH, "{\"metadata\":{\"$deleteFromPrimitiveList/finalizers\":"
            + "[\"" + TRACKING_FINALIZER + "\"]}}");
  }

  // ---- sync ----

  /** What one sync knows: kube's {@code syncJobCtx}. */
  private static final class SyncContext {
    MapValue job;
    JobStatus status;
    List<MapValue> pods;
    List<MapValue> activePods;
    long ready;
    long terminating;
    long succeeded;
    long failed;
    Set<String> uncountedSucceeded;
    Set<String> uncountedFailed;
    Set<String> expectedRmFinalizers;
    Backoff newBackoff;
    Intervals prevSucceededIndexes = Intervals.EMPTY;
    Intervals succeededIndexes = Intervals.EMPTY;
    /** kube's {@code finishedCondition}, null while the Job is not finishing. */
    MapValue finishedCondition;
    /** The first failed Pod creation or deletion of this sync. */
    StatusException error;
  }

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
      synchronized (finalizerExpectations) {
        finalizerExpectations.remove(key);
      }
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
    SyncContext ctx = new SyncContext();
    ctx.job = job;
    ctx.status = JobStatus.of(job);
    ctx.pods = claimPods(job, selector.get());
    ctx.activePods = ctx.pods.stream().filter(Pods::active).toList();
    ctx.ready = ctx.activePods.stream().filter(Pods::ready).count();
    ctx.uncountedSucceeded = new HashSet<>(ctx.status.uncountedSucceeded);
    ctx.uncountedFailed = new HashSet<>(ctx.status.uncountedFailed);
    ctx.expectedRmFinalizers = expectedRemovals(key);
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
      long[] deleted = deleteActivePods(ctx, ctx.activePods);
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
        active = manageJob(key, ctx);
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
    trackStatusAndRemoveFinalizers(key, ctx, needsUpdate, now);
    if (manageError != null) {
      throw manageError;
    }
    return Outcome.FORGET;
  }

  /** kube's {@code getValidPodsWithFilter}. */
  private static List<MapValue> validPods(SyncContext ctx, Set<String> uncounted,
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
    List<MapValue> claimed = refs.claim(job, selector, all);
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

  /** kube's {@code deleteActivePods}: deletions keeping finalizers; {ready, all} deleted. */
  private long[] deleteActivePods(SyncContext ctx, List<MapValue> active) {
    MapValue job = ctx.job;
    long[] out = new long[] {0, active.size()};
    for (MapValue pod : active) {
      try {
        deletePod(job, pod);
      } catch (NotFoundException e) {
        // gone already: counts as deleted
      } catch (StatusException e) {
        out[1]--;
        if (ctx.error == null) {
          ctx.error = e;
        }
        LOG.warn("deleting Pod {} of Job {} failed: {}", Pods.key(pod), Pods.key(job),
            e.getMessage());
      }
      if (Pods.ready(pod)) {
        out[0]++;
      }
    }
    return out;
  }

  /** kube's {@code deleteJobPods}: the finalizer removed first, then the delete. */
  private long[] deleteJobPods(SyncContext ctx, String key, List<MapValue> victims) {
    MapValue job = ctx.job;
    long[] out = new long[] {0, victims.size()};
    for (MapValue pod : victims) {
      try {
        if (hasFinalizer(pod)) {
          removeFinalizer(pod);
        }
        deletePod(job, pod);
      } catch (StatusException e) {
        expectations.deletionObserved(key, Pods.key(pod));
        if (!(e instanceof NotFoundException)) {
          out[1]--;
          if (ctx.error == null) {
            ctx.error = e;
          }
        }
      }
      if (Pods.ready(pod)) {
        out[0]++;
      }
    }
    return out;
  }

  /** kube's {@code manageJob}: the active count after creating or deleting Pods. */
  private long manageJob(String key, SyncContext ctx) {
    MapValue job = ctx.job;
    long active = ctx.activePods.size();
    long parallelism = Nested.integer(job, "spec", "parallelism");
    if (suspended(job)) {
      List<MapValue> victims = podsForRemoval(job, ctx.activePods, (int) active);
      expectations.expectDeletions(key, victims.stream().map(Pods::key).toList());
      long[] removed = deleteJobPods(ctx, key, victims);
      ctx.terminating += removed[1];
      ctx.ready -= removed[0];
      return active - removed[1];
    }
    long wantActive;
    if (!Nested.has(job, "spec", "completions")) {
      wantActive = ctx.succeeded > 0 ? active : parallelism;
    } else {
      wantActive = Math.max(0, Math.min(parallelism,
          Nested.integer(job, "spec", "completions") - ctx.succeeded));
    }
    long rmAtLeast = Math.max(0, active - wantActive);
    List<MapValue> victims = podsForRemoval(job, ctx.activePods, (int) rmAtLeast);
    if (victims.size() > MAX_POD_CREATE_DELETE_PER_SYNC) {
      victims = victims.subList(0, MAX_POD_CREATE_DELETE_PER_SYNC);
    }
    if (!victims.isEmpty()) {
      expectations.expectDeletions(key, victims.stream().map(Pods::key).toList());
      long[] removed = deleteJobPods(ctx, key, victims);
      ctx.terminating += removed[1];
      ctx.ready -= removed[0];
      return active - removed[1];
    }
    long terminating = onlyReplaceFailed(job) ? ctx.terminating : 0;
    long diff = wantActive - terminating - active;
    if (diff <= 0) {
      return active;
    }
    Instant now = context.clock().instant();
    Duration remaining = ctx.newBackoff.remaining(now);
    if (remaining.compareTo(Duration.ZERO) > 0) {
      queue.addAt(key, now.plus(remaining));
      return 0;
    }
    diff = Math.min(diff, MAX_POD_CREATE_DELETE_PER_SYNC);
    List<Integer> indexes = new ArrayList<>();
    if (indexed(job)) {
      indexes = firstPendingIndexes(ctx, (int) diff,
          (int) Nested.integer(job, "spec", "completions"));
      diff = indexes.size();
    }
    int create = (int) diff;
    expectations.expectCreations(key, create);
    List<Integer> pending = new ArrayList<>(indexes);
    int created = 0;
    int attempted = 0;
    // kube's slow start: batches of 1, 2, 4, ... until a batch has a failure
    for (int batch = Math.min(create, 1); attempted < create;
        batch = Math.min(2 * batch, create - attempted)) {
      int failures = 0;
      for (int i = 0; i < batch; i++) {
        int index = pending.isEmpty() ? -1 : pending.remove(0);
        attempted++;
        try {
          MapValue pod = createPod(job, index);
          events.created(job, pod);
          created++;
        } catch (StatusException e) {
          if (e.status().causes().stream()
              .anyMatch(c -> c.type().equals("NamespaceTerminating"))) {
            created++;
            continue;
          }
          events.createFailed(job, e);
          expectations.creationObserved(key);
          failures++;
          if (ctx.error == null) {
            ctx.error = e;
          }
        }
      }
      if (failures > 0) {
        for (int i = attempted; i < create; i++) {
          expectations.creationObserved(key);
        }
        break;
      }
    }
    return active + created;
  }

  /** kube's {@code firstPendingIndexes}. */
  private static List<Integer> firstPendingIndexes(SyncContext ctx, int count, int completions) {
    List<Integer> out = new ArrayList<>();
    if (count == 0) {
      return out;
    }
    Set<Integer> taken = new TreeSet<>();
    for (MapValue p : ctx.activePods) {
      int ix = completionIndex(p);
      if (ix >= 0) {
        taken.add(ix);
      }
    }
    if (onlyReplaceFailed(ctx.job)) {
      for (MapValue p : ctx.pods) {
        int ix = completionIndex(p);
        if (terminating(p) && ix >= 0) {
          taken.add(ix);
        }
      }
    }
    Intervals nonPending = ctx.succeededIndexes.with(taken);
    for (int candidate = 0; candidate < completions && out.size() < count; candidate++) {
      if (!nonPending.has(candidate)) {
        out.add(candidate);
      }
    }
    return out;
  }

  /** kube's Pod from the template: controllerRef, tracking finalizer, index for Indexed Jobs. */
  private MapValue createPod(MapValue job, int index) {
    String name = Meta.metaString(job, "name");
    MapValue template = Nested.map(job, "spec", "template");
    MapValue tmeta = Nested.map(template, "metadata");
    MapValue spec = Nested.map(template, "spec");
    Map<String, Value> labels = new java.util.LinkedHashMap<>();
    Nested.map(tmeta, "labels").forEach(labels::put);
    Map<String, Value> annotations = new java.util.LinkedHashMap<>();
    Nested.map(tmeta, "annotations").forEach(annotations::put);
    List<String> finalizers = new ArrayList<>(Meta.stringList(tmeta.getOrNull("finalizers")));
    if (!finalizers.contains(TRACKING_FINALIZER)) {
      finalizers.add(TRACKING_FINALIZER);
    }
    String generateName = name + "-";
    if (index >= 0) {
      spec = withIndexEnv(spec);
      annotations.put(COMPLETION_INDEX, Value.of(Integer.toString(index)));
      labels.put(COMPLETION_INDEX, Value.of(Integer.toString(index)));
      spec = spec.with("hostname", Value.of(name + "-" + index));
      generateName = generateNameWithIndex(name, index);
    }
    MapValue.Builder meta = MapValue.builder();
    meta.put("generateName", Value.of(generateName));
    meta.put("namespace", Value.of(Meta.metaString(job, "namespace")));
    if (!labels.isEmpty()) {
      meta.put("labels", MapValue.of(labels));
    }
    if (!annotations.isEmpty()) {
      meta.put("annotations", MapValue.of(annotations));
    }
    meta.put("finalizers", ListValue.ofStrings(finalizers));
    meta.put("ownerReferences", ListValue.of(List.of(refs.controllerRef(job))));
    MapValue pod = MapValue.ofEntries("apiVersion", Value.of("v1"), "kind", Value.of("Pod"),
        "metadata", meta.build(), "spec", spec);
    return podClient(Meta.metaString(job, "namespace")).create(pod);
  }

  /** kube's {@code RealPodControl.DeletePod} with its Events. */
  private void deletePod(MapValue job, MapValue pod) {
    events.deletePod(job, pod, () -> podClient(Meta.metaString(job, "namespace"))
        .delete(Meta.metaString(pod, "name")));
  }

  // ---- status tracking ----

  /** kube's {@code canRemoveFinalizer} without per-index backoff. */
  private static boolean canRemoveFinalizer(SyncContext ctx, MapValue pod, boolean failed) {
    return Nested.has(ctx.job, "metadata", "deletionTimestamp") || ctx.finishedCondition != null
        || Nested.str(pod, "status", "phase").equals("Succeeded") || failed;
  }

  /** kube's {@code trackJobStatusAndRemoveFinalizers}. */
  private void trackStatusAndRemoveFinalizers(String key, SyncContext ctx, boolean needsFlush,
      Instant now) {
    JobStatus st = ctx.status;
    List<MapValue> candidates = new ArrayList<>(ctx.pods);
    if (indexed(ctx.job)) {
      candidates.sort(Comparator.comparingInt(JobUtils::completionIndex));
    }
    Set<String> withFinalizer = new HashSet<>();
    for (MapValue p : candidates) {
      String uid = Meta.metaString(p, "uid");
      if (hasFinalizer(p) && !ctx.expectedRmFinalizers.contains(uid)) {
        withFinalizer.add(uid);
      }
    }
    needsFlush |= cleanUncounted(st, withFinalizer);
    long completions = Nested.integer(ctx.job, "spec", "completions");
    List<MapValue> toRemove = new ArrayList<>();
    List<Integer> newSucceededIndexes = new ArrayList<>();
    boolean reachedMax = false;
    for (MapValue pod : candidates) {
      String uid = Meta.metaString(pod, "uid");
      if (!hasFinalizer(pod) || ctx.expectedRmFinalizers.contains(uid)) {
        continue;
      }
      boolean failed = podFailed(pod, ctx.job);
      if (!canRemoveFinalizer(ctx, pod, failed)) {
        continue;
      }
      toRemove.add(pod);
      if (Nested.str(pod, "status", "phase").equals("Succeeded")
          && !ctx.uncountedFailed.contains(uid)) {
        if (indexed(ctx.job)) {
          int ix = completionIndex(pod);
          if (ix >= 0 && ix < completions && !ctx.prevSucceededIndexes.has(ix)) {
            newSucceededIndexes.add(ix);
            needsFlush = true;
          }
        } else if (!ctx.uncountedSucceeded.contains(uid)) {
          needsFlush = true;
          st.uncountedSucceeded.add(uid);
        }
      } else if (failed || ctx.finishedCondition != null
          && !isSuccessCriteriaMet(ctx.finishedCondition)) {
        int ix = completionIndex(pod);
        if (!ctx.uncountedFailed.contains(uid)
            && (!indexed(ctx.job) || ix >= 0 && ix < completions)) {
          if (PodFailurePolicy.match(ctx.job, pod).countFailed()) {
            needsFlush = true;
            st.uncountedFailed.add(uid);
          }
        }
      }
      if (newSucceededIndexes.size() + st.uncountedSucceeded.size() + st.uncountedFailed.size()
          >= MAX_UNCOUNTED_PODS) {
        reachedMax = true;
        break;
      }
    }
    if (indexed(ctx.job)) {
      ctx.succeededIndexes = ctx.succeededIndexes.with(newSucceededIndexes);
      String text = ctx.succeededIndexes.toString();
      if (!text.equals(st.completedIndexes)) {
        needsFlush = true;
      }
      st.succeeded = ctx.succeededIndexes.total();
      st.completedIndexes = text;
    }
    MapValue finished = ctx.finishedCondition;
    if (finished != null && Nested.str(finished, "type").equals("FailureTarget")) {
      st.conditions.add(finished);
      needsFlush = true;
      finished = JobStatus.condition("Failed", "True", Nested.str(finished, "reason"),
          Nested.str(finished, "message"), now);
    }
    if (isSuccessCriteriaMet(finished)) {
      if (!st.isTrue("SuccessCriteriaMet")) {
        st.conditions.add(finished);
        needsFlush = true;
      }
      finished = JobStatus.condition("Complete", "True", Nested.str(finished, "reason"),
          Nested.str(finished, "message"), now);
    }
    ctx.finishedCondition = finished;
    StatusException removeError = null;
    if (needsFlush) {
      ctx.job = updateStatus(ctx.job, st);
      backoffs.put(key, ctx.newBackoff);
      needsFlush = false;
    }
    if (!toRemove.isEmpty()) {
      synchronized (finalizerExpectations) {
        finalizerExpectations.computeIfAbsent(key, k -> new HashSet<>())
            .addAll(toRemove.stream().map(p -> Meta.metaString(p, "uid")).toList());
      }
      for (MapValue pod : toRemove) {
        String uid = Meta.metaString(pod, "uid");
        try {
          removeFinalizer(pod);
          withFinalizer.remove(uid);
        } catch (NotFoundException e) {
          finalizerRemovalObserved(key, uid);
          withFinalizer.remove(uid);
        } catch (StatusException e) {
          finalizerRemovalObserved(key, uid);
          if (removeError == null) {
            removeError = e;
          }
        }
      }
    }
    if (cleanUncounted(st, withFinalizer)) {
      needsFlush = true;
    }
    if (removeError != null) {
      if (needsFlush) {
        ctx.job = updateStatus(ctx.job, st);
      }
      throw removeError;
    }
    boolean jobFinished = !reachedMax && enactFinished(ctx, now);
    if (jobFinished || needsFlush) {
      ctx.job = updateStatus(ctx.job, st);
    }
    if (jobFinished) {
      events.finished(ctx.job, ctx.finishedCondition);
    }
  }

  /** kube's {@code cleanUncountedPodsWithoutFinalizers}: counted once their finalizer is gone. */
  private static boolean cleanUncounted(JobStatus st, Set<String> withFinalizer) {
    boolean updated = false;
    int before = st.uncountedSucceeded.size();
    st.uncountedSucceeded.removeIf(uid -> !withFinalizer.contains(uid));
    if (st.uncountedSucceeded.size() != before) {
      st.succeeded += before - st.uncountedSucceeded.size();
      updated = true;
    }
    before = st.uncountedFailed.size();
    st.uncountedFailed.removeIf(uid -> !withFinalizer.contains(uid));
    if (st.uncountedFailed.size() != before) {
      st.failed += before - st.uncountedFailed.size();
      updated = true;
    }
    return updated;
  }

  /** kube's {@code enactJobFinished}: the terminal condition once nothing is left to count. */
  private static boolean enactFinished(SyncContext ctx, Instant now) {
    MapValue c = ctx.finishedCondition;
    if (c == null) {
      return false;
    }
    JobStatus st = ctx.status;
    if (!st.uncountedSucceeded.isEmpty() || !st.uncountedFailed.isEmpty()) {
      return false;
    }
    if (ctx.terminating > 0) {
      return false;
    }
    st.ensureCondition(Nested.str(c, "type"), Nested.str(c, "status"), Nested.str(c, "reason"),
        Nested.str(c, "message"), now);
    if (Nested.str(c, "type").equals("Complete")) {
      st.completionTime = Optional.of(Nested.str(c, "lastTransitionTime"));
    }
    return true;
  }

  /** kube's {@code UpdateStatus} of the whole Job; the Job as it now is. */
  private MapValue updateStatus(MapValue job, JobStatus status) {
    MapValue body = job.with("status", status.toValue());
    return context.api().handle(ApiRequest.builder(ApiRequest.Verb.UPDATE, JOBS)
        .namespace(Meta.metaString(job, "namespace")).name(Meta.metaString(job, "name"))
        .subresource("status").options(UpdateOptions.defaults())
        .fieldManager(ControllerContext.FIELD_MANAGER).user(user).body(body).build()).orThrow();
  }

  private ResourceClient podClient(String namespace) {
    return context.client(PODS, user).namespace(namespace);
  }

  private ResourceClient jobClient(String namespace) {
    return context.client(JOBS, user).namespace(namespace);
  }
}
