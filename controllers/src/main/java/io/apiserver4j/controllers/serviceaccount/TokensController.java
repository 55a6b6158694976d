/*
 * Copyright The apiserver4j authors.
 * SPDX-License-Identifier: Apache-2.0
 */
package io.apiserver4j.controllers.serviceaccount;

import io.apiserver4j.admission.UserInfo;
import io.apiserver4j.apiserver.DeleteOptions;
import io.apiserver4j.apiserver.ResourceClient;
import io.apiserver4j.controllers.internal.Controller;
import io.apiserver4j.controllers.internal.ControllerContext;
import io.apiserver4j.controllers.internal.ControllerContext.Outcome;
import io.apiserver4j.controllers.internal.ControllerContext.Workers;
import io.apiserver4j.controllers.internal.Informer;
import io.apiserver4j.controllers.internal.ResourceEventHandler;
import io.apiserver4j.controllers.internal.WorkQueue;
import io.apiserver4j.core.GroupResource;
import io.apiserver4j.core.GroupVersionResource;
import io.apiserver4j.core.ListValue;
import io.apiserver4j.core.MapValue;
import io.apiserver4j.core.Meta;
import io.apiserver4j.core.Nested;
import io.apiserver4j.core.Value;
import io.apiserver4j.core.errors.ConflictException;
import io.apiserver4j.core.errors.NotFoundException;
import java.nio.charset.StandardCharsets;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.Base64;
import java.util.List;
import java.util.Optional;

/**
 * kube's {@code TokensController} (pkg/controller/serviceaccount/tokens_controller.go), as
 * kube-controller-manager's own user (kube starts it with the root client, since it makes the
 * credentials the other controllers use): every Secret of type
 * {@code kubernetes.io/service-account-token} whose ServiceAccount (annotation
 * {@code kubernetes.io/service-account.name}, and {@code .uid} when set) exists gets
 * {@code data.token} (a legacy token signed with {@code --service-account-private-key-file}),
 * {@code data.namespace} and, with a root CA, {@code data["ca.crt"]}, and both annotations; a
 * token Secret whose ServiceAccount does not exist is deleted (with a uid precondition), as are
 * a deleted ServiceAccount's tokens; a deleted token Secret is removed from its ServiceAccount's
 * {@code secrets}. Each update is of the live object read again, skipped when the cache is
 * behind it (the informer's next event brings the Secret back), and a Conflict or NotFound ends
 * the sync, as in kube.
 *
 * <p>Not implemented from kube: its give-up after 10 retries of one key (here a key backs off
 * as every controller's does).
 */
public final class TokensController implements Controller {
  /** kube's {@code v1.SecretTypeServiceAccountToken}. */
  static final String TOKEN_TYPE = "kubernetes.io/service-account-token";
  /** kube's {@code v1.ServiceAccountNameKey}. */
  static final String NAME_KEY = "kubernetes.io/service-account.name";
  /** kube's {@code v1.ServiceAccountUIDKey}. */
  static final String UID_KEY = "kubernetes.io/service-account.uid";
  /** kube's {@code RemoveTokenBackoff} steps: conflicts retried on removing a reference. */
  private static final int REMOVE_REFERENCE_ATTEMPTS = 10;
  private static final GroupVersionResource SECRETS = new GroupVersionResource("", "v1",
      "secrets");
  private static final GroupVersionResource SERVICE_ACCOUNTS = new GroupVersionResource("",
      "v1", "serviceaccounts");

  /** kube's {@code serviceAccountQueueKey}. */
  record AccountKey(String namespace, String name, String uid) {}

  /** kube's {@code secretQueueKey}. */
  record SecretKey(String namespace, String name, String uid, String saName, String saUid) {}

  private final ControllerContext context;
  private final UserInfo user;
  private final LegacyTokenGenerator generator;
  private final byte[] rootCa;
  private final Informer accounts;
  private final Informer secrets;
  private final WorkQueue<AccountKey> accountQueue;
  private final WorkQueue<SecretKey> secretQueue;
  private Workers accountWorkers;
  private Workers secretWorkers;

  TokensController(ControllerContext context, LegacyTokenGenerator generator, byte[] rootCa) {
    this.context = context;
    this.generator = generator;
    this.rootCa = rootCa.clone();
    this.user = UserInfo.of("system:kube-controller-manager", "system:authenticated");
    this.accountQueue = context.newQueue("serviceaccount_tokens_service");
    this.secretQueue = context.newQueue("serviceaccount_tokens_secret");
    this.accounts = context.informers().informer(new GroupResource("", "serviceaccounts"));
    this.secrets = context.informers().informer(new GroupResource("", "secrets"));
    accounts.addHandler(ResourceEventHandler.of(sa -> accountQueue.add(accountKey(sa)),
        sa -> accountQueue.add(accountKey(sa))));
    secrets.addHandler(ResourceEventHandler.of(this::queueSecret, this::queueSecret));
  }

