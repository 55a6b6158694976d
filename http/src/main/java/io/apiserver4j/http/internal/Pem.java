/*
 * Copyright The apiserver4j authors.
 * SPDX-License-Identifier: Apache-2.0
 */
package io.apiserver4j.http.internal;

import java.io.ByteArrayInputStream;
import java.io.ByteArrayOutputStream;
import java.security.GeneralSecurityException;
import java.security.KeyFactory;
import java.security.KeyStore;
import java.security.PrivateKey;
import java.security.cert.Certificate;
import java.security.cert.CertificateFactory;
import java.security.cert.X509Certificate;
import java.security.spec.PKCS8EncodedKeySpec;
import java.util.ArrayList;
import java.util.Base64;
import java.util.List;
import java.util.regex.Matcher;
import java.util.regex.Pattern;

/**
 * Reads PEM certificates and private keys (PKCS#8 {@code PRIVATE KEY}, PKCS#1
 * {@code RSA PRIVATE KEY}, SEC1 {@code EC PRIVATE KEY}) into in-memory key stores, the way
 * kube-apiserver takes {@code --tls-cert-file}, {@code --tls-private-key-file} and
 * {@code --client-ca-file}. Encrypted keys are not supported.
 */
public final class Pem {
  private static final Pattern BLOCK = Pattern.compile(
      "-----BEGIN ([A-Z0-9 ]+)-----([A-Za-z0-9+/=\\s]*?)-----END \\1-----");
  private static final byte[] RSA_OID = {0x06, 0x09, 0x2a, (byte) 0x86, 0x48, (byte) 0x86,
      (byte) 0xf7, 0x0d, 0x01, 0x01, 0x01};
  private static final byte[] EC_OID = {0x06, 0x07, 0x2a, (byte) 0x86, 0x48, (byte) 0xce, 0x3d,
      0x02, 0x01};

  /** A PEM block: its label and decoded bytes. */
  public record Block(String label, byte[] der) {}

  private Pem() {}

  public static List<Block> blocks(String pem) {
    List<Block> out = new ArrayList<>();
    Matcher m = BLOCK.matcher(pem);
    while (m.find()) {
      out.add(new Block(m.group(1), Base64.getMimeDecoder().decode(m.group(2))));
    }
    return out;
  }

  /** Every {@code CERTIFICATE} block, in file order. */
  public static List<X509Certificate> certificates(String pem) {
    List<X509Certificate> certs = new ArrayList<>();
    try {
      CertificateFactory cf = CertificateFactory.getInstance("X.509");
      for (Block b : blocks(pem)) {
        if (b.label().equals("CERTIFICATE")) {
          certs.add((X509Certificate) cf.generateCertificate(new ByteArrayInputStream(b.der())));
        }
      }
    } catch (GeneralSecurityException e) {
      throw new IllegalArgumentException("invalid PEM certificate: " + e.getMessage(), e);
    }
    if (certs.isEmpty()) {
      throw new IllegalArgumentException("no CERTIFICATE block in PEM data");
    }
    return certs;
  }

  /** The first private key block. */
  public static PrivateKey privateKey(String pem) {
    for (Block b : blocks(pem)) {
      switch (b.label()) {
        case "PRIVATE KEY":
          return pkcs8(b.der());
        case "RSA PRIVATE KEY":
          return pkcs8(wrapPkcs8(seq(RSA_OID, new byte[] {0x05, 0x00}), b.der()));
        case "EC PRIVATE KEY":
          return pkcs8(wrapPkcs8(seq(EC_OID, ecCurveOid(b.der())), b.der()));
        case "ENCRYPTED PRIVATE KEY":
          throw new IllegalArgumentException("encrypted private keys are not supported");
        default:
          break;
      }
    }
    throw new IllegalArgumentException("no PRIVATE KEY block in PEM data");
  }

