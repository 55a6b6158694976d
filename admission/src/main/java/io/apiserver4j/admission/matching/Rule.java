/*
 * Copyright The apiserver4j authors.
 * SPDX-License-Identifier: Apache-2.0
 */
package io.apiserver4j.admission.matching;

import static java.util.Objects.requireNonNull;

import io.apiserver4j.admission.AdmissionAttributes;
import io.apiserver4j.admission.Operation;
import io.apiserver4j.core.GroupVersionResource;
import io.apiserver4j.core.MapValue;
import io.apiserver4j.core.Meta;
import io.apiserver4j.core.Nested;
import io.apiserver4j.core.StringValue;
import io.apiserver4j.core.Value;
import java.util.EnumSet;
import java.util.List;
import java.util.Set;

/**
 * One admissionregistration.k8s.io rule: {@code RuleWithOperations}, or
 * {@code NamedRuleWithOperations} when {@code resourceNames} is non-empty. Matching is kube's
 * {@code rules.Matcher}: the operation, group, version, resource and scope must all match.
 * Resource entries are {@code resource}, {@code resource/subresource}, {@code *},
 * {@code resource/*}, {@code * /subresource} and {@code * /*} (without the space); a plain
 * {@code resource} or {@code *} matches only the main resource, not its subresources.
 *
 * <p>Immutable and thread-safe.
 *
 * @param operations the operations matched ({@code *} on the wire is every operation)
 * @param apiGroups API groups ({@code ""} is the core group; {@code *} matches all)
 * @param apiVersions API versions ({@code *} matches all)
 * @param resources resource entries as above
 * @param scope which objects match by scope
 * @param resourceNames object names matched (policies only); empty matches every name
 */
