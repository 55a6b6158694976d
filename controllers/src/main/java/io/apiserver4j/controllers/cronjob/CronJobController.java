/*
 * Copyright The apiserver4j authors.
 * SPDX-License-Identifier: Apache-2.0
 */
package io.apiserver4j.controllers.cronjob;

import io.apiserver4j.admission.UserInfo;
import io.apiserver4j.apiserver.ApiRequest;
import io.apiserver4j.apiserver.DeleteOptions;
import io.apiserver4j.apiserver.PropagationPolicy;
import io.apiserver4j.apiserver.ResourceClient;
import io.apiserver4j.apiserver.UpdateOptions;
import io.apiserver4j.controllers.internal.Controller;
import io.apiserver4j.controllers.internal.ControllerContext;
import io.apiserver4j.controllers.internal.ControllerContext.Outcome;
import io.apiserver4j.controllers.internal.ControllerContext.Workers;
import io.apiserver4j.controllers.internal.EventRecorder;
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
import io.apiserver4j.core.errors.AlreadyExistsException;
import io.apiserver4j.core.errors.ConflictException;
import io.apiserver4j.core.errors.NotFoundException;
import io.apiserver4j.core.errors.StatusException;
import java.time.DateTimeException;
import java.time.Duration;
import java.time.Instant;
import java.time.ZoneId;
import java.time.format.DateTimeFormatter;
import java.util.ArrayList;
import java.util.Comparator;
import java.util.List;
import java.util.Locale;
import java.util.Objects;
import java.util.Optional;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * kube's CronJob controller v2 (pkg/controller/cronjob/cronjob_controllerv2.go), as user
 * {@code system:serviceaccount:kube-system:cronjob-controller}. Each sync drops finished and
 * vanished Jobs from {@code status.active}, records {@code lastSuccessfulTime}, and, unless the
 * CronJob is suspended or being deleted, creates the Job of the most recent unmet schedule time
 * (named {@code <cronjob>-<minutes since the epoch>}, annotated with
 * {@code batch.kubernetes.io/cronjob-scheduled-timestamp}) within the starting deadline and as
 * the concurrency policy allows; it then deletes finished Jobs beyond the history limits and
 * queues the CronJob again for its next schedule time plus kube's 100 ms on the server clock.
 */
public final class CronJobController implements Controller {
  private static final Logger LOG = LoggerFactory.getLogger(CronJobController.class);
  /** kube's {@code nextScheduleDelta}: the requeue lands this much after a schedule time. */
  static final Duration NEXT_SCHEDULE_DELTA = Duration.ofMillis(100);
  static final String SCHEDULED_TIMESTAMP = "batch.kubernetes.io/cronjob-scheduled-timestamp";
  /** kube's {@code --concurrent-cron-job-syncs} default. */
  private static final int WORKERS = 5;
  /** Go's {@code time.RFC1123Z} layout. */
  private static final DateTimeFormatter RFC1123Z =
      DateTimeFormatter.ofPattern("EEE, dd MMM uuuu HH:mm:ss xx", Locale.ROOT);
  private static final GroupVersionResource JOBS =
      new GroupVersionResource("batch", "v1", "jobs");
  private static final GroupVersionResource CRONJOBS =
      new GroupVersionResource("batch", "v1", "cronjobs");

  private final ControllerContext context;
  private final UserInfo user;
  private final Informer cronJobs;
  private final Informer jobs;
  private final WorkQueue<String> queue;
  private final EventRecorder events;
  private Workers workers;

  private CronJobController(ControllerContext context) {
    this.context = context;
    this.user = ControllerContext.serviceAccount("cronjob-controller");
    this.queue = context.newQueue("cronjob");
    this.events = new EventRecorder(context, user, "cronjob-controller");
    this.cronJobs = context.informers().informer(new GroupResource("batch", "cronjobs"));
    this.jobs = context.informers().informer(new GroupResource("batch", "jobs"));
    cronJobs.addHandler(new CronJobHandler());
    jobs.addHandler(new JobHandler());
  }

