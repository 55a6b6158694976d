/*
 * Copyright The apiserver4j authors.
 * SPDX-License-Identifier: Apache-2.0
 */
package io.apiserver4j.auth;

import io.apiserver4j.admission.UserInfo;
import io.apiserver4j.apiserver.ApiServer;
import io.apiserver4j.authz.AuthorizationAttributes;
import io.apiserver4j.authz.AuthorizationDecision;
import io.apiserver4j.authz.Authorizer;
import io.apiserver4j.core.errors.FieldError;
import io.apiserver4j.core.GroupKind;
import io.apiserver4j.core.GroupResource;
import io.apiserver4j.core.ListValue;
import io.apiserver4j.core.MapValue;
import io.apiserver4j.core.Meta;
import io.apiserver4j.core.Nested;
import io.apiserver4j.core.errors.StatusErrors;
import io.apiserver4j.core.Value;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;

/**
 * kube-apiserver's review resources, answered by the server's authorizer and stored nowhere:
 * SelfSubjectAccessReview, LocalSubjectAccessReview and SubjectAccessReview
 * ({@code authorization.k8s.io/v1}, behind {@code kubectl auth can-i}), SelfSubjectRulesReview
 * (behind {@code kubectl auth can-i --list}, with RBAC's rules) and SelfSubjectReview
 * ({@code authentication.k8s.io/v1}, behind {@code kubectl auth whoami}).
 */
public final class Reviews {
  private static final String AUTHZ = "authorization.k8s.io";

  private Reviews() {}

  /** Serves the review resources on {@code server} with {@code authorizer} (RBAC for rules). */
  public static ApiServer.Builder install(ApiServer.Builder server, Authorizer authorizer) {
    server.virtualCreate(new GroupResource(AUTHZ, "selfsubjectaccessreviews"),
        (user, ns, review) -> accessReview(authorizer, review, user, "SelfSubjectAccessReview",
            ""));
    server.virtualCreate(new GroupResource(AUTHZ, "localsubjectaccessreviews"),
        (user, ns, review) -> accessReview(authorizer, review, subject(review),
            "LocalSubjectAccessReview", ns));
    server.virtualCreate(new GroupResource(AUTHZ, "subjectaccessreviews"),
        (user, ns, review) -> accessReview(authorizer, review, subject(review),
            "SubjectAccessReview", ""));
    server.virtualCreate(new GroupResource("authentication.k8s.io", "selfsubjectreviews"),
        (user, ns, review) -> review.with("status", MapValue.ofEntries("userInfo",
            userInfo(user))));
    if (authorizer instanceof RbacAuthorizer rbac) {
      server.virtualCreate(new GroupResource(AUTHZ, "selfsubjectrulesreviews"),
          (user, ns, review) -> rulesReview(rbac, user, review));
    }
    return server;
  }

  private static MapValue accessReview(Authorizer authorizer, MapValue review, UserInfo user,
      String kind, String urlNamespace) {
    MapValue spec = Nested.map(review, "spec");
    boolean resource = spec.getOrNull("resourceAttributes") instanceof MapValue;
    boolean nonResource = spec.getOrNull("nonResourceAttributes") instanceof MapValue;
    GroupKind gk = new GroupKind(AUTHZ, kind);
    if (resource == nonResource) {
      throw StatusErrors.invalid(gk, Meta.metaString(review, "name"), List.of(
          FieldError.invalid("spec.resourceAttributes", Value.of(spec.toString()),
              "exactly one of nonResourceAttributes or resourceAttributes must be specified")));
    }
    if (!kind.startsWith("Self") && user.name().isEmpty() && user.groups().isEmpty()) {
      throw StatusErrors.invalid(gk, Meta.metaString(review, "name"), List.of(
          FieldError.invalid("spec.user", Value.of(""),
              "at least one of user or group must be specified")));
    }
    AuthorizationAttributes a;
    if (resource) {
      MapValue r = Nested.map(spec, "resourceAttributes");
      String namespace = Nested.str(r, "namespace");
      if (!urlNamespace.isEmpty()) {
        if (namespace.isEmpty()) {
          namespace = urlNamespace;
        } else if (!namespace.equals(urlNamespace)) {
          throw StatusErrors.badRequest("spec.resourceAttributes.namespace must match namespace: "
              + urlNamespace);
        }
      }
      a = new AuthorizationAttributes(user, Nested.str(r, "verb"), true,
          Nested.str(r, "group"), Nested.str(r, "version"), Nested.str(r, "resource"),
          Nested.str(r, "subresource"), namespace, Nested.str(r, "name"), "");
    } else {
      MapValue n = Nested.map(spec, "nonResourceAttributes");
      a = new AuthorizationAttributes(user, Nested.str(n, "verb"), false, "", "", "", "", "",
          "", Nested.str(n, "path"));
    }
    AuthorizationDecision d = authorizer.authorize(a);
    MapValue.Builder status = MapValue.builder()
        .put("allowed", Value.of(d instanceof AuthorizationDecision.Allow));
    if (d instanceof AuthorizationDecision.Deny deny && !deny.reason().isEmpty()) {
      status.put("reason", Value.of(deny.reason()));
    }
    return review.with("status", status.build());
  }

