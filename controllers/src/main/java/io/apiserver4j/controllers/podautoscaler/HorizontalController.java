/*
 * Copyright The apiserver4j authors.
 * SPDX-License-Identifier: Apache-2.0
 */
package io.apiserver4j.controllers.podautoscaler;

import io.apiserver4j.admission.UserInfo;
import io.apiserver4j.apimachinery.validation.GroupRules.Quantity;
import io.apiserver4j.apiserver.ApiRequest;
import io.apiserver4j.apiserver.ResourceDefinition;
import io.apiserver4j.controllers.internal.Controller;
import io.apiserver4j.controllers.internal.ControllerContext;
import io.apiserver4j.controllers.internal.ControllerContext.Outcome;
import io.apiserver4j.controllers.internal.ControllerContext.Workers;
import io.apiserver4j.controllers.internal.EventRecorder;
import io.apiserver4j.controllers.internal.EventRecorder.InvolvedObject;
import io.apiserver4j.controllers.internal.Informer;
import io.apiserver4j.controllers.internal.ResourceEventHandler;
import io.apiserver4j.controllers.internal.WorkQueue;
import io.apiserver4j.controllers.metrics.CustomMetrics;
import io.apiserver4j.controllers.metrics.PodMetrics;
import io.apiserver4j.admission.matching.LabelSelectors;
import io.apiserver4j.controllers.podautoscaler.ReplicaCalculator.MetricException;
import io.apiserver4j.controllers.podautoscaler.ReplicaCalculator.PodMetric;
import io.apiserver4j.controllers.podautoscaler.ReplicaCalculator.Tolerances;
import io.apiserver4j.core.GoStrings;
import io.apiserver4j.core.GroupResource;
import io.apiserver4j.core.GroupVersionResource;
import io.apiserver4j.core.ListValue;
import io.apiserver4j.core.MapValue;
import io.apiserver4j.core.Meta;
import io.apiserver4j.core.Nested;
import io.apiserver4j.core.Value;
import io.apiserver4j.core.errors.NotFoundException;
import io.apiserver4j.core.errors.StatusException;
import io.apiserver4j.core.labels.LabelSelector;
import java.math.BigDecimal;
import java.time.Duration;
import java.time.Instant;
import java.util.ArrayList;
import java.util.HashMap;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.TreeSet;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * kube's {@code HorizontalController} (pkg/controller/podautoscaler/horizontal.go) for
 * {@code autoscaling/v2} HorizontalPodAutoscalers, as user
 * {@code system:serviceaccount:kube-system:horizontal-pod-autoscaler}: every
 * {@link #RESYNC_PERIOD} of the server clock (kube's {@code --horizontal-pod-autoscaler-sync-
 * period}; the first sync of a new autoscaler comes one period after it is seen, as kube's rate
 * limiter delays it) it reads the target's {@code scale} subresource (any kind that serves one),
 * computes the replicas from {@code Resource} and {@code ContainerResource} metrics read from
 * {@link io.apiserver4j.controllers.metrics.PodMetrics} (Utilization and AverageValue targets,
 * kube's
 * tolerance, unready and missing Pods), applies min/max and the default or given
 * {@code behavior}, updates the scale and records {@code SuccessfulRescale}, and writes
 * {@code status} (replicas, current metrics, last scale time, the AbleToScale, ScalingActive
 * and ScalingLimited conditions) when it changed. {@code Pods}, {@code Object} and
 * {@code External} metrics read {@link io.apiserver4j.controllers.metrics.CustomMetrics} as
 * kube's custom and external metrics clients read an adapter; without one they fail as in a
 * cluster without a custom or external metrics API.
 */
public final class HorizontalController implements Controller {
  private static final Logger LOG = LoggerFactory.getLogger(HorizontalController.class);
  /** kube's {@code --horizontal-pod-autoscaler-sync-period} default. */
  static final Duration RESYNC_PERIOD = Duration.ofSeconds(15);
  /** kube's {@code --horizontal-pod-autoscaler-downscale-stabilization} default. */
  static final Duration DOWNSCALE_STABILIZATION = Duration.ofMinutes(5);
  private static final GroupVersionResource HPAS =
      new GroupVersionResource("autoscaling", "v2", "horizontalpodautoscalers");

  private final ControllerContext context;
  private final UserInfo user;
  private final Informer pods;
  private final WorkQueue<String> queue;
  private final EventRecorder events;
  private final ReplicaCalculator calculator = new ReplicaCalculator(
      ReplicaCalculator.CPU_INITIALIZATION_PERIOD, ReplicaCalculator.INITIAL_READINESS_DELAY);
  private final Normalizer normalizer = new Normalizer(DOWNSCALE_STABILIZATION);
  /** When each autoscaler is next due: kube's delaying queue keeps one, the earliest, per key. */
  private final Map<String, Instant> due = new HashMap<>();
  /** kube's {@code hpaSelectors}: each autoscaler's last parsed selector, null for none yet. */
  private final Map<String, LabelSelector> selectors = new HashMap<>();
  private Workers workers;

