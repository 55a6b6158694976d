/*
 * Copyright The apiserver4j authors.
 * SPDX-License-Identifier: Apache-2.0
 */
package io.apiserver4j.auth;

import io.apiserver4j.admission.UserInfo;
import io.apiserver4j.apiserver.ApiRequest;
import io.apiserver4j.apiserver.ApiResponse;
import io.apiserver4j.apiserver.ApiServer;
import io.apiserver4j.auth.internal.PolicyRules;
import io.apiserver4j.auth.internal.RbacIndex;
import io.apiserver4j.core.ListValue;
import io.apiserver4j.core.GoStrings;
import io.apiserver4j.core.MapValue;
import io.apiserver4j.core.Meta;
import io.apiserver4j.core.Nested;
import io.apiserver4j.core.Value;
import io.apiserver4j.authz.AuthorizationAttributes;
import io.apiserver4j.authz.AuthorizationDecision;
import io.apiserver4j.authz.Authorizer;
import io.apiserver4j.storage.Store;
import java.util.ArrayList;
import java.util.LinkedHashSet;
import java.util.List;
import java.util.Optional;
import java.util.Set;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * kube-apiserver's RBAC authorizer over the Roles, ClusterRoles, RoleBindings and
 * ClusterRoleBindings in a store: a request is allowed when a rule of a role bound to the user
 * (by name, group or service account) allows it — cluster role bindings everywhere, role
 * bindings in their namespace. A denial carries kube's reason: empty, or {@code RBAC: } and the
 * bindings whose role is missing; an allowance names its binding, role and subject (kube's
 * {@code RBAC: allowed by ...}), and {@code system:masters} is allowed before any binding is
 * consulted, as kube's privileged-group authorizer does. Writes through the server are seen by
 * the next request.
 * Thread-safe; close it to stop following the store.
 */
public final class RbacAuthorizer implements Authorizer, AutoCloseable {
  private static final Logger LOG = LoggerFactory.getLogger(RbacAuthorizer.class);
  private static final String AGGREGATOR = "kube-controller-manager/v1.36.0"
      + " (linux/amd64) kubernetes/clusterrole-aggregation-controller";
  private final RbacIndex index;
  private volatile ApiServer aggregationTarget;
  private volatile RbacIndex.Snapshot aggregated;

  private static final String SYSTEM_MASTERS = "system:masters";

  private RbacAuthorizer(Store store) {
    this.index = new RbacIndex(store);
  }

  /** An authorizer over the RBAC objects of {@code store}. */
  public static RbacAuthorizer over(Store store) {
    return new RbacAuthorizer(store);
  }

  /**
   * Keeps the rules of aggregated ClusterRoles in storage up to date through {@code server}, as
   * kube's cluster role aggregation controller does: whenever the RBAC objects change, before
   * the next decision.
   */
  public RbacAuthorizer aggregateInto(ApiServer server) {
    this.aggregationTarget = server;
    return this;
  }

  @Override
  public AuthorizationDecision authorize(AuthorizationAttributes a) {
    UserInfo user = a.user();
    // also keeps aggregated roles current for every request, whoever makes it
    RbacIndex.Snapshot s = current();
    // kube-apiserver puts its privileged-group authorizer before RBAC: system:masters may do
    // anything, with no reason given, whatever the bindings say
    if (user.groups().contains(SYSTEM_MASTERS)) {
      return AuthorizationDecision.allow();
    }
    Set<String> errors = new LinkedHashSet<>();
    for (RbacIndex.Binding b : s.clusterBindings(user.name(), user.groups())) {
      if (allows(s, b, a, errors)) {
        return AuthorizationDecision.allow("RBAC: allowed by ClusterRoleBinding "
            + GoStrings.quote(b.name()) + describe(b, user));
      }
    }
    if (a.resourceRequest() && !a.namespace().isEmpty()) {
      for (RbacIndex.Binding b : s.bindings(a.namespace(), user.name(), user.groups())) {
        if (allows(s, b, a, errors)) {
          return AuthorizationDecision.allow("RBAC: allowed by RoleBinding "
              + GoStrings.quote(b.name() + "/" + b.namespace()) + describe(b, user));
        }
      }
    }
    return AuthorizationDecision.deny(errors.isEmpty() ? ""
        : "RBAC: " + aggregate(new ArrayList<>(errors)));
  }

  private static boolean allows(RbacIndex.Snapshot s, RbacIndex.Binding b,
      AuthorizationAttributes a, Set<String> errors) {
    Optional<MapValue> role = s.role(b);
    if (role.isEmpty()) {
      errors.add(notFound(b));
      return false;
    }
    for (Value rule : Nested.list(role.get(), "rules")) {
      if (PolicyRules.allows(rule, a)) {
        return true;
      }
    }
    return false;
  }

