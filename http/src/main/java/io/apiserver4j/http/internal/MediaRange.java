/*
 * Copyright The apiserver4j authors.
 * SPDX-License-Identifier: Apache-2.0
 */
package io.apiserver4j.http.internal;

import java.util.ArrayList;
import java.util.Collections;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Locale;
import java.util.Map;

/**
 * One clause of an {@code Accept} header or a {@code Content-Type}: {@code type/subtype} with
 * parameters and a quality. Parsing is lenient like Go's goautoneg, which kube-apiserver uses:
 * malformed clauses are skipped rather than failing the request.
 */
public record MediaRange(String type, String subtype, Map<String, String> params, double q) {

  public MediaRange {
    params = Collections.unmodifiableMap(new LinkedHashMap<>(params));
  }

  /** {@code type/subtype} without parameters. */
  public String baseType() {
    return type + "/" + subtype;
  }

  public String param(String name) {
    return params.getOrDefault(name, "");
  }

  /** Whether this range (possibly with wildcards) covers the concrete {@code type/subtype}. */
  public boolean covers(String concreteType, String concreteSubtype) {
    return (type.equals("*") || type.equals(concreteType))
        && (subtype.equals("*") || subtype.equals(concreteSubtype));
  }

  /**
   * Parses an {@code Accept} header into clauses ordered by preference: descending quality,
   * then more specific first, then header order (a stable sort, as goautoneg).
   */
  public static List<MediaRange> parseAccept(String header) {
    List<MediaRange> out = new ArrayList<>();
    if (header == null || header.isBlank()) {
      return out;
    }
    for (String clause : splitOutsideQuotes(header, ',')) {
      MediaRange r = parseOne(clause, true);
      if (r != null && r.q > 0) {
        out.add(r);
      }
    }
    out.sort((a, b) -> {
      int c = Double.compare(b.q, a.q);
      if (c != 0) {
        return c;
      }
      return Integer.compare(specificity(b), specificity(a));
    });
    return out;
  }

  /** Parses a {@code Content-Type} value; null when it is not {@code type/subtype}. */
  public static MediaRange parseContentType(String header) {
    if (header == null || header.isBlank()) {
      return null;
    }
    return parseOne(header, false);
  }

  private static int specificity(MediaRange r) {
    if (r.type.equals("*")) {
      return 0;
    }
    if (r.subtype.equals("*")) {
      return 1;
    }
    return 2;
  }

  private static MediaRange parseOne(String clause, boolean withQ) {
    List<String> parts = splitOutsideQuotes(clause, ';');
    String base = parts.get(0).trim().toLowerCase(Locale.ROOT);
    int slash = base.indexOf('/');
    if (slash <= 0 || slash == base.length() - 1) {
      // goautoneg accepts a bare "*" as "*/*"
      if (base.equals("*")) {
        base = "*/*";
        slash = 1;
      } else {
        return null;
      }
    }
    String type = base.substring(0, slash);
    String subtype = base.substring(slash + 1);
    Map<String, String> params = new LinkedHashMap<>();
    double q = 1.0;
    for (int i = 1; i < parts.size(); i++) {
      String p = parts.get(i).trim();
      int eq = p.indexOf('=');
      if (eq <= 0) {
        continue;
      }
      String k = p.substring(0, eq).trim().toLowerCase(Locale.ROOT);
      String v = p.substring(eq + 1).trim();
      if (v.length() >= 2 && v.startsWith("\"") && v.endsWith("\"")) {
        v = v.substring(1, v.length() - 1);
      }
      if (withQ && k.equals("q")) {
        try {
          q = Double.parseDouble(v);
        } catch (NumberFormatException e) {
          q = 0;
        }
      } else {
        params.put(k, v);
      }
    }
    return new MediaRange(type, subtype, params, q);
  }

  private static List<String> splitOutsideQuotes(String s, char sep) {
    List<String> out = new ArrayList<>();
    boolean quoted = false;
    int start = 0;
    for (int i = 0; i < s.length(); i++) {
      char c = s.charAt(i);
      if (c == '"') {
        quoted = !quoted;
      } else if (c == sep && !quoted) {
        out.add(s.substring(start, i));
        start = i + 1;
      }
    }
    out.add(s.substring(start));
    return out;
  }
}