  /** The {@code cronjob} controller. */
  public static Controller create(ControllerContext context) {
    return new CronJobController(context);
  }

  @Override
  public void start() {
    workers = context.startWorkers("cronjob", queue, WORKERS, this::sync);
  }

  @Override
  public void close() {
    Workers.close(workers, queue);
  }

  private final class CronJobHandler implements ResourceEventHandler {
    @Override
    public void onAdd(MapValue cj) {
      queue.add(Pods.key(cj));
    }

    @Override
    public void onUpdate(MapValue old, MapValue cj) {
      boolean scheduleChanged = !Nested.str(old, "spec", "schedule")
          .equals(Nested.str(cj, "spec", "schedule"))
          || !Objects.equals(Nested.getOrNull(old, "spec", "timeZone"),
              Nested.getOrNull(cj, "spec", "timeZone"));
      if (scheduleChanged) {
        Optional<CronSchedule> sched = schedule(cj);
        if (sched.isEmpty()) {
          events.warning(involved(cj), "UnParseableCronJobSchedule",
              "unparseable schedule for cronjob: " + Nested.str(cj, "spec", "schedule"));
          return;
        }
        Instant now = context.clock().instant();
        queue.addAt(Pods.key(cj), now.plus(nextScheduleDuration(cj, now, sched.get())));
        return;
      }
      queue.add(Pods.key(cj));
    }

    @Override
    public void onDelete(MapValue cj) {
      queue.add(Pods.key(cj));
    }
  }

  private final class JobHandler implements ResourceEventHandler {
    @Override
    public void onAdd(MapValue job) {
      if (Nested.has(job, "metadata", "deletionTimestamp")) {
        onDelete(job);
        return;
      }
      owner(job).ifPresent(cj -> queue.add(Pods.key(cj)));
    }

    @Override
    public void onUpdate(MapValue old, MapValue job) {
      if (Meta.metaString(old, "resourceVersion").equals(Meta.metaString(job, "resourceVersion"))) {
        return;
      }
      Optional<MapValue> oldRef = Pods.controllerRef(old);
      if (!oldRef.equals(Pods.controllerRef(job))) {
        owner(old).ifPresent(cj -> queue.add(Pods.key(cj)));
      }
      owner(job).ifPresent(cj -> queue.add(Pods.key(cj)));
    }

    @Override
    public void onDelete(MapValue job) {
      owner(job).ifPresent(cj -> queue.add(Pods.key(cj)));
    }
  }

  /** kube's {@code resolveControllerRef}: the cached CronJob controlling the Job. */
  private Optional<MapValue> owner(MapValue job) {
    Optional<MapValue> ref = Pods.controllerRef(job);
    if (ref.isEmpty() || !Nested.str(ref.get(), "kind").equals("CronJob")) {
      return Optional.empty();
    }
    return cronJobs.get(Meta.metaString(job, "namespace"), Nested.str(ref.get(), "name"))
        .filter(cj -> Meta.metaString(cj, "uid").equals(Nested.str(ref.get(), "uid")));
  }

  /** kube's {@code formatSchedule} then {@code ParseStandard}; empty when it cannot parse. */
  static Optional<CronSchedule> schedule(MapValue cj) {
    String spec = Nested.str(cj, "spec", "schedule");
    try {
      return Optional.of(CronSchedule.parse(spec, zone(cj)));
    } catch (IllegalArgumentException e) {
      LOG.info("CronJob {} has an unparseable schedule {}: {}", Pods.key(cj), spec,
          e.getMessage());
      return Optional.empty();
    }
  }

  /** The zone kube's {@code formatSchedule} prefixes the schedule with, UTC when none. */
  private static ZoneId zone(MapValue cj) {
    if (!Nested.str(cj, "spec", "schedule").contains("TZ")
        && Nested.has(cj, "spec", "timeZone")) {
      try {
        return ZoneId.of(Nested.str(cj, "spec", "timeZone"));
      } catch (DateTimeException e) {
        // kube then parses the schedule alone
      }
    }
    return CronSchedule.UTC;
  }

