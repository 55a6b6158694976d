/*
 * Copyright The apiserver4j authors.
 * SPDX-License-Identifier: Apache-2.0
 */
package io.apiserver4j.core;

import static java.util.Objects.requireNonNull;

import com.fasterxml.jackson.core.JsonFactory;
import com.fasterxml.jackson.core.JsonGenerator;
import com.fasterxml.jackson.core.JsonParser;
import com.fasterxml.jackson.core.JsonProcessingException;
import com.fasterxml.jackson.core.JsonToken;
import com.fasterxml.jackson.core.SerializableString;
import com.fasterxml.jackson.core.StreamReadConstraints;
import com.fasterxml.jackson.core.StreamReadFeature;
import com.fasterxml.jackson.core.StreamWriteConstraints;
import com.fasterxml.jackson.core.exc.StreamConstraintsException;
import com.fasterxml.jackson.core.io.CharacterEscapes;
import com.fasterxml.jackson.core.io.SerializedString;
import java.io.ByteArrayOutputStream;
import java.io.IOException;
import java.io.InputStream;
import java.io.OutputStream;
import java.io.StringWriter;
import java.io.UncheckedIOException;
import java.io.Writer;
import java.math.BigDecimal;
import java.util.concurrent.ConcurrentHashMap;
import java.util.function.Consumer;

/**
 * JSON codec for {@link Value}s, built on jackson-core's streaming API.
 *
 * <p>Reading: integers that fit in 64 bits become {@link IntegerValue}, other numbers
 * {@link FloatValue}; duplicate keys, trailing content and exceeded {@link DecodeLimits} are
 * {@link DecodeException}s. Writing matches Go's {@code encoding/json} as kube-apiserver uses it:
 * compact, {@code <}, {@code >}, {@code &}, U+2028 and U+2029 escaped, floats in Go's shortest
 * form ({@code 1.0} is written {@code 1}). Thread-safe.
 */
public final class Json {
  // values are bounded by the readers' limits, not by the writer
  private static final JsonFactory WRITER_FACTORY = JsonFactory.builder()
      .streamWriteConstraints(StreamWriteConstraints.builder()
          .maxNestingDepth(Integer.MAX_VALUE).build())
      .build();
  private static final ConcurrentHashMap<DecodeLimits, JsonFactory> READERS =
      new ConcurrentHashMap<>();

  private Json() {}

  private static JsonFactory reader(DecodeLimits limits) {
    return READERS.computeIfAbsent(limits, l -> JsonFactory.builder()
        .streamReadConstraints(StreamReadConstraints.builder()
            .maxNestingDepth(l.maxDepth())
            .maxDocumentLength(l.maxDocumentChars())
            .maxStringLength((int) Math.min(Integer.MAX_VALUE, l.maxDocumentChars()))
            .build())
        .enable(StreamReadFeature.INCLUDE_SOURCE_IN_LOCATION)
        .build());
  }

  /**
   * Reads one JSON document with the default limits.
   *
   * @param json the JSON text
   * @return the value
   * @throws DecodeException when the input is not JSON, has a duplicate key or exceeds the limits
   */
  public static Value read(String json) {
    return read(json, DecodeLimits.DEFAULT);
  }

  /**
   * Reads one JSON document.
   *
   * @param json the JSON text
   * @param limits the limits
   * @return the value
   * @throws DecodeException when the input is not JSON, has a duplicate key or exceeds the limits
   */
  public static Value read(String json, DecodeLimits limits) {
    if (json.length() > limits.maxDocumentChars()) {
      throw tooLarge(limits);
    }
    try (JsonParser p = reader(limits).createParser(json)) {
      return readDocument(p);
    } catch (IOException e) {
      throw wrap(e);
    }
  }

