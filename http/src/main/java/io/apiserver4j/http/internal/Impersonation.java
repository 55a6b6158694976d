/*
 * Copyright The apiserver4j authors.
 * SPDX-License-Identifier: Apache-2.0
 */
package io.apiserver4j.http.internal;

import io.apiserver4j.admission.UserInfo;
import io.apiserver4j.authz.AuditRecorder;
import io.apiserver4j.authz.AuthorizationAttributes;
import io.apiserver4j.authz.AuthorizationDecision;
import io.apiserver4j.authz.Authorizer;
import io.apiserver4j.core.errors.StatusErrors;
import java.net.URLDecoder;
import java.nio.charset.StandardCharsets;
import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Locale;
import java.util.Map;
import java.util.Optional;
import org.eclipse.jetty.http.HttpField;
import org.eclipse.jetty.http.HttpFields;

/**
 * kube-apiserver's impersonation filter: the {@code Impersonate-User}, {@code -Group},
 * {@code -Uid} and {@code -Extra-*} headers make the request run as another user, each asked of
 * the authorizer with the {@code impersonate} verb on users, groups, serviceaccounts, uids or
 * userextras; kube's 400 and 403 texts otherwise.
 */
final class Impersonation {
  private static final String USER = "Impersonate-User";
  private static final String GROUP = "Impersonate-Group";
  private static final String UID = "Impersonate-Uid";
  private static final String EXTRA = "impersonate-extra-";
  private static final String SA_PREFIX = "system:serviceaccount:";

  private Impersonation() {}

  /** One thing asked to be impersonated, as kube's ObjectReference of it. */
  private record Target(String kind, String namespace, String name, String apiVersion,
      String fieldPath) {
    /** Go's {@code %v} of the ObjectReference. */
    String goValue() {
      return "{" + String.join(" ", kind, namespace, name, "", apiVersion, "", fieldPath) + "}";
    }
  }

  /**
   * The user the request runs as, recorded in {@code audit} when impersonated: constrained
   * impersonation when its gate is on (present), else this legacy filter.
   */
  static UserInfo runAs(HttpFields headers, UserInfo requestor, AuthorizationAttributes request,
      Authorizer authorizer, Optional<ConstrainedImpersonation> constrained,
      AuditRecorder audit) {
    if (constrained.isEmpty()) {
      UserInfo user = apply(headers, requestor, authorizer);
      if (user != requestor) {
        audit.impersonated(user);
      }
      return user;
    }
    Optional<ConstrainedImpersonation.Impersonated> impersonated =
        constrained.get().apply(headers, request, authorizer);
    if (impersonated.isEmpty()) {
      return requestor;
    }
    audit.impersonated(impersonated.get().user(), impersonated.get().constraint());
    return impersonated.get().user();
  }

  /** The user the request runs as: {@code requestor}, or whom it may impersonate. */
  static UserInfo apply(HttpFields headers, UserInfo requestor, Authorizer authorizer) {
    List<Target> targets = targets(headers);
    if (targets.isEmpty()) {
      return requestor;
    }
    boolean groupsSpecified = headers.get(GROUP) != null;
    String username = "";
    String uid = "";
    List<String> groups = new ArrayList<>();
    Map<String, List<String>> extra = new LinkedHashMap<>();
    for (Target t : targets) {
      String group = "";
      String resource;
      String subresource = "";
      switch (t.kind()) {
        case "ServiceAccount":
          resource = "serviceaccounts";
          username = SA_PREFIX + t.namespace() + ":" + t.name();
          if (!groupsSpecified) {
            groups = new ArrayList<>(List.of("system:serviceaccounts",
                "system:serviceaccounts:" + t.namespace()));
          }
          break;
        case "User":
          resource = "users";
          username = t.name();
          break;
        case "Group":
          resource = "groups";
          groups.add(t.name());
          break;
        case "UserExtra":
          group = "authentication.k8s.io";
          resource = "userextras";
          subresource = t.fieldPath();
          extra.computeIfAbsent(t.fieldPath(), k -> new ArrayList<>()).add(t.name());
          break;
        default:
          group = "authentication.k8s.io";
          resource = "uids";
          uid = t.name();
          break;
      }
      AuthorizationAttributes actingAs = new AuthorizationAttributes(requestor, "impersonate",
          true, group, group.isEmpty() ? "" : "v1", resource, subresource, t.namespace(),
          t.name(), "");
      if (authorizer.authorize(actingAs) instanceof AuthorizationDecision.Deny deny) {
        throw ApiHandler.forbidden(actingAs, deny.reason());
      }
    }
    String marker = username.equals("system:anonymous") ? "system:unauthenticated"
        : "system:authenticated";
    boolean present = groups.contains(marker) || (marker.equals("system:authenticated")
        && groups.contains("system:unauthenticated"));
    if (!present) {
      groups.add(marker);
    }
    return new UserInfo(username, uid, groups, extra);
  }

  private static List<Target> targets(HttpFields headers) {
    List<Target> out = new ArrayList<>();
    String user = headers.get(USER);
    boolean hasUser = user != null && !user.isEmpty();
    if (hasUser) {
      String[] sa = serviceAccount(user);
      out.add(sa != null ? new Target("ServiceAccount", sa[0], sa[1], "", "")
          : new Target("User", "", user, "", ""));
    }
    boolean others = false;
    for (String g : headers.getValuesList(GROUP)) {
      out.add(new Target("Group", "", g, "", ""));
      others = true;
    }
    for (HttpField f : headers) {
      String name = f.getName().toLowerCase(Locale.ROOT);
      if (name.startsWith(EXTRA)) {
        String key = unescape(name.substring(EXTRA.length()));
        out.add(new Target("UserExtra", "", f.getValue(), "authentication.k8s.io/v1", key));
        others = true;
      }
    }
    String uid = headers.get(UID);
    if (uid != null && !uid.isEmpty()) {
      out.add(new Target("UID", "", uid, "authentication.k8s.io/v1", ""));
      others = true;
    }
    if (others && !hasUser) {
      List<String> shown = out.stream().map(Target::goValue).toList();
      throw StatusErrors.badRequest("requested [" + String.join(" ", shown)
          + "] without impersonating a user");
    }
    return out;
  }

  /** kube's {@code serviceaccount.SplitUsername}: namespace and name, or null. */
  private static String[] serviceAccount(String user) {
    if (!user.startsWith(SA_PREFIX)) {
      return null;
    }
    String[] parts = user.substring(SA_PREFIX.length()).split(":", -1);
    if (parts.length != 2 || parts[0].isEmpty() || parts[1].isEmpty()) {
      return null;
    }
    return parts;
  }

  /** kube's {@code unescapeExtraKey}: the percent-decoded key, or the key when malformed. */
  static String unescape(String key) {
    try {
      return URLDecoder.decode(key.replace("+", "%2B"), StandardCharsets.UTF_8);
    } catch (IllegalArgumentException e) {
      return key;
    }
  }
}
