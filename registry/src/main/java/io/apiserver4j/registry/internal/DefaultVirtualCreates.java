/*
 * Copyright The apiserver4j authors.
 * SPDX-License-Identifier: Apache-2.0
 */
package io.apiserver4j.registry.internal;

import io.apiserver4j.admission.UserInfo;
import io.apiserver4j.apiserver.strategy.VirtualCreate;
import io.apiserver4j.core.errors.FieldError;
import io.apiserver4j.apiserver.strategy.VirtualCreate;
import io.apiserver4j.core.errors.FieldError;
import io.apiserver4j.core.GroupKind;
import io.apiserver4j.core.GroupResource;
import io.apiserver4j.core.Json;
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
 * How a server with no authorizer or token authenticator of its own answers the resources that
 * store nothing, as kube-apiserver does with its defaults ({@code --authorization-mode
 * AlwaysAllow}, no token authenticator): access reviews are allowed, a rules review lists
 * everything, SelfSubjectReview tells the caller who it is, a TokenReview comes back
 * unauthenticated. (Bindings are PodBinding's, a handler of the pods' strategy.) The embedder
 * replaces any of them with {@code ApiServer.Builder#virtualCreate} (the auth module's reviews
 * do, with the server's authorizer).
 */
public final class DefaultVirtualCreates {
  private static final String AUTHZ = "authorization.k8s.io";
  private static final String AUTHN = "authentication.k8s.io";

  private DefaultVirtualCreates() {}

  /** By resource, the default answers. */
  public static Map<GroupResource, VirtualCreate> of() {
    Map<GroupResource, VirtualCreate> m = new LinkedHashMap<>();
    m.put(new GroupResource(AUTHZ, "selfsubjectaccessreviews"),
        (user, ns, review) -> accessReview(review, "SelfSubjectAccessReview", false, ""));
    m.put(new GroupResource(AUTHZ, "subjectaccessreviews"),
        (user, ns, review) -> accessReview(review, "SubjectAccessReview", true, ""));
    m.put(new GroupResource(AUTHZ, "localsubjectaccessreviews"),
        (user, ns, review) -> accessReview(review, "LocalSubjectAccessReview", true, ns));
    m.put(new GroupResource(AUTHZ, "selfsubjectrulesreviews"),
        (user, ns, review) -> review.with("status", allRules()));
    m.put(new GroupResource(AUTHN, "selfsubjectreviews"),
        (user, ns, review) -> review.with("status", MapValue.ofEntries("userInfo",
            userInfo(user))));
    m.put(new GroupResource(AUTHN, "tokenreviews"), (user, ns, review) -> tokenReview(review));
    return m;
  }

  private static MapValue accessReview(MapValue review, String kind, boolean aboutSubject,
      String urlNamespace) {
    MapValue spec = Nested.map(review, "spec");
    boolean resource = spec.getOrNull("resourceAttributes") instanceof MapValue;
    boolean nonResource = spec.getOrNull("nonResourceAttributes") instanceof MapValue;
    GroupKind gk = new GroupKind(AUTHZ, kind);
    if (resource == nonResource) {
      throw StatusErrors.invalid(gk, Meta.metaString(review, "name"), List.of(
          FieldError.invalid("spec.resourceAttributes", Value.of(Json.write(spec)),
              resource ? "cannot be specified in combination with resourceAttributes"
                  : "exactly one of nonResourceAttributes or resourceAttributes must be"
                      + " specified")));
    }
    if (aboutSubject && Nested.str(spec, "user").isEmpty()
        && Nested.list(spec, "groups").isEmpty()) {
      throw StatusErrors.invalid(gk, Meta.metaString(review, "name"), List.of(
          FieldError.invalid("spec.user", Value.of(""),
              "at least one of user or group must be specified")));
    }
    String namespace = Nested.str(spec, "resourceAttributes", "namespace");
    if (!urlNamespace.isEmpty() && resource && !namespace.isEmpty()
        && !namespace.equals(urlNamespace)) {
      throw StatusErrors.badRequest("spec.resourceAttributes.namespace must match namespace: "
          + urlNamespace);
    }
    // AlwaysAllow decides without a reason
    return review.with("status", MapValue.ofEntries("allowed", Value.of(true)));
  }

  private static MapValue allRules() {
    ListValue all = ListValue.of(List.of(Value.of("*")));
    return MapValue.ofEntries(
        "resourceRules", ListValue.of(List.of(MapValue.ofEntries("verbs", all,
            "apiGroups", all, "resources", all))),
        "nonResourceRules", ListValue.of(List.of(MapValue.ofEntries("verbs", all,
            "nonResourceURLs", all))),
        "incomplete", Value.of(false));
  }

  private static MapValue userInfo(UserInfo user) {
    MapValue.Builder b = MapValue.builder();
    if (!user.name().isEmpty()) {
      b.put("username", Value.of(user.name()));
    }
    if (!user.uid().isEmpty()) {
      b.put("uid", Value.of(user.uid()));
    }
    if (!user.groups().isEmpty()) {
      b.put("groups", ListValue.ofStrings(user.groups()));
    }
    if (!user.extra().isEmpty()) {
      MapValue.Builder extra = MapValue.builder();
      user.extra().forEach((k, v) -> extra.put(k, ListValue.ofStrings(v)));
      b.put("extra", extra.build());
    }
    return b.build();
  }

  // kube's TokenReview REST without a token authenticator: checked, then returned as it came
  private static MapValue tokenReview(MapValue review) {
    if (Nested.str(review, "spec", "token").isEmpty()) {
      throw StatusErrors.badRequest("token is required for TokenReview in authentication");
    }
    return review.with("status", MapValue.ofEntries("user", MapValue.empty()));
  }
}
