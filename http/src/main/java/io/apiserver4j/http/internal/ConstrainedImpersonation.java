/*
 * Copyright The apiserver4j authors.
 * SPDX-License-Identifier: Apache-2.0
 */
package io.apiserver4j.http.internal;

import static java.util.Objects.requireNonNull;

import io.apiserver4j.admission.UserInfo;
import io.apiserver4j.apimachinery.validation.GroupValidation;
import io.apiserver4j.apimachinery.validation.MetaValidation;
import io.apiserver4j.authz.AuthorizationAttributes;
import io.apiserver4j.authz.AuthorizationDecision;
import io.apiserver4j.authz.Authorizer;
import io.apiserver4j.core.GoStrings;
import io.apiserver4j.core.errors.FieldError;
import io.apiserver4j.core.errors.StatusErrors;
import io.apiserver4j.core.errors.StatusException;
import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.LinkedHashSet;
import java.util.List;
import java.util.Locale;
import java.util.Map;
import java.util.Optional;
import java.util.TreeMap;
import java.util.TreeSet;
import org.eclipse.jetty.http.HttpField;
import org.eclipse.jetty.http.HttpFields;

/**
 * kube-apiserver 1.36's impersonation filter with constrained impersonation (KEP-5284, feature
 * gate {@code ConstrainedImpersonation}): {@code WithConstrainedImpersonation} of
 * {@code k8s.io/apiserver/pkg/endpoints/filters/impersonation}.
 *
 * <p>The modes are tried in kube's order: associated-node, arbitrary-node, serviceaccount,
 * user-info, then legacy {@code impersonate}. A constrained mode that applies to the wanted user
 * first asks {@code impersonate-on:<mode>:<verb>} with the request's own attributes, then
 * {@code impersonate:<mode>} on the wanted user's parts ({@code users}, {@code nodes},
 * {@code serviceaccounts}, {@code uids}, {@code groups}, {@code userextras} in group
 * {@code authentication.k8s.io}). The first mode that allows wins; when none does, the first
 * Forbidden is the answer. As kube does, the mode that last succeeded for a requestor is tried
 * first next time (an LRU of 10,000 requestors), which decides which Forbidden is reported.
 *
 * <p>kube also keeps every success for ten seconds per mode (only a shortcut: the same answer
 * without asking the authorizer again, so a revoked grant keeps working up to ten seconds);
 * this class asks the authorizer every time.
 *
 * <p>Thread-safe.
 */
final class ConstrainedImpersonation {
  private static final String USER = "Impersonate-User";
  private static final String GROUP = "Impersonate-Group";
  private static final String UID = "Impersonate-Uid";
  private static final String EXTRA = "impersonate-extra-";
  private static final String SA_PREFIX = "system:serviceaccount:";
  private static final String NODE_PREFIX = "system:node:";
  private static final String AUTHN_GROUP = "authentication.k8s.io";
  private static final String NODE_NAME_KEY = "authentication.kubernetes.io/node-name";
  private static final String ASSOCIATED_KEYS =
      "authentication.kubernetes.io/associated-node-keys";
  // kube's manyAuthorizationChecksInLoop: from this many checks on, one wildcard check first
  private static final int MANY_CHECKS = 4;
  private static final int REMEMBERED_REQUESTORS = 10_000;

  /** A user the request may run as, and the constrained verb that allowed it (empty: legacy). */
  record Impersonated(UserInfo user, String constraint) {
    Impersonated {
      requireNonNull(user, "user");
      requireNonNull(constraint, "constraint");
    }
  }

  private enum Mode {
    ASSOCIATED_NODE("associated-node"),
    ARBITRARY_NODE("arbitrary-node"),
    SERVICE_ACCOUNT("serviceaccount"),
    USER_INFO("user-info"),
    LEGACY("");

    final String name;

    Mode(String name) {
      this.name = name;
    }

    String verb() {
      return this == LEGACY ? "impersonate" : "impersonate:" + name;
    }
  }

  private static final Mode[] MODES = Mode.values();

  // requestor name -> index of the mode that last allowed it, least recently used evicted
  private final Map<String, Integer> lastMode =
      new LinkedHashMap<>(64, 0.75f, true) {
        @Override
        protected boolean removeEldestEntry(Map.Entry<String, Integer> eldest) {
          return size() > REMEMBERED_REQUESTORS;
        }
      };

