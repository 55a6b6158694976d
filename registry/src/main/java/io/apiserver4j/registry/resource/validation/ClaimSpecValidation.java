/*
 * Copyright The apiserver4j authors.
 * SPDX-License-Identifier: Apache-2.0
 */
package io.apiserver4j.registry.resource.validation;

import static io.apiserver4j.apimachinery.validation.GroupRules.immutable;
import static io.apiserver4j.apimachinery.validation.GroupRules.str;

import io.apiserver4j.apimachinery.validation.GroupRules;
import io.apiserver4j.apimachinery.validation.MetaValidation;
import io.apiserver4j.core.errors.FieldError;
import io.apiserver4j.core.MapValue;
import io.apiserver4j.core.Nested;
import io.apiserver4j.core.Value;
import java.util.ArrayList;
import java.util.List;
import java.util.Optional;

/**
 * kube's rules of the claim specs of ResourceClaims and ResourceClaimTemplates
 * (pkg/apis/resource/validation/validation.go), with kube's paths and messages. Allocation
 * results are not validated yet. Stateless and thread-safe.
 */
public final class ClaimSpecValidation {
  private ClaimSpecValidation() {}

  /**
   * kube's claim spec rules: each request is exactly one of {@code exactly} or
   * {@code firstAvailable}, names a device class, a supported allocation mode and count, and
   * selectors with a CEL expression; the spec never changes after create.
   */
  public static List<FieldError> validateClaim(MapValue o, Optional<MapValue> old, String path) {
    List<FieldError> errs = new ArrayList<>();
    if (old.isPresent()) {
      // kube only checks immutability on update (of a template's whole spec, metadata too)
      immutable(errs, "spec", Nested.map(o, "spec"), Nested.map(old.get(), "spec"));
      return errs;
    }
    MapValue spec = Nested.map(o, path.split("\\."));
    List<MapValue> requests = GroupRules.maps(spec, "devices", "requests");
    for (int i = 0; i < requests.size(); i++) {
      MapValue r = requests.get(i);
      String rp = path + ".devices.requests[" + i + "]";
      requestName(errs, rp + ".name", str(r, "name"));
      boolean first = !GroupRules.list(r, "firstAvailable").isEmpty();
      boolean exactly = r.getOrNull("exactly") instanceof MapValue;
      if (!first && !exactly) {
        errs.add(FieldError.required(rp, "exactly one of `exactly` or `firstAvailable` is"
            + " required"));
      } else if (first && exactly) {
        errs.add(FieldError.invalid(rp, Value.nullValue(), "exactly one of `exactly` or"
            + " `firstAvailable` is required, but multiple fields are set"));
      } else if (exactly) {
        exactRequest(errs, Nested.map(r, "exactly"), rp + ".exactly");
      } else {
        List<MapValue> subs = GroupRules.maps(r, "firstAvailable");
        for (int j = 0; j < subs.size(); j++) {
          String sp = rp + ".firstAvailable[" + j + "]";
          requestName(errs, sp + ".name", str(subs.get(j), "name"));
          exactRequest(errs, subs.get(j), sp);
        }
      }
    }
    return errs;
  }

  private static void requestName(List<FieldError> errs, String path, String name) {
    if (name.isEmpty()) {
      errs.add(FieldError.required(path, ""));
      return;
    }
    for (String msg : MetaValidation.dns1123Label(name)) {
      errs.add(FieldError.invalid(path, Value.of(name), msg));
    }
  }

  private static void exactRequest(List<FieldError> errs, MapValue r, String path) {
    String deviceClass = str(r, "deviceClassName");
    if (deviceClass.isEmpty()) {
      errs.add(FieldError.required(path + ".deviceClassName", ""));
    } else {
      for (String msg : MetaValidation.dns1123Subdomain(deviceClass)) {
        errs.add(FieldError.invalid(path + ".deviceClassName", Value.of(deviceClass), msg));
      }
    }
    List<MapValue> selectors = GroupRules.maps(r, "selectors");
    for (int i = 0; i < selectors.size(); i++) {
      if (!(selectors.get(i).getOrNull("cel") instanceof MapValue cel)) {
        errs.add(FieldError.required(path + ".selectors[" + i + "].cel", ""));
      } else if (str(cel, "expression").isEmpty()) {
        errs.add(FieldError.required(path + ".selectors[" + i + "].cel.expression",
            "expression is required"));
      }
    }
    long count = GroupRules.integer(r, "count").orElse(0L);
    String mode = str(r, "allocationMode");
    if (mode.equals("All")) {
      if (count != 0) {
        errs.add(FieldError.invalid(path + ".count", Value.of(count),
            "must not be specified when allocationMode is 'All'"));
      }
    } else if (mode.equals("ExactCount")) {
      if (count <= 0) {
        errs.add(FieldError.invalid(path + ".count", Value.of(count), "must be greater than zero"));
      }
    } else {
      errs.add(FieldError.notSupported(path + ".allocationMode", Value.of(mode),
          List.of("All", "ExactCount")));
    }
  }
}
