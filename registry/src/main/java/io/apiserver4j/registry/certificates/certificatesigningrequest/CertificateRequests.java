/*
 * Copyright The apiserver4j authors.
 * SPDX-License-Identifier: Apache-2.0
 */
package io.apiserver4j.registry.certificates.certificatesigningrequest;

import java.nio.charset.StandardCharsets;
import java.security.GeneralSecurityException;
import java.security.KeyFactory;
import java.security.PublicKey;
import java.security.Signature;
import java.security.spec.X509EncodedKeySpec;
import java.util.Base64;
import java.util.Map;
import java.util.Optional;

/**
 * The PKCS#10 certificate request of a CertificateSigningRequest, read as kube's
 * {@code ParseCSR} and checked as Go's {@code CheckSignature}, without a certificate library:
 * a minimal DER reader of the fields the check needs.
 */
final class CertificateRequests {
  private CertificateRequests() {}

  /**
   * Why {@code base64} (the field's wire form) is not a PEM certificate request with a valid
   * signature, in the words of kube's {@code ParseCSR} and Go's {@code CheckSignature}.
   */
  static Optional<String> csrError(String base64) {
    byte[] pem;
    try {
      pem = Base64.getDecoder().decode(base64);
    } catch (IllegalArgumentException e) {
      return Optional.of("PEM block type must be CERTIFICATE REQUEST");
    }
    Optional<byte[]> der = pemBlock(new String(pem, StandardCharsets.ISO_8859_1));
    if (der.isEmpty()) {
      return Optional.of("PEM block type must be CERTIFICATE REQUEST");
    }
    try {
      Der outer = Der.read(der.get(), 0, 0x30);
      if (outer.end() != der.get().length) {
        return Optional.of("asn1: syntax error: trailing data");
      }
      Der info = Der.read(der.get(), outer.contentStart(), 0x30);
      Der algorithm = Der.read(der.get(), info.end(), 0x30);
      Der signature = Der.read(der.get(), algorithm.end(), 0x03);
      Der version = Der.read(der.get(), info.contentStart(), 0x02);
      Der subject = Der.read(der.get(), version.end(), 0x30);
      Der spki = Der.read(der.get(), subject.end(), 0x30);
      Der oid = Der.read(der.get(), algorithm.contentStart(), 0x06);
      String alg = Der.oid(der.get(), oid);
      byte[] keyBytes = java.util.Arrays.copyOfRange(der.get(), spki.start(), spki.end());
      String javaAlg = SIGNATURES.get(alg);
      if (javaAlg == null) {
        return Optional.of("x509: cannot verify signature: algorithm unimplemented");
      }
      PublicKey key = publicKey(keyBytes, javaAlg);
      Signature s = Signature.getInstance(javaAlg);
      s.initVerify(key);
      s.update(der.get(), info.start(), info.end() - info.start());
      // a BIT STRING's first content byte counts the unused bits
      byte[] sig = java.util.Arrays.copyOfRange(der.get(), signature.contentStart() + 1,
          signature.end());
      boolean ok;
      try {
        ok = s.verify(sig);
      } catch (java.security.SignatureException e) {
        ok = false;
      }
      if (!ok) {
        return Optional.of(javaAlg.contains("ECDSA") ? "x509: ECDSA verification failure"
            : javaAlg.equals("Ed25519") ? "x509: Ed25519 verification failure"
            : "crypto/rsa: verification error");
      }
      return Optional.empty();
    } catch (IllegalArgumentException e) {
      return Optional.of(e.getMessage());
    } catch (GeneralSecurityException e) {
      return Optional.of("x509: malformed public key");
    }
  }

  private static final Map<String, String> SIGNATURES = Map.of(
      "1.2.840.113549.1.1.5", "SHA1withRSA",
      "1.2.840.113549.1.1.11", "SHA256withRSA",
      "1.2.840.113549.1.1.12", "SHA384withRSA",
      "1.2.840.113549.1.1.13", "SHA512withRSA",
      "1.2.840.10045.4.3.2", "SHA256withECDSA",
      "1.2.840.10045.4.3.3", "SHA384withECDSA",
      "1.2.840.10045.4.3.4", "SHA512withECDSA",
      "1.3.101.112", "Ed25519");