  /**
   * Reads one UTF-8 JSON document with the default limits.
   *
   * @param json the JSON bytes
   * @return the value
   * @throws DecodeException when the input is not JSON, has a duplicate key or exceeds the limits
   */
  public static Value read(byte[] json) {
    return read(json, DecodeLimits.DEFAULT);
  }

  /**
   * Reads one UTF-8 JSON document.
   *
   * @param json the JSON bytes
   * @param limits the limits
   * @return the value
   * @throws DecodeException when the input is not JSON, has a duplicate key or exceeds the limits
   */
  public static Value read(byte[] json, DecodeLimits limits) {
    if (json.length > limits.maxDocumentChars()) {
      throw tooLarge(limits);
    }
    try (JsonParser p = reader(limits).createParser(replaceInvalidUtf8(json))) {
      return readDocument(p);
    } catch (IOException e) {
      throw wrap(e);
    }
  }

  /**
   * Reads one UTF-8 JSON document from a stream, at most the size limit.
   *
   * @param json the stream; not closed
   * @param limits the limits
   * @return the value
   * @throws DecodeException when the input is not JSON, has a duplicate key or exceeds the limits or cannot be read
   */
  public static Value read(InputStream json, DecodeLimits limits) {
    byte[] bytes;
    try {
      bytes = json.readNBytes((int) Math.min(Integer.MAX_VALUE - 8, limits.maxDocumentChars() + 1));
    } catch (IOException e) {
      throw wrap(e);
    }
    return read(bytes, limits);
  }

  /**
   * {@code json} with every byte that does not start a valid UTF-8 sequence replaced by U+FFFD,
   * one replacement per byte, as Go's {@code encoding/json} decodes strings (overlong forms,
   * surrogates and truncated sequences included). Returns {@code json} itself when it is valid.
   *
   * @param json the bytes
   * @return the repaired bytes
   */
  public static byte[] replaceInvalidUtf8(byte[] json) {
    int i = 0;
    int n = json.length;
    while (i < n && json[i] >= 0) {
      i++;
    }
    int firstBad = -1;
    while (i < n) {
      int len = utf8Length(json, i);
      if (len == 0) {
        firstBad = i;
        break;
      }
      i += len;
    }
    if (firstBad < 0) {
      return json;
    }
    ByteArrayOutputStream out = new ByteArrayOutputStream(n + 16);
    out.write(json, 0, firstBad);
    i = firstBad;
    while (i < n) {
      int len = json[i] >= 0 ? 1 : utf8Length(json, i);
      if (len == 0) {
        out.write(0xEF);
        out.write(0xBF);
        out.write(0xBD);
        i++;
      } else {
        out.write(json, i, len);
        i += len;
      }
    }
    return out.toByteArray();
  }

  /** The length of the valid UTF-8 sequence at {@code i} (Go's utf8.DecodeRune), or 0. */
  private static int utf8Length(byte[] b, int i) {
    int c = b[i] & 0xFF;
    if (c < 0x80) {
      return 1;
    }
    int lo = 0x80;
    int hi = 0xBF;
    int len;
    if (c >= 0xC2 && c <= 0xDF) {
      len = 2;
    } else if (c >= 0xE0 && c <= 0xEF) {
      len = 3;
      if (c == 0xE0) {
        lo = 0xA0;
      } else if (c == 0xED) {
        hi = 0x9F;
      }
    } else if (c >= 0xF0 && c <= 0xF4) {
      len = 4;
      if (c == 0xF0) {
        lo = 0x90;
      } else if (c == 0xF4) {
        hi = 0x8F;
      }
    } else {
      return 0;
    }
    if (i + len > b.length) {
      return 0;
    }
    int c1 = b[i + 1] & 0xFF;
    if (c1 < lo || c1 > hi) {
      return 0;
    }
    for (int k = 2; k < len; k++) {
      int ck = b[i + k] & 0xFF;
      if (ck < 0x80 || ck > 0xBF) {
        return 0;
      }
    }
    return len;
  }