  /** How many schedule times were missed: kube's {@code missedSchedulesType}. */
  enum Missed { NONE, FEW, MANY }

  /**
   * What kube's {@code mostRecentScheduleTime} returns: the earliest time considered, the most
   * recent schedule time not after now (empty if none), and how many were missed.
   */
  record MostRecent(Instant earliest, Optional<Instant> time, Missed missed) {}

  /**
   * kube's {@code mostRecentScheduleTime}.
   *
   * @throws IllegalArgumentException when two schedule times are less than a second apart
   */
  static MostRecent mostRecentScheduleTime(MapValue cj, Instant now, CronSchedule schedule,
      boolean includeStartingDeadline) {
    Instant earliest = Pods.time(cj, "metadata", "creationTimestamp").orElse(Instant.EPOCH);
    Optional<Instant> last = Pods.time(cj, "status", "lastScheduleTime");
    if (last.isPresent()) {
      earliest = last.get();
    }
    if (includeStartingDeadline && Nested.has(cj, "spec", "startingDeadlineSeconds")) {
      Instant deadline = now.minusSeconds(Nested.integer(cj, "spec", "startingDeadlineSeconds"));
      if (deadline.isAfter(earliest)) {
        earliest = deadline;
      }
    }
    // robfig/cron's Next gives the zero time when no activation comes within five years:
    // kube then finds the two schedule times less than a second apart
    String noTime = "time difference between two schedules is less than 1 second";
    Optional<Instant> t1 = schedule.next(earliest);
    if (t1.isEmpty()) {
      throw new IllegalArgumentException(noTime);
    }
    if (now.isBefore(t1.get())) {
      return new MostRecent(earliest, Optional.empty(), Missed.NONE);
    }
    Optional<Instant> t2 = schedule.next(t1.get());
    if (t2.isEmpty()) {
      throw new IllegalArgumentException(noTime);
    }
    if (now.isBefore(t2.get())) {
      return new MostRecent(earliest, t1, Missed.NONE);
    }
    long between = Math.round(Duration.between(t1.get(), t2.get()).toMillis() / 1000.0);
    if (between < 1) {
      throw new IllegalArgumentException(noTime);
    }
    long elapsed = Duration.between(t1.get(), now).getSeconds();
    long missedCount = elapsed / between + 1;
    Instant potentialEarliest = t1.get().plusSeconds((missedCount - 2) * between);
    Instant mostRecent = null;
    for (Optional<Instant> t = schedule.next(potentialEarliest);
        t.isPresent() && !t.get().isAfter(now); t = schedule.next(t.get())) {
      mostRecent = t.get();
    }
    Missed missed = missedCount > 100 ? Missed.MANY : missedCount > 0 ? Missed.FEW : Missed.NONE;
    return new MostRecent(earliest, Optional.ofNullable(mostRecent), missed);
  }

  /** kube's {@code nextScheduleTimeDuration}: when to look at the CronJob again. */
  static Duration nextScheduleDuration(MapValue cj, Instant now, CronSchedule schedule) {
    Instant base;
    try {
      MostRecent r = mostRecentScheduleTime(cj, now, schedule, false);
      base = r.time().orElse(r.missed() == Missed.NONE ? r.earliest() : now);
    } catch (IllegalArgumentException e) {
      base = now;
    }
    Optional<Instant> next = schedule.next(base);
    if (next.isEmpty()) {
      // robfig/cron's zero time: far in the past, so kube requeues at once
      return Duration.ZERO;
    }
    return Duration.between(now, next.get().plus(NEXT_SCHEDULE_DELTA));
  }

