/*
 * Copyright The apiserver4j authors.
 * SPDX-License-Identifier: Apache-2.0
 */
package io.apiserver4j.apimachinery.managedfields;

import io.apiserver4j.core.MapValue;
import io.apiserver4j.merge.Force;
import java.time.Instant;

/**
 * One link of the managed-fields chain (kube's {@code Manager} in
 * {@code k8s.io/apimachinery/pkg/util/managedfields/internal}): each decorator does its part and
 * delegates to the manager it wraps, the innermost one being the structured merge. Objects and
 * ownership are immutable; a manager returns new ones and never changes its arguments. The time
 * of the write is passed in (kube reads the wall clock) so that a server's clock decides it.
 *
 * <p>Implementations are immutable and thread-safe.
 */
public interface Manager {

  /**
   * Records a non-apply write: {@code newObject} has been merged already and replaces
   * {@code live}; only the ownership changes.
   *
   * @param live the stored object (without a uid when it is being created)
   * @param newObject the object to store, without managedFields
   * @param managed the ownership before the write
   * @param manager the field manager (kube's identifier once past the manager-info step)
   * @param now the time of the write
   * @return always {@link ManagerResult.Changed}, with the object to store
   * @throws RuntimeException when the ownership cannot be computed
   */
  ManagerResult update(MapValue live, MapValue newObject, Managed managed, String manager,
      Instant now);

  /**
   * Merges {@code applied} into {@code live} for {@code manager} (server-side apply).
   *
   * @param live the stored object (without a uid when it does not exist yet)
   * @param applied the apply configuration
   * @param managed the ownership of {@code live}
   * @param manager the field manager (kube's identifier once past the manager-info step)
   * @param force whether to take fields other managers own instead of conflicting
   * @param now the time of the write
   * @throws io.apiserver4j.merge.ConflictsException when {@code force} is {@link Force#NO} and
   *     other managers own fields the apply changes
   * @throws io.apiserver4j.core.errors.StatusException for a configuration kube rejects
   */
  ManagerResult apply(MapValue live, MapValue applied, Managed managed, String manager,
      Force force, Instant now);
}
