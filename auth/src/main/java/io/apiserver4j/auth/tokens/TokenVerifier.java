/*
 * Copyright The apiserver4j authors.
 * SPDX-License-Identifier: Apache-2.0
 */
package io.apiserver4j.auth.tokens;

import io.apiserver4j.admission.UserInfo;
import io.apiserver4j.core.GoStrings;
import io.apiserver4j.core.IntegerValue;
import io.apiserver4j.core.FloatValue;
import io.apiserver4j.core.MapValue;
import io.apiserver4j.core.Meta;
import io.apiserver4j.core.Nested;
import io.apiserver4j.core.StringValue;
import io.apiserver4j.core.Value;
import java.security.PublicKey;
import java.time.Instant;
import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import java.util.concurrent.ConcurrentHashMap;
import java.util.stream.Collectors;

/**
 * Verifies service account JWTs as kube's {@code jwtTokenAuthenticator} and the bound-token
 * validator do: the issuer, the signature (by key id, else every key), the audiences against the
 * requested ones, the times with go-jose's one-minute leeway, then that the ServiceAccount and
 * the bound Pod, Secret or Node still exist with the uids the token names.
 */
final class TokenVerifier {
  /** go-jose's {@code DefaultLeeway}. */
  private static final long LEEWAY_SECONDS = 60;

  /** The outcome for one token. */
  sealed interface Outcome permits NotOurs, Invalid, Valid, Verified {}

  /** Not a JWT of one of our issuers: other authenticators may know it. */
  record NotOurs() implements Outcome {}

  /** Ours but invalid; {@code reason} is kube's error text. */
  record Invalid(String reason) implements Outcome {}

  /** Valid: the service account's user and the audiences it was accepted for. */
  record Valid(UserInfo user, List<String> audiences) implements Outcome {}

  /** How many verified signatures are remembered. */
  private static final int VERIFIED_CAPACITY = 4096;

  private final ServiceAccountTokens tokens;
  /**
   * The claims of tokens whose signature verified. A signature's validity depends only on the
   * token and the (fixed) keys, so it is checked once; times, audiences and the objects the
   * token names are checked on every use, which keeps revocation immediate.
   */
  private final Map<String, MapValue> verified = new ConcurrentHashMap<>();

  TokenVerifier(ServiceAccountTokens tokens) {
    this.tokens = tokens;
  }

  Outcome verify(String token, List<String> requestedAudiences) {
    MapValue claims = verified.get(token);
    if (claims == null) {
      Outcome signature = verifySignature(token);
      if (!(signature instanceof Verified v)) {
        return signature;
      }
      claims = v.claims();
      if (verified.size() >= VERIFIED_CAPACITY) {
        // crude but bounded: tokens in use are verified again once
        verified.clear();
      }
      verified.put(token, claims);
    }
    return checkClaims(token, claims, requestedAudiences);
  }

  /** The signature checked: the claims, or why the token is not (validly) ours. */
  private record Verified(MapValue claims) implements Outcome {}

  private Outcome verifySignature(String token) {
    Optional<MapValue> unverified = Jwt.unverifiedPayload(token);
    if (unverified.isEmpty() || !isOurIssuer(str(unverified.get(), "iss"))) {
      return new NotOurs();
    }
    Optional<Jwt.Parsed> parsed = Jwt.parse(token);
    if (parsed.isEmpty()) {
      return new NotOurs();
    }
    Jwt.Parsed jwt = parsed.get();
    List<PublicKey> keys = tokens.verificationKeys(jwt.keyId());
    if (keys.isEmpty()) {
      return new Invalid("invalid signature, no keys found");
    }
    boolean signed = false;
    for (PublicKey key : keys) {
      if (Jwt.verify(jwt, key)) {
        signed = true;
        break;
      }
    }
    if (!signed) {
      return new Invalid("go-jose/go-jose: error in cryptographic primitive");
    }
    return new Verified(jwt.payload());
  }

