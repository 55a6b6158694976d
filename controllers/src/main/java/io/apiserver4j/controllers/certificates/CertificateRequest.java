/*
 * Copyright The apiserver4j authors.
 * SPDX-License-Identifier: Apache-2.0
 */
package io.apiserver4j.controllers.certificates;

import java.nio.charset.StandardCharsets;
import java.security.GeneralSecurityException;
import java.security.KeyFactory;
import java.security.PublicKey;
import java.security.Signature;
import java.security.spec.X509EncodedKeySpec;
import java.util.ArrayList;
import java.util.Base64;
import java.util.List;
import java.util.Map;
import java.util.Optional;

/**
 * A PKCS#10 certificate request as kube's {@code ParseCSR} (pkg/apis/certificates) reads it
 * from a CertificateSigningRequest's {@code spec.request}: its subject (raw, common name and
 * organizations), its public key (raw SubjectPublicKeyInfo) and the subject alternative names
 * of its extension request (raw, and counted per kind as Go's {@code x509.CertificateRequest}
 * splits them). Immutable.
 *
 * @param subject the subject Name, DER
 * @param commonName the subject's CN, "" when none
 * @param organizations the subject's O values, in order
 * @param publicKeyInfo the SubjectPublicKeyInfo, DER
 * @param subjectAltNames the SubjectAltName extension's value (GeneralNames, DER), if requested
 * @param dnsNames the DNS names requested
 * @param emailAddresses the e-mail addresses requested
 * @param ipAddresses how many IP addresses are requested
 * @param uris the URIs requested
 */
