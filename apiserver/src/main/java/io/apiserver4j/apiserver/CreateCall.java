/*
 * Copyright The apiserver4j authors.
 * SPDX-License-Identifier: Apache-2.0
 */
package io.apiserver4j.apiserver;

import static java.util.Objects.requireNonNull;

import io.apiserver4j.core.MapValue;
import java.util.Optional;

/**
 * One call of a {@link SubresourceCreate}.
 *
 * @param user the requesting user
 * @param namespace the request's namespace
 * @param name the parent object's name (for {@code ""}: the body's name)
 * @param object the decoded body (of the subresource's own kind) after mutating admission
 * @param validation runs validating admission on the object it is given (kube's
 *     {@code createValidation}) and throws the refusal as a Status error
 * @param dryRun the request's {@code dryRun}
 * @param now the time of the request
 * @param server the server as a loopback client: what the handler reads and writes goes
 *     through it, as kube's handlers use their stores and loopback clients
 * @param storage writes below the strategies, as kube's handlers that update their
 *     parent's storage directly (pods/binding)
 */
public record CreateCall(io.apiserver4j.admission.UserInfo user, String namespace, String name,
    MapValue object, java.util.function.Consumer<MapValue> validation,
    DryRun dryRun, java.time.Instant now,
    java.util.function.Function<ApiRequest, ApiResponse> server, StorageUpdate storage) {
  public CreateCall {
    requireNonNull(user, "user");
    requireNonNull(namespace, "namespace");
    requireNonNull(name, "name");
    requireNonNull(object, "object");
    requireNonNull(validation, "validation");
    requireNonNull(dryRun, "dryRun");
    requireNonNull(now, "now");
    requireNonNull(server, "server");
    requireNonNull(storage, "storage");
  }

  /**
   * kube's storage-level {@code GuaranteedUpdate} of one object of a served resource in the
   * request's namespace: {@code change} runs on the current object (again after a lost race)
   * and its result is stored as it is — no strategy, no admission, no managed fields; nothing is
   * written on a dry run. Throws kube's 404 for a missing object and 409 for a failed
   * precondition; a {@code change} refuses by throwing a Status error.
   */
  @FunctionalInterface
  public interface StorageUpdate {
    MapValue update(io.apiserver4j.core.GroupVersionResource resource, String name,
        Optional<String> uid, Optional<String> resourceVersion,
        java.util.function.UnaryOperator<MapValue> change);
  }
}