  /** The user a (Local)SubjectAccessReview asks about. */
  private static UserInfo subject(MapValue review) {
    MapValue spec = Nested.map(review, "spec");
    Map<String, List<String>> extra = new LinkedHashMap<>();
    MapValue e = Nested.map(spec, "extra");
    for (int i = 0; i < e.size(); i++) {
      extra.put(e.keyAt(i), Meta.stringList(e.valueAt(i)));
    }
    return new UserInfo(Nested.str(spec, "user"), Nested.str(spec, "uid"),
        Meta.stringList(spec.getOrNull("groups")), extra);
  }

  private static MapValue userInfo(UserInfo user) {
    MapValue.Builder b = MapValue.builder().put("username", Value.of(user.name()));
    if (!user.uid().isEmpty()) {
      b.put("uid", Value.of(user.uid()));
    }
    if (!user.groups().isEmpty()) {
      b.put("groups", list(user.groups()));
    }
    if (!user.extra().isEmpty()) {
      MapValue.Builder extra = MapValue.builder();
      user.extra().forEach((k, v) -> extra.put(k, list(v)));
      b.put("extra", extra.build());
    }
    return b.build();
  }

  private static MapValue rulesReview(RbacAuthorizer rbac, UserInfo user, MapValue review) {
    String namespace = Nested.str(review, "spec", "namespace");
    RbacAuthorizer.RulesResult r = rbac.rulesFor(user, namespace);
    ListValue.Builder resourceRules = ListValue.builder(r.rules().size());
    ListValue.Builder nonResourceRules = ListValue.builder(0);
    for (Value rule : r.rules()) {
      MapValue.Builder out = MapValue.builder().put("verbs", rule instanceof MapValue m
          ? m.getOrNull("verbs") == null ? ListValue.empty() : m.getOrNull("verbs")
          : ListValue.empty());
      if (!Nested.list(rule, "nonResourceURLs").isEmpty()) {
        nonResourceRules.add(out.put("nonResourceURLs",
            Nested.getOrNull(rule, "nonResourceURLs")).build());
        continue;
      }
      for (String f : List.of("apiGroups", "resources", "resourceNames")) {
        Value v = Nested.getOrNull(rule, f);
        if (v instanceof ListValue l && !l.isEmpty()) {
          out.put(f, v);
        }
      }
      resourceRules.add(out.build());
    }
    MapValue.Builder status = MapValue.builder()
        .put("resourceRules", resourceRules.build())
        .put("nonResourceRules", nonResourceRules.build())
        .put("incomplete", Value.of(!r.errors().isEmpty()));
    if (!r.errors().isEmpty()) {
      status.put("evaluationError", Value.of(r.errors().size() == 1 ? r.errors().get(0)
          : "[" + String.join(", ", r.errors()) + "]"));
    }
    return review.with("status", status.build());
  }

  private static ListValue list(List<String> values) {
    return ListValue.of(values.stream().map(Value::of).toList());
  }
}
