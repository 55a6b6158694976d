/*
 * Copyright The apiserver4j authors.
 * SPDX-License-Identifier: Apache-2.0
 */
package io.apiserver4j.storage;

import com.fasterxml.jackson.core.JsonGenerator;
import io.apiserver4j.core.DecodeLimits;
import io.apiserver4j.core.Json;
import io.apiserver4j.core.MapValue;
import io.apiserver4j.core.StringValue;
import io.apiserver4j.core.Value;
import java.io.ByteArrayOutputStream;
import java.io.IOException;
import java.io.OutputStream;
import java.io.UncheckedIOException;
import java.nio.charset.StandardCharsets;
import java.util.Arrays;
import java.util.concurrent.ConcurrentHashMap;

/**
 * An object as the in-memory store keeps it: compact JSON (a tree of small Java objects costs
 * several times its JSON on the heap). The leading {@code apiVersion} and {@code kind} are held
 * apart as shared strings, so that a list item of a built-in kind, which kube writes without
 * them, is a plain copy of the bytes; {@code metadata.resourceVersion} is left empty in the bytes
 * and spliced in when written or decoded, so one encoding serves every revision that shares the
 * object (a tombstone and the state it ends). Immutable.
 */
final class CompactObject {
  /** Whatever was stored reads back: no size limit (nesting was checked on the way in). */
  private static final DecodeLimits STORED =
      DecodeLimits.DEFAULT.withMaxDocumentChars(Integer.MAX_VALUE - 8);
  private static final byte[] EMPTY_RV = "\"\"".getBytes(StandardCharsets.US_ASCII);

  /** Top-level apiVersion and kind, in their order, when they lead the object; else null. */
  private final String first;
  private final String second;
  private final boolean apiVersionFirst;
  /** The rest of the object as JSON; starts with '{'. */
  private final byte[] json;
  /** Where the resourceVersion's digits go (between the empty quotes), or -1. */
  private final int rvOffset;

  private CompactObject(String first, String second, boolean apiVersionFirst, byte[] json,
      int rvOffset) {
    this.first = first;
    this.second = second;
    this.apiVersionFirst = apiVersionFirst;
    this.json = json;
    this.rvOffset = rvOffset;
  }

  /**
   * Encodes {@code object}, whose {@code metadata.resourceVersion} must be the empty string
   * (placeholder of the revision).
   */
  static CompactObject encode(MapValue object) {
    int skip = 0;
    boolean apiVersionFirst = false;
    String first = null;
    String second = null;
    if (object.size() >= 2 && object.valueAt(0) instanceof StringValue a
        && object.valueAt(1) instanceof StringValue b) {
      String k0 = object.keyAt(0);
      String k1 = object.keyAt(1);
      if ((k0.equals("apiVersion") && k1.equals("kind"))
          || (k0.equals("kind") && k1.equals("apiVersion"))) {
        skip = 2;
        apiVersionFirst = k0.equals("apiVersion");
        first = a.value().intern();
        second = b.value().intern();
      }
    }
    Buffer out = BUFFER.get();
    out.reset();
    int rvAt = -1;
    try (JsonGenerator g = Json.generator(out)) {
      g.writeStartObject();
      for (int i = skip; i < object.size(); i++) {
        String k = object.keyAt(i);
        Value v = object.valueAt(i);
        g.writeFieldName(k);
        if (k.equals("metadata") && v instanceof MapValue meta) {
          g.writeStartObject();
          for (int j = 0; j < meta.size(); j++) {
            String mk = meta.keyAt(j);
            g.writeFieldName(mk);
            if (mk.equals("resourceVersion") && meta.valueAt(j) instanceof StringValue s
                && s.value().isEmpty()) {
              g.flush();
              rvAt = out.size();
            }
            Json.writeValue(g, meta.valueAt(j));
          }
          g.writeEndObject();
        } else {
          Json.writeValue(g, v);
        }
      }
      g.writeEndObject();
    } catch (IOException e) {
      throw new UncheckedIOException(e);
    }
    byte[] bytes = out.toByteArray();
    out.release();
    int rvOffset = -1;
    if (rvAt >= 0) {
      // the generator writes the name, then ':' and the value: find the empty quotes after it
      int q = indexOf(bytes, EMPTY_RV, rvAt);
      rvOffset = q < 0 ? -1 : q + 1;
    }
    return new CompactObject(first, second, apiVersionFirst, bytes, rvOffset);
  }

