/*
 * Copyright The apiserver4j authors.
 * SPDX-License-Identifier: Apache-2.0
 */
package io.apiserver4j.auth.tokens;

import io.apiserver4j.core.errors.FieldError;
import io.apiserver4j.core.GroupKind;
import io.apiserver4j.core.GroupResource;
import io.apiserver4j.core.GroupVersionKind;
import io.apiserver4j.core.GoStrings;
import io.apiserver4j.core.ListValue;
import io.apiserver4j.core.MapValue;
import io.apiserver4j.core.Meta;
import io.apiserver4j.core.Nested;
import io.apiserver4j.core.errors.StatusErrors;
import io.apiserver4j.core.Value;
import java.time.Instant;
import java.util.List;
import java.util.Optional;
import java.util.function.Consumer;

/**
 * POST {@code serviceaccounts/<name>/token} as kube's {@code TokenREST.Create}: checks the
 * request, looks up the ServiceAccount and the bound object, signs the token and answers the
 * TokenRequest with {@code status.token} and {@code status.expirationTimestamp}.
 */
final class TokenRequests {
  static final GroupKind KIND = new GroupKind("authentication.k8s.io", "TokenRequest");
  private static final long DEFAULT_EXPIRATION_SECONDS = 3600;
  private static final long MIN_EXPIRATION_SECONDS = 600;
  private static final long MAX_EXPIRATION_SECONDS = 1L << 32;
  /** kube's marker expiration of kubelet's projected tokens, extended for a safe rollout. */
  private static final long WARN_ONLY_EXPIRATION_SECONDS = 3607;
  private static final long EXTENDED_EXPIRATION_SECONDS = 24L * 365 * 3600;

  private final ServiceAccountTokens tokens;

  TokenRequests(ServiceAccountTokens tokens) {
    this.tokens = tokens;
  }

  MapValue create(String namespace, String name, MapValue request,
      Consumer<MapValue> validation) {
    if (namespace.isEmpty()) {
      throw StatusErrors.badRequest("namespace is required");
    }
    String bodyName = Meta.metaString(request, "name");
    if (!bodyName.isEmpty() && !bodyName.equals(name)) {
      throw StatusErrors.invalid(KIND, name, List.of(FieldError.invalid("metadata.name",
          Value.of(bodyName), "must match the service account name if specified")));
    }
    String bodyNamespace = Meta.metaString(request, "namespace");
    if (!bodyNamespace.isEmpty() && !bodyNamespace.equals(namespace)) {
      throw StatusErrors.invalid(KIND, name, List.of(FieldError.invalid("metadata.namespace",
          Value.of(bodyNamespace), "must match the service account namespace if specified")));
    }
    MapValue sa = tokens.objects().serviceAccount(namespace, name)
        .orElseThrow(() -> StatusErrors.notFound(new GroupResource("", "serviceaccounts"), name));

    MapValue spec = Nested.map(request, "spec");
    List<String> audiences = Meta.stringList(spec.getOrNull("audiences"));
    if (audiences.isEmpty()) {
      audiences = tokens.apiAudiences();
    }
    long expirationSeconds = Nested.has(spec, "expirationSeconds")
        ? Nested.integer(spec, "expirationSeconds") : DEFAULT_EXPIRATION_SECONDS;
    Instant now = tokens.clock().instant();
    Instant issuedAt = Instant.ofEpochSecond(now.getEpochSecond());
    validate(expirationSeconds);
    MapValue ref = spec.getOrNull("boundObjectRef") instanceof MapValue m ? m : null;
    // validating admission sees the request as kube completes it: names, audiences, time
    validation.accept(response(request, sa, audiences, expirationSeconds, ref, now, null));

    MapValue pod = null;
    MapValue node = null;
    MapValue secret = null;
    if (ref != null) {
      String refName = Nested.str(ref, "name");
      GroupVersionKind gvk = refKind(ref);
      String uid;
      if (gvk.group().isEmpty() && gvk.kind().equals("Pod")) {
        pod = tokens.objects().pod(namespace, refName)
            .orElseThrow(() -> StatusErrors.notFound(new GroupResource("", "pods"), refName));
        if (!name.equals(Nested.str(pod, "spec", "serviceAccountName"))) {
          throw StatusErrors.badRequest("cannot bind token for serviceaccount "
              + GoStrings.quote(name) + " to pod running with different serviceaccount name.");
        }
        uid = Meta.metaString(pod, "uid");
        String nodeName = Nested.str(pod, "spec", "nodeName");
        if (!nodeName.isEmpty()) {
          // a missing Node still names the pod's node in the claims, without a uid
          node = tokens.objects().node(nodeName).orElse(MapValue.ofEntries("metadata",
              MapValue.ofEntries("name", Value.of(nodeName))));
        }
      } else if (gvk.group().isEmpty() && gvk.kind().equals("Node")) {
        node = tokens.objects().node(refName)
            .orElseThrow(() -> StatusErrors.notFound(new GroupResource("", "nodes"), refName));
        uid = Meta.metaString(node, "uid");
      } else if (gvk.group().isEmpty() && gvk.kind().equals("Secret")) {
        secret = tokens.objects().secret(namespace, refName)
            .orElseThrow(() -> StatusErrors.notFound(new GroupResource("", "secrets"), refName));
        uid = Meta.metaString(secret, "uid");
      } else {
        throw StatusErrors.badRequest("cannot bind token to object of type " + gvk.group() + "/"
            + gvk.version() + ", Kind=" + gvk.kind());
      }
      String refUid = Nested.str(ref, "uid");
      if (!refUid.isEmpty() && !refUid.equals(uid)) {
        throw StatusErrors.conflict(new GroupResource(gvk.group(), gvk.kind()), refName,
            "the UID in the bound object reference (" + refUid + ") does not match the UID in"
                + " record. The object might have been deleted and then recreated");
      }
    }

    long exp = expirationSeconds;
    long warnAfter = 0;
    if (pod != null && expirationSeconds == WARN_ONLY_EXPIRATION_SECONDS
        && tokens.apiAudiences().containsAll(audiences)) {
      warnAfter = expirationSeconds;
      exp = EXTENDED_EXPIRATION_SECONDS;
    }
    String token = tokens.sign(claims(sa, pod, secret, node, issuedAt, exp, warnAfter,
        audiences));

    return response(request, sa, audiences, expirationSeconds, ref, now, MapValue.builder()
        .put("token", Value.of(token))
        .put("expirationTimestamp", Value.of(Meta.formatTime(now.plusSeconds(expirationSeconds))))
        .build());
  }

