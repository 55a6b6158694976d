/*
 * Copyright The apiserver4j authors.
 * SPDX-License-Identifier: Apache-2.0
 */
package io.apiserver4j.apiserver;

/**
 * The typed options of one request, one kind per verb as kube-apiserver's request scope decodes
 * them ({@code metav1.GetOptions}, {@code ListOptions}, {@code CreateOptions},
 * {@code UpdateOptions}, {@code PatchOptions}, {@code DeleteOptions}): an {@link ApiRequest} of
 * verb {@code GET} carries {@link GetOptions}, {@code LIST} and {@code WATCH} carry
 * {@link CollectionOptions}, {@code CREATE}, {@code UPDATE} and {@code PATCH} carry
 * {@link CreateOptions}, {@link UpdateOptions} and {@link PatchOptions}, {@code DELETE} carries
 * {@link DeleteOptions} and {@code DELETE_COLLECTION} {@link DeleteCollectionOptions}.
 *
 * <p>The accessors shared by the writes answer kube's defaults for the kinds that do not have
 * them (no dry run, no field manager, {@link FieldValidation#WARN}). Every implementation is an
 * immutable record.
 */
public sealed interface VerbOptions permits GetOptions, CollectionOptions, CreateOptions,
    UpdateOptions, PatchOptions, DeleteOptions, DeleteCollectionOptions {

  /** Whether the request is a dry run; {@link DryRun#NONE} for reads. */
  default DryRun dryRun() {
    return DryRun.NONE;
  }

  /** The {@code fieldManager}; empty when absent and for verbs without one. */
  default String fieldManager() {
    return "";
  }

  /** The {@code fieldValidation}; {@link FieldValidation#WARN} for verbs without one. */
  default FieldValidation fieldValidation() {
    return FieldValidation.WARN;
  }

  /** Whether these options are the kind a request of {@code verb} carries. */
  default boolean fits(ApiRequest.Verb verb) {
    switch (verb) {
      case GET:
        return this instanceof GetOptions;
      case LIST:
      case WATCH:
        return this instanceof CollectionOptions;
      case CREATE:
        return this instanceof CreateOptions;
      case UPDATE:
        return this instanceof UpdateOptions;
      case PATCH:
        return this instanceof PatchOptions;
      case DELETE:
        return this instanceof DeleteOptions;
      default:
        return this instanceof DeleteCollectionOptions;
    }
  }
}