  private static final ThreadLocal<Buffer> BUFFER = ThreadLocal.withInitial(Buffer::new);

  /** A thread's encoding buffer, reused so that encoding copies the bytes once. */
  private static final class Buffer extends ByteArrayOutputStream {
    /** Larger buffers are not kept for the next encoding. */
    private static final int KEEP = 256 * 1024;

    Buffer() {
      super(4096);
    }

    void release() {
      if (buf.length > KEEP) {
        buf = new byte[4096];
      }
    }
  }

  private static int indexOf(byte[] bytes, byte[] what, int from) {
    outer:
    for (int i = from; i <= bytes.length - what.length; i++) {
      for (int j = 0; j < what.length; j++) {
        if (bytes[i + j] != what[j]) {
          continue outer;
        }
      }
      return i;
    }
    return -1;
  }

  /** The object with {@code metadata.resourceVersion} set to {@code revision}. */
  MapValue decode(long revision) {
    MapValue rest = (MapValue) Json.read(json, STORED);
    MapValue top = rest;
    if (first != null) {
      MapValue.Builder b = MapValue.builder(rest.size() + 2);
      b.put(apiVersionFirst ? "apiVersion" : "kind", Value.of(first));
      b.put(apiVersionFirst ? "kind" : "apiVersion", Value.of(second));
      for (int i = 0; i < rest.size(); i++) {
        b.put(rest.keyAt(i), rest.valueAt(i));
      }
      top = b.build();
    }
    return StoredObjects.withResourceVersion(top, revision);
  }

  /**
   * Writes the JSON of the object at {@code revision}; false (nothing written) when it cannot be
   * written from the bytes alone: type meta to omit that is not held apart, or no resourceVersion
   * placeholder.
   */
  boolean write(OutputStream out, long revision, StoredObject.TypeMeta typeMeta)
      throws IOException {
    if (rvOffset < 0 || (typeMeta == StoredObject.TypeMeta.OMIT && first == null)) {
      return false;
    }
    int from = 0;
    if (typeMeta == StoredObject.TypeMeta.KEEP && first != null) {
      out.write(typeMetaPrefix());
      from = 1;
    }
    out.write(json, from, rvOffset - from);
    out.write(Long.toString(revision).getBytes(StandardCharsets.US_ASCII));
    out.write(json, rvOffset, json.length - rvOffset);
    return true;
  }

  private byte[] typeMetaPrefix() {
    TypeMetaKey k = new TypeMetaKey(first, second, apiVersionFirst, json.length > 2);
    byte[] prefix = PREFIXES.get(k);
    if (prefix == null) {
      String a = apiVersionFirst ? "apiVersion" : "kind";
      String b = apiVersionFirst ? "kind" : "apiVersion";
      String s = "{\"" + a + "\":" + Json.quote(first) + ",\"" + b + "\":"
          + Json.quote(second) + (k.more() ? "," : "");
      prefix = s.getBytes(StandardCharsets.UTF_8);
      if (PREFIXES.size() < MAX_PREFIXES) {
        PREFIXES.putIfAbsent(k, prefix);
      }
    }
    return prefix;
  }

  /** The written type meta of a kind, shared: every object of it starts the same way. */
  private record TypeMetaKey(String first, String second, boolean apiVersionFirst,
      boolean more) {}

  private static final int MAX_PREFIXES = 4096;
  private static final ConcurrentHashMap<TypeMetaKey, byte[]> PREFIXES =
      new ConcurrentHashMap<>();

  /** Whether the bytes equal another encoding's (same object at any revision). */
  boolean sameBytes(CompactObject other) {
    return apiVersionFirst == other.apiVersionFirst && java.util.Objects.equals(first, other.first)
        && java.util.Objects.equals(second, other.second) && Arrays.equals(json, other.json);
  }

  /** Roughly the heap this encoding occupies. */
  long heapBytes() {
    return 48 + 16 + json.length;
  }
}
