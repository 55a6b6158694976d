package io.apiserver4j.http;

import static org.assertj.core.api.Assertions.assertThat;

import io.apiserver4j.apiserver.ApiServer;
import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.TreeSet;
import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * {@code kubectl api-resources -o wide} against a bare server lists exactly what a
 * kube-apiserver 1.36 serves: the table of ../shared/api/README.md (from the v1.36.0 swagger and
 * discovery documents), one line per group and resource at its preferred version.
 */
class KubectlApiResourcesTest {
  @TempDir
  static Path dir;
  static ApiServer api;
  static HttpApiServer http;
  static Kubectl kubectl;

  @BeforeAll
  static void start() {
    api = ApiServer.builder().build();
    http = HttpApiServer.builder(api).build();
    http.start();
    kubectl = new Kubectl(dir, http.kubeconfig().build());
  }

  @AfterAll
  static void stop() {
    http.close();
    api.close();
  }

  /** One line of kubectl's wide output, or of the reference table. */
  record Line(String name, String shortNames, String apiVersion, boolean namespaced,
      String kind, TreeSet<String> verbs, String categories) {}

  /** The reference table, without the versions kubectl does not show (autoscaling/v1). */
  static Map<String, Line> expected() throws IOException {
    Path readme = Path.of(System.getProperty("apiserver4j.shared", "../shared"))
        .resolve("api/README.md");
    Map<String, Line> out = new LinkedHashMap<>();
    boolean inTable = false;
    for (String row : Files.readAllLines(readme)) {
      if (row.startsWith("| group/version | resource | kind |")) {
        inTable = true;
        continue;
      }
      if (!inTable || row.startsWith("|---")) {
        continue;
      }
      if (!row.startsWith("|")) {
        break;
      }
      String[] c = Arrays.stream(row.substring(1, row.length() - 1).split("\\|"))
          .map(String::trim).toArray(String[]::new);
      String shortAndCategories = c[5];
      String shortNames = "";
      String categories = "";
      int bracket = shortAndCategories.indexOf('[');
      String shortPart = bracket < 0 ? shortAndCategories
          : shortAndCategories.substring(0, bracket).trim();
      if (bracket >= 0) {
        categories = shortAndCategories.substring(bracket + 1,
            shortAndCategories.indexOf(']'));
      }
      if (!shortPart.equals("—")) {
        shortNames = shortPart;
      }
      Line line = new Line(c[1], shortNames, c[0], c[3].equals("Namespaced"), c[2],
          new TreeSet<>(List.of(c[4].split(","))), categories);
      String key = group(c[0]) + "/" + c[1];
      // kubectl shows a resource once, at its group's preferred version (autoscaling/v2)
      if (!out.containsKey(key) || preferred(c[0], out.get(key).apiVersion())) {
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
  void listsExactlyTheResourcesOfKubernetes136() throws IOException {
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

  private static String cut(String row, int from, int to) {
    if (from >= row.length()) {
      return "";
    }
    return row.substring(from, Math.min(to, row.length())).trim();
  }
}
