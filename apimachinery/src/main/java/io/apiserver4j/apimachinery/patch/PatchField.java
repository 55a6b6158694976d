/*
 * Copyright The apiserver4j authors.
 * SPDX-License-Identifier: Apache-2.0
 */
package io.apiserver4j.apimachinery.patch;

import static java.util.Objects.requireNonNull;

import java.util.Optional;

/**
 * What a strategic merge patch needs to know about one field: its {@link PatchStrategy}, whether
 * it takes part in {@code $retainKeys}, the merge key of a list of objects, and the schema of
 * the field's value (for a list, the list's schema, whose {@link PatchSchema#items()} describes
 * the elements).
 *
 * <p>A schema built from structured-merge-diff terms maps as follows: an associative list keyed
 * by one field is {@code merge(key, ...)}, a set is {@code mergeSet(...)}, an atomic list is
 * {@code of(...)}; from OpenAPI, {@code x-kubernetes-patch-strategy} and
 * {@code x-kubernetes-patch-merge-key} give the same information (see
 * {@link OpenApiPatchSchemas}).
 *
 * @param strategy how the value combines with the current one
 * @param retainKeys whether the field's patch strategy includes {@code retainKeys}; kube's
 *     patch application honours a {@code $retainKeys} directive whether or not this is set, so
 *     it matters only to code that creates patches
 * @param mergeKey the merge key of a list of objects with strategy {@link PatchStrategy#MERGE}
 * @param schema the schema of the field's value
 */
public record PatchField(
    PatchStrategy strategy, boolean retainKeys, Optional<String> mergeKey, PatchSchema schema) {

  private static final PatchField UNKNOWN =
      new PatchField(PatchStrategy.DEFAULT, false, Optional.empty(), PatchSchema.unknown());

  /**
   * Checks the components.
   *
   * @param strategy see the record component
   * @param retainKeys see the record component
   * @param mergeKey see the record component
   * @param schema see the record component
   * @throws NullPointerException when a component is null
   * @throws IllegalArgumentException when the merge key is empty
   */
  public PatchField {
    requireNonNull(strategy, "strategy");
    requireNonNull(mergeKey, "mergeKey");
    requireNonNull(schema, "schema");
    mergeKey.ifPresent(key -> {
      if (key.isEmpty()) {
        throw new IllegalArgumentException("mergeKey must not be empty; use Optional.empty()");
      }
    });
  }

  /**
   * A field nothing is known about: maps merge like JSON merge patch, lists are replaced.
   *
   * @return the shared unknown field
   */
  public static PatchField unknown() {
    return UNKNOWN;
  }

  /**
   * A field with the default strategy and the given value schema.
   *
   * @param schema the schema of the field's value
   * @return the field
   */
  public static PatchField of(PatchSchema schema) {
    return new PatchField(PatchStrategy.DEFAULT, false, Optional.empty(), schema);
  }

  /**
   * A list of objects merged by {@code mergeKey}.
   *
   * @param mergeKey the merge key, not empty
   * @param schema the schema of the list
   * @return the field
   * @throws IllegalArgumentException when the merge key is empty
   */
  public static PatchField merge(String mergeKey, PatchSchema schema) {
    requireNonNull(mergeKey, "mergeKey");
    return new PatchField(PatchStrategy.MERGE, false, Optional.of(mergeKey), schema);
  }

  /**
   * A list of scalars merged as a set.
   *
   * @param schema the schema of the list
   * @return the field
   */
  public static PatchField mergeSet(PatchSchema schema) {
    return new PatchField(PatchStrategy.MERGE, false, Optional.empty(), schema);
  }

  /**
   * A map replaced whole by the patch.
   *
   * @param schema the schema of the field's value
   * @return the field
   */
  public static PatchField replace(PatchSchema schema) {
    return new PatchField(PatchStrategy.REPLACE, false, Optional.empty(), schema);
  }

  /**
   * This field with {@code retainKeys} added to its strategy.
   *
   * @return the new field
   */
  public PatchField withRetainKeys() {
    return new PatchField(strategy, true, mergeKey, schema);
  }

  /**
   * Parses a {@code patchStrategy} tag / {@code x-kubernetes-patch-strategy} value (e.g.
   * {@code merge,retainKeys}) with an optional merge key, as kube does: one strategy, or two of
   * which one is {@code retainKeys}. Strategy names other than {@code merge},
   * {@code replace} and {@code retainKeys} have no effect, as in kube.
   *
   * @throws IllegalArgumentException more than two strategies, or two without
   *     {@code retainKeys}
   * @param strategies the comma-separated strategies
   * @param mergeKey the merge key, if any
   * @param schema the schema of the field's value
   * @return the field
   */
  public static PatchField parse(String strategies, Optional<String> mergeKey,
      PatchSchema schema) {
    requireNonNull(strategies, "strategies");
    String[] parts = strategies.isEmpty() ? new String[0] : strategies.split(",", -1);
    boolean retainKeys = false;
    String other = "";
    if (parts.length == 1) {
      if (parts[0].equals("retainKeys")) {
        retainKeys = true;
      } else {
        other = parts[0];
      }
    } else if (parts.length == 2 && (parts[0].equals("retainKeys")
        || parts[1].equals("retainKeys"))) {
      retainKeys = true;
      other = parts[0].equals("retainKeys") ? parts[1] : parts[0];
    } else if (parts.length != 0) {
      throw new IllegalArgumentException("unexpected patch strategy: " + strategies);
    }
    PatchStrategy strategy = other.equals("merge") ? PatchStrategy.MERGE
        : other.equals("replace") ? PatchStrategy.REPLACE : PatchStrategy.DEFAULT;
    return new PatchField(strategy, retainKeys, mergeKey.filter(k -> !k.isEmpty()), schema);
  }
}
