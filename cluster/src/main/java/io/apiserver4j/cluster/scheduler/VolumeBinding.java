/*
 * Copyright The apiserver4j authors.
 * SPDX-License-Identifier: Apache-2.0
 */
package io.apiserver4j.cluster.scheduler;

import io.apiserver4j.admission.UserInfo;
import io.apiserver4j.controllers.internal.ControllerContext;
import io.apiserver4j.controllers.internal.Informer;
import io.apiserver4j.core.GroupResource;
import io.apiserver4j.core.GroupVersionResource;
import io.apiserver4j.core.MapValue;
import io.apiserver4j.core.Meta;
import io.apiserver4j.core.Nested;
import io.apiserver4j.core.Value;
import io.apiserver4j.core.errors.ConflictException;
import io.apiserver4j.core.errors.NotFoundException;
import java.util.ArrayList;
import java.util.List;
import java.util.Optional;

/**
 * The part of kube-scheduler's VolumeBinding plugin a simulation needs (PreBind's
 * {@code bindAPIUpdate}): before a Pod is bound to a Node, each claim it uses that is not bound
 * yet and whose StorageClass binds {@code WaitForFirstConsumer} gets the
 * {@code volume.kubernetes.io/selected-node} annotation naming that Node, which lets the
 * persistent volume binder and the provisioner bind it. Not modelled: matching static volumes
 * here (the binder does it once the node is selected), volume node affinity and capacity in
 * filtering, and PreBind waiting for the claims to be bound before the Pod is.
 */
final class VolumeBinding {
  static final String ANN_SELECTED_NODE = "volume.kubernetes.io/selected-node";
  private static final GroupVersionResource PVCS =
      new GroupVersionResource("", "v1", "persistentvolumeclaims");

  private final ControllerContext context;
  private final UserInfo user;
  private final String fieldManager;
  private final Informer claims;
  private final Informer classes;

  VolumeBinding(ControllerContext context, UserInfo user, String fieldManager) {
    this.context = context;
    this.user = user;
    this.fieldManager = fieldManager;
    this.claims = context.informers().informer(new GroupResource("",
        "persistentvolumeclaims"));
    this.classes = context.informers().informer(new GroupResource("storage.k8s.io",
        "storageclasses"));
  }

  /** The names of the claims a Pod's volumes use, ephemeral volumes' generated ones too. */
  static List<String> claimNames(MapValue pod) {
    List<String> out = new ArrayList<>();
    for (Value v : Nested.list(pod, "spec", "volumes")) {
      String claim = Nested.str(v, "persistentVolumeClaim", "claimName");
      if (!claim.isEmpty()) {
        out.add(claim);
      } else if (Nested.has(v, "ephemeral")) {
        out.add(Meta.metaString(pod, "name") + "-" + Nested.str(v, "name"));
      }
    }
    return out;
  }

  /** Selects {@code node} for the Pod's unbound WaitForFirstConsumer claims. */
  void preBind(MapValue pod, String node) {
    String namespace = Meta.metaString(pod, "namespace");
    for (String name : claimNames(pod)) {
      for (int attempt = 0; attempt < 5; attempt++) {
        Optional<MapValue> claim = attempt == 0 ? claims.get(namespace, name)
            : context.client(PVCS, user).namespace(namespace).find(name);
        if (claim.isEmpty() || !needsSelectedNode(claim.get(), node)) {
          break;
        }
        try {
          context.api().resources(PVCS).user(user).fieldManager(fieldManager)
              .namespace(namespace).update(Nested.set(claim.get(), Value.of(node),
                  "metadata", "annotations", ANN_SELECTED_NODE));
          break;
        } catch (ConflictException e) {
          // changed meanwhile: read it again
        } catch (NotFoundException e) {
          break;
        }
      }
    }
  }

  private boolean needsSelectedNode(MapValue claim, String node) {
    if (!Nested.str(claim, "spec", "volumeName").isEmpty()
        || node.equals(Meta.annotations(claim).get(ANN_SELECTED_NODE))) {
      return false;
    }
    String beta = Meta.annotations(claim).get("volume.beta.kubernetes.io/storage-class");
    String className = beta != null ? beta : Nested.str(claim, "spec", "storageClassName");
    return !className.isEmpty() && classes.get("", className)
        .map(c -> "WaitForFirstConsumer".equals(Nested.str(c, "volumeBindingMode")))
        .orElse(false);
  }
}