  private HorizontalController(ControllerContext context) {
    this.context = context;
    this.user = ControllerContext.serviceAccount("horizontal-pod-autoscaler");
    this.pods = context.informers().informer(new GroupResource("", "pods"));
    Informer hpas = context.informers().informer(
        new GroupResource("autoscaling", "horizontalpodautoscalers"));
    this.queue = context.newQueue("horizontalpodautoscaler");
    this.events = new EventRecorder(context, user, "horizontal-pod-autoscaler");
    hpas.addHandler(new ResourceEventHandler() {
      @Override
      public void onAdd(MapValue object) {
        enqueue(keyOf(object));
      }

      @Override
      public void onUpdate(MapValue old, MapValue object) {
        enqueue(keyOf(object));
      }

      @Override
      public void onDelete(MapValue object) {
        String key = keyOf(object);
        synchronized (due) {
          selectors.remove(key);
        }
      }
    });
  }

  private static String keyOf(MapValue object) {
    return Meta.metaString(object, "namespace") + "/" + Meta.metaString(object, "name");
  }

  /** The {@code horizontalpodautoscaling} controller. */
  public static Controller create(ControllerContext context) {
    return new HorizontalController(context);
  }

  @Override
  public void start() {
    workers = context.startWorkers("horizontalpodautoscaler", queue,
        context.concurrentSyncs("horizontal-pod-autoscaler"), this::process);
  }

  @Override
  public void close() {
    Workers.close(workers, queue);
  }

  @Override
  public void resetInPlace() {
    // the queue's items and timers are gone: the due times that stood for them must go too,
    // or an autoscaler seen again would never be enqueued
    synchronized (due) {
      due.clear();
      selectors.clear();
    }
    normalizer.clear();
  }

  /** kube's {@code AddRateLimited} with its fixed-interval limiter: due one period from now. */
  private void enqueue(String key) {
    Instant at = context.clock().instant().plus(RESYNC_PERIOD);
    synchronized (due) {
      selectors.putIfAbsent(key, null);
      Instant current = due.get(key);
      if (current != null && !current.isAfter(at)) {
        return;
      }
      due.put(key, at);
    }
    queue.addAt(key, at);
  }

  private Outcome process(String key) {
    Instant now = context.clock().instant();
    synchronized (due) {
      Instant at = due.get(key);
      if (at == null || at.isAfter(now)) {
        return Outcome.FORGET; // a timer of a time since moved earlier
      }
      due.remove(key);
    }
    boolean deleted = true;
    try {
      deleted = reconcileKey(key);
    } catch (MetricException | StatusException e) {
      LOG.warn("horizontal pod autoscaler {}: {}", key, e.getMessage());
      deleted = false;
    } finally {
      if (!deleted) {
        enqueue(key);
      }
    }
    return Outcome.FORGET;
  }

  /** kube's {@code reconcileKey}: whether the autoscaler is gone. */
  private boolean reconcileKey(String key) {
    int slash = key.indexOf('/');
    String namespace = key.substring(0, slash);
    String name = key.substring(slash + 1);
    MapValue hpa;
    try {
      hpa = context.client(HPAS, user).namespace(namespace).get(name);
    } catch (NotFoundException e) {
      normalizer.forget(key);
      return true;
    }
    new Reconciliation(key, hpa).run();
    return false;
  }

  /** One {@code reconcileAutoscaler}: the autoscaler's status as it is being rebuilt. */
  private final class Reconciliation {
    private final String key;
    private final MapValue hpa;
    private final String namespace;
    private final Instant now = context.clock().instant();
    private final MapValue originalStatus;
    private List<Value> conditions;
    private final InvolvedObject about;

    Reconciliation(String key, MapValue hpa) {
      this.key = key;
      this.hpa = hpa;
      this.namespace = Meta.metaString(hpa, "namespace");
      this.originalStatus = Nested.map(hpa, "status");
      this.conditions = new ArrayList<>(Nested.list(hpa, "status", "conditions"));
      this.about = InvolvedObject.of("autoscaling/v2", "HorizontalPodAutoscaler", hpa);
    }

