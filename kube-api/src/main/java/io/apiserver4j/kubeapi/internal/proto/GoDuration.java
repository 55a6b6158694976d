/*
 * Copyright The apiserver4j authors.
 * SPDX-License-Identifier: Apache-2.0
 */
package io.apiserver4j.kubeapi.internal.proto;

import io.apiserver4j.core.GoDurations;

/** Go's {@code time.Duration} text, which {@code metav1.Duration} uses in JSON. */
final class GoDuration {
  private GoDuration() {}

  /** As Go's {@code Duration.String}: {@code 1h2m3.5s}, {@code 1.5ms}, {@code 0s}. */
  static String format(long d) {
    return GoDurations.format(d);
  }

  /** As Go's {@code time.ParseDuration}, in nanoseconds; errors name the field at {@code path}. */
  static long parse(String s, String path) {
    try {
      return GoDurations.parse(s).toNanos();
    } catch (IllegalArgumentException | ArithmeticException e) {
      throw new IllegalArgumentException(path + ": time: invalid duration \"" + s + "\"");
    }
  }
}
