/*
 * Copyright The apiserver4j authors.
 * SPDX-License-Identifier: Apache-2.0
 */
package io.apiserver4j.controllers.persistentvolume;

import static io.apiserver4j.controllers.persistentvolume.VolumeMatching.ANN_DYNAMICALLY_PROVISIONED;
import static io.apiserver4j.controllers.persistentvolume.VolumeMatching.ANN_SELECTED_NODE;
import static io.apiserver4j.controllers.persistentvolume.VolumeMatching.ANN_STORAGE_PROVISIONER;

import io.apiserver4j.admission.UserInfo;
import io.apiserver4j.controllers.internal.ControllerContext;
import io.apiserver4j.controllers.internal.ControllerContext.Outcome;
import io.apiserver4j.controllers.internal.ControllerContext.Workers;
import io.apiserver4j.controllers.internal.EventRecorder;
import io.apiserver4j.controllers.internal.Informer;
import io.apiserver4j.controllers.internal.Pods;
import io.apiserver4j.controllers.internal.ResourceEventHandler;
import io.apiserver4j.controllers.internal.WorkQueue;
import io.apiserver4j.core.MapValue;
import io.apiserver4j.core.Meta;
import io.apiserver4j.core.Nested;
import io.apiserver4j.core.Value;
import io.apiserver4j.core.errors.AlreadyExistsException;
import io.apiserver4j.core.errors.ConflictException;
import io.apiserver4j.core.errors.NotFoundException;
import java.util.Map;
import java.util.Optional;
import java.util.concurrent.ConcurrentHashMap;

/**
 * A simulated external provisioner (like the simulated kubelets: no storage exists, only the
 * API objects a real one would write), standing in for the CSI external-provisioner of every
 * StorageClass provisioner that is not an in-tree {@code kubernetes.io/} name. For a claim the
 * binder annotated with {@code volume.kubernetes.io/storage-provisioner}, unbound, whose class
 * has that provisioner (and, for {@code WaitForFirstConsumer}, once the scheduler set
 * {@code volume.kubernetes.io/selected-node}), it creates the volume an external provisioner
 * creates: {@code pvc-<claim uid>}, {@code pv.kubernetes.io/provisioned-by}, the claim's access
 * modes, volume mode and request as capacity, the class's reclaim policy (default
 * {@code Delete}) and mount options, a {@code csi} source of the provisioner, and a claimRef to
 * the claim, which the binder then binds; with {@code Provisioning} and
 * {@code ProvisioningSucceeded} events. A {@code Released} volume it provisioned with reclaim
 * policy {@code Delete} it deletes. Not modelled: the provisioner's own finalizer, topology
 * (no nodeAffinity), secrets, data sources, capacity rounding.
 *
 * <p>Runs with the binder unless {@code ControllerManager.Builder#withoutSimulatedStorage}
 * switched it off, writing as {@code system:serviceaccount:kube-system:simulated-provisioner}.
 */
final class SimulatedProvisioner {
  private final ControllerContext context;
  private final UserInfo user;
  private final Informer claims;
  private final Informer volumes;
  private final Informer classes;
  private final WorkQueue<String> queue;
  private final Map<String, EventRecorder> recorders = new ConcurrentHashMap<>();
  private Workers workers;

  SimulatedProvisioner(ControllerContext context, Informer claims, Informer volumes,
      Informer classes) {
    this.context = context;
    this.user = ControllerContext.serviceAccount("simulated-provisioner");
    this.claims = claims;
    this.volumes = volumes;
    this.classes = classes;
    this.queue = context.newQueue("simulated_provisioner");
    claims.addHandler(handler("claim:"));
    volumes.addHandler(handler("volume:"));
  }

  private ResourceEventHandler handler(String prefix) {
    return new ResourceEventHandler() {
      @Override
      public void onAdd(MapValue object) {
        queue.add(prefix + Pods.key(object));
      }

      @Override
      public void onUpdate(MapValue old, MapValue object) {
        queue.add(prefix + Pods.key(object));
      }

      @Override
      public void onDelete(MapValue object) {
        // nothing to provision or delete
      }
    };
  }

  void start() {
    workers = context.startWorkers("simulated_provisioner", queue, 1, this::process);
  }

  void close() {
    Workers.close(workers, queue);
  }

  private Outcome process(String item) {
    int colon = item.indexOf(':');
    String key = item.substring(colon + 1);
    int slash = key.indexOf('/');
    String namespace = key.substring(0, slash);
    String name = key.substring(slash + 1);
    try {
      if (item.startsWith("claim:")) {
        claims.get(namespace, name).ifPresent(this::provision);
      } else {
        volumes.get("", name).ifPresent(this::deleteReleased);
      }
      return Outcome.FORGET;
    } catch (ConflictException e) {
      return Outcome.REQUEUE;
    } catch (NotFoundException e) {
      return Outcome.FORGET;
    }
  }

