/*
 * Copyright The apiserver4j authors.
 * SPDX-License-Identifier: Apache-2.0
 */
package io.apiserver4j.registry.certificates.certificatesigningrequest;

import io.apiserver4j.admission.UserInfo;
import io.apiserver4j.apiserver.ResourceStrategy;
import io.apiserver4j.core.ListValue;
import io.apiserver4j.core.MapValue;
import io.apiserver4j.core.Nested;
import io.apiserver4j.core.Value;
import java.util.List;
import java.util.Map;

/**
 * kube's pkg/registry/certificates/certificates strategy for CertificateSigningRequests: the
 * condition default of pkg/apis/certificates/v1/defaults.go, the requesting user recorded on
 * create, the stored spec kept on updates of the main resource (kube's
 * {@code PrepareForUpdate}), and the {@code approval} and {@code status} subresources.
 */
public final class CertificateSigningRequestStrategy {
  private CertificateSigningRequestStrategy() {}

  /** The CertificateSigningRequest strategy; {@code spec.signerName} is a selectable field. */
  public static ResourceStrategy strategy() {
    return ResourceStrategy.builder()
        .selectableFields("spec.signerName")
        .defaulter(o -> Nested.updateListItems(o,
            c -> Nested.setDefault(c, Value.of("True"), "status"), "status", "conditions"))
        .prepareForCreateByUser(CertificateSigningRequestStrategy::requester)
        .prepareForUpdate((o, old) -> {
          Value spec = old.orElseThrow().getOrNull("spec");
          return spec == null ? o.without("spec") : o.with("spec", spec);
        })
        .validator(CertificateSigningRequestValidation::validate)
        .subresourceUpdate("approval", CsrApproval.rules())
        .subresourceUpdate("status", CsrApproval.statusRules())
        .build();
  }

  /**
   * kube's {@code PrepareForCreate}: what the client sent as the requester is dropped and the
   * requesting user recorded instead; without a user, the fields stay empty (and so absent, as
   * Go's {@code omitempty} writes them).
   */
  private static MapValue requester(MapValue o, UserInfo user) {
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
}
