/*
 * Copyright The apiserver4j authors.
 * SPDX-License-Identifier: Apache-2.0
 */
package io.apiserver4j.apiserver.internal;

import io.apiserver4j.apiserver.ResourceDefinition;
import io.apiserver4j.apimachinery.patch.PatchType;
import io.apiserver4j.core.errors.FieldError;
import io.apiserver4j.core.GoStrings;
import io.apiserver4j.core.GroupKind;
import io.apiserver4j.core.GroupVersionKind;
import io.apiserver4j.core.Json;
import io.apiserver4j.core.MapValue;
import io.apiserver4j.core.errors.StatusErrors;
import io.apiserver4j.core.errors.StatusException;
import io.apiserver4j.core.Value;
import io.apiserver4j.merge.Schema;
import java.util.List;
import io.apiserver4j.apimachinery.decoding.GoDecoder;
import io.apiserver4j.apimachinery.decoding.GoFormat;
import io.apiserver4j.apimachinery.decoding.LenientJson;
import io.apiserver4j.apimachinery.decoding.NumberLiterals;
import io.apiserver4j.apimachinery.managedfields.ObjectConversionException;

/**
 * Where kube-apiserver decodes a built-in object into its Go types, and how each place reports
 * what does not fit (see {@link GoDecoder} for the decoding itself):
 * <ul>
 *   <li>create and update bodies: 400 {@code <Kind> in version "<v>" cannot be handled as a
 *       <Kind>: <error>} (create.go / update.go {@code transformDecodeError});
 *   <li>JSON and merge patches: 422 {@code "" is invalid: patch: Invalid value: "<patched
 *       JSON>": <error>} (patch.go {@code jsonPatcher.applyPatchToCurrentObject});
 *   <li>strategic merge patches: the same 422, the value being the patch printed with Go's
 *       {@code %+v} (patch.go {@code applyPatchToObject}, through FromUnstructured);
 *   <li>apply: 500 {@code failed to convert new object (<ns>/<name>; <gvk>) to proper version:
 *       unable to convert unstructured object to <gvk>: <error>} (managedfields'
 *       {@code structuredMergeManager.Apply}, a plain error).
 * </ul>
 */
final class GoDecoding {
  private GoDecoding() {}

  static boolean applies(Schema schema) {
    return BuiltinSchema.release(schema).isPresent();
  }

  // the decoder of the release whose built-in schema this is (applies() said it is one)
  private static GoDecoder decoder(Schema schema) {
    return BuiltinSchema.release(schema).map(r -> r.decoder).orElseGet(BuiltinSchema::decoder);
  }

  /** A create or update body of built-in type {@code typeName} of kind {@code gvk}. */
  static MapValue body(GroupVersionKind gvk, Schema schema, String typeName, MapValue obj,
      NumberLiterals literals) {
    GoDecoder.Result r = decoder(schema).decode(typeName, obj, GoDecoder.Mode.JSON,
        literals);
    if (r.error().isPresent()) {
      throw StatusErrors.badRequest(gvk.kind() + " in version " + GoStrings.quote(gvk.version())
          + " cannot be handled as a " + gvk.kind() + ": " + r.error().get());
    }
    return r.object();
  }

  /**
   * Rejects a number too large for a float that decoding left in place (a safety net: every Go
   * type rejects one, unknown fields are dropped): such a value could never be written back.
   */
  static void rejectOverflows(Value v, NumberLiterals literals) {
    List<Value> pending = new java.util.ArrayList<>();
    pending.add(v);
    while (!pending.isEmpty()) {
      Value x = pending.remove(pending.size() - 1);
      if (x instanceof io.apiserver4j.core.FloatValue f && literals.overflowed(f)) {
        throw StatusErrors.badRequest("json: cannot unmarshal number " + literals.text(f)
            + " into Go value of type float64");
      }
      if (x instanceof MapValue m) {
        m.forEach((k, c) -> pending.add(c));
      } else if (x instanceof io.apiserver4j.core.ListValue l) {
        pending.addAll(l.items());
      }
    }
  }

  /** The result of a JSON, merge or strategic merge patch of built-in type {@code typeName}. */
  static MapValue patched(PatchType type, Schema schema, String typeName, MapValue patched,
      Value patch, byte[] raw) {
    boolean strategic = type == PatchType.STRATEGIC_MERGE_PATCH;
    GoDecoder.Result r = decoder(schema).decode(typeName, patched,
        strategic ? GoDecoder.Mode.UNSTRUCTURED : GoDecoder.Mode.JSON,
        strategic ? NumberLiterals.NONE : literals(raw));
    if (r.error().isPresent()) {
      throw invalidPatch(strategic ? GoFormat.v(patch) : Json.write(patched),
          r.error().get());
    }
    return r.object();
  }

  // JSON and merge patches keep the patch's number literals as written (json-patch copies
  // them raw): the decoder quotes them
  private static NumberLiterals literals(byte[] raw) {
    try {
      return LenientJson.read(raw, false).numbers();
    } catch (RuntimeException e) {
      return NumberLiterals.NONE; // the patch was parsed already; nothing to add
    }
  }

  /** kube's error for a patched object that does not decode: 422 on field {@code patch}. */
  static StatusException invalidPatch(String value, String detail) {
    return StatusErrors.invalid(new GroupKind("", ""), "", List.of(FieldError.invalid("patch",
        Value.of(value), detail)));
  }

  /**
   * The merged object of an apply of built-in type {@code typeName}, converted as kube does.
   *
   * @throws ObjectConversionException when it does not decode, for the field manager to word
   */
  static MapValue applied(Schema schema, String typeName, MapValue merged) {
    GoDecoder.Result r = decoder(schema).decode(typeName, merged,
        GoDecoder.Mode.UNSTRUCTURED, NumberLiterals.NONE);
    if (r.error().isPresent()) {
      throw new ObjectConversionException(r.error().get());
    }
    return r.object();
  }

  /** The apply decoder of {@code def}, or identity when it is not a built-in kind. */
  static java.util.function.UnaryOperator<MapValue> applyDecoder(ResourceDefinition def) {
    if (!applies(def.schema())) {
      return o -> o;
    }
    String typeName = def.schemaType();
    Schema schema = def.schema();
    return o -> applied(schema, typeName, o);
  }
}
