/*
 * Copyright The apiserver4j authors.
 * SPDX-License-Identifier: Apache-2.0
 */
package io.apiserver4j.controllers.certificates.signer;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import io.apiserver4j.controllers.internal.SigningFiles.CaFiles;
import io.apiserver4j.controllers.certificates.CertificateRequest;
import io.apiserver4j.controllers.certificates.Der;
import io.apiserver4j.controllers.certificates.TestCsrs;
import java.io.ByteArrayInputStream;
import java.math.BigInteger;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.security.KeyPair;
import java.security.KeyPairGenerator;
import java.security.cert.CertificateFactory;
import java.security.cert.X509Certificate;
import java.security.interfaces.ECPrivateKey;
import java.security.spec.ECGenParameterSpec;
import java.time.Duration;
import java.time.Instant;
import java.util.Arrays;
import java.util.Base64;
import java.util.List;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.CsvSource;

/**
 * The CA files of kube-controller-manager's {@code --cluster-signing-*} flags, read as kube's
 * {@code caProvider} reads them: a CA made in the test with the JDK (RSA and ECDSA keys), its
 * key written as PKCS#8, PKCS#1 or SEC 1 PEM to temporary files; certificates signed with it
 * chain to it with the signature algorithm Go's {@code x509.CreateCertificate} picks; bad files
 * fail with kube's messages.
 */
class CaFileLoaderTest {
  private static final Instant NOW = Instant.parse("2026-03-01T12:00:00Z");

  @TempDir
  Path dir;

  private static KeyPair keyPair(String algorithm) throws Exception {
    KeyPairGenerator g;
    switch (algorithm) {
      case "RSA" -> {
        g = KeyPairGenerator.getInstance("RSA");
        g.initialize(2048);
      }
      case "P-256", "P-384" -> {
        g = KeyPairGenerator.getInstance("EC");
        g.initialize(new ECGenParameterSpec(algorithm.equals("P-256") ? "secp256r1"
            : "secp384r1"));
      }
      default -> throw new IllegalArgumentException(algorithm);
    }
    return g.generateKeyPair();
  }

  private static String pem(String type, byte[] der) {
    return "-----BEGIN " + type + "-----\n"
        + Base64.getMimeEncoder(64, new byte[] {'\n'}).encodeToString(der)
        + "\n-----END " + type + "-----\n";
  }

  /** The key inside a PKCS#8 PrivateKeyInfo: PKCS#1 for RSA. */
  private static byte[] innerKey(byte[] pkcs8) {
    Der.Element octets = Der.read(pkcs8, 0, Der.SEQUENCE).children(pkcs8).get(2);
    return Arrays.copyOfRange(pkcs8, octets.contentStart(), octets.end());
  }

  /** RFC 5915 ECPrivateKey with its named curve, as openssl ecparam -genkey writes it. */
  private static byte[] sec1(ECPrivateKey key, String curveOid) {
    int size = (key.getParams().getCurve().getField().getFieldSize() + 7) / 8;
    byte[] s = key.getS().toByteArray();
    byte[] fixed = new byte[size];
    int copy = Math.min(s.length, size);
    System.arraycopy(s, s.length - copy, fixed, size - copy, copy);
    return Der.sequence(Der.integer(BigInteger.ONE), Der.octetString(fixed),
        Der.explicit(0, Der.oid(curveOid)));
  }

  private static String keyPem(KeyPair pair, String format) {
    byte[] pkcs8 = pair.getPrivate().getEncoded();
    return switch (format) {
      case "PKCS8" -> pem("PRIVATE KEY", pkcs8);
      case "PKCS1" -> pem("RSA PRIVATE KEY", innerKey(pkcs8));
      case "SEC1" -> pem("EC PRIVATE KEY", sec1((ECPrivateKey) pair.getPrivate(),
          ((ECPrivateKey) pair.getPrivate()).getParams().getCurve().getField().getFieldSize()
              == 256 ? "1.2.840.10045.3.1.7" : "1.3.132.0.34"));
      default -> throw new IllegalArgumentException(format);
    };
  }

  private CaFiles write(String certPem, String keyPem) throws Exception {
    Path cert = dir.resolve("ca.crt");
    Path key = dir.resolve("ca.key");
    Files.writeString(cert, certPem);
    Files.writeString(key, keyPem);
    return new CaFiles(cert, key);
  }

  private static X509Certificate parse(String pem) throws Exception {
    return (X509Certificate) CertificateFactory.getInstance("X.509").generateCertificate(
        new ByteArrayInputStream(pem.getBytes(StandardCharsets.US_ASCII)));
  }

