/*
 * Copyright The apiserver4j authors.
 * SPDX-License-Identifier: Apache-2.0
 */
package io.apiserver4j.registry.networking.servicecidr;

import io.apiserver4j.apimachinery.validation.GroupValidation;
import io.apiserver4j.apimachinery.validation.KubeValidation;
import io.apiserver4j.apiserver.ResourceStrategy;
import io.apiserver4j.core.errors.FieldError;
import io.apiserver4j.core.IpAddresses;
import io.apiserver4j.core.ListValue;
import io.apiserver4j.core.MapValue;
import io.apiserver4j.core.Meta;
import io.apiserver4j.core.Nested;
import io.apiserver4j.core.Value;
import io.apiserver4j.registry.networking.validation.NetworkingValidation;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.List;
import java.util.Optional;

/**
 * networking.k8s.io/v1 ServiceCIDR, as kube's {@code pkg/registry/networking/servicecidr}
 * with {@code ValidateServiceCIDR}/{@code ValidateServiceCIDRUpdate} (at most one CIDR per IP
 * family in canonical form; a single-family CIDR may gain its second family).
 */
public final class ServiceCidrStrategy {
  private ServiceCidrStrategy() {}

  /** The ServiceCIDR's strategy. */
  public static ResourceStrategy strategy() {
    return ResourceStrategy.builder()
        .validator(ServiceCidrStrategy::validate)
        .build();
  }

  static List<FieldError> validate(MapValue sc, Optional<MapValue> old) {
    List<FieldError> errs = new ArrayList<>();
    List<String> cidrs = Meta.stringList(Nested.getOrNull(sc, "spec", "cidrs"));
    if (old.isPresent()) {
      List<String> before = Meta.stringList(Nested.getOrNull(old.get(), "spec", "cidrs"));
      if (before.size() == cidrs.size()) {
        for (int i = 0; i < before.size(); i++) {
          if (!before.get(i).equals(cidrs.get(i))) {
            errs.add(FieldError.invalid("spec.cidrs[" + i + "]", Value.of(cidrs.get(i)),
                KubeValidation.IMMUTABLE));
          }
        }
      } else if (before.size() == 1 && cidrs.size() == 2) {
        if (!cidrs.get(0).equals(before.get(0))) {
          errs.add(FieldError.invalid("spec.cidrs[0]", Value.of(cidrs.get(0)),
              KubeValidation.IMMUTABLE));
        }
        errs.addAll(serviceCidrSpec(cidrs));
      } else {
        errs.add(FieldError.invalid("spec.cidrs", strings(cidrs), KubeValidation.IMMUTABLE));
      }
      return errs;
    }
    return serviceCidrSpec(cidrs);
  }
  private static List<FieldError> serviceCidrSpec(List<String> cidrs) {
    List<FieldError> errs = new ArrayList<>();
    if (cidrs.isEmpty()) {
      errs.add(FieldError.required("spec.cidrs", "at least one CIDR required"));
      return errs;
    }
    if (cidrs.size() > 2) {
      errs.add(FieldError.invalid("spec.cidrs", MapValue.ofEntries("cidrs", strings(cidrs)),
          "may only hold up to 2 values"));
      return errs;
    }
    for (int i = 0; i < cidrs.size(); i++) {
      String c = cidrs.get(i);
      Optional<IpAddresses.Cidr> parsed = IpAddresses.parseCidr(c);
      int slash = c.indexOf('/');
      if (parsed.isEmpty()) {
        errs.add(FieldError.invalid("spec.cidrs[" + i + "]", Value.of(c),
            GroupValidation.INVALID_CIDR));
      } else if ((!c.contains(":") && NetworkingValidation.hasLeadingZero(c.substring(0, slash)))
          || (c.length() - slash > 2 && c.charAt(slash + 1) == '0')) {
        errs.add(FieldError.invalid("spec.cidrs[" + i + "]", Value.of(c),
            "must not have leading 0s in IP or prefix length"));
      } else if (!Arrays.equals(parsed.get().ip(), IpAddresses.parse(c.substring(0, slash)))) {
        errs.add(FieldError.invalid("spec.cidrs[" + i + "]", Value.of(c),
            "must not have bits set beyond the prefix length"));
      } else if (!c.equals(canonicalCidr(parsed.get()))) {
        errs.add(FieldError.invalid("spec.cidrs[" + i + "]", Value.of(c),
            "must be in canonical form (\"" + canonicalCidr(parsed.get()) + "\")"));
      }
    }
    if (cidrs.size() == 2) {
      Optional<IpAddresses.Cidr> a = IpAddresses.parseCidr(cidrs.get(0));
      Optional<IpAddresses.Cidr> b = IpAddresses.parseCidr(cidrs.get(1));
      if (a.isPresent() && b.isPresent() && a.get().ipv6() == b.get().ipv6()) {
        errs.add(FieldError.invalid("spec.cidrs", strings(cidrs), "may specify no more than one"
            + " IP for each IP family, i.e 192.168.0.0/24 and 2001:db8::/64"));
      }
    }
    return errs;
  }
  private static String canonicalCidr(IpAddresses.Cidr c) {
    return IpAddresses.format(c.ip()) + "/" + c.bits();
  }
  private static ListValue strings(List<String> values) {
    return ListValue.ofStrings(values);
  }
}