  /** kube's {@code nextScheduleTime}: the unmet schedule time to start now, if any. */
  static Optional<Instant> nextScheduleTime(MapValue cj, Instant now, CronSchedule schedule) {
    return nextScheduleTime(cj, now, schedule, () -> { });
  }

  /**
   * kube's {@code nextScheduleTime}, calling {@code manyMissed} where kube records its
   * {@code TooManyMissedTimes} event.
   */
  static Optional<Instant> nextScheduleTime(MapValue cj, Instant now, CronSchedule schedule,
      Runnable manyMissed) {
    MostRecent r = mostRecentScheduleTime(cj, now, schedule, true);
    if (r.time().isEmpty() || r.time().get().isAfter(now)) {
      return Optional.empty();
    }
    if (r.missed() == Missed.MANY) {
      manyMissed.run();
      LOG.info("too many missed start times of CronJob {}. Set or decrease "
          + ".spec.startingDeadlineSeconds or check clock skew", Pods.key(cj));
    }
    return r.time();
  }

  /** kube's {@code getJobName}: the CronJob's name and the schedule time in minutes. */
  static String jobName(MapValue cj, Instant scheduled) {
    return Meta.metaString(cj, "name") + "-" + scheduled.getEpochSecond() / 60;
  }

  // ---- sync ----

  /** The CronJob's status while a sync works on it. */
  private static final class Status {
    final List<MapValue> active = new ArrayList<>();
    Optional<String> lastScheduleTime;
    Optional<String> lastSuccessfulTime;
    MapValue rest;

    Status(MapValue cj) {
      MapValue s = Nested.map(cj, "status");
      for (Value v : Nested.list(s, "active")) {
        if (v instanceof MapValue m) {
          active.add(m);
        }
      }
      lastScheduleTime = opt(s, "lastScheduleTime");
      lastSuccessfulTime = opt(s, "lastSuccessfulTime");
      rest = s.without("active").without("lastScheduleTime").without("lastSuccessfulTime");
    }

    private static Optional<String> opt(MapValue s, String key) {
      String v = Nested.str(s, key);
      return v.isEmpty() ? Optional.empty() : Optional.of(v);
    }

    boolean inActive(String uid) {
      return active.stream().anyMatch(r -> Nested.str(r, "uid").equals(uid));
    }

    void removeActive(String uid) {
      active.removeIf(r -> Nested.str(r, "uid").equals(uid));
    }

    MapValue toValue() {
      MapValue.Builder b = rest.toBuilder();
      if (!active.isEmpty()) {
        b.put("active", ListValue.of(active));
      }
      lastScheduleTime.ifPresent(t -> b.put("lastScheduleTime", Value.of(t)));
      lastSuccessfulTime.ifPresent(t -> b.put("lastSuccessfulTime", Value.of(t)));
      return b.build();
    }
  }

  /** A sync; a conflict (a stale cached CronJob) is retried quietly. */
  private Outcome sync(String key) {
    try {
      return syncKey(key);
    } catch (ConflictException e) {
      LOG.debug("CronJob {} changed meanwhile, retrying: {}", key, e.getMessage());
      return Outcome.REQUEUE;
    }
  }

  /** kube's {@code sync}: reconcile, clean up, write the status, requeue. */
  private Outcome syncKey(String key) {
    int slash = key.indexOf('/');
    String namespace = key.substring(0, slash);
    Optional<MapValue> cached = cronJobs.get(namespace, key.substring(slash + 1));
    if (cached.isEmpty()) {
      return Outcome.FORGET;
    }
    MapValue cj = cached.get();
    List<MapValue> owned = new ArrayList<>();
    for (MapValue job : jobs.list(namespace)) {
      Optional<MapValue> ref = Pods.controllerRef(job);
      if (ref.isPresent() && Nested.str(ref.get(), "kind").equals("CronJob")
          && Nested.str(ref.get(), "name").equals(Meta.metaString(cj, "name"))) {
        owned.add(job);
      }
    }
    Status status = new Status(cj);
    boolean[] update = new boolean[1];
    Optional<Duration> requeue;
    // the requeue is a time from this clock reading, whatever the clock says when it is queued
    Instant now = context.clock().instant();
    try {
      requeue = syncCronJob(cj, status, owned, update, now);
    } catch (StatusException e) {
      if (update[0]) {
        writeStatus(cj, status);
      }
      throw e;
    }
    if (!Nested.has(cj, "metadata", "deletionTimestamp")) {
      update[0] |= cleanupFinishedJobs(cj, status, owned);
    }
    if (update[0]) {
      writeStatus(cj, status);
    }
    requeue.ifPresent(d -> queue.addAt(key, now.plus(d)));
    return Outcome.FORGET;
  }