  /** {@code s} with unpaired surrogates (from {@code \ud800} escapes) replaced as Go does. */
  private static String goString(String s) {
    for (int i = 0; i < s.length(); i++) {
      char c = s.charAt(i);
      if (Character.isSurrogate(c)) {
        if (Character.isHighSurrogate(c) && i + 1 < s.length()
            && Character.isLowSurrogate(s.charAt(i + 1))) {
          i++;
          continue;
        }
        return replaceLoneSurrogates(s);
      }
    }
    return s;
  }

  private static String replaceLoneSurrogates(String s) {
    StringBuilder sb = new StringBuilder(s.length());
    for (int i = 0; i < s.length(); i++) {
      char c = s.charAt(i);
      if (Character.isHighSurrogate(c) && i + 1 < s.length()
          && Character.isLowSurrogate(s.charAt(i + 1))) {
        sb.append(c).append(s.charAt(++i));
      } else {
        sb.append(Character.isSurrogate(c) ? '\uFFFD' : c);
      }
    }
    return sb.toString();
  }

  private static DecodeException tooLarge(DecodeLimits limits) {
    return new DecodeException(
        "document exceeds the maximum length of " + limits.maxDocumentChars() + " characters");
  }

  private static DecodeException wrap(IOException e) {
    if (e instanceof StreamConstraintsException c) {
      return new DecodeException("JSON input exceeds a limit: " + c.getOriginalMessage(), e);
    }
    if (e instanceof JsonProcessingException j) {
      var loc = j.getLocation();
      String where = loc == null ? "" : " at line " + loc.getLineNr() + ", column " + loc.getColumnNr();
      return new DecodeException("invalid JSON" + where + ": " + j.getOriginalMessage(), e);
    }
    return new DecodeException("cannot read JSON: " + e.getMessage(), e);
  }

  private static Value readDocument(JsonParser p) throws IOException {
    JsonToken t = p.nextToken();
    if (t == null) {
      throw new DecodeException("invalid JSON: empty input");
    }
    Value v = readValue(p, t);
    if (p.nextToken() != null) {
      var loc = p.currentTokenLocation();
      throw new DecodeException("invalid JSON at line " + loc.getLineNr() + ", column "
          + loc.getColumnNr() + ": unexpected content after the top-level value");
    }
    return v;
  }

  /** What the reader does with a key given twice in one object. */
  public enum DuplicateKeys {
    /** A {@link DecodeException} (the default everywhere in this codec). */
    REJECT,
    /**
     * The last value wins, as with Go's {@code encoding/json} (kube's non-strict decoding); the
     * path of each repeated key is reported.
     */
    KEEP_LAST
  }

  /**
   * Reads the value starting at token {@code t}, rejecting duplicate keys; the parser is left on
   * its last token. Iterative, so that nesting is bounded by {@link DecodeLimits#maxDepth()} and
   * never by the thread stack.
   *
   * @param p the parser
   * @param t the current token
   * @return the value
   * @throws IOException when the parser fails
   * @throws DecodeException on a duplicate key
   */
  public static Value readValue(JsonParser p, JsonToken t) throws IOException {
    return readValue(p, t, DuplicateKeys.REJECT, path -> { });
  }

