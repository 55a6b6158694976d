/*
 * Copyright The apiserver4j authors.
 * SPDX-License-Identifier: Apache-2.0
 */
package io.apiserver4j.auth.tokens;

import java.io.ByteArrayInputStream;
import java.io.ByteArrayOutputStream;
import java.math.BigInteger;
import java.security.GeneralSecurityException;
import java.security.KeyFactory;
import java.security.PrivateKey;
import java.security.PublicKey;
import java.security.cert.CertificateFactory;
import java.security.interfaces.RSAPrivateCrtKey;
import java.security.spec.PKCS8EncodedKeySpec;
import java.security.spec.RSAPublicKeySpec;
import java.security.spec.X509EncodedKeySpec;
import java.util.ArrayList;
import java.util.Base64;
import java.util.List;
import java.util.regex.Matcher;
import java.util.regex.Pattern;

/**
 * Keys from PEM text as kube-apiserver reads {@code --service-account-signing-key-file} (one
 * private key: PKCS#8, PKCS#1 RSA or SEC1 EC) and {@code --service-account-key-file} (public
 * keys, certificates and private keys, each contributing its public key).
 */
final class PemKeys {
  private static final Pattern BLOCK = Pattern.compile(
      "-----BEGIN ([A-Z0-9 ]+)-----\\s*([A-Za-z0-9+/=\\s]*?)-----END \\1-----");
  // rsaEncryption and id-ecPublicKey
  private static final byte[] RSA_OID = {0x06, 0x09, 0x2a, (byte) 0x86, 0x48, (byte) 0x86,
      (byte) 0xf7, 0x0d, 0x01, 0x01, 0x01};
  private static final byte[] EC_OID = {0x06, 0x07, 0x2a, (byte) 0x86, 0x48, (byte) 0xce, 0x3d,
      0x02, 0x01};

  private PemKeys() {}

  private record Block(String type, byte[] der) {}

  private static List<Block> blocks(String pem, String source) {
    List<Block> out = new ArrayList<>();
    Matcher m = BLOCK.matcher(pem);
    while (m.find()) {
      try {
        out.add(new Block(m.group(1), Base64.getMimeDecoder().decode(m.group(2))));
      } catch (IllegalArgumentException e) {
        throw new IllegalArgumentException(source + ": unreadable PEM block " + m.group(1), e);
      }
    }
    return out;
  }

  /**
   * The first private key in {@code pem}.
   *
   * @throws IllegalArgumentException naming {@code source} when there is none or it is unreadable
   */
  static PrivateKey privateKey(String pem, String source) {
    for (Block b : blocks(pem, source)) {
      PrivateKey k = privateKeyOf(b, source);
      if (k != null) {
        return k;
      }
    }
    throw new IllegalArgumentException(source + ": no private key found (expected a PEM block"
        + " PRIVATE KEY, RSA PRIVATE KEY or EC PRIVATE KEY)");
  }

  /**
   * Every public key in {@code pem}: public keys, certificates' keys and private keys' public
   * halves.
   *
   * @throws IllegalArgumentException naming {@code source} when there is none
   */
  static List<PublicKey> publicKeys(String pem, String source) {
    List<PublicKey> out = new ArrayList<>();
    for (Block b : blocks(pem, source)) {
      try {
        switch (b.type()) {
          case "PUBLIC KEY" -> out.add(publicKeyOf(b.der()));
          case "RSA PUBLIC KEY" -> out.add(KeyFactory.getInstance("RSA")
              .generatePublic(new X509EncodedKeySpec(spki(RSA_OID, null, b.der()))));
          case "CERTIFICATE" -> out.add(CertificateFactory.getInstance("X.509")
              .generateCertificate(new ByteArrayInputStream(b.der())).getPublicKey());
          default -> {
            PrivateKey k = privateKeyOf(b, source);
            if (k != null) {
              out.add(publicHalf(k));
            }
          }
        }
      } catch (GeneralSecurityException e) {
        throw new IllegalArgumentException(source + ": unreadable " + b.type() + ": "
            + e.getMessage(), e);
      }
    }
    if (out.isEmpty()) {
      throw new IllegalArgumentException(source + ": no public key found");
    }
    return out;
  }

  private static PrivateKey privateKeyOf(Block b, String source) {
    try {
      return switch (b.type()) {
        case "PRIVATE KEY" -> pkcs8(b.der());
        case "RSA PRIVATE KEY" -> KeyFactory.getInstance("RSA").generatePrivate(
            new PKCS8EncodedKeySpec(pkcs8Wrap(RSA_OID, null, b.der())));
        case "EC PRIVATE KEY" -> KeyFactory.getInstance("EC").generatePrivate(
            new PKCS8EncodedKeySpec(pkcs8Wrap(EC_OID, sec1Curve(b.der()), b.der())));
        default -> null;
      };
    } catch (GeneralSecurityException | RuntimeException e) {
      throw new IllegalArgumentException(source + ": unreadable " + b.type() + ": "
          + e.getMessage(), e);
    }
  }

