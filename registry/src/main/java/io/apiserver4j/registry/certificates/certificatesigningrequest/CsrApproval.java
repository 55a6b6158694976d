/*
 * Copyright The apiserver4j authors.
 * SPDX-License-Identifier: Apache-2.0
 */
package io.apiserver4j.registry.certificates.certificatesigningrequest;

import io.apiserver4j.apiserver.ResourceStrategy;
import io.apiserver4j.core.errors.FieldError;
import io.apiserver4j.apiserver.SubresourceUpdate;
import io.apiserver4j.core.errors.FieldError;
import io.apiserver4j.core.ListValue;
import io.apiserver4j.core.MapValue;
import io.apiserver4j.core.Nested;
import io.apiserver4j.core.Value;
import io.apiserver4j.fieldpath.FieldName;
import io.apiserver4j.fieldpath.FieldPath;
import io.apiserver4j.fieldpath.FieldSet;
import java.time.temporal.ChronoUnit;
import java.util.ArrayList;
import java.util.HashSet;
import java.util.List;
import java.util.Optional;
import java.util.Set;

/**
 * {@code certificatesigningrequests/approval} as kube's {@code csrApprovalStrategy}: only
 * {@code status.conditions} change (their times filled in as kube's
 * {@code populateConditionTimestamps}), validated as kube's
 * {@code ValidateCertificateSigningRequestApprovalUpdate}: condition types Approved, Denied or
 * Failed, each at most once, status True, Approved and Denied mutually exclusive, and no
 * Approved, Denied or Failed condition removed.
 */
final class CsrApproval {
  private static final List<String> TYPES = List.of("Approved", "Denied", "Failed");

  private CsrApproval() {}

  static SubresourceUpdate rules() {
    return new SubresourceUpdate((csr, o, now) -> {
      ListValue conditions = timestamps(Nested.list(csr, "status", "conditions"),
          Nested.list(o, "status", "conditions"),
          now.truncatedTo(ChronoUnit.SECONDS).toString());
      MapValue status = Nested.map(o, "status");
      status = conditions.isEmpty() ? status.without("conditions")
          : status.with("conditions", conditions);
      MapValue r = csr;
      Value spec = o.getOrNull("spec");
      r = spec == null ? r.without("spec") : r.with("spec", spec);
      return status.isEmpty() && o.getOrNull("status") == null ? r.without("status")
          : r.with("status", status);
    }, CsrApproval::validate, FieldSet.of(FieldPath.of(new FieldName("spec")),
        FieldPath.of(new FieldName("status"), new FieldName("certificate"))));
  }

  /**
   * {@code certificatesigningrequests/status} as kube's {@code csrStatusStrategy}: the spec is
   * kept, the Approved and Denied conditions are kept as stored when their count is unchanged
   * ({@code preserveConditionInstances}), condition times are filled in; validation as kube's
   * {@code ValidateCertificateSigningRequestStatusUpdate}: the approval rules, and no Approved
   * or Denied condition added (that is the approval subresource's job).
   */
  static SubresourceUpdate statusRules() {
    return new SubresourceUpdate((csr, o, now) -> {
      MapValue r = o.with("metadata", io.apiserver4j.core.Meta.metadata(csr));
      Value status = csr.getOrNull("status");
      r = status == null ? r.without("status") : r.with("status", status);
      List<Value> conditions = new ArrayList<>(Nested.list(r, "status", "conditions"));
      List<Value> old = Nested.list(o, "status", "conditions");
      if (conditions.isEmpty()) {
        return r;
      }
      for (String type : List.of("Approved", "Denied")) {
        List<Integer> was = indices(old, type);
        List<Integer> is = indices(conditions, type);
        if (was.size() == is.size()) {
          for (int i = 0; i < was.size(); i++) {
            conditions.set(is.get(i), old.get(was.get(i)));
          }
        }
      }
      return Nested.set(r, timestamps(conditions, old,
          now.truncatedTo(ChronoUnit.SECONDS).toString()), "status", "conditions");
    }, (csr, old) -> {
      List<FieldError> errs = new ArrayList<>(validate(csr, old));
      List<Value> now = Nested.list(csr, "status", "conditions");
      List<Value> before = Nested.list(old.orElseThrow(), "status", "conditions");
      for (String type : List.of("Approved", "Denied")) {
        if (count(now, type) > count(before, type)) {
          errs.add(FieldError.forbidden("status.conditions",
              "updates may not add a condition of type \"" + type + "\""));
        }
      }
      return errs;
    }, FieldSet.of(FieldPath.of(new FieldName("spec"))));
  }

