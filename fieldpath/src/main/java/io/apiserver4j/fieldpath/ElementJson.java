/*
 * Copyright The apiserver4j authors.
 * SPDX-License-Identifier: Apache-2.0
 */
package io.apiserver4j.fieldpath;

import io.apiserver4j.core.FloatValue;
import io.apiserver4j.core.IntegerValue;
import io.apiserver4j.core.ListValue;
import io.apiserver4j.core.MapValue;
import io.apiserver4j.core.StringValue;
import io.apiserver4j.core.Value;
import java.util.ArrayList;
import java.util.List;

/**
 * A small strict JSON reader for the payload of {@code k:} and {@code v:} elements. Element
 * payloads are short and numerous, so a direct scanner beats setting up a general parser per key.
 * Whitespace may surround the value; anything else after it is an error, as in SMD.
 */
final class ElementJson {
  /** Deepest nesting of lists and maps accepted inside one element. */
  static final int MAX_DEPTH = 1000;

  private final String s;
  private int pos;
  private final int base;

  private ElementJson(String s, int from) {
    this.s = s;
    this.pos = from;
    this.base = from;
  }

  static Value parseValue(String s, int from) {
    ElementJson r = new ElementJson(s, from);
    r.skipWhitespace();
    Value v = r.readValue(0);
    r.expectEnd();
    return v;
  }

  /** An object's fields in input order (duplicates kept), or no fields for {@code null}. */
  static List<KeyField> parseKeyFields(String s, int from) {
    ElementJson r = new ElementJson(s, from);
    r.skipWhitespace();
    List<KeyField> fields = new ArrayList<>(2);
    if (r.peek() == 'n') {
      r.literal("null");
    } else {
      if (r.peek() != '{') {
        throw r.error("expected '{' or null");
      }
      r.pos++;
      r.skipWhitespace();
      if (r.peek() == '}') {
        r.pos++;
      } else {
        while (true) {
          r.skipWhitespace();
          if (r.peek() != '"') {
            throw r.error("expected '\"' to start a field name");
          }
          String name = r.readString();
          r.skipWhitespace();
          r.expect(':');
          r.skipWhitespace();
          fields.add(new KeyField(name, r.readValue(1)));
          r.skipWhitespace();
          if (r.peek() == ',') {
            r.pos++;
            continue;
          }
          r.expect('}');
          break;
        }
      }
    }
    r.expectEnd();
    return fields;
  }

  private int peek() {
    return pos < s.length() ? s.charAt(pos) : -1;
  }

  private void expect(char c) {
    if (peek() != c) {
      throw error("expected '" + c + "'");
    }
    pos++;
  }

  private void skipWhitespace() {
    while (pos < s.length()) {
      char c = s.charAt(pos);
      if (c != ' ' && c != '\t' && c != '\n' && c != '\r') {
        return;
      }
      pos++;
    }
  }

  private void expectEnd() {
    skipWhitespace();
    if (pos != s.length()) {
      throw error("unexpected trailing data after JSON object");
    }
  }

  private FieldsV1Exception error(String what) {
    int at = pos - base;
    String found = pos < s.length() ? "found " + GoJson.quoteForMessage(
        s.substring(pos, Math.min(s.length(), pos + 12))) : "found end of input";
    return new FieldsV1Exception("invalid JSON in path element " + GoJson.quoteForMessage(s)
        + " at offset " + at + ": " + what + ", " + found);
  }

  private Value readValue(int depth) {
    int c = peek();
    if ((c == '{' || c == '[') && depth >= MAX_DEPTH) {
      throw error("nesting deeper than " + MAX_DEPTH);
    }
    switch (c) {
      case '"':
        return new StringValue(readString());
      case '{':
        return readObject(depth + 1);
      case '[':
        return readArray(depth + 1);
      case 't':
        literal("true");
        return Value.of(true);
      case 'f':
        literal("false");
        return Value.of(false);
      case 'n':
        literal("null");
        return Value.nullValue();
      default:
        if (c == '-' || (c >= '0' && c <= '9')) {
          return readNumber();
        }
        throw error("expected a JSON value");
    }
  }

  private void literal(String word) {
    if (!s.startsWith(word, pos)) {
      throw error("expected " + word);
    }
    pos += word.length();
  }