  /**
   * Like {@link #readValue(JsonParser, JsonToken)}, with a choice of what a duplicate key does.
   * With {@link DuplicateKeys#KEEP_LAST} each repeated key's field path ({@code metadata.name},
   * {@code spec.containers[0].image}; the bare key at the top level) is passed to
   * {@code duplicates}, in document order.
   *
   * @param p the parser
   * @param t the current token
   * @param policy what a duplicate key does
   * @param duplicates receives the paths of duplicate keys
   * @return the value
   * @throws IOException when the parser fails
   */
  public static Value readValue(JsonParser p, JsonToken t, DuplicateKeys policy,
      Consumer<String> duplicates) throws IOException {
    requireNonNull(policy, "policy");
    requireNonNull(duplicates, "duplicates");
    boolean keepLast = policy == DuplicateKeys.KEEP_LAST;
    java.util.ArrayDeque<Object> stack = new java.util.ArrayDeque<>();
    java.util.ArrayDeque<String> keys = new java.util.ArrayDeque<>();
    // field paths of the open containers, tracked only when duplicates are reported
    java.util.ArrayDeque<String> paths = keepLast ? new java.util.ArrayDeque<>() : null;
    JsonToken token = t;
    while (true) {
      Value completed;
      switch (token) {
        case START_OBJECT:
          if (keepLast) {
            paths.push(stack.isEmpty() ? "" : childPath(stack.peek(), paths.peek(), keys.peek()));
          }
          stack.push(MapValue.builder());
          token = p.nextToken();
          if (token == JsonToken.FIELD_NAME) {
            keys.push(goString(p.currentName()));
            token = p.nextToken();
          }
          continue;
        case START_ARRAY:
          if (keepLast) {
            paths.push(stack.isEmpty() ? "" : childPath(stack.peek(), paths.peek(), keys.peek()));
          }
          stack.push(ListValue.builder());
          token = p.nextToken();
          continue;
        case END_OBJECT:
          completed = ((MapValue.Builder) stack.pop()).build();
          if (keepLast) {
            paths.pop();
          }
          break;
        case END_ARRAY:
          completed = ((ListValue.Builder) stack.pop()).build();
          if (keepLast) {
            paths.pop();
          }
          break;
        case VALUE_STRING:
          completed = new StringValue(goString(p.getText()));
          break;
        case VALUE_NUMBER_INT:
          completed = p.getNumberType() == JsonParser.NumberType.BIG_INTEGER
              ? finite(p, p.getBigIntegerValue().doubleValue())
              : IntegerValue.of(p.getLongValue());
          break;
        case VALUE_NUMBER_FLOAT:
          completed = finite(p, p.getDoubleValue());
          break;
        case VALUE_TRUE:
          completed = BooleanValue.TRUE;
          break;
        case VALUE_FALSE:
          completed = BooleanValue.FALSE;
          break;
        case VALUE_NULL:
          completed = NullValue.INSTANCE;
          break;
        default:
          throw new DecodeException("invalid JSON: unexpected token " + token);
      }
      Object parent = stack.peek();
      if (parent == null) {
        return completed;
      }
      if (parent instanceof MapValue.Builder b) {
        String key = keys.pop();
        if (!b.containsKey(key)) {
          b.putNew(key, completed);
        } else if (keepLast) {
          duplicates.accept(childPath(b, paths.peek(), key));
          b.put(key, completed);
        } else {
          var loc = p.currentTokenLocation();
          throw new DecodeException("invalid JSON at line " + loc.getLineNr() + ", column "
              + loc.getColumnNr() + ": duplicate field " + quote(key));
        }
        token = p.nextToken();
        if (token == JsonToken.FIELD_NAME) {
          keys.push(goString(p.currentName()));
          token = p.nextToken();
        }
      } else {
        ((ListValue.Builder) parent).add(completed);
        token = p.nextToken();
      }
    }
  }

  /**
   * A float the number literal stands for, or Go's decoding error when it overflows a 64-bit
   * float: kube decodes numbers as Go does ({@code strconv.ParseFloat} fails with a range error),
   * and an infinity could never be written back as JSON.
   */
  private static FloatValue finite(JsonParser p, double d) throws IOException {
    if (Double.isInfinite(d) || Double.isNaN(d)) {
      throw new DecodeException(
          "json: cannot unmarshal number " + p.getText() + " into Go value of type float64");
    }
    return new FloatValue(d);
  }

