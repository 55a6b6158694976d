/*
 * Copyright The apiserver4j authors.
 * SPDX-License-Identifier: Apache-2.0
 */
package io.apiserver4j.storage;

import io.apiserver4j.core.DecodeLimits;
import io.apiserver4j.core.FloatValue;
import io.apiserver4j.core.GoStrings;
import io.apiserver4j.core.ListValue;
import io.apiserver4j.core.MapValue;
import io.apiserver4j.core.errors.StatusErrors;
import io.apiserver4j.core.StringValue;
import io.apiserver4j.core.Value;
import java.util.Arrays;

/**
 * One walk over an object about to be stored: a rough, cheap estimate of the heap it occupies as
 * a value tree (object headers, references, string contents; the in-memory store, which keeps
 * compact JSON, counts its bytes instead), and the check that it can be stored at all: no
 * infinity or NaN (JSON has none) and no deeper nesting than the decoders accept
 * ({@link DecodeLimits#MAX_DEPTH}), so that whatever is stored can be encoded, read back, listed
 * and watched. Iterative.
 */
final class HeapEstimate {
  /** The cost of a change whose object is shared with another retained state. */
  static final long SHARED = 64;

  private HeapEstimate() {}

  /**
   * @throws io.apiserver4j.core.errors.InternalErrorException (500) for a value that could not be
   *     written back, with Go's {@code json: unsupported value} text for non-finite numbers
   */
  static long of(Value root) {
    long bytes = 0;
    Value[] values = new Value[32];
    int[] depths = new int[32];
    values[0] = root;
    depths[0] = 1;
    int top = 1;
    while (top > 0) {
      top--;
      Value v = values[top];
      int depth = depths[top];
      values[top] = null;
      int size;
      if (v instanceof MapValue m) {
        // the map, its key and value arrays, a reference per key and value
        size = m.size();
        bytes += 64 + 16L * size;
        for (int i = 0; i < size; i++) {
          bytes += string(m.keyAt(i));
        }
      } else if (v instanceof ListValue l) {
        size = l.size();
        bytes += 48 + 8L * size;
      } else {
        if (v instanceof StringValue s) {
          bytes += 16 + string(s.value());
        } else if (v instanceof FloatValue f && !Double.isFinite(f.value())) {
          throw StatusErrors.internal("json: unsupported value: "
              + GoStrings.formatFloatV(f.value()));
        } else {
          bytes += 24;
        }
        continue;
      }
      if (size == 0) {
        continue;
      }
      if (depth >= DecodeLimits.MAX_DEPTH) {
        throw StatusErrors.internal("object nesting exceeds the maximum depth of "
            + DecodeLimits.MAX_DEPTH);
      }
      if (top + size > values.length) {
        int n = Math.max(values.length * 2, top + size);
        values = Arrays.copyOf(values, n);
        depths = Arrays.copyOf(depths, n);
      }
      for (int i = 0; i < size; i++) {
        values[top] = v instanceof MapValue m ? m.valueAt(i) : ((ListValue) v).get(i);
        depths[top] = depth + 1;
        top++;
      }
    }
    return bytes;
  }


  private static long string(String s) {
    // header, hash, coder and the byte array (one byte a character for Latin-1 text)
    return 40 + s.length();
  }
}