    void run() {
      MapValue ref = Nested.map(hpa, "spec", "scaleTargetRef");
      String kind = Nested.str(ref, "kind");
      String targetName = Nested.str(ref, "name");
      String reference = kind + "/" + namespace + "/" + targetName;
      String apiVersion = Nested.str(ref, "apiVersion");
      String group = apiVersion.contains("/") ? apiVersion.substring(0, apiVersion.indexOf('/'))
          : "";
      if (apiVersion.chars().filter(c -> c == '/').count() > 1) {
        failedGetScale("unexpected GroupVersion string: " + apiVersion);
        throw new MetricException("invalid API version in scale target reference: "
            + "unexpected GroupVersion string: " + apiVersion);
      }
      List<ResourceDefinition> mappings = new ArrayList<>();
      for (ResourceDefinition d : context.api().registry().all()) {
        if (d.kind().group().equals(group) && d.kind().kind().equals(kind)
            && mappings.stream().noneMatch(m -> m.resource().resource()
                .equals(d.resource().resource()))) {
          mappings.add(d);
        }
      }
      if (mappings.isEmpty()) {
        String msg = "no matches for kind \"" + kind + "\" in group \"" + group + "\"";
        failedGetScale(msg);
        throw new MetricException("unable to determine resource for scale target reference: "
            + msg);
      }
      MapValue scale = null;
      ResourceDefinition target = null;
      StatusException first = null;
      for (ResourceDefinition d : mappings) {
        try {
          scale = context.api().handle(ApiRequest.builder(ApiRequest.Verb.GET, d.resource())
              .namespace(namespace).name(targetName).subresource("scale").user(user)
              .build()).orThrow();
          target = d;
          break;
        } catch (StatusException e) {
          if (first == null) {
            first = e;
          }
        }
      }
      if (scale == null) {
        String msg = first == null ? "unrecognized resource" : first.getMessage();
        failedGetScale(msg);
        throw new MetricException("failed to query scale subresource for " + reference + ": "
            + msg);
      }
      setCondition("AbleToScale", "True", "SucceededGetScale",
          "the HPA controller was able to get the target's current scale");
      int currentReplicas = (int) Nested.integer(scale, "spec", "replicas");
      normalizer.recordInitialRecommendation(currentReplicas, key, now);

      List<Value> metricStatuses = List.of();
      int desiredReplicas = 0;
      String rescaleReason = "";
      int minReplicas = Nested.has(hpa, "spec", "minReplicas")
          ? (int) Nested.integer(hpa, "spec", "minReplicas") : 1;
      int maxReplicas = (int) Nested.integer(hpa, "spec", "maxReplicas");
      boolean rescale = true;
      String retError = null;
      if (currentReplicas == 0 && minReplicas != 0) {
        desiredReplicas = 0;
        rescale = false;
        setCondition("ScalingActive", "False", "ScalingDisabled",
            "scaling is disabled since the replica count of the target is zero");
      } else if (currentReplicas > maxReplicas) {
        rescaleReason = "Current number of replicas above Spec.MaxReplicas";
        desiredReplicas = maxReplicas;
      } else if (currentReplicas < minReplicas) {
        rescaleReason = "Current number of replicas below Spec.MinReplicas";
        desiredReplicas = minReplicas;
      } else {
        MetricsOutcome m = computeReplicasForMetrics(scale);
        metricStatuses = m.statuses;
        if (m.error != null && m.replicas == -1) {
          setStatus(currentReplicas, (int) Nested.integer(hpa, "status", "desiredReplicas"),
              metricStatuses, false);
          updateStatusIfNeeded();
          events.warning(about, "FailedComputeMetricsReplicas", m.error);
          throw new MetricException("failed to compute desired number of replicas based on"
              + " listed metrics for " + reference + ": " + m.error);
        }
        retError = m.error;
        String rescaleMetric = "";
        if (m.replicas > desiredReplicas) {
          desiredReplicas = m.replicas;
          rescaleMetric = m.metric;
        }
        if (desiredReplicas > currentReplicas) {
          rescaleReason = rescaleMetric + " above target";
        }
        if (desiredReplicas < currentReplicas) {
          rescaleReason = "All metrics below target";
        }
        MapValue behavior = Nested.mapOrNull(hpa, "spec", "behavior");
        Normalizer.Outcome n = normalizer.normalize(key, behavior, currentReplicas,
            desiredReplicas, minReplicas, maxReplicas, now);
        for (Normalizer.Condition c : n.conditions()) {
          setCondition(c.type(), c.status(), c.reason(), c.message());
        }
        desiredReplicas = n.desiredReplicas();
        rescale = desiredReplicas != currentReplicas;
      }
      if (rescale) {
        try {
          context.api().handle(ApiRequest.builder(ApiRequest.Verb.UPDATE, target.resource())
              .namespace(namespace).name(targetName).subresource("scale")
              .body(scale.with("spec", Nested.map(scale, "spec")
                  .with("replicas", Value.of((long) desiredReplicas))))
              .user(user).fieldManager(ControllerContext.FIELD_MANAGER).build()).orThrow();
        } catch (StatusException e) {
          events.warning(about, "FailedRescale", "New size: " + desiredReplicas + "; reason: "
              + rescaleReason + "; error: " + e.getMessage());
          setCondition("AbleToScale", "False", "FailedUpdateScale",
              "the HPA controller was unable to update the target scale: " + e.getMessage());
          setStatus(currentReplicas, (int) Nested.integer(hpa, "status", "desiredReplicas"),
              metricStatuses, false);
          updateStatusIfNeeded();
          throw new MetricException("failed to rescale " + reference + ": " + e.getMessage());
        }
        setCondition("AbleToScale", "True", "SucceededRescale",
            "the HPA controller was able to update the target scale to " + desiredReplicas);
        events.normal(about, "SuccessfulRescale", "New size: " + desiredReplicas + "; reason: "
            + rescaleReason);
        normalizer.storeScaleEvent(Nested.mapOrNull(hpa, "spec", "behavior"), key,
            currentReplicas, desiredReplicas, now);
        LOG.info("horizontal pod autoscaler {} rescaled {} from {} to {}: {}", key, reference,
            currentReplicas, desiredReplicas, rescaleReason);
      } else {
        desiredReplicas = currentReplicas;
      }
      setStatus(currentReplicas, desiredReplicas, metricStatuses, rescale);
      updateStatusIfNeeded();
      if (retError != null) {
        throw new MetricException(retError);
      }
    }