  /** The path of the next member of {@code container} (at {@code path}); {@code key} in a map. */
  private static String childPath(Object container, String path, String key) {
    if (container instanceof MapValue.Builder) {
      return path.isEmpty() ? key : path + "." + key;
    }
    return path + "[" + ((ListValue.Builder) container).size() + "]";
  }

  /**
   * Compact JSON, as Go's encoder writes it.
   *
   * @param v the value
   * @return the JSON text
   */
  public static String write(Value v) {
    StringWriter w = new StringWriter();
    write(v, w);
    return w.toString();
  }

  /**
   * Compact JSON as UTF-8 bytes.
   *
   * @param v the value
   * @return the bytes of {@link #write(Value)}
   */
  public static byte[] writeBytes(Value v) {
    ByteArrayOutputStream out = new ByteArrayOutputStream(256);
    write(v, out);
    return out.toByteArray();
  }

  /**
   * Writes compact JSON to a stream, which is not closed.
   *
   * @param v the value
   * @param out the stream
   * @throws java.io.UncheckedIOException when writing fails
   */
  public static void write(Value v, OutputStream out) {
    try (JsonGenerator g = WRITER_FACTORY.createGenerator(out)) {
      g.setCharacterEscapes(GoEscapes.INSTANCE);
      writeValue(g, v);
    } catch (IOException e) {
      throw new UncheckedIOException(e);
    }
  }

  /**
   * A generator writing compact JSON as {@link #write(Value, OutputStream)} does (Go's escapes),
   * for callers that write a document piece by piece; closing it neither flushes into nor closes
   * {@code out} beyond the generator's own buffer.
   *
   * @param out the stream
   * @return the generator
   * @throws IOException when the generator cannot be created
   */
  public static JsonGenerator generator(OutputStream out) throws IOException {
    JsonGenerator g = WRITER_FACTORY.createGenerator(out);
    g.disable(JsonGenerator.Feature.AUTO_CLOSE_TARGET);
    g.disable(JsonGenerator.Feature.FLUSH_PASSED_TO_STREAM);
    g.setCharacterEscapes(GoEscapes.INSTANCE);
    return g;
  }

  /**
   * Writes compact JSON to a writer, which is not closed.
   *
   * @param v the value
   * @param out the writer
   * @throws java.io.UncheckedIOException when writing fails
   */
  public static void write(Value v, Writer out) {
    try (JsonGenerator g = WRITER_FACTORY.createGenerator(out)) {
      g.setCharacterEscapes(GoEscapes.INSTANCE);
      writeValue(g, v);
    } catch (IOException e) {
      throw new UncheckedIOException(e);
    }
  }

  /**
   * Writes {@code v} to a generator the caller owns (which should use {@link #goEscapes()}).
   * Iterative, so any depth the readers accept can be written.
   *
   * @param g the generator
   * @param v the value
   * @throws IOException when writing fails
   */
  public static void writeValue(JsonGenerator g, Value v) throws IOException {
    if (!(v instanceof MapValue) && !(v instanceof ListValue)) {
      writeScalar(g, v);
      return;
    }
    // containers being written and the index of their next member
    java.util.ArrayDeque<Value> containers = new java.util.ArrayDeque<>();
    int[] next = new int[16];
    Value current = v;
    while (true) {
      if (current != null) {
        if (current instanceof MapValue) {
          g.writeStartObject();
        } else if (current instanceof ListValue) {
          g.writeStartArray();
        } else {
          writeScalar(g, current);
          current = null;
          if (containers.isEmpty()) {
            return;
          }
          continue;
        }
        if (containers.size() == next.length) {
          next = java.util.Arrays.copyOf(next, next.length * 2);
        }
        next[containers.size()] = 0;
        containers.push(current);
        current = null;
      }
      Value top = containers.peek();
      int depth = containers.size() - 1;
      int i = next[depth]++;
      if (top instanceof MapValue m) {
        if (i < m.size()) {
          g.writeFieldName(m.keyAt(i));
          current = m.valueAt(i);
          continue;
        }
        g.writeEndObject();
      } else {
        ListValue l = (ListValue) top;
        if (i < l.size()) {
          current = l.get(i);
          continue;
        }
        g.writeEndArray();
      }
      containers.pop();
      if (containers.isEmpty()) {
        return;
      }
    }
  }

