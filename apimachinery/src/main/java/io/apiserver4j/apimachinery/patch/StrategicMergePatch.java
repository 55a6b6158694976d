/*
 * Copyright The apiserver4j authors.
 * SPDX-License-Identifier: Apache-2.0
 */
package io.apiserver4j.apimachinery.patch;

import static java.util.Objects.requireNonNull;

import io.apiserver4j.core.errors.BadRequestException;
import io.apiserver4j.core.errors.InvalidException;
import io.apiserver4j.core.MapValue;
import io.apiserver4j.core.NullValue;
import io.apiserver4j.core.errors.StatusException;
import io.apiserver4j.core.Value;

/**
 * Kubernetes' strategic merge patch ({@code application/strategic-merge-patch+json}) as
 * kube-apiserver applies it (apimachinery {@code strategicpatch.StrategicMergeMapPatch}).
 *
 * <p>Semantics, driven by a {@link PatchSchema}:
 * <ul>
 *   <li>objects merge key by key; a {@code null} patch value deletes the key;</li>
 *   <li>lists whose field has strategy {@link PatchStrategy#MERGE} merge: lists of objects by
 *       the field's merge key (matching elements merge recursively, new ones are added), lists of
 *       scalars as sets; elements named in the patch keep the patch's order, the others the
 *       live order, interleaved as kube does (an element only in the patch lands before the live
 *       ones unless {@code $setElementOrder} says otherwise); all other lists and scalars are
 *       replaced;</li>
 *   <li>directives: {@code $patch: replace} and {@code $patch: delete} in an object (replace it
 *       by the rest of the patch object / by {@code {}}); in an element of a merging list
 *       {@code {$patch: delete, <key>: v}} deletes the elements with that key and
 *       {@code {$patch: replace}} replaces the whole list by the other elements;
 *       {@code $deleteFromPrimitiveList/<field>} removes scalars from a list;
 *       {@code $setElementOrder/<field>} fixes the order of the merged list;
 *       {@code $retainKeys} drops the live keys it does not list;</li>
 *   <li>{@code $patch: merge} is not supported by kube and fails as there.</li>
 * </ul>
 *
 * <p>Fields the schema does not know merge like a JSON merge patch (maps merge, lists replace).
 * kube-apiserver does not offer strategic merge patch for custom resources at all: see
 * {@link PatchType#accepted}.
 *
 * <p>Errors are kube's: a patch that is not an object is a {@link BadRequestException}
 * ({@code json: cannot unmarshal array into Go value of type map[string]interface {}}); bad
 * directive formats are {@link BadRequestException}s with apimachinery's texts
 * ({@code invalid patch format of primitive list}, {@code invalid patch format of retainKeys},
 * {@code invalid patch format of setElementOrder list}); a list of lists is an
 * {@link InvalidException} (422) with the generic message; every other merge error (a missing
 * merge key, mixed element types, an unknown {@code $patch} value, ...) is a
 * {@link StatusException} with code 500, an empty reason and apimachinery's error text, because
 * kube-apiserver does not map those errors to a Status either.
 *
 * <p>Inputs are never changed; unchanged subtrees are shared with the result. Thread-safe.
 */
public final class StrategicMergePatch {
  private StrategicMergePatch() {}

  /**
   * Applies {@code patch} to {@code document}; a {@code null} patch changes nothing.
   *
   * @param schema the patch schema of the document's kind; {@link PatchSchema#unknown()} makes
   *     every field behave as in a JSON merge patch, plus the directives
   * @throws StatusException as described in the class documentation
   * @param document the document; not changed
   * @param patch the strategic merge patch
   * @return the patched document
   */
  public static Value apply(Value document, Value patch, PatchSchema schema) {
    requireNonNull(document, "document");
    requireNonNull(patch, "patch");
    requireNonNull(schema, "schema");
    if (patch instanceof NullValue) {
      return document;
    }
    if (!(patch instanceof MapValue p)) {
      throw PatchErrors.badRequest("json: cannot unmarshal " + io.apiserver4j.core.GoStrings.jsonKind(patch)
          + " into Go value of type map[string]interface {}");
    }
    if (!(document instanceof MapValue d)) {
      throw PatchErrors.badRequest(StrategicMerger.BAD_JSON_DOC);
    }
    return StrategicMerger.mergeMap(d, p, schema);
  }
}
