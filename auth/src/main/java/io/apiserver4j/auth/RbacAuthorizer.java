/*
 * Copyright The apiserver4j authors.
 * SPDX-License-Identifier: Apache-2.0
 */
package io.apiserver4j.auth;

import static java.util.Objects.requireNonNull;

import io.apiserver4j.admission.UserInfo;
import io.apiserver4j.apiserver.ApiServer;
import io.apiserver4j.auth.internal.PolicyRules;
import io.apiserver4j.auth.internal.RbacIndex;
import io.apiserver4j.authz.AuthorizationAttributes;
import io.apiserver4j.authz.AuthorizationDecision;
import io.apiserver4j.authz.Authorizer;
import io.apiserver4j.core.GoStrings;
import io.apiserver4j.core.MapValue;
import io.apiserver4j.core.Nested;
import io.apiserver4j.core.Value;
import io.apiserver4j.storage.Store;
import java.util.ArrayList;
import java.util.LinkedHashSet;
import java.util.List;
import java.util.Optional;
import java.util.Set;
import java.util.concurrent.atomic.AtomicReference;

/**
 * kube-apiserver's RBAC authorizer over the Roles, ClusterRoles, RoleBindings and
 * ClusterRoleBindings in a store: a request is allowed when a rule of a role bound to the user
 * (by name, group or service account) allows it — cluster role bindings everywhere, role
 * bindings in their namespace. A denial carries kube's reason: empty, or {@code RBAC: } and the
 * bindings whose role is missing; an allowance names its binding, role and subject (kube's
 * {@code RBAC: allowed by ...}), and {@code system:masters} is allowed before any binding is
 * consulted, as kube's privileged-group authorizer does. Writes through the server are seen by
 * the next request. An aggregated ClusterRole grants the rules its selectors match, whether or
 * not they are already written into it (see {@link #aggregateInto}).
 *
 * <p>Thread-safe, and decisions take no lock unless the store changed since the last one; close
 * it to stop following the store.
 */
public final class RbacAuthorizer implements Authorizer, AutoCloseable {
  private final RbacIndex index;
  /** The aggregation controller started by {@link #aggregateInto}, closed with this. */
  private final AtomicReference<AutoCloseable> aggregation = new AtomicReference<>();

  private static final String SYSTEM_MASTERS = "system:masters";

  private RbacAuthorizer(Store store) {
    this.index = new RbacIndex(store);
  }

  /** An authorizer over the RBAC objects of {@code store}. */
  public static RbacAuthorizer over(Store store) {
    return new RbacAuthorizer(store);
  }

  /**
   * Starts kube's cluster role aggregation controller ({@link ClusterRoleAggregation}) on
   * {@code server}, stopped when this authorizer is closed: it keeps the rules of aggregated
   * ClusterRoles in storage up to date in the background. Decisions do not wait for it: they
   * already use the aggregated rules. It is one of the server's own controllers, {@value
   * ClusterRoleAggregation#NAME} (see {@link ApiServer#addBuiltinController}), so a controller
   * manager that runs kube's controller of that name takes it over and runs it in its place.
   *
   * @throws IllegalStateException if aggregation was already started
   */
  public RbacAuthorizer aggregateInto(ApiServer server) {
    requireNonNull(server, "server");
    if (aggregation.get() != null) {
      throw new IllegalStateException("cluster role aggregation already started");
    }
    // one of the server's own controllers, so that a controller manager running
    // clusterrole-aggregation takes it over instead of running a second one
    AutoCloseable started = server.addBuiltinController(ClusterRoleAggregation.NAME,
        () -> ClusterRoleAggregation.start(server));
    if (!aggregation.compareAndSet(null, started)) {
      closeQuietly(started);
      throw new IllegalStateException("cluster role aggregation already started");
    }
    return this;
  }

  private static void closeQuietly(AutoCloseable c) {
    try {
      c.close();
    } catch (Exception e) {
      org.slf4j.LoggerFactory.getLogger(RbacAuthorizer.class)
          .warn("stopping cluster role aggregation failed", e);
    }
  }

  @Override
  public AuthorizationDecision authorize(AuthorizationAttributes a) {
    UserInfo user = a.user();
    RbacIndex.Snapshot s = index.current();
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
    RbacIndex.Snapshot s = index.current();
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

  /** The rules of a role (aggregated if it is an aggregated ClusterRole); empty if missing. */
  public List<Value> roleRules(String kind, String namespace, String name) {
    RbacIndex.Binding ref = new RbacIndex.Binding(namespace, "", kind, name, List.of());
    return index.current().role(ref).map(r -> Nested.list(r, "rules")).orElse(List.of());
  }

  /** The rules of {@link #rulesFor} and what could not be read. */
  public record RulesResult(List<Value> rules, List<String> errors) {}

  @Override
  public void close() {
    AutoCloseable a = aggregation.getAndSet(null);
    if (a != null) {
      closeQuietly(a);
    }
    index.close();
  }
}
