/*
 * Copyright The apiserver4j authors.
 * SPDX-License-Identifier: Apache-2.0
 */
package io.apiserver4j.core;

import java.util.Arrays;

/**
 * Reads the plain block style most manifests and apply bodies are written in, without the general
 * YAML parser: nested block mappings and sequences (indentless sequences included), plain and
 * single-line quoted scalars, one-line flow collections of scalars, full-line comments and a
 * leading {@code ---}. Scalars resolve through {@link Yaml#resolvePlain}, so a document inside
 * this subset reads exactly as {@link Yaml#read} reads it with the general parser.
 *
 * <p>Anything else gives {@code null} and the caller uses the general parser: anchors, aliases,
 * tags, block and multi-line scalars, escapes, comments after content, tabs, carriage returns,
 * characters outside printable ASCII, more than one document, scalar roots, merge keys, keys that
 * are not plain strings, duplicate keys, non-finite floats, and documents over the depth or node
 * limits. Every error is left to the general parser too, so its messages are the only ones.
 *
 * <p>Why it exists: a fresh JVM runs the general parser's event machinery interpreted or
 * lightly compiled for its first thousands of documents, and a server-side apply body is parsed
 * on every request; this reader is a few small loops the JIT compiles early. Not thread-safe; one
 * instance per document.
 */
final class BlockYamlReader {
  /** Nesting deeper than this goes to the general parser, which walks without recursion. */
  private static final int MAX_DEPTH = 64;

  private final String text;
  private final DecodeLimits limits;
  private int[] indent = new int[32];
  private int[] start = new int[32];
  private int[] end = new int[32];
  private int lines;
  private int pos;
  private long nodes;

  private BlockYamlReader(String text, DecodeLimits limits) {
    this.text = text;
    this.limits = limits;
  }

  /**
   * Reads {@code text} when it is inside the subset.
   *
   * @param text the YAML text, already within the document length limit
   * @param limits the limits
   * @return the value, or {@code null} when the general parser must read the text
   */
  static Value read(String text, DecodeLimits limits) {
    BlockYamlReader r = new BlockYamlReader(text, limits);
    if (!r.splitLines() || r.lines == 0) {
      return null;
    }
    Value root = r.block(r.indent[0], 1);
    return root == null || r.pos != r.lines ? null : root;
  }

  /** Records every content line; false when a character is outside the subset. */
  private boolean splitLines() {
    int n = text.length();
    int i = 0;
    boolean first = true;
    while (i < n) {
      int lineStart = i;
      while (i < n && text.charAt(i) == ' ') {
        i++;
      }
      int contentStart = i;
      int contentEnd = i;
      while (i < n) {
        char c = text.charAt(i);
        if (c == '\n') {
          break;
        }
        if (c < 0x20 || c >= 0x7f) {
          return false;
        }
        i++;
        if (c != ' ') {
          contentEnd = i;
        }
      }
      i++;
      if (contentEnd == contentStart || text.charAt(contentStart) == '#') {
        continue;
      }
      if (first) {
        first = false;
        if (contentStart == lineStart && contentEnd - contentStart == 3
            && text.startsWith("---", contentStart)) {
          continue;
        }
      }
      if (lines == indent.length) {
        indent = Arrays.copyOf(indent, lines * 2);
        start = Arrays.copyOf(start, lines * 2);
        end = Arrays.copyOf(end, lines * 2);
      }
      indent[lines] = contentStart - lineStart;
      start[lines] = contentStart;
      end[lines] = contentEnd;
      lines++;
    }
    return true;
  }

  private Value block(int col, int depth) {
    return isSequenceEntry(pos) ? sequence(col, depth) : mapping(col, depth);
  }

  private boolean isSequenceEntry(int line) {
    int s = start[line];
    return text.charAt(s) == '-' && (s + 1 == end[line] || text.charAt(s + 1) == ' ');
  }