  /**
   * The {@code serviceaccount-token} controller, signing with the manager's service account
   * private key; without one, as kube-controller-manager without
   * {@code --service-account-private-key-file}, a controller that does nothing (kube logs that
   * it is disabled and does not start it).
   *
   * @throws IllegalArgumentException if the key or root CA file cannot be read or used
   */
  public static Controller create(ControllerContext context) {
    return context.serviceAccountTokenSigning()
        .<Controller>map(s -> new TokensController(context,
            new LegacyTokenGenerator(s.privateKey()), s.rootCa()))
        .orElseGet(() -> {
          org.slf4j.LoggerFactory.getLogger(TokensController.class).warn(
              "\"serviceaccount-token-controller\" is disabled because there is no private key");
          return new Controller() {
            @Override
            public void start() {}

            @Override
            public void close() {}
          };
        });
  }

  @Override
  public void start() {
    int n = context.concurrentSyncs("serviceaccount-token");
    accountWorkers = context.startWorkers("serviceaccount-tokens-service", accountQueue, n,
        this::syncServiceAccount);
    secretWorkers = context.startWorkers("serviceaccount-tokens-secret", secretQueue, n,
        this::syncSecret);
  }

  @Override
  public void close() {
    Workers.close(accountWorkers, accountQueue);
    Workers.close(secretWorkers, secretQueue);
  }

  private static AccountKey accountKey(MapValue sa) {
    return new AccountKey(Meta.metaString(sa, "namespace"), Meta.metaString(sa, "name"),
        Meta.metaString(sa, "uid"));
  }

  private void queueSecret(MapValue secret) {
    if (!TOKEN_TYPE.equals(Nested.str(secret, "type"))) {
      return;
    }
    var annotations = Meta.annotations(secret);
    secretQueue.add(new SecretKey(Meta.metaString(secret, "namespace"),
        Meta.metaString(secret, "name"), Meta.metaString(secret, "uid"),
        annotations.getOrDefault(NAME_KEY, ""), annotations.getOrDefault(UID_KEY, "")));
  }

  private ResourceClient client(GroupVersionResource resource, String namespace) {
    return context.client(resource, user).namespace(namespace);
  }

  /** kube's {@code syncServiceAccount}: a ServiceAccount gone takes its tokens with it. */
  private Outcome syncServiceAccount(AccountKey key) {
    if (cachedAccount(key.namespace(), key.name(), key.uid()).isPresent()) {
      return Outcome.FORGET;
    }
    boolean retry = false;
    for (MapValue token : secrets.list(key.namespace())) {
      if (isServiceAccountToken(token, key.name(), key.uid())) {
        retry |= deleteToken(key.namespace(), Meta.metaString(token, "name"),
            Meta.metaString(token, "uid"));
      }
    }
    return retry ? Outcome.REQUEUE : Outcome.FORGET;
  }

  /** kube's {@code syncSecret}. */
  private Outcome syncSecret(SecretKey key) {
    Optional<MapValue> secret = secrets.get(key.namespace(), key.name())
        .filter(s -> key.uid().isEmpty() || key.uid().equals(Meta.metaString(s, "uid")));
    if (secret.isEmpty()) {
      if (cachedAccount(key.namespace(), key.saName(), key.saUid()).isPresent()) {
        removeSecretReference(key);
      }
      return Outcome.FORGET;
    }
    Optional<MapValue> sa = cachedAccount(key.namespace(), key.saName(), key.saUid());
    if (sa.isEmpty()) {
      sa = client(SERVICE_ACCOUNTS, key.namespace()).find(key.saName())
          .filter(s -> key.saUid().isEmpty() || key.saUid().equals(Meta.metaString(s, "uid")));
    }
    if (sa.isEmpty()) {
      return deleteToken(key.namespace(), key.name(), key.uid()) ? Outcome.REQUEUE
          : Outcome.FORGET;
    }
    return generateTokenIfNeeded(sa.get(), secret.get());
  }

  private Optional<MapValue> cachedAccount(String namespace, String name, String uid) {
    return accounts.get(namespace, name)
        .filter(sa -> uid.isEmpty() || uid.equals(Meta.metaString(sa, "uid")));
  }

  /** kube's {@code apiserverserviceaccount.IsServiceAccountToken}. */
  static boolean isServiceAccountToken(MapValue secret, String saName, String saUid) {
    if (!TOKEN_TYPE.equals(Nested.str(secret, "type"))) {
      return false;
    }
    var annotations = Meta.annotations(secret);
    String uid = annotations.getOrDefault(UID_KEY, "");
    return saName.equals(annotations.getOrDefault(NAME_KEY, ""))
        && (uid.isEmpty() || uid.equals(saUid));
  }

