/*
 * Copyright The apiserver4j authors.
 * SPDX-License-Identifier: Apache-2.0
 */
package io.apiserver4j.admission.matching;

import static java.util.Objects.requireNonNull;

import io.apiserver4j.admission.AdmissionAttributes;
import io.apiserver4j.admission.UserInfo;
import io.apiserver4j.core.GroupVersionKind;
import io.apiserver4j.core.GroupVersionResource;
import io.apiserver4j.core.ListValue;
import io.apiserver4j.core.MapValue;
import io.apiserver4j.core.Value;
import java.util.Optional;
import java.util.Set;

/**
 * The {@code AdmissionRequest} of admission.k8s.io (v1 and v1beta1 share its shape) built from
 * the attributes and how they matched: what webhooks are sent and what CEL sees as
 * {@code request}. Kind, resource and subresource are the matched ones; {@code requestKind},
 * {@code requestResource} and {@code requestSubResource} the request's own, as kube's
 * {@code CreateAdmissionRequest}.
 */
public final class AdmissionRequests {
  private static final String GROUP = "admissionregistration.k8s.io";
  private static final Set<String> CONFIGURATION_KINDS = Set.of(
      "ValidatingWebhookConfiguration", "MutatingWebhookConfiguration",
      "ValidatingAdmissionPolicy", "ValidatingAdmissionPolicyBinding",
      "MutatingAdmissionPolicy", "MutatingAdmissionPolicyBinding");

  private AdmissionRequests() {}

  /**
   * The request as webhooks get it, with Go's field order and omissions.
   *
   * @param uid the call's uid
   * @param object the (converted) object; empty for DELETE
   * @param oldObject the (converted) stored object
   * @param a the request's attributes
   * @param match how the webhook matched: the resource and kind it sees
   * @return the {@code request} map of an AdmissionReview
   */
  public static MapValue request(String uid, AdmissionAttributes a, Match match,
      Optional<MapValue> object, Optional<MapValue> oldObject) {
    requireNonNull(uid, "uid");
    requireNonNull(a, "a");
    requireNonNull(match, "match");
    return build(uid, a, match, object.<Value>map(o -> o).orElse(Value.nullValue()),
        oldObject.<Value>map(o -> o).orElse(Value.nullValue()));
  }

  /**
   * The CEL variable {@code request}: as {@link #request} without uid, object and oldObject
   * (those are variables of their own).
   *
   * @param a the request's attributes
   * @param match how the policy matched
   * @return the {@code request} variable
   */
  public static MapValue celRequest(AdmissionAttributes a, Match match) {
    requireNonNull(a, "a");
    requireNonNull(match, "match");
    return build("", a, match, Value.nullValue(), Value.nullValue());
  }

  /**
   * Whether the request is for a webhook configuration or an admission policy or binding:
   * kube never sends those to webhooks or policies, so that a broken one can always be fixed.
   *
   * @param a the request's attributes
   * @return true for admissionregistration.k8s.io configuration resources
   */
  public static boolean isAdmissionConfiguration(AdmissionAttributes a) {
    return a.kind().group().equals(GROUP) && CONFIGURATION_KINDS.contains(a.kind().kind());
  }

  private static MapValue build(String uid, AdmissionAttributes a, Match m, Value object,
      Value oldObject) {
    MapValue.Builder r = MapValue.builder(18)
        .put("uid", Value.of(uid))
        .put("kind", gvk(m.kind()))
        .put("resource", gvr(m.resource()));
    if (!m.subresource().isEmpty()) {
      r.put("subResource", Value.of(m.subresource()));
    }
    r.put("requestKind", gvk(a.kind())).put("requestResource", gvr(a.resource()));
    if (!a.subresource().isEmpty()) {
      r.put("requestSubResource", Value.of(a.subresource()));
    }
    if (!a.name().isEmpty()) {
      r.put("name", Value.of(a.name()));
    }
    if (!a.namespace().isEmpty()) {
      r.put("namespace", Value.of(a.namespace()));
    }
    return r.put("operation", Value.of(a.operation().wireName()))
        .put("userInfo", userInfo(a.userInfo()))
        .put("object", object)
        .put("oldObject", oldObject)
        .put("dryRun", Value.of(a.isDryRun()))
        .put("options", a.options().isEmpty() ? Value.nullValue() : a.options())
        .build();
  }

  /**
   * A GroupVersionKind as JSON.
   *
   * @param k the kind
   * @return {@code {group, version, kind}}
   */
  public static MapValue gvk(GroupVersionKind k) {
    return MapValue.ofEntries("group", Value.of(k.group()), "version", Value.of(k.version()),
        "kind", Value.of(k.kind()));
  }

  /**
   * A GroupVersionResource as JSON.
   *
   * @param r the resource
   * @return {@code {group, version, resource}}
   */
  public static MapValue gvr(GroupVersionResource r) {
    return MapValue.ofEntries("group", Value.of(r.group()), "version", Value.of(r.version()),
        "resource", Value.of(r.resource()));
  }

  /**
   * authentication.k8s.io's {@code UserInfo}, empty fields left out.
   *
   * @param u the user
   * @return the user as a map
   */
  public static MapValue userInfo(UserInfo u) {
    MapValue.Builder b = MapValue.builder(4);
    if (!u.name().isEmpty()) {
      b.put("username", Value.of(u.name()));
    }
    if (!u.uid().isEmpty()) {
      b.put("uid", Value.of(u.uid()));
    }
    if (!u.groups().isEmpty()) {
      b.put("groups", ListValue.of(u.groups().stream().map(Value::of).toList()));
    }
    if (!u.extra().isEmpty()) {
      MapValue.Builder extra = MapValue.builder(u.extra().size());
      u.extra().forEach((k, v) -> extra.put(k, ListValue.of(v.stream().map(Value::of).toList())));
      b.put("extra", extra.build());
    }
    return b.build();
  }
}
