/*
 * Copyright The apiserver4j authors.
 * SPDX-License-Identifier: Apache-2.0
 */
package io.apiserver4j.controllers.podautoscaler;

import io.apiserver4j.core.MapValue;
import io.apiserver4j.core.Nested;
import io.apiserver4j.core.Value;
import java.time.Duration;
import java.time.Instant;
import java.util.ArrayList;
import java.util.HashMap;
import java.util.List;
import java.util.Map;

/**
 * The part of kube's {@code HorizontalController} that turns a metrics recommendation into the
 * replicas to scale to (pkg/controller/podautoscaler/horizontal.go): the recommendations and
 * scale events it remembers per autoscaler, the stabilization windows, the legacy limits of an
 * autoscaler without {@code behavior} and the scaling policies of one with it, and the
 * {@code AbleToScale}/{@code ScalingLimited} conditions they decide. Times come from the caller
 * (the server clock). Thread-safe.
 */
final class Normalizer {
  private static final double SCALE_UP_LIMIT_FACTOR = 2.0;
  private static final double SCALE_UP_LIMIT_MINIMUM = 4.0;

  /** kube's {@code timestampedRecommendation}. */
  private record Recommendation(int recommendation, Instant timestamp) {}

  /** kube's {@code timestampedScaleEvent}. */
  private static final class ScaleEvent {
    final int replicaChange;
    final Instant timestamp;
    boolean outdated;

    ScaleEvent(int replicaChange, Instant timestamp) {
      this.replicaChange = replicaChange;
      this.timestamp = timestamp;
    }
  }

  /** A condition decided by the normalization: type, status, reason, message. */
  record Condition(String type, String status, String reason, String message) {}

  /** The replicas to scale to and the conditions to set, in order. */
  record Outcome(int desiredReplicas, List<Condition> conditions) {}

  private final Duration downscaleStabilisationWindow;
  private final Map<String, List<Recommendation>> recommendations = new HashMap<>();
  private final Map<String, List<ScaleEvent>> scaleUpEvents = new HashMap<>();
  private final Map<String, List<ScaleEvent>> scaleDownEvents = new HashMap<>();

  Normalizer(Duration downscaleStabilisationWindow) {
    this.downscaleStabilisationWindow = downscaleStabilisationWindow;
  }

  /** Forgets a deleted autoscaler. */
  /** Forgets every autoscaler: a reset in place. */
  synchronized void clear() {
    recommendations.clear();
    scaleUpEvents.clear();
    scaleDownEvents.clear();
  }

  synchronized void forget(String key) {
    recommendations.remove(key);
    scaleUpEvents.remove(key);
    scaleDownEvents.remove(key);
  }

  /** kube's {@code recordInitialRecommendation}. */
  synchronized void recordInitialRecommendation(int currentReplicas, String key, Instant now) {
    recommendations.computeIfAbsent(key, k -> {
      List<Recommendation> l = new ArrayList<>();
      l.add(new Recommendation(currentReplicas, now));
      return l;
    });
  }

  /**
   * kube's {@code normalizeDesiredReplicas} (no {@code behavior}) or
   * {@code normalizeDesiredReplicasWithBehaviors}, {@code behavior} being the defaulted
   * {@code spec.behavior} or null.
   */
  synchronized Outcome normalize(String key, MapValue behavior, int currentReplicas,
      int prenormalized, int minReplicas, int maxReplicas, Instant now) {
    List<Condition> conditions = new ArrayList<>();
    if (behavior == null) {
      int stabilized = stabilize(key, prenormalized, now);
      if (stabilized != prenormalized) {
        conditions.add(new Condition("AbleToScale", "True", "ScaleDownStabilized",
            "recent recommendations were higher than current one, applying the highest recent"
                + " recommendation"));
      } else {
        conditions.add(new Condition("AbleToScale", "True", "ReadyForNewScale",
            "recommended size matches current size"));
      }
      Limited l = convertWithRules(currentReplicas, stabilized, minReplicas, maxReplicas);
      conditions.add(new Condition("ScalingLimited", l.replicas == stabilized ? "False" : "True",
          l.reason, l.message));
      return new Outcome(l.replicas, conditions);
    }
    MapValue up = rules(behavior, "scaleUp");
    MapValue down = rules(behavior, "scaleDown");
    Limited s = stabilizeWithBehaviors(key, up, down, currentReplicas, prenormalized, now);
    if (s.replicas != prenormalized) {
      conditions.add(new Condition("AbleToScale", "True", s.reason, s.message));
    } else {
      conditions.add(new Condition("AbleToScale", "True", "ReadyForNewScale",
          "recommended size matches current size"));
    }
    Limited l = convertWithBehaviorRate(key, up, down, minReplicas, maxReplicas,
        currentReplicas, s.replicas, now);
    conditions.add(new Condition("ScalingLimited", l.replicas == s.replicas ? "False" : "True",
        l.reason, l.message));
    return new Outcome(l.replicas, conditions);
  }

