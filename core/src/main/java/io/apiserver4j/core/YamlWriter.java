/*
 * Copyright The apiserver4j authors.
 * SPDX-License-Identifier: Apache-2.0
 */
package io.apiserver4j.core;

/** Block-style YAML emitter; see {@link Yaml#write}. */
final class YamlWriter {
  private YamlWriter() {}

  /** A map or list being written, its next member, and its indentation. */
  private static final class Frame {
    final Value container;
    final int indent;
    // a map that is a list item starts on the dash's line
    final boolean firstOnDashLine;
    int next;

    Frame(Value container, int indent, boolean firstOnDashLine) {
      this.container = container;
      this.indent = indent;
      this.firstOnDashLine = firstOnDashLine;
    }
  }

  /** Iterative, so any depth the readers accept can be written. */
  static void writeDocument(StringBuilder sb, Value v) {
    java.util.ArrayDeque<Frame> stack = new java.util.ArrayDeque<>();
    if (v instanceof MapValue m && !m.isEmpty()) {
      stack.push(new Frame(m, 0, false));
    } else if (v instanceof ListValue l && !l.isEmpty()) {
      stack.push(new Frame(l, 0, false));
    } else {
      sb.append(scalar(v)).append('\n');
    }
    while (!stack.isEmpty()) {
      Frame f = stack.peek();
      int i = f.next++;
      if (f.container instanceof MapValue m) {
        if (i >= m.size()) {
          stack.pop();
          continue;
        }
        if (i > 0 || !f.firstOnDashLine) {
          pad(sb, f.indent);
        }
        sb.append(string(m.keyAt(i))).append(':');
        writeChild(sb, stack, m.valueAt(i), f.indent, true);
      } else {
        ListValue l = (ListValue) f.container;
        if (i >= l.size()) {
          stack.pop();
          continue;
        }
        pad(sb, f.indent);
        sb.append('-');
        Value item = l.get(i);
        if (item instanceof MapValue m && !m.isEmpty()) {
          sb.append(' ');
          stack.push(new Frame(m, f.indent + 2, true));
        } else {
          writeChild(sb, stack, item, f.indent, false);
        }
      }
    }
  }

  private static void writeChild(StringBuilder sb, java.util.ArrayDeque<Frame> stack, Value v,
      int indent, boolean inMap) {
    if (v instanceof MapValue m && !m.isEmpty()) {
      sb.append('\n');
      stack.push(new Frame(m, indent + 2, false));
    } else if (v instanceof ListValue l && !l.isEmpty()) {
      sb.append('\n');
      stack.push(new Frame(l, inMap ? indent : indent + 2, false));
    } else {
      sb.append(' ').append(scalar(v)).append('\n');
    }
  }

  private static void pad(StringBuilder sb, int n) {
    for (int i = 0; i < n; i++) {
      sb.append(' ');
    }
  }

  private static String scalar(Value v) {
    if (v instanceof StringValue s) {
      return string(s.value());
    }
    if (v instanceof FloatValue f) {
      double d = f.value();
      if (Double.isNaN(d)) {
        return ".nan";
      }
      if (Double.isInfinite(d)) {
        return d > 0 ? ".inf" : "-.inf";
      }
      String s = Json.formatFloat(d);
      return s.indexOf('.') >= 0 || s.indexOf('e') >= 0 ? s : s + ".0";
    }
    if (v instanceof MapValue) {
      return "{}";
    }
    if (v instanceof ListValue) {
      return "[]";
    }
    return v.toString();
  }

  private static String string(String s) {
    return needsQuotes(s) ? Json.quote(s) : s;
  }

  private static boolean needsQuotes(String s) {
    if (s.isEmpty() || !(Yaml.resolvePlain(s) instanceof StringValue)) {
      return true;
    }
    char first = s.charAt(0);
    if ("-?:,[]{}#&*!|>'\"%@`= ".indexOf(first) >= 0 || s.charAt(s.length() - 1) == ' ') {
      return true;
    }
    if (s.contains(": ") || s.contains(" #") || s.endsWith(":")) {
      return true;
    }
    for (int i = 0; i < s.length(); i++) {
      char c = s.charAt(i);
      if (c < 0x20 || c == 0x7f || c == '\u2028' || c == '\u2029' || c == '\ufeff') {
        return true;
      }
    }
    return false;
  }
}