    private void failedGetScale(String msg) {
      events.warning(about, "FailedGetScale", msg);
      setCondition("AbleToScale", "False", "FailedGetScale",
          "the HPA controller was unable to get the target's current scale: " + msg);
      updateStatusIfNeeded();
    }

    private record MetricsOutcome(int replicas, String metric, List<Value> statuses,
        String error) {}

    /** kube's {@code computeReplicasForMetrics}. */
    private MetricsOutcome computeReplicasForMetrics(MapValue scale) {
      LabelSelector selector;
      try {
        selector = validateAndParseSelector(Nested.str(scale, "status", "selector"));
      } catch (MetricException e) {
        return new MetricsOutcome(-1, "", List.of(), e.getMessage());
      }
      int specReplicas = (int) Nested.integer(scale, "spec", "replicas");
      List<Value> specs = Nested.list(hpa, "spec", "metrics");
      List<Value> statuses = new ArrayList<>();
      int replicas = 0;
      String metric = "";
      int invalid = 0;
      String invalidError = null;
      String[] invalidCondition = null;
      List<MapValue> selected = selectedPods(selector);
      for (Value spec : specs) {
        try {
          MetricProposal p = computeReplicasForMetric((MapValue) spec, specReplicas,
              selected);
          statuses.add(p.status);
          if (replicas == 0 || p.replicas > replicas) {
            replicas = p.replicas;
            metric = p.metric;
          }
        } catch (FailedMetric e) {
          // kube leaves the failed metric's status at its zero value
          statuses.add(MapValue.ofEntries("type", Value.of("")));
          if (invalid <= 0) {
            invalidCondition = e.condition;
            invalidError = e.getMessage();
          }
          invalid++;
        }
      }
      if (invalidError != null) {
        invalidError = "invalid metrics (" + invalid + " invalid out of " + specs.size()
            + "), first error is: " + invalidError;
      }
      if (invalid >= specs.size() || (invalid > 0 && replicas < specReplicas)) {
        setCondition(invalidCondition[0], invalidCondition[1], invalidCondition[2],
            invalidCondition[3]);
        return new MetricsOutcome(-1, "", statuses, invalidError);
      }
      setCondition("ScalingActive", "True", "ValidMetricFound",
          "the HPA was able to successfully calculate a replica count from " + metric);
      return new MetricsOutcome(replicas, metric, statuses, invalidError);
    }

    private List<MapValue> selectedPods(LabelSelector selector) {
      List<MapValue> out = new ArrayList<>();
      for (MapValue p : pods.list(namespace)) {
        if (selector.matches(Meta.labels(p))) {
          out.add(p);
        }
      }
      return out;
    }

    /** kube's {@code validateAndParseSelector}. */
    private LabelSelector validateAndParseSelector(String text) {
      if (text.isEmpty()) {
        events.warning(about, "SelectorRequired", "selector is required");
        setCondition("ScalingActive", "False", "InvalidSelector",
            "the HPA target's scale is missing a selector");
        throw new MetricException("selector is required");
      }
      LabelSelector parsed;
      try {
        parsed = LabelSelector.parse(text);
      } catch (StatusException | IllegalArgumentException e) {
        String msg = "couldn't convert selector into a corresponding internal selector object: "
            + e.getMessage();
        events.warning(about, "InvalidSelector", msg);
        setCondition("ScalingActive", "False", "InvalidSelector", msg);
        throw new MetricException(msg);
      }
      TreeSet<String> controlling = new TreeSet<>();
      synchronized (due) {
        if (selectors.containsKey(key)) {
          selectors.put(key, parsed);
        }
        for (MapValue pod : selectedPods(parsed)) {
          Map<String, String> labels = Meta.labels(pod);
          for (Map.Entry<String, LabelSelector> e : selectors.entrySet()) {
            if (e.getValue() != null && e.getKey().startsWith(namespace + "/")
                && e.getValue().matches(labels)) {
              controlling.add(e.getKey());
            }
          }
        }
      }
      if (controlling.size() > 1) {
        String msg = "pods by selector " + text + " are controlled by multiple HPAs: "
            + "[" + String.join(" ", controlling) + "]";
        events.warning(about, "AmbiguousSelector", msg);
        setCondition("ScalingActive", "False", "AmbiguousSelector", msg);
        throw new MetricException(msg);
      }
      return parsed;
    }

