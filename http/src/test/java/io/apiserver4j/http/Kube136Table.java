/*
 * Copyright The apiserver4j authors.
 * SPDX-License-Identifier: Apache-2.0
 */
package io.apiserver4j.http;

import java.io.IOException;
import java.io.UncheckedIOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.List;
import java.util.TreeSet;

/**
 * The table of the 68 resources a kube-apiserver 1.36 serves by default, read from
 * ../shared/api/README.md (resources, kinds, scopes and verbs from the v1.36.0 swagger; short
 * names and categories from the 1.36 discovery documents).
 */
final class Kube136Table {
  private Kube136Table() {}

  /** One row: a resource of one group version. */
  record Row(String apiVersion, String plural, String kind, boolean namespaced,
      TreeSet<String> verbs, List<String> shortNames, List<String> categories) {
    String group() {
      int slash = apiVersion.indexOf('/');
      return slash < 0 ? "" : apiVersion.substring(0, slash);
    }

    String version() {
      return apiVersion.substring(apiVersion.indexOf('/') + 1);
    }

    @Override
    public String toString() {
      return apiVersion + " " + plural;
    }
  }

  static Path shared() {
    return Path.of(System.getProperty("apiserver4j.shared", "../shared"));
  }

  static List<Row> rows() {
    return rows(io.apiserver4j.kubeapi.KubeVersion.latest());
  }

  /**
   * The table of {@code version}: ../shared/api/README.md for 1.36, else
   * ../shared/api-versions/{@code version}/README.md (the same derivation from that release's
   * swagger and discovery data).
   */
  static List<Row> rows(io.apiserver4j.kubeapi.KubeVersion version) {
    List<String> lines;
    try {
      lines = Files.readAllLines(version == io.apiserver4j.kubeapi.KubeVersion.latest()
          ? shared().resolve("api/README.md")
          : shared().resolve("api-versions/" + version + "/README.md"));
    } catch (IOException e) {
      throw new UncheckedIOException(e);
    }
    List<Row> out = new ArrayList<>();
    boolean inTable = false;
    for (String line : lines) {
      if (line.startsWith("| group/version | resource | kind | scope |")) {
        inTable = true;
        continue;
      }
      if (!inTable || line.startsWith("|---")) {
        continue;
      }
      if (!line.startsWith("|")) {
        break;
      }
      String[] c = Arrays.stream(line.substring(1, line.length() - 1).split("\\|"))
          .map(String::trim).toArray(String[]::new);
      String names = c[5];
      int bracket = names.indexOf('[');
      String shortPart = (bracket < 0 ? names : names.substring(0, bracket)).trim();
      List<String> categories = bracket < 0 ? List.of()
          : List.of(names.substring(bracket + 1, names.indexOf(']')).split(","));
      List<String> shortNames = shortPart.equals("—") ? List.of()
          : List.of(shortPart.split(","));
      out.add(new Row(c[0], c[1], c[2], c[3].equals("Namespaced"),
          new TreeSet<>(List.of(c[4].split(","))), shortNames, categories));
    }
    return out;
  }
}