  /** kube's {@code deleteToken}: whether to retry. */
  private boolean deleteToken(String namespace, String name, String uid) {
    DeleteOptions.Builder options = DeleteOptions.builder();
    if (!uid.isEmpty()) {
      options.preconditionUid(uid);
    }
    try {
      client(SECRETS, namespace).delete(name, options.build());
      return false;
    } catch (NotFoundException | ConflictException e) {
      // gone already, or another Secret of that name now
      return false;
    }
  }

  /** kube's {@code secretUpdateNeeded}: whether the CA, namespace or token must be set. */
  static boolean[] updateNeeded(MapValue secret, byte[] rootCa) {
    byte[] ca = data(secret, "ca.crt");
    boolean needsCa = rootCa.length > 0 && !Arrays.equals(ca, rootCa);
    boolean needsNamespace = data(secret, "namespace").length == 0;
    boolean needsToken = data(secret, "token").length == 0;
    return new boolean[] {needsCa, needsNamespace, needsToken};
  }

  private static boolean any(boolean[] needs) {
    return needs[0] || needs[1] || needs[2];
  }

  /** A Secret's decoded {@code data[key]}, empty when absent or not base64. */
  static byte[] data(MapValue secret, String key) {
    String v = Nested.str(secret, "data", key);
    try {
      return Base64.getDecoder().decode(v);
    } catch (IllegalArgumentException e) {
      return new byte[0];
    }
  }

  /** kube's {@code generateTokenIfNeeded}. */
  private Outcome generateTokenIfNeeded(MapValue sa, MapValue cached) {
    if (!any(updateNeeded(cached, rootCa))) {
      return Outcome.FORGET;
    }
    String namespace = Meta.metaString(cached, "namespace");
    Optional<MapValue> found = client(SECRETS, namespace).find(Meta.metaString(cached, "name"));
    if (found.isEmpty()) {
      return Outcome.FORGET;
    }
    MapValue live = found.get();
    if (!Meta.metaString(live, "resourceVersion")
        .equals(Meta.metaString(cached, "resourceVersion"))) {
      // the cache is behind: its next event brings this Secret back
      return Outcome.FORGET;
    }
    boolean[] needs = updateNeeded(live, rootCa);
    if (!any(needs)) {
      return Outcome.FORGET;
    }
    MapValue data = Nested.map(live, "data");
    if (needs[0]) {
      data = data.with("ca.crt", Value.of(Base64.getEncoder().encodeToString(rootCa)));
    }
    if (needs[1]) {
      data = data.with("namespace", Value.of(Base64.getEncoder().encodeToString(
          namespace.getBytes(StandardCharsets.UTF_8))));
    }
    if (needs[2]) {
      String token = generator.generate(Meta.metaString(sa, "namespace"),
          Meta.metaString(sa, "name"), Meta.metaString(sa, "uid"),
          Meta.metaString(live, "name"));
      data = data.with("token", Value.of(Base64.getEncoder().encodeToString(
          token.getBytes(StandardCharsets.UTF_8))));
    }
    MapValue annotations = Nested.map(live, "metadata", "annotations")
        .with(NAME_KEY, Value.of(Meta.metaString(sa, "name")))
        .with(UID_KEY, Value.of(Meta.metaString(sa, "uid")));
    MapValue updated = Nested.set(live.with("data", data), annotations, "metadata",
        "annotations");
    try {
      client(SECRETS, namespace).update(updated);
    } catch (ConflictException | NotFoundException e) {
      // updated by someone else (an event follows), or gone
    }
    return Outcome.FORGET;
  }

  /** kube's {@code removeSecretReference}, retried on conflicts as kube's RetryOnConflict. */
  private void removeSecretReference(SecretKey key) {
    ResourceClient client = client(SERVICE_ACCOUNTS, key.namespace());
    for (int attempt = 1; ; attempt++) {
      Optional<MapValue> found = client.find(key.saName());
      if (found.isEmpty()) {
        return;
      }
      MapValue sa = found.get();
      if (!key.saUid().isEmpty() && !key.saUid().equals(Meta.metaString(sa, "uid"))) {
        return;
      }
      List<Value> kept = new ArrayList<>();
      boolean referenced = false;
      for (Value ref : Nested.list(sa, "secrets")) {
        if (key.name().equals(Nested.str(ref, "name"))) {
          referenced = true;
        } else {
          kept.add(ref);
        }
      }
      if (!referenced) {
        return;
      }
      try {
        // an empty list is left out, as Go's encoder leaves out an empty secrets
        client.update(kept.isEmpty() ? Nested.remove(sa, "secrets")
            : sa.with("secrets", ListValue.of(kept)));
        return;
      } catch (NotFoundException e) {
        return;
      } catch (ConflictException e) {
        if (attempt >= REMOVE_REFERENCE_ATTEMPTS) {
          throw e;
        }
      }
    }
  }
}
