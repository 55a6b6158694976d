/*
 * Copyright The apiserver4j authors.
 * SPDX-License-Identifier: Apache-2.0
 */
package io.apiserver4j.registry.flowcontrol.flowschema;

import static io.apiserver4j.apimachinery.validation.GroupRules.maps;
import static io.apiserver4j.apimachinery.validation.GroupRules.present;
import static io.apiserver4j.apimachinery.validation.GroupRules.str;
import static io.apiserver4j.apimachinery.validation.GroupRules.strings;

import io.apiserver4j.apimachinery.validation.GroupRules;
import io.apiserver4j.apimachinery.validation.MetaValidation;
import io.apiserver4j.apiserver.strategy.GenerationPolicy;
import io.apiserver4j.apiserver.ResourceStrategy;
import io.apiserver4j.apimachinery.validation.NameValidation;
import io.apiserver4j.core.BooleanValue;
import io.apiserver4j.core.errors.FieldError;
import io.apiserver4j.core.MapValue;
import io.apiserver4j.core.Nested;
import io.apiserver4j.core.Value;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;

/**
 * kube's {@code ValidateFlowSchema} (pkg/apis/flowcontrol/validation/validation.go): matching
 * precedence, distinguisher method, the priority level reference, and each rule's subjects,
 * resource rules and non-resource rules, with kube's paths and messages.
 */
final class FlowSchemaValidation {
  private FlowSchemaValidation() {}

  private static final int MAX_MATCHING_PRECEDENCE = 10000;
  private static final List<String> RESOURCE_VERBS = List.of("create", "delete",
      "deletecollection", "get", "list", "patch", "update", "watch");
  private static final String NS_INTRO =
      "each member of this list must be '*' or a DNS-1123 label; ";

  static List<FieldError> validateFlowSchema(MapValue o) {
    List<FieldError> errs = new ArrayList<>();
    String name = GroupRules.str(o, "metadata", "name");
    MapValue spec = Nested.map(o, "spec");
    long precedence = GroupRules.integer(spec, "matchingPrecedence").orElse(0L);
    if (precedence <= 0) {
      errs.add(FieldError.invalid("spec.matchingPrecedence", Value.of(precedence),
          "must be a positive value"));
    }
    if (precedence > MAX_MATCHING_PRECEDENCE) {
      errs.add(FieldError.invalid("spec.matchingPrecedence", Value.of(precedence),
          "must not be greater than " + MAX_MATCHING_PRECEDENCE));
    }
    if (precedence == 1 && !name.equals("exempt")) {
      errs.add(FieldError.invalid("spec.matchingPrecedence", Value.of(precedence),
          "only the schema named 'exempt' may have matchingPrecedence 1"));
    }
    if (spec.getOrNull("distinguisherMethod") instanceof MapValue dm) {
      String type = str(dm, "type");
      if (!type.equals("ByNamespace") && !type.equals("ByUser")) {
        errs.add(FieldError.notSupported("spec.distinguisherMethod.type", dm,
            List.of("ByNamespace", "ByUser")));
      }
    }
    String level = str(spec, "priorityLevelConfiguration", "name");
    if (level.isEmpty()) {
      errs.add(FieldError.required("spec.priorityLevelConfiguration.name",
          "must reference a priority level"));
    } else {
      for (String msg : MetaValidation.pathSegment(level, false)) {
        errs.add(FieldError.invalid("spec.priorityLevelConfiguration.name", Value.of(level), msg));
      }
    }
    List<MapValue> rules = maps(spec, "rules");
    for (int i = 0; i < rules.size(); i++) {
      rule(errs, rules.get(i), "spec.rules[" + i + "]");
    }
    return errs;
  }

  private static void rule(List<FieldError> errs, MapValue rule, String at) {
    List<MapValue> subjects = maps(rule, "subjects");
    if (subjects.isEmpty()) {
      errs.add(FieldError.required(at + ".subjects", "subjects must contain at least one value"));
    }
    for (int i = 0; i < subjects.size(); i++) {
      subject(errs, subjects.get(i), at + ".subjects[" + i + "]");
    }
    List<MapValue> resources = maps(rule, "resourceRules");
    List<MapValue> nonResources = maps(rule, "nonResourceRules");
    if (resources.isEmpty() && nonResources.isEmpty()) {
      errs.add(FieldError.required(at,
          "at least one of resourceRules and nonResourceRules has to be non-empty"));
    }
    for (int i = 0; i < resources.size(); i++) {
      resourceRule(errs, resources.get(i), at + ".resourceRules[" + i + "]");
    }
    for (int i = 0; i < nonResources.size(); i++) {
      nonResourceRule(errs, nonResources.get(i), at + ".nonResourceRules[" + i + "]");
    }
  }