  /** The TokenRequest completed as kube's: metadata from the ServiceAccount, spec, status. */
  private static MapValue response(MapValue request, MapValue sa, List<String> audiences,
      long expirationSeconds, MapValue ref, Instant now, MapValue status) {
    // the request's own metadata (labels, annotations) stays, as kube answers a copy of it
    MapValue metadata = Nested.map(request, "metadata")
        .with("name", Value.of(Meta.metaString(sa, "name")))
        .with("namespace", Value.of(Meta.metaString(sa, "namespace")))
        .with("creationTimestamp", Value.of(Meta.formatTime(now)));
    MapValue.Builder spec = MapValue.builder()
        .put("audiences", strings(audiences))
        .put("expirationSeconds", Value.of(expirationSeconds));
    if (ref != null) {
      spec.put("boundObjectRef", ref);
    }
    MapValue.Builder out = MapValue.builder()
        .put("kind", Value.of("TokenRequest"))
        .put("apiVersion", Value.of("authentication.k8s.io/v1"))
        .put("metadata", metadata)
        .put("spec", spec.build());
    return status == null ? out.build() : out.put("status", status).build();
  }

  private static void validate(long expirationSeconds) {
    if (expirationSeconds < MIN_EXPIRATION_SECONDS) {
      throw StatusErrors.invalid(KIND, "", List.of(FieldError.invalid("spec.expirationSeconds",
          Value.of(expirationSeconds), "may not specify a duration less than 10 minutes")));
    }
    if (expirationSeconds > MAX_EXPIRATION_SECONDS) {
      throw StatusErrors.invalid(KIND, "", List.of(FieldError.invalid("spec.expirationSeconds",
          Value.of(expirationSeconds), "may not specify a duration larger than 2^32 seconds")));
    }
  }

  /** The kind of a bound object reference, as Go's {@code FromAPIVersionAndKind}. */
  private static GroupVersionKind refKind(MapValue ref) {
    String apiVersion = Nested.str(ref, "apiVersion");
    String kind = Nested.str(ref, "kind");
    int slash = apiVersion.indexOf('/');
    return slash < 0 ? new GroupVersionKind("", apiVersion, kind)
        : new GroupVersionKind(apiVersion.substring(0, slash), apiVersion.substring(slash + 1),
            kind);
  }

  /**
   * kube's claims ({@code pkg/serviceaccount/claims.go}) with keys in the order Go's encoder
   * writes a map: sorted.
   */
  private MapValue claims(MapValue sa, MapValue pod, MapValue secret, MapValue node,
      Instant issuedAt, long expirationSeconds, long warnAfter, List<String> audiences) {
    String namespace = Meta.metaString(sa, "namespace");
    String name = Meta.metaString(sa, "name");
    MapValue.Builder k8s = MapValue.builder().put("namespace", Value.of(namespace));
    if (node != null) {
      k8s.put("node", ref(node));
    }
    if (pod != null) {
      k8s.put("pod", ref(pod));
    }
    if (secret != null) {
      k8s.put("secret", ref(secret));
    }
    k8s.put("serviceaccount", ref(sa));
    if (warnAfter != 0) {
      k8s.put("warnafter", Value.of(issuedAt.getEpochSecond() + warnAfter));
    }
    long iat = issuedAt.getEpochSecond();
    return MapValue.builder()
        .put("aud", strings(audiences))
        .put("exp", Value.of(iat + expirationSeconds))
        .put("iat", Value.of(iat))
        .put("iss", Value.of(tokens.issuers().get(0)))
        .put("jti", Value.of(tokens.newId()))
        .put("kubernetes.io", k8s.build())
        .put("nbf", Value.of(iat))
        .put("sub", Value.of(ServiceAccountTokens.username(namespace, name)))
        .build();
  }

  /** {@code {name, uid}}, each omitted when empty as Go's {@code omitempty}. */
  private static MapValue ref(MapValue object) {
    MapValue.Builder b = MapValue.builder();
    Optional.of(Meta.metaString(object, "name")).filter(s -> !s.isEmpty())
        .ifPresent(s -> b.put("name", Value.of(s)));
    Optional.of(Meta.metaString(object, "uid")).filter(s -> !s.isEmpty())
        .ifPresent(s -> b.put("uid", Value.of(s)));
    return b.build();
  }

  static ListValue strings(List<String> values) {
    return ListValue.of(values.stream().map(Value::of).toList());
  }
}
