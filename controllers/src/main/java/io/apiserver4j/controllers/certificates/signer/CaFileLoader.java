/*
 * Copyright The apiserver4j authors.
 * SPDX-License-Identifier: Apache-2.0
 */
package io.apiserver4j.controllers.certificates.signer;

import io.apiserver4j.controllers.internal.SigningFiles.CaFiles;
import io.apiserver4j.controllers.certificates.Der;
import java.io.ByteArrayInputStream;
import java.io.IOException;
import java.math.BigInteger;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.NoSuchFileException;
import java.security.GeneralSecurityException;
import java.security.KeyFactory;
import java.security.PrivateKey;
import java.security.Signature;
import java.security.cert.CertificateException;
import java.security.cert.CertificateFactory;
import java.security.cert.X509Certificate;
import java.security.spec.PKCS8EncodedKeySpec;
import java.util.ArrayList;
import java.util.Base64;
import java.util.List;
import java.util.regex.Matcher;
import java.util.regex.Pattern;

/**
 * Reads a CA from a PEM certificate file and a PEM private key file with the JDK only, as
 * kube's csrsigning {@code caProvider} over {@code dynamiccertificates}' file content: both
 * files must be non-empty, the key must be PKCS#8 ({@code PRIVATE KEY}), PKCS#1
 * ({@code RSA PRIVATE KEY}) or SEC 1 ({@code EC PRIVATE KEY}), RSA or ECDSA, and match the
 * certificate's public key ({@code tls.X509KeyPair}), and the certificate file must hold exactly
 * one certificate. Errors are {@link IllegalArgumentException}s in kube's words. {@link
 * ReloadingCa} reads them again when they change.
 */
public final class CaFileLoader {
  private static final Pattern PEM = Pattern.compile(
      "-----BEGIN ([A-Z0-9 ]+)-----\\r?\\n(.*?)-----END \\1-----", Pattern.DOTALL);
  private static final String RSA_ENCRYPTION = "1.2.840.113549.1.1.1";
  private static final String EC_PUBLIC_KEY = "1.2.840.10045.2.1";
  /** dynamiccertificates' name of the csrsigning content, which kube's messages quote. */
  private static final String CONTENT_NAME = "csr-controller";

  private CaFileLoader() {}

  private record Block(String type, byte[] der) {}

  /**
   * The CA of {@code files}.
   *
   * @throws IllegalArgumentException as kube's {@code newCAProvider}: {@code error reading CA
   *     cert file "<cert file>": ...} for an unreadable or empty file, no certificate, a bad key
   *     or a key that does not match; {@code error reading CA cert file "csr-controller":
   *     expected 1 certificate, found N}
   */
  static CertificateAuthority load(CaFiles files) {
    Content content = read(files);
    return parse(files, content.certPem(), content.keyPem());
  }

  /** The PEM text of a certificate file and of its key file, as read at one time. */
  record Content(String certPem, String keyPem) {}

  /**
   * Reads both files.
   *
   * @throws IllegalArgumentException as {@link #load} for a file that cannot be read
   */
  static Content read(CaFiles files) {
    try {
      return new Content(read(files.certFile().toString()), read(files.keyFile().toString()));
    } catch (IllegalArgumentException e) {
      throw new IllegalArgumentException("error reading CA cert file \"" + files.certFile()
          + "\": " + e.getMessage(), e);
    }
  }

  /**
   * The CA of the content read from {@code files}.
   *
   * @throws IllegalArgumentException as {@link #load}
   */
  static CertificateAuthority parse(CaFiles files, String certPem, String keyPem) {
    if (certPem.isEmpty() || keyPem.isEmpty()) {
      throw new IllegalArgumentException("error reading CA cert file \"" + files.certFile()
          + "\": missing content for serving cert \"" + CONTENT_NAME + "\"");
    }
    List<X509Certificate> certs;
    PrivateKey key;
    try {
      certs = certificates(certPem);
      key = privateKey(keyPem);
      if (!matches(key, certs.get(0))) {
        throw new IllegalArgumentException("tls: private key does not match public key");
      }
    } catch (IllegalArgumentException e) {
      throw new IllegalArgumentException("error reading CA cert file \"" + files.certFile()
          + "\": " + e.getMessage(), e);
    }
    if (certs.size() != 1) {
      throw new IllegalArgumentException("error reading CA cert file \"" + CONTENT_NAME
          + "\": expected 1 certificate, found " + certs.size());
    }
    X509Certificate ca = certs.get(0);
    return CertificateAuthority.of(key, ca.getSubjectX500Principal().getEncoded(),
        subjectKeyId(ca), ca.getNotAfter().toInstant(), certPem);
  }

  private static String read(String path) {
    try {
      return Files.readString(java.nio.file.Path.of(path), StandardCharsets.UTF_8);
    } catch (NoSuchFileException e) {
      throw new IllegalArgumentException("open " + path + ": no such file or directory", e);
    } catch (IOException e) {
      throw new IllegalArgumentException("open " + path + ": " + e.getMessage(), e);
    }
  }

  private static List<Block> blocks(String pem) {
    List<Block> out = new ArrayList<>();
    Matcher m = PEM.matcher(pem);
    while (m.find()) {
      byte[] der;
      try {
        der = Base64.getMimeDecoder().decode(m.group(2));
      } catch (IllegalArgumentException e) {
        continue;
      }
      out.add(new Block(m.group(1), der));
    }
    return out;
  }

