/*
 * Copyright The apiserver4j authors.
 * SPDX-License-Identifier: Apache-2.0
 */
package io.apiserver4j.registry.internal;

import static org.assertj.core.api.Assertions.assertThat;

import io.apiserver4j.core.GroupVersionKind;
import io.apiserver4j.core.IntegerValue;
import io.apiserver4j.core.ListValue;
import io.apiserver4j.core.MapValue;
import io.apiserver4j.core.Meta;
import io.apiserver4j.core.Value;
import io.apiserver4j.core.Yaml;
import java.io.IOException;
import java.io.InputStream;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.Set;
import java.util.TreeMap;
import java.util.TreeSet;
import org.junit.jupiter.api.Test;

/**
 * Counts, per kind, the defaulting and validation cases of the built-in kinds' table files
 * ({@code builtin/}, {@code strategies/}, {@code groups/}) and the validation rules they cover
 * (distinct field paths, indices folded, with their error types), and writes the table to
 * {@code target/rule-coverage.md}. Every case must name a kind the server has a strategy for.
 */
class RuleCoverageReportTest {
  private static final List<String> FILES = List.of(
      "/io/apiserver4j/apiserver/builtin/pods.yaml",
      "/io/apiserver4j/apiserver/builtin/pod-spec.yaml",
      "/io/apiserver4j/apiserver/builtin/services.yaml",
      "/io/apiserver4j/apiserver/builtin/workloads.yaml",
      "/io/apiserver4j/apiserver/builtin/batch.yaml",
      "/io/apiserver4j/apiserver/builtin/defaults.yaml",
      "/strategies/core.yaml", "/strategies/rbac.yaml", "/strategies/storage.yaml",
      "/strategies/certificates.yaml", "/strategies/flowcontrol.yaml",
      "/strategies/resource.yaml", "/groups/networking.yaml", "/groups/policy.yaml",
      "/groups/autoscaling.yaml", "/groups/coordination.yaml", "/groups/scheduling.yaml",
      "/groups/node.yaml", "/groups/discovery.yaml", "/groups/events.yaml");

  /** What the cases of one kind cover. */
  private static final class Coverage {
    int defaulting;
    int rejected;
    int accepted;
    final Set<String> rules = new TreeSet<>();
  }

  @Test
  void writesTheKindsByDefaultingAndValidationTable() throws IOException {
    Map<GroupVersionKind, Coverage> byKind = new TreeMap<>(
        (a, b) -> (a.group() + "/" + a.kind()).compareTo(b.group() + "/" + b.kind()));
    Set<GroupVersionKind> served = BuiltinStrategies.byKind().keySet();
    int total = 0;
    for (String file : FILES) {
      for (MapValue c : cases(file)) {
        GroupVersionKind kind = kindOf(c);
        assertThat(served).as("%s: %s", file, Meta.string(c, "name")).contains(kind);
        Coverage cov = byKind.computeIfAbsent(kind, k -> new Coverage());
        assertThat(classify(c, cov)).as("%s: %s counts as defaulting or validation", file,
            Meta.string(c, "name")).isTrue();
        total++;
      }
    }
    StringBuilder md = new StringBuilder("| kind | defaulting cases | rejected cases |"
        + " accepted cases | validation rules (field x error type) |\n|---|---|---|---|---|\n");
    int[] sums = new int[4];
    byKind.forEach((k, cov) -> {
      md.append("| ").append(k.group().isEmpty() ? "core" : k.group()).append('/')
          .append(k.kind()).append(" | ").append(cov.defaulting).append(" | ")
          .append(cov.rejected).append(" | ").append(cov.accepted).append(" | ")
          .append(cov.rules.size()).append(" |\n");
      sums[0] += cov.defaulting;
      sums[1] += cov.rejected;
      sums[2] += cov.accepted;
      sums[3] += cov.rules.size();
    });
    md.append("| **").append(byKind.size()).append(" kinds** | ").append(sums[0]).append(" | ")
        .append(sums[1]).append(" | ").append(sums[2]).append(" | ").append(sums[3])
        .append(" |\n");
    Path out = Path.of("target", "rule-coverage.md");
    Files.createDirectories(out.getParent());
    Files.writeString(out, md.toString());

    assertThat(sums[1] + sums[2]).as("validation cases").isLessThanOrEqualTo(total);
    assertThat(Files.readString(out)).contains("| core/Pod | ");
  }

