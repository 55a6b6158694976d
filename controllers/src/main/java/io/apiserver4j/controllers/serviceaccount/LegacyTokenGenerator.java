/*
 * Copyright The apiserver4j authors.
 * SPDX-License-Identifier: Apache-2.0
 */
package io.apiserver4j.controllers.serviceaccount;

import static java.util.Objects.requireNonNull;

import io.apiserver4j.core.Json;
import io.apiserver4j.core.MapValue;
import io.apiserver4j.core.Value;
import java.nio.charset.StandardCharsets;
import java.security.GeneralSecurityException;
import java.security.KeyFactory;
import java.security.MessageDigest;
import java.security.PrivateKey;
import java.security.PublicKey;
import java.security.Signature;
import java.security.interfaces.ECPrivateKey;
import java.security.interfaces.RSAPrivateCrtKey;
import java.security.spec.ECPoint;
import java.security.spec.ECPublicKeySpec;
import java.security.spec.RSAPublicKeySpec;
import java.util.Base64;

/**
 * kube's {@code serviceaccount.JWTTokenGenerator(LegacyIssuer, key)} with
 * {@code LegacyClaims} (pkg/serviceaccount/jwt.go and legacy.go): a compact JWS whose header
 * is {@code {"alg":..,"kid":..}} (the key id is kube's: the unpadded base64url SHA-256 of the
 * public key's PKIX DER) and whose payload holds, in the sorted order Go's encoder writes a
 * map, {@code iss} {@value #LEGACY_ISSUER}, the four
 * {@code kubernetes.io/serviceaccount/*} claims and {@code sub}. RSA keys sign RS256, ECDSA
 * keys ES256/ES384/ES512 by curve, as kube. Immutable and thread-safe.
 */
public final class LegacyTokenGenerator {
  /** kube's {@code serviceaccount.LegacyIssuer}. */
  public static final String LEGACY_ISSUER = "kubernetes/serviceaccount";
  private static final Base64.Encoder B64 = Base64.getUrlEncoder().withoutPadding();

  private final PrivateKey key;
  private final String algorithm;
  private final String jdkAlgorithm;
  private final String keyId;

  /**
   * A generator signing with {@code key}.
   *
   * @throws IllegalArgumentException for a key that is neither RSA nor ECDSA, with kube's words
   */
  public LegacyTokenGenerator(PrivateKey key) {
    this.key = requireNonNull(key, "key");
    try {
      if (key instanceof RSAPrivateCrtKey rsa) {
        algorithm = "RS256";
        jdkAlgorithm = "SHA256withRSA";
        keyId = keyId(KeyFactory.getInstance("RSA").generatePublic(
            new RSAPublicKeySpec(rsa.getModulus(), rsa.getPublicExponent())));
      } else if (key instanceof ECPrivateKey ec) {
        int bits = ec.getParams().getCurve().getField().getFieldSize();
        algorithm = bits <= 256 ? "ES256" : bits <= 384 ? "ES384" : "ES512";
        jdkAlgorithm = "SHA" + algorithm.substring(2) + "withECDSAinP1363Format";
        keyId = keyId(ecPublic(ec));
      } else {
        throw new IllegalArgumentException("unknown private key type " + key.getClass()
            .getSimpleName() + ", must be *rsa.PrivateKey, *ecdsa.PrivateKey, or"
            + " jose.OpaqueSigner");
      }
    } catch (GeneralSecurityException e) {
      throw new IllegalArgumentException("unusable service account private key: "
          + e.getMessage(), e);
    }
  }

  /** kube's key id of {@code key}. */
  static String keyId(PublicKey key) throws GeneralSecurityException {
    return B64.encodeToString(MessageDigest.getInstance("SHA-256").digest(key.getEncoded()));
  }

  /** The public half of an EC private key: its scalar times the curve's generator. */
  private static PublicKey ecPublic(ECPrivateKey ec) throws GeneralSecurityException {
    ECPoint w = EcMath.multiply(ec.getParams(), ec.getS());
    return KeyFactory.getInstance("EC").generatePublic(new ECPublicKeySpec(w, ec.getParams()));
  }

  /** The JWS algorithm this generator signs with. */
  public String algorithm() {
    return algorithm;
  }

  /** The {@code kid} of its tokens. */
  public String keyId() {
    return keyId;
  }

  /**
   * The legacy claims of the token of {@code secretName} for the service account
   * {@code namespace/name} with {@code uid}, as kube's {@code LegacyClaims} and the generator
   * merge them, keys sorted.
   */
  public static MapValue legacyClaims(String namespace, String name, String uid,
      String secretName) {
    return MapValue.builder()
        .put("iss", Value.of(LEGACY_ISSUER))
        .put("kubernetes.io/serviceaccount/namespace", Value.of(namespace))
        .put("kubernetes.io/serviceaccount/secret.name", Value.of(secretName))
        .put("kubernetes.io/serviceaccount/service-account.name", Value.of(name))
        .put("kubernetes.io/serviceaccount/service-account.uid", Value.of(uid))
        .put("sub", Value.of("system:serviceaccount:" + namespace + ":" + name))
        .build();
  }

  /** kube's {@code GenerateToken(LegacyClaims(sa, secret))}. */
  public String generate(String namespace, String name, String uid, String secretName) {
    return sign(legacyClaims(namespace, name, uid, secretName));
  }

  /** The compact JWS of {@code claims}. */
  String sign(MapValue claims) {
    MapValue header = MapValue.builder().put("alg", Value.of(algorithm))
        .put("kid", Value.of(keyId)).build();
    String input = B64.encodeToString(Json.writeBytes(header)) + "."
        + B64.encodeToString(Json.writeBytes(claims));
    try {
      Signature s = Signature.getInstance(jdkAlgorithm);
      s.initSign(key);
      s.update(input.getBytes(StandardCharsets.US_ASCII));
      return input + "." + B64.encodeToString(s.sign());
    } catch (GeneralSecurityException e) {
      throw new IllegalStateException("cannot sign with " + algorithm, e);
    }
  }
}
