/*
 * Copyright The apiserver4j authors.
 * SPDX-License-Identifier: Apache-2.0
 */
package io.apiserver4j.http.internal;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import io.apiserver4j.http.TestCertificates;
import java.io.ByteArrayOutputStream;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.security.KeyStore;
import java.security.PrivateKey;
import java.util.Arrays;
import java.util.Base64;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

class PemTest {
  @TempDir
  static Path dir;
  static TestCertificates certs;
  static Path[] rsaClient;

  @BeforeAll
  static void pki() {
    certs = TestCertificates.create(dir);
    rsaClient = certs.client("alice", "CN=alice,O=devs,O=ops");
  }

  @Test
  void pkcs8EcKeyAndChainFormAKeyStore() throws Exception {
    KeyStore ks = Pem.keyStore(Files.readString(certs.serverCert),
        Files.readString(certs.serverKey), "pw".toCharArray());
    assertThat(ks.getKey("server", "pw".toCharArray()).getAlgorithm()).isEqualTo("EC");
    assertThat(ks.getCertificateChain("server")).hasSize(1);
  }

  @Test
  void pkcs1RsaKeyIsConverted() throws Exception {
    PrivateKey pkcs8 = Pem.privateKey(Files.readString(rsaClient[1]));
    // a PKCS#8 RSA key wraps the PKCS#1 key in its last OCTET STRING
    byte[] pkcs1 = lastOctetString(pkcs8.getEncoded());
    String pem = pem("RSA PRIVATE KEY", pkcs1);
    assertThat(Pem.privateKey(pem).getEncoded()).isEqualTo(pkcs8.getEncoded());
  }

  @Test
  void sec1EcKeyWithNamedCurveIsConverted() throws Exception {
    PrivateKey pkcs8 = Pem.privateKey(Files.readString(certs.serverKey));
    byte[] der = pkcs8.getEncoded();
    byte[] inner = lastOctetString(der);
    // SEC1 as openssl writes it carries the curve as [0] parameters; Java's PKCS#8 keeps the
    // curve in the algorithm identifier instead, so add it back
    byte[] curve = curveOid(der);
    byte[] sec1 = withParameters(inner, curve);
    PrivateKey back = Pem.privateKey(pem("EC PRIVATE KEY", sec1));
    assertThat(back.getAlgorithm()).isEqualTo("EC");
    assertThat(((java.security.interfaces.ECPrivateKey) back).getS())
        .isEqualTo(((java.security.interfaces.ECPrivateKey) pkcs8).getS());
  }

  @Test
  void trustStoreHoldsEveryCertificate() throws Exception {
    String bundle = Files.readString(certs.caCert) + Files.readString(certs.serverCert);
    KeyStore ts = Pem.trustStore(bundle);
    assertThat(ts.size()).isEqualTo(2);
  }

  @Test
  void missingBlocksAreClearErrors() {
    assertThatThrownBy(() -> Pem.certificates("nothing here"))
        .isInstanceOf(IllegalArgumentException.class).hasMessageContaining("no CERTIFICATE");
    assertThatThrownBy(() -> Pem.privateKey("nothing here"))
        .isInstanceOf(IllegalArgumentException.class).hasMessageContaining("no PRIVATE KEY");
    assertThatThrownBy(() -> Pem.privateKey(pem("ENCRYPTED PRIVATE KEY", new byte[] {1})))
        .isInstanceOf(IllegalArgumentException.class).hasMessageContaining("encrypted");
  }

  private static String pem(String label, byte[] der) {
    return "-----BEGIN " + label + "-----\n" + Base64.getMimeEncoder().encodeToString(der)
        + "\n-----END " + label + "-----\n";
  }

  /** Walks the top-level SEQUENCE and returns the content of its last OCTET STRING. */
  private static byte[] lastOctetString(byte[] der) {
    int[] pos = {0};
    header(der, pos);
    byte[] last = null;
    while (pos[0] < der.length) {
      int tag = der[pos[0]] & 0xff;
      int len = header(der, pos);
      if (tag == 0x04) {
        last = Arrays.copyOfRange(der, pos[0], pos[0] + len);
      }
      pos[0] += len;
    }
    return last;
  }

  /** The OID TLV of the curve in a PKCS#8 EC key's algorithm identifier. */
  private static byte[] curveOid(byte[] der) {
    int[] pos = {0};
    header(der, pos);
    skip(der, pos); // version
    header(der, pos); // algorithm identifier sequence
    skip(der, pos); // id-ecPublicKey
    int start = pos[0];
    int len = header(der, pos);
    return Arrays.copyOfRange(der, start, pos[0] + len);
  }

  private static byte[] withParameters(byte[] ecPrivateKey, byte[] curveOid) {
    int[] pos = {0};
    header(ecPrivateKey, pos);
    ByteArrayOutputStream body = new ByteArrayOutputStream();
    int start = pos[0];
    skip(ecPrivateKey, pos); // version
    skip(ecPrivateKey, pos); // private key octets
    body.write(ecPrivateKey, start, pos[0] - start);
    body.write(0xa0);
    body.write(curveOid.length);
    body.writeBytes(curveOid);
    body.write(ecPrivateKey, pos[0], ecPrivateKey.length - pos[0]);
    byte[] content = body.toByteArray();
    ByteArrayOutputStream out = new ByteArrayOutputStream();
    out.write(0x30);
    if (content.length < 0x80) {
      out.write(content.length);
    } else {
      out.write(0x81);
      out.write(content.length);
    }
    out.writeBytes(content);
    return out.toByteArray();
  }

  /** Moves past one whole element (not `pos[0] += header(..)`: Java reads pos[0] first). */
  private static void skip(byte[] der, int[] pos) {
    int len = header(der, pos);
    pos[0] = pos[0] + len;
  }

  private static int header(byte[] der, int[] pos) {
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

  static String utf8(byte[] b) {
    return new String(b, StandardCharsets.UTF_8);
  }
}
