/*
 * Copyright The apiserver4j authors.
 * SPDX-License-Identifier: Apache-2.0
 */
package io.apiserver4j.controllers.certificates.signer;

import java.time.Duration;
import java.time.Instant;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.TreeMap;

/**
 * kube's {@code PermissiveSigningPolicy} (pkg/controller/certificates/authority/policies.go) as
 * the signer configures it: the usages as X.509 key usage bits and extended key usage OIDs, and
 * the validity from the TTL, backdated five minutes unless the TTL is shorter than eight hours,
 * never past the signer's own {@code notAfter}.
 */
final class SigningPolicy {
  /** The signer's {@code Backdate}. */
  static final Duration BACKDATE = Duration.ofMinutes(5);
  /** The signer's {@code Short}. */
  static final Duration SHORT = Duration.ofHours(8);

  /** Go's {@code x509.KeyUsage} bits (bit 0 = digitalSignature, RFC 5280 order). */
  private static final Map<String, Integer> KEY_USAGES = Map.of(
      "signing", 1, "digital signature", 1, "content commitment", 1 << 1,
      "key encipherment", 1 << 2, "key agreement", 1 << 4, "data encipherment", 1 << 3,
      "cert sign", 1 << 5, "crl sign", 1 << 6, "encipher only", 1 << 7,
      "decipher only", 1 << 8);

  /** The extended key usages: Go's {@code x509.ExtKeyUsage} rank (its sort order) and OID. */
  private record Ext(int rank, String oid) {}

  private static final Map<String, Ext> EXT_KEY_USAGES = Map.ofEntries(
      Map.entry("any", new Ext(0, "2.5.29.37.0")),
      Map.entry("server auth", new Ext(1, "1.3.6.1.5.5.7.3.1")),
      Map.entry("client auth", new Ext(2, "1.3.6.1.5.5.7.3.2")),
      Map.entry("code signing", new Ext(3, "1.3.6.1.5.5.7.3.3")),
      Map.entry("email protection", new Ext(4, "1.3.6.1.5.5.7.3.4")),
      Map.entry("s/mime", new Ext(4, "1.3.6.1.5.5.7.3.4")),
      Map.entry("ipsec end system", new Ext(5, "1.3.6.1.5.5.7.3.5")),
      Map.entry("ipsec tunnel", new Ext(6, "1.3.6.1.5.5.7.3.6")),
      Map.entry("ipsec user", new Ext(7, "1.3.6.1.5.5.7.3.7")),
      Map.entry("timestamping", new Ext(8, "1.3.6.1.5.5.7.3.8")),
      Map.entry("ocsp signing", new Ext(9, "1.3.6.1.5.5.7.3.9")),
      Map.entry("microsoft sgc", new Ext(10, "1.3.6.1.4.1.311.10.3.3")),
      Map.entry("netscape sgc", new Ext(11, "2.16.840.1.113730.4.1")));

  /** A certificate's usages: key usage bits and extended key usage OIDs in Go's order. */
  record Usages(int keyUsage, List<String> extKeyUsages) {}

  /** A certificate's validity. */
  record Validity(Instant notBefore, Instant notAfter) {}

  private SigningPolicy() {}

  /**
   * kube's {@code keyUsagesFromStrings}.
   *
   * @throws IllegalArgumentException "unrecognized usage values: [...]" as kube words it
   */
  static Usages usages(List<String> usages) {
    int bits = 0;
    TreeMap<Integer, String> ext = new TreeMap<>();
    List<String> unrecognized = new ArrayList<>();
    for (String u : usages) {
      Integer bit = KEY_USAGES.get(u);
      Ext e = EXT_KEY_USAGES.get(u);
      if (bit != null) {
        bits |= bit;
      } else if (e != null) {
        ext.put(e.rank(), e.oid());
      } else {
        unrecognized.add("\"" + u + "\"");
      }
    }
    if (!unrecognized.isEmpty()) {
      throw new IllegalArgumentException("unrecognized usage values: ["
          + String.join(" ", unrecognized) + "]");
    }
    return new Usages(bits, List.copyOf(ext.values()));
  }

  /**
   * The validity kube's policy gives a certificate of {@code ttl} signed at {@code now} by a
   * signer valid until {@code signerNotAfter}.
   *
   * @throws IllegalArgumentException when the signer has expired, with kube's message
   */
  static Validity validity(Duration ttl, Instant now, Instant signerNotAfter) {
    Instant notBefore = now.minus(BACKDATE);
    Instant notAfter = ttl.compareTo(SHORT) < 0 ? now.plus(ttl) : now.plus(ttl).minus(BACKDATE);
    if (!notAfter.isBefore(signerNotAfter)) {
      notAfter = signerNotAfter;
    }
    if (!notBefore.isBefore(signerNotAfter)) {
      throw new IllegalArgumentException("the signer has expired: NotAfter=" + signerNotAfter);
    }
    if (!now.isBefore(signerNotAfter)) {
      throw new IllegalArgumentException(
          "refusing to sign a certificate that expired in the past: NotAfter=" + signerNotAfter);
    }
    return new Validity(notBefore, notAfter);
  }

  /**
   * kube's signer {@code duration}: the requested {@code expirationSeconds} bounded by the
   * signer's maximum {@code certTtl} and a minimum of ten minutes; the maximum when none.
   */
  static Duration duration(Long expirationSeconds, Duration certTtl) {
    if (expirationSeconds == null) {
      return certTtl;
    }
    Duration requested = Duration.ofSeconds(expirationSeconds);
    Duration min = Duration.ofMinutes(10);
    if (requested.compareTo(certTtl) > 0) {
      return certTtl;
    }
    if (requested.compareTo(min) < 0) {
      return min;
    }
    return requested;
  }
}