  /**
   * The user the request runs as, when its headers ask to impersonate one.
   *
   * @param headers the request headers
   * @param request the request's attributes, with the authenticated user
   * @param authorizer asked each impersonation check
   * @return empty when the headers impersonate no one
   * @throws StatusException BadRequest for impersonation headers without a user, Forbidden when
   *     no mode allows the impersonation (kube's texts)
   */
  Optional<Impersonated> apply(HttpFields headers, AuthorizationAttributes request,
      Authorizer authorizer) {
    Optional<UserInfo> wanted = wantedUser(headers);
    if (wanted.isEmpty()) {
      return Optional.empty();
    }
    return Optional.of(impersonate(wanted.get(), request, authorizer));
  }

  /**
   * Tries the modes for {@code wanted}, the last successful one for this requestor first.
   *
   * @param wanted the user as the headers give it, before any defaulting
   * @param request the request's attributes, with the authenticated user
   * @param authorizer asked each check
   * @return the impersonated user
   * @throws StatusException Forbidden, the first mode's refusal
   */
  Impersonated impersonate(UserInfo wanted, AuthorizationAttributes request,
      Authorizer authorizer) {
    String requestor = request.user().name();
    Integer cached;
    synchronized (lastMode) {
      cached = lastMode.get(requestor);
    }
    StatusException first = null;
    if (cached != null) {
      try {
        Impersonated found = check(MODES[cached], wanted, request, authorizer);
        if (found != null) {
          return found;
        }
      } catch (StatusException e) {
        first = e;
      }
    }
    for (int i = 0; i < MODES.length; i++) {
      if (cached != null && i == cached) {
        continue;
      }
      Impersonated found;
      try {
        found = check(MODES[i], wanted, request, authorizer);
      } catch (StatusException e) {
        if (first == null) {
          first = e;
        }
        continue;
      }
      if (found != null) {
        synchronized (lastMode) {
          lastMode.put(requestor, i);
        }
        return found;
      }
    }
    if (first != null) {
      throw first;
    }
    // legacy applies to every user, so one mode has allowed or refused by now
    throw new IllegalStateException("all impersonation modes failed");
  }

  /** One mode: null when it does not apply to the wanted user, else its verdict. */
  private static Impersonated check(Mode mode, UserInfo wanted, AuthorizationAttributes request,
      Authorizer authorizer) {
    UserInfo requestor = request.user();
    if (mode == Mode.LEGACY) {
      return checkUser(mode, false, wanted, requestor, authorizer);
    }
    if (!applies(mode, wanted, requestor)) {
      return null;
    }
    Authorizer modeAuthorizer = mode == Mode.ASSOCIATED_NODE ? associatedNode(authorizer)
        : authorizer;
    authorize(modeAuthorizer,
        request.withVerb("impersonate-on:" + mode.name + ":" + request.verb()));
    Impersonated found = checkUser(mode, true, wanted, requestor, modeAuthorizer);
    if (mode == Mode.ASSOCIATED_NODE) {
      // kube shares one success among all the nodes a service account may be associated with
      // and puts the wanted node's name back on it
      return new Impersonated(new UserInfo(wanted.name(), found.user().uid(),
          found.user().groups(), found.user().extra()), found.constraint());
    }
    return found;
  }

  /** kube's mode filters: which wanted users a constrained mode may impersonate. */
  private static boolean applies(Mode mode, UserInfo wanted, UserInfo requestor) {
    switch (mode) {
      case ASSOCIATED_NODE:
        return onlyUsername(wanted) && associated(requestor, wanted.name());
      case ARBITRARY_NODE:
        return onlyUsername(wanted) && nodeName(wanted.name()).isPresent();
      case SERVICE_ACCOUNT:
        return onlyUsername(wanted) && serviceAccount(wanted.name()).isPresent();
      default:
        // user-info is for the users kube has no schema for
        return nodeName(wanted.name()).isEmpty() && serviceAccount(wanted.name()).isEmpty();
    }
  }

  private static boolean onlyUsername(UserInfo u) {
    return u.uid().isEmpty() && u.groups().isEmpty() && u.extra().isEmpty();
  }

