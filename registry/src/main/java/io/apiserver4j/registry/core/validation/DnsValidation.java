/*
 * Copyright The apiserver4j authors.
 * SPDX-License-Identifier: Apache-2.0
 */
package io.apiserver4j.registry.core.validation;

import static io.apiserver4j.apimachinery.validation.KubeValidation.index;
import static io.apiserver4j.apimachinery.validation.KubeValidation.items;
import static io.apiserver4j.apimachinery.validation.KubeValidation.str;

import io.apiserver4j.apimachinery.validation.GroupRules;
import io.apiserver4j.apimachinery.validation.IpAddresses;
import io.apiserver4j.apimachinery.validation.MetaValidation;
import io.apiserver4j.core.errors.FieldError;
import io.apiserver4j.core.GoStrings;
import io.apiserver4j.core.MapValue;
import io.apiserver4j.core.Meta;
import io.apiserver4j.core.Nested;
import io.apiserver4j.core.Value;
import java.util.ArrayList;
import java.util.List;
import java.util.Optional;

/**
 * kube's {@code validatePodDNSConfig} (relaxed search names) and {@code ValidateHostAliases},
 * with apimachinery's strict IP rule they share. Stateless.
 */
final class DnsValidation {
  private static final String LABEL_UNDERSCORE_FMT = "_?[a-z0-9]([-_a-z0-9]*[a-z0-9])?";
  private static final String SUBDOMAIN_UNDERSCORE_FMT =
      LABEL_UNDERSCORE_FMT + "(\\." + LABEL_UNDERSCORE_FMT + ")*";

  private DnsValidation() {}

  /**
   * {@code validatePodDNSConfig}: search domains by the relaxed rule
   * ({@code RelaxedDNSSearchValidation}: {@code .} and {@code _} allowed) or the strict one
   * (DNS-1123 subdomains).
   */
  static void dnsConfig(MapValue spec, String path, boolean relaxed, List<FieldError> errs) {
    Value config = spec.getOrNull("dnsConfig");
    if (str(spec, "dnsPolicy").equals("None")) {
      if (!(config instanceof MapValue)) {
        errs.add(FieldError.required(path, "must provide `dnsConfig` when `dnsPolicy` is None"));
        return;
      }
      if (Meta.stringList(Nested.getOrNull(config, "nameservers")).isEmpty()) {
        errs.add(FieldError.required(path + ".nameservers",
            "must provide at least one DNS nameserver when `dnsPolicy` is None"));
        return;
      }
    }
    if (!(config instanceof MapValue c)) {
      return;
    }
    List<String> servers = Meta.stringList(c.getOrNull("nameservers"));
    if (servers.size() > 3) {
      errs.add(FieldError.invalid(path + ".nameservers", c.getOrNull("nameservers"),
          "must not have more than 3 nameservers"));
    }
    for (int i = 0; i < servers.size(); i++) {
      strictIp(servers.get(i), index(path + ".nameservers", i), errs);
    }
    List<String> searches = Meta.stringList(c.getOrNull("searches"));
    if (searches.size() > 32) {
      errs.add(FieldError.invalid(path + ".searches", c.getOrNull("searches"),
          "must not have more than 32 search paths"));
    }
    if (String.join(" ", searches).length() > 2048) {
      errs.add(FieldError.invalid(path + ".searches", c.getOrNull("searches"),
          "must not have more than 2048 characters (including spaces) in the search list"));
    }
    for (int i = 0; i < searches.size(); i++) {
      String s = searches.get(i);
      if (relaxed && s.equals(".")) {
        continue;
      }
      // a trailing dot is fine under either rule
      String trimmed = s.endsWith(".") ? s.substring(0, s.length() - 1) : s;
      for (String msg : relaxed ? subdomainWithUnderscore(trimmed)
          : PodValidationOptions.strictSearch(trimmed)) {
        errs.add(FieldError.invalid(index(path + ".searches", i), Value.of(trimmed), msg));
      }
    }
    List<MapValue> options = items(c.getOrNull("options"));
    for (int i = 0; i < options.size(); i++) {
      if (str(options.get(i), "name").isEmpty()) {
        errs.add(FieldError.required(index(path + ".options", i), "must not be empty"));
      }
    }
  }

  // IsDNS1123SubdomainWithUnderscore
  private static List<String> subdomainWithUnderscore(String v) {
    List<String> out = new ArrayList<>();
    if (v.length() > 253) {
      out.add("must be no more than 253 characters");
    }
    if (!v.matches(SUBDOMAIN_UNDERSCORE_FMT)) {
      out.add(MetaValidation.regexError("a lowercase RFC 1123 subdomain must consist of lower"
          + " case alphanumeric characters, '_', '-' or '.', and must start and end with an"
          + " alphanumeric character", SUBDOMAIN_UNDERSCORE_FMT, "example.com"));
    }
    return out;
  }

  /** apimachinery's strict {@code IsValidIP}: parses, no leading zeros, canonical. */
  static void strictIp(String ip, String path, List<FieldError> errs) {
    Optional<byte[]> parsed = GroupRules.parseIp(ip);
    if (parsed.isEmpty()) {
      errs.add(FieldError.invalid(path, Value.of(ip), IpAddresses.INVALID_IP));
      return;
    }
    if (ip.indexOf(':') < 0) {
      for (String part : ip.split("\\.")) {
        if (part.length() > 1 && part.startsWith("0")) {
          errs.add(FieldError.invalid(path, Value.of(ip), "must not have leading 0s"));
          return;
        }
      }
    } else if (ip.contains(".") && ip.toLowerCase(java.util.Locale.ROOT).contains("ffff:")) {
      errs.add(FieldError.invalid(path, Value.of(ip),
          "must not be an IPv4-mapped IPv6 address"));
      return;
    }
    String canonical = io.apiserver4j.core.IpAddresses.format(parsed.get());
    if (!canonical.equals(ip)) {
      errs.add(FieldError.invalid(path, Value.of(ip),
          "must be in canonical form (" + GoStrings.quote(canonical) + ")"));
    }
  }

  /** {@code ValidateHostAliases}. */
  static void hostAliases(List<MapValue> aliases, String path, List<FieldError> errs) {
    for (int i = 0; i < aliases.size(); i++) {
      String at = index(path, i);
      strictIp(str(aliases.get(i), "ip"), at + ".ip", errs);
      List<String> names = Meta.stringList(aliases.get(i).getOrNull("hostnames"));
      for (int j = 0; j < names.size(); j++) {
        for (String msg : MetaValidation.dns1123Subdomain(names.get(j))) {
          errs.add(FieldError.invalid(index(at + ".hostnames", j), Value.of(names.get(j)), msg));
        }
      }
    }
  }
}
