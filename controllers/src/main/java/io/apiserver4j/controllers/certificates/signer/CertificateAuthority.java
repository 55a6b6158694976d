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
import java.security.interfaces.ECPrivateKey;
import java.security.interfaces.RSAPrivateKey;
import java.security.spec.ECGenParameterSpec;
import java.time.Duration;
import java.time.Instant;
import java.util.ArrayList;
import java.util.Base64;
import java.util.List;

/**
 * A cluster signing CA, as kube's {@code CertificateAuthority}
 * (pkg/controller/certificates/authority): read from kube-controller-manager's
 * {@code --cluster-signing-*} files ({@link #of}), or held in memory: an ECDSA P-256 key and a self-signed CA certificate
 * (common name {@value #COMMON_NAME}, valid ten years from its creation on the server clock,
 * as client-go's {@code NewSelfSignedCACert}); {@link #sign} issues X.509 v3 certificates for
 * PKCS#10 requests with kube's {@code PermissiveSigningPolicy}: the request's subject and
 * subject alternative names, a random 128-bit serial, the usages as key usage (critical) and
 * extended key usage, basic constraints CA:false (critical) and the CA's key identifier; any
 * other requested extension is dropped. Certificates are built with the small DER writer
 * {@link Der} and signed with the algorithm Go picks for the CA's key
 * ({@code SHA256withECDSA} for the in-memory one). Thread-safe.
 */
final class CertificateAuthority {
  static final String COMMON_NAME = "apiserver4j-cluster-signer";
  private static final Duration CA_VALIDITY = Duration.ofDays(3650);
  private static final SecureRandom RANDOM = new SecureRandom();

  private final PrivateKey key;
  private final SignatureAlgorithm algorithm;
  private final byte[] subject;
  /** The CA's subject key identifier, that issued certificates name; null when it has none. */
  private final byte[] keyId;
  private final Instant notAfter;
  private final String certificatePem;

  private CertificateAuthority(PrivateKey key, SignatureAlgorithm algorithm, byte[] subject,
      byte[] keyId, Instant notAfter, String certificatePem) {
    this.key = key;
    this.algorithm = algorithm;
    this.subject = subject;
    this.keyId = keyId;
    this.notAfter = notAfter;
    this.certificatePem = certificatePem;
  }

  /**
   * A CA of a certificate and its private key read from files (see {@link CaFileLoader}), as
   * kube's {@code caProvider}: certificates it issues name the CA's subject as issuer and its
   * subject key identifier, if it has one, as authority key identifier, as Go's
   * {@code x509.CreateCertificate}, and are signed with the algorithm Go picks for the key.
   */
  static CertificateAuthority of(PrivateKey key, byte[] subject, byte[] keyId,
      Instant notAfter, String certificatePem) {
    return new CertificateAuthority(key, SignatureAlgorithm.forKey(key), subject, keyId,
        notAfter, certificatePem);
  }

  /** A new CA whose validity starts at {@code now}. */
  static CertificateAuthority generate(Instant now) {
    KeyPair pair;
    try {
      KeyPairGenerator g = KeyPairGenerator.getInstance("EC");
      g.initialize(new ECGenParameterSpec("secp256r1"), RANDOM);
      pair = g.generateKeyPair();
    } catch (GeneralSecurityException e) {
      throw new IllegalStateException("the JDK cannot make an ECDSA P-256 key", e);
    }
    return selfSigned(pair, now);
  }