  private static boolean associated(UserInfo requestor, String wantedName) {
    Optional<String> node = nodeName(wantedName);
    if (node.isEmpty() || serviceAccount(requestor.name()).isEmpty()) {
      return false;
    }
    List<String> values = requestor.extra().get(NODE_NAME_KEY);
    return values != null && values.size() == 1 && values.get(0).equals(node.get());
  }

  /**
   * The associated-node mode's authorizer: the requestor's extras become the list of their keys
   * and a node is asked as {@code *}, so that one grant covers every node the service account
   * may run on (kube's {@code associatedNodeImpersonationAttributes}).
   */
  private static Authorizer associatedNode(Authorizer delegate) {
    return a -> {
      UserInfo u = a.user();
      UserInfo keysOnly = new UserInfo(u.name(), u.uid(), u.groups(),
          Map.of(ASSOCIATED_KEYS, List.copyOf(new TreeSet<>(u.extra().keySet()))));
      String name = a.verb().equals("impersonate:associated-node") ? "*" : a.name();
      AuthorizationAttributes wrapped = new AuthorizationAttributes(keysOnly, a.verb(),
          a.resourceRequest(), a.apiGroup(), a.apiVersion(), a.resource(), a.subresource(),
          a.namespace(), name, a.path());
      // refused with the wrapped attributes, so the message names what was actually asked
      authorize(delegate, wrapped);
      return new AuthorizationDecision.Allow();
    };
  }

  /**
   * kube's {@code impersonationModeState.check}: the {@code impersonate:<mode>} (or legacy
   * {@code impersonate}) checks of the wanted user's name, uid, groups and extras, then the
   * groups every user gets.
   */
  private static Impersonated checkUser(Mode mode, boolean constrained, UserInfo wanted,
      UserInfo requestor, Authorizer authorizer) {
    String verb = mode.verb();
    String userGroup = constrained ? AUTHN_GROUP : "";
    List<String> groups = new ArrayList<>(wanted.groups());

    AuthorizationAttributes username = attributes(requestor, verb, userGroup, "users", "", "",
        wanted.name());
    if (constrained) {
      Optional<String> node = nodeName(wanted.name());
      if (node.isPresent()) {
        username = attributes(requestor, verb, userGroup, "nodes", "", "", node.get());
        if (!wanted.groups().isEmpty()) {
          throw ApiHandler.forbidden(username, "when impersonating a node, cannot impersonate "
              + "groups " + goQuotedList(wanted.groups()));
        }
        groups = new ArrayList<>(List.of("system:nodes"));
      }
    }
    Optional<String[]> sa = serviceAccount(wanted.name());
    if (sa.isPresent()) {
      username = attributes(requestor, verb, userGroup, "serviceaccounts", "", sa.get()[0],
          sa.get()[1]);
      if (constrained && !wanted.groups().isEmpty()) {
        throw ApiHandler.forbidden(username, "when impersonating a service account, cannot "
            + "impersonate groups " + goQuotedList(wanted.groups()));
      }
      if (wanted.groups().isEmpty()) {
        groups = new ArrayList<>(List.of("system:serviceaccounts",
            "system:serviceaccounts:" + sa.get()[0]));
      }
    }
    authorize(authorizer, username);

    if (!wanted.uid().isEmpty()) {
      authorize(authorizer, attributes(requestor, verb, AUTHN_GROUP, "uids", "", "",
          wanted.uid()));
    }
    checkGroups(constrained, wanted.groups(), requestor, verb, userGroup, authorizer);
    checkExtra(constrained, wanted.extra(), requestor, verb, authorizer);

    if (wanted.name().equals("system:anonymous")) {
      ensure(groups, "system:unauthenticated");
    } else if (!groups.contains("system:unauthenticated")) {
      ensure(groups, "system:authenticated");
    }
    return new Impersonated(new UserInfo(wanted.name(), wanted.uid(), groups, wanted.extra()),
        constrained ? verb : "");
  }

