/*
 * Copyright The apiserver4j authors.
 * SPDX-License-Identifier: Apache-2.0
 */
package io.apiserver4j.auth.tokens;

import io.apiserver4j.core.DecodeException;
import io.apiserver4j.core.Json;
import io.apiserver4j.core.MapValue;
import io.apiserver4j.core.Value;
import java.nio.charset.StandardCharsets;
import java.security.GeneralSecurityException;
import java.security.MessageDigest;
import java.security.PrivateKey;
import java.security.PublicKey;
import java.security.Signature;
import java.security.interfaces.ECPublicKey;
import java.security.interfaces.RSAPublicKey;
import java.util.Base64;
import java.util.Optional;

/**
 * Compact JWS (RFC 7515) with the algorithms kube-apiserver signs and verifies service account
 * tokens with: RS256 and, for verification keys, ES256/ES384/ES512. Signatures use the JDK's
 * {@code java.security}; ECDSA signatures are in JWS's raw {@code r||s} form (P1363).
 */
final class Jwt {
  private static final Base64.Encoder ENCODER = Base64.getUrlEncoder().withoutPadding();
  private static final Base64.Decoder DECODER = Base64.getUrlDecoder();

  /** A token split into its parts; nothing verified. */
  record Parsed(MapValue header, MapValue payload, String signingInput, byte[] signature) {
    String keyId() {
      return header.getOrNull("kid") instanceof io.apiserver4j.core.StringValue s ? s.value()
          : "";
    }

    String algorithm() {
      return header.getOrNull("alg") instanceof io.apiserver4j.core.StringValue s ? s.value()
          : "";
    }
  }

  private Jwt() {}

  /** kube's key id: the unpadded base64url SHA-256 of the key's DER (PKIX) encoding. */
  static String keyId(PublicKey key) {
    try {
      return ENCODER.encodeToString(MessageDigest.getInstance("SHA-256")
          .digest(key.getEncoded()));
    } catch (GeneralSecurityException e) {
      throw new IllegalStateException("SHA-256 unavailable", e);
    }
  }

  /** Signs {@code payload} with RS256 under key id {@code kid}. */
  static String sign(MapValue payload, PrivateKey key, String kid) {
    MapValue header = MapValue.builder().put("alg", Value.of("RS256"))
        .put("kid", Value.of(kid)).build();
    String input = part(Json.writeBytes(header)) + "." + part(Json.writeBytes(payload));
    try {
      Signature s = Signature.getInstance("SHA256withRSA");
      s.initSign(key);
      s.update(input.getBytes(StandardCharsets.US_ASCII));
      return input + "." + ENCODER.encodeToString(s.sign());
    } catch (GeneralSecurityException e) {
      throw new IllegalStateException("cannot sign with " + key.getAlgorithm(), e);
    }
  }

  /** The payload of a compact token, unverified; empty when it is not one. */
  static Optional<MapValue> unverifiedPayload(String token) {
    if (token.strip().startsWith("{")) {
      return Optional.empty();
    }
    String[] parts = token.split("\\.", -1);
    if (parts.length != 3) {
      return Optional.empty();
    }
    return object(parts[1]);
  }

  /** The parts of a compact token; empty when it is not one. */
  static Optional<Parsed> parse(String token) {
    String[] parts = token.split("\\.", -1);
    if (parts.length != 3) {
      return Optional.empty();
    }
    Optional<MapValue> header = object(parts[0]);
    Optional<MapValue> payload = object(parts[1]);
    if (header.isEmpty() || payload.isEmpty()) {
      return Optional.empty();
    }
    try {
      return Optional.of(new Parsed(header.get(), payload.get(), parts[0] + "." + parts[1],
          DECODER.decode(parts[2])));
    } catch (IllegalArgumentException e) {
      return Optional.empty();
    }
  }

  /** Whether {@code key} signed {@code token} with the algorithm its header names. */
  static boolean verify(Parsed token, PublicKey key) {
    String jdk = switch (token.algorithm()) {
      case "RS256" -> key instanceof RSAPublicKey ? "SHA256withRSA" : null;
      case "RS384" -> key instanceof RSAPublicKey ? "SHA384withRSA" : null;
      case "RS512" -> key instanceof RSAPublicKey ? "SHA512withRSA" : null;
      case "ES256" -> key instanceof ECPublicKey ? "SHA256withECDSAinP1363Format" : null;
      case "ES384" -> key instanceof ECPublicKey ? "SHA384withECDSAinP1363Format" : null;
      case "ES512" -> key instanceof ECPublicKey ? "SHA512withECDSAinP1363Format" : null;
      default -> null;
    };
    if (jdk == null) {
      return false;
    }
    try {
      Signature s = Signature.getInstance(jdk);
      s.initVerify(key);
      s.update(token.signingInput().getBytes(StandardCharsets.US_ASCII));
      return s.verify(token.signature());
    } catch (GeneralSecurityException e) {
      // a malformed signature is a failed verification
      return false;
    }
  }

  private static String part(byte[] json) {
    return ENCODER.encodeToString(json);
  }

  private static Optional<MapValue> object(String part) {
    try {
      return Json.read(DECODER.decode(part)) instanceof MapValue m ? Optional.of(m)
          : Optional.empty();
    } catch (IllegalArgumentException | DecodeException e) {
      return Optional.empty();
    }
  }
}
