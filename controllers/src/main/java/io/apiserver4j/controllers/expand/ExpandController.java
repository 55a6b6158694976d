/*
 * Copyright The apiserver4j authors.
 * SPDX-License-Identifier: Apache-2.0
 */
package io.apiserver4j.controllers.expand;

import io.apiserver4j.admission.UserInfo;
import io.apiserver4j.apimachinery.validation.KubeValidation;
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
import io.apiserver4j.core.MapValue;
import io.apiserver4j.core.Meta;
import io.apiserver4j.core.Nested;
import io.apiserver4j.core.Value;
import java.math.BigDecimal;
import java.util.Optional;

/**
 * kube's {@code expandController} (pkg/controller/volume/expand/expand_controller.go), as user
 * {@code system:serviceaccount:kube-system:expand-controller} with events from
 * {@code volume_expand}: a Bound claim whose storage request grew beyond its status capacity,
 * on a volume bound to it, gets the {@code ExternalExpanding} event "waiting for an external
 * controller to expand this PVC" (1.36 has no in-tree expandable plugin left, so every
 * expansion is an external resizer's). With simulated storage on, {@link SimulatedResizer}
 * then does the external resizer's part.
 */
public final class ExpandController implements Controller {
  static final String COMPONENT = "volume_expand";

  private final ControllerContext context;
  private final EventRecorder events;
  private final Informer claims;
  private final Informer volumes;
  private final WorkQueue<String> queue;
  private final Optional<SimulatedResizer> resizer;
  private Workers workers;

  private ExpandController(ControllerContext context) {
    this.context = context;
    UserInfo user = ControllerContext.serviceAccount("expand-controller");
    this.events = new EventRecorder(context, user, COMPONENT);
    this.claims = context.informers().informer(new GroupResource("", "persistentvolumeclaims"));
    this.volumes = context.informers().informer(new GroupResource("", "persistentvolumes"));
    this.queue = context.newQueue("volume_expand");
    claims.addHandler(new ResourceEventHandler() {
      @Override
      public void onAdd(MapValue claim) {
        enqueue(claim);
      }

      @Override
      public void onUpdate(MapValue old, MapValue claim) {
        // a larger request needs expanding; a larger capacity may finish one
        if (storage(claim, "spec", "resources", "requests").compareTo(storage(old, "spec",
            "resources", "requests")) > 0
            || storage(claim, "status", "capacity").compareTo(storage(old, "status",
                "capacity")) > 0) {
          enqueue(claim);
        }
      }

      @Override
      public void onDelete(MapValue claim) {
        // nothing to expand
      }
    });
    this.resizer = context.simulatedStorage()
        ? Optional.of(new SimulatedResizer(context, claims, volumes))
        : Optional.empty();
  }

  /** The {@code persistentvolume-expander} controller, with the simulated resizer if on. */
  public static Controller create(ControllerContext context) {
    return new ExpandController(context);
  }

  private void enqueue(MapValue claim) {
    if ("Bound".equals(Nested.str(claim, "status", "phase"))) {
      queue.add(Pods.key(claim));
    }
  }

  @Override
  public void start() {
    workers = context.startWorkers("volume_expand", queue, 1, this::sync);
    resizer.ifPresent(SimulatedResizer::start);
  }

  @Override
  public void close() {
    resizer.ifPresent(SimulatedResizer::close);
    Workers.close(workers, queue);
  }

  /** kube's {@code syncHandler}. */
  private Outcome sync(String key) {
    int slash = key.indexOf('/');
    Optional<MapValue> claim = claims.get(key.substring(0, slash), key.substring(slash + 1));
    if (claim.isEmpty()) {
      return Outcome.FORGET;
    }
    Optional<MapValue> volume = volumes.get("", Nested.str(claim.get(), "spec",
        "volumeName"));
    if (volume.isEmpty() || !boundTo(volume.get(), claim.get())) {
      return Outcome.FORGET;
    }
    if (!needsExpansion(claim.get())) {
      return Outcome.FORGET;
    }
    events.normal(InvolvedObject.of("v1", "PersistentVolumeClaim", claim.get()),
        "ExternalExpanding", "waiting for an external controller to expand this PVC");
    return Outcome.FORGET;
  }

  /** Whether the volume's claimRef is the claim (namespace and UID, as kube checks). */
  static boolean boundTo(MapValue volume, MapValue claim) {
    MapValue ref = Nested.mapOrNull(volume, "spec", "claimRef");
    return ref != null && Nested.str(ref, "namespace").equals(Meta.metaString(claim,
        "namespace")) && Nested.str(ref, "uid").equals(Meta.metaString(claim, "uid"));
  }

  /** kube's test: the storage request is larger than the status capacity. */
  static boolean needsExpansion(MapValue claim) {
    return storage(claim, "spec", "resources", "requests").compareTo(storage(claim, "status",
        "capacity")) > 0;
  }

  /** The {@code storage} quantity of the resource list at {@code path}; zero when absent. */
  static BigDecimal storage(MapValue object, String... path) {
    MapValue list = Nested.mapOrNull(object, path);
    Value q = list == null ? null : list.getOrNull("storage");
    if (q == null) {
      return BigDecimal.ZERO;
    }
    return KubeValidation.quantity(KubeValidation.quantityString(q)).orElse(BigDecimal.ZERO);
  }
}
