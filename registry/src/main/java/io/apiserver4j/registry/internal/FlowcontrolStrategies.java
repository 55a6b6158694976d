/*
 * Copyright The apiserver4j authors.
 * SPDX-License-Identifier: Apache-2.0
 */
package io.apiserver4j.registry.internal;

import static io.apiserver4j.apimachinery.validation.GroupRules.maps;
import static io.apiserver4j.apimachinery.validation.GroupRules.present;
import static io.apiserver4j.apimachinery.validation.GroupRules.str;
import static io.apiserver4j.apimachinery.validation.GroupRules.strings;

import io.apiserver4j.apiserver.strategy.GenerationPolicy;
import io.apiserver4j.apiserver.ResourceStrategy;
import io.apiserver4j.apimachinery.validation.NameValidation;
import io.apiserver4j.core.BooleanValue;
import io.apiserver4j.core.FieldError;
import io.apiserver4j.core.GroupVersionKind;
import io.apiserver4j.core.MapValue;
import io.apiserver4j.core.Nested;
import io.apiserver4j.core.Value;
import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import io.apiserver4j.apimachinery.validation.MetaValidation;
import io.apiserver4j.apimachinery.validation.GroupRules;

/**
 * flowcontrol.apiserver.k8s.io/v1 FlowSchema and PriorityLevelConfiguration: kube's
 * pkg/apis/flowcontrol/v1/defaults.go and the rules of
 * pkg/apis/flowcontrol/validation/validation.go.
 */
final class FlowcontrolStrategies {
  private FlowcontrolStrategies() {}

  private static final int MAX_MATCHING_PRECEDENCE = 10000;
  private static final int MAX_QUEUES = 10 * 1000 * 1000;
  private static final int MAX_HASH_BITS = 60;
  private static final List<String> RESOURCE_VERBS = List.of("create", "delete",
      "deletecollection", "get", "list", "patch", "update", "watch");
  private static final String NS_INTRO =
      "each member of this list must be '*' or a DNS-1123 label; ";

  static Map<GroupVersionKind, ResourceStrategy> strategies() {
    Map<GroupVersionKind, ResourceStrategy> out = new LinkedHashMap<>();
    out.put(flowcontrol("FlowSchema"), ResourceStrategy.builder()
        .nameValidation(NameValidation.PATH_SEGMENT)
        .generationPolicy(GenerationPolicy.SPEC)
        .defaulter(FlowcontrolStrategies::defaultFlowSchema)
        .validator((o, old) -> validateFlowSchema(o))
        .build());
    out.put(flowcontrol("PriorityLevelConfiguration"), ResourceStrategy.builder()
        .nameValidation(NameValidation.PATH_SEGMENT)
        .generationPolicy(GenerationPolicy.SPEC)
        .defaulter(FlowcontrolStrategies::defaultPriorityLevel)
        .validator((o, old) -> validatePriorityLevel(o))
        .build());
    return out;
  }

  private static GroupVersionKind flowcontrol(String kind) {
    return new GroupVersionKind("flowcontrol.apiserver.k8s.io", "v1", kind);
  }

  /** kube's {@code SetDefaults_FlowSchemaSpec}: precedence 0 (or absent) means 1000. */
  static MapValue defaultFlowSchema(MapValue o) {
    if (!(o.getOrNull("spec") instanceof MapValue)) {
      return o;
    }
    return GroupRules.integer(o, "spec", "matchingPrecedence").orElse(0L) == 0
        ? Nested.set(o, Value.of(1000L), "spec", "matchingPrecedence") : o;
  }

  /** kube's limited/exempt and queuing defaults. */
  static MapValue defaultPriorityLevel(MapValue o) {
    MapValue r = Nested.updateMap(o, l -> {
      MapValue x = Nested.setDefault(l, Value.of(30L), "nominalConcurrencyShares");
      x = Nested.setDefault(x, Value.of(0L), "lendablePercent");
      return Nested.updateMap(x, q -> {
        MapValue y = q;
        y = zeroDefault(y, "handSize", 8);
        y = zeroDefault(y, "queues", 64);
        return zeroDefault(y, "queueLengthLimit", 50);
      }, "limitResponse", "queuing");
    }, "spec", "limited");
    return Nested.updateMap(r, e -> {
      MapValue x = Nested.setDefault(e, Value.of(0L), "nominalConcurrencyShares");
      return Nested.setDefault(x, Value.of(0L), "lendablePercent");
    }, "spec", "exempt");
  }

  private static MapValue zeroDefault(MapValue m, String key, long value) {
    return GroupRules.integer(m, key).orElse(0L) == 0 ? m.with(key, Value.of(value)) : m;
  }

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