    private record MetricProposal(int replicas, String metric, MapValue status) {}

    /** A metric that failed: kube's error and the condition it proposes. */
    private static final class FailedMetric extends RuntimeException {
      private static final long serialVersionUID = 1L;
      final String[] condition;

      FailedMetric(String message, String[] condition) {
        super(message);
        this.condition = condition;
      }
    }

    /** kube's {@code getUnableComputeReplicaCountCondition}, with its event. */
    private String[] unableToCompute(String reason, String err) {
      events.warning(about, reason, err);
      return new String[] {"ScalingActive", "False", reason,
          "the HPA was unable to compute the replica count: " + err};
    }

    /** kube's {@code computeReplicasForMetric}. */
    private MetricProposal computeReplicasForMetric(MapValue spec, int specReplicas,
        List<MapValue> selected) {
      String type = Nested.str(spec, "type");
      switch (type) {
        case "Resource", "ContainerResource" -> {
          boolean container = type.equals("ContainerResource");
          MapValue source = Nested.map(spec, container ? "containerResource" : "resource");
          String resource = Nested.str(source, "name");
          String containerName = container ? Nested.str(source, "container") : "";
          String reason = container ? "FailedGetContainerResourceMetric"
              : "FailedGetResourceMetric";
          try {
            return resourceMetric(type, source, resource, containerName, specReplicas,
                selected);
          } catch (MetricException e) {
            String[] c = unableToCompute(reason, e.getMessage());
            throw new FailedMetric(container ? "failed to get " + containerName
                + " container metric value: " + e.getMessage() : "failed to get " + resource
                + " resource metric value: " + e.getMessage(), c);
          }
        }
        case "Pods" -> {
          try {
            return podsMetric(spec, specReplicas, selected);
          } catch (MetricException e) {
            throw new FailedMetric("failed to get pods metric value: " + e.getMessage(),
                unableToCompute("FailedGetPodsMetric", e.getMessage()));
          }
        }
        case "Object" -> {
          try {
            return objectMetric(spec, specReplicas, selected);
          } catch (MetricException e) {
            throw new FailedMetric("failed to get object metric value: " + e.getMessage(),
                unableToCompute("FailedGetObjectMetric", e.getCause() != null
                    ? e.getCause().getMessage() : e.getMessage()));
          }
        }
        case "External" -> {
          String name = Nested.str(spec, "external", "metric", "name");
          try {
            return externalMetric(spec, specReplicas, selected);
          } catch (MetricException e) {
            throw new FailedMetric("failed to get " + name + " external metric value: "
                + e.getMessage(), unableToCompute("FailedGetExternalMetric",
                    e.getCause() != null ? e.getCause().getMessage() : e.getMessage()));
          }
        }
        default -> {
          String err = "unknown metric source type \"" + type + "\"";
          throw new FailedMetric(err, unableToCompute("InvalidMetricSourceType", err));
        }
      }
    }

    /** The autoscaler's {@code status.currentReplicas}: kube's {@code statusReplicas}. */
    private int statusReplicas() {
      return (int) Nested.integer(hpa, "status", "currentReplicas");
    }

    /**
     * A metric's {@code metric.selector} as kube's {@code LabelSelectorAsSelector}; none selects
     * every series, as the metrics clients send no {@code metricLabelSelector} then.
     */
    private LabelSelector metricSelector(MapValue metric) {
      Value selector = Nested.getOrNull(metric, "selector");
      if (selector == null || selector.isNull()) {
        return LabelSelector.everything();
      }
      try {
        return LabelSelectors.parse(selector);
      } catch (IllegalArgumentException e) {
        throw new MetricException(e.getMessage());
      }
    }

    private CustomMetrics custom(String what) {
      return context.customMetrics().orElseThrow(() -> new MetricException(
          "unable to fetch metrics from " + what));
    }

