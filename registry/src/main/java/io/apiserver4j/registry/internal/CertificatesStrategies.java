/*
 * Copyright The apiserver4j authors.
 * SPDX-License-Identifier: Apache-2.0
 */
package io.apiserver4j.registry.internal;

import static io.apiserver4j.apimachinery.validation.GroupRules.maps;
import static io.apiserver4j.apimachinery.validation.GroupRules.str;
import static io.apiserver4j.apimachinery.validation.GroupRules.strings;

import io.apiserver4j.admission.UserInfo;
import io.apiserver4j.apiserver.ResourceStrategy;
import io.apiserver4j.core.FieldError;
import io.apiserver4j.core.GroupVersionKind;
import io.apiserver4j.core.ListValue;
import io.apiserver4j.core.MapValue;
import io.apiserver4j.core.Nested;
import io.apiserver4j.core.Value;
import java.nio.charset.StandardCharsets;
import java.security.GeneralSecurityException;
import java.security.KeyFactory;
import java.security.PublicKey;
import java.security.Signature;
import java.security.spec.X509EncodedKeySpec;
import java.util.ArrayList;
import java.util.Base64;
import java.util.HashSet;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import java.util.Set;
import java.util.TreeSet;
import io.apiserver4j.apimachinery.validation.MetaValidation;
import io.apiserver4j.apimachinery.validation.GroupRules;

/**
 * certificates.k8s.io/v1 CertificateSigningRequest: the condition default of
 * pkg/apis/certificates/v1/defaults.go and the rules of
 * pkg/apis/certificates/validation/validation.go (the request is a PEM CSR whose signature
 * verifies, signer name, usages, expiration, status conditions). Updates of the main resource
 * keep the stored spec, as kube's {@code PrepareForUpdate}.
 */
final class CertificatesStrategies {
  private CertificatesStrategies() {}

  static final Set<String> USAGES = new TreeSet<>(List.of("signing", "digital signature",
      "content commitment", "key encipherment", "key agreement", "data encipherment",
      "cert sign", "crl sign", "encipher only", "decipher only", "any", "server auth",
      "client auth", "code signing", "email protection", "s/mime", "ipsec end system",
      "ipsec tunnel", "ipsec user", "timestamping", "ocsp signing", "microsoft sgc",
      "netscape sgc"));

  static Map<GroupVersionKind, ResourceStrategy> strategies() {
    Map<GroupVersionKind, ResourceStrategy> out = new LinkedHashMap<>();
    out.put(new GroupVersionKind("certificates.k8s.io", "v1", "CertificateSigningRequest"),
        ResourceStrategy.builder()
            .selectableFields("spec.signerName")
            .defaulter(o -> Nested.updateListItems(o,
                c -> Nested.setDefault(c, Value.of("True"), "status"), "status", "conditions"))
            .prepareForCreateByUser(CertificatesStrategies::requester)
            .prepareForUpdate((o, old) -> {
              Value spec = old.orElseThrow().getOrNull("spec");
              return spec == null ? o.without("spec") : o.with("spec", spec);
            })
            .validator(CertificatesStrategies::validate)
            .subresourceUpdate("approval", CsrApproval.rules())
            .subresourceUpdate("status", CsrApproval.statusRules())
            .build());
    return out;
  }

  /**
   * kube's {@code PrepareForCreate}: what the client sent as the requester is dropped and the
   * requesting user recorded instead; without a user, the fields stay empty (and so absent, as
   * Go's {@code omitempty} writes them).
   */
  static MapValue requester(MapValue o, UserInfo user) {
    MapValue spec = Nested.map(o, "spec").without("username").without("uid").without("groups")
        .without("extra");
    if (!user.name().isEmpty()) {
      spec = spec.with("username", Value.of(user.name()));
    }
    if (!user.uid().isEmpty()) {
      spec = spec.with("uid", Value.of(user.uid()));
    }
    if (!user.groups().isEmpty()) {
      spec = spec.with("groups", ListValue.of(user.groups().stream().map(Value::of).toList()));
    }
    if (!user.extra().isEmpty()) {
      MapValue extra = MapValue.empty();
      for (Map.Entry<String, List<String>> e : user.extra().entrySet()) {
        extra = extra.with(e.getKey(),
            ListValue.of(e.getValue().stream().map(Value::of).toList()));
      }
      spec = spec.with("extra", extra);
    }
    return o.with("spec", spec);
  }