  /** A PKCS#12 key store holding the key and its certificate chain under alias {@code server}. */
  public static KeyStore keyStore(String certPem, String keyPem, char[] password) {
    List<X509Certificate> chain = certificates(certPem);
    PrivateKey key = privateKey(keyPem);
    try {
      KeyStore ks = KeyStore.getInstance("PKCS12");
      ks.load(null, null);
      ks.setKeyEntry("server", key, password, chain.toArray(new Certificate[0]));
      return ks;
    } catch (GeneralSecurityException | java.io.IOException e) {
      throw new IllegalArgumentException("certificate and key do not form a key pair: "
          + e.getMessage(), e);
    }
  }

  /** A trust store with every certificate of the PEM data. */
  public static KeyStore trustStore(String caPem) {
    try {
      KeyStore ks = KeyStore.getInstance("PKCS12");
      ks.load(null, null);
      int i = 0;
      for (X509Certificate c : certificates(caPem)) {
        ks.setCertificateEntry("ca-" + i++, c);
      }
      return ks;
    } catch (GeneralSecurityException | java.io.IOException e) {
      throw new IllegalArgumentException("invalid CA bundle: " + e.getMessage(), e);
    }
  }

  private static PrivateKey pkcs8(byte[] der) {
    for (String alg : new String[] {"RSA", "EC", "Ed25519", "EdDSA"}) {
      try {
        return KeyFactory.getInstance(alg).generatePrivate(new PKCS8EncodedKeySpec(der));
      } catch (GeneralSecurityException e) {
        // try the next algorithm: PKCS#8 names it, but asking each factory is simpler
      }
    }
    throw new IllegalArgumentException("unsupported or malformed private key");
  }

  private static byte[] wrapPkcs8(byte[] algorithmIdentifier, byte[] key) {
    return seq(new byte[] {0x02, 0x01, 0x00}, algorithmIdentifier, tlv(0x04, key));
  }

  /** The named-curve OID (as a full TLV) from the [0] parameters of a SEC1 key. */
  private static byte[] ecCurveOid(byte[] sec1) {
    int[] pos = {0};
    readHeader(sec1, pos, 0x30);
    int end = sec1.length;
    while (pos[0] < end) {
      int tag = sec1[pos[0]] & 0xff;
      int start = pos[0];
      int len = readHeader(sec1, pos, tag);
      if (tag == 0xa0) {
        int oidStart = pos[0];
        int[] p = {oidStart};
        int oidLen = readHeader(sec1, p, 0x06);
        byte[] out = new byte[p[0] - oidStart + oidLen];
        System.arraycopy(sec1, oidStart, out, 0, out.length);
        return out;
      }
      pos[0] += len;
      if (pos[0] <= start) {
        break;
      }
    }
    throw new IllegalArgumentException("EC private key without named curve parameters");
  }

  private static int readHeader(byte[] der, int[] pos, int expectedTag) {
    if (pos[0] + 2 > der.length || (der[pos[0]] & 0xff) != expectedTag) {
      throw new IllegalArgumentException("malformed DER in private key");
    }
    pos[0]++;
    int len = der[pos[0]++] & 0xff;
    if (len >= 0x80) {
      int n = len & 0x7f;
      len = 0;
      for (int i = 0; i < n; i++) {
        len = (len << 8) | (der[pos[0]++] & 0xff);
      }
    }
    return len;
  }

  private static byte[] seq(byte[]... parts) {
    ByteArrayOutputStream body = new ByteArrayOutputStream();
    for (byte[] p : parts) {
      body.writeBytes(p);
    }
    return tlv(0x30, body.toByteArray());
  }

  private static byte[] tlv(int tag, byte[] value) {
    ByteArrayOutputStream out = new ByteArrayOutputStream();
    out.write(tag);
    int len = value.length;
    if (len < 0x80) {
      out.write(len);
    } else if (len < 0x100) {
      out.write(0x81);
      out.write(len);
    } else if (len < 0x10000) {
      out.write(0x82);
      out.write(len >> 8);
      out.write(len);
    } else {
      out.write(0x83);
      out.write(len >> 16);
      out.write(len >> 8);
      out.write(len);
    }
    out.writeBytes(value);
    return out.toByteArray();
  }
}