    /** kube's {@code computeStatusForPodsMetric}, from the custom metrics of the Pods. */
    private MetricProposal podsMetric(MapValue spec, int specReplicas,
        List<MapValue> selected) {
      MapValue source = Nested.map(spec, "pods");
      MapValue metric = Nested.map(source, "metric");
      String name = Nested.str(metric, "name");
      LabelSelector selector = metricSelector(metric);
      long target = ReplicaCalculator.milli(Nested.getOrNull(source, "target", "averageValue")
          == null ? Value.of("0") : Nested.getOrNull(source, "target", "averageValue"));
      ReplicaCalculator.UsageResult r;
      try {
        CustomMetrics metrics = custom("custom metrics API: no custom metrics API"
            + " (custom.metrics.k8s.io) registered");
        Map<String, PodMetric> fetched = new LinkedHashMap<>();
        for (MapValue pod : selected) {
          String pod0 = Meta.metaString(pod, "name");
          metrics.podMetric(namespace, pod0, name, selector).ifPresent(v ->
              fetched.put(pod0, new PodMetric(v, now, PodMetrics.WINDOW)));
        }
        if (fetched.isEmpty()) {
          throw new MetricException("no metrics returned from custom metrics API");
        }
        r = calculator.metricReplicas(specReplicas, target, tolerances(), selected, fetched,
            now);
      } catch (MetricException e) {
        throw new MetricException("unable to get metric " + name + ": " + e.getMessage());
      }
      return new MetricProposal(r.replicas(), "pods metric " + name, MapValue.ofEntries(
          "type", Value.of("Pods"), "pods", MapValue.ofEntries(
              "metric", metric,
              "current", MapValue.ofEntries("averageValue",
                  Value.of(milliQuantity(r.usage()))))));
    }

    /**
     * kube's {@code computeStatusForObjectMetric}. A failure's cause, when it has one, is the
     * error kube's replica calculator returns (the condition's), its message what
     * {@code computeStatusForObjectMetric} returns.
     */
    private MetricProposal objectMetric(MapValue spec, int specReplicas,
        List<MapValue> selected) {
      MapValue source = Nested.map(spec, "object");
      MapValue metric = Nested.map(source, "metric");
      MapValue described = Nested.map(source, "describedObject");
      String name = Nested.str(metric, "name");
      String type = Nested.str(source, "target", "type");
      if (!type.equals("Value") && !type.equals("AverageValue")) {
        throw new MetricException("invalid object metric source: neither a value target nor an"
            + " average value target was set");
      }
      LabelSelector selector = metricSelector(metric);
      String kind = Nested.str(described, "kind");
      long usage;
      try {
        CustomMetrics metrics = custom("custom metrics API: no custom metrics API"
            + " (custom.metrics.k8s.io) registered");
        String apiVersion = Nested.str(described, "apiVersion");
        boolean namespace0 = kind.equals("Namespace") && !apiVersion.contains("/");
        // kube asks for a Namespace's metrics by the autoscaler's own namespace
        String objectName = namespace0 ? namespace : Nested.str(described, "name");
        usage = metrics.objectMetric(namespace, apiVersion, kind, objectName, name, selector)
            .orElseThrow(() -> new MetricException("unable to fetch metrics from custom metrics"
                + " API: the server could not find the metric " + name + " for "
                + resourceOf(apiVersion, kind) + " " + objectName));
      } catch (MetricException e) {
        MetricException failed = new MetricException("unable to get metric " + name + ": "
            + kind + " on " + namespace + " " + Nested.str(described, "name") + "/"
            + e.getMessage());
        if (type.equals("Value")) {
          throw failed;
        }
        throw new MetricException("failed to get " + name + " object metric: "
            + failed.getMessage(), failed);
      }
      if (type.equals("Value")) {
        long target = ReplicaCalculator.milli(Nested.getOrNull(source, "target", "value"));
        int replicas = ReplicaCalculator.objectReplicas(specReplicas, usage, target,
            tolerances(), selected);
        return new MetricProposal(replicas, kind + " metric " + name, MapValue.ofEntries(
            "type", Value.of("Object"), "object", MapValue.ofEntries(
                "describedObject", described,
                "metric", metric,
                "current", MapValue.ofEntries("value", Value.of(milliQuantity(usage))))));
      }
      long target = ReplicaCalculator.milli(Nested.getOrNull(source, "target", "averageValue"));
      ReplicaCalculator.UsageResult r = ReplicaCalculator.objectPerPodReplicas(statusReplicas(),
          usage, target, tolerances());
      // kube leaves the described object out of this status, and names the metric "external"
      return new MetricProposal(r.replicas(), "external metric " + name + "("
          + GoStrings.labelSelector(Nested.getOrNull(metric, "selector")) + ")", MapValue.ofEntries(
              "type", Value.of("Object"), "object", MapValue.ofEntries(
                  "describedObject", MapValue.ofEntries("kind", Value.of(""), "name",
                      Value.of("")),
                  "metric", metric,
                  "current", MapValue.ofEntries("averageValue",
                      Value.of(milliQuantity(r.usage()))))));
    }

