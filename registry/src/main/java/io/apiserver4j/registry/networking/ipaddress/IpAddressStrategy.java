/*
 * Copyright The apiserver4j authors.
 * SPDX-License-Identifier: Apache-2.0
 */
package io.apiserver4j.registry.networking.ipaddress;

import static io.apiserver4j.apimachinery.validation.GroupValidation.str;

import io.apiserver4j.apimachinery.validation.GroupValidation;
import io.apiserver4j.apimachinery.validation.KubeValidation;
import io.apiserver4j.apimachinery.validation.MetaValidation;
import io.apiserver4j.apimachinery.validation.NameValidation;
import io.apiserver4j.apiserver.ResourceStrategy;
import io.apiserver4j.core.errors.FieldError;
import io.apiserver4j.core.IpAddresses;
import io.apiserver4j.core.MapValue;
import io.apiserver4j.core.Meta;
import io.apiserver4j.core.Nested;
import io.apiserver4j.core.Value;
import io.apiserver4j.registry.networking.validation.NetworkingValidation;
import java.util.ArrayList;
import java.util.List;
import java.util.Optional;

/**
 * networking.k8s.io/v1 IPAddress, as kube's {@code pkg/registry/networking/ipaddress}: a name
 * that is the address in canonical form, and {@code ValidateIPAddress}/
 * {@code ValidateIPAddressUpdate} (the parent reference, immutable).
 */
public final class IpAddressStrategy {
  private IpAddressStrategy() {}

  /** The IPAddress's strategy. */
  public static ResourceStrategy strategy() {
    // an IPAddress is named by its address, which kube checks instead of a DNS name
    return ResourceStrategy.builder()
        .nameValidation(NameValidation.PATH_SEGMENT)
        .validator(IpAddressStrategy::validate)
        .build();
  }

  static List<FieldError> validate(MapValue ip, Optional<MapValue> old) {
    List<FieldError> errs = new ArrayList<>();
    String name = Meta.metaString(ip, "name");
    if (!name.isEmpty()) {
      byte[] parsed = IpAddresses.parse(name);
      if (parsed == null) {
        errs.add(FieldError.invalid("metadata.name", Value.of(name), GroupValidation.INVALID_IP));
      } else if (name.contains(":") && name.contains(".")) {
        errs.add(FieldError.invalid("metadata.name", Value.of(name),
            "must not be an IPv4-mapped IPv6 address"));
      } else if (!name.contains(":") && NetworkingValidation.hasLeadingZero(name)) {
        errs.add(FieldError.invalid("metadata.name", Value.of(name), "must not have leading 0s"));
      } else if (name.contains(":") && !name.equals(IpAddresses.format(parsed))) {
        errs.add(FieldError.invalid("metadata.name", Value.of(name),
            "must be in canonical form (\"" + IpAddresses.format(parsed) + "\")"));
      }
    }
    if (old.isPresent()) {
      MapValue now = Nested.mapOrNull(ip, "spec", "parentRef");
      MapValue before = Nested.mapOrNull(old.get(), "spec", "parentRef");
      if (!java.util.Objects.equals(now, before)) {
        errs.add(GroupValidation.invalidGo("spec.parentRef", goParentRef(now),
            KubeValidation.IMMUTABLE));
      }
      return errs;
    }
    MapValue ref = Nested.mapOrNull(ip, "spec", "parentRef");
    if (ref == null) {
      errs.add(FieldError.required("spec.parentRef", ""));
      return errs;
    }
    String at = "spec.parentRef";
    String group = str(ref, "group");
    if (!group.isEmpty()) {
      for (String msg : MetaValidation.dns1123Subdomain(group)) {
        errs.add(FieldError.invalid(at + ".group", Value.of(group), msg));
      }
    }
    NetworkingValidation.pathSegmentRequired(errs, ref, "resource", at);
    NetworkingValidation.pathSegmentRequired(errs, ref, "name", at);
    String ns = str(ref, "namespace");
    if (!ns.isEmpty()) {
      for (String msg : MetaValidation.pathSegment(ns, false)) {
        errs.add(FieldError.invalid(at + ".namespace", Value.of(ns), msg));
      }
    }
    return errs;
  }
  // the JSON of kube's internal ParentReference (no json tags: Go field names), as kube prints it
  private static String goParentRef(MapValue ref) {
    if (ref == null) {
      return "null";
    }
    StringBuilder sb = new StringBuilder("{");
    String[] fields = {"Group", "Resource", "Namespace", "Name"};
    for (int i = 0; i < fields.length; i++) {
      String key = Character.toLowerCase(fields[i].charAt(0)) + fields[i].substring(1);
      sb.append(i == 0 ? "" : ",").append('"').append(fields[i]).append("\":")
          .append(io.apiserver4j.core.Json.write(Value.of(str(ref, key))));
    }
    return sb.append('}').toString();
  }
}