  /** The class of a claim this provisioner should provision for now, if any. */
  private Optional<MapValue> provisionable(MapValue claim) {
    String provisioner = Meta.annotations(claim).getOrDefault(ANN_STORAGE_PROVISIONER, "");
    if (provisioner.isEmpty() || provisioner.startsWith("kubernetes.io/")
        || !Nested.str(claim, "spec", "volumeName").isEmpty()
        || Nested.has(claim, "metadata", "deletionTimestamp")) {
      return Optional.empty();
    }
    Optional<MapValue> storageClass = classes.get("", VolumeMatching.claimClass(claim));
    if (storageClass.isEmpty()
        || !Nested.str(storageClass.get(), "provisioner").equals(provisioner)) {
      return Optional.empty();
    }
    if ("WaitForFirstConsumer".equals(Nested.str(storageClass.get(), "volumeBindingMode"))
        && Meta.annotations(claim).getOrDefault(ANN_SELECTED_NODE, "").isEmpty()) {
      return Optional.empty();
    }
    return storageClass;
  }

  private void provision(MapValue claim) {
    Optional<MapValue> storageClass = provisionable(claim);
    String volumeName = "pvc-" + Meta.metaString(claim, "uid");
    if (storageClass.isEmpty() || volumes.get("", volumeName).isPresent()) {
      return;
    }
    String provisioner = Nested.str(storageClass.get(), "provisioner");
    EventRecorder events = recorders.computeIfAbsent(provisioner,
        p -> new EventRecorder(context, user, p));
    events.normal(PersistentVolumeController.involved(claim), "Provisioning",
        "External provisioner is provisioning volume for claim \"" + Pods.key(claim) + "\"");
    try {
      context.client(PersistentVolumeController.PVS, user)
          .create(volume(volumeName, claim, storageClass.get()));
    } catch (AlreadyExistsException e) {
      return; // provisioned by an earlier sync
    }
    events.normal(PersistentVolumeController.involved(claim), "ProvisioningSucceeded",
        "Successfully provisioned volume " + volumeName);
  }

  /** The volume an external provisioner makes for {@code claim} of {@code storageClass}. */
  static MapValue volume(String name, MapValue claim, MapValue storageClass) {
    String provisioner = Nested.str(storageClass, "provisioner");
    String mode = Nested.str(claim, "spec", "volumeMode");
    String policy = Nested.str(storageClass, "reclaimPolicy");
    MapValue.Builder spec = MapValue.builder();
    spec.put("accessModes", Nested.getOrNull(claim, "spec", "accessModes"));
    spec.put("capacity", MapValue.ofEntries("storage",
        Nested.getOrNull(claim, "spec", "resources", "requests", "storage")));
    spec.put("claimRef", PersistentVolumeController.claimReference(claim));
    spec.put("csi", MapValue.ofEntries("driver", Value.of(provisioner),
        "volumeHandle", Value.of(name)));
    spec.put("persistentVolumeReclaimPolicy", Value.of(policy.isEmpty() ? "Delete" : policy));
    spec.put("storageClassName", Value.of(Meta.metaString(storageClass, "name")));
    spec.put("volumeMode", Value.of(mode.isEmpty() ? "Filesystem" : mode));
    Value mountOptions = storageClass.getOrNull("mountOptions");
    if (mountOptions != null) {
      spec.put("mountOptions", mountOptions);
    }
    return MapValue.ofEntries("apiVersion", Value.of("v1"), "kind",
        Value.of("PersistentVolume"), "metadata", MapValue.ofEntries("name", Value.of(name),
            "annotations", MapValue.ofEntries(ANN_DYNAMICALLY_PROVISIONED,
                Value.of(provisioner))),
        "spec", spec.build());
  }

  /** The external provisioner's deletion of a released volume it provisioned. */
  private void deleteReleased(MapValue volume) {
    String provisionedBy = Meta.annotations(volume).getOrDefault(ANN_DYNAMICALLY_PROVISIONED,
        "");
    if (provisionedBy.isEmpty() || provisionedBy.startsWith("kubernetes.io/")
        || !"Released".equals(Nested.str(volume, "status", "phase"))
        || !"Delete".equals(Nested.str(volume, "spec", "persistentVolumeReclaimPolicy"))
        || Nested.has(volume, "metadata", "deletionTimestamp")) {
      return;
    }
    context.client(PersistentVolumeController.PVS, user).delete(Meta.metaString(volume,
        "name"));
  }
}
