/*
 * Copyright The apiserver4j authors.
 * SPDX-License-Identifier: Apache-2.0
 */
package io.apiserver4j.apiextensions.internal;

import io.apiserver4j.apimachinery.validation.NameValidation;
import io.apiserver4j.apimachinery.validation.MetaValidation;
import io.apiserver4j.core.errors.FieldError;
import io.apiserver4j.core.MapValue;
import io.apiserver4j.core.StringValue;
import io.apiserver4j.core.Value;
import java.util.List;
import java.util.Locale;

/**
 * The checks kube-apiserver makes on {@code x-kubernetes-embedded-resource} objects
 * (apiextensions' {@code objectmeta.Validate}): apiVersion and kind present and well-formed,
 * metadata valid as ObjectMeta with path-segment names.
 */
final class Embedded {
  private Embedded() {}

  static void validate(MapValue x, String path, List<FieldError> errs) {
    String at = path.isEmpty() ? "" : path + ".";
    if (!x.containsKey("apiVersion")) {
      errs.add(FieldError.required(at + "apiVersion", ""));
    }
    if (!x.containsKey("kind")) {
      errs.add(FieldError.required(at + "kind", ""));
    }
    Value apiVersion = x.getOrNull("apiVersion");
    if (apiVersion != null) {
      if (!(apiVersion instanceof StringValue s)) {
        errs.add(FieldError.invalid(at + "apiVersion", apiVersion, "must be a string"));
      } else if (s.value().isEmpty()) {
        errs.add(FieldError.invalid(at + "apiVersion", s, "must not be empty"));
      } else if (s.value().chars().filter(c -> c == '/').count() > 1) {
        errs.add(FieldError.invalid(at + "apiVersion", s,
            "unexpected GroupVersion string: " + s.value()));
      }
    }
    Value kind = x.getOrNull("kind");
    if (kind != null) {
      if (!(kind instanceof StringValue s)) {
        errs.add(FieldError.invalid(at + "kind", kind, "must be a string"));
      } else if (s.value().isEmpty()) {
        errs.add(FieldError.invalid(at + "kind", s, "must not be empty"));
      } else {
        List<String> msgs = MetaValidation.dns1035Label(s.value().toLowerCase(Locale.ROOT));
        if (!msgs.isEmpty()) {
          errs.add(FieldError.invalid(at + "kind", s,
              "may have mixed case, but should otherwise match: " + String.join(",", msgs)));
        }
      }
    }
    if (x.getOrNull("metadata") instanceof MapValue meta) {
      MapValue m = meta.containsKey("name") ? meta : meta.with("name", Value.of("fakename"));
      boolean namespaced = m.getOrNull("namespace") instanceof StringValue ns
          && !ns.value().isEmpty();
      for (FieldError e : MetaValidation.objectMeta(MapValue.ofEntries("metadata", m), namespaced,
          NameValidation.PATH_SEGMENT)) {
        errs.add(new FieldError(e.type(), at + e.field(), e.badValue(), e.detail()));
      }
    }
  }
}
