/*
 * Copyright The apiserver4j authors.
 * SPDX-License-Identifier: Apache-2.0
 */
package io.apiserver4j.apimachinery.patch;

import static java.util.Objects.requireNonNull;

import io.apiserver4j.core.errors.BadRequestException;
import io.apiserver4j.core.DecodeException;
import io.apiserver4j.core.DecodeLimits;
import io.apiserver4j.core.Json;
import io.apiserver4j.apimachinery.patch.JsonPatch;
import io.apiserver4j.core.errors.StatusException;
import io.apiserver4j.core.Value;

/**
 * The non-apply half of kube-apiserver's PATCH handling in one place: reading the body and
 * applying it to the current object with the mechanism of its {@link PatchType}. Server-side
 * apply bodies go to the apply machinery instead.
 *
 * <p>Thread-safe (stateless).
 */
public final class Patches {
  private Patches() {}

  /**
   * {@link #parseBody(byte[], DecodeLimits)} with the default decoding limits.
   *
   * @param body the request body
   * @return the body's value
   * @throws BadRequestException {@code invalid JSON patch} when the body is not one JSON value
   */
  public static Value parseBody(byte[] body) {
    return parseBody(body, DecodeLimits.DEFAULT);
  }

  /**
   * Reads the body of a JSON patch, merge patch or strategic merge patch request.
   *
   * <p>Deviation: kube-apiserver accepts duplicate member names here (the last one wins);
   * the JSON reader used here rejects them, so such a body fails as invalid.
   *
   * @param body the request body
   * @param limits the decoding limits
   * @return the body's value
   * @throws BadRequestException {@code invalid JSON patch} when the body is not one JSON value
   */
  public static Value parseBody(byte[] body, DecodeLimits limits) {
    requireNonNull(body, "body");
    requireNonNull(limits, "limits");
    try {
      return Json.read(body, limits);
    } catch (DecodeException e) {
      throw PatchErrors.badRequest("invalid JSON patch");
    }
  }

  /**
   * Applies a JSON patch, merge patch or strategic merge patch to {@code current}, with the
   * default limits ({@link JsonPatch#DEFAULT_MAX_COPY_BYTES}).
   *
   * @param schema used by strategic merge patch only
   * @throws StatusException as the type's class documents
   * @throws IllegalArgumentException for the apply types
   * @param type the patch type
   * @param current the current object; not changed
   * @param patch the parsed patch body
   * @return the patched object
   */
  public static Value apply(PatchType type, Value current, Value patch, PatchSchema schema) {
    requireNonNull(type, "type");
    requireNonNull(current, "current");
    requireNonNull(patch, "patch");
    requireNonNull(schema, "schema");
    switch (type) {
      case JSON_PATCH:
        return JsonPatch.apply(current, patch);
      case MERGE_PATCH:
        return MergePatch.apply(current, patch);
      case STRATEGIC_MERGE_PATCH:
        return StrategicMergePatch.apply(current, patch, schema);
      default:
        throw new IllegalArgumentException(
            type + " is server-side apply, which the apply machinery handles, not Patches");
    }
  }
}