  static List<FieldError> validatePriorityLevel(MapValue o) {
    List<FieldError> errs = new ArrayList<>();
    String name = str(o, "metadata", "name");
    MapValue spec = Nested.map(o, "spec");
    String type = str(spec, "type");
    if (name.equals("exempt") != type.equals("Exempt")) {
      errs.add(FieldError.invalid("spec.type", Value.of(type),
          "type must be 'Exempt' if and only if name is 'exempt'"));
    }
    switch (type) {
      case "Exempt":
        if (present(spec, "limited")) {
          errs.add(FieldError.forbidden("spec.limited", "must be nil if the type is not Limited"));
        }
        if (spec.getOrNull("exempt") instanceof MapValue e) {
          long shares = GroupRules.integer(e, "nominalConcurrencyShares").orElse(0L);
          if (shares < 0) {
            errs.add(FieldError.invalid("spec.exempt.nominalConcurrencyShares",
                Value.of(shares), "must be a non-negative number"));
          }
          lendable(errs, e, "spec.exempt");
        }
        break;
      case "Limited":
        if (present(spec, "exempt")) {
          errs.add(FieldError.forbidden("spec.exempt", "must be nil if the type is Limited"));
        }
        if (!(spec.getOrNull("limited") instanceof MapValue l)) {
          errs.add(FieldError.required("spec.limited", "must not be empty when type is Limited"));
        } else {
          limited(errs, l);
        }
        break;
      default:
        errs.add(FieldError.notSupported("spec.type", Value.of(type),
            List.of("Exempt", "Limited")));
    }
    return errs;
  }

  private static void lendable(List<FieldError> errs, MapValue m, String at) {
    Optional<Long> p = GroupRules.integer(m, "lendablePercent");
    if (p.isPresent() && (p.get() < 0 || p.get() > 100)) {
      errs.add(FieldError.invalid(at + ".lendablePercent", Value.of(p.get()),
          "must be between 0 and 100, inclusive"));
    }
  }

  private static void limited(List<FieldError> errs, MapValue l) {
    // v1 accepts zero shares (kube's AllowZeroLimitedNominalConcurrencyShares for v1)
    long shares = GroupRules.integer(l, "nominalConcurrencyShares").orElse(0L);
    if (shares < 0) {
      errs.add(FieldError.invalid("spec.limited.nominalConcurrencyShares", Value.of(shares),
          "must be a non-negative integer"));
    }
    MapValue response = Nested.map(l, "limitResponse");
    String type = str(response, "type");
    String at = "spec.limited.limitResponse";
    if (type.equals("Reject")) {
      if (present(response, "queuing")) {
        errs.add(FieldError.forbidden(at + ".queuing",
            "must be nil if limited.limitResponse.type is not Limited"));
      }
    } else if (type.equals("Queue")) {
      if (!(response.getOrNull("queuing") instanceof MapValue q)) {
        errs.add(FieldError.required(at + ".queuing",
            "must not be empty if limited.limitResponse.type is Limited"));
      } else {
        queuing(errs, q, at + ".queuing");
      }
    } else {
      errs.add(FieldError.notSupported(at + ".type", Value.of(type), List.of("Queue", "Reject")));
    }
    lendable(errs, l, "spec.limited");
    Optional<Long> borrowing = GroupRules.integer(l, "borrowingLimitPercent");
    if (borrowing.isPresent() && borrowing.get() < 0) {
      errs.add(FieldError.invalid("spec.limited.borrowingLimitPercent",
          Value.of(borrowing.get()), "if specified, must be a non-negative integer"));
    }
  }

  private static void queuing(List<FieldError> errs, MapValue q, String at) {
    long limit = GroupRules.integer(q, "queueLengthLimit").orElse(0L);
    if (limit <= 0) {
      errs.add(FieldError.invalid(at + ".queueLengthLimit", Value.of(limit), "must be positive"));
    }
    long queues = GroupRules.integer(q, "queues").orElse(0L);
    if (queues <= 0) {
      errs.add(FieldError.invalid(at + ".queues", Value.of(queues), "must be positive"));
    } else if (queues > MAX_QUEUES) {
      errs.add(FieldError.invalid(at + ".queues", Value.of(queues),
          "must not be greater than " + MAX_QUEUES));
    }
    long hand = GroupRules.integer(q, "handSize").orElse(0L);
    if (hand <= 0) {
      errs.add(FieldError.invalid(at + ".handSize", Value.of(hand), "must be positive"));
    } else if (hand > queues) {
      errs.add(FieldError.invalid(at + ".handSize", Value.of(hand),
          "should not be greater than queues (" + queues + ")"));
    } else {
      // shuffle sharding draws handSize cards from a deck of queues with one hash
      int entropy = (int) Math.ceil(Math.log(queues) / Math.log(2) * hand);
      if (entropy > MAX_HASH_BITS) {
        errs.add(FieldError.invalid(at + ".handSize", Value.of(hand), "required entropy bits of"
            + " deckSize " + queues + " and handSize " + hand + " should not be greater than "
            + MAX_HASH_BITS));
      }
    }
  }
}
