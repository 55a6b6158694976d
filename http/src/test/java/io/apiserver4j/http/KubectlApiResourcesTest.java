/*
 * Copyright The apiserver4j authors.
 * SPDX-License-Identifier: Apache-2.0
 */
package io.apiserver4j.http;

import static org.assertj.core.api.Assertions.assertThat;

import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.TreeSet;
import org.junit.jupiter.api.Test;

/**
 * {@code kubectl api-resources -o wide} against a bare server lists exactly what a
 * kube-apiserver 1.36 serves: the table of ../shared/api/README.md (from the v1.36.0 swagger and
 * discovery documents), one line per group and resource at its preferred version.
 */
class KubectlApiResourcesTest extends KubectlServerTest {
  /** One line of kubectl's wide output, or of the reference table. */
  record Line(String name, String shortNames, String apiVersion, boolean namespaced,
      String kind, TreeSet<String> verbs, String categories) {}

  /** The reference table, without the versions kubectl does not show (autoscaling/v1). */
  static Map<String, Line> expected() {
    return expected(Kube136Table.rows());
  }

  /** {@code rows} as kubectl lists them: one line per group and resource. */
  static Map<String, Line> expected(List<Kube136Table.Row> rows) {
    Map<String, Line> out = new LinkedHashMap<>();
    for (Kube136Table.Row r : rows) {
      Line line = new Line(r.plural(), String.join(",", r.shortNames()), r.apiVersion(),
          r.namespaced(), r.kind(), r.verbs(), String.join(",", r.categories()));
      String key = r.group() + "/" + r.plural();
      // kubectl shows a resource once, at its group's preferred version (autoscaling/v2)
      if (!out.containsKey(key) || preferred(r.apiVersion(), out.get(key).apiVersion())) {
        out.put(key, line);
      }
    }
    return out;
  }

  private static String group(String apiVersion) {
    int slash = apiVersion.indexOf('/');
    return slash < 0 ? "" : apiVersion.substring(0, slash);
  }

  private static boolean preferred(String candidate, String current) {
    return candidate.compareTo(current) > 0;
  }

  @Test
  void listsExactlyTheResourcesOfKubernetes136() {
    Map<String, Line> actual = apiResources(kubectl);
    Map<String, Line> expected = expected();
    assertThat(expected).hasSize(67);
    assertThat(actual.keySet()).containsExactlyInAnyOrderElementsOf(expected.keySet());
    List<String> differences = new ArrayList<>();
    for (Map.Entry<String, Line> e : expected.entrySet()) {
      if (!e.getValue().equals(actual.get(e.getKey()))) {
        differences.add("expected " + e.getValue() + "\n     got " + actual.get(e.getKey()));
      }
    }
    assertThat(differences).isEmpty();
  }

  /** What {@code kubectl api-resources -o wide} lists, by group and resource. */
  static Map<String, Line> apiResources(Kubectl kubectl) {
    String out = kubectl.ok("api-resources", "-o", "wide");
    List<String> rows = out.lines().toList();
    String header = rows.get(0);
    int shortAt = header.indexOf("SHORTNAMES");
    int versionAt = header.indexOf("APIVERSION");
    int namespacedAt = header.indexOf("NAMESPACED");
    int kindAt = header.indexOf("KIND");
    int verbsAt = header.indexOf("VERBS");
    int categoriesAt = header.indexOf("CATEGORIES");
    Map<String, Line> actual = new LinkedHashMap<>();
    for (String row : rows.subList(1, rows.size())) {
      String verbs = cut(row, verbsAt, categoriesAt < 0 ? row.length() : categoriesAt);
      Line line = new Line(cut(row, 0, shortAt), cut(row, shortAt, versionAt),
          cut(row, versionAt, namespacedAt), cut(row, namespacedAt, kindAt).equals("true"),
          cut(row, kindAt, verbsAt),
          new TreeSet<>(List.of(verbs.replace("[", "").replace("]", "").split("[ ,]+"))),
          categoriesAt < 0 ? "" : cut(row, categoriesAt, row.length()));
      actual.put(group(line.apiVersion()) + "/" + line.name(), line);
    }
    return actual;
  }

  private static String cut(String row, int from, int to) {
    if (from >= row.length()) {
      return "";
    }
    return row.substring(from, Math.min(to, row.length())).trim();
  }
}
