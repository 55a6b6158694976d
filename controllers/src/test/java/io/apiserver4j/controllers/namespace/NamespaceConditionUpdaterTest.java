/*
 * Copyright The apiserver4j authors.
 * SPDX-License-Identifier: Apache-2.0
 */
package io.apiserver4j.controllers.namespace;

import static org.assertj.core.api.Assertions.assertThat;

import io.apiserver4j.controllers.namespace.NamespaceConditionUpdater.Condition;
import io.apiserver4j.core.Json;
import io.apiserver4j.core.MapValue;
import io.apiserver4j.core.Nested;
import io.apiserver4j.core.Value;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.TreeMap;
import java.util.stream.Stream;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.Arguments;
import org.junit.jupiter.params.provider.MethodSource;

/**
 * The cases of kube's status_condition_utils_test.go ({@code TestUpdateConditions},
 * {@code TestProcessContentTotals}) with its expected conditions, and kube's messages of the
 * failure conditions.
 */
class NamespaceConditionUpdaterTest {
  private static final String NOW = "2026-01-01T00:00:00Z";
  private static final String DISCOVERY = "NamespaceDeletionDiscoveryFailure";
  private static final String PARSING = "NamespaceDeletionGroupVersionParsingFailure";
  private static final String CONTENT = "NamespaceDeletionContentFailure";
  private static final String REMAINING = "NamespaceContentRemaining";
  private static final String FINALIZERS = "NamespaceFinalizersRemaining";

  /** kube's {@code newSuccessfulCondition}, as type|status|reason|message. */
  private static String ok(String type) {
    return switch (type) {
      case DISCOVERY -> type + "|False|ResourcesDiscovered|All resources successfully discovered";
      case PARSING -> type + "|False|ParsedGroupVersions|All legacy kube types successfully parsed";
      case CONTENT -> type + "|False|ContentDeleted|All content successfully deleted, may be"
          + " waiting on finalization";
      case REMAINING -> type + "|False|ContentRemoved|All content successfully removed";
      case FINALIZERS -> type + "|False|ContentRemoved|All content successfully removed";
      default -> throw new IllegalArgumentException(type);
    };
  }

  static Stream<Arguments> updateConditions() {
    Condition fooBar = new Condition(PARSING, "True", "foo", "bar");
    return Stream.of(
        Arguments.of("leave unknown", List.of(), "[{\"type\":\"unknown\",\"status\":\"True\"}]",
            List.of("unknown|True||", ok(DISCOVERY), ok(PARSING), ok(CONTENT), ok(REMAINING),
                ok(FINALIZERS))),
        Arguments.of("replace with success", List.of(),
            "[{\"type\":\"" + DISCOVERY + "\",\"status\":\"True\"}]",
            List.of(ok(DISCOVERY), ok(PARSING), ok(CONTENT), ok(REMAINING), ok(FINALIZERS))),
        Arguments.of("leave different order", List.of(),
            "[{\"type\":\"" + PARSING + "\",\"status\":\"True\"},"
                + "{\"type\":\"" + DISCOVERY + "\",\"status\":\"True\"}]",
            List.of(ok(PARSING), ok(DISCOVERY), ok(CONTENT), ok(REMAINING), ok(FINALIZERS))),
        Arguments.of("overwrite with failure", List.of(fooBar),
            "[{\"type\":\"" + PARSING + "\",\"status\":\"False\"},"
                + "{\"type\":\"" + DISCOVERY + "\",\"status\":\"True\"}]",
            List.of(PARSING + "|True|foo|bar", ok(DISCOVERY), ok(CONTENT), ok(REMAINING),
                ok(FINALIZERS))),
        Arguments.of("write new failure", List.of(fooBar),
            "[{\"type\":\"" + DISCOVERY + "\",\"status\":\"True\"}]",
            List.of(ok(DISCOVERY), PARSING + "|True|foo|bar", ok(CONTENT), ok(REMAINING),
                ok(FINALIZERS))));
  }

  @ParameterizedTest(name = "{0}")
  @MethodSource
  void updateConditions(String name, List<Condition> newConditions, String starting,
      List<String> expected) {
    MapValue ns = (MapValue) Json.read("{\"metadata\":{\"name\":\"ns\"},\"status\":{"
        + "\"conditions\":" + starting + "}}");
    MapValue updated = NamespaceConditionUpdater.updateConditions(ns, newConditions, NOW)
        .orElseThrow();
    assertThat(summaries(updated)).containsExactlyElementsOf(expected);
  }