    /** kube's {@code computeStatusForExternalMetric}; failures as {@link #objectMetric}'s. */
    private MetricProposal externalMetric(MapValue spec, int specReplicas,
        List<MapValue> selected) {
      MapValue source = Nested.map(spec, "external");
      MapValue metric = Nested.map(source, "metric");
      String name = Nested.str(metric, "name");
      Value averageValue = Nested.getOrNull(source, "target", "averageValue");
      Value value = Nested.getOrNull(source, "target", "value");
      boolean perPod = averageValue != null && !averageValue.isNull();
      if (!perPod && (value == null || value.isNull())) {
        throw new MetricException("invalid external metric source: neither a value target nor"
            + " an average value target was set");
      }
      String selectorText = GoStrings.labelSelector(Nested.getOrNull(metric, "selector"));
      LabelSelector selector;
      try {
        selector = metricSelector(metric);
      } catch (MetricException e) {
        throw new MetricException("failed to get external metric " + name + ": "
            + e.getMessage(), e);
      }
      List<Long> values;
      try {
        CustomMetrics metrics = custom("external metrics API: no external metrics API"
            + " (external.metrics.k8s.io) registered");
        values = metrics.externalMetric(namespace, name, selector);
        if (values.isEmpty()) {
          throw new MetricException("no metrics returned from external metrics API");
        }
      } catch (MetricException e) {
        MetricException failed = new MetricException("unable to get external metric "
            + namespace + "/" + name + "/" + selectorText + ": " + e.getMessage());
        throw new MetricException("failed to get external metric " + name + ": "
            + failed.getMessage(), failed);
      }
      ReplicaCalculator.UsageResult r;
      String current;
      if (perPod) {
        r = ReplicaCalculator.externalPerPodReplicas(statusReplicas(), values,
            ReplicaCalculator.milli(averageValue), tolerances());
        current = "averageValue";
      } else {
        r = ReplicaCalculator.externalReplicas(specReplicas, values,
            ReplicaCalculator.milli(value), tolerances(), selected);
        current = "value";
      }
      return new MetricProposal(r.replicas(), "external metric " + name + "(" + selectorText
          + ")", MapValue.ofEntries("type", Value.of("External"), "external",
              MapValue.ofEntries("metric", metric, "current", MapValue.ofEntries(current,
                  Value.of(milliQuantity(r.usage()))))));
    }

    /** kube's {@code computeStatusForResourceMetricGeneric} and the status it builds. */
    private MetricProposal resourceMetric(String type, MapValue source, String resource,
        String container, int currentReplicas, List<MapValue> selected) {
      MapValue target = Nested.map(source, "target");
      Tolerances tolerances = tolerances();
      boolean isContainer = type.equals("ContainerResource");
      MapValue.Builder status = MapValue.builder();
      status.put("name", Value.of(resource));
      if (isContainer) {
        status.put("container", Value.of(container));
      }
      Value averageValue = Nested.getOrNull(target, "averageValue");
      if (averageValue != null && !averageValue.isNull()) {
        ReplicaCalculator.UsageResult r;
        try {
          Map<String, PodMetric> metrics = ReplicaCalculator.resourceMetrics(
              context.podMetrics(), namespace, selected, resource, container, now);
          r = calculator.rawResourceReplicas(currentReplicas,
              ReplicaCalculator.milli(averageValue), resource, tolerances, selected, metrics,
              now);
        } catch (MetricException e) {
          throw new MetricException("failed to get " + resource + " usage: " + e.getMessage());
        }
        status.put("current", MapValue.ofEntries("averageValue",
            Value.of(milliQuantity(r.usage()))));
        return new MetricProposal(r.replicas(), resource + " resource",
            MapValue.ofEntries("type", Value.of(type),
                isContainer ? "containerResource" : "resource", status.build()));
      }
      if (!Nested.has(target, "averageUtilization")) {
        throw new MetricException("invalid resource metric source: neither an average"
            + " utilization target nor an average value (usage) target was set");
      }
      int targetUtilization = (int) Nested.integer(target, "averageUtilization");
      ReplicaCalculator.UtilizationResult r;
      try {
        Map<String, PodMetric> metrics = ReplicaCalculator.resourceMetrics(
            context.podMetrics(), namespace, selected, resource, container, now);
        r = calculator.resourceReplicas(currentReplicas, targetUtilization, resource,
            tolerances, selected, metrics, container, now);
      } catch (MetricException e) {
        throw new MetricException("failed to get " + resource + " utilization: "
            + e.getMessage());
      }
      String metric = isContainer
          ? resource + " container resource utilization (percentage of request)"
          : resource + " resource utilization (percentage of request)";
      status.put("current", MapValue.ofEntries(
          "averageValue", Value.of(milliQuantity(r.rawUtilization())),
          "averageUtilization", Value.of((long) r.utilization())));
      return new MetricProposal(r.replicas(), metric, MapValue.ofEntries("type", Value.of(type),
          isContainer ? "containerResource" : "resource", status.build()));
    }

