/*
 * Copyright The apiserver4j authors.
 * SPDX-License-Identifier: Apache-2.0
 */
package io.apiserver4j.controllers.expand;

import io.apiserver4j.admission.UserInfo;
import io.apiserver4j.apiserver.ApiRequest;
import io.apiserver4j.apiserver.UpdateOptions;
import io.apiserver4j.controllers.internal.ControllerContext;
import io.apiserver4j.controllers.internal.ControllerContext.Outcome;
import io.apiserver4j.controllers.internal.ControllerContext.Workers;
import io.apiserver4j.controllers.internal.EventRecorder;
import io.apiserver4j.controllers.internal.EventRecorder.InvolvedObject;
import io.apiserver4j.controllers.internal.Informer;
import io.apiserver4j.controllers.internal.Pods;
import io.apiserver4j.controllers.internal.ResourceEventHandler;
import io.apiserver4j.controllers.internal.WorkQueue;
import io.apiserver4j.core.GroupVersionResource;
import io.apiserver4j.core.MapValue;
import io.apiserver4j.core.Meta;
import io.apiserver4j.core.Nested;
import io.apiserver4j.core.Value;
import io.apiserver4j.core.ListValue;
import io.apiserver4j.core.errors.ConflictException;
import io.apiserver4j.core.errors.NotFoundException;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import java.util.concurrent.ConcurrentHashMap;

/**
 * A simulated CSI external-resizer (no storage exists, only the API objects a real one writes),
 * for volumes with a {@code csi} source (the simulated provisioner's among them): a Bound claim
 * whose storage request exceeds its status capacity is marked in progress (a True
 * {@code Resizing} condition, {@code status.allocatedResources} the new size,
 * {@code allocatedResourceStatuses.storage: ControllerResizeInProgress}, a {@code Resizing}
 * event), the volume's capacity is set to the new size, and the expansion finished as for a
 * driver that needs no node-side expansion: the claim's capacity is the new size, the resize
 * conditions and the allocated resource status are removed, and a
 * {@code VolumeResizeSuccessful} event is written. The kubelet's file-system expansion
 * ({@code FileSystemResizePending}, {@code NodeResizePending}) is not modelled. Events come from
 * {@code external-resizer <driver>}; writes are made as
 * {@code system:serviceaccount:kube-system:simulated-resizer}.
 */
final class SimulatedResizer {
  private static final GroupVersionResource PVS =
      new GroupVersionResource("", "v1", "persistentvolumes");
  private static final GroupVersionResource PVCS =
      new GroupVersionResource("", "v1", "persistentvolumeclaims");

  private final ControllerContext context;
  private final UserInfo user;
  private final Informer claims;
  private final Informer volumes;
  private final WorkQueue<String> queue;
  private final Map<String, EventRecorder> recorders = new ConcurrentHashMap<>();
  private Workers workers;

  SimulatedResizer(ControllerContext context, Informer claims, Informer volumes) {
    this.context = context;
    this.user = ControllerContext.serviceAccount("simulated-resizer");
    this.claims = claims;
    this.volumes = volumes;
    this.queue = context.newQueue("simulated_resizer");
    claims.addHandler(new ResourceEventHandler() {
      @Override
      public void onAdd(MapValue claim) {
        queue.add(Pods.key(claim));
      }

      @Override
      public void onUpdate(MapValue old, MapValue claim) {
        queue.add(Pods.key(claim));
      }

      @Override
      public void onDelete(MapValue claim) {
        // nothing to resize
      }
    });
  }

  void start() {
    workers = context.startWorkers("simulated_resizer", queue, 1, this::sync);
  }

  void close() {
    Workers.close(workers, queue);
  }

