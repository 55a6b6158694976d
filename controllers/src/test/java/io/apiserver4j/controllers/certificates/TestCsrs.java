/*
 * Copyright The apiserver4j authors.
 * SPDX-License-Identifier: Apache-2.0
 */
package io.apiserver4j.controllers.certificates;

import java.math.BigInteger;
import java.nio.charset.StandardCharsets;
import java.security.GeneralSecurityException;
import java.security.KeyPair;
import java.security.KeyPairGenerator;
import java.security.Signature;
import java.security.spec.ECGenParameterSpec;
import java.util.ArrayList;
import java.util.Base64;
import java.util.List;

/**
 * PKCS#10 certificate requests for tests, as {@code openssl req} or client-go's
 * {@code MakeCSR} would make them: an ECDSA P-256 key, a subject of organizations then a common
 * name, DNS names in an extension request, signed with SHA256withECDSA.
 */
public final class TestCsrs {
  private TestCsrs() {}

  /** A new ECDSA P-256 key pair. */
  public static KeyPair key() {
    try {
      KeyPairGenerator g = KeyPairGenerator.getInstance("EC");
      g.initialize(new ECGenParameterSpec("secp256r1"));
      return g.generateKeyPair();
    } catch (GeneralSecurityException e) {
      throw new IllegalStateException(e);
    }
  }

  /** The request's {@code spec.request} value: base64 of the PEM. */
  public static String request(KeyPair key, String commonName, List<String> organizations,
      List<String> dnsNames) {
    List<byte[]> rdns = new ArrayList<>();
    for (String o : organizations) {
      rdns.add(Der.constructed(Der.SET, Der.sequence(Der.oid("2.5.4.10"), Der.utf8(o))));
    }
    if (!commonName.isEmpty()) {
      rdns.add(Der.constructed(Der.SET, Der.sequence(Der.oid("2.5.4.3"), Der.utf8(commonName))));
    }
    byte[] attributes;
    if (dnsNames.isEmpty()) {
      attributes = Der.element(0xa0, new byte[0]);
    } else {
      List<byte[]> names = new ArrayList<>();
      for (String d : dnsNames) {
        names.add(Der.element(0x82, d.getBytes(StandardCharsets.US_ASCII)));
      }
      byte[] san = Der.sequence(Der.oid("2.5.29.17"), Der.octetString(Der.sequence(names)));
      attributes = Der.explicit(0, Der.sequence(Der.oid("1.2.840.113549.1.9.14"),
          Der.constructed(Der.SET, Der.sequence(san))));
    }
    byte[] info = Der.sequence(Der.integer(BigInteger.ZERO), Der.sequence(rdns),
        key.getPublic().getEncoded(), attributes);
    try {
      Signature s = Signature.getInstance("SHA256withECDSA");
      s.initSign(key.getPrivate());
      s.update(info);
      byte[] der = Der.sequence(info, Der.sequence(Der.oid("1.2.840.10045.4.3.2")),
          Der.bitString(s.sign()));
      String pem = "-----BEGIN CERTIFICATE REQUEST-----\n"
          + Base64.getMimeEncoder(64, new byte[] {'\n'}).encodeToString(der)
          + "\n-----END CERTIFICATE REQUEST-----\n";
      return Base64.getEncoder().encodeToString(pem.getBytes(StandardCharsets.US_ASCII));
    } catch (GeneralSecurityException e) {
      throw new IllegalStateException(e);
    }
  }
}