  @Test
  void unchangedConditionsAreNotWrittenAgain() {
    MapValue ns = (MapValue) Json.read("{\"metadata\":{\"name\":\"ns\"}}");
    MapValue once = NamespaceConditionUpdater.updateConditions(ns, List.of(), NOW).orElseThrow();
    assertThat(NamespaceConditionUpdater.updateConditions(once, List.of(),
        "2026-01-01T00:01:00Z")).isEmpty();
  }

  @Test
  void aTransitionIsStampedAndAMessageChangeIsNot() {
    MapValue ns = (MapValue) Json.read("{\"metadata\":{\"name\":\"ns\"}}");
    MapValue first = NamespaceConditionUpdater.updateConditions(ns,
        List.of(new Condition(REMAINING, "True", "SomeResourcesRemain", "a")), NOW).orElseThrow();
    MapValue second = NamespaceConditionUpdater.updateConditions(first,
        List.of(new Condition(REMAINING, "True", "SomeResourcesRemain", "b")),
        "2026-01-01T00:01:00Z").orElseThrow();
    MapValue third = NamespaceConditionUpdater.updateConditions(second, List.of(),
        "2026-01-01T00:02:00Z").orElseThrow();
    assertThat(time(second, REMAINING)).isEqualTo(NOW);
    assertThat(time(third, REMAINING)).isEqualTo("2026-01-01T00:02:00Z");
  }

  static Stream<Arguments> processContentTotals() {
    Map<String, Integer> resources = new TreeMap<>(Map.of("daemonsets.apps.k8s.io", 5,
        "deployments.apps.k8s.io", 5));
    Map<String, Integer> finalizers = new TreeMap<>(Map.of("service-catalog", 6, "kubedb", 5));
    String remaining = REMAINING + "|True|SomeResourcesRemain|Some resources are remaining:"
        + " daemonsets.apps.k8s.io has 5 resource instances, deployments.apps.k8s.io has 5"
        + " resource instances";
    String finalizing = FINALIZERS + "|True|SomeFinalizerRemain|Some finalizers are remaining:"
        + " kubedb in 5 resource instances, service-catalog in 6 resource instances";
    return Stream.of(
        Arguments.of("nothing", Map.of(), Map.of(), List.of()),
        Arguments.of("just remaining", resources, Map.of(), List.of(remaining)),
        Arguments.of("just finalizers", Map.of(), finalizers, List.of(finalizing)),
        Arguments.of("both", resources, finalizers, List.of(remaining, finalizing)));
  }

  @ParameterizedTest(name = "{0}")
  @MethodSource
  void processContentTotals(String name, Map<String, Integer> byResource,
      Map<String, Integer> byFinalizer, List<String> expected) {
    NamespaceConditionUpdater u = new NamespaceConditionUpdater(NOW);
    u.processContentTotals(byResource, byFinalizer);
    assertThat(u.newConditions().stream().map(c -> c.type() + "|" + c.status() + "|"
        + c.reason() + "|" + c.message()).toList()).containsExactlyElementsOf(expected);
  }

  @Test
  void failuresGetKubesReasonsAndMessages() {
    NamespaceConditionUpdater u = new NamespaceConditionUpdater(NOW);
    u.processDiscoverResourcesError("unable to retrieve the complete list of server APIs:"
        + " metrics.k8s.io/v1beta1: the server is currently unable to handle the request", 1);
    u.processGroupVersionError("unexpected GroupVersion string: a/b/c");
    u.processDeleteContentError("b failed");
    u.processDeleteContentError("a failed");
    MapValue updated = u.update((MapValue) Json.read("{\"metadata\":{\"name\":\"ns\"}}"))
        .orElseThrow();
    assertThat(summaries(updated)).containsExactly(
        DISCOVERY + "|True|DiscoveryFailed|Discovery failed for some groups, 1 failing: unable"
            + " to retrieve the complete list of server APIs: metrics.k8s.io/v1beta1: the server"
            + " is currently unable to handle the request",
        PARSING + "|True|GroupVersionParsingFailed|unexpected GroupVersion string: a/b/c",
        CONTENT + "|True|ContentDeletionFailed|Failed to delete all resource types, 2"
            + " remaining: a failed, b failed",
        ok(REMAINING), ok(FINALIZERS));
  }

  private static List<String> summaries(MapValue ns) {
    List<String> out = new ArrayList<>();
    for (Value c : Nested.list(ns, "status", "conditions")) {
      out.add(Nested.str(c, "type") + "|" + Nested.str(c, "status") + "|"
          + Nested.str(c, "reason") + "|" + Nested.str(c, "message"));
    }
    return out;
  }

  private static String time(MapValue ns, String type) {
    for (Value c : Nested.list(ns, "status", "conditions")) {
      if (type.equals(Nested.str(c, "type"))) {
        return Nested.str(c, "lastTransitionTime");
      }
    }
    throw new AssertionError(type);
  }
}
