/*
 * Copyright The apiserver4j authors.
 * SPDX-License-Identifier: Apache-2.0
 */
package io.apiserver4j.controllers.volume.ephemeral;

import io.apiserver4j.admission.UserInfo;
import io.apiserver4j.controllers.internal.Controller;
import io.apiserver4j.controllers.internal.ControllerContext;
import io.apiserver4j.controllers.internal.ControllerContext.Outcome;
import io.apiserver4j.controllers.internal.ControllerContext.Workers;
import io.apiserver4j.controllers.internal.EventRecorder;
import io.apiserver4j.controllers.internal.EventRecorder.InvolvedObject;
import io.apiserver4j.controllers.internal.Informer;
import io.apiserver4j.controllers.internal.Pods;
import io.apiserver4j.controllers.internal.ResourceEventHandler;
import io.apiserver4j.controllers.internal.WorkQueue;
import io.apiserver4j.core.GroupResource;
import io.apiserver4j.core.GroupVersionResource;
import io.apiserver4j.core.ListValue;
import io.apiserver4j.core.MapValue;
import io.apiserver4j.core.Meta;
import io.apiserver4j.core.Nested;
import io.apiserver4j.core.Value;
import io.apiserver4j.core.errors.StatusException;
import java.util.Optional;

/**
 * kube's ephemeral volume controller (pkg/controller/volume/ephemeral/controller.go), as user
 * {@code system:serviceaccount:kube-system:ephemeral-volume-controller}: for every generic
 * ephemeral volume of a Pod not being deleted it creates the claim
 * {@code <pod>-<volume>} from the volume's template (labels, annotations and spec), controlled
 * by the Pod with {@code blockOwnerDeletion}, so that the garbage collector deletes it with the
 * Pod. A claim of that name the Pod does not control is left alone: the Pod's sync fails with
 * kube's {@code FailedBinding} Warning ("ephemeral volume v: PVC ns/p-v was not created for pod
 * ns/p (pod is not owner)") and is retried. A deleted claim that a Pod's volume needs is
 * created again. Pod updates are ignored, as in kube: a Pod's volumes cannot change.
 */
public final class EphemeralVolumeController implements Controller {
  /** kube's event source component. */
  static final String COMPONENT = "ephemeral_volume";
  /** kube's {@code events.FailedBinding}. */
  static final String FAILED_BINDING = "FailedBinding";
  private static final GroupVersionResource PVCS =
      new GroupVersionResource("", "v1", "persistentvolumeclaims");

  private final ControllerContext context;
  private final UserInfo user;
  private final Informer pods;
  private final Informer claims;
  private final EventRecorder events;
  private final WorkQueue<String> queue;
  private Workers workers;

  private EphemeralVolumeController(ControllerContext context) {
    this.context = context;
    this.user = ControllerContext.serviceAccount("ephemeral-volume-controller");
    this.events = new EventRecorder(context, user, COMPONENT);
    this.queue = context.newQueue("ephemeral_volume");
    this.pods = context.informers().informer(new GroupResource("", "pods"));
    this.claims = context.informers().informer(new GroupResource("", "persistentvolumeclaims"));
    pods.addHandler(new ResourceEventHandler() {
      @Override
      public void onAdd(MapValue pod) {
        enqueuePod(pod);
      }

      @Override
      public void onUpdate(MapValue old, MapValue pod) {
        // a Pod's volumes are immutable: nothing to copy into its claims
      }

      @Override
      public void onDelete(MapValue pod) {
        // its claims go with it through their owner reference
      }
    });
    claims.addHandler(new ResourceEventHandler() {
      @Override
      public void onAdd(MapValue claim) {}

      @Override
      public void onUpdate(MapValue old, MapValue claim) {}

      @Override
      public void onDelete(MapValue claim) {
        onClaimDelete(claim);
      }
    });
  }

  /** The {@code ephemeral-volume} controller. */
  public static Controller create(ControllerContext context) {
    return new EphemeralVolumeController(context);
  }

  @Override
  public void start() {
    workers = context.startWorkers("ephemeral_volume", queue,
        context.concurrentSyncs("ephemeralvolume"), this::sync);
  }

  @Override
  public void close() {
    Workers.close(workers, queue);
  }

  private void enqueuePod(MapValue pod) {
    if (!Meta.metaString(pod, "deletionTimestamp").isEmpty()) {
      return;
    }
    if (hasEphemeralVolume(pod)) {
      queue.add(Pods.key(pod));
    }
  }

  /** A deleted claim is made again for the Pods whose volumes name it (kube's PodPVC index). */
  private void onClaimDelete(MapValue claim) {
    String namespace = Meta.metaString(claim, "namespace");
    String name = Meta.metaString(claim, "name");
    for (MapValue pod : pods.list(namespace)) {
      for (Value v : Nested.list(pod, "spec", "volumes")) {
        if (v instanceof MapValue vol && name.equals(claimNameOf(pod, vol))) {
          enqueuePod(pod);
        }
      }
    }
  }