  private static void checkGroups(boolean constrained, List<String> groups, UserInfo requestor,
      String verb, String apiGroup, Authorizer authorizer) {
    if (groups.isEmpty()) {
      return;
    }
    if (constrained) {
      // refusals that would have broken legacy impersonation's existing users
      if (groups.contains("")) {
        throw ApiHandler.forbidden(attributes(requestor, verb, apiGroup, "groups", "", "", ""),
            "impersonating the empty string group is not allowed");
      }
      if (groups.contains("system:masters")) {
        throw ApiHandler.forbidden(attributes(requestor, verb, apiGroup, "groups", "", "",
            "system:masters"), "impersonating the system:masters group is not allowed");
      }
      if (groups.size() >= MANY_CHECKS && allowed(authorizer,
          attributes(requestor, verb, apiGroup, "groups", "", "", "*"))) {
        return;
      }
    }
    for (String group : groups) {
      authorize(authorizer, attributes(requestor, verb, apiGroup, "groups", "", "", group));
    }
  }

  private static void checkExtra(boolean constrained, Map<String, List<String>> extra,
      UserInfo requestor, String verb, Authorizer authorizer) {
    if (extra.isEmpty()) {
      return;
    }
    if (constrained) {
      Optional<String> invalid = invalidExtra(extra);
      if (invalid.isPresent()) {
        throw ApiHandler.forbidden(attributes(requestor, verb, AUTHN_GROUP, "userextras", "",
            "", ""), invalid.get());
      }
      if (largeExtra(extra) && allowed(authorizer,
          attributes(requestor, verb, AUTHN_GROUP, "userextras", "*", "", "*"))) {
        return;
      }
    }
    for (Map.Entry<String, List<String>> e : extra.entrySet()) {
      for (String value : e.getValue()) {
        authorize(authorizer, attributes(requestor, verb, AUTHN_GROUP, "userextras", e.getKey(),
            "", value));
      }
    }
  }

  /** kube's {@code validateExtra}: the reason a constrained mode refuses these extras. */
  static Optional<String> invalidExtra(Map<String, List<String>> extra) {
    for (Map.Entry<String, List<String>> e : extra.entrySet()) {
      String key = e.getKey();
      if (key.isEmpty()) {
        return Optional.of("impersonating the empty string key in extra is not allowed");
      }
      List<FieldError> errs = new ArrayList<>();
      GroupValidation.domainPrefixedPath(errs, "extra.key", key);
      if (!errs.isEmpty()) {
        return Optional.of("impersonating an invalid key in extra is not allowed: "
            + aggregate(errs));
      }
      if (!key.equals(key.toLowerCase(Locale.ROOT))) {
        return Optional.of("impersonating a non-lowercase key in extra is not allowed: "
            + GoStrings.quote(key));
      }
      if (e.getValue().isEmpty()) {
        return Optional.of("impersonating empty values in extra is not allowed");
      }
      if (e.getValue().contains("")) {
        return Optional.of("impersonating the empty string value in extra is not allowed");
      }
    }
    return Optional.empty();
  }

  // apimachinery's utilerrors.Aggregate text: one message alone, several in brackets, deduplicated
  private static String aggregate(List<FieldError> errs) {
    LinkedHashSet<String> messages = new LinkedHashSet<>();
    errs.forEach(e -> messages.add(e.toString()));
    return messages.size() == 1 ? messages.iterator().next()
        : "[" + String.join(", ", messages) + "]";
  }

  private static boolean largeExtra(Map<String, List<String>> extra) {
    if (extra.size() >= MANY_CHECKS) {
      return true;
    }
    int count = 0;
    for (List<String> values : extra.values()) {
      count += values.size();
      if (count >= MANY_CHECKS) {
        return true;
      }
    }
    return false;
  }

  private static void ensure(List<String> groups, String group) {
    if (!groups.contains(group)) {
      groups.add(group);
    }
  }

  private static AuthorizationAttributes attributes(UserInfo requestor, String verb,
      String apiGroup, String resource, String subresource, String namespace, String name) {
    return new AuthorizationAttributes(requestor, verb, true, apiGroup, "v1", resource,
        subresource, namespace, name, "");
  }

  private static boolean allowed(Authorizer authorizer, AuthorizationAttributes a) {
    try {
      authorize(authorizer, a);
      return true;
    } catch (StatusException e) {
      return false;
    }
  }

  /** kube's {@code checkAuthorization}: Forbidden with the authorizer's reason unless allowed. */
  private static void authorize(Authorizer authorizer, AuthorizationAttributes a) {
    if (authorizer.authorize(a) instanceof AuthorizationDecision.Deny deny) {
      throw ApiHandler.forbidden(a, deny.reason());
    }
  }

