/*
 * Copyright The apiserver4j authors.
 * SPDX-License-Identifier: Apache-2.0
 */
package io.apiserver4j.controllers.certificates;

import java.io.ByteArrayOutputStream;
import java.math.BigInteger;
import java.nio.charset.StandardCharsets;
import java.time.Instant;
import java.time.ZoneOffset;
import java.time.format.DateTimeFormatter;
import java.util.ArrayList;
import java.util.List;

/**
 * The few DER (ITU-T X.690) encodings X.509 certificates and PKCS#10 requests need, on the JDK
 * alone: {@code write*} methods return one complete element; {@link #read} splits an element
 * into its tag, where its content lies and where it ends. Lengths up to 2^31 - 1; malformed
 * input is an {@link IllegalArgumentException} with Go's asn1 wording.
 */
public final class Der {
  public static final int BOOLEAN = 0x01;
  public static final int INTEGER = 0x02;
  public static final int BIT_STRING = 0x03;
  public static final int OCTET_STRING = 0x04;
  public static final int OID = 0x06;
  public static final int UTF8_STRING = 0x0c;
  public static final int PRINTABLE_STRING = 0x13;
  public static final int UTC_TIME = 0x17;
  public static final int GENERALIZED_TIME = 0x18;
  public static final int SEQUENCE = 0x30;
  public static final int SET = 0x31;

  private static final DateTimeFormatter UTC =
      DateTimeFormatter.ofPattern("yyMMddHHmmss'Z'").withZone(ZoneOffset.UTC);
  private static final DateTimeFormatter GENERALIZED =
      DateTimeFormatter.ofPattern("yyyyMMddHHmmss'Z'").withZone(ZoneOffset.UTC);

  private Der() {}

  /** One element read from a buffer: its tag, content start and end (exclusive). */
  public record Element(int tag, int start, int contentStart, int end) {
    /** The element's content bytes of {@code b}. */
    public byte[] content(byte[] b) {
      return java.util.Arrays.copyOfRange(b, contentStart, end);
    }

    /** The whole element (header and content) of {@code b}. */
    public byte[] encoded(byte[] b) {
      return java.util.Arrays.copyOfRange(b, start, end);
    }

    /** The elements inside this constructed one. */
    public List<Element> children(byte[] b) {
      List<Element> out = new ArrayList<>();
      for (int at = contentStart; at < end; ) {
        Element e = read(b, at);
        if (e.end() > end) {
          throw new IllegalArgumentException("asn1: syntax error: data truncated");
        }
        out.add(e);
        at = e.end();
      }
      return out;
    }
  }

  /** The element at {@code at} of {@code b}. */
  public static Element read(byte[] b, int at) {
    if (at + 2 > b.length) {
      throw new IllegalArgumentException("asn1: syntax error: data truncated");
    }
    int tag = b[at] & 0xff;
    int len = b[at + 1] & 0xff;
    int content = at + 2;
    if (len >= 0x80) {
      int n = len & 0x7f;
      if (n == 0 || n > 4 || content + n > b.length) {
        throw new IllegalArgumentException("asn1: syntax error: data truncated");
      }
      long l = 0;
      for (int i = 0; i < n; i++) {
        l = (l << 8) | (b[content + i] & 0xff);
      }
      if (l > Integer.MAX_VALUE) {
        throw new IllegalArgumentException("asn1: syntax error: data truncated");
      }
      len = (int) l;
      content += n;
    }
    if ((long) content + len > b.length) {
      throw new IllegalArgumentException("asn1: syntax error: data truncated");
    }
    return new Element(tag, at, content, content + len);
  }

  /** The element at {@code at}, which must have {@code tag}. */
  public static Element read(byte[] b, int at, int tag) {
    Element e = read(b, at);
    if (e.tag() != tag) {
      throw new IllegalArgumentException("asn1: structure error: tags don't match");
    }
    return e;
  }

  /** The dotted form of an OID element's content. */
  public static String oid(byte[] b, Element oid) {
    StringBuilder sb = new StringBuilder();
    long value = 0;
    boolean first = true;
    for (int i = oid.contentStart(); i < oid.end(); i++) {
      value = (value << 7) | (b[i] & 0x7f);
      if ((b[i] & 0x80) == 0) {
        if (first) {
          long x = Math.min(value / 40, 2);
          sb.append(x).append('.').append(value - x * 40);
          first = false;
        } else {
          sb.append('.').append(value);
        }
        value = 0;
      }
    }
    return sb.toString();
  }

