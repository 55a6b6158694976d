/*
 * Copyright The apiserver4j authors.
 * SPDX-License-Identifier: Apache-2.0
 */
package io.apiserver4j.registry.certificates.certificatesigningrequest;

import static io.apiserver4j.registry.internal.Cells.AGE;
import static io.apiserver4j.registry.internal.Cells.NAME;
import static io.apiserver4j.registry.internal.Cells.age;
import static io.apiserver4j.registry.internal.Cells.col;
import static io.apiserver4j.registry.internal.Cells.doc;
import static io.apiserver4j.registry.internal.Cells.has;
import static io.apiserver4j.registry.internal.Cells.integer;
import static io.apiserver4j.registry.internal.Cells.list;
import static io.apiserver4j.registry.internal.Cells.name;
import static io.apiserver4j.registry.internal.Cells.orNone;
import static io.apiserver4j.registry.internal.Cells.row;
import static io.apiserver4j.registry.internal.Cells.str;

import io.apiserver4j.apiserver.TablePrinter;
import io.apiserver4j.core.GoDurations;
import io.apiserver4j.core.MapValue;
import io.apiserver4j.core.Value;
import java.time.Duration;
import java.time.Instant;
import java.util.ArrayList;
import java.util.List;

/** kube's CertificateSigningRequest columns (pkg/printers/internalversion). */
public final class CertificateSigningRequestPrinter {
  private CertificateSigningRequestPrinter() {}

  /**
   * Name, Age, SignerName, Requestor, RequestedDuration, Condition (Approved, Denied or
   * Pending, then Failed and Issued).
   */
  public static TablePrinter printer() {
    String csr = "io.k8s.api.certificates.v1.CertificateSigningRequest";
    return TablePrinter.of(List.of(NAME, AGE,
        col("SignerName", "string", doc(csr + "Spec", "signerName")),
        col("Requestor", "string", doc(csr + "Spec", "request")),
        col("RequestedDuration", "string", doc(csr + "Spec", "expirationSeconds")),
        col("Condition", "string", doc(csr + "Status", "conditions"))),
        CertificateSigningRequestPrinter::cells);
  }

  private static List<Value> cells(MapValue o, Instant now) {
    List<String> conditions = new ArrayList<>();
    boolean approved = false;
    boolean denied = false;
    boolean failed = false;
    for (Value c : list(o, "status", "conditions")) {
      switch (str(c, "type")) {
        case "Approved":
          approved = true;
          break;
        case "Denied":
          denied = true;
          break;
        case "Failed":
          failed = true;
          break;
        default:
          break;
      }
    }
    if (denied) {
      conditions.add("Denied");
    } else if (approved) {
      conditions.add("Approved");
    } else {
      conditions.add("Pending");
    }
    if (failed) {
      conditions.add("Failed");
    }
    if (has(o, "status", "certificate") && !str(o, "status", "certificate").isEmpty()) {
      conditions.add("Issued");
    }
    String duration = has(o, "spec", "expirationSeconds")
        ? GoDurations.human(Duration.ofSeconds(integer(o, "spec", "expirationSeconds"))) : "<none>";
    return row(name(o), age(o, now), orNone(str(o, "spec", "signerName")),
        str(o, "spec", "username"), duration, String.join(",", conditions));
  }
}