    /**
     * The tolerances of this autoscaler: {@code behavior.scaleUp/scaleDown.tolerance} when set
     * (the {@code HPAConfigurableTolerance} feature, on in 1.36), else kube's default.
     */
    private Tolerances tolerances() {
      double down = ReplicaCalculator.DEFAULT_TOLERANCE;
      double up = ReplicaCalculator.DEFAULT_TOLERANCE;
      Value d = Nested.getOrNull(hpa, "spec", "behavior", "scaleDown", "tolerance");
      if (d != null && !d.isNull()) {
        down = ReplicaCalculator.milli(d) / 1000.0;
      }
      Value u = Nested.getOrNull(hpa, "spec", "behavior", "scaleUp", "tolerance");
      if (u != null && !u.isNull()) {
        up = ReplicaCalculator.milli(u) / 1000.0;
      }
      return new Tolerances(down, up);
    }

    /** kube's {@code setConditionInList}: the transition time moves only with the status. */
    private void setCondition(String type, String status, String reason, String message) {
      for (int i = 0; i < conditions.size(); i++) {
        MapValue c = (MapValue) conditions.get(i);
        if (Nested.str(c, "type").equals(type)) {
          MapValue next = c.with("status", Value.of(status)).with("reason", Value.of(reason))
              .with("message", Value.of(message));
          if (!Nested.str(c, "status").equals(status)) {
            next = next.with("lastTransitionTime", Value.of(Meta.formatTime(now)));
          }
          conditions.set(i, next);
          return;
        }
      }
      conditions.add(MapValue.ofEntries("type", Value.of(type), "status", Value.of(status),
          "lastTransitionTime", Value.of(Meta.formatTime(now)), "reason", Value.of(reason),
          "message", Value.of(message)));
    }

    private MapValue newStatus;

    /** kube's {@code setStatus}. */
    private void setStatus(int currentReplicas, int desiredReplicas, List<Value> metrics,
        boolean rescale) {
      // kube rebuilds the status from these fields alone (observedGeneration is not kept)
      MapValue.Builder b = MapValue.builder();
      Value last = Nested.getOrNull(hpa, "status", "lastScaleTime");
      if (rescale) {
        last = Value.of(Meta.formatTime(now));
      }
      if (last != null && !last.isNull()) {
        b.put("lastScaleTime", last);
      }
      if (currentReplicas != 0) {
        b.put("currentReplicas", Value.of((long) currentReplicas)); // omitempty in kube
      }
      b.put("desiredReplicas", Value.of((long) desiredReplicas));
      if (!metrics.isEmpty()) {
        b.put("currentMetrics", ListValue.of(metrics));
      }
      newStatus = b.build();
    }

    /** kube's {@code updateStatusIfNeeded}: a status update when anything changed. */
    private void updateStatusIfNeeded() {
      MapValue status = newStatus != null ? newStatus : statusWithout(originalStatus);
      if (!conditions.isEmpty()) {
        status = status.with("conditions", ListValue.of(conditions));
      }
      if (status.equals(originalStatus)) {
        return;
      }
      try {
        context.api().handle(ApiRequest.builder(ApiRequest.Verb.UPDATE, HPAS)
            .namespace(namespace).name(Meta.metaString(hpa, "name")).subresource("status")
            .body(hpa.with("status", status)).user(user)
            .fieldManager(ControllerContext.FIELD_MANAGER).build()).orThrow();
      } catch (StatusException e) {
        events.warning(about, "FailedUpdateStatus", e.getMessage());
        throw new MetricException("failed to update status for " + Meta.metaString(hpa, "name")
            + ": " + e.getMessage());
      }
    }

    private MapValue statusWithout(MapValue status) {
      return status.without("conditions");
    }
  }

  /**
   * The group resource (kube's {@code GroupResource.String()}) the custom metrics API names an
   * object's kind by: the lower-cased plural of a built-in kind's usual form.
   */
  static String resourceOf(String apiVersion, String kind) {
    String lower = kind.toLowerCase(java.util.Locale.ROOT);
    String plural = lower.endsWith("s") ? lower + "es" : lower.endsWith("y")
        ? lower.substring(0, lower.length() - 1) + "ies" : lower + "s";
    int slash = apiVersion.indexOf('/');
    return slash < 0 ? plural : plural + "." + apiVersion.substring(0, slash);
  }


  /** {@code resource.NewMilliQuantity(v, DecimalSI).String()}. */
  static String milliQuantity(long milli) {
    return new Quantity(BigDecimal.valueOf(milli).movePointLeft(3).stripTrailingZeros(),
        Quantity.DECIMAL_SI).toString();
  }
}