  /**
   * The rules of one direction, with the stabilization window of a scale-down that has none
   * set to {@code --horizontal-pod-autoscaler-downscale-stabilization}
   * ({@code maybeInitScaleDownStabilizationWindow}).
   */
  private MapValue rules(MapValue behavior, String direction) {
    MapValue r = Nested.map(behavior, direction);
    if (direction.equals("scaleDown") && !Nested.has(r, "stabilizationWindowSeconds")) {
      r = r.with("stabilizationWindowSeconds",
          Value.of(downscaleStabilisationWindow.toSeconds()));
    }
    return r;
  }

  /** Replicas after a limit, with the reason and message of the ScalingLimited condition. */
  record Limited(int replicas, String reason, String message) {}

  /** Records a recommendation made at {@code at}, as kube's tests seed its log. */
  synchronized void recordRecommendation(String key, int recommendation, Instant at) {
    recommendations.computeIfAbsent(key, k -> new ArrayList<>())
        .add(new Recommendation(recommendation, at));
  }

  /** How many recommendations the log of {@code key} holds. */
  synchronized int recommendationCount(String key) {
    return recommendations.getOrDefault(key, List.of()).size();
  }

  /** kube's {@code stabilizeRecommendation}, on its own. */
  synchronized int stabilizeRecommendation(String key, int prenormalized, Instant now) {
    return stabilize(key, prenormalized, now);
  }

  /** kube's {@code stabilizeRecommendation}: the highest recommendation within the window. */
  private int stabilize(String key, int prenormalized, Instant now) {
    int max = prenormalized;
    int oldIndex = -1;
    Instant cutoff = now.minus(downscaleStabilisationWindow);
    List<Recommendation> recs = recommendations.computeIfAbsent(key, k -> new ArrayList<>());
    for (int i = 0; i < recs.size(); i++) {
      Recommendation r = recs.get(i);
      if (r.timestamp.isBefore(cutoff)) {
        oldIndex = i;
      } else if (r.recommendation > max) {
        max = r.recommendation;
      }
    }
    Recommendation fresh = new Recommendation(prenormalized, now);
    if (oldIndex >= 0) {
      recs.set(oldIndex, fresh);
    } else {
      recs.add(fresh);
    }
    return max;
  }

  /** kube's {@code convertDesiredReplicasWithRules}. */
  static Limited convertWithRules(int currentReplicas, int desired, int min, int max) {
    int scaleUpLimit = calculateScaleUpLimit(currentReplicas);
    int maximumAllowed;
    String reason;
    String message;
    if (max > scaleUpLimit) {
      maximumAllowed = scaleUpLimit;
      reason = "ScaleUpLimit";
      message = "the desired replica count is increasing faster than the maximum scale rate";
    } else {
      maximumAllowed = max;
      reason = "TooManyReplicas";
      message = "the desired replica count is more than the maximum replica count";
    }
    if (desired < min) {
      return new Limited(min, "TooFewReplicas",
          "the desired replica count is less than the minimum replica count");
    } else if (desired > maximumAllowed) {
      return new Limited(maximumAllowed, reason, message);
    }
    return new Limited(desired, "DesiredWithinRange",
        "the desired count is within the acceptable range");
  }

