package io.apiserver4j.core;

/** Block-style YAML emitter; see {@link Yaml#write}. */
final class YamlWriter {
  private YamlWriter() {}

  static void writeDocument(StringBuilder sb, Value v) {
    if (v instanceof MapValue m && !m.isEmpty()) {
      writeMap(sb, m, 0);
    } else if (v instanceof ListValue l && !l.isEmpty()) {
      writeList(sb, l, 0);
    } else {
      sb.append(scalar(v)).append('\n');
    }
  }

  private static void writeMap(StringBuilder sb, MapValue m, int indent) {
    for (int i = 0; i < m.size(); i++) {
      pad(sb, indent);
      sb.append(string(m.keyAt(i))).append(':');
      writeChild(sb, m.valueAt(i), indent, true);
    }
  }

  private static void writeList(StringBuilder sb, ListValue l, int indent) {
    for (int i = 0; i < l.size(); i++) {
      pad(sb, indent);
      sb.append('-');
      Value item = l.get(i);
      if (item instanceof MapValue m && !m.isEmpty()) {
        // First entry shares the dash line, the rest align under it.
        StringBuilder nested = new StringBuilder();
        writeMap(nested, m, indent + 2);
        sb.append(' ').append(nested, indent + 2, nested.length());
      } else {
        writeChild(sb, item, indent, false);
      }
    }
  }

  private static void writeChild(StringBuilder sb, Value v, int indent, boolean inMap) {
    if (v instanceof MapValue m && !m.isEmpty()) {
      sb.append('\n');
      writeMap(sb, m, indent + 2);
    } else if (v instanceof ListValue l && !l.isEmpty()) {
      sb.append('\n');
      writeList(sb, l, inMap ? indent : indent + 2);
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
