/*
 * Copyright The apiserver4j authors.
 * SPDX-License-Identifier: Apache-2.0
 */
package io.apiserver4j.controllers.bootstrap;

import java.nio.charset.StandardCharsets;
import java.security.GeneralSecurityException;
import java.util.Base64;
import javax.crypto.Mac;
import javax.crypto.spec.SecretKeySpec;

/**
 * k8s.io/cluster-bootstrap's {@code jws.ComputeDetachedSignature}: an HS256 JWS (RFC 7515) of
 * the content with header {@code {"alg":"HS256","kid":"<token id>"}}, keyed by the token
 * secret, in compact form with its payload left out ({@code header..signature}).
 */
final class Jws {
  private static final Base64.Encoder B64 = Base64.getUrlEncoder().withoutPadding();
  /** SHA-256's block size: HMAC pads shorter keys with zeros to it. */
  private static final int BLOCK = 64;

  private Jws() {}

  static String detachedSignature(String content, String tokenId, String tokenSecret) {
    String header = B64.encodeToString(("{\"alg\":\"HS256\",\"kid\":\"" + jsonString(tokenId)
        + "\"}").getBytes(StandardCharsets.UTF_8));
    String payload = B64.encodeToString(content.getBytes(StandardCharsets.UTF_8));
    byte[] key = tokenSecret.getBytes(StandardCharsets.UTF_8);
    if (key.length == 0) {
      // the JDK refuses an empty key; HMAC treats it as a block of zeros, as Go's does
      key = new byte[BLOCK];
    }
    try {
      Mac mac = Mac.getInstance("HmacSHA256");
      mac.init(new SecretKeySpec(key, "HmacSHA256"));
      byte[] sig = mac.doFinal((header + "." + payload).getBytes(StandardCharsets.US_ASCII));
      return header + ".." + B64.encodeToString(sig);
    } catch (GeneralSecurityException e) {
      throw new IllegalStateException("HmacSHA256 unavailable", e);
    }
  }

  /** A token id inside a JSON string (ids are [a-z0-9]; quotes and backslashes escaped). */
  private static String jsonString(String s) {
    return s.replace("\\", "\\\\").replace("\"", "\\\"");
  }
}