  /** {@code tls.X509KeyPair}'s certificate input, then {@code cert.ParseCertsPEM}. */
  static List<X509Certificate> certificates(String pem) {
    List<Block> blocks = blocks(pem);
    List<X509Certificate> out = new ArrayList<>();
    List<String> skipped = new ArrayList<>();
    for (Block b : blocks) {
      if (!b.type().equals("CERTIFICATE")) {
        skipped.add(b.type());
        continue;
      }
      try {
        out.add((X509Certificate) CertificateFactory.getInstance("X.509")
            .generateCertificate(new ByteArrayInputStream(b.der())));
      } catch (CertificateException e) {
        throw new IllegalArgumentException("x509: malformed certificate", e);
      }
    }
    if (out.isEmpty()) {
      throw new IllegalArgumentException(skipped.isEmpty()
          ? "tls: failed to find any PEM data in certificate input"
          : "tls: failed to find \"CERTIFICATE\" PEM block in certificate input after skipping"
              + " PEM blocks of the following types: " + skipped);
    }
    return out;
  }

  /** {@code tls.X509KeyPair}'s key input: the first {@code * PRIVATE KEY} block. */
  public static PrivateKey privateKey(String pem) {
    List<String> skipped = new ArrayList<>();
    for (Block b : blocks(pem)) {
      if (b.type().equals("PRIVATE KEY") || b.type().endsWith(" PRIVATE KEY")) {
        return parse(b);
      }
      skipped.add(b.type());
    }
    throw new IllegalArgumentException(skipped.isEmpty()
        ? "tls: failed to find any PEM data in key input"
        : "tls: failed to find \"PRIVATE KEY\" PEM block in key input after skipping PEM blocks"
            + " of the following types: " + skipped);
  }

  /** Go's {@code parsePrivateKey}: PKCS#1, then PKCS#8, then SEC 1. */
  private static PrivateKey parse(Block b) {
    try {
      return switch (b.type()) {
        case "RSA PRIVATE KEY" -> keyFactory("RSA", pkcs8(RSA_ENCRYPTION, null, b.der()));
        case "EC PRIVATE KEY" -> keyFactory("EC", pkcs8(EC_PUBLIC_KEY, curve(b.der()), b.der()));
        default -> keyFactory(pkcs8Algorithm(b.der()), b.der());
      };
    } catch (RuntimeException | GeneralSecurityException e) {
      // malformed DER surfaces as index or argument errors of the reader: all one answer
      throw new IllegalArgumentException("tls: failed to parse private key", e);
    }
  }

  private static PrivateKey keyFactory(String algorithm, byte[] pkcs8)
      throws GeneralSecurityException {
    return KeyFactory.getInstance(algorithm).generatePrivate(new PKCS8EncodedKeySpec(pkcs8));
  }

  /** The JCA algorithm of a PKCS#8 PrivateKeyInfo's AlgorithmIdentifier. */
  private static String pkcs8Algorithm(byte[] der) {
    List<Der.Element> info = Der.read(der, 0, Der.SEQUENCE).children(der);
    Der.Element algorithm = info.get(1).children(der).get(0);
    String oid = Der.oid(der, algorithm);
    return switch (oid) {
      case RSA_ENCRYPTION -> "RSA";
      case EC_PUBLIC_KEY -> "EC";
      default -> throw new IllegalArgumentException("x509: PKCS#8 wrapping contained private key"
          + " with unknown algorithm: " + oid);
    };
  }

  /** The named curve of a SEC 1 ECPrivateKey ({@code [0] parameters}). */
  private static byte[] curve(byte[] sec1) {
    for (Der.Element e : Der.read(sec1, 0, Der.SEQUENCE).children(sec1)) {
      if (e.tag() == 0xa0) {
        Der.Element oid = Der.read(sec1, e.contentStart());
        byte[] out = new byte[oid.end() - oid.start()];
        System.arraycopy(sec1, oid.start(), out, 0, out.length);
        return out;
      }
    }
    throw new IllegalArgumentException("x509: failed to parse EC private key: no curve");
  }

  /** A PKCS#8 PrivateKeyInfo around a PKCS#1 or SEC 1 key. */
  private static byte[] pkcs8(String algorithmOid, byte[] parameters, byte[] key) {
    byte[] params = parameters == null ? new byte[] {0x05, 0x00} : parameters;
    return Der.sequence(Der.integer(BigInteger.ZERO),
        Der.sequence(Der.oid(algorithmOid), params), Der.octetString(key));
  }

  /** Whether {@code key} signs what the certificate's public key verifies. */
  private static boolean matches(PrivateKey key, X509Certificate cert) {
    String algorithm = CertificateAuthority.SignatureAlgorithm.forKey(key).jcaName();
    byte[] probe = "apiserver4j key pair check".getBytes(StandardCharsets.US_ASCII);
    try {
      Signature s = Signature.getInstance(algorithm);
      s.initSign(key);
      s.update(probe);
      byte[] signature = s.sign();
      Signature v = Signature.getInstance(algorithm);
      v.initVerify(cert.getPublicKey());
      v.update(probe);
      return v.verify(signature);
    } catch (GeneralSecurityException e) {
      return false;
    }
  }

  /** The certificate's subject key identifier, or null when it has none. */
  private static byte[] subjectKeyId(X509Certificate cert) {
    byte[] ext = cert.getExtensionValue("2.5.29.14");
    if (ext == null) {
      return null;
    }
    Der.Element outer = Der.read(ext, 0);
    Der.Element inner = Der.read(ext, outer.contentStart());
    byte[] out = new byte[inner.end() - inner.contentStart()];
    System.arraycopy(ext, inner.contentStart(), out, 0, out.length);
    return out;
  }
}