  private void writeStatus(MapValue cj, Status status) {
    context.api().handle(ApiRequest.builder(ApiRequest.Verb.UPDATE, CRONJOBS)
        .namespace(Meta.metaString(cj, "namespace")).name(Meta.metaString(cj, "name"))
        .subresource("status").options(UpdateOptions.defaults())
        .fieldManager(ControllerContext.FIELD_MANAGER).user(user)
        .body(cj.with("status", status.toValue())).build()).orThrow();
  }

  private static Optional<String> finishedType(MapValue job) {
    for (Value c : Nested.list(job, "status", "conditions")) {
      String type = Nested.str(c, "type");
      if ((type.equals("Complete") || type.equals("Failed"))
          && Nested.str(c, "status").equals("True")) {
        return Optional.of(type);
      }
    }
    return Optional.empty();
  }

  /** kube's {@code syncCronJob}; {@code update[0]} says whether the status changed. */
  private Optional<Duration> syncCronJob(MapValue cj, Status status, List<MapValue> owned,
      boolean[] update, Instant now) {
    String namespace = Meta.metaString(cj, "namespace");
    List<String> children = new ArrayList<>();
    for (MapValue j : owned) {
      String uid = Meta.metaString(j, "uid");
      children.add(uid);
      boolean found = status.inActive(uid);
      Optional<String> finished = finishedType(j);
      if (!found && finished.isEmpty()) {
        Optional<MapValue> fresh = cronJobClient(namespace).find(Meta.metaString(cj, "name"));
        if (fresh.isPresent() && new Status(fresh.get()).inActive(uid)) {
          status.active.clear();
          status.active.addAll(new Status(fresh.get()).active);
          continue;
        }
        events.warning(involved(cj), "UnexpectedJob",
            "Saw a job that the controller did not create or forgot: "
                + Meta.metaString(j, "name"));
      } else if (finished.isPresent()) {
        if (found) {
          status.removeActive(uid);
          events.normal(involved(cj), "SawCompletedJob", "Saw completed job: "
              + Meta.metaString(j, "name") + ", condition: " + finished.get());
          update[0] = true;
        }
        if (!finished.equals(Optional.of("Complete"))) {
          continue;
        }
        String completion = Nested.str(j, "status", "completionTime");
        if (status.lastSuccessfulTime.isEmpty() && !completion.isEmpty()) {
          status.lastSuccessfulTime = Optional.of(completion);
          update[0] = true;
        }
        if (!completion.isEmpty() && Instant.parse(completion)
            .isAfter(Instant.parse(status.lastSuccessfulTime.orElse(completion)))) {
          status.lastSuccessfulTime = Optional.of(completion);
          update[0] = true;
        }
      }
    }
    for (MapValue ref : List.copyOf(status.active)) {
      if (children.contains(Nested.str(ref, "uid"))) {
        continue;
      }
      if (jobClient(Nested.str(ref, "namespace")).find(Nested.str(ref, "name")).isEmpty()) {
        events.normal(involved(cj), "MissingJob",
            "Active job went missing: " + Nested.str(ref, "name"));
        status.removeActive(Nested.str(ref, "uid"));
        update[0] = true;
      }
    }
    if (Nested.has(cj, "metadata", "deletionTimestamp")) {
      return Optional.empty();
    }
    if (Nested.has(cj, "spec", "timeZone")) {
      String zone = Nested.str(cj, "spec", "timeZone");
      try {
        ZoneId.of(zone);
      } catch (DateTimeException e) {
        // Go's time.LoadLocation error
        events.warning(involved(cj), "UnknownTimeZone", "invalid timeZone: " + goQuote(zone)
            + ": unknown time zone " + zone);
        return Optional.empty();
      }
    }
    if (Nested.bool(cj, "spec", "suspend")) {
      return Optional.empty();
    }
    String spec = Nested.str(cj, "spec", "schedule");
    if (spec.contains("TZ")) {
      // kube's formatSchedule with a recorder
      events.warning(involved(cj), "UnsupportedSchedule", "CRON_TZ or TZ used in schedule "
          + goQuote(spec) + " is not officially supported, see https://kubernetes.io/docs/"
          + "concepts/workloads/controllers/cron-jobs/ for more details");
    }
    Optional<CronSchedule> parsed;
    try {
      parsed = Optional.of(CronSchedule.parse(spec, zone(cj)));
    } catch (IllegalArgumentException e) {
      LOG.info("CronJob {} has an unparseable schedule {}: {}", Pods.key(cj), spec,
          e.getMessage());
      events.warning(involved(cj), "UnparseableSchedule", "unparseable schedule: "
          + goQuote(spec) + " : " + e.getMessage());
      parsed = Optional.empty();
    }
    if (parsed.isEmpty()) {
      return Optional.empty();
    }
    CronSchedule sched = parsed.get();
    MapValue current = cj.with("status", status.toValue());
    Optional<Instant> scheduled;
    try {
      scheduled = nextScheduleTime(current, now, sched, () -> events.warning(involved(cj),
          "TooManyMissedTimes", "too many missed start times. Set or decrease "
              + ".spec.startingDeadlineSeconds or check clock skew"));
    } catch (IllegalArgumentException e) {
      LOG.info("CronJob {} has an invalid schedule: {}", Pods.key(cj), e.getMessage());
      events.warning(involved(cj), "InvalidSchedule", "invalid schedule: " + spec + " : "
          + e.getMessage());
      return Optional.empty();
    }
    if (scheduled.isEmpty()) {
      return Optional.of(nextScheduleDuration(current, now, sched));
    }
    Instant at = scheduled.get();
    if (Nested.has(cj, "spec", "startingDeadlineSeconds")
        && at.plusSeconds(Nested.integer(cj, "spec", "startingDeadlineSeconds")).isBefore(now)) {
      LOG.debug("CronJob {} missed its starting window at {}", Pods.key(cj), at);
      events.warning(involved(cj), "MissSchedule", "Missed scheduled time to start a job: "
          + RFC1123Z.format(at.atOffset(java.time.ZoneOffset.UTC)));
      return Optional.of(nextScheduleDuration(current, now, sched));
    }
    String name = jobName(cj, at);
    boolean alreadyProcessed = status.active.stream()
        .anyMatch(r -> Nested.str(r, "name").equals(name)
            && Nested.str(r, "namespace").equals(namespace))
        || status.lastScheduleTime.map(t -> Instant.parse(t).equals(at)).orElse(false);
    if (alreadyProcessed) {
      return Optional.of(nextScheduleDuration(current, now, sched));
    }
    String policy = Nested.str(cj, "spec", "concurrencyPolicy");
    if (policy.equals("Forbid") && !status.active.isEmpty()) {
      events.normal(involved(cj), "JobAlreadyActive", "Not starting job because prior "
          + "execution is running and concurrency policy is Forbid");
      return Optional.of(nextScheduleDuration(current, now, sched));
    }
    if (policy.equals("Replace")) {
      for (MapValue ref : List.copyOf(status.active)) {
        MapValue job;
        try {
          job = jobClient(Nested.str(ref, "namespace")).get(Nested.str(ref, "name"));
        } catch (StatusException e) {
          events.warning(involved(cj), "FailedGet", "Get job: " + e.getMessage());
          throw e;
        }
        deleteJob(cj, status, job);
        update[0] = true;
      }
    }
    MapValue created;
    boolean[] alreadyExisted = new boolean[1];
    try {
      created = jobClient(namespace).create(jobFromTemplate(cj, at, sched.zone()));
    } catch (AlreadyExistsException e) {
      alreadyExisted[0] = true;
      MapValue existing = jobClient(namespace).get(name);
      boolean ours = Pods.controllerRef(existing)
          .map(r -> Nested.str(r, "uid").equals(Meta.metaString(cj, "uid"))).orElse(false);
      if (!ours || status.inActive(Meta.metaString(existing, "uid"))) {
        return Optional.empty();
      }
      created = existing;
    } catch (StatusException e) {
      if (e.status().causes().stream().noneMatch(c -> c.type().equals("NamespaceTerminating"))) {
        events.warning(involved(cj), "FailedCreate", "Error creating job: " + e.getMessage());
      }
      throw e;
    }
    if (!alreadyExisted[0]) {
      events.normal(involved(cj), "SuccessfulCreate",
          "Created job " + Meta.metaString(created, "name"));
    }
    status.active.add(MapValue.ofEntries("kind", Value.of("Job"),
        "namespace", Value.of(namespace), "name", Value.of(Meta.metaString(created, "name")),
        "uid", Value.of(Meta.metaString(created, "uid")), "apiVersion", Value.of("batch/v1"),
        "resourceVersion", Value.of(Meta.metaString(created, "resourceVersion"))));
    status.lastScheduleTime = Optional.of(Meta.formatTime(at));
    update[0] = true;
    return Optional.of(nextScheduleDuration(cj.with("status", status.toValue()), now, sched));
  }

