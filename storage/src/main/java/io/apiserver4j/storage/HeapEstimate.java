package io.apiserver4j.storage;

import io.apiserver4j.core.ListValue;
import io.apiserver4j.core.MapValue;
import io.apiserver4j.core.StringValue;
import io.apiserver4j.core.Value;
import java.util.ArrayDeque;

/**
 * A rough, cheap estimate of the heap a value tree occupies (object headers, references, string
 * contents), used to bound what the in-memory store's history keeps alive. Iterative, so any
 * depth the decoders accept is measured.
 */
final class HeapEstimate {
  /** The cost of a change whose object is shared with another retained state. */
  static final long SHARED = 64;

  private HeapEstimate() {}

  static long of(Value root) {
    long bytes = 0;
    ArrayDeque<Value> work = new ArrayDeque<>();
    work.push(root);
    while (!work.isEmpty()) {
      Value v = work.pop();
      if (v instanceof MapValue m) {
        // the map, its key and value arrays, a reference per key and value
        bytes += 64 + 16L * m.size();
        for (int i = 0; i < m.size(); i++) {
          bytes += string(m.keyAt(i));
          work.push(m.valueAt(i));
        }
      } else if (v instanceof ListValue l) {
        bytes += 48 + 8L * l.size();
        for (int i = 0; i < l.size(); i++) {
          work.push(l.get(i));
        }
      } else if (v instanceof StringValue s) {
        bytes += 16 + string(s.value());
      } else {
        bytes += 24;
      }
    }
    return bytes;
  }

  private static long string(String s) {
    // header, hash, coder and the byte array (one byte a character for Latin-1 text)
    return 40 + s.length();
  }
}
