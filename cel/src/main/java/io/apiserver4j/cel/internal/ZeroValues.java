/*
 * Copyright The apiserver4j authors.
 * SPDX-License-Identifier: Apache-2.0
 */
package io.apiserver4j.cel.internal;

import com.google.common.primitives.UnsignedLong;
import java.util.Map;

/** cel-go's zero values ({@code optional.ofNonZeroValue}), which differ from Java's defaults. */
final class ZeroValues {
  private ZeroValues() {}

  /** Go's zero time, cel-go's zero timestamp. */
  private static final java.time.Instant GO_ZERO_TIME = java.time.Instant.parse(
      "0001-01-01T00:00:00Z");

  /** Whether {@code v} is the zero value of its type, as cel-go's {@code IsZeroValue}. */
  static boolean isZero(Object v) {
    if (v instanceof Boolean b) {
      return !b;
    }
    if (v instanceof Long l) {
      return l == 0;
    }
    if (v instanceof Double d) {
      return d == 0;
    }
    if (v instanceof UnsignedLong u) {
      return u.equals(UnsignedLong.ZERO);
    }
    if (v instanceof String s) {
      return s.isEmpty();
    }
    if (v instanceof dev.cel.common.values.CelByteString bytes) {
      return bytes.isEmpty();
    }
    if (v instanceof java.util.Collection<?> c) {
      return c.isEmpty();
    }
    if (v instanceof Map<?, ?> m) {
      return m.isEmpty();
    }
    if (v instanceof java.time.Duration d) {
      return d.isZero();
    }
    if (v instanceof java.time.Instant t) {
      return t.equals(GO_ZERO_TIME);
    }
    if (v instanceof com.google.protobuf.Timestamp t) {
      return t.getSeconds() == GO_ZERO_TIME.getEpochSecond() && t.getNanos() == 0;
    }
    if (v instanceof com.google.protobuf.Message m) {
      return m.equals(m.getDefaultInstanceForType());
    }
    return v instanceof com.google.protobuf.NullValue
        || v instanceof dev.cel.common.values.NullValue;
  }
}