  private Value readObject(int depth) {
    pos++; // '{'
    MapValue.Builder b = MapValue.builder();
    skipWhitespace();
    if (peek() == '}') {
      pos++;
      return b.build();
    }
    while (true) {
      skipWhitespace();
      if (peek() != '"') {
        throw error("expected '\"' to start a field name");
      }
      String key = readString();
      skipWhitespace();
      expect(':');
      skipWhitespace();
      // A repeated name keeps the last value, as decoding into a Go map does.
      b.put(key, readValue(depth));
      skipWhitespace();
      if (peek() == ',') {
        pos++;
        continue;
      }
      expect('}');
      return b.build();
    }
  }

  private Value readArray(int depth) {
    pos++; // '['
    ListValue.Builder b = ListValue.builder();
    skipWhitespace();
    if (peek() == ']') {
      pos++;
      return b.build();
    }
    while (true) {
      skipWhitespace();
      b.add(readValue(depth));
      skipWhitespace();
      if (peek() == ',') {
        pos++;
        continue;
      }
      expect(']');
      return b.build();
    }
  }

  private String readString() {
    pos++; // opening quote
    int start = pos;
    int n = s.length();
    while (pos < n) {
      char c = s.charAt(pos);
      if (c == '"') {
        return s.substring(start, pos++);
      }
      if (c == '\\') {
        break;
      }
      if (c < 0x20) {
        throw error("control character in string");
      }
      pos++;
    }
    StringBuilder sb = new StringBuilder(s.length() - start);
    sb.append(s, start, pos);
    while (pos < n) {
      char c = s.charAt(pos);
      if (c == '"') {
        pos++;
        return sb.toString();
      }
      if (c < 0x20) {
        throw error("control character in string");
      }
      if (c != '\\') {
        sb.append(c);
        pos++;
        continue;
      }
      if (pos + 1 >= n) {
        break;
      }
      char e = s.charAt(pos + 1);
      pos += 2;
      switch (e) {
        case '"', '\\', '/' -> sb.append(e);
        case 'b' -> sb.append('\b');
        case 'f' -> sb.append('\f');
        case 'n' -> sb.append('\n');
        case 'r' -> sb.append('\r');
        case 't' -> sb.append('\t');
        case 'u' -> {
          if (pos + 4 > n) {
            throw error("truncated \\u escape");
          }
          int cp = 0;
          for (int i = 0; i < 4; i++) {
            int d = Character.digit(s.charAt(pos + i), 16);
            if (d < 0) {
              throw error("invalid \\u escape");
            }
            cp = cp * 16 + d;
          }
          pos += 4;
          sb.append((char) cp);
        }
        default -> {
          pos -= 2;
          throw error("invalid escape character");
        }
      }
    }
    throw error("unterminated string");
  }

  private Value readNumber() {
    int start = pos;
    int n = s.length();
    if (peek() == '-') {
      pos++;
    }
    if (peek() == '0') {
      pos++;
    } else if (peek() >= '1' && peek() <= '9') {
      while (pos < n && isDigit(s.charAt(pos))) {
        pos++;
      }
    } else {
      throw error("invalid number");
    }
    boolean integral = true;
    if (peek() == '.') {
      integral = false;
      pos++;
      if (!(pos < n && isDigit(s.charAt(pos)))) {
        throw error("invalid number");
      }
      while (pos < n && isDigit(s.charAt(pos))) {
        pos++;
      }
    }
    if (peek() == 'e' || peek() == 'E') {
      integral = false;
      pos++;
      if (peek() == '+' || peek() == '-') {
        pos++;
      }
      if (!(pos < n && isDigit(s.charAt(pos)))) {
        throw error("invalid number");
      }
      while (pos < n && isDigit(s.charAt(pos))) {
        pos++;
      }
    }
    String text = s.substring(start, pos);
    if (integral) {
      try {
        return IntegerValue.of(Long.parseLong(text));
      } catch (NumberFormatException tooBig) {
        // Go reads every FieldsV1 number as a float64; beyond int64 that is what we keep too.
      }
    }
    double d = Double.parseDouble(text);
    if (Double.isInfinite(d)) {
      throw error("number out of range");
    }
    return new FloatValue(d);
  }

  private static boolean isDigit(char c) {
    return c >= '0' && c <= '9';
  }
}
