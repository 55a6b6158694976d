/*
 * Copyright The apiserver4j authors.
 * SPDX-License-Identifier: Apache-2.0
 */
package io.apiserver4j.validate;

import io.apiserver4j.core.Json;
import io.apiserver4j.core.ListValue;
import io.apiserver4j.core.MapValue;
import io.apiserver4j.core.Meta;
import io.apiserver4j.core.Value;
import java.util.ArrayList;
import java.util.List;
import java.util.Locale;

/** The three ways {@code validate} prints its verdicts: text, JSON and JUnit XML. */
public final class Reports {
  /** The formats {@link #format} knows: {@code text}, {@code json} and {@code junit}. */
  public static final List<String> FORMATS = List.of("text", "json", "junit");

  private Reports() {}

  /**
   * The report of {@code verdicts} in {@code format}.
   *
   * @param format one of {@link #FORMATS}
   * @param verdicts a run's verdicts
   * @return the report
   * @throws IllegalArgumentException for another format
   */
  public static String format(String format, List<Verdict> verdicts) {
    return switch (format) {
      case "text" -> text(verdicts);
      case "json" -> json(verdicts);
      case "junit" -> junit(verdicts);
      default -> throw new IllegalArgumentException("unknown output format \"" + format
          + "\": use text, json or junit");
    };
  }

  /**
   * One line per document, {@code file:line: } and what kubectl prints for it, in the order of
   * the manifests.
   */
  public static String text(List<Verdict> verdicts) {
    StringBuilder out = new StringBuilder();
    for (Verdict v : verdicts) {
      out.append(v.manifest().location()).append(": ").append(v.message()).append('\n');
    }
    return out.toString();
  }

  /**
   * A JSON array with one object per document: {@code file}, {@code line}, {@code apiVersion},
   * {@code kind}, {@code namespace}, {@code name} (those the document has), {@code result}
   * ({@code valid}, {@code invalid}, {@code error}), {@code message} (kubectl's line) and, when
   * the server refused the object, its {@code status}.
   */
  public static String json(List<Verdict> verdicts) {
    List<Value> items = new ArrayList<>();
    for (Verdict v : verdicts) {
      MapValue.Builder b = MapValue.builder()
          .put("file", Value.of(v.manifest().source()))
          .put("line", Value.of((long) v.manifest().line()));
      v.manifest().object().ifPresent(o -> {
        for (String key : List.of("apiVersion", "kind")) {
          if (o.getOrNull(key) != null) {
            b.put(key, o.getOrNull(key));
          }
        }
        for (String key : List.of("namespace", "name")) {
          String s = Meta.metaString(o, key);
          if (s != null && !s.isEmpty()) {
            b.put(key, Value.of(s));
          }
        }
      });
      b.put("result", Value.of(resultName(v.result())));
      b.put("message", Value.of(v.message()));
      v.status().ifPresent(s -> b.put("status", s.toValue()));
      items.add(b.build());
    }
    return Json.write(ListValue.of(items)) + "\n";
  }

  private static String resultName(Verdict.Result r) {
    return r == Verdict.Result.BAD_INPUT ? "error" : r.name().toLowerCase(Locale.ROOT);
  }

  /**
   * A JUnit XML report: one {@code testsuite}, one {@code testcase} per document (class name the
   * file, name its line, kind and name), a {@code failure} for an invalid document and an
   * {@code error} for one that could not be read.
   */
  public static String junit(List<Verdict> verdicts) {
    long failures = verdicts.stream().filter(v -> v.result() == Verdict.Result.INVALID).count();
    long errors = verdicts.stream().filter(v -> v.result() == Verdict.Result.BAD_INPUT).count();
    StringBuilder out = new StringBuilder("<?xml version=\"1.0\" encoding=\"UTF-8\"?>\n");
    out.append("<testsuite name=\"apiserver4j validate\" tests=\"").append(verdicts.size())
        .append("\" failures=\"").append(failures).append("\" errors=\"").append(errors)
        .append("\" skipped=\"0\">\n");
    for (Verdict v : verdicts) {
      String what = v.manifest().object().map(o -> Meta.string(o, "kind") + " "
          + (Meta.metaString(o, "name") == null ? "" : Meta.metaString(o, "name"))).orElse("");
      out.append("  <testcase classname=\"").append(xml(v.manifest().source()))
          .append("\" name=\"").append(xml(("line " + v.manifest().line() + " " + what).strip()))
          .append('"');
      if (v.result() == Verdict.Result.VALID) {
        out.append("/>\n");
        continue;
      }
      String tag = v.result() == Verdict.Result.INVALID ? "failure" : "error";
      out.append(">\n    <").append(tag).append(" message=\"").append(xml(v.message()))
          .append("\">").append(xml(v.message())).append("</").append(tag).append(">\n")
          .append("  </testcase>\n");
    }
    return out.append("</testsuite>\n").toString();
  }

  private static String xml(String s) {
    StringBuilder b = new StringBuilder(s.length());
    for (int i = 0; i < s.length(); i++) {
      char c = s.charAt(i);
      switch (c) {
        case '<' -> b.append("&lt;");
        case '>' -> b.append("&gt;");
        case '&' -> b.append("&amp;");
        case '"' -> b.append("&quot;");
        case '\n' -> b.append("&#10;");
        default -> {
          // XML 1.0 has no way to write the other control characters
          if (c >= 0x20 || c == '\t') {
            b.append(c);
          }
        }
      }
    }
    return b.toString();
  }
}
