/*
 * Copyright The apiserver4j authors.
 * SPDX-License-Identifier: Apache-2.0
 */
package io.apiserver4j.apiserver;

import static java.util.Objects.requireNonNull;

/**
 * The options of a DELETE of a collection: kube decodes both a {@code DeleteOptions} (applied to
 * each object) and a {@code ListOptions} (which objects).
 *
 * @param delete how each selected object is deleted
 * @param list which objects are deleted
 */
public record DeleteCollectionOptions(DeleteOptions delete, CollectionOptions list)
    implements VerbOptions {

  /** Checks the components. */
  public DeleteCollectionOptions {
    requireNonNull(delete, "delete");
    requireNonNull(list, "list");
  }

  /** Every object of the collection, deleted with {@code delete}. */
  public static DeleteCollectionOptions of(DeleteOptions delete) {
    return new DeleteCollectionOptions(delete, CollectionOptions.all());
  }

  @Override
  public DryRun dryRun() {
    return delete.dryRun();
  }
}
