/*
 * Copyright The apiserver4j authors.
 * SPDX-License-Identifier: Apache-2.0
 */
package io.apiserver4j.admission.webhook;

import static java.util.Objects.requireNonNull;

import io.apiserver4j.admission.AdmissionAttributes;
import io.apiserver4j.admission.Operation;
import io.apiserver4j.admission.matching.Rule;
import java.util.EnumSet;
import java.util.List;
import java.util.Set;

/**
 * Which requests a webhook sees: admissionregistration.k8s.io/v1 {@code RuleWithOperations},
 * checked to be complete when built, then matched as the shared {@link Rule} (one matcher for
 * webhooks and policies).
 *
 * <p>A request matches when its operation is listed, its group and version are listed (or
 * {@code *}), its resource matches one entry of {@code resources} and its scope matches.
 * Resource entries are {@code resource}, {@code resource/subresource}, {@code *},
 * {@code resource/*} or {@code * /subresource} (without the space); a plain {@code resource}
 * or {@code *} matches only requests for the main resource, not its subresources.
 *
 * @param operations the operations matched
 * @param apiGroups API groups ({@code ""} is the core group; {@code *} matches all)
 * @param apiVersions API versions ({@code *} matches all)
 * @param resources resources as described above
 * @param scope which objects match by scope
 */
public record WebhookRule(
    Set<Operation> operations, List<String> apiGroups, List<String> apiVersions,
    List<String> resources, Rule.Scope scope) {

  /**
   * Checks the components and copies the lists.
   *
   * @param operations see the record component
   * @param apiGroups see the record component
   * @param apiVersions see the record component
   * @param resources see the record component
   * @param scope see the record component
   * @throws IllegalArgumentException when a list is empty or holds an empty entry (other than
   *     the core group {@code ""} in {@code apiGroups})
   */
  public WebhookRule {
    operations = Set.copyOf(requireNonNull(operations, "operations"));
    apiGroups = List.copyOf(requireNonNull(apiGroups, "apiGroups"));
    apiVersions = List.copyOf(requireNonNull(apiVersions, "apiVersions"));
    resources = List.copyOf(requireNonNull(resources, "resources"));
    requireNonNull(scope, "scope");
    if (operations.isEmpty()) {
      throw new IllegalArgumentException("webhook rule: operations must not be empty");
    }
    if (apiGroups.isEmpty()) {
      throw new IllegalArgumentException("webhook rule: apiGroups must not be empty");
    }
    nonEmptyEntries("apiVersions", apiVersions);
    nonEmptyEntries("resources", resources);
    for (String r : resources) {
      int slash = r.indexOf('/');
      if (slash == 0 || slash == r.length() - 1) {
        throw new IllegalArgumentException("webhook rule: malformed resource \"" + r + "\"");
      }
    }
  }

  /**
   * A rule over all scopes.
   *
   * @param operations the operations
   * @param apiGroups the API groups
   * @param apiVersions the API versions
   * @param resources the resources
   * @return the rule
   * @throws IllegalArgumentException when a list is empty or holds an empty entry
   */
  public static WebhookRule of(
      Set<Operation> operations, List<String> apiGroups, List<String> apiVersions,
      List<String> resources) {
    return new WebhookRule(operations, apiGroups, apiVersions, resources, Rule.Scope.ALL);
  }

  /**
   * Every operation ({@code "*"} in admissionregistration).
   *
   * @return the set of all operations
   */
  public static Set<Operation> allOperations() {
    return EnumSet.allOf(Operation.class);
  }

  /**
   * This rule as the shared matching's {@link Rule}.
   *
   * @return the equivalent rule
   */
  public Rule toRule() {
    return new Rule(operations, apiGroups, apiVersions, resources, scope, List.of());
  }

  /**
   * Whether the request matches this rule.
   *
   * @param a the request
   * @return true when operation, resource and scope match
   */
  public boolean matches(AdmissionAttributes a) {
    return toRule().matches(a);
  }

  private static void nonEmptyEntries(String field, List<String> items) {
    if (items.isEmpty()) {
      throw new IllegalArgumentException("webhook rule: " + field + " must not be empty");
    }
    for (String s : items) {
      if (s.isEmpty()) {
        throw new IllegalArgumentException("webhook rule: " + field + " holds an empty entry");
      }
    }
  }
}