  private static void subject(List<FieldError> errs, MapValue s, String at) {
    String kind = str(s, "kind");
    Map<String, String> fields = Map.of("ServiceAccount", "serviceAccount", "User", "user",
        "Group", "group");
    if (!fields.containsKey(kind)) {
      errs.add(FieldError.notSupported(at + ".kind", Value.of(kind),
          List.of("Group", "ServiceAccount", "User")));
      return;
    }
    String field = fields.get(kind);
    if (!(s.getOrNull(field) instanceof MapValue m)) {
      errs.add(FieldError.required(at + "." + field,
          field + " is required when subject kind is '" + kind + "'"));
    } else {
      String name = str(m, "name");
      if (name.isEmpty()) {
        errs.add(FieldError.required(at + "." + field + ".name", ""));
      } else if (kind.equals("ServiceAccount") && !name.equals("*")) {
        for (String msg : MetaValidation.dns1123Subdomain(name)) {
          errs.add(FieldError.invalid(at + ".serviceAccount.name", Value.of(name), msg));
        }
      }
      if (kind.equals("ServiceAccount")) {
        String ns = str(m, "namespace");
        if (ns.isEmpty()) {
          errs.add(FieldError.required(at + ".serviceAccount.namespace",
              "must specify namespace for service account"));
        } else {
          for (String msg : MetaValidation.dns1123Label(ns)) {
            errs.add(FieldError.invalid(at + ".serviceAccount.namespace", Value.of(ns), msg));
          }
        }
      }
    }
    for (Map.Entry<String, String> other : List.of(Map.entry("ServiceAccount",
        "serviceAccount"), Map.entry("User", "user"), Map.entry("Group", "group"))) {
      if (!other.getKey().equals(kind) && present(s, other.getValue())) {
        errs.add(FieldError.forbidden(at + "." + other.getValue(), other.getValue()
            + " is forbidden when subject kind is not '" + other.getKey() + "'"));
      }
    }
  }

  private static boolean wildcardWithOthers(List<String> values) {
    return values.contains("*") && values.size() > 1;
  }

  private static void resourceRule(List<FieldError> errs, MapValue rule, String at) {
    List<String> verbs = strings(rule, "verbs");
    if (verbs.isEmpty()) {
      errs.add(FieldError.required(at + ".verbs", "verbs must contain at least one value"));
    } else if (verbs.contains("*")) {
      if (verbs.size() > 1) {
        errs.add(FieldError.invalid(at + ".verbs", rule.getOrNull("verbs"),
            "if '*' is present, must not specify other verbs"));
      }
    } else if (!RESOURCE_VERBS.containsAll(verbs)) {
      errs.add(FieldError.notSupported(at + ".verbs", rule.getOrNull("verbs"), RESOURCE_VERBS));
    }
    List<String> groups = strings(rule, "apiGroups");
    if (groups.isEmpty()) {
      errs.add(FieldError.required(at + ".apiGroups",
          "resource rules must supply at least one api group"));
    } else if (wildcardWithOthers(groups)) {
      errs.add(FieldError.invalid(at + ".apiGroups", rule.getOrNull("apiGroups"),
          "if '*' is present, must not specify other api groups"));
    }
    List<String> resources = strings(rule, "resources");
    if (resources.isEmpty()) {
      errs.add(FieldError.required(at + ".resources",
          "resource rules must supply at least one resource"));
    } else if (wildcardWithOthers(resources)) {
      errs.add(FieldError.invalid(at + ".resources", rule.getOrNull("resources"),
          "if '*' is present, must not specify other resources"));
    }
    List<String> namespaces = strings(rule, "namespaces");
    boolean clusterScope = rule.getOrNull("clusterScope") instanceof BooleanValue b && b.value();
    if (namespaces.isEmpty() && !clusterScope) {
      errs.add(FieldError.required(at + ".namespaces",
          "resource rules that are not cluster scoped must supply at least one namespace"));
    } else if (namespaces.contains("*")) {
      if (namespaces.size() > 1) {
        errs.add(FieldError.invalid(at + ".namespaces", rule.getOrNull("namespaces"),
            "if '*' is present, must not specify other namespaces"));
      }
    } else {
      for (int i = 0; i < namespaces.size(); i++) {
        String ns = namespaces.get(i);
        for (String msg : MetaValidation.dns1123Label(ns)) {
          errs.add(FieldError.invalid(at + ".namespaces[" + i + "]", Value.of(ns),
              NS_INTRO + msg));
        }
      }
    }
  }

  private static void nonResourceRule(List<FieldError> errs, MapValue rule, String at) {
    List<String> verbs = strings(rule, "verbs");
    if (verbs.isEmpty()) {
      errs.add(FieldError.required(at + ".verbs", "verbs must contain at least one value"));
    } else if (wildcardWithOthers(verbs)) {
      errs.add(FieldError.invalid(at + ".verbs", rule.getOrNull("verbs"),
          "if '*' is present, must not specify other verbs"));
    }
    List<String> urls = strings(rule, "nonResourceURLs");
    if (urls.isEmpty()) {
      errs.add(FieldError.required(at + ".nonResourceURLs",
          "nonResource rules must supply at least one non-resource url"));
    } else if (wildcardWithOthers(urls)) {
      errs.add(FieldError.invalid(at + ".nonResourceURLs", rule.getOrNull("nonResourceURLs"),
          "if '*' is present, must not specify other non-resource URLs"));
    } else {
      for (int i = 0; i < urls.size(); i++) {
        String url = urls.get(i);
        if (!url.equals("*") && !url.startsWith("/")) {
          errs.add(FieldError.invalid(at + ".nonResourceURLs[" + i + "]", Value.of(url),
              "must start with slash"));
        }
      }
    }
  }
}