  private static List<Integer> indices(List<Value> conditions, String type) {
    List<Integer> out = new ArrayList<>();
    for (int i = 0; i < conditions.size(); i++) {
      if (Nested.str(conditions.get(i), "type").equals(type)) {
        out.add(i);
      }
    }
    return out;
  }

  /** kube's {@code populateConditionTimestamps}. */
  private static ListValue timestamps(List<Value> conditions, List<Value> old, String now) {
    ListValue.Builder out = ListValue.builder(conditions.size());
    for (Value v : conditions) {
      if (!(v instanceof MapValue c)) {
        out.add(v);
        continue;
      }
      if (Nested.str(c, "lastUpdateTime").isEmpty()) {
        c = c.with("lastUpdateTime", Value.of(now));
      }
      if (Nested.str(c, "lastTransitionTime").isEmpty()) {
        String transition = now;
        for (Value prior : old) {
          if (Nested.str(prior, "type").equals(Nested.str(c, "type"))
              && Nested.str(prior, "status").equals(Nested.str(c, "status"))
              && !Nested.str(prior, "lastTransitionTime").isEmpty()) {
            transition = Nested.str(prior, "lastTransitionTime");
            break;
          }
        }
        c = c.with("lastTransitionTime", Value.of(transition));
      }
      out.add(c);
    }
    return out.build();
  }

  private static List<FieldError> validate(MapValue csr, Optional<MapValue> oldCsr) {
    List<FieldError> errs = new ArrayList<>();
    List<Value> conditions = Nested.list(csr, "status", "conditions");
    Set<String> seen = new HashSet<>();
    boolean approved = false;
    boolean denied = false;
    for (int i = 0; i < conditions.size(); i++) {
      String at = "status.conditions[" + i + "]";
      String type = Nested.str(conditions.get(i), "type");
      if (!TYPES.contains(type)) {
        errs.add(FieldError.notSupported(at + ".type", Value.of(type), TYPES));
      }
      if (!seen.add(type)) {
        errs.add(FieldError.duplicate(at + ".type", Value.of(type)));
      }
      if (type.equals("Approved")) {
        approved = true;
        if (denied) {
          errs.add(FieldError.invalid(at + ".type", Value.of(type),
              "Approved and Denied conditions are mutually exclusive"));
        }
      } else if (type.equals("Denied")) {
        denied = true;
        if (approved) {
          errs.add(FieldError.invalid(at + ".type", Value.of(type),
              "Approved and Denied conditions are mutually exclusive"));
        }
      }
      String status = Nested.str(conditions.get(i), "status");
      if (!status.equals("True")) {
        errs.add(FieldError.notSupported(at + ".status", Value.of(status), List.of("True")));
      }
    }
    List<Value> old = Nested.list(oldCsr.orElseThrow(), "status", "conditions");
    for (String type : TYPES) {
      if (count(conditions, type) < count(old, type)) {
        errs.add(FieldError.forbidden("status.conditions",
            "updates may not remove a condition of type \"" + type + "\""));
      }
    }
    return errs;
  }

  private static long count(List<Value> conditions, String type) {
    return conditions.stream().filter(c -> Nested.str(c, "type").equals(type)).count();
  }
}