public record Rule(Set<Operation> operations, List<String> apiGroups, List<String> apiVersions,
    List<String> resources, Scope scope, List<String> resourceNames) {

  private static final GroupVersionResource NAMESPACES =
      new GroupVersionResource("", "v1", "namespaces");

  /** admissionregistration's {@code scope}. */
  public enum Scope {
    /** Cluster-scoped objects, and namespaces themselves. */
    CLUSTER("Cluster"),
    /** Namespaced objects. */
    NAMESPACED("Namespaced"),
    /** Everything. */
    ALL("*");

    private final String wireName;

    Scope(String wireName) {
      this.wireName = wireName;
    }

    /**
     * The name in admissionregistration.k8s.io.
     *
     * @return {@code Cluster}, {@code Namespaced} or {@code *}
     */
    public String wireName() {
      return wireName;
    }

    /**
     * The scope named {@code wireName}; {@link #ALL} for an absent or unknown name.
     *
     * @param wireName the name, possibly null
     * @return the scope
     */
    public static Scope fromWireName(String wireName) {
      for (Scope s : values()) {
        if (s.wireName.equals(wireName)) {
          return s;
        }
      }
      return ALL;
    }
  }

  /**
   * Copies the lists and the operations.
   *
   * @param operations see the record component
   * @param apiGroups see the record component
   * @param apiVersions see the record component
   * @param resources see the record component
   * @param scope see the record component
   * @param resourceNames see the record component
   * @throws NullPointerException when a component or an entry is null
   */
  public Rule {
    operations = operations.isEmpty() ? Set.of() : Set.copyOf(EnumSet.copyOf(operations));
    apiGroups = List.copyOf(apiGroups);
    apiVersions = List.copyOf(apiVersions);
    resources = List.copyOf(resources);
    requireNonNull(scope, "scope");
    resourceNames = List.copyOf(resourceNames);
  }

  /**
   * A rule over all scopes and names.
   *
   * @param operations the operations
   * @param apiGroups the API groups
   * @param apiVersions the API versions
   * @param resources the resources
   * @return the rule
   */
  public static Rule of(Set<Operation> operations, List<String> apiGroups,
      List<String> apiVersions, List<String> resources) {
    return new Rule(operations, apiGroups, apiVersions, resources, Scope.ALL, List.of());
  }

  /**
   * Reads a rule in its JSON form ({@code operations}, {@code apiGroups}, {@code apiVersions},
   * {@code resources}, {@code scope}, {@code resourceNames}); an absent scope is {@code *}, the
   * default kube applies. Unknown operations are ignored (validation rejects them on write).
   *
   * @param rule the rule's JSON form
   * @return the rule
   */
  public static Rule fromValue(Value rule) {
    requireNonNull(rule, "rule");
    Set<Operation> ops = EnumSet.noneOf(Operation.class);
    for (String op : strings(rule, "operations")) {
      if (op.equals("*")) {
        ops.addAll(EnumSet.allOf(Operation.class));
      } else {
        for (Operation o : Operation.values()) {
          if (o.wireName().equals(op)) {
            ops.add(o);
          }
        }
      }
    }
    Value scope = Nested.getOrNull(rule, "scope");
    return new Rule(ops, strings(rule, "apiGroups"),
        strings(rule, "apiVersions"), strings(rule, "resources"),
        scope instanceof StringValue s ? Scope.fromWireName(s.value()) : Scope.ALL,
        strings(rule, "resourceNames"));
  }

  /**
   * Whether the request matches, ignoring {@code resourceNames}.
   *
   * @param a the request
   * @return true when operation, resource and scope match
   */
  public boolean matches(AdmissionAttributes a) {
    return matches(a, a.resource());
  }

  /**
   * Whether the request matches when its resource is taken to be {@code resource} (an
   * equivalent of the requested one), ignoring {@code resourceNames}.
   *
   * @param a the request
   * @param resource the resource to match in place of the requested one
   * @return true when operation, resource and scope match
   */
  public boolean matches(AdmissionAttributes a, GroupVersionResource resource) {
    return scopeMatches(a, resource)
        && operations.contains(a.operation())
        && exactOrWildcard(apiGroups, resource.group())
        && exactOrWildcard(apiVersions, resource.version())
        && resourceMatches(resource.resource(), a.subresource());
  }

  /**
   * Whether {@code resourceNames} admits the request's name.
   *
   * @param a the request
   * @return true when the list is empty or holds the name
   */
  public boolean namesMatch(AdmissionAttributes a) {
    return resourceNames.isEmpty() || resourceNames.contains(a.name());
  }

  private boolean scopeMatches(AdmissionAttributes a, GroupVersionResource resource) {
    // A namespace is cluster-scoped although requests for it carry its name as the namespace.
    boolean clusterScoped = resource.equals(NAMESPACES) || a.namespace().isEmpty();
    switch (scope) {
      case CLUSTER: return clusterScoped;
      case NAMESPACED: return !clusterScoped;
      default: return true;
    }
  }

  private boolean resourceMatches(String resource, String subresource) {
    for (String entry : resources) {
      int slash = entry.indexOf('/');
      String res = slash < 0 ? entry : entry.substring(0, slash);
      String sub = slash < 0 ? "" : entry.substring(slash + 1);
      if ((res.equals("*") || res.equals(resource))
          && (sub.equals("*") || sub.equals(subresource))) {
        return true;
      }
    }
    return false;
  }

  private static boolean exactOrWildcard(List<String> items, String requested) {
    return items.contains("*") || items.contains(requested);
  }

  static List<String> strings(Value rule, String field) {
    return Meta.stringList(Nested.getOrNull(rule, field));
  }

  /**
   * The JSON form, with the fields kube writes.
   *
   * @return the rule as a map
   */
  public MapValue toValue() {
    MapValue.Builder b = MapValue.builder(6);
    if (!resourceNames.isEmpty()) {
      b.put("resourceNames", list(resourceNames));
    }
    List<String> ops = operations.size() == Operation.values().length ? List.of("*")
        : operations.stream().map(Operation::wireName).toList();
    return b.put("operations", list(ops))
        .put("apiGroups", list(apiGroups))
        .put("apiVersions", list(apiVersions))
        .put("resources", list(resources))
        .put("scope", Value.of(scope.wireName()))
        .build();
  }

  private static Value list(List<String> items) {
    return io.apiserver4j.core.ListValue.of(items.stream().map(Value::of).toList());
  }
}
