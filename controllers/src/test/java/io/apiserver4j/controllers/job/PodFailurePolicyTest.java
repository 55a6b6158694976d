/*
 * Copyright The apiserver4j authors.
 * SPDX-License-Identifier: Apache-2.0
 */
package io.apiserver4j.controllers.job;

import static org.assertj.core.api.Assertions.assertThat;

import io.apiserver4j.core.Json;
import io.apiserver4j.core.MapValue;
import java.util.Optional;
import java.util.stream.Stream;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.Arguments;
import org.junit.jupiter.params.provider.MethodSource;

/**
 * kube's {@code TestMatchPodFailurePolicy} (pkg/controller/job/pod_failure_policy_test.go) with
 * kube's expected messages, counting and actions; FailIndex cases as in 1.36, where
 * JobBackoffLimitPerIndex is on.
 */
class PodFailurePolicyTest {
  private static final String MAIN_EXIT_2 = "{\"phase\":\"Failed\",\"containerStatuses\":[{"
      + "\"name\":\"main-container\",\"state\":{\"terminated\":{\"exitCode\":2}}}]}";
  private static final String DISRUPTED = "{\"phase\":\"Failed\",\"conditions\":[{\"type\":"
      + "\"DisruptionTarget\",\"status\":\"True\"}]}";

  private static String exitRule(String action, String op, String values) {
    return "{\"action\":\"" + action + "\",\"onExitCodes\":{\"operator\":\"" + op
        + "\",\"values\":[" + values + "]}}";
  }

  private static String conditionRule(String action, String status) {
    return "{\"action\":\"" + action + "\",\"onPodConditions\":[{\"type\":\"DisruptionTarget\","
        + "\"status\":\"" + status + "\"}]}";
  }

  static Stream<Arguments> cases() {
    String msg = "Container main-container for pod default/mypod failed with exit code ";
    return Stream.of(
        Arguments.of("unknown action for rule matching by exit codes - skip rule with unknown "
            + "action", "[" + exitRule("UnknownAction", "In", "1,2") + ","
            + exitRule("FailJob", "In", "2,3") + "]", MAIN_EXIT_2,
            msg + "2 matching FailJob rule at index 1", true, "FailJob"),
        Arguments.of("unknown action for rule matching by pod conditions - skip rule with "
            + "unknown action", "[" + conditionRule("UnkonwnAction", "True") + ","
            + conditionRule("Ignore", "True") + "]", DISRUPTED, null, false, "Ignore"),
        Arguments.of("unknown operator - rule with unknown action is skipped for onExitCodes",
            "[" + exitRule("Ignore", "UnknownOperator", "1,2") + ","
            + exitRule("FailJob", "In", "2,3") + "]", MAIN_EXIT_2,
            msg + "2 matching FailJob rule at index 1", true, "FailJob"),
        Arguments.of("no policy rules", null, MAIN_EXIT_2, null, true, null),
        Arguments.of("ignore rule matched for exit codes", "[" + exitRule("Ignore", "In",
            "1,2,3") + "]", MAIN_EXIT_2, null, false, "Ignore"),
        Arguments.of("FailJob rule matched for exit codes", "[" + exitRule("FailJob", "In",
            "1,2,3") + "]", MAIN_EXIT_2, msg + "2 matching FailJob rule at index 0", true,
            "FailJob"),
        Arguments.of("successful containers are skipped by the rules", "["
            + exitRule("FailJob", "NotIn", "111") + "]", "{\"phase\":\"Failed\","
            + "\"initContainerStatuses\":[{\"name\":\"init-container\",\"state\":{\"terminated\":"
            + "{\"exitCode\":0}}}],\"containerStatuses\":[{\"name\":\"main-container\",\"state\":"
            + "{\"terminated\":{\"exitCode\":111}}},{\"name\":\"suppport-container\",\"state\":"
            + "{\"terminated\":{\"exitCode\":0}}}]}", null, true, null),
        Arguments.of("FailIndex rule matched for exit codes; JobBackoffLimitPerIndex enabled",
            "[" + exitRule("FailIndex", "In", "1,2,3") + "]", MAIN_EXIT_2, null, true,
            "FailIndex"),
        Arguments.of("pod failure policy with NotIn operator and value 0", "["
            + exitRule("FailJob", "NotIn", "0") + "]", "{\"phase\":\"Failed\","
            + "\"containerStatuses\":[{\"name\":\"main-container\",\"state\":{\"terminated\":"
            + "{\"exitCode\":1}}},{\"name\":\"suppport-container\",\"state\":{\"terminated\":"
            + "{\"exitCode\":0}}}]}", msg + "1 matching FailJob rule at index 0", true,
            "FailJob"),
        Arguments.of("second jobfail rule matched for exit codes", "["
            + exitRule("Count", "In", "1,2,3") + "," + exitRule("FailJob", "In", "4,5,6") + "]",
            "{\"phase\":\"Failed\",\"containerStatuses\":[{\"name\":\"main-container\","
            + "\"state\":{\"terminated\":{\"exitCode\":6}}}]}",
            msg + "6 matching FailJob rule at index 1", true, "FailJob"),
        Arguments.of("count rule matched for exit codes", "[" + exitRule("Count", "In", "1,2,3")
            + "]", "{\"phase\":\"Failed\",\"containerStatuses\":[{\"name\":\"foo\"},{\"name\":"
            + "\"bar\",\"state\":{\"terminated\":{\"exitCode\":2}}}]}", null, true, "Count"),
        Arguments.of("FailIndex rule matched for pod conditions; JobBackoffLimitPerIndex "
            + "enabled", "[" + conditionRule("FailIndex", "True") + "]", DISRUPTED, null, true,
            "FailIndex"),
        Arguments.of("ignore rule matched for pod conditions", "["
            + conditionRule("Ignore", "True") + "]", DISRUPTED, null, false, "Ignore"));
  }

  @ParameterizedTest(name = "{0}")
  @MethodSource("cases")
  void matchPodFailurePolicy(String name, String rules, String podStatus, String message,
      boolean countFailed, String action) {
    MapValue job = (MapValue) Json.read("{\"spec\":{" + (rules == null ? ""
        : "\"podFailurePolicy\":{\"rules\":" + rules + "}") + "}}");
    MapValue pod = (MapValue) Json.read("{\"metadata\":{\"namespace\":\"default\",\"name\":"
        + "\"mypod\"},\"status\":" + podStatus + "}");
    PodFailurePolicy.Match m = PodFailurePolicy.match(job, pod);
    assertThat(m.failJobMessage()).isEqualTo(Optional.ofNullable(message));
    assertThat(m.countFailed()).isEqualTo(countFailed);
    assertThat(m.action()).isEqualTo(Optional.ofNullable(action));
  }
}
