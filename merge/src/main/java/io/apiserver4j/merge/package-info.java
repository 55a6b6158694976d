/*
 * Copyright The apiserver4j authors.
 * SPDX-License-Identifier: Apache-2.0
 */
/**
 * The structured merge engine: structured-merge-diff's semantics on apiserver4j values.
 *
 * <ul>
 *   <li>Schemas: {@link io.apiserver4j.merge.Schema} (SMD's YAML format, or built from
 *       {@link io.apiserver4j.merge.TypeDef}s) and {@link io.apiserver4j.merge.ParseableType}
 *       handles, including SMD's deduced type for schemaless objects.
 *   <li>Typed values: {@link io.apiserver4j.merge.TypedValue} with validate, toFieldSet, compare,
 *       merge, removeItems, extractItems and field-set reconciliation after schema changes.
 *   <li>The {@link io.apiserver4j.merge.Updater}: apply and update with managed fields,
 *       conflicts ({@link io.apiserver4j.merge.ConflictsException}), ownership across API versions
 *       through a {@link io.apiserver4j.merge.VersionConverter}, and per-version ignored fields.
 * </ul>
 *
 * <p>Everything here is immutable and thread-safe except builders; operations return new values
 * and share unchanged sub-trees with their inputs. Behaviour follows SMD v6 as pinned down by the
 * conformance fixtures in {@code ../shared/conformance}, including its edge cases (list item
 * order after a merge, null versus empty containers, duplicates written by updates).
 */
package io.apiserver4j.merge;