  private Outcome sync(String key) {
    int slash = key.indexOf('/');
    Optional<MapValue> cached = claims.get(key.substring(0, slash), key.substring(slash + 1));
    if (cached.isEmpty() || !"Bound".equals(Nested.str(cached.get(), "status", "phase"))
        || !ExpandController.needsExpansion(cached.get())) {
      return Outcome.FORGET;
    }
    MapValue claim = cached.get();
    Optional<MapValue> volume = volumes.get("", Nested.str(claim, "spec", "volumeName"));
    if (volume.isEmpty() || !ExpandController.boundTo(volume.get(), claim)) {
      return Outcome.FORGET;
    }
    String driver = Nested.str(volume.get(), "spec", "csi", "driver");
    if (driver.isEmpty()) {
      return Outcome.FORGET;
    }
    try {
      resize(claim, volume.get(), driver);
      return Outcome.FORGET;
    } catch (ConflictException e) {
      return Outcome.REQUEUE;
    } catch (NotFoundException e) {
      return Outcome.FORGET;
    }
  }

  private void resize(MapValue claim, MapValue volume, String driver) {
    Value newSize = Nested.getOrNull(claim, "spec", "resources", "requests", "storage");
    EventRecorder events = recorders.computeIfAbsent(driver,
        d -> new EventRecorder(context, user, "external-resizer " + d));
    String volumeName = Meta.metaString(volume, "name");
    // markControllerResizeInProgress
    MapValue status = Nested.map(claim, "status");
    MapValue resizing = MapValue.ofEntries("type", Value.of("Resizing"),
        "status", Value.of("True"),
        "lastTransitionTime", Value.of(Meta.formatTime(context.clock().instant())));
    List<Value> conditions = new ArrayList<>(withoutResizeConditions(status));
    conditions.add(resizing);
    status = status.with("conditions", ListValue.of(conditions))
        .with("allocatedResources", MapValue.ofEntries("storage", newSize))
        .with("allocatedResourceStatuses", Nested.map(status, "allocatedResourceStatuses")
            .with("storage", Value.of("ControllerResizeInProgress")));
    MapValue inProgress = updateStatus(claim.with("status", status));
    events.normal(involved(inProgress), "Resizing",
        "External resizer is resizing volume " + volumeName);
    // the volume itself (simulated) and its capacity
    context.client(PVS, user).update(Nested.set(volume, newSize, "spec", "capacity",
        "storage"));
    // markOverallExpansionAsFinished: no node-side expansion in the simulation
    MapValue done = Nested.map(inProgress, "status");
    List<Value> rest = withoutResizeConditions(done);
    done = rest.isEmpty() ? done.without("conditions")
        : done.with("conditions", ListValue.of(rest));
    done = done.with("capacity", Nested.map(done, "capacity").with("storage", newSize));
    MapValue statuses = Nested.map(done, "allocatedResourceStatuses").without("storage");
    done = statuses.isEmpty() ? done.without("allocatedResourceStatuses")
        : done.with("allocatedResourceStatuses", statuses);
    MapValue finished = updateStatus(inProgress.with("status", done));
    events.normal(involved(finished), "VolumeResizeSuccessful", "Resize volume succeeded");
  }

  /** The claim's conditions other than {@code Resizing} and {@code FileSystemResizePending}. */
  private static List<Value> withoutResizeConditions(MapValue status) {
    List<Value> out = new ArrayList<>();
    for (Value c : Nested.list(status, "conditions")) {
      String type = Nested.str(c, "type");
      if (!type.equals("Resizing") && !type.equals("FileSystemResizePending")) {
        out.add(c);
      }
    }
    return out;
  }

  private MapValue updateStatus(MapValue claim) {
    return context.api().handle(ApiRequest.builder(ApiRequest.Verb.UPDATE, PVCS)
        .namespace(Meta.metaString(claim, "namespace")).name(Meta.metaString(claim, "name"))
        .subresource("status").options(UpdateOptions.defaults())
        .fieldManager(ControllerContext.FIELD_MANAGER).user(user).body(claim).build())
        .orThrow();
  }

  private static InvolvedObject involved(MapValue claim) {
    return InvolvedObject.of("v1", "PersistentVolumeClaim", claim);
  }
}
