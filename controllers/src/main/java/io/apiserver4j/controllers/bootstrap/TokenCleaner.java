/*
 * Copyright The apiserver4j authors.
 * SPDX-License-Identifier: Apache-2.0
 */
package io.apiserver4j.controllers.bootstrap;

import io.apiserver4j.admission.UserInfo;
import io.apiserver4j.apiserver.DeleteOptions;
import io.apiserver4j.controllers.internal.Controller;
import io.apiserver4j.controllers.internal.ControllerContext;
import io.apiserver4j.controllers.internal.ControllerContext.Outcome;
import io.apiserver4j.controllers.internal.ControllerContext.Workers;
import io.apiserver4j.controllers.internal.Informer;
import io.apiserver4j.controllers.internal.Pods;
import io.apiserver4j.controllers.internal.ResourceEventHandler;
import io.apiserver4j.controllers.internal.WorkQueue;
import io.apiserver4j.core.GroupResource;
import io.apiserver4j.core.GroupVersionResource;
import io.apiserver4j.core.MapValue;
import io.apiserver4j.core.Meta;
import io.apiserver4j.core.errors.ConflictException;
import io.apiserver4j.core.errors.NotFoundException;
import java.util.Optional;

/**
 * kube's {@code TokenCleaner} (pkg/controller/bootstrap/tokencleaner.go), as user
 * {@code system:serviceaccount:kube-system:token-cleaner}: a bootstrap token Secret of
 * {@code kube-system} whose {@code expiration} has passed on the server clock (or cannot be
 * read) is deleted, with a uid precondition; one that expires later is looked at again then.
 */
public final class TokenCleaner implements Controller {
  private static final GroupVersionResource SECRETS = new GroupVersionResource("", "v1",
      "secrets");

  private final ControllerContext context;
  private final UserInfo user;
  private final Informer secrets;
  private final WorkQueue<String> queue;
  private Workers workers;

  private TokenCleaner(ControllerContext context) {
    this.context = context;
    this.user = ControllerContext.serviceAccount("token-cleaner");
    this.queue = context.newQueue("token_cleaner");
    this.secrets = context.informers().informer(new GroupResource("", "secrets"));
    secrets.addHandler(ResourceEventHandler.of(s -> {
      if (BootstrapTokens.isBootstrapToken(s)
          && BootstrapTokens.NAMESPACE.equals(Meta.metaString(s, "namespace"))) {
        queue.add(Pods.key(s));
      }
    }, s -> { }));
  }

  /** The {@code tokencleaner} controller. */
  public static Controller create(ControllerContext context) {
    return new TokenCleaner(context);
  }

  @Override
  public void start() {
    workers = context.startWorkers("token_cleaner", queue, 1, this::sync);
  }

  @Override
  public void close() {
    Workers.close(workers, queue);
  }

  /** kube's {@code syncFunc} and {@code evalSecret}. */
  private Outcome sync(String key) {
    int slash = key.indexOf('/');
    Optional<MapValue> found = secrets.get(key.substring(0, slash), key.substring(slash + 1));
    if (found.isEmpty() || !BootstrapTokens.isBootstrapToken(found.get())) {
      return Outcome.FORGET;
    }
    MapValue secret = found.get();
    BootstrapTokens.Expiration e = BootstrapTokens.expiration(secret, context.clock().instant());
    if (e.expired()) {
      DeleteOptions.Builder options = DeleteOptions.builder();
      String uid = Meta.metaString(secret, "uid");
      if (!uid.isEmpty()) {
        options.preconditionUid(uid);
      }
      try {
        context.client(SECRETS, user).namespace(Meta.metaString(secret, "namespace"))
            .delete(Meta.metaString(secret, "name"), options.build());
      } catch (NotFoundException | ConflictException ignored) {
        // gone already, or another Secret of that name now
      }
    } else if (!e.ttl().isZero()) {
      queue.addAfter(key, e.ttl());
    }
    return Outcome.FORGET;
  }
}
