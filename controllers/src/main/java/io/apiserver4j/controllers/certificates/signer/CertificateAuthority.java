/*
 * Copyright The apiserver4j authors.
 * SPDX-License-Identifier: Apache-2.0
 */
package io.apiserver4j.controllers.certificates.signer;

import io.apiserver4j.controllers.certificates.CertificateRequest;
import io.apiserver4j.controllers.certificates.Der;
import java.math.BigInteger;
import java.security.GeneralSecurityException;
import java.security.KeyPair;
import java.security.KeyPairGenerator;
import java.security.MessageDigest;
import java.security.PrivateKey;
import java.security.SecureRandom;
import java.security.Signature;
import java.security.spec.ECGenParameterSpec;
import java.time.Duration;
import java.time.Instant;
import java.util.ArrayList;
import java.util.Base64;
import java.util.List;

/**
 * A cluster signing CA held in memory, as kube's {@code CertificateAuthority}
 * (pkg/controller/certificates/authority): an ECDSA P-256 key and a self-signed CA certificate
 * (common name {@value #COMMON_NAME}, valid ten years from its creation on the server clock,
 * as client-go's {@code NewSelfSignedCACert}); {@link #sign} issues X.509 v3 certificates for
 * PKCS#10 requests with kube's {@code PermissiveSigningPolicy}: the request's subject and
 * subject alternative names, a random 128-bit serial, the usages as key usage (critical) and
 * extended key usage, basic constraints CA:false (critical) and the CA's key identifier; any
 * other requested extension is dropped. Certificates are built with the small DER writer
 * {@link Der} and signed with {@code SHA256withECDSA}. Thread-safe.
 */
final class CertificateAuthority {
  static final String COMMON_NAME = "apiserver4j-cluster-signer";
  private static final Duration CA_VALIDITY = Duration.ofDays(3650);
  private static final String ECDSA_SHA256 = "1.2.840.10045.4.3.2";
  private static final SecureRandom RANDOM = new SecureRandom();

  private final PrivateKey key;
  private final byte[] subject;
  private final byte[] keyId;
  private final Instant notAfter;
  private final String certificatePem;

  private CertificateAuthority(PrivateKey key, byte[] subject, byte[] keyId, Instant notAfter,
      String certificatePem) {
    this.key = key;
    this.subject = subject;
    this.keyId = keyId;
    this.notAfter = notAfter;
    this.certificatePem = certificatePem;
  }

  /** A new CA whose validity starts at {@code now}. */
  static CertificateAuthority generate(Instant now) {
    try {
      KeyPairGenerator g = KeyPairGenerator.getInstance("EC");
      g.initialize(new ECGenParameterSpec("secp256r1"), RANDOM);
      KeyPair pair = g.generateKeyPair();
      byte[] spki = pair.getPublic().getEncoded();
      byte[] keyId = keyIdentifier(spki);
      byte[] name = Der.commonName(COMMON_NAME);
      Instant notAfter = now.plus(CA_VALIDITY);
      List<byte[]> extensions = List.of(
          extension("2.5.29.15", true, Der.namedBits((1 << 2) | 1 | (1 << 5))),
          extension("2.5.29.19", true, Der.sequence(Der.bool(true))),
          extension("2.5.29.14", false, Der.octetString(keyId)));
      byte[] der = certificate(pair.getPrivate(), name, name, spki, now, notAfter, extensions);
      return new CertificateAuthority(pair.getPrivate(), name, keyId, notAfter, pem(der));
    } catch (GeneralSecurityException e) {
      throw new IllegalStateException("the JDK cannot make an ECDSA P-256 key", e);
    }
  }

  /** The CA certificate, PEM. */
  String certificatePem() {
    return certificatePem;
  }

  /** The CA certificate's {@code notAfter}. */
  Instant notAfter() {
    return notAfter;
  }

  /**
   * kube's {@code Sign} with {@code PermissiveSigningPolicy}: a PEM certificate for
   * {@code request} with {@code usages}, {@code ttl} long, signed at {@code now}.
   *
   * @throws IllegalArgumentException for an unrecognized usage or an expired signer, in kube's
   *     words
   */
  String sign(CertificateRequest request, List<String> usages, Duration ttl, Instant now) {
    SigningPolicy.Usages u = SigningPolicy.usages(usages);
    SigningPolicy.Validity v = SigningPolicy.validity(ttl, now, notAfter);
    List<byte[]> extensions = new ArrayList<>();
    if (u.keyUsage() != 0) {
      extensions.add(extension("2.5.29.15", true, Der.namedBits(u.keyUsage())));
    }
    if (!u.extKeyUsages().isEmpty()) {
      extensions.add(extension("2.5.29.37", false,
          Der.sequence(u.extKeyUsages().stream().map(Der::oid).toList())));
    }
    extensions.add(extension("2.5.29.19", true, Der.sequence()));
    // [0] IMPLICIT KeyIdentifier
    extensions.add(extension("2.5.29.35", false, Der.sequence(Der.element(0x80, keyId))));
    if (request.subjectAltNames().isPresent()) {
      // RFC 5280: critical when the subject is empty
      boolean emptySubject = Der.read(request.subject(), 0).end()
          == Der.read(request.subject(), 0).contentStart();
      extensions.add(extension("2.5.29.17", emptySubject, request.subjectAltNames().get()));
    }
    try {
      return pem(certificate(key, subject, request.subject(), request.publicKeyInfo(),
          v.notBefore(), v.notAfter(), extensions));
    } catch (GeneralSecurityException e) {
      throw new IllegalStateException("failed to sign certificate", e);
    }
  }

  private static byte[] certificate(PrivateKey signer, byte[] issuer, byte[] subject,
      byte[] spki, Instant notBefore, Instant notAfter, List<byte[]> extensions)
      throws GeneralSecurityException {
    byte[] algorithm = Der.sequence(Der.oid(ECDSA_SHA256));
    byte[] serial = new byte[16];
    RANDOM.nextBytes(serial);
    byte[] tbs = Der.sequence(
        Der.explicit(0, Der.integer(BigInteger.TWO)),
        Der.integer(new BigInteger(1, serial)),
        algorithm,
        issuer,
        Der.sequence(Der.time(notBefore), Der.time(notAfter)),
        subject,
        spki,
        Der.explicit(3, Der.sequence(extensions)));
    Signature s = Signature.getInstance("SHA256withECDSA");
    s.initSign(signer);
    s.update(tbs);
    return Der.sequence(tbs, algorithm, Der.bitString(s.sign()));
  }

  private static byte[] extension(String oid, boolean critical, byte[] value) {
    return critical ? Der.sequence(Der.oid(oid), Der.bool(true), Der.octetString(value))
        : Der.sequence(Der.oid(oid), Der.octetString(value));
  }

  /** RFC 5280's method 1: the SHA-1 of the public key's bits. */
  private static byte[] keyIdentifier(byte[] spki) throws GeneralSecurityException {
    Der.Element info = Der.read(spki, 0, Der.SEQUENCE);
    Der.Element bits = info.children(spki).get(1);
    MessageDigest sha1 = MessageDigest.getInstance("SHA-1");
    sha1.update(spki, bits.contentStart() + 1, bits.end() - bits.contentStart() - 1);
    return sha1.digest();
  }

  private static String pem(byte[] der) {
    return "-----BEGIN CERTIFICATE-----\n"
        + Base64.getMimeEncoder(64, new byte[] {'\n'}).encodeToString(der)
        + "\n-----END CERTIFICATE-----\n";
  }
}
