/*
 * Copyright The apiserver4j authors.
 * SPDX-License-Identifier: Apache-2.0
 */
package io.apiserver4j.controllers.bootstrap;

import io.apiserver4j.admission.UserInfo;
import io.apiserver4j.controllers.internal.Controller;
import io.apiserver4j.controllers.internal.ControllerContext;
import io.apiserver4j.controllers.internal.ControllerContext.Outcome;
import io.apiserver4j.controllers.internal.ControllerContext.Workers;
import io.apiserver4j.controllers.internal.Informer;
import io.apiserver4j.controllers.internal.ResourceEventHandler;
import io.apiserver4j.controllers.internal.WorkQueue;
import io.apiserver4j.core.GroupResource;
import io.apiserver4j.core.GroupVersionResource;
import io.apiserver4j.core.MapValue;
import io.apiserver4j.core.Meta;
import io.apiserver4j.core.Nested;
import io.apiserver4j.core.StringValue;
import io.apiserver4j.core.Value;
import io.apiserver4j.core.errors.ConflictException;
import io.apiserver4j.core.errors.NotFoundException;
import java.time.Instant;
import java.util.HashMap;
import java.util.LinkedHashMap;
import java.util.Map;
import java.util.Optional;

/**
 * kube's bootstrap {@code Signer} (pkg/controller/bootstrap/bootstrapsigner.go), as user
 * {@code system:serviceaccount:kube-system:bootstrap-signer}: the ConfigMap
 * {@code kube-public/cluster-info} gets, beside its {@code kubeconfig}, one
 * {@code jws-kubeconfig-<token id>} detached JWS of the kubeconfig per bootstrap token of
 * {@code kube-system} that may sign ({@code usage-bootstrap-signing: "true"}, named after its
 * id, not expired on the server clock); signatures of tokens gone are removed. The ConfigMap is
 * updated only when a signature changed, came or went.
 */
public final class BootstrapSigner implements Controller {
  /** {@code bootstrapapi.ConfigMapClusterInfo} in {@code metav1.NamespacePublic}. */
  static final String CONFIG_MAP_NAMESPACE = "kube-public";
  static final String CONFIG_MAP_NAME = "cluster-info";
  /** {@code bootstrapapi.KubeConfigKey}. */
  static final String KUBECONFIG_KEY = "kubeconfig";
  /** {@code bootstrapapi.JWSSignatureKeyPrefix}. */
  static final String SIGNATURE_PREFIX = "jws-kubeconfig-";
  private static final String KEY = CONFIG_MAP_NAMESPACE + "/" + CONFIG_MAP_NAME;
  private static final GroupVersionResource CONFIG_MAPS = new GroupVersionResource("", "v1",
      "configmaps");

  private final ControllerContext context;
  private final UserInfo user;
  private final Informer secrets;
  private final Informer configMaps;
  private final WorkQueue<String> queue;
  private Workers workers;

  private BootstrapSigner(ControllerContext context) {
    this.context = context;
    this.user = ControllerContext.serviceAccount("bootstrap-signer");
    this.queue = context.newQueue("bootstrap_signer_queue");
    this.secrets = context.informers().informer(new GroupResource("", "secrets"));
    this.configMaps = context.informers().informer(new GroupResource("", "configmaps"));
    configMaps.addHandler(ResourceEventHandler.of(cm -> {
      if (CONFIG_MAP_NAMESPACE.equals(Meta.metaString(cm, "namespace"))
          && CONFIG_MAP_NAME.equals(Meta.metaString(cm, "name"))) {
        queue.add(KEY);
      }
    }, cm -> { }));
    secrets.addHandler(ResourceEventHandler.of(this::pokeForToken, this::pokeForToken));
  }

  /** The {@code bootstrapsigner} controller. */
  public static Controller create(ControllerContext context) {
    return new BootstrapSigner(context);
  }

  private void pokeForToken(MapValue secret) {
    if (BootstrapTokens.isBootstrapToken(secret)
        && BootstrapTokens.NAMESPACE.equals(Meta.metaString(secret, "namespace"))) {
      queue.add(KEY);
    }
  }

  @Override
  public void start() {
    workers = context.startWorkers("bootstrap_signer", queue, 1, k -> signConfigMap());
  }

  @Override
  public void close() {
    Workers.close(workers, queue);
  }

  /** kube's {@code signConfigMap}. */
  private Outcome signConfigMap() {
    Optional<MapValue> found = configMaps.get(CONFIG_MAP_NAMESPACE, CONFIG_MAP_NAME);
    if (found.isEmpty()) {
      return Outcome.FORGET;
    }
    MapValue cm = found.get();
    Optional<MapValue> updated = signed(cm, signingTokens(context.clock().instant()));
    if (updated.isPresent()) {
      try {
        context.client(CONFIG_MAPS, user).namespace(CONFIG_MAP_NAMESPACE).update(updated.get());
      } catch (ConflictException | NotFoundException ignored) {
        // changed meanwhile (its event queues another sync), or gone
      }
    }
    return Outcome.FORGET;
  }

  /** kube's {@code getTokens}: token id to secret, the first Secret of an id winning. */
  private Map<String, String> signingTokens(Instant now) {
    Map<String, String> out = new LinkedHashMap<>();
    for (MapValue s : secrets.list(BootstrapTokens.NAMESPACE)) {
      if (!BootstrapTokens.isBootstrapToken(s)) {
        continue;
      }
      BootstrapTokens.forSigning(s, now).ifPresent(t -> out.putIfAbsent(t.id(), t.secret()));
    }
    return out;
  }

  /**
   * {@code cm} with its signatures recomputed for {@code tokens}; empty when none changed, or
   * when it has no {@code kubeconfig}.
   */
  static Optional<MapValue> signed(MapValue cm, Map<String, String> tokens) {
    MapValue data = Nested.map(cm, "data");
    if (!(data.getOrNull(KUBECONFIG_KEY) instanceof StringValue content)) {
      return Optional.empty();
    }
    Map<String, String> old = new HashMap<>();
    MapValue.Builder kept = MapValue.builder();
    data.forEach((k, v) -> {
      if (k.startsWith(SIGNATURE_PREFIX)) {
        old.put(k.substring(SIGNATURE_PREFIX.length()),
            v instanceof StringValue s ? s.value() : "");
      } else {
        kept.put(k, v);
      }
    });
    boolean changed = false;
    for (Map.Entry<String, String> t : tokens.entrySet()) {
      String sig = Jws.detachedSignature(content.value(), t.getKey(), t.getValue());
      if (!sig.equals(old.remove(t.getKey()))) {
        changed = true;
      }
      kept.put(SIGNATURE_PREFIX + t.getKey(), Value.of(sig));
    }
    if (!old.isEmpty()) {
      changed = true;
    }
    return changed ? Optional.of(cm.with("data", kept.build())) : Optional.empty();
  }
}