  /**
   * A CA of {@code pair} (RSA or ECDSA) with a self-signed certificate named
   * {@value #COMMON_NAME}, valid ten years from {@code now}.
   */
  static CertificateAuthority selfSigned(KeyPair pair, Instant now) {
    SignatureAlgorithm algorithm = SignatureAlgorithm.forKey(pair.getPrivate());
    try {
      byte[] spki = pair.getPublic().getEncoded();
      byte[] keyId = keyIdentifier(spki);
      byte[] name = Der.commonName(COMMON_NAME);
      Instant notAfter = now.plus(CA_VALIDITY);
      List<byte[]> extensions = List.of(
          extension("2.5.29.15", true, Der.namedBits((1 << 2) | 1 | (1 << 5))),
          extension("2.5.29.19", true, Der.sequence(Der.bool(true))),
          extension("2.5.29.14", false, Der.octetString(keyId)));
      byte[] der = certificate(pair.getPrivate(), algorithm, name, name, spki, now, notAfter,
          extensions);
      return new CertificateAuthority(pair.getPrivate(), algorithm, name, keyId, notAfter,
          pem(der));
    } catch (GeneralSecurityException e) {
      throw new IllegalStateException("cannot sign with the CA key", e);
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
    if (keyId != null) {
      // [0] IMPLICIT KeyIdentifier
      extensions.add(extension("2.5.29.35", false, Der.sequence(Der.element(0x80, keyId))));
    }
    if (request.subjectAltNames().isPresent()) {
      // RFC 5280: critical when the subject is empty
      boolean emptySubject = Der.read(request.subject(), 0).end()
          == Der.read(request.subject(), 0).contentStart();
      extensions.add(extension("2.5.29.17", emptySubject, request.subjectAltNames().get()));
    }
    try {
      return pem(certificate(key, algorithm, subject, request.subject(), request.publicKeyInfo(),
          v.notBefore(), v.notAfter(), extensions));
    } catch (GeneralSecurityException e) {
      throw new IllegalStateException("failed to sign certificate", e);
    }
  }

  private static byte[] certificate(PrivateKey signer, SignatureAlgorithm signatureAlgorithm,
      byte[] issuer, byte[] subject, byte[] spki, Instant notBefore, Instant notAfter,
      List<byte[]> extensions) throws GeneralSecurityException {
    byte[] algorithm = signatureAlgorithm.identifier();
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
    Signature s = Signature.getInstance(signatureAlgorithm.jcaName());
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

  /**
   * The signature algorithm Go's {@code x509.CreateCertificate} picks for a CA key: SHA-256
   * with RSA (PKCS#1 v1.5) for RSA, and ECDSA with SHA-256, -384 or -512 for P-256, P-384 and
   * P-521.
   */
  enum SignatureAlgorithm {
    RSA_SHA256("1.2.840.113549.1.1.11", "SHA256withRSA"),
    ECDSA_SHA256("1.2.840.10045.4.3.2", "SHA256withECDSA"),
    ECDSA_SHA384("1.2.840.10045.4.3.3", "SHA384withECDSA"),
    ECDSA_SHA512("1.2.840.10045.4.3.4", "SHA512withECDSA");

    private final String oid;
    private final String jcaName;

    SignatureAlgorithm(String oid, String jcaName) {
      this.oid = oid;
      this.jcaName = jcaName;
    }

    String jcaName() {
      return jcaName;
    }

    /** The AlgorithmIdentifier: RSA's carries NULL parameters, ECDSA's none. */
    byte[] identifier() {
      return this == RSA_SHA256 ? Der.sequence(Der.oid(oid), new byte[] {0x05, 0x00})
          : Der.sequence(Der.oid(oid));
    }

    /**
     * The algorithm for {@code key}.
     *
     * @throws IllegalArgumentException for another kind of key or curve
     */
    static SignatureAlgorithm forKey(PrivateKey key) {
      if (key instanceof RSAPrivateKey) {
        return RSA_SHA256;
      }
      if (key instanceof ECPrivateKey ec) {
        int bits = ec.getParams().getCurve().getField().getFieldSize();
        return switch (bits) {
          case 256 -> ECDSA_SHA256;
          case 384 -> ECDSA_SHA384;
          case 521 -> ECDSA_SHA512;
          default -> throw new IllegalArgumentException("x509: unknown elliptic curve");
        };
      }
      throw new IllegalArgumentException("x509: only RSA and ECDSA keys supported");
    }
  }
}
