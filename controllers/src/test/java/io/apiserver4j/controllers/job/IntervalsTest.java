/*
 * Copyright The apiserver4j authors.
 * SPDX-License-Identifier: Apache-2.0
 */
package io.apiserver4j.controllers.job;

import static org.assertj.core.api.Assertions.assertThat;

import java.util.ArrayList;
import java.util.List;
import java.util.stream.Stream;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.Arguments;
import org.junit.jupiter.params.provider.MethodSource;

/**
 * kube's {@code TestCalculateSucceededIndexes} (pkg/controller/job/indexed_job_utils_test.go):
 * the completed indexes of {@code status.completedIndexes} and of the succeeded Pods with a
 * valid index, as intervals, with kube's expected values; and kube's {@code String} format.
 */
class IntervalsTest {
  /** kube's {@code noIndex}: a Pod without the annotation. */
  private static final String NO_INDEX = "";

  static Stream<Arguments> cases() {
    return Stream.of(
        Arguments.of("one index", "", List.of("1:Succeeded"), 2, "", "1-1"),
        Arguments.of("two separate", "", List.of("2:Failed", "5:Succeeded", "5:Succeeded",
            "10:Failed", "10:Succeeded"), 11, "", "5-5 10-10"),
        Arguments.of("two intervals", "", List.of("0:Running", "1:Pending", "2:Succeeded",
            "3:Succeeded", "5:Succeeded", "6:Succeeded", "7:Succeeded"), 8, "", "2-3 5-7"),
        Arguments.of("one index and one interval", "", List.of("0:Succeeded", "1:Failed",
            "2:Succeeded", "3:Succeeded", "4:Succeeded", "5:Succeeded", NO_INDEX + ":Succeeded",
            "-2:Succeeded"), 6, "", "0-0 2-5"),
        Arguments.of("out of range", "", List.of("0:Succeeded", "1:Succeeded", "2:Succeeded",
            "3:Failed", "4:Succeeded", "5:Succeeded", NO_INDEX + ":Succeeded", "-2:Succeeded"), 5,
            "", "0-2 4-4"),
        Arguments.of("prev interval out of range", "0-5,8-10", List.of(), 8, "0-5", "0-5"),
        Arguments.of("prev interval partially out of range", "0-5,8-10", List.of(), 10,
            "0-5 8-9", "0-5 8-9"),
        Arguments.of("prev and new separate", "0,4,5,10-12",
            List.of("2:Succeeded", "7:Succeeded", "8:Succeeded"), 13, "0-0 4-5 10-12",
            "0-0 2-2 4-5 7-8 10-12"),
        Arguments.of("prev between new", "3,4,6",
            List.of("2:Succeeded", "7:Succeeded", "8:Succeeded"), 9, "3-4 6-6", "2-4 6-8"),
        Arguments.of("new between prev", "2,7,8",
            List.of("3:Succeeded", "4:Succeeded", "6:Succeeded"), 9, "2-2 7-8", "2-4 6-8"),
        Arguments.of("new within prev", "2-7",
            List.of("0:Succeeded", "3:Succeeded", "5:Succeeded", "9:Succeeded"), 10, "2-7",
            "0-0 2-7 9-9"),
        Arguments.of("corrupted interval", "0,1-foo,bar", List.of("3:Succeeded"), 4, "0-0",
            "0-0 3-3"));
  }

  @ParameterizedTest(name = "{0}")
  @MethodSource("cases")
  void calculateSucceededIndexes(String name, String prev, List<String> pods, int completions,
      String wantStatus, String want) {
    Intervals status = Intervals.parse(prev, completions);
    List<Integer> succeeded = new ArrayList<>();
    for (String p : pods) {
      String[] parts = p.split(":");
      int ix;
      try {
        ix = parts[0].isEmpty() ? -1 : Integer.parseInt(parts[0]);
      } catch (NumberFormatException e) {
        ix = -1;
      }
      // the job controller's getCompletionIndex: negative means unknown
      if (ix >= 0 && ix < completions && parts[1].equals("Succeeded")) {
        succeeded.add(ix);
      }
    }
    assertThat(render(status)).isEqualTo(wantStatus);
    assertThat(render(status.with(succeeded))).isEqualTo(want);
  }

  private static String render(Intervals i) {
    List<String> out = new ArrayList<>();
    for (int[] iv : i.intervals()) {
      out.add(iv[0] + "-" + iv[1]);
    }
    return String.join(" ", out);
  }

  @Test
  void stringIsKubesCompletedIndexesFormat() {
    // kube's orderedIntervals.String: neighbours with a comma, longer runs with a dash
    assertThat(Intervals.parse("0-2,4,6,7,9-12", 20).toString()).isEqualTo("0-2,4,6,7,9-12");
    assertThat(Intervals.EMPTY.with(List.of(1, 2)).toString()).isEqualTo("1,2");
    assertThat(Intervals.EMPTY.with(List.of(3, 1, 2)).toString()).isEqualTo("1-3");
    assertThat(Intervals.parse("0-9", 5).total()).isEqualTo(5);
  }
}
