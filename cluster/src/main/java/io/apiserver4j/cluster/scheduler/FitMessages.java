/*
 * Copyright The apiserver4j authors.
 * SPDX-License-Identifier: Apache-2.0
 */
package io.apiserver4j.cluster.scheduler;

import java.util.ArrayList;
import java.util.Collections;
import java.util.List;
import java.util.Map;
import java.util.TreeMap;

/**
 * kube-scheduler's failure messages: {@code FitError.Error()} ("0/N nodes are available: " then
 * the reasons' histogram, "count reason" strings sorted and joined with ", ", ended by ".",
 * then the PostFilter message): DynamicResources' "no new claims to deallocate" for a Pod
 * without claims, then the default preemption plugin's message when it finds no candidate
 * ("preemption: " and a FitError of its own per-Node verdicts).
 */
final class FitMessages {
  static final String NOT_HELPFUL = "Preemption is not helpful for scheduling";
  static final String NO_VICTIMS = "No preemption victims found for incoming pod";
  static final String NOT_ELIGIBLE = "not eligible due to preemptionPolicy=Never.";
  /**
   * The DynamicResources PostFilter's message for a Pod without ResourceClaims; the framework
   * joins the PostFilter plugins' messages with ", ", DynamicResources first.
   */
  static final String NO_CLAIMS = "no new claims to deallocate";

  private FitMessages() {}

  /** {@code FitError.Error()} over every Node's rejection, with {@code postFilter} after. */
  static String fitError(int nodes, Map<String, Filters.Rejection> rejected, String postFilter) {
    Map<String, Integer> counts = new TreeMap<>();
    for (Filters.Rejection r : rejected.values()) {
      for (String reason : r.reasons()) {
        counts.merge(reason, 1, Integer::sum);
      }
    }
    StringBuilder b = new StringBuilder("0/" + nodes + " nodes are available:");
    List<String> histogram = new ArrayList<>();
    counts.forEach((reason, n) -> histogram.add(n + " " + reason));
    // Go's sort.Strings: byte order, count first
    Collections.sort(histogram);
    if (!histogram.isEmpty()) {
      b.append(' ').append(String.join(", ", histogram)).append('.');
    }
    if (!postFilter.isEmpty()) {
      b.append(' ').append(postFilter);
    }
    return b.toString();
  }

}
