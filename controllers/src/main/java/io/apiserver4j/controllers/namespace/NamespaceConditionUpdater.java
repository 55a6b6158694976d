/*
 * Copyright The apiserver4j authors.
 * SPDX-License-Identifier: Apache-2.0
 */
package io.apiserver4j.controllers.namespace;

import io.apiserver4j.core.ListValue;
import io.apiserver4j.core.MapValue;
import io.apiserver4j.core.Nested;
import io.apiserver4j.core.Value;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.Optional;

/**
 * kube's {@code namespaceConditionUpdater} (pkg/controller/namespace/deletion/
 * status_condition_utils.go): what one pass of the deleter ran into, turned into the five
 * deletion conditions of a namespace's status, each {@code True} with kube's reason and message
 * when it happened, else {@code False} with kube's "ok" reason and message. Not thread-safe: one
 * per pass.
 */
final class NamespaceConditionUpdater {
  static final String DISCOVERY_FAILURE = "NamespaceDeletionDiscoveryFailure";
  static final String GROUP_VERSION_PARSING_FAILURE = "NamespaceDeletionGroupVersionParsingFailure";
  static final String CONTENT_FAILURE = "NamespaceDeletionContentFailure";
  static final String CONTENT_REMAINING = "NamespaceContentRemaining";
  static final String FINALIZERS_REMAINING = "NamespaceFinalizersRemaining";

  /** kube's {@code conditionTypes}, in its order. */
  static final List<String> TYPES = List.of(DISCOVERY_FAILURE, GROUP_VERSION_PARSING_FAILURE,
      CONTENT_FAILURE, CONTENT_REMAINING, FINALIZERS_REMAINING);
  private static final Map<String, String> OK_MESSAGES = Map.of(
      DISCOVERY_FAILURE, "All resources successfully discovered",
      GROUP_VERSION_PARSING_FAILURE, "All legacy kube types successfully parsed",
      CONTENT_FAILURE, "All content successfully deleted, may be waiting on finalization",
      CONTENT_REMAINING, "All content successfully removed",
      FINALIZERS_REMAINING, "All content successfully removed");
  private static final Map<String, String> OK_REASONS = Map.of(
      DISCOVERY_FAILURE, "ResourcesDiscovered",
      GROUP_VERSION_PARSING_FAILURE, "ParsedGroupVersions",
      CONTENT_FAILURE, "ContentDeleted",
      CONTENT_REMAINING, "ContentRemoved",
      FINALIZERS_REMAINING, "ContentRemoved");

  /** A condition before it is stored. */
  record Condition(String type, String status, String reason, String message) {}

  private final String now;
  private final List<Condition> newConditions = new ArrayList<>();
  private final List<String> deleteContentErrors = new ArrayList<>();

  /** @param now the time transitions are stamped with, as RFC 3339 */
  NamespaceConditionUpdater(String now) {
    this.now = now;
  }

  /** kube's {@code ProcessGroupVersionErr}. */
  void processGroupVersionError(String message) {
    newConditions.add(new Condition(GROUP_VERSION_PARSING_FAILURE, "True",
        "GroupVersionParsingFailed", message));
  }

  /**
   * kube's {@code ProcessDiscoverResourcesErr}: a discovery failure of {@code failedGroups}
   * groups (kube's {@code ErrGroupDiscoveryFailed}) is counted in the message; another failure
   * ({@code failedGroups} empty) is its message alone.
   */
  void processDiscoverResourcesError(String message, int failedGroups) {
    String msg = failedGroups > 0 ? "Discovery failed for some groups, " + failedGroups
        + " failing: " + message : message;
    newConditions.add(new Condition(DISCOVERY_FAILURE, "True", "DiscoveryFailed", msg));
  }

