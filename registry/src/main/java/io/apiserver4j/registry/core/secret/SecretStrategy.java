/*
 * Copyright The apiserver4j authors.
 * SPDX-License-Identifier: Apache-2.0
 */
package io.apiserver4j.registry.core.secret;

import static io.apiserver4j.apimachinery.validation.GroupRules.immutable;
import static io.apiserver4j.apimachinery.validation.GroupRules.str;

import io.apiserver4j.apiserver.ResourceStrategy;
import io.apiserver4j.core.errors.FieldError;
import io.apiserver4j.core.MapValue;
import io.apiserver4j.core.Nested;
import io.apiserver4j.core.StringValue;
import io.apiserver4j.core.Value;
import io.apiserver4j.registry.core.validation.ConfigDataRules;
import java.nio.charset.StandardCharsets;
import java.util.ArrayList;
import java.util.List;
import java.util.Optional;

/**
 * core/v1 Secret (kube's pkg/registry/core/secret): {@code type} defaults to {@code Opaque},
 * {@code stringData} is folded into {@code data}, {@code type} is a selectable field, and
 * {@code ValidateSecret}/{@code ValidateSecretUpdate} check keys, size, the keys each type needs
 * and immutability.
 */
public final class SecretStrategy {
  private SecretStrategy() {}

  /** The Secret strategy. */
  public static ResourceStrategy strategy() {
    return ResourceStrategy.builder()
        .defaulter(o -> mergeStringData(Nested.setDefault(o, Value.of("Opaque"), "type")))
        .validator(SecretStrategy::validate)
        .omitEmptyFields("data", "stringData")
        .selectableFields("type")
        .build();
  }

  static List<FieldError> validate(MapValue o, Optional<MapValue> old) {
    List<FieldError> errs = new ArrayList<>();
    ConfigDataRules.keys(errs, o, "data");
    if (ConfigDataRules.dataBytes(o, "data", true) > ConfigDataRules.MAX_DATA_BYTES) {
      errs.add(FieldError.tooLong("data", ConfigDataRules.MAX_DATA_BYTES));
    }
    MapValue data = Nested.map(o, "data");
    switch (str(o, "type")) {
      case "kubernetes.io/service-account-token":
        if (str(o, "metadata", "annotations", "kubernetes.io/service-account.name").isEmpty()) {
          errs.add(FieldError.required(
              "metadata.annotations[kubernetes.io/service-account.name]", ""));
        }
        break;
      case "kubernetes.io/dockercfg":
        dockerConfig(errs, data, ".dockercfg");
        break;
      case "kubernetes.io/dockerconfigjson":
        dockerConfig(errs, data, ".dockerconfigjson");
        break;
      case "kubernetes.io/basic-auth":
        if (!data.containsKey("username") && !data.containsKey("password")) {
          errs.add(FieldError.required("data[username]", ""));
          errs.add(FieldError.required("data[password]", ""));
        }
        break;
      case "kubernetes.io/ssh-auth":
        if (str(data, "ssh-privatekey").isEmpty()) {
          errs.add(FieldError.required("data[ssh-privatekey]", ""));
        }
        break;
      case "kubernetes.io/tls":
        for (String key : List.of("tls.crt", "tls.key")) {
          if (!data.containsKey(key)) {
            errs.add(FieldError.required("data[" + key + "]", ""));
          }
        }
        break;
      default:
        break;
    }
    if (old.isPresent()) {
      immutable(errs, "type", o.getOrNull("type"), old.get().getOrNull("type"));
      if (ConfigDataRules.immutableSet(old)) {
        ConfigDataRules.immutableData(errs, o, old.get(), "data");
      }
    }
    return errs;
  }

  // the key must be there and hold JSON; kube redacts the contents in the message
  private static void dockerConfig(List<FieldError> errs, MapValue data, String key) {
    if (!data.containsKey(key)) {
      errs.add(FieldError.required("data[" + key + "]", ""));
      return;
    }
    String raw;
    try {
      raw = new String(java.util.Base64.getDecoder().decode(str(data, key)),
          StandardCharsets.UTF_8);
    } catch (IllegalArgumentException e) {
      return; // the decoder reports malformed base64
    }
    String trimmed = raw.strip();
    String detail = null;
    if (trimmed.isEmpty()) {
      detail = "unexpected end of JSON input";
    } else if ("{[\"-0123456789tfn".indexOf(trimmed.charAt(0)) < 0) {
      // Go's encoding/json names the first character that cannot start a value
      detail = "invalid character '" + trimmed.charAt(0) + "' looking for beginning of value";
    } else {
      try {
        io.apiserver4j.core.Json.read(trimmed);
      } catch (RuntimeException e) {
        detail = "unexpected end of JSON input";
      }
    }
    if (detail != null) {
      errs.add(FieldError.invalid("data[" + key + "]", Value.of("<secret contents redacted>"),
          detail));
    }
  }

  /**
   * kube's conversion of a v1 Secret: {@code stringData} is written into {@code data}
   * (base64 of its UTF-8 bytes, overwriting keys given in both) and never stored.
   */
  private static MapValue mergeStringData(MapValue secret) {
    if (!(secret.getOrNull("stringData") instanceof MapValue strings)) {
      return secret.getOrNull("stringData") == null ? secret : secret.without("stringData");
    }
    MapValue data = Nested.map(secret, "data");
    for (int i = 0; i < strings.size(); i++) {
      String v = strings.valueAt(i) instanceof StringValue s ? s.value() : "";
      data = data.with(strings.keyAt(i), Value.of(java.util.Base64.getEncoder()
          .encodeToString(v.getBytes(StandardCharsets.UTF_8))));
    }
    MapValue out = secret.without("stringData");
    return data.isEmpty() ? out : out.with("data", data);
  }
}