  private static PrivateKey pkcs8(byte[] der) throws GeneralSecurityException {
    try {
      return KeyFactory.getInstance("RSA").generatePrivate(new PKCS8EncodedKeySpec(der));
    } catch (GeneralSecurityException e) {
      return KeyFactory.getInstance("EC").generatePrivate(new PKCS8EncodedKeySpec(der));
    }
  }

  private static PublicKey publicKeyOf(byte[] spki) throws GeneralSecurityException {
    try {
      return KeyFactory.getInstance("RSA").generatePublic(new X509EncodedKeySpec(spki));
    } catch (GeneralSecurityException e) {
      return KeyFactory.getInstance("EC").generatePublic(new X509EncodedKeySpec(spki));
    }
  }

  /**
   * The public key of an RSA private key (from its CRT parameters). EC private keys are refused:
   * the JDK cannot derive their public point, so give EC verification keys as public keys.
   */
  static PublicKey publicHalf(PrivateKey key) throws GeneralSecurityException {
    if (key instanceof RSAPrivateCrtKey rsa) {
      return KeyFactory.getInstance("RSA").generatePublic(
          new RSAPublicKeySpec(rsa.getModulus(), rsa.getPublicExponent()));
    }
    throw new GeneralSecurityException("only RSA private keys are supported (give an "
        + key.getAlgorithm() + " key as a PUBLIC KEY block)");
  }

  // ---- minimal DER, enough to wrap PKCS#1 and SEC1 keys in their PKCS#8/X.509 envelopes ----

  private static byte[] pkcs8Wrap(byte[] algorithmOid, byte[] parameters, byte[] key) {
    return sequence(concat(new byte[] {0x02, 0x01, 0x00},
        algorithm(algorithmOid, parameters), tlv(0x04, key)));
  }

  private static byte[] spki(byte[] algorithmOid, byte[] parameters, byte[] key) {
    return sequence(concat(algorithm(algorithmOid, parameters),
        tlv(0x03, concat(new byte[] {0x00}, key))));
  }

  private static byte[] algorithm(byte[] oid, byte[] parameters) {
    return sequence(concat(oid, parameters == null ? new byte[] {0x05, 0x00} : parameters));
  }

  /** The named-curve OID (as a DER TLV) in the {@code [0]} parameters of a SEC1 key. */
  private static byte[] sec1Curve(byte[] der) {
    int[] seq = header(der, 0);
    int i = seq[0];
    int end = seq[0] + seq[1];
    while (i < end) {
      int tag = der[i] & 0xff;
      int[] h = header(der, i);
      if (tag == 0xa0) {
        int[] oid = header(der, h[0]);
        int len = oid[0] + oid[1] - h[0];
        byte[] out = new byte[len];
        System.arraycopy(der, h[0], out, 0, len);
        return out;
      }
      i = h[0] + h[1];
    }
    throw new IllegalArgumentException("EC PRIVATE KEY without named curve parameters");
  }

  /** {content offset, content length} of the TLV at {@code at}. */
  private static int[] header(byte[] der, int at) {
    int len = der[at + 1] & 0xff;
    int off = at + 2;
    if (len >= 0x80) {
      int n = len & 0x7f;
      len = new BigInteger(1, java.util.Arrays.copyOfRange(der, off, off + n)).intValueExact();
      off += n;
    }
    if (off + len > der.length) {
      throw new IllegalArgumentException("truncated DER");
    }
    return new int[] {off, len};
  }

  private static byte[] sequence(byte[] content) {
    return tlv(0x30, content);
  }

  private static byte[] tlv(int tag, byte[] content) {
    ByteArrayOutputStream out = new ByteArrayOutputStream(content.length + 6);
    out.write(tag);
    int len = content.length;
    if (len < 0x80) {
      out.write(len);
    } else {
      byte[] l = BigInteger.valueOf(len).toByteArray();
      int skip = l[0] == 0 ? 1 : 0;
      out.write(0x80 | (l.length - skip));
      out.write(l, skip, l.length - skip);
    }
    out.write(content, 0, content.length);
    return out.toByteArray();
  }

  private static byte[] concat(byte[]... parts) {
    ByteArrayOutputStream out = new ByteArrayOutputStream();
    for (byte[] p : parts) {
      out.write(p, 0, p.length);
    }
    return out.toByteArray();
  }
}