  private Value mapping(int col, int depth) {
    if (!enter(depth)) {
      return null;
    }
    MapValue.Builder map = MapValue.builder();
    while (pos < lines && indent[pos] == col) {
      if (isSequenceEntry(pos)) {
        return null;
      }
      int s = start[pos];
      int e = end[pos];
      int colon = keyEnd(s, e);
      if (colon < 0) {
        return null;
      }
      String key = text.substring(s, colon);
      if (!(Yaml.resolvePlain(key) instanceof StringValue) || map.containsKey(key)) {
        return null;
      }
      int v = skipSpaces(colon + 1, e);
      Value value;
      if (v == e) {
        pos++;
        if (pos < lines && indent[pos] > col) {
          value = block(indent[pos], depth + 1);
        } else if (pos < lines && indent[pos] == col && isSequenceEntry(pos)) {
          value = sequence(col, depth + 1);
        } else {
          value = scalarNode(NullValue.INSTANCE);
        }
      } else {
        value = inline(v, e, depth + 1);
        pos++;
        if (pos < lines && indent[pos] > col) {
          return null;
        }
      }
      if (value == null) {
        return null;
      }
      map.putNew(key, value);
    }
    return pos < lines && indent[pos] > col ? null : map.build();
  }

  private Value sequence(int col, int depth) {
    if (!enter(depth)) {
      return null;
    }
    ListValue.Builder list = ListValue.builder();
    while (pos < lines && indent[pos] == col && isSequenceEntry(pos)) {
      int e = end[pos];
      int q = skipSpaces(start[pos] + 1, e);
      Value item;
      if (q == e) {
        pos++;
        item = pos < lines && indent[pos] > col
            ? block(indent[pos], depth + 1) : scalarNode(NullValue.INSTANCE);
      } else if (text.charAt(q) == '-' && (q + 1 == e || text.charAt(q + 1) == ' ')) {
        return null;
      } else if (keyEnd(q, e) >= 0) {
        // "- key: value": the mapping's column is the key's, as if the line were indented so
        indent[pos] += q - start[pos];
        start[pos] = q;
        item = mapping(indent[pos], depth + 1);
      } else {
        item = inline(q, e, depth + 1);
        pos++;
        if (pos < lines && indent[pos] > col) {
          return null;
        }
      }
      if (item == null) {
        return null;
      }
      list.add(item);
    }
    return pos < lines && indent[pos] > col ? null : list.build();
  }

  private boolean enter(int depth) {
    return depth <= MAX_DEPTH && depth <= limits.maxDepth() && countNode();
  }

  private boolean countNode() {
    return ++nodes <= limits.maxNodes();
  }

  private Value scalarNode(Value v) {
    return countNode() ? v : null;
  }

  /**
   * The index of the colon ending a plain key at {@code s}, followed by a space or the line's end;
   * -1 when the line does not start with such a key.
   */
  private int keyEnd(int s, int e) {
    if (s >= e) {
      return -1;
    }
    char c = text.charAt(s);
    if (!(isAlphanumeric(c) || c == '_')) {
      return -1;
    }
    // longer simple keys are an error of the general parser
    int limit = Math.min(e, s + 1000);
    int i = s + 1;
    while (i < limit) {
      c = text.charAt(i);
      if (c == ':') {
        return i + 1 == e || text.charAt(i + 1) == ' ' ? i : -1;
      }
      if (!(isAlphanumeric(c) || c == '_' || c == '.' || c == '/' || c == '-')) {
        return -1;
      }
      i++;
    }
    return -1;
  }

  private int skipSpaces(int i, int e) {
    while (i < e && text.charAt(i) == ' ') {
      i++;
    }
    return i;
  }

  /** The scalar or one-line flow collection filling {@code [s, e)}; null outside the subset. */
  private Value inline(int s, int e, int depth) {
    char c = text.charAt(s);
    if (c == '{' || c == '[') {
      return flow(s, e, depth);
    }
    if (c == '"' || c == '\'') {
      int close = quotedEnd(s, e);
      return close == e - 1 ? scalarNode(quoted(s, close)) : null;
    }
    if (!plainStart(s, e, false)) {
      return null;
    }
    for (int i = s + 1; i < e; i++) {
      char x = text.charAt(i);
      // ": " would make a nested mapping (an error), " #" starts a comment
      if (x == ':' && (i + 1 == e || text.charAt(i + 1) == ' ')
          || x == '#' && text.charAt(i - 1) == ' ') {
        return null;
      }
    }
    return plain(text.substring(s, e));
  }