  /** kube's {@code calculateScaleUpLimit}. */
  static int calculateScaleUpLimit(int currentReplicas) {
    return (int) Math.max(SCALE_UP_LIMIT_FACTOR * currentReplicas, SCALE_UP_LIMIT_MINIMUM);
  }

  /** kube's {@code stabilizeRecommendationWithBehaviors}. */
  private Limited stabilizeWithBehaviors(String key, MapValue up, MapValue down,
      int currentReplicas, int desired, Instant now) {
    int upRecommendation = desired;
    Instant upCutoff = now.minusSeconds(Nested.integer(up, "stabilizationWindowSeconds"));
    int downRecommendation = desired;
    Instant downCutoff = now.minusSeconds(Nested.integer(down, "stabilizationWindowSeconds"));
    int oldIndex = -1;
    List<Recommendation> recs = recommendations.computeIfAbsent(key, k -> new ArrayList<>());
    for (int i = 0; i < recs.size(); i++) {
      Recommendation r = recs.get(i);
      if (r.timestamp.isAfter(upCutoff)) {
        upRecommendation = Math.min(r.recommendation, upRecommendation);
      }
      if (r.timestamp.isAfter(downCutoff)) {
        downRecommendation = Math.max(r.recommendation, downRecommendation);
      }
      if (r.timestamp.isBefore(upCutoff) && r.timestamp.isBefore(downCutoff)) {
        oldIndex = i;
      }
    }
    int recommendation = currentReplicas;
    if (recommendation < upRecommendation) {
      recommendation = upRecommendation;
    }
    if (recommendation > downRecommendation) {
      recommendation = downRecommendation;
    }
    Recommendation fresh = new Recommendation(desired, now);
    if (oldIndex >= 0) {
      recs.set(oldIndex, fresh);
    } else {
      recs.add(fresh);
    }
    if (desired >= currentReplicas) {
      return new Limited(recommendation, "ScaleUpStabilized",
          "recent recommendations were lower than current one, applying the lowest recent"
              + " recommendation");
    }
    return new Limited(recommendation, "ScaleDownStabilized",
        "recent recommendations were higher than current one, applying the highest recent"
            + " recommendation");
  }

  /** kube's {@code convertDesiredReplicasWithBehaviorRate}. */
  private Limited convertWithBehaviorRate(String key, MapValue up, MapValue down, int min,
      int max, int currentReplicas, int desired, Instant now) {
    List<ScaleEvent> ups = scaleUpEvents.getOrDefault(key, List.of());
    List<ScaleEvent> downs = scaleDownEvents.getOrDefault(key, List.of());
    if (desired > currentReplicas) {
      int scaleUpLimit = scaleUpLimitWithRules(currentReplicas, ups, downs, up, now);
      if (scaleUpLimit < currentReplicas) {
        scaleUpLimit = currentReplicas;
      }
      int maximumAllowed = max;
      String reason;
      String message;
      if (maximumAllowed > scaleUpLimit) {
        maximumAllowed = scaleUpLimit;
        reason = "ScaleUpLimit";
        message = "the desired replica count is increasing faster than the maximum scale rate";
      } else {
        reason = "TooManyReplicas";
        message = "the desired replica count is more than the maximum replica count";
      }
      if (desired > maximumAllowed) {
        return new Limited(maximumAllowed, reason, message);
      }
    } else if (desired < currentReplicas) {
      int scaleDownLimit = scaleDownLimitWithRules(currentReplicas, ups, downs, down, now);
      if (scaleDownLimit > currentReplicas) {
        scaleDownLimit = currentReplicas;
      }
      int minimumAllowed = min;
      String reason;
      String message;
      if (minimumAllowed < scaleDownLimit) {
        minimumAllowed = scaleDownLimit;
        reason = "ScaleDownLimit";
        message = "the desired replica count is decreasing faster than the maximum scale rate";
      } else {
        reason = "TooFewReplicas";
        message = "the desired replica count is less than the minimum replica count";
      }
      if (desired < minimumAllowed) {
        return new Limited(minimumAllowed, reason, message);
      }
    }
    return new Limited(desired, "DesiredWithinRange",
        "the desired count is within the acceptable range");
  }