  static List<FieldError> validate(MapValue o, Optional<MapValue> old) {
    List<FieldError> errs = new ArrayList<>();
    MapValue spec = Nested.map(o, "spec");
    String request = str(spec, "request");
    csrError(request).ifPresent(msg ->
        errs.add(FieldError.invalid("spec.request", Value.of(request), msg)));
    List<String> usages = strings(spec, "usages");
    if (usages.isEmpty()) {
      errs.add(FieldError.required("spec.usages", ""));
    }
    // stored objects that already broke a rule keep being accepted (kube's validation options)
    MapValue oldSpec = old.map(w -> Nested.map(w, "spec")).orElse(MapValue.empty());
    List<String> oldUsages = strings(oldSpec, "usages");
    boolean allowUnknown = oldUsages.stream().anyMatch(u -> !USAGES.contains(u));
    boolean allowDuplicate = new HashSet<>(oldUsages).size() != oldUsages.size();
    Set<String> seen = new HashSet<>();
    for (int i = 0; i < usages.size(); i++) {
      String u = usages.get(i);
      if (!allowUnknown && !USAGES.contains(u)) {
        errs.add(FieldError.notSupported("spec.usages[" + i + "]", Value.of(u),
            List.copyOf(USAGES)));
      }
      if (!seen.add(u) && !allowDuplicate) {
        errs.add(FieldError.duplicate("spec.usages[" + i + "]", Value.of(u)));
      }
    }
    String signer = str(spec, "signerName");
    boolean legacyAllowed = str(oldSpec, "signerName").equals("kubernetes.io/legacy-unknown");
    if (signer.equals("kubernetes.io/legacy-unknown") && !legacyAllowed) {
      errs.add(FieldError.invalid("spec.signerName", Value.of(signer),
          "the legacy signerName is not allowed via this API version"));
    } else {
      signerName(errs, "spec.signerName", signer);
    }
    Optional<Long> exp = GroupRules.integer(spec, "expirationSeconds");
    if (exp.isPresent() && exp.get() < 600) {
      errs.add(FieldError.invalid("spec.expirationSeconds", Value.of(exp.get()),
          "may not specify a duration less than 600 seconds (10 minutes)"));
    }
    conditions(errs, o, old);
    return errs;
  }

  /** kube's {@code ValidateSignerName}. */
  static void signerName(List<FieldError> errs, String path, String signer) {
    if (signer.isEmpty()) {
      errs.add(FieldError.required(path, ""));
      return;
    }
    String[] segments = signer.split("/", -1);
    if (segments.length != 2) {
      errs.add(FieldError.invalid(path, Value.of(signer),
          "must be a fully qualified domain and path of the form 'example.com/signer-name'"));
      return;
    }
    if (segments[0].length() > 253) {
      errs.add(FieldError.tooLong(path, 253));
    }
    String[] domain = segments[0].split("\\.", -1);
    for (String label : domain) {
      List<String> msgs = MetaValidation.dns1123Label(label);
      msgs.forEach(m -> errs.add(FieldError.invalid(path, Value.of(segments[0]),
          "validating label \"" + label + "\": " + m)));
      if (!msgs.isEmpty()) {
        break;
      }
    }
    if (domain.length < 2) {
      errs.add(FieldError.invalid(path, Value.of(segments[0]),
          "should be a domain with at least two segments separated by dots"));
    }
    for (String label : segments[1].split("\\.", -1)) {
      List<String> msgs = MetaValidation.dns1123Subdomain(label);
      msgs.forEach(m -> errs.add(FieldError.invalid(path, Value.of(segments[1]),
          "validating label \"" + label + "\": " + m)));
      if (!msgs.isEmpty()) {
        break;
      }
    }
    if (signer.length() > 253 + 63 + 1 + 253 + 1) {
      errs.add(FieldError.tooLong(path, 253 + 63 + 1 + 253 + 1));
    }
  }

  private static void conditions(List<FieldError> errs, MapValue o, Optional<MapValue> old) {
    List<MapValue> conds = maps(o, "status", "conditions");
    List<MapValue> oldConds = old.map(w -> maps(w, "status", "conditions")).orElse(List.of());
    // what the stored object already has stays allowed
    boolean allowEmptyType = oldConds.stream().anyMatch(c -> str(c, "type").isEmpty());
    Set<String> oldTypes = new HashSet<>();
    boolean allowDuplicates = false;
    for (MapValue c : oldConds) {
      allowDuplicates |= !oldTypes.add(str(c, "type"));
    }
    boolean allowBoth = oldTypes.contains("Approved") && oldTypes.contains("Denied");
    Set<String> seen = new HashSet<>();
    boolean approved = false;
    boolean denied = false;
    for (int i = 0; i < conds.size(); i++) {
      MapValue c = conds.get(i);
      String at = "status.conditions[" + i + "]";
      String type = str(c, "type");
      String status = str(c, "status");
      if (!allowEmptyType && type.isEmpty()) {
        errs.add(FieldError.required(at + ".type", ""));
      }
      if (!List.of("True", "False", "Unknown").contains(status)) {
        errs.add(FieldError.notSupported(at + ".status", Value.of(status),
            List.of("True", "False", "Unknown")));
      }
      if (!allowBoth && type.equals("Approved")) {
        approved = true;
        if (!status.equals("True")) {
          errs.add(FieldError.invalid(at + ".status", Value.of(status),
              "Approved condition may only be set to True"));
        }
      }
      if (!allowBoth && type.equals("Denied")) {
        denied = true;
        if (!status.equals("True")) {
          errs.add(FieldError.invalid(at + ".status", Value.of(status),
              "Denied condition may only be set to True"));
        }
      }
      if (!allowDuplicates && !seen.add(type)) {
        errs.add(FieldError.duplicate(at + ".type", Value.of(type)));
      }
    }
    if (!allowBoth && approved && denied) {
      errs.add(FieldError.invalid("status.conditions", Nested.getOrNull(o, "status",
          "conditions"), "Approved and Denied conditions are mutually exclusive"));
    }
    for (String t : List.of("Approved", "Denied", "Failed")) {
      long before = oldConds.stream().filter(c -> str(c, "type").equals(t)).count();
      long now = conds.stream().filter(c -> str(c, "type").equals(t)).count();
      if (now < before) {
        errs.add(FieldError.forbidden("status.conditions",
            "updates may not remove a condition of type \"" + t + "\""));
      }
    }
  }

  // --- the PKCS#10 request ---------------------------------------------------------------

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
