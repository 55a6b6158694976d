/*
 * Copyright The apiserver4j authors.
 * SPDX-License-Identifier: Apache-2.0
 */
package io.apiserver4j.registry.core.validation;

import io.apiserver4j.apimachinery.validation.MetaValidation;
import io.apiserver4j.core.BooleanValue;
import io.apiserver4j.core.errors.FieldError;
import io.apiserver4j.core.MapValue;
import io.apiserver4j.core.Nested;
import io.apiserver4j.core.StringValue;
import io.apiserver4j.core.Value;
import java.nio.charset.StandardCharsets;
import java.util.ArrayList;
import java.util.List;
import java.util.Optional;
import java.util.regex.Pattern;

/**
 * The rules ConfigMaps and Secrets share (kube's pkg/apis/core/validation): their keys
 * ({@code IsConfigMapKey}), their size bound and their {@code immutable} flag, with kube's field
 * paths and messages. Stateless.
 */
public final class ConfigDataRules {
  private ConfigDataRules() {}

  /** kube's MaxSecretSize, which bounds ConfigMaps and Secrets alike. */
  public static final int MAX_DATA_BYTES = 1024 * 1024;

  private static final String IMMUTABLE_SET = "field is immutable when `immutable` is set";
  private static final Pattern CONFIG_MAP_KEY = Pattern.compile("[-._a-zA-Z0-9]+");

  /** apimachinery's {@code IsConfigMapKey}: the messages for {@code key}, none when valid. */
  public static List<String> configMapKey(String key) {
    List<String> msgs = new ArrayList<>();
    if (key.length() > 253) {
      msgs.add("must be no more than 253 characters");
    }
    if (!CONFIG_MAP_KEY.matcher(key).matches()) {
      msgs.add(MetaValidation.regexError("a valid config key must consist of alphanumeric"
          + " characters, '-', '_' or '.'", "[-._a-zA-Z0-9]+", "key.name", "KEY_NAME",
          "key-name"));
    }
    if (key.equals(".")) {
      msgs.add("must not be '.'");
    } else if (key.equals("..")) {
      msgs.add("must not be '..'");
    } else if (key.startsWith("..")) {
      msgs.add("must not start with '..'");
    }
    return msgs;
  }

  /** Adds to {@code errs} an error per invalid key of the map {@code field} of {@code obj}. */
  public static void keys(List<FieldError> errs, MapValue obj, String field) {
    MapValue data = Nested.map(obj, field);
    for (int i = 0; i < data.size(); i++) {
      for (String msg : configMapKey(data.keyAt(i))) {
        errs.add(FieldError.invalid(field + "[" + data.keyAt(i) + "]", Value.of(data.keyAt(i)),
            msg));
      }
    }
  }

  /** Whether the stored object, if any, was marked {@code immutable: true}. */
  public static boolean immutableSet(Optional<MapValue> old) {
    return old.isPresent() && old.get().getOrNull("immutable") instanceof BooleanValue b
        && b.value();
  }

  /**
   * Adds kube's errors for an update of an immutable object: {@code immutable} must stay true
   * and each of {@code fields} must be unchanged.
   */
  public static void immutableData(List<FieldError> errs, MapValue obj, MapValue old,
      String... fields) {
    if (!(obj.getOrNull("immutable") instanceof BooleanValue b && b.value())) {
      errs.add(FieldError.forbidden("immutable", IMMUTABLE_SET));
    }
    for (String f : fields) {
      if (!Nested.map(obj, f).equals(Nested.map(old, f))) {
        errs.add(FieldError.forbidden(f, IMMUTABLE_SET));
      }
    }
  }

  /** The bytes of a data map's values; base64 values count decoded, as kube's []byte. */
  public static long dataBytes(MapValue obj, String field, boolean base64) {
    long total = 0;
    MapValue data = Nested.map(obj, field);
    for (int i = 0; i < data.size(); i++) {
      String v = data.valueAt(i) instanceof StringValue s ? s.value() : "";
      total += base64 ? decodedLength(v) : v.getBytes(StandardCharsets.UTF_8).length;
    }
    return total;
  }

  private static long decodedLength(String base64) {
    try {
      return java.util.Base64.getDecoder().decode(base64).length;
    } catch (IllegalArgumentException e) {
      return base64.length() * 3L / 4; // the decode step reports malformed values
    }
  }
}