  /** kube's {@code getReplicasChangePerPeriod}. */
  private static int changePerPeriod(long periodSeconds, List<ScaleEvent> events, Instant now) {
    Instant cutoff = now.minusSeconds(periodSeconds);
    int replicas = 0;
    for (ScaleEvent e : events) {
      if (e.timestamp.isAfter(cutoff)) {
        replicas += e.replicaChange;
      }
    }
    return replicas;
  }

  /** kube's {@code calculateScaleUpLimitWithScalingRules}. */
  private static int scaleUpLimitWithRules(int currentReplicas, List<ScaleEvent> ups,
      List<ScaleEvent> downs, MapValue rules, Instant now) {
    String select = Nested.str(rules, "selectPolicy");
    if (select.equals("Disabled")) {
      return currentReplicas;
    }
    boolean minChange = select.equals("Min");
    long result = minChange ? Integer.MAX_VALUE : Integer.MIN_VALUE;
    for (Value p : Nested.list(rules, "policies")) {
      long period = Nested.integer(p, "periodSeconds");
      int start = currentReplicas - changePerPeriod(period, ups, now)
          + changePerPeriod(period, downs, now);
      long value = Nested.integer(p, "value");
      long proposed = 0;
      String type = Nested.str(p, "type");
      if (type.equals("Pods")) {
        proposed = start + value;
      } else if (type.equals("Percent")) {
        // rounded up, or a small target could never grow
        proposed = (long) Math.ceil(start * (1 + value / 100.0));
      }
      result = minChange ? Math.min(result, proposed) : Math.max(result, proposed);
    }
    return (int) result;
  }

  /** kube's {@code calculateScaleDownLimitWithBehaviors}. */
  private static int scaleDownLimitWithRules(int currentReplicas, List<ScaleEvent> ups,
      List<ScaleEvent> downs, MapValue rules, Instant now) {
    String select = Nested.str(rules, "selectPolicy");
    if (select.equals("Disabled")) {
      return currentReplicas;
    }
    boolean minChange = select.equals("Min");
    long result = minChange ? Integer.MIN_VALUE : Integer.MAX_VALUE;
    for (Value p : Nested.list(rules, "policies")) {
      long period = Nested.integer(p, "periodSeconds");
      int start = currentReplicas - changePerPeriod(period, ups, now)
          + changePerPeriod(period, downs, now);
      long value = Nested.integer(p, "value");
      long proposed = 0;
      String type = Nested.str(p, "type");
      if (type.equals("Pods")) {
        proposed = start - value;
      } else if (type.equals("Percent")) {
        proposed = (long) (start * (1 - value / 100.0));
      }
      result = minChange ? Math.max(result, proposed) : Math.min(result, proposed);
    }
    return (int) result;
  }

  /** kube's {@code storeScaleEvent}: only an autoscaler with {@code behavior} keeps them. */
  synchronized void storeScaleEvent(MapValue behavior, String key, int prevReplicas,
      int newReplicas, Instant now) {
    if (behavior == null) {
      return;
    }
    boolean up = newReplicas > prevReplicas;
    MapValue rules = rules(behavior, up ? "scaleUp" : "scaleDown");
    long longest = 0;
    for (Value p : Nested.list(rules, "policies")) {
      longest = Math.max(longest, Nested.integer(p, "periodSeconds"));
    }
    List<ScaleEvent> events = (up ? scaleUpEvents : scaleDownEvents)
        .computeIfAbsent(key, k -> new ArrayList<>());
    Instant cutoff = now.minusSeconds(longest);
    int oldIndex = -1;
    for (int i = 0; i < events.size(); i++) {
      ScaleEvent e = events.get(i);
      if (e.timestamp.isBefore(cutoff)) {
        e.outdated = true;
      }
      if (e.outdated) {
        oldIndex = i;
      }
    }
    ScaleEvent fresh = new ScaleEvent(up ? newReplicas - prevReplicas
        : prevReplicas - newReplicas, now);
    if (oldIndex >= 0) {
      events.set(oldIndex, fresh);
    } else {
      events.add(fresh);
    }
  }
}
