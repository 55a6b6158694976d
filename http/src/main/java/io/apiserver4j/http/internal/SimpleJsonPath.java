/*
 * Copyright The apiserver4j authors.
 * SPDX-License-Identifier: Apache-2.0
 */
package io.apiserver4j.http.internal;

import io.apiserver4j.core.BooleanValue;
import io.apiserver4j.core.FloatValue;
import io.apiserver4j.core.IntegerValue;
import io.apiserver4j.core.ListValue;
import io.apiserver4j.core.MapValue;
import io.apiserver4j.core.StringValue;
import io.apiserver4j.core.Value;
import java.util.ArrayList;
import java.util.List;

/**
 * The JSONPath subset that CustomResourceDefinition {@code additionalPrinterColumns} use (kube
 * validates them to be "simple" paths): field steps {@code .a.b}, indexes {@code [0]},
 * wildcards {@code [*]} and {@code .*}, and equality filters {@code [?(@.type=="Ready")]}, with
 * optional surrounding braces.
 */
final class SimpleJsonPath {
  private sealed interface Step permits Field, Index, Wildcard, Filter {}

  private record Field(String name) implements Step {}

  private record Index(int index) implements Step {}

  private record Wildcard() implements Step {}

  private record Filter(List<String> path, String value, boolean negate) implements Step {}

  private final List<Step> steps;

  private SimpleJsonPath(List<Step> steps) {
    this.steps = steps;
  }

  /** @throws IllegalArgumentException if {@code expr} is outside the supported subset */
  static SimpleJsonPath parse(String expr) {
    String s = expr.trim();
    if (s.startsWith("{") && s.endsWith("}")) {
      s = s.substring(1, s.length() - 1).trim();
    }
    if (s.startsWith("$")) {
      s = s.substring(1);
    }
    List<Step> steps = new ArrayList<>();
    int i = 0;
    while (i < s.length()) {
      char c = s.charAt(i);
      if (c == '.') {
        i++;
        int start = i;
        while (i < s.length() && s.charAt(i) != '.' && s.charAt(i) != '[') {
          i++;
        }
        String name = s.substring(start, i);
        if (name.equals("*")) {
          steps.add(new Wildcard());
        } else if (!name.isEmpty()) {
          steps.add(new Field(name));
        }
      } else if (c == '[') {
        int end = s.indexOf(']', i);
        if (end < 0) {
          throw new IllegalArgumentException("unclosed [ in " + expr);
        }
        String inner = s.substring(i + 1, end).trim();
        i = end + 1;
        if (inner.equals("*")) {
          steps.add(new Wildcard());
        } else if (inner.startsWith("?(") && inner.endsWith(")")) {
          steps.add(parseFilter(inner.substring(2, inner.length() - 1).trim(), expr));
        } else if (inner.startsWith("'") || inner.startsWith("\"")) {
          steps.add(new Field(inner.substring(1, inner.length() - 1)));
        } else {
          try {
            steps.add(new Index(Integer.parseInt(inner)));
          } catch (NumberFormatException e) {
            throw new IllegalArgumentException("unsupported JSONPath step [" + inner + "] in "
                + expr);
          }
        }
      } else {
        int start = i;
        while (i < s.length() && s.charAt(i) != '.' && s.charAt(i) != '[') {
          i++;
        }
        steps.add(new Field(s.substring(start, i)));
      }
    }
    return new SimpleJsonPath(steps);
  }

  private static Filter parseFilter(String cond, String expr) {
    boolean negate = false;
    int op = cond.indexOf("==");
    if (op < 0) {
      op = cond.indexOf("!=");
      negate = true;
    }
    if (op < 0 || !cond.startsWith("@")) {
      throw new IllegalArgumentException("unsupported JSONPath filter in " + expr);
    }
    String left = cond.substring(1, op).trim();
    String right = cond.substring(op + 2).trim();
    if (right.length() >= 2 && (right.startsWith("\"") || right.startsWith("'"))) {
      right = right.substring(1, right.length() - 1);
    }
    List<String> path = new ArrayList<>();
    for (String p : left.split("\\.")) {
      if (!p.isEmpty()) {
        path.add(p);
      }
    }
    return new Filter(path, right, negate);
  }

  /** Every value the path selects, in document order. */
  List<Value> find(Value root) {
    List<Value> cur = new ArrayList<>();
    cur.add(root);
    for (Step step : steps) {
      List<Value> next = new ArrayList<>();
      for (Value v : cur) {
        if (step instanceof Field f) {
          if (v instanceof MapValue m && m.getOrNull(f.name()) != null) {
            next.add(m.getOrNull(f.name()));
          }
        } else if (step instanceof Index ix) {
          if (v instanceof ListValue l) {
            int idx = ix.index() < 0 ? l.size() + ix.index() : ix.index();
            if (idx >= 0 && idx < l.size()) {
              next.add(l.get(idx));
            }
          }
        } else if (step instanceof Wildcard) {
          if (v instanceof ListValue l) {
            next.addAll(l.items());
          } else if (v instanceof MapValue m) {
            for (int i = 0; i < m.size(); i++) {
              next.add(m.valueAt(i));
            }
          }
        } else if (step instanceof Filter flt && v instanceof ListValue l) {
          for (Value item : l.items()) {
            Value x = item;
            for (String p : flt.path()) {
              x = x instanceof MapValue m ? m.getOrNull(p) : null;
            }
            boolean eq = x != null && text(x).equals(flt.value());
            if (eq != flt.negate()) {
              next.add(item);
            }
          }
        }
      }
      cur = next;
    }
    return cur;
  }

  /** A value printed the way kube's JSONPath printer prints a single result. */
  static String text(Value v) {
    if (v instanceof StringValue s) {
      return s.value();
    }
    if (v instanceof IntegerValue i) {
      return Long.toString(i.value());
    }
    if (v instanceof FloatValue f) {
      return io.apiserver4j.core.Json.formatFloat(f.value());
    }
    if (v instanceof BooleanValue b) {
      return Boolean.toString(b.value());
    }
    return io.apiserver4j.core.Json.write(v);
  }
}