  /** An element of {@code tag} around {@code content}. */
  public static byte[] element(int tag, byte[] content) {
    ByteArrayOutputStream out = new ByteArrayOutputStream(content.length + 6);
    out.write(tag);
    int len = content.length;
    if (len < 0x80) {
      out.write(len);
    } else {
      int bytes = len > 0xffffff ? 4 : len > 0xffff ? 3 : len > 0xff ? 2 : 1;
      out.write(0x80 | bytes);
      for (int i = bytes - 1; i >= 0; i--) {
        out.write((len >>> (8 * i)) & 0xff);
      }
    }
    out.writeBytes(content);
    return out.toByteArray();
  }

  /** A constructed element of {@code tag} around the concatenation of {@code parts}. */
  public static byte[] constructed(int tag, byte[]... parts) {
    ByteArrayOutputStream out = new ByteArrayOutputStream();
    for (byte[] p : parts) {
      out.writeBytes(p);
    }
    return element(tag, out.toByteArray());
  }

  /** A SEQUENCE of {@code parts}. */
  public static byte[] sequence(byte[]... parts) {
    return constructed(SEQUENCE, parts);
  }

  /** A SEQUENCE of {@code parts}. */
  public static byte[] sequence(List<byte[]> parts) {
    return constructed(SEQUENCE, parts.toArray(byte[][]::new));
  }

  /** A context-specific constructed (explicit) tag {@code [n]} around {@code parts}. */
  public static byte[] explicit(int n, byte[]... parts) {
    return constructed(0xa0 | n, parts);
  }

  public static byte[] integer(BigInteger v) {
    return element(INTEGER, v.toByteArray());
  }

  public static byte[] bool(boolean v) {
    return element(BOOLEAN, new byte[] {(byte) (v ? 0xff : 0)});
  }

  public static byte[] octetString(byte[] v) {
    return element(OCTET_STRING, v);
  }

  /** A BIT STRING of whole bytes. */
  public static byte[] bitString(byte[] v) {
    byte[] c = new byte[v.length + 1];
    System.arraycopy(v, 0, c, 1, v.length);
    return element(BIT_STRING, c);
  }

  /**
   * A named-bit BIT STRING (X.509 key usage): bit {@code i} set in {@code bits} is bit
   * {@code i} of the string, most significant first, trailing zero bits dropped as DER asks.
   */
  public static byte[] namedBits(int bits) {
    int highest = 31 - Integer.numberOfLeadingZeros(bits);
    if (highest < 0) {
      return element(BIT_STRING, new byte[] {0});
    }
    int bytes = highest / 8 + 1;
    byte[] c = new byte[bytes + 1];
    for (int i = 0; i <= highest; i++) {
      if ((bits & (1 << i)) != 0) {
        c[1 + i / 8] |= (byte) (0x80 >>> (i % 8));
      }
    }
    c[0] = (byte) (bytes * 8 - 1 - highest);
    return element(BIT_STRING, c);
  }

  /** An OBJECT IDENTIFIER from its dotted form. */
  public static byte[] oid(String dotted) {
    String[] parts = dotted.split("\\.");
    ByteArrayOutputStream out = new ByteArrayOutputStream();
    writeBase128(out, Long.parseLong(parts[0]) * 40 + Long.parseLong(parts[1]));
    for (int i = 2; i < parts.length; i++) {
      writeBase128(out, Long.parseLong(parts[i]));
    }
    return element(OID, out.toByteArray());
  }

  private static void writeBase128(ByteArrayOutputStream out, long v) {
    int groups = 1;
    for (long x = v >>> 7; x != 0; x >>>= 7) {
      groups++;
    }
    for (int i = groups - 1; i >= 0; i--) {
      int b = (int) ((v >>> (7 * i)) & 0x7f);
      out.write(i == 0 ? b : b | 0x80);
    }
  }

  public static byte[] utf8(String s) {
    return element(UTF8_STRING, s.getBytes(StandardCharsets.UTF_8));
  }

  /** A certificate time: UTCTime through 2049, GeneralizedTime after, as RFC 5280 asks. */
  public static byte[] time(Instant t) {
    int year = t.atZone(ZoneOffset.UTC).getYear();
    if (year >= 1950 && year < 2050) {
      return element(UTC_TIME, UTC.format(t).getBytes(StandardCharsets.US_ASCII));
    }
    return element(GENERALIZED_TIME, GENERALIZED.format(t).getBytes(StandardCharsets.US_ASCII));
  }

  /** A distinguished name of one common name. */
  public static byte[] commonName(String cn) {
    return sequence(constructed(SET, sequence(oid("2.5.4.3"), utf8(cn))));
  }
}