  @ParameterizedTest(name = "{0} key as {1}")
  @CsvSource({
      "RSA, PKCS8, SHA256withRSA",
      "RSA, PKCS1, SHA256withRSA",
      "P-256, PKCS8, SHA256withECDSA",
      "P-256, SEC1, SHA256withECDSA",
      "P-384, SEC1, SHA384withECDSA",
  })
  void signsWithTheCaOfTheFiles(String algorithm, String format, String signatureAlgorithm)
      throws Exception {
    KeyPair pair = keyPair(algorithm);
    String caPem = CertificateAuthority.selfSigned(pair, NOW.minus(Duration.ofDays(1)))
        .certificatePem();
    CertificateAuthority ca = CaFileLoader.load(write(caPem, keyPem(pair, format)));
    assertThat(ca.certificatePem()).isEqualTo(caPem);

    CertificateRequest request = CertificateRequest.parse(TestCsrs.request(TestCsrs.key(),
        "alice", List.of("devs"), List.of()));
    X509Certificate cert = parse(ca.sign(request, List.of("digital signature", "client auth"),
        Duration.ofHours(1), NOW));
    X509Certificate caCert = parse(caPem);
    cert.verify(caCert.getPublicKey());
    assertThat(cert.getSigAlgName()).isEqualTo(signatureAlgorithm);
    assertThat(cert.getIssuerX500Principal()).isEqualTo(caCert.getSubjectX500Principal());
    // the authority key identifier is the CA's subject key identifier
    assertThat(innerOctets(cert.getExtensionValue("2.5.29.35")))
        .endsWith(innerOctets(caCert.getExtensionValue("2.5.29.14")));
    assertThat(cert.getNotAfter().toInstant()).isEqualTo(NOW.plus(Duration.ofHours(1)));
  }

  private static byte[] innerOctets(byte[] extensionValue) {
    Der.Element outer = Der.read(extensionValue, 0);
    Der.Element inner = Der.read(extensionValue, outer.contentStart());
    return Arrays.copyOfRange(extensionValue, inner.contentStart(), inner.end());
  }

  @Test
  void badFilesFailWithKubesMessages() throws Exception {
    KeyPair pair = keyPair("P-256");
    String caPem = CertificateAuthority.selfSigned(pair, NOW).certificatePem();
    String keyPem = keyPem(pair, "PKCS8");
    Path missing = dir.resolve("missing.crt");
    assertThatThrownBy(() -> CaFileLoader.load(new CaFiles(missing, dir.resolve("k"))))
        .isInstanceOf(IllegalArgumentException.class)
        .hasMessage("error reading CA cert file \"" + missing + "\": open " + missing
            + ": no such file or directory");
    CaFiles empty = write("", keyPem);
    assertThatThrownBy(() -> CaFileLoader.load(empty)).hasMessage("error reading CA cert file \""
        + empty.certFile() + "\": missing content for serving cert \"csr-controller\"");
    CaFiles noPem = write("not a certificate", keyPem);
    assertThatThrownBy(() -> CaFileLoader.load(noPem)).hasMessage("error reading CA cert file \""
        + noPem.certFile() + "\": tls: failed to find any PEM data in certificate input");
    CaFiles noKey = write(caPem, caPem);
    assertThatThrownBy(() -> CaFileLoader.load(noKey)).hasMessage("error reading CA cert file \""
        + noKey.certFile() + "\": tls: failed to find \"PRIVATE KEY\" PEM block in key input"
        + " after skipping PEM blocks of the following types: [CERTIFICATE]");
    CaFiles otherKey = write(caPem, keyPem(keyPair("P-256"), "PKCS8"));
    assertThatThrownBy(() -> CaFileLoader.load(otherKey)).hasMessage("error reading CA cert file"
        + " \"" + otherKey.certFile() + "\": tls: private key does not match public key");
    CaFiles badKey = write(caPem, pem("PRIVATE KEY", new byte[] {0x30, 0x03, 0x02, 0x01, 0x00}));
    assertThatThrownBy(() -> CaFileLoader.load(badKey)).hasMessage("error reading CA cert file"
        + " \"" + badKey.certFile() + "\": tls: failed to parse private key");
    CaFiles two = write(caPem + caPem, keyPem);
    assertThatThrownBy(() -> CaFileLoader.load(two)).hasMessage(
        "error reading CA cert file \"csr-controller\": expected 1 certificate, found 2");
  }
}
