/*
 * Copyright The apiserver4j authors.
 * SPDX-License-Identifier: Apache-2.0
 */
package io.apiserver4j.kubeapi.internal.proto;

import io.apiserver4j.core.DecodeException;
import java.nio.charset.StandardCharsets;
import java.util.Arrays;

/** The protobuf wire format: a reader over a byte range and a growable writer. */
final class ProtoWire {
  static final int VARINT = 0;
  static final int FIXED64 = 1;
  static final int LEN = 2;
  static final int FIXED32 = 5;

  private ProtoWire() {}

  /** A cursor over {@code data[pos, end)}. Malformed input throws {@link DecodeException}. */
  static final class Reader {
    private final byte[] data;
    private int pos;
    private final int end;

    Reader(byte[] data, int pos, int end) {
      this.data = data;
      this.pos = pos;
      this.end = end;
    }

    Reader(byte[] data) {
      this(data, 0, data.length);
    }

    boolean more() {
      return pos < end;
    }

    long varint() {
      long v = 0;
      for (int shift = 0; shift < 64; shift += 7) {
        if (pos >= end) {
          throw truncated();
        }
        byte b = data[pos++];
        v |= (long) (b & 0x7f) << shift;
        if ((b & 0x80) == 0) {
          return v;
        }
      }
      throw new DecodeException("malformed protobuf varint");
    }

    /** A tag: field number and wire type. */
    int tag() {
      long t = varint();
      if (t >>> 3 == 0 || t >>> 3 > 0x1fffffff) {
        throw new DecodeException("invalid protobuf field number " + (t >>> 3));
      }
      return (int) t;
    }

    long fixed64() {
      need(8);
      long v = 0;
      for (int i = 7; i >= 0; i--) {
        v = (v << 8) | (data[pos + i] & 0xff);
      }
      pos += 8;
      return v;
    }

    int fixed32() {
      need(4);
      int v = 0;
      for (int i = 3; i >= 0; i--) {
        v = (v << 8) | (data[pos + i] & 0xff);
      }
      pos += 4;
      return v;
    }

    private int length() {
      long len = varint();
      if (len < 0 || len > end - pos) {
        throw truncated();
      }
      return (int) len;
    }

    byte[] bytes() {
      int len = length();
      byte[] out = Arrays.copyOfRange(data, pos, pos + len);
      pos += len;
      return out;
    }

    String string() {
      int len = length();
      String s = new String(data, pos, len, StandardCharsets.UTF_8);
      pos += len;
      return s;
    }

    /** The embedded message that follows, as a reader of its own. */
    Reader sub() {
      int len = length();
      Reader r = new Reader(data, pos, pos + len);
      pos += len;
      return r;
    }

    /** The rest of the range. */
    byte[] bytesRemaining() {
      byte[] out = Arrays.copyOfRange(data, pos, end);
      pos = end;
      return out;
    }

    String stringRemaining() {
      String s = new String(data, pos, end - pos, StandardCharsets.UTF_8);
      pos = end;
      return s;
    }

    boolean isEmpty() {
      return pos >= end;
    }

    void skip(int wireType) {
      switch (wireType) {
        case VARINT -> varint();
        case FIXED64 -> fixed64();
        case LEN -> {
          // the length first: it moves pos past its own bytes
          int len = length();
          pos += len;
        }
        case FIXED32 -> fixed32();
        default -> throw new DecodeException("unsupported protobuf wire type " + wireType);
      }
    }

    private void need(int n) {
      if (end - pos < n) {
        throw truncated();
      }
    }

    private static DecodeException truncated() {
      return new DecodeException("truncated protobuf message");
    }
  }

  /** Appends fields to a growable byte buffer (not thread-safe). */
  static final class Writer {
    private byte[] buf = new byte[64];
    private int size;

    private void ensure(int more) {
      if (size + more > buf.length) {
        buf = Arrays.copyOf(buf, Math.max(buf.length * 2, size + more));
      }
    }

    private void write(int b) {
      ensure(1);
      buf[size++] = (byte) b;
    }

    void tag(int number, int wireType) {
      varint(((long) number << 3) | wireType);
    }

    void varint(long v) {
      ensure(10);
      while ((v & ~0x7fL) != 0) {
        buf[size++] = (byte) ((v & 0x7f) | 0x80);
        v >>>= 7;
      }
      buf[size++] = (byte) v;
    }

    void varintField(int number, long v) {
      tag(number, VARINT);
      varint(v);
    }

    void fixed64Field(int number, long v) {
      tag(number, FIXED64);
      for (int i = 0; i < 8; i++) {
        write((int) (v >>> (8 * i)));
      }
    }

    void fixed32Field(int number, int v) {
      tag(number, FIXED32);
      for (int i = 0; i < 4; i++) {
        write(v >>> (8 * i));
      }
    }

    void bytesField(int number, byte[] b) {
      tag(number, LEN);
      varint(b.length);
      raw(b);
    }

    void stringField(int number, String s) {
      bytesField(number, s.getBytes(StandardCharsets.UTF_8));
    }

    void raw(byte[] b) {
      ensure(b.length);
      System.arraycopy(b, 0, buf, size, b.length);
      size += b.length;
    }

    byte[] toByteArray() {
      return Arrays.copyOf(buf, size);
    }
  }
}
