/*
 * Copyright The apiserver4j authors.
 * SPDX-License-Identifier: Apache-2.0
 */
package io.apiserver4j.registry.certificates.certificatesigningrequest;

import static io.apiserver4j.apimachinery.validation.GroupRules.maps;
import static io.apiserver4j.apimachinery.validation.GroupRules.str;
import static io.apiserver4j.apimachinery.validation.GroupRules.strings;

import io.apiserver4j.apimachinery.validation.GroupRules;
import io.apiserver4j.apimachinery.validation.MetaValidation;
import io.apiserver4j.core.errors.FieldError;
import io.apiserver4j.core.MapValue;
import io.apiserver4j.core.Nested;
import io.apiserver4j.core.Value;
import java.util.ArrayList;
import java.util.HashSet;
import java.util.List;
import java.util.Optional;
import java.util.Set;
import java.util.TreeSet;

/**
 * kube's pkg/apis/certificates/validation/validation.go for CertificateSigningRequests: the
 * request is a PEM CSR whose signature verifies, signer name, usages, expiration, status
 * conditions; what the stored object already breaks stays allowed on update.
 */
final class CertificateSigningRequestValidation {
  private CertificateSigningRequestValidation() {}

  private static final Set<String> USAGES = new TreeSet<>(List.of("signing", "digital signature",
      "content commitment", "key encipherment", "key agreement", "data encipherment",
      "cert sign", "crl sign", "encipher only", "decipher only", "any", "server auth",
      "client auth", "code signing", "email protection", "s/mime", "ipsec end system",
      "ipsec tunnel", "ipsec user", "timestamping", "ocsp signing", "microsoft sgc",
      "netscape sgc"));

  static List<FieldError> validate(MapValue o, Optional<MapValue> old) {
    List<FieldError> errs = new ArrayList<>();
    MapValue spec = Nested.map(o, "spec");
    String request = str(spec, "request");
    CertificateRequests.csrError(request).ifPresent(msg ->
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
  private static void signerName(List<FieldError> errs, String path, String signer) {
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
}