  /** One of the issuers, or kube's legacy issuer (kube-apiserver verifies both). */
  private boolean isOurIssuer(String issuer) {
    return tokens.issuers().contains(issuer) || LegacyTokens.ISSUER.equals(issuer);
  }

  private Outcome checkClaims(String token, MapValue claims, List<String> requestedAudiences) {
    String issuer = str(claims, "iss");
    if (!isOurIssuer(issuer)) {
      return new Invalid("token issuer " + GoStrings.quote(issuer) + " is invalid");
    }

    List<String> tokenAudiences = audiences(claims.getOrNull("aud"));
    if (tokenAudiences.isEmpty()) {
      tokenAudiences = tokens.apiAudiences();
    }
    List<String> accepted = tokenAudiences.stream().filter(requestedAudiences::contains)
        .distinct().toList();
    if (accepted.isEmpty() && !tokens.apiAudiences().isEmpty()) {
      return new Invalid("token audiences " + quoted(tokenAudiences)
          + " is invalid for the target audiences " + quoted(requestedAudiences));
    }

    long now = tokens.clock().instant().getEpochSecond();
    Optional<String> times = checkTimes(claims, now);
    if (times.isPresent()) {
      return new Invalid(times.get());
    }
    if (LegacyTokens.ISSUER.equals(issuer)) {
      return LegacyTokens.validate(token, claims, tokens.objects(), accepted);
    }
    return validateObjects(claims, now, accepted);
  }

  /** go-jose's {@code ValidateWithLeeway}: not before, then expiry, then issued-at. */
  private static Optional<String> checkTimes(MapValue claims, long now) {
    Optional<Long> nbf = number(claims, "nbf");
    if (nbf.isPresent() && now + LEEWAY_SECONDS < nbf.get()) {
      return Optional.of("service account token is not valid yet");
    }
    Optional<Long> exp = number(claims, "exp");
    if (exp.isPresent() && now - LEEWAY_SECONDS > exp.get()) {
      return Optional.of("service account token has expired");
    }
    Optional<Long> iat = number(claims, "iat");
    if (iat.isPresent() && now + LEEWAY_SECONDS < iat.get()) {
      return Optional.of("service account token is issued in the future");
    }
    return Optional.empty();
  }