  /** kube's {@code getJobFromTemplate2}. */
  static MapValue jobFromTemplate(MapValue cj, Instant scheduled, ZoneId zone) {
    MapValue template = Nested.map(cj, "spec", "jobTemplate");
    MapValue tmeta = Nested.map(template, "metadata");
    MapValue annotations = Nested.map(tmeta, "annotations").with(SCHEDULED_TIMESTAMP,
        Value.of(formatRfc3339(scheduled, zone)));
    MapValue.Builder meta = MapValue.builder();
    meta.put("name", Value.of(jobName(cj, scheduled)));
    meta.put("namespace", Value.of(Meta.metaString(cj, "namespace")));
    MapValue labels = Nested.map(tmeta, "labels");
    if (!labels.isEmpty()) {
      meta.put("labels", labels);
    }
    meta.put("annotations", annotations);
    meta.put("ownerReferences", ListValue.of(List.of(MapValue.ofEntries(
        "apiVersion", Value.of("batch/v1"), "kind", Value.of("CronJob"),
        "name", Value.of(Meta.metaString(cj, "name")),
        "uid", Value.of(Meta.metaString(cj, "uid")), "controller", Value.of(true),
        "blockOwnerDeletion", Value.of(true)))));
    return MapValue.ofEntries("apiVersion", Value.of("batch/v1"), "kind", Value.of("Job"),
        "metadata", meta.build(), "spec", Nested.map(template, "spec"));
  }

