/*
 * Copyright The apiserver4j authors.
 * SPDX-License-Identifier: Apache-2.0
 */
package io.apiserver4j.controllers.attachdetach;

import io.apiserver4j.admission.UserInfo;
import io.apiserver4j.apimachinery.patch.PatchType;
import io.apiserver4j.apiserver.ApiRequest;
import io.apiserver4j.controllers.internal.ControllerContext;
import io.apiserver4j.controllers.internal.ControllerContext.Outcome;
import io.apiserver4j.controllers.internal.ControllerContext.Workers;
import io.apiserver4j.controllers.internal.Informer;
import io.apiserver4j.controllers.internal.ResourceEventHandler;
import io.apiserver4j.controllers.internal.WorkQueue;
import io.apiserver4j.core.Json;
import io.apiserver4j.core.ListValue;
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
 * A simulated CSI external-attacher (like the simulated provisioner: no storage exists, only the
 * API objects a real one writes), for every driver: a VolumeAttachment gets the attacher's
 * finalizer {@code external-attacher/<driver with every character but letters, digits and
 * '-' replaced by '-'>} and then {@code status.attached: true}; a deleted one loses the
 * finalizer (detached). Not modelled: the attacher's finalizer on the PersistentVolume,
 * attachment metadata, attach and detach errors, the driver's own topology.
 *
 * <p>Runs with the attach/detach controller unless
 * {@code ControllerManager.Builder#withoutSimulatedStorage} switched it off, writing as
 * {@code system:serviceaccount:kube-system:simulated-attacher}.
 */
final class SimulatedAttacher {
  private final ControllerContext context;
  private final UserInfo user;
  private final Informer attachments;
  private final WorkQueue<String> queue;
  private Workers workers;

  SimulatedAttacher(ControllerContext context, Informer attachments) {
    this.context = context;
    this.user = ControllerContext.serviceAccount("simulated-attacher");
    this.attachments = attachments;
    this.queue = context.newQueue("simulated_attacher");
    attachments.addHandler(ResourceEventHandler.enqueueingNames(queue));
  }

  void start() {
    workers = context.startWorkers("simulated_attacher", queue, 1, this::process);
  }

  void close() {
    Workers.close(workers, queue);
  }

  /** The external-attacher's {@code GetFinalizerName}. */
  static String finalizer(String driver) {
    String name = driver.replaceAll("[^a-zA-Z0-9-]", "-");
    if (name.endsWith("-")) {
      name = name + "X"; // a finalizer's name may not end with '-'
    }
    return "external-attacher/" + name;
  }

  private Outcome process(String name) {
    Optional<MapValue> found = attachments.get("", name);
    if (found.isEmpty()) {
      return Outcome.FORGET;
    }
    MapValue a = found.get();
    String finalizer = finalizer(Nested.str(a, "spec", "attacher"));
    List<Value> finalizers = Nested.list(a, "metadata", "finalizers");
    boolean has = finalizers.stream().anyMatch(f -> finalizer.equals(Nested.str(f)));
    try {
      if (Meta.hasMeta(a, "deletionTimestamp")) {
        if (has) {
          List<Value> rest = new ArrayList<>(finalizers);
          rest.removeIf(f -> finalizer.equals(Nested.str(f)));
          setFinalizers(a, rest);
        }
        return Outcome.FORGET;
      }
      if (Nested.bool(a, "status", "attached")) {
        return Outcome.FORGET;
      }
      if (!has) {
        List<Value> more = new ArrayList<>(finalizers);
        more.add(Value.of(finalizer));
        // the next sync, on the attachment with its finalizer, marks it attached
        setFinalizers(a, more);
        return Outcome.FORGET;
      }
      context.api().handle(ApiRequest.builder(ApiRequest.Verb.PATCH,
              AttachDetachController.VOLUME_ATTACHMENTS).name(name).subresource("status")
          .patch(PatchType.MERGE_PATCH, Json.write(MapValue.ofEntries("status",
              MapValue.ofEntries("attached", Value.of(true)))))
          .user(user).fieldManager(ControllerContext.FIELD_MANAGER).build()).orThrow();
      return Outcome.FORGET;
    } catch (ConflictException e) {
      return Outcome.REQUEUE;
    } catch (NotFoundException e) {
      return Outcome.FORGET;
    }
  }

  private void setFinalizers(MapValue a, List<Value> finalizers) {
    MapValue patch = MapValue.ofEntries("metadata", MapValue.ofEntries(
        "resourceVersion", Value.of(Meta.metaString(a, "resourceVersion")),
        "finalizers", finalizers.isEmpty() ? Value.nullValue() : ListValue.of(finalizers)));
    context.client(AttachDetachController.VOLUME_ATTACHMENTS, user)
        .patch(Meta.metaString(a, "name"), PatchType.MERGE_PATCH, Json.write(patch));
  }
}