  // a case defaults when it states the stored or defaulted object, rejects when it expects
  // errors (or a 4xx), else it is a valid neighbour
  private static boolean classify(MapValue c, Coverage cov) {
    boolean defaulting = c.containsKey("defaulted") || c.containsKey("expect");
    if (defaulting) {
      cov.defaulting++;
    }
    List<String> errors = c.getOrNull("errors") instanceof ListValue l
        ? Meta.stringList(l) : List.of();
    long code = c.getOrNull("code") instanceof IntegerValue i ? i.value() : 0;
    List<String> messages = new ArrayList<>(errors);
    if (code >= 400) {
      String m = Meta.string(c, "message");
      if (m.isEmpty()) {
        m = Meta.string(c, "messageStartsWith");
      }
      messages.addAll(splitStatusMessage(m));
    }
    if (!messages.isEmpty()) {
      cov.rejected++;
      for (String e : messages) {
        cov.rules.add(rule(e));
      }
      return true;
    }
    if (c.containsKey("errors") || (code >= 200 && code < 300 && !defaulting)) {
      cov.accepted++;
      return true;
    }
    return defaulting;
  }

  // 'Pod "p" is invalid: [a: ..., b: ...]' or '...: a: ...' to its field errors
  private static List<String> splitStatusMessage(String message) {
    int at = message.indexOf(" is invalid: ");
    if (at < 0) {
      return message.isEmpty() ? List.of() : List.of(message);
    }
    String body = message.substring(at + " is invalid: ".length());
    if (body.startsWith("[") && body.endsWith("]")) {
      body = body.substring(1, body.length() - 1);
      List<String> out = new ArrayList<>();
      // field errors are "path: Type..." joined by ", " before the next path
      for (String part : body.split(", (?=[a-zA-Z.\\[\\]0-9{}, -]+: [A-Z])")) {
        out.add(part);
      }
      return out;
    }
    return List.of(body);
  }

  private static String rule(String error) {
    String e = error.startsWith("~") ? error.substring(1).replace('|', ':') : error;
    int colon = e.indexOf(": ");
    String field = colon < 0 ? "" : e.substring(0, colon);
    String rest = colon < 0 ? e : e.substring(colon + 2);
    int typeEnd = rest.indexOf(':');
    String type = typeEnd < 0 ? rest : rest.substring(0, typeEnd);
    return field.replaceAll("\\[\\d+\\]", "[*]") + " " + type;
  }

  private static GroupVersionKind kindOf(MapValue c) {
    if (c.getOrNull("kind") instanceof io.apiserver4j.core.StringValue s) {
      String k = s.value();
      int slash = k.lastIndexOf('/');
      String[] gv = k.substring(0, slash).split("/");
      return new GroupVersionKind(gv[0], gv[1], k.substring(slash + 1));
    }
    MapValue obj = c.getOrNull("object") instanceof MapValue o ? o
        : (MapValue) c.getOrNull("before");
    String apiVersion = Meta.string(obj, "apiVersion");
    int slash = apiVersion.indexOf('/');
    return new GroupVersionKind(slash < 0 ? "" : apiVersion.substring(0, slash),
        apiVersion.substring(slash + 1), Meta.string(obj, "kind"));
  }

  private static List<MapValue> cases(String resource) throws IOException {
    try (InputStream in = RuleCoverageReportTest.class.getResourceAsStream(resource)) {
      assertThat(in).as(resource).isNotNull();
      Value doc = Yaml.read(new String(in.readAllBytes(), StandardCharsets.UTF_8));
      List<MapValue> out = new ArrayList<>();
      for (Value v : ((ListValue) doc).items()) {
        out.add((MapValue) v);
      }
      return out;
    }
  }
}