public record CertificateRequest(byte[] subject, String commonName, List<String> organizations,
    byte[] publicKeyInfo, Optional<byte[]> subjectAltNames, List<String> dnsNames,
    List<String> emailAddresses, int ipAddresses, List<String> uris) {

  private static final String EXTENSION_REQUEST = "1.2.840.113549.1.9.14";
  private static final String SUBJECT_ALT_NAME = "2.5.29.17";
  private static final Map<String, String> SIGNATURES = Map.of(
      "1.2.840.113549.1.1.5", "SHA1withRSA",
      "1.2.840.113549.1.1.11", "SHA256withRSA",
      "1.2.840.113549.1.1.12", "SHA384withRSA",
      "1.2.840.113549.1.1.13", "SHA512withRSA",
      "1.2.840.10045.4.3.2", "SHA256withECDSA",
      "1.2.840.10045.4.3.3", "SHA384withECDSA",
      "1.2.840.10045.4.3.4", "SHA512withECDSA",
      "1.3.101.112", "Ed25519");

  /**
   * kube's {@code ParseCSR} and Go's {@code CheckSignature} on {@code spec.request} as the API
   * carries it (base64 of a PEM block).
   *
   * @throws IllegalArgumentException with kube's or Go's message when it is no PEM
   *     {@code CERTIFICATE REQUEST}, does not parse or its signature does not verify
   */
  public static CertificateRequest parse(String base64) {
    byte[] pem;
    try {
      pem = Base64.getDecoder().decode(base64);
    } catch (IllegalArgumentException e) {
      throw new IllegalArgumentException("PEM block type must be CERTIFICATE REQUEST");
    }
    byte[] der = pemBlock(new String(pem, StandardCharsets.ISO_8859_1), "CERTIFICATE REQUEST")
        .orElseThrow(() -> new IllegalArgumentException(
            "PEM block type must be CERTIFICATE REQUEST"));
    try {
      return parseDer(der);
    } catch (ArrayIndexOutOfBoundsException e) {
      throw new IllegalArgumentException("asn1: syntax error: data truncated");
    }
  }

  private static CertificateRequest parseDer(byte[] b) {
    Der.Element outer = Der.read(b, 0, Der.SEQUENCE);
    List<Der.Element> top = outer.children(b);
    if (top.size() != 3) {
      throw new IllegalArgumentException("asn1: structure error: sequence truncated");
    }
    Der.Element info = top.get(0);
    List<Der.Element> fields = info.children(b);
    if (fields.size() < 3) {
      throw new IllegalArgumentException("asn1: structure error: sequence truncated");
    }
    Der.Element subject = fields.get(1);
    Der.Element spki = fields.get(2);
    checkSignature(b, info, top.get(1), top.get(2), spki);
    String cn = "";
    List<String> orgs = new ArrayList<>();
    for (Der.Element rdn : subject.children(b)) {
      for (Der.Element atv : rdn.children(b)) {
        List<Der.Element> kv = atv.children(b);
        String type = Der.oid(b, kv.get(0));
        String value = new String(kv.get(1).content(b), StandardCharsets.UTF_8);
        if (type.equals("2.5.4.3")) {
          cn = value;
        } else if (type.equals("2.5.4.10")) {
          orgs.add(value);
        }
      }
    }
    Optional<byte[]> san = Optional.empty();
    List<String> dns = new ArrayList<>();
    List<String> emails = new ArrayList<>();
    List<String> uris = new ArrayList<>();
    int ips = 0;
    if (fields.size() > 3 && fields.get(3).tag() == 0xa0) {
      for (Der.Element attribute : fields.get(3).children(b)) {
        List<Der.Element> av = attribute.children(b);
        if (!Der.oid(b, av.get(0)).equals(EXTENSION_REQUEST)) {
          continue;
        }
        for (Der.Element extensions : av.get(1).children(b)) {
          for (Der.Element ext : extensions.children(b)) {
            List<Der.Element> parts = ext.children(b);
            if (!Der.oid(b, parts.get(0)).equals(SUBJECT_ALT_NAME)) {
              continue;
            }
            Der.Element value = parts.get(parts.size() - 1);
            byte[] names = value.content(b);
            san = Optional.of(names);
            for (Der.Element name : Der.read(names, 0, Der.SEQUENCE).children(names)) {
              String s = new String(name.content(names), StandardCharsets.UTF_8);
              switch (name.tag()) {
                case 0x81 -> emails.add(s);
                case 0x82 -> dns.add(s);
                case 0x86 -> uris.add(s);
                case 0x87 -> ips++;
                default -> { }
              }
            }
          }
        }
      }
    }
    return new CertificateRequest(subject.encoded(b), cn, List.copyOf(orgs), spki.encoded(b),
        san, List.copyOf(dns), List.copyOf(emails), ips, List.copyOf(uris));
  }

  private static void checkSignature(byte[] b, Der.Element info, Der.Element algorithm,
      Der.Element signature, Der.Element spki) {
    String alg = Der.oid(b, Der.read(b, algorithm.contentStart(), Der.OID));
    String javaAlg = SIGNATURES.get(alg);
    if (javaAlg == null) {
      throw new IllegalArgumentException("x509: cannot verify signature: algorithm unimplemented");
    }
    try {
      String keyAlg = javaAlg.endsWith("RSA") ? "RSA" : javaAlg.endsWith("ECDSA") ? "EC"
          : "Ed25519";
      PublicKey key = KeyFactory.getInstance(keyAlg)
          .generatePublic(new X509EncodedKeySpec(spki.encoded(b)));
      Signature s = Signature.getInstance(javaAlg);
      s.initVerify(key);
      s.update(b, info.start(), info.end() - info.start());
      // a BIT STRING's first content byte counts the unused bits
      byte[] sig = java.util.Arrays.copyOfRange(b, signature.contentStart() + 1,
          signature.end());
      if (!s.verify(sig)) {
        throw new IllegalArgumentException("x509: signature verification failure");
      }
    } catch (GeneralSecurityException e) {
      throw new IllegalArgumentException("x509: signature verification failure");
    }
  }

  /** Go's {@code pem.Decode} of the first block, which must be of {@code type}. */
  public static Optional<byte[]> pemBlock(String text, String type) {
    String begin = "-----BEGIN " + type + "-----";
    String end = "-----END " + type + "-----";
    int b = text.indexOf("-----BEGIN ");
    if (b < 0 || !text.startsWith(begin, b)) {
      return Optional.empty();
    }
    int e = text.indexOf(end, b);
    if (e < 0) {
      return Optional.empty();
    }
    try {
      return Optional.of(Base64.getMimeDecoder().decode(text.substring(b + begin.length(), e)));
    } catch (IllegalArgumentException ex) {
      return Optional.empty();
    }
  }
}
