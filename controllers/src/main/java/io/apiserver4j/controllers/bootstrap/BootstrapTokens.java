/*
 * Copyright The apiserver4j authors.
 * SPDX-License-Identifier: Apache-2.0
 */
package io.apiserver4j.controllers.bootstrap;

import io.apiserver4j.core.MapValue;
import io.apiserver4j.core.Meta;
import io.apiserver4j.core.Nested;
import java.nio.charset.StandardCharsets;
import java.time.Duration;
import java.time.Instant;
import java.time.OffsetDateTime;
import java.time.format.DateTimeParseException;
import java.util.Base64;
import java.util.Optional;
import java.util.regex.Pattern;

/**
 * Bootstrap token Secrets as k8s.io/cluster-bootstrap reads them (token/api and
 * util/secrets): their type, names, data keys and expiry.
 */
final class BootstrapTokens {
  /** {@code bootstrapapi.SecretTypeBootstrapToken}. */
  static final String SECRET_TYPE = "bootstrap.kubernetes.io/token";
  /** {@code bootstrapapi.BootstrapTokenSecretPrefix}. */
  static final String SECRET_PREFIX = "bootstrap-token-";
  /** Where bootstrap token Secrets live ({@code metav1.NamespaceSystem}). */
  static final String NAMESPACE = "kube-system";
  /** {@code bootstrapapi.BootstrapTokenIDPattern}. */
  private static final Pattern TOKEN_ID = Pattern.compile("^([a-z0-9]{6})$");

  private BootstrapTokens() {}

  static boolean isBootstrapToken(MapValue secret) {
    return SECRET_TYPE.equals(Nested.str(secret, "type"));
  }

  /** {@code secrets.GetData}: a data key decoded, empty when absent. */
  static String data(MapValue secret, String key) {
    try {
      return new String(Base64.getDecoder().decode(Nested.str(secret, "data", key)),
          StandardCharsets.UTF_8);
    } catch (IllegalArgumentException e) {
      return "";
    }
  }

  /** {@code secrets.ParseName}: the token id of a {@code bootstrap-token-<id>} name. */
  static Optional<String> parseName(String name) {
    if (!name.startsWith(SECRET_PREFIX)) {
      return Optional.empty();
    }
    String id = name.substring(SECRET_PREFIX.length());
    return TOKEN_ID.matcher(id).matches() ? Optional.of(id) : Optional.empty();
  }

  /** What {@code secrets.GetExpiration} finds. */
  record Expiration(Duration ttl, boolean expired) {}

  /**
   * {@code secrets.GetExpiration}: no {@code expiration} key never expires; one that is not
   * RFC 3339 counts as expired; otherwise the time left, expired when none is.
   */
  static Expiration expiration(MapValue secret, Instant now) {
    String value = data(secret, "expiration");
    if (value.isEmpty()) {
      return new Expiration(Duration.ZERO, false);
    }
    Instant at;
    try {
      at = OffsetDateTime.parse(value).toInstant();
    } catch (DateTimeParseException e) {
      return new Expiration(Duration.ZERO, true);
    }
    Duration left = Duration.between(now, at);
    return left.isNegative() || left.isZero() ? new Expiration(Duration.ZERO, true)
        : new Expiration(left, false);
  }

  /** A token id and secret a Secret allows signing with. */
  record SigningToken(String id, String secret) {}

  /** kube's {@code validateSecretForSigning}. */
  static Optional<SigningToken> forSigning(MapValue secret, Instant now) {
    Optional<String> nameId = parseName(Meta.metaString(secret, "name"));
    if (nameId.isEmpty()) {
      return Optional.empty();
    }
    String id = data(secret, "token-id");
    if (id.isEmpty() || !id.equals(nameId.get())) {
      return Optional.empty();
    }
    String tokenSecret = data(secret, "token-secret");
    if (tokenSecret.isEmpty() || expiration(secret, now).expired()
        || !"true".equals(data(secret, "usage-bootstrap-signing"))) {
      return Optional.empty();
    }
    return Optional.of(new SigningToken(id, tokenSecret));
  }
}