  // ---- headers ----------------------------------------------------------------------------

  /**
   * kube's {@code processImpersonationHeaders}: the wanted user exactly as the headers give it.
   *
   * @param headers the request headers
   * @return empty when no user is impersonated
   * @throws StatusException BadRequest when a uid, group or extra comes without a user
   */
  static Optional<UserInfo> wantedUser(HttpFields headers) {
    String name = headers.get(USER);
    String uid = headers.get(UID);
    uid = uid == null ? "" : uid;
    List<String> groups = headers.getValuesList(GROUP);
    Map<String, List<String>> extra = new LinkedHashMap<>();
    for (HttpField f : headers) {
      String header = f.getName().toLowerCase(Locale.ROOT);
      if (header.startsWith(EXTRA)) {
        String key = Impersonation.unescape(header.substring(EXTRA.length()));
        extra.computeIfAbsent(key, k -> new ArrayList<>()).add(f.getValue());
      }
    }
    boolean hasUser = name != null && !name.isEmpty();
    if (!hasUser && (!uid.isEmpty() || !groups.isEmpty() || !extra.isEmpty())) {
      throw StatusErrors.badRequest("requested " + goSyntax(name == null ? "" : name, uid,
          groups, extra) + " without impersonating a user name");
    }
    if (!hasUser) {
      return Optional.empty();
    }
    return Optional.of(new UserInfo(name, uid, groups, extra));
  }

  /** Go's {@code %#v} of the {@code *user.DefaultInfo}. */
  private static String goSyntax(String name, String uid, List<String> groups,
      Map<String, List<String>> extra) {
    StringBuilder sb = new StringBuilder("&user.DefaultInfo{Name:");
    GoStrings.appendQuoted(sb, name);
    sb.append(", UID:");
    GoStrings.appendQuoted(sb, uid);
    sb.append(", Groups:").append(goStrings(groups));
    sb.append(", Extra:");
    if (extra.isEmpty()) {
      sb.append("map[string][]string(nil)");
    } else {
      sb.append("map[string][]string{");
      String sep = "";
      for (Map.Entry<String, List<String>> e : new TreeMap<>(extra).entrySet()) {
        sb.append(sep);
        GoStrings.appendQuoted(sb, e.getKey());
        sb.append(':').append(goStrings(e.getValue()));
        sep = ", ";
      }
      sb.append('}');
    }
    return sb.append('}').toString();
  }

  private static String goStrings(List<String> values) {
    if (values.isEmpty()) {
      return "[]string(nil)";
    }
    StringBuilder sb = new StringBuilder("[]string{");
    for (int i = 0; i < values.size(); i++) {
      if (i > 0) {
        sb.append(", ");
      }
      GoStrings.appendQuoted(sb, values.get(i));
    }
    return sb.append('}').toString();
  }

  /** Go's {@code %q} of a {@code []string}. */
  private static String goQuotedList(List<String> values) {
    StringBuilder sb = new StringBuilder("[");
    for (int i = 0; i < values.size(); i++) {
      if (i > 0) {
        sb.append(' ');
      }
      GoStrings.appendQuoted(sb, values.get(i));
    }
    return sb.append(']').toString();
  }

  // ---- user names -------------------------------------------------------------------------

  /** kube's {@code isNodeUsername}: the node's name when it is a valid node name. */
  static Optional<String> nodeName(String username) {
    if (!username.startsWith(NODE_PREFIX)) {
      return Optional.empty();
    }
    String name = username.substring(NODE_PREFIX.length());
    return MetaValidation.dns1123Subdomain(name).isEmpty() ? Optional.of(name)
        : Optional.empty();
  }

  /** kube's {@code serviceaccount.SplitUsername}: namespace and name when valid. */
  static Optional<String[]> serviceAccount(String username) {
    if (!username.startsWith(SA_PREFIX)) {
      return Optional.empty();
    }
    String[] parts = username.substring(SA_PREFIX.length()).split(":", -1);
    if (parts.length != 2 || !MetaValidation.dns1123Label(parts[0]).isEmpty()
        || !MetaValidation.dns1123Subdomain(parts[1]).isEmpty()) {
      return Optional.empty();
    }
    return Optional.of(parts);
  }
}