  private static PublicKey publicKey(byte[] spki, String signatureAlg)
      throws GeneralSecurityException {
    String keyAlg = signatureAlg.endsWith("RSA") ? "RSA"
        : signatureAlg.endsWith("ECDSA") ? "EC" : "Ed25519";
    return KeyFactory.getInstance(keyAlg).generatePublic(new X509EncodedKeySpec(spki));
  }

  /**
   * The subject's organizations (O) of the request {@code base64}, in order; empty when it is
   * no parsable request (its validation reports that).
   */
  static java.util.List<String> subjectOrganizations(String base64) {
    java.util.List<String> out = new java.util.ArrayList<>();
    try {
      byte[] pem = Base64.getDecoder().decode(base64);
      Optional<byte[]> der = pemBlock(new String(pem, StandardCharsets.ISO_8859_1));
      if (der.isEmpty()) {
        return out;
      }
      byte[] b = der.get();
      Der outer = Der.read(b, 0, 0x30);
      Der info = Der.read(b, outer.contentStart(), 0x30);
      Der version = Der.read(b, info.contentStart(), 0x02);
      Der subject = Der.read(b, version.end(), 0x30);
      for (int at = subject.contentStart(); at < subject.end(); ) {
        Der set = Der.read(b, at, 0x31);
        for (int in = set.contentStart(); in < set.end(); ) {
          Der attr = Der.read(b, in, 0x30);
          Der oid = Der.read(b, attr.contentStart(), 0x06);
          if (Der.oid(b, oid).equals("2.5.4.10")) {
            // any string type: the value's header is two bytes for the short names used here
            int tag = b[oid.end()] & 0xff;
            Der value = Der.read(b, oid.end(), tag);
            out.add(new String(b, value.contentStart(), value.end() - value.contentStart(),
                StandardCharsets.UTF_8));
          }
          in = attr.end();
        }
        at = set.end();
      }
    } catch (IllegalArgumentException | ArrayIndexOutOfBoundsException e) {
      return out;
    }
    return out;
  }

  // Go's pem.Decode: the first block; the request must be its only meaningful content
  private static Optional<byte[]> pemBlock(String text) {
    String begin = "-----BEGIN CERTIFICATE REQUEST-----";
    String end = "-----END CERTIFICATE REQUEST-----";
    int b = text.indexOf("-----BEGIN ");
    if (b < 0 || !text.startsWith(begin, b)) {
      return Optional.empty();
    }
    int e = text.indexOf(end, b);
    if (e < 0) {
      return Optional.empty();
    }
    String body = text.substring(b + begin.length(), e).replaceAll("\\s", "");
    try {
      return Optional.of(Base64.getDecoder().decode(body));
    } catch (IllegalArgumentException ex) {
      return Optional.empty();
    }
  }

  /** One DER element: where it starts, where its content starts and where it ends. */
  private record Der(int start, int contentStart, int end) {
    static Der read(byte[] b, int at, int tag) {
      if (at + 2 > b.length) {
        throw new IllegalArgumentException("asn1: syntax error: data truncated");
      }
      if ((b[at] & 0xff) != tag) {
        throw new IllegalArgumentException("asn1: structure error: tags don't match");
      }
      int len = b[at + 1] & 0xff;
      int content = at + 2;
      if (len >= 0x80) {
        int n = len & 0x7f;
        if (n == 0 || n > 3 || content + n > b.length) {
          throw new IllegalArgumentException("asn1: syntax error: data truncated");
        }
        len = 0;
        for (int i = 0; i < n; i++) {
          len = (len << 8) | (b[content + i] & 0xff);
        }
        content += n;
      }
      if (content + len > b.length) {
        throw new IllegalArgumentException("asn1: syntax error: data truncated");
      }
      return new Der(at, content, content + len);
    }

    static String oid(byte[] b, Der oid) {
      StringBuilder sb = new StringBuilder();
      long value = 0;
      boolean first = true;
      for (int i = oid.contentStart(); i < oid.end(); i++) {
        value = (value << 7) | (b[i] & 0x7f);
        if ((b[i] & 0x80) == 0) {
          if (first) {
            long x = Math.min(value / 40, 2);
            sb.append(x).append('.').append(value - x * 40);
            first = false;
          } else {
            sb.append('.').append(value);
          }
          value = 0;
        }
      }
      return sb.toString();
    }
  }
}