  private static void writeScalar(JsonGenerator g, Value v) throws IOException {
    if (v instanceof StringValue s) {
      g.writeString(s.value());
    } else if (v instanceof IntegerValue i) {
      g.writeNumber(i.value());
    } else if (v instanceof BooleanValue b) {
      g.writeBoolean(b.value());
    } else if (v instanceof FloatValue f) {
      g.writeRawValue(formatFloat(f.value()));
    } else {
      g.writeNull();
    }
  }

  /**
   * Character escapes matching Go's {@code encoding/json} with HTML escaping on.
   *
   * @return the shared escapes
   */
  public static CharacterEscapes goEscapes() {
    return GoEscapes.INSTANCE;
  }

  /**
   * {@code s} as a JSON string literal, escaped as Go does.
   *
   * @param s the string
   * @return the quoted string
   */
  public static String quote(String s) {
    return write(new StringValue(s));
  }

  /**
   * Formats a float as Go's {@code encoding/json} does: shortest representation, plain notation
   * for magnitudes in [1e-6, 1e21), exponent notation otherwise. NaN and infinities are not
   * representable in JSON and are rejected.
   *
   * @param d the float
   * @return the number's text
   * @throws IllegalArgumentException for NaN and infinities
   */
  public static String formatFloat(double d) {
    if (Double.isNaN(d) || Double.isInfinite(d)) {
      throw new IllegalArgumentException("unsupported float value in JSON: " + d);
    }
    if (d == 0) {
      return (1 / d < 0) ? "-0" : "0";
    }
    double abs = Math.abs(d);
    BigDecimal bd = new BigDecimal(Double.toString(d)).stripTrailingZeros();
    if (abs < 1e21 && abs >= 1e-6) {
      return bd.toPlainString();
    }
    // Go: mantissa digits, 'e', sign, at least two exponent digits (cleaned to e-7 style).
    String unscaled = bd.unscaledValue().abs().toString();
    int exp = unscaled.length() - 1 - bd.scale();
    StringBuilder sb = new StringBuilder();
    if (d < 0) {
      sb.append('-');
    }
    sb.append(unscaled.charAt(0));
    if (unscaled.length() > 1) {
      sb.append('.').append(unscaled, 1, unscaled.length());
    }
    sb.append('e').append(exp < 0 ? '-' : '+');
    int e = Math.abs(exp);
    if (e < 10) {
      // Go's encoding/json turns e-07 into e-7 but keeps e+21 style two-digit positives.
      sb.append(exp < 0 ? "" : "0");
    }
    sb.append(e);
    return sb.toString();
  }

  private static final class GoEscapes extends CharacterEscapes {
    static final GoEscapes INSTANCE = new GoEscapes();
    private final int[] table;

    private GoEscapes() {
      table = CharacterEscapes.standardAsciiEscapesForJSON();
      table['<'] = CharacterEscapes.ESCAPE_CUSTOM;
      table['>'] = CharacterEscapes.ESCAPE_CUSTOM;
      table['&'] = CharacterEscapes.ESCAPE_CUSTOM;
    }

    @Override
    public int[] getEscapeCodesForAscii() {
      return table;
    }

    @Override
    public SerializableString getEscapeSequence(int ch) {
      return switch (ch) {
        case '<' -> new SerializedString("\\u003c");
        case '>' -> new SerializedString("\\u003e");
        case '&' -> new SerializedString("\\u0026");
        case 0x2028 -> new SerializedString("\\u2028");
        case 0x2029 -> new SerializedString("\\u2029");
        default -> null;
      };
    }
  }
}