  private Outcome validateObjects(MapValue claims, long now, List<String> audiences) {
    MapValue k8s = Nested.map(claims, "kubernetes.io");
    String namespace = Nested.str(k8s, "namespace");
    String saName = Nested.str(k8s, "serviceaccount", "name");
    String saUid = Nested.str(k8s, "serviceaccount", "uid");
    long deletedBefore = now - LEEWAY_SECONDS;
    BoundObjects objects = tokens.objects();

    Optional<MapValue> sa = objects.serviceAccount(namespace, saName);
    if (sa.isEmpty()) {
      return new Invalid("serviceaccounts " + GoStrings.quote(saName) + " not found");
    }
    String liveSaUid = Meta.metaString(sa.get(), "uid");
    if (!liveSaUid.equals(saUid)) {
      return new Invalid("service account UID (" + liveSaUid + ") does not match claim ("
          + saUid + ")");
    }
    if (deletedBefore(sa.get(), deletedBefore)) {
      return new Invalid("service account " + namespace + "/" + saName + " has been deleted");
    }

    MapValue secretRef = Nested.mapOrNull(k8s, "secret");
    if (secretRef != null) {
      Optional<String> problem = checkBound(objects.secret(namespace, Nested.str(secretRef,
          "name")), Nested.str(secretRef, "uid"), "secret UID (%s) does not match service"
          + " account secret ref claim (%s)", deletedBefore);
      if (problem.isPresent()) {
        return new Invalid(problem.get());
      }
    }
    MapValue podRef = Nested.mapOrNull(k8s, "pod");
    String podName = "";
    String podUid = "";
    if (podRef != null) {
      Optional<String> problem = checkBound(objects.pod(namespace, Nested.str(podRef, "name")),
          Nested.str(podRef, "uid"), "pod UID (%s) does not match service account pod ref"
          + " claim (%s)", deletedBefore);
      if (problem.isPresent()) {
        return new Invalid(problem.get());
      }
      podName = Nested.str(podRef, "name");
      podUid = Nested.str(podRef, "uid");
    }
    MapValue nodeRef = Nested.mapOrNull(k8s, "node");
    String nodeName = "";
    String nodeUid = "";
    if (nodeRef != null) {
      if (podRef == null) {
        Optional<String> problem = checkBound(objects.node(Nested.str(nodeRef, "name")),
            Nested.str(nodeRef, "uid"), "node UID (%s) does not match service account node ref"
            + " claim (%s)", deletedBefore);
        if (problem.isPresent()) {
          return new Invalid(problem.get());
        }
      }
      nodeName = Nested.str(nodeRef, "name");
      nodeUid = Nested.str(nodeRef, "uid");
    }

    // extra keys in the order Go's encoder writes the map: sorted
    Map<String, List<String>> extra = new LinkedHashMap<>();
    String jti = str(claims, "jti");
    if (!jti.isEmpty()) {
      extra.put("authentication.kubernetes.io/credential-id", List.of("JTI=" + jti));
    }
    if (!nodeName.isEmpty()) {
      extra.put("authentication.kubernetes.io/node-name", List.of(nodeName));
      if (!nodeUid.isEmpty()) {
        extra.put("authentication.kubernetes.io/node-uid", List.of(nodeUid));
      }
    }
    if (!podName.isEmpty() && !podUid.isEmpty()) {
      extra.put("authentication.kubernetes.io/pod-name", List.of(podName));
      extra.put("authentication.kubernetes.io/pod-uid", List.of(podUid));
    }
    UserInfo user = new UserInfo(ServiceAccountTokens.username(namespace, saName), saUid,
        List.of("system:serviceaccounts", "system:serviceaccounts:" + namespace), extra);
    return new Valid(user, audiences);
  }

  /** A bound object's check: gone or being deleted invalidates, another uid mismatches. */
  private static Optional<String> checkBound(Optional<MapValue> live, String claimedUid,
      String mismatch, long deletedBefore) {
    if (live.isEmpty()) {
      return Optional.of("service account token has been invalidated");
    }
    String uid = Meta.metaString(live.get(), "uid");
    if (!claimedUid.equals(uid)) {
      return Optional.of(String.format(mismatch, uid, claimedUid));
    }
    if (deletedBefore(live.get(), deletedBefore)) {
      return Optional.of("service account token has been invalidated");
    }
    return Optional.empty();
  }

  private static boolean deletedBefore(MapValue object, long epochSecond) {
    String ts = Meta.metaString(object, "deletionTimestamp");
    return !ts.isEmpty() && Instant.parse(ts).getEpochSecond() < epochSecond;
  }

  /** JWT {@code aud}: one string or a list of strings. */
  private static List<String> audiences(Value aud) {
    if (aud instanceof StringValue s) {
      return List.of(s.value());
    }
    List<String> out = new ArrayList<>();
    for (Value v : Nested.list(aud)) {
      if (v instanceof StringValue s) {
        out.add(s.value());
      }
    }
    return out;
  }

  private static Optional<Long> number(MapValue claims, String key) {
    Value v = claims.getOrNull(key);
    if (v instanceof IntegerValue i) {
      return Optional.of(i.value());
    }
    return v instanceof FloatValue f ? Optional.of((long) f.value()) : Optional.empty();
  }

  private static String str(MapValue m, String key) {
    return m.getOrNull(key) instanceof StringValue s ? s.value() : "";
  }

  /** Go's {@code %q} of a string slice: {@code ["a" "b"]}. */
  static String quoted(List<String> values) {
    return values.stream().map(GoStrings::quote).collect(Collectors.joining(" ", "[", "]"));
  }
}