  /** The claim a volume of {@code pod} uses, or null for a volume without one. */
  private static String claimNameOf(MapValue pod, MapValue volume) {
    if (Nested.has(volume, "ephemeral")) {
      return claimName(pod, volume);
    }
    String c = Nested.str(volume, "persistentVolumeClaim", "claimName");
    return c.isEmpty() ? null : c;
  }

  static boolean hasEphemeralVolume(MapValue pod) {
    for (Value v : Nested.list(pod, "spec", "volumes")) {
      if (v instanceof MapValue vol && Nested.has(vol, "ephemeral")) {
        return true;
      }
    }
    return false;
  }

  /** component-helpers' {@code ephemeral.VolumeClaimName}: {@code <pod>-<volume>}. */
  static String claimName(MapValue pod, MapValue volume) {
    return Meta.metaString(pod, "name") + "-" + Nested.str(volume, "name");
  }

  /**
   * component-helpers' {@code ephemeral.VolumeIsForPod}: empty when {@code claim} is in the
   * Pod's namespace and controlled by it, else kube's error text.
   */
  static Optional<String> volumeIsForPod(MapValue pod, MapValue claim) {
    String podUid = Meta.metaString(pod, "uid");
    boolean controlled = false;
    for (Value r : Nested.list(claim, "metadata", "ownerReferences")) {
      if (Nested.bool(r, "controller")) {
        // metav1.GetControllerOf takes the first controller reference
        controlled = Nested.str(r, "uid").equals(podUid);
        break;
      }
    }
    if (!Meta.metaString(claim, "namespace").equals(Meta.metaString(pod, "namespace"))
        || !controlled) {
      return Optional.of("PVC " + Meta.metaString(claim, "namespace") + "/"
          + Meta.metaString(claim, "name") + " was not created for pod "
          + Meta.metaString(pod, "namespace") + "/" + Meta.metaString(pod, "name")
          + " (pod is not owner)");
    }
    return Optional.empty();
  }

  /**
   * The claim kube creates for {@code volume} of {@code pod}: named {@code <pod>-<volume>},
   * owned by the Pod (controller, blockOwnerDeletion), with the template's labels,
   * annotations and spec.
   */
  static MapValue claimFor(MapValue pod, MapValue volume) {
    MapValue template = Nested.map(volume, "ephemeral", "volumeClaimTemplate");
    MapValue.Builder meta = MapValue.builder()
        .put("name", Value.of(claimName(pod, volume)))
        .put("namespace", Value.of(Meta.metaString(pod, "namespace")));
    MapValue labels = Nested.mapOrNull(template, "metadata", "labels");
    if (labels != null && !labels.isEmpty()) {
      meta.put("labels", labels);
    }
    MapValue annotations = Nested.mapOrNull(template, "metadata", "annotations");
    if (annotations != null && !annotations.isEmpty()) {
      meta.put("annotations", annotations);
    }
    meta.put("ownerReferences", ListValue.of(java.util.List.of(MapValue.builder()
        .put("apiVersion", Value.of("v1"))
        .put("kind", Value.of("Pod"))
        .put("name", Value.of(Meta.metaString(pod, "name")))
        .put("uid", Value.of(Meta.metaString(pod, "uid")))
        .put("controller", Value.of(true))
        .put("blockOwnerDeletion", Value.of(true))
        .build())));
    return MapValue.builder()
        .put("apiVersion", Value.of("v1"))
        .put("kind", Value.of("PersistentVolumeClaim"))
        .put("metadata", meta.build())
        .put("spec", Nested.map(template, "spec"))
        .build();
  }

  /** kube's {@code syncHandler}. */
  private Outcome sync(String key) {
    int slash = key.indexOf('/');
    String namespace = key.substring(0, slash);
    Optional<MapValue> found = pods.get(namespace, key.substring(slash + 1));
    if (found.isEmpty()) {
      return Outcome.FORGET;
    }
    MapValue pod = found.get();
    if (!Meta.metaString(pod, "deletionTimestamp").isEmpty()) {
      return Outcome.FORGET;
    }
    for (Value v : Nested.list(pod, "spec", "volumes")) {
      if (!(v instanceof MapValue vol) || !Nested.has(vol, "ephemeral")) {
        continue;
      }
      Optional<String> error = handleVolume(pod, vol);
      if (error.isPresent()) {
        events.warning(InvolvedObject.of("v1", "Pod", pod), FAILED_BINDING,
            "ephemeral volume " + Nested.str(vol, "name") + ": " + error.get());
        return Outcome.REQUEUE;
      }
    }
    return Outcome.FORGET;
  }

  /** kube's {@code handleVolume}: empty when the claim exists for the Pod or was created. */
  private Optional<String> handleVolume(MapValue pod, MapValue volume) {
    String name = claimName(pod, volume);
    Optional<MapValue> existing = claims.get(Meta.metaString(pod, "namespace"), name);
    if (existing.isPresent()) {
      return volumeIsForPod(pod, existing.get());
    }
    try {
      context.client(PVCS, user).namespace(Meta.metaString(pod, "namespace"))
          .create(claimFor(pod, volume));
    } catch (StatusException e) {
      return Optional.of("create PVC " + name + ": " + e.getMessage());
    }
    return Optional.empty();
  }
}
