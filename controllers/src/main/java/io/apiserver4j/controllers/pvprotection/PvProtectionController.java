/*
 * Copyright The apiserver4j authors.
 * SPDX-License-Identifier: Apache-2.0
 */
package io.apiserver4j.controllers.pvprotection;

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
import io.apiserver4j.core.errors.ConflictException;
import io.apiserver4j.core.errors.NotFoundException;
import java.util.ArrayList;
import java.util.List;
import java.util.Optional;

/**
 * kube's pv-protection {@code Controller}
 * (pkg/controller/volume/pvprotection/pv_protection_controller.go), as user
 * {@code system:serviceaccount:kube-system:pv-protection-controller}, one worker as kube runs
 * it: a volume being deleted loses {@code kubernetes.io/pv-protection} once it is not
 * {@code Bound} (kube's {@code isBeingUsed} reads the binder's phase); a volume not being
 * deleted that lacks the finalizer (made before the StorageObjectInUseProtection admission
 * plugin was on) gets it.
 */
public final class PvProtectionController implements Controller {
  /** kube's {@code volumeutil.PVProtectionFinalizer}. */
  static final String FINALIZER = "kubernetes.io/pv-protection";
  private static final GroupVersionResource PVS =
      new GroupVersionResource("", "v1", "persistentvolumes");

  private final ControllerContext context;
  private final UserInfo user;
  private final Informer volumes;
  private final WorkQueue<String> queue;
  private Workers workers;

  private PvProtectionController(ControllerContext context) {
    this.context = context;
    this.user = ControllerContext.serviceAccount("pv-protection-controller");
    this.volumes = context.informers().informer(new GroupResource("", "persistentvolumes"));
    this.queue = context.newQueue("pvprotection");
    volumes.addHandler(new ResourceEventHandler() {
      @Override
      public void onAdd(MapValue volume) {
        enqueue(volume);
      }

      @Override
      public void onUpdate(MapValue old, MapValue volume) {
        enqueue(volume);
      }

      @Override
      public void onDelete(MapValue volume) {
        // gone: nothing to protect
      }
    });
  }

  /** The {@code pv-protection} controller. */
  public static Controller create(ControllerContext context) {
    return new PvProtectionController(context);
  }

  /** kube's {@code pvAddedUpdated}: only volumes that need a finalizer change are queued. */
  private void enqueue(MapValue volume) {
    if (isDeletionCandidate(volume) || needToAddFinalizer(volume)) {
      queue.add(Meta.metaString(volume, "name"));
    }
  }

  @Override
  public void start() {
    workers = context.startWorkers("pvprotection", queue, 1, this::processPV);
  }

  @Override
  public void close() {
    Workers.close(workers, queue);
  }

  static boolean isDeletionCandidate(MapValue volume) {
    return Nested.has(volume, "metadata", "deletionTimestamp")
        && Meta.finalizers(volume).contains(FINALIZER);
  }

  static boolean needToAddFinalizer(MapValue volume) {
    return !Nested.has(volume, "metadata", "deletionTimestamp")
        && !Meta.finalizers(volume).contains(FINALIZER);
  }

  /** kube's {@code isBeingUsed}: the binder says the volume is Bound. */
  static boolean isBeingUsed(MapValue volume) {
    return "Bound".equals(Nested.str(volume, "status", "phase"));
  }

  /** kube's {@code processPV}. */
  private Outcome processPV(String name) {
    Optional<MapValue> cached = volumes.get("", name);
    if (cached.isEmpty()) {
      return Outcome.FORGET;
    }
    MapValue volume = cached.get();
    List<String> finalizers = new ArrayList<>(Meta.finalizers(volume));
    try {
      if (isDeletionCandidate(volume) && !isBeingUsed(volume)) {
        finalizers.remove(FINALIZER);
        context.client(PVS, user).update(Meta.withFinalizers(volume, finalizers));
      } else if (needToAddFinalizer(volume)) {
        finalizers.add(FINALIZER);
        context.client(PVS, user).update(Meta.withFinalizers(volume, finalizers));
      }
      return Outcome.FORGET;
    } catch (ConflictException e) {
      return Outcome.REQUEUE;
    } catch (NotFoundException e) {
      return Outcome.FORGET;
    }
  }
}
