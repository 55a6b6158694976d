/*
 * Copyright The apiserver4j authors.
 * SPDX-License-Identifier: Apache-2.0
 */
package io.apiserver4j.apiserver;

import io.apiserver4j.admission.UserInfo;
import io.apiserver4j.core.GroupVersionResource;
import java.util.Optional;

/**
 * The extra authorization kube-apiserver performs when a PUT or a server-side apply creates an
 * object: besides {@code update}/{@code patch} (which the HTTP layer authorizes), the user must
 * be allowed to {@code create} the resource. Implementations must be thread-safe.
 */
@FunctionalInterface
public interface CreateAuthorizer {
  /** Allows everything (the default). */
  CreateAuthorizer ALLOW_ALL = (user, resource, subresource, namespace, name) -> Optional.empty();

  /**
   * Decides whether {@code user} may create the object.
   *
   * @return empty to allow; otherwise the authorizer's reason (may be empty), which becomes a
   *     403 {@code <resource> "<name>" is forbidden: User "<user>" cannot create resource
   *     "<resource>" in API group "<group>" in the namespace "<ns>"[: <reason>]}
   */
  Optional<String> denyReason(UserInfo user, GroupVersionResource resource, String subresource,
      String namespace, String name);
}