  /** Go's {@code time.RFC3339} layout: {@code Z} for UTC, else the offset. */
  static String formatRfc3339(Instant t, ZoneId zone) {
    java.time.ZonedDateTime z = t.atZone(zone);
    if (z.getOffset().getTotalSeconds() == 0) {
      return DateTimeFormatter.ofPattern("uuuu-MM-dd'T'HH:mm:ss'Z'").format(z);
    }
    return DateTimeFormatter.ofPattern("uuuu-MM-dd'T'HH:mm:ssxxx").format(z);
  }

  /** kube's {@code cleanupFinishedJobs}. */
  private boolean cleanupFinishedJobs(MapValue cj, Status status, List<MapValue> owned) {
    boolean hasSuccessful = Nested.has(cj, "spec", "successfulJobsHistoryLimit");
    boolean hasFailed = Nested.has(cj, "spec", "failedJobsHistoryLimit");
    if (!hasSuccessful && !hasFailed) {
      return false;
    }
    List<MapValue> successful = new ArrayList<>();
    List<MapValue> failed = new ArrayList<>();
    for (MapValue j : owned) {
      Optional<String> f = finishedType(j);
      if (f.equals(Optional.of("Complete"))) {
        successful.add(j);
      } else if (f.equals(Optional.of("Failed"))) {
        failed.add(j);
      }
    }
    boolean updated = false;
    if (hasSuccessful && removeOldest(cj, status, successful,
        Nested.integer(cj, "spec", "successfulJobsHistoryLimit"))) {
      updated = true;
    }
    if (hasFailed && removeOldest(cj, status, failed,
        Nested.integer(cj, "spec", "failedJobsHistoryLimit"))) {
      updated = true;
    }
    return updated;
  }

