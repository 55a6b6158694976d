/*
 * Copyright The apiserver4j authors.
 * SPDX-License-Identifier: Apache-2.0
 */
package io.apiserver4j.apimachinery.patch;

/**
 * The schema information a strategic merge patch consults while it walks a document: for each
 * field of an object, its patch metadata ({@link #field}); for a list, the schema of its elements
 * ({@link #items}). This mirrors apimachinery's {@code LookupPatchMeta}.
 *
 * <p>The merge itself follows the values' shapes (maps merge, lists and scalars are replaced
 * unless the field's strategy says otherwise), so a schema only has to answer for the fields it
 * knows; for anything else it answers {@link PatchField#unknown()} / {@link #unknown()} and the
 * field behaves as in a JSON merge patch. A map with arbitrary keys (OpenAPI
 * {@code additionalProperties}) answers every key with the value schema.
 *
 * <p>Implementations must be immutable and thread-safe. {@link OpenApiPatchSchemas} builds them
 * from OpenAPI v3 documents; the pipeline may also adapt other schema sources.
 */
public interface PatchSchema {

  /**
   * The patch metadata of field {@code name} of objects described by this schema.
   *
   * @param name the field name
   * @return the field; {@link PatchField#unknown()} when not declared
   */
  PatchField field(String name);

  /**
   * The schema of the elements when this schema describes a list.
   *
   * @return the element schema; {@link #unknown()} if not a list
   */
  PatchSchema items();

  /**
   * A schema that knows nothing: every field is {@link PatchField#unknown()}.
   *
   * @return the shared unknown schema
   */
  static PatchSchema unknown() {
    return UnknownPatchSchema.INSTANCE;
  }
}
