/*
 * Copyright The apiserver4j authors.
 * SPDX-License-Identifier: Apache-2.0
 */
package io.apiserver4j.auth.tokens;

import io.apiserver4j.admission.UserInfo;
import io.apiserver4j.core.MapValue;
import io.apiserver4j.core.Meta;
import io.apiserver4j.core.Nested;
import io.apiserver4j.core.StringValue;
import java.nio.charset.StandardCharsets;
import java.security.MessageDigest;
import java.util.Base64;
import java.util.List;
import java.util.Map;
import java.util.Optional;

/**
 * kube's legacy validator (pkg/serviceaccount/legacy.go, {@code legacyValidator.Validate} with
 * lookup): the tokens kube-controller-manager's serviceaccount-token controller writes into
 * {@code kubernetes.io/service-account-token} Secrets, issuer {@value #ISSUER}. A valid token
 * names a ServiceAccount that exists with the token's uid and is not being deleted, and a
 * Secret that exists, is not being deleted, still holds this very token and is not labelled
 * {@code kubernetes.io/legacy-token-invalid-since}. Each check reads the store again, so that
 * deleting the Secret or the ServiceAccount revokes the token at once.
 *
 * <p>Not done here: kube's {@code kubernetes.io/legacy-token-last-used} label (a patch of the
 * Secret on the request path), its audit annotations, warning and metrics.
 */
final class LegacyTokens {
  /** kube's {@code serviceaccount.LegacyIssuer}. */
  static final String ISSUER = "kubernetes/serviceaccount";
  /** kube's {@code serviceaccount.InvalidSinceLabelKey}. */
  static final String INVALID_SINCE = "kubernetes.io/legacy-token-invalid-since";
  private static final String PREFIX = "kubernetes.io/serviceaccount/";

  private LegacyTokens() {}

  /** The service account's user, or kube's reason the token is invalid. */
  static TokenVerifier.Outcome validate(String token, MapValue claims, BoundObjects objects,
      List<String> audiences) {
    String subject = str(claims, "sub");
    if (subject.isEmpty()) {
      return invalid("sub claim is missing");
    }
    String namespace = str(claims, PREFIX + "namespace");
    if (namespace.isEmpty()) {
      return invalid("namespace claim is missing");
    }
    String secretName = str(claims, PREFIX + "secret.name");
    if (secretName.isEmpty()) {
      return invalid("secretName claim is missing");
    }
    String saName = str(claims, PREFIX + "service-account.name");
    if (saName.isEmpty()) {
      return invalid("serviceAccountName claim is missing");
    }
    String saUid = str(claims, PREFIX + "service-account.uid");
    if (saUid.isEmpty()) {
      return invalid("serviceAccountUID claim is missing");
    }
    if (!subject.equals(ServiceAccountTokens.username(namespace, saName))
        || !validSubject(subject)) {
      return invalid("sub claim is invalid");
    }

    Optional<MapValue> secret = objects.secret(namespace, secretName);
    if (secret.isEmpty() || !Meta.metaString(secret.get(), "deletionTimestamp").isEmpty()) {
      return invalid("Token has been invalidated");
    }
    if (!MessageDigest.isEqual(tokenData(secret.get()), token.getBytes(
        StandardCharsets.UTF_8))) {
      return invalid("Token does not match server's copy");
    }
    Optional<MapValue> sa = objects.serviceAccount(namespace, saName);
    if (sa.isEmpty()) {
      return invalid("serviceaccounts \"" + saName + "\" not found");
    }
    if (!Meta.metaString(sa.get(), "deletionTimestamp").isEmpty()) {
      return invalid("ServiceAccount " + namespace + "/" + saName + " has been deleted");
    }
    String liveUid = Meta.metaString(sa.get(), "uid");
    if (!liveUid.equals(saUid)) {
      return invalid("ServiceAccount UID (" + liveUid + ") does not match claim (" + saUid
          + ")");
    }
    String invalidSince = Meta.labels(secret.get()).getOrDefault(INVALID_SINCE, "");
    if (!invalidSince.isEmpty()) {
      return invalid("the token in secret " + namespace + "/" + secretName
          + " for service account " + namespace + "/" + saName + " has been marked invalid."
          + " Use tokens from the TokenRequest API or manually created secret-based tokens, or"
          + " remove the '" + INVALID_SINCE + "' label from the secret to temporarily allow"
          + " use of this token");
    }
    UserInfo user = new UserInfo(ServiceAccountTokens.username(namespace, saName), saUid,
        List.of("system:serviceaccounts", "system:serviceaccounts:" + namespace), Map.of());
    return new TokenVerifier.Valid(user, audiences);
  }

  /** apiserver's {@code SplitUsername}: four colon-separated parts, namespace and name set. */
  private static boolean validSubject(String subject) {
    String[] parts = subject.split(":", -1);
    return parts.length == 4 && !parts[2].isEmpty() && !parts[3].isEmpty();
  }

  private static byte[] tokenData(MapValue secret) {
    try {
      return Base64.getDecoder().decode(Nested.str(secret, "data", "token"));
    } catch (IllegalArgumentException e) {
      return new byte[0];
    }
  }

  private static TokenVerifier.Outcome invalid(String reason) {
    return new TokenVerifier.Invalid(reason);
  }

  private static String str(MapValue m, String key) {
    return m.getOrNull(key) instanceof StringValue s ? s.value() : "";
  }
}
