/*
 * Copyright The apiserver4j authors.
 * SPDX-License-Identifier: Apache-2.0
 */
package io.apiserver4j.http.internal;

import java.security.NoSuchAlgorithmException;
import java.security.SecureRandom;
import java.util.UUID;

/**
 * Random (version 4) UUIDs for the audit ID of every request, as kube's audit-init filter makes
 * with {@code uuid.New()}. {@link UUID#randomUUID()} draws from one shared {@code NativePRNG}
 * whose lock every request thread would queue on; each thread here has its own DRBG instead, as
 * strong and never contended.
 */
final class AuditIds {
  private static final ThreadLocal<SecureRandom> RANDOM = ThreadLocal.withInitial(() -> {
    try {
      return SecureRandom.getInstance("DRBG");
    } catch (NoSuchAlgorithmException e) {
      // every JDK since 9 has DRBG; the shared default still works, only slower under load
      return new SecureRandom();
    }
  });

  private AuditIds() {}

  static String next() {
    byte[] b = new byte[16];
    RANDOM.get().nextBytes(b);
    b[6] = (byte) ((b[6] & 0x0f) | 0x40); // version 4
    b[8] = (byte) ((b[8] & 0x3f) | 0x80); // IETF variant
    long hi = 0;
    long lo = 0;
    for (int i = 0; i < 8; i++) {
      hi = (hi << 8) | (b[i] & 0xff);
      lo = (lo << 8) | (b[i + 8] & 0xff);
    }
    return new UUID(hi, lo).toString();
  }
}