  /** kube's {@code byJobStartTime}: started before unstarted, earlier first, then by name. */
  static final Comparator<MapValue> BY_START_TIME = (a, b) -> {
    Optional<Instant> ta = Pods.time(a, "status", "startTime");
    Optional<Instant> tb = Pods.time(b, "status", "startTime");
    if (ta.isEmpty() != tb.isEmpty()) {
      return ta.isPresent() ? -1 : 1;
    }
    if (ta.isEmpty() || ta.get().equals(tb.get())) {
      return Meta.metaString(a, "name").compareTo(Meta.metaString(b, "name"));
    }
    return ta.get().compareTo(tb.get());
  };

  private boolean removeOldest(MapValue cj, Status status, List<MapValue> jobsList, long max) {
    long toDelete = jobsList.size() - max;
    if (toDelete <= 0) {
      return false;
    }
    List<MapValue> sorted = new ArrayList<>(jobsList);
    sorted.sort(BY_START_TIME);
    boolean updated = false;
    for (int i = 0; i < toDelete; i++) {
      if (deleteJob(cj, status, sorted.get(i))) {
        updated = true;
      }
    }
    return updated;
  }

  /** kube's {@code deleteJob}: background propagation, as kube's job control does. */
  private boolean deleteJob(MapValue cj, Status status, MapValue job) {
    try {
      jobClient(Meta.metaString(job, "namespace")).delete(Meta.metaString(job, "name"),
          DeleteOptions.of(PropagationPolicy.BACKGROUND));
    } catch (NotFoundException e) {
      // gone already: kube logs the failure and keeps it in the list
      LOG.debug("deleting Job {} failed: {}", Pods.key(job), e.getMessage());
      events.warning(involved(cj), "FailedDelete", "Deleted job: " + e.getMessage());
      return false;
    } catch (StatusException e) {
      events.warning(involved(cj), "FailedDelete", "Deleted job: " + e.getMessage());
      throw e;
    }
    status.removeActive(Meta.metaString(job, "uid"));
    events.normal(involved(cj), "SuccessfulDelete",
        "Deleted job " + Meta.metaString(job, "name"));
    return true;
  }

  /** The CronJob as kube's recorder references it. */
  private static EventRecorder.InvolvedObject involved(MapValue cj) {
    return EventRecorder.InvolvedObject.of("batch/v1", "CronJob", cj);
  }

  /** Go's {@code %q} of a string without control or non-ASCII characters to escape. */
  static String goQuote(String s) {
    return "\"" + s.replace("\\", "\\\\").replace("\"", "\\\"") + "\"";
  }

  private ResourceClient jobClient(String namespace) {
    return context.client(JOBS, user).namespace(namespace);
  }

  private ResourceClient cronJobClient(String namespace) {
    return context.client(CRONJOBS, user).namespace(namespace);
  }
}