  /**
   * The rest of kube's allow reason ({@code clusterRoleBindingDescriber}): the role and the
   * first subject of the binding that names the user.
   */
  private static String describe(RbacIndex.Binding b, UserInfo user) {
    String subject = "";
    for (Value s : b.subjects()) {
      String kind = Nested.str(s, "kind");
      String name = Nested.str(s, "name");
      if (kind.equals("ServiceAccount")) {
        String ns = Nested.str(s, "namespace");
        ns = ns.isEmpty() ? b.namespace() : ns;
        if (user.name().equals("system:serviceaccount:" + ns + ":" + name)) {
          subject = kind + " " + GoStrings.quote(name + "/" + ns);
          break;
        }
      } else if ((kind.equals("User") && user.name().equals(name))
          || (kind.equals("Group") && user.groups().contains(name))) {
        subject = kind + " " + GoStrings.quote(name);
        break;
      }
    }
    return " of " + b.roleKind() + " " + GoStrings.quote(b.roleName()) + " to " + subject;
  }

  /** The error of a binding whose role is missing, as kube's rule resolver words it. */
  private static String notFound(RbacIndex.Binding b) {
    return (b.roleKind().equals("ClusterRole") ? "clusterrole" : "role")
        + ".rbac.authorization.k8s.io \"" + b.roleName() + "\" not found";
  }

  // apimachinery's utilerrors aggregate: one error as is, several as [a, b]
  private static String aggregate(List<String> errors) {
    return errors.size() == 1 ? errors.get(0) : "[" + String.join(", ", errors) + "]";
  }

  /**
   * The rules that apply to {@code user} in {@code namespace} (empty: cluster-wide only), as a
   * SelfSubjectRulesReview lists them, and the errors met on the way.
   */
  public RulesResult rulesFor(UserInfo user, String namespace) {
    RbacIndex.Snapshot s = current();
    List<Value> rules = new ArrayList<>();
    Set<String> errors = new LinkedHashSet<>();
    List<RbacIndex.Binding> bindings = new ArrayList<>(s.clusterBindings(user.name(),
        user.groups()));
    if (!namespace.isEmpty()) {
      bindings.addAll(s.bindings(namespace, user.name(), user.groups()));
    }
    for (RbacIndex.Binding b : bindings) {
      Optional<MapValue> role = s.role(b);
      if (role.isEmpty()) {
        errors.add(notFound(b));
        continue;
      }
      rules.addAll(Nested.list(role.get(), "rules"));
    }
    return new RulesResult(List.copyOf(rules), List.copyOf(errors));
  }

  private RbacIndex.Snapshot current() {
    RbacIndex.Snapshot s = index.current();
    ApiServer target = aggregationTarget;
    // the lock is taken only when the RBAC objects changed since the last aggregation
    if (target != null && aggregated != s) {
      synchronized (this) {
        if (aggregated != s) {
          aggregated = s;
          writeAggregatedRules(target, s);
          s = index.current();
          aggregated = s;
        }
      }
    }
    return s;
  }

  private static void writeAggregatedRules(ApiServer server, RbacIndex.Snapshot s) {
    for (MapValue role : s.clusterRoles()) {
      if (!(Nested.getOrNull(role, "aggregationRule") instanceof MapValue)) {
        continue;
      }
      ListValue rules = RbacIndex.Snapshot.aggregatedRules(role, s.clusterRoles());
      if (rules.equals(Nested.getOrNull(role, "rules"))
          || (rules.isEmpty() && Nested.list(role, "rules").isEmpty())) {
        continue;
      }
      ApiResponse r = server.handle(ApiRequest.builder(ApiRequest.Verb.UPDATE,
          Bootstrap.CLUSTER_ROLES).name(Meta.metaString(role, "name"))
          .body(role.with("rules", rules)).userAgent(AGGREGATOR).user(Bootstrap.LOOPBACK)
          .build());
      if (!r.isSuccess()) {
        LOG.warn("aggregating ClusterRole {} failed: {}", Meta.metaString(role, "name"),
            r.body());
      }
    }
  }

  /** The rules of a role (aggregated if it is an aggregated ClusterRole); empty if missing. */
  public List<Value> roleRules(String kind, String namespace, String name) {
    RbacIndex.Binding ref = new RbacIndex.Binding(namespace, "", kind, name, List.of());
    return current().role(ref).map(r -> Nested.list(r, "rules")).orElse(List.of());
  }

  /** The rules of {@link #rulesFor} and what could not be read. */
  public record RulesResult(List<Value> rules, List<String> errors) {}

  @Override
  public void close() {
    index.close();
  }
}