  private Value plain(String s) {
    Value v = Yaml.resolvePlain(s);
    if (v instanceof FloatValue f && !Double.isFinite(f.value())) {
      return null;
    }
    return scalarNode(v);
  }

  /**
   * Whether a plain scalar may start at {@code s}: not a YAML indicator, or a {@code -} followed
   * by a character a plain scalar may hold (in a flow collection, not a flow indicator).
   */
  private boolean plainStart(int s, int e, boolean flow) {
    char c = text.charAt(s);
    if (c == '-') {
      return s + 1 < e && text.charAt(s + 1) != ' '
          && !(flow && ",[]{}".indexOf(text.charAt(s + 1)) >= 0);
    }
    return "?:,[]{}#&*!|>'\"%@`".indexOf(c) < 0;
  }

  /** The index of the quote closing the scalar opened at {@code s}; -1 when outside the subset. */
  private int quotedEnd(int s, int e) {
    char q = text.charAt(s);
    for (int i = s + 1; i < e; i++) {
      char c = text.charAt(i);
      if (q == '"' && c == '\\') {
        return -1;
      }
      if (c == q) {
        if (q == '\'' && i + 1 < e && text.charAt(i + 1) == '\'') {
          i++;
          continue;
        }
        return i;
      }
    }
    return -1;
  }

  private StringValue quoted(int s, int close) {
    String inner = text.substring(s + 1, close);
    return new StringValue(text.charAt(s) == '\'' ? inner.replace("''", "'") : inner);
  }

  /**
   * A flow mapping or sequence of scalars on one line ({@code {cpu: 500m}}, {@code [a, "b"]},
   * {@code {}}); nested collections, empty entries and trailing commas are left to the general
   * parser.
   */
  private Value flow(int s, int e, int depth) {
    if (!enter(depth)) {
      return null;
    }
    boolean map = text.charAt(s) == '{';
    char close = map ? '}' : ']';
    MapValue.Builder mapBuilder = map ? MapValue.builder() : null;
    ListValue.Builder listBuilder = map ? null : ListValue.builder();
    int i = skipSpaces(s + 1, e);
    if (i < e && text.charAt(i) == close) {
      return i == e - 1 ? (map ? mapBuilder.build() : listBuilder.build()) : null;
    }
    while (true) {
      String key = null;
      if (map) {
        int colon = keyEnd(i, e);
        if (colon < 0 || colon + 1 == e) {
          return null;
        }
        key = text.substring(i, colon);
        if (!(Yaml.resolvePlain(key) instanceof StringValue) || mapBuilder.containsKey(key)) {
          return null;
        }
        i = skipSpaces(colon + 1, e);
      }
      if (i >= e) {
        return null;
      }
      Value value;
      int next;
      char c = text.charAt(i);
      if (c == '"' || c == '\'') {
        int q = quotedEnd(i, e);
        if (q < 0) {
          return null;
        }
        value = scalarNode(quoted(i, q));
        next = q + 1;
      } else {
        if (!plainStart(i, e, true)) {
          return null;
        }
        int j = i;
        while (j < e && "{}[],:#".indexOf(text.charAt(j)) < 0) {
          j++;
        }
        int valueEnd = j;
        while (text.charAt(valueEnd - 1) == ' ') {
          valueEnd--;
        }
        value = plain(text.substring(i, valueEnd));
        next = j;
      }
      if (value == null) {
        return null;
      }
      if (map) {
        mapBuilder.putNew(key, value);
      } else {
        listBuilder.add(value);
      }
      i = skipSpaces(next, e);
      if (i >= e) {
        return null;
      }
      char sep = text.charAt(i);
      if (sep == close) {
        return i == e - 1 ? (map ? mapBuilder.build() : listBuilder.build()) : null;
      }
      if (sep != ',') {
        return null;
      }
      i = skipSpaces(i + 1, e);
      if (i >= e || text.charAt(i) == close || text.charAt(i) == ',') {
        return null;
      }
    }
  }

  private static boolean isAlphanumeric(char c) {
    return (c >= 'a' && c <= 'z') || (c >= 'A' && c <= 'Z') || (c >= '0' && c <= '9');
  }
}