  /**
   * kube's {@code ProcessContentTotals}: what remains, by resource ({@code "<resource>.<group>"}
   * to count) and by finalizer (name to count).
   */
  void processContentTotals(Map<String, Integer> remainingByResource,
      Map<String, Integer> remainingByFinalizer) {
    if (!remainingByResource.isEmpty()) {
      List<String> parts = new ArrayList<>();
      remainingByResource.forEach((resource, n) -> {
        if (n != 0) {
          parts.add(resource + " has " + n + " resource instances");
        }
      });
      parts.sort(null);
      newConditions.add(new Condition(CONTENT_REMAINING, "True", "SomeResourcesRemain",
          "Some resources are remaining: " + String.join(", ", parts)));
    }
    if (!remainingByFinalizer.isEmpty()) {
      List<String> parts = new ArrayList<>();
      remainingByFinalizer.forEach((finalizer, n) -> {
        if (n != 0) {
          parts.add(finalizer + " in " + n + " resource instances");
        }
      });
      parts.sort(null);
      newConditions.add(new Condition(FINALIZERS_REMAINING, "True", "SomeFinalizerRemain",
          "Some finalizers are remaining: " + String.join(", ", parts)));
    }
  }

  /** kube's {@code ProcessDeleteContentErr}. */
  void processDeleteContentError(String message) {
    deleteContentErrors.add(message);
  }

  /**
   * kube's {@code Update}: {@code namespace} with its conditions brought up to date, if any
   * changed (a condition keeps its transition time unless its status changed).
   */
  Optional<MapValue> update(MapValue namespace) {
    if (find(newConditions, CONTENT_FAILURE).isEmpty() && !deleteContentErrors.isEmpty()) {
      List<String> msgs = new ArrayList<>(deleteContentErrors);
      msgs.sort(null);
      newConditions.add(new Condition(CONTENT_FAILURE, "True", "ContentDeletionFailed",
          "Failed to delete all resource types, " + msgs.size() + " remaining: "
              + String.join(", ", msgs)));
    }
    return updateConditions(namespace, newConditions, now);
  }

  /** The conditions processed so far, in order. */
  List<Condition> newConditions() {
    return List.copyOf(newConditions);
  }

  /**
   * kube's {@code updateConditions}: each of {@link #TYPES} set to its new condition, else to
   * its "ok" variant, stamped {@code now} where its status changes or it is new; other
   * conditions kept. Empty when nothing changed.
   */
  static Optional<MapValue> updateConditions(MapValue namespace, List<Condition> newConditions,
      String now) {
    List<Value> conditions = new ArrayList<>(Nested.list(namespace, "status", "conditions"));
    boolean changed = false;
    for (String type : TYPES) {
      Condition wanted = find(newConditions, type).orElseGet(() ->
          new Condition(type, "False", OK_REASONS.get(type), OK_MESSAGES.get(type)));
      int at = indexOf(conditions, type);
      if (at < 0) {
        conditions.add(toValue(wanted, now));
        changed = true;
        continue;
      }
      MapValue old = (MapValue) conditions.get(at);
      if (!wanted.status().equals(Nested.str(old, "status"))
          || !wanted.message().equals(Nested.str(old, "message"))
          || !wanted.reason().equals(Nested.str(old, "reason"))) {
        String time = wanted.status().equals(Nested.str(old, "status"))
            ? Nested.str(old, "lastTransitionTime") : now;
        conditions.set(at, toValue(wanted, time));
        changed = true;
      }
    }
    if (!changed) {
      return Optional.empty();
    }
    return Optional.of(Nested.set(namespace, ListValue.of(conditions), "status", "conditions"));
  }

  private static MapValue toValue(Condition c, String time) {
    MapValue.Builder b = MapValue.builder().put("type", Value.of(c.type()))
        .put("status", Value.of(c.status()));
    if (time != null && !time.isEmpty()) {
      b.put("lastTransitionTime", Value.of(time));
    }
    return b.put("reason", Value.of(c.reason())).put("message", Value.of(c.message())).build();
  }

  private static Optional<Condition> find(List<Condition> conditions, String type) {
    return conditions.stream().filter(c -> c.type().equals(type)).findFirst();
  }

  private static int indexOf(List<Value> conditions, String type) {
    for (int i = 0; i < conditions.size(); i++) {
      if (conditions.get(i) instanceof MapValue m && type.equals(Nested.str(m, "type"))) {
        return i;
      }
    }
    return -1;
  }
}
