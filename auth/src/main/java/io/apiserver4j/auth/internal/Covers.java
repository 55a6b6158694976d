/*
 * Copyright The apiserver4j authors.
 * SPDX-License-Identifier: Apache-2.0
 */
package io.apiserver4j.auth.internal;

import io.apiserver4j.core.GoStrings;
import io.apiserver4j.core.Meta;
import io.apiserver4j.core.Nested;
import io.apiserver4j.core.Value;
import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.TreeSet;

/**
 * kube's RBAC escalation arithmetic ({@code rbac/validation}): whether the rules a user holds
 * cover rules they grant, and the missing rights in kube's compact notation
 * ({@code {APIGroups:["apps"], Resources:["deployments"], Verbs:["get" "list"]}}).
 */
public final class Covers {
  private Covers() {}

  /** One atomic right: a verb on one group/resource(/name), or on one non-resource URL. */
  private record Right(String group, String resource, String name, String url, String verb) {}

  /** The missing rights, compacted and sorted as kube prints them; empty when covered. */
  public static List<String> missing(List<Value> owner, List<Value> granted) {
    List<Right> missing = new ArrayList<>();
    for (Value rule : granted) {
      for (Right r : breakdown(rule)) {
        if (owner.stream().noneMatch(o -> covers(o, r))) {
          missing.add(r);
        }
      }
    }
    return compact(missing);
  }

  private static List<Right> breakdown(Value rule) {
    List<Right> out = new ArrayList<>();
    List<String> verbs = strings(rule, "verbs");
    for (String group : strings(rule, "apiGroups")) {
      for (String resource : strings(rule, "resources")) {
        for (String verb : verbs) {
          List<String> names = strings(rule, "resourceNames");
          if (names.isEmpty()) {
            out.add(new Right(group, resource, null, null, verb));
          } else {
            names.forEach(n -> out.add(new Right(group, resource, n, null, verb)));
          }
        }
      }
    }
    for (String url : strings(rule, "nonResourceURLs")) {
      for (String verb : verbs) {
        out.add(new Right(null, null, null, url, verb));
      }
    }
    return out;
  }

  private static boolean covers(Value owner, Right r) {
    List<String> verbs = strings(owner, "verbs");
    if (!verbs.contains("*") && !verbs.contains(r.verb())) {
      return false;
    }
    if (r.url() != null) {
      return strings(owner, "nonResourceURLs").stream().anyMatch(u -> u.equals(r.url())
          || (u.endsWith("*") && r.url().startsWith(u.substring(0, u.length() - 1))));
    }
    List<String> groups = strings(owner, "apiGroups");
    if (!groups.contains("*") && !groups.contains(r.group())) {
      return false;
    }
    List<String> resources = strings(owner, "resources");
    int slash = r.resource().indexOf('/');
    boolean resource = resources.contains("*") || resources.contains(r.resource())
        || (slash >= 0 && resources.contains("*" + r.resource().substring(slash)));
    if (!resource) {
      return false;
    }
    List<String> names = strings(owner, "resourceNames");
    return names.isEmpty() || (r.name() != null && names.contains(r.name()));
  }

  // kube's CompactRules: rights on the same group and resource (without names) share one rule
  private static List<String> compact(List<Right> rights) {
    Map<String, List<String>> verbsByTarget = new LinkedHashMap<>();
    List<String> out = new ArrayList<>();
    for (Right r : rights) {
      if (r.url() == null && r.name() == null) {
        List<String> verbs = verbsByTarget.computeIfAbsent(r.group() + "\0" + r.resource(),
            k -> new ArrayList<>());
        if (!verbs.contains(r.verb())) {
          verbs.add(r.verb());
        }
      } else if (r.url() != null) {
        out.add("{NonResourceURLs:" + quoted(List.of(r.url())) + ", Verbs:"
            + quoted(List.of(r.verb())) + "}");
      } else {
        out.add("{APIGroups:" + quoted(List.of(r.group())) + ", Resources:"
            + quoted(List.of(r.resource())) + ", ResourceNames:" + quoted(List.of(r.name()))
            + ", Verbs:" + quoted(List.of(r.verb())) + "}");
      }
    }
    verbsByTarget.forEach((target, verbs) -> {
      String[] gr = target.split("\0", -1);
      out.add("{APIGroups:" + quoted(List.of(gr[0])) + ", Resources:" + quoted(List.of(gr[1]))
          + ", Verbs:" + quoted(verbs) + "}");
    });
    return List.copyOf(new TreeSet<>(out));
  }

  /** Go's {@code %q} of a string slice: {@code ["a" "b"]}. */
  public static String quoted(List<String> values) {
    List<String> q = values.stream().map(GoStrings::quote).toList();
    return "[" + String.join(" ", q) + "]";
  }

  private static List<String> strings(Value rule, String field) {
    return Meta.stringList(Nested.getOrNull(rule, field));
  }
}
