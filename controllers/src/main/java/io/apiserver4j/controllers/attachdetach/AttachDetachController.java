/*
 * Copyright The apiserver4j authors.
 * SPDX-License-Identifier: Apache-2.0
 */
package io.apiserver4j.controllers.attachdetach;

import io.apiserver4j.admission.UserInfo;
import io.apiserver4j.apimachinery.patch.PatchType;
import io.apiserver4j.apiserver.ApiRequest;
import io.apiserver4j.controllers.internal.Controller;
import io.apiserver4j.controllers.internal.ControllerContext;
import io.apiserver4j.controllers.internal.ControllerContext.Outcome;
import io.apiserver4j.controllers.internal.ControllerContext.Workers;
import io.apiserver4j.controllers.internal.CsiVolumes;
import io.apiserver4j.controllers.internal.EventRecorder;
import io.apiserver4j.controllers.internal.EventRecorder.InvolvedObject;
import io.apiserver4j.controllers.internal.Informer;
import io.apiserver4j.controllers.internal.Pods;
import io.apiserver4j.controllers.internal.ResourceEventHandler;
import io.apiserver4j.controllers.internal.WorkQueue;
import io.apiserver4j.core.GroupResource;
import io.apiserver4j.core.GroupVersionResource;
import io.apiserver4j.core.Json;
import io.apiserver4j.core.ListValue;
import io.apiserver4j.core.MapValue;
import io.apiserver4j.core.Meta;
import io.apiserver4j.core.Nested;
import io.apiserver4j.core.Value;
import io.apiserver4j.core.errors.AlreadyExistsException;
import io.apiserver4j.core.errors.ConflictException;
import io.apiserver4j.core.errors.NotFoundException;
import java.time.Duration;
import java.time.Instant;
import java.util.ArrayList;
import java.util.HashSet;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import java.util.Set;
import java.util.TreeMap;
import java.util.concurrent.ConcurrentHashMap;

/**
 * kube's attach/detach controller (pkg/controller/volume/attachdetach) for CSI volumes, as user
 * {@code system:serviceaccount:kube-system:attachdetach-controller}, events from
 * {@code attachdetach-controller}. For every Node with kubelet's
 * {@code volumes.kubernetes.io/controller-managed-attach-detach} annotation it reconciles the
 * volumes the Node's Pods need (desired state: the attachable {@link CsiVolumes} of its Pods
 * that are not terminated) with the VolumeAttachments on it (actual state), as kube's
 * reconciler with the CSI attacher:
 * <ul>
 *   <li>attach: a {@code storage.k8s.io/v1} VolumeAttachment named as kube's
 *       {@code getAttachmentName} ({@code csi-<sha256(volumeHandle+driver+node)>}), attacher the
 *       driver, {@code source.persistentVolumeName}, {@code nodeName}; once the external
 *       attacher set {@code status.attached}, the volume is listed in the Node's
 *       {@code status.volumesAttached} ({@code kubernetes.io/csi/<driver>^<handle>}, device path
 *       empty, sorted by name here where kube's order is a map's) and each Pod using it gets
 *       kube's {@code SuccessfulAttachVolume} event;</li>
 *   <li>detach: a volume no Pod on the Node needs any more waits while the kubelet reports it in
 *       {@code status.volumesInUse} (unmounting), unless the Node is not Ready and 6 minutes
 *       ({@code maxWaitForUnmountDuration}) passed on the server clock since the detach was
 *       first wanted, or the Node has the {@code node.kubernetes.io/out-of-service} taint; then
 *       it leaves {@code volumesAttached} first and its VolumeAttachment is deleted, as kube's
 *       reconciler does. A deleted Node's volumes are detached at once.</li>
 * </ul>
 * Drivers whose CSIDriver says {@code attachRequired: false} are skipped as kube's
 * {@code skipAttach} does. Not modelled: in-tree and migrated volume plugins, inline volumes,
 * the Multi-Attach check of ReadWriteOnce volumes, and the reconciler's periodic sync of
 * attached state (the VolumeAttachments are its cache here). Beside it, unless
 * {@code ControllerManager.Builder#withoutSimulatedStorage}, runs the
 * {@link SimulatedAttacher}.
 */
public final class AttachDetachController implements Controller {
  /** kube's event source of this controller. */
  static final String COMPONENT = "attachdetach-controller";
  /** kubelet's annotation that hands attaching and detaching to this controller. */
  static final String MANAGED_ANNOTATION =
      "volumes.kubernetes.io/controller-managed-attach-detach";
  /** kube's {@code maxWaitForUnmountDuration}. */
  static final Duration MAX_WAIT_FOR_UNMOUNT = Duration.ofMinutes(6);
  static final String OUT_OF_SERVICE_TAINT = "node.kubernetes.io/out-of-service";
  static final GroupVersionResource VOLUME_ATTACHMENTS =
      new GroupVersionResource("storage.k8s.io", "v1", "volumeattachments");
  private static final GroupVersionResource NODES = new GroupVersionResource("", "v1", "nodes");

  private final ControllerContext context;
  private final UserInfo user;
  private final EventRecorder events;
  private final Informer pods;
  private final Informer nodes;
  private final Informer claims;
  private final Informer volumes;
  private final Informer drivers;
  private final Informer attachments;
  private final WorkQueue<String> queue;
  /** Per Node, the keys of its Pods that have claim volumes (the only ones that matter). */
  private final Map<String, Set<String>> podsByNode = new ConcurrentHashMap<>();
  /** Per VolumeAttachment, when its detach was first wanted while still mounted. */
  private final Map<String, Instant> detachRequested = new ConcurrentHashMap<>();
  /** Per VolumeAttachment, the unique name of its volume, for when its volume is gone. */
  private final Map<String, String> uniqueNames = new ConcurrentHashMap<>();
  private final Optional<SimulatedAttacher> attacher;
  private Workers workers;

  private AttachDetachController(ControllerContext context) {
    this.context = context;
    this.user = ControllerContext.serviceAccount("attachdetach-controller");
    this.events = new EventRecorder(context, user, COMPONENT);
    this.pods = context.informers().informer(new GroupResource("", "pods"));
    this.nodes = context.informers().informer(new GroupResource("", "nodes"));
    this.claims = context.informers().informer(new GroupResource("", "persistentvolumeclaims"));
    this.volumes = context.informers().informer(new GroupResource("", "persistentvolumes"));
    this.drivers = context.informers().informer(new GroupResource("storage.k8s.io",
        "csidrivers"));
    this.attachments = context.informers().informer(new GroupResource("storage.k8s.io",
        "volumeattachments"));
    this.queue = context.newQueue("attachdetach");
    pods.addHandler(new PodHandler());
    nodes.addHandler(handler(n -> queue.add(Meta.metaString(n, "name"))));
    attachments.addHandler(handler(a -> {
      String node = Nested.str(a, "spec", "nodeName");
      if (!node.isEmpty()) {
        queue.add(node);
      }
    }));
    claims.addHandler(handler(this::claimChanged));
    volumes.addHandler(handler(v -> queueAllNodes()));
    drivers.addHandler(handler(d -> queueAllNodes()));
    this.attacher = context.simulatedStorage()
        ? Optional.of(new SimulatedAttacher(context, attachments))
        : Optional.empty();
  }

  /** The {@code persistentvolume-attach-detach-controller}, with the simulated attacher if on. */
  public static Controller create(ControllerContext context) {
    return new AttachDetachController(context);
  }

  /** Keeps {@link #podsByNode} and queues the Nodes of Pods with claim volumes. */
  private final class PodHandler implements ResourceEventHandler {
    @Override
    public void onAdd(MapValue pod) {
      track(pod);
    }

    @Override
    public void onUpdate(MapValue old, MapValue pod) {
      String oldNode = Nested.str(old, "spec", "nodeName");
      if (!oldNode.isEmpty() && !oldNode.equals(Nested.str(pod, "spec", "nodeName"))) {
        untrack(old);
      }
      track(pod);
    }

    @Override
    public void onDelete(MapValue pod) {
      untrack(pod);
    }

    private void track(MapValue pod) {
      String node = Nested.str(pod, "spec", "nodeName");
      if (node.isEmpty() || CsiVolumes.claimNames(pod).isEmpty()) {
        return;
      }
      podsByNode.computeIfAbsent(node, n -> ConcurrentHashMap.newKeySet()).add(Pods.key(pod));
      queue.add(node);
    }

    private void untrack(MapValue pod) {
      String node = Nested.str(pod, "spec", "nodeName");
      Set<String> keys = podsByNode.get(node);
      if (keys != null && keys.remove(Pods.key(pod))) {
        queue.add(node);
      }
    }
  }

  /** kube's {@code pvcUpdate}: the Nodes of the Pods that use the claim. */
  private void claimChanged(MapValue claim) {
    String namespace = Meta.metaString(claim, "namespace");
    String name = Meta.metaString(claim, "name");
    podsByNode.forEach((node, keys) -> {
      for (String key : keys) {
        int slash = key.indexOf('/');
        if (!key.substring(0, slash).equals(namespace)) {
          continue;
        }
        Optional<MapValue> pod = pods.get(namespace, key.substring(slash + 1));
        if (pod.isPresent() && CsiVolumes.claimNames(pod.get()).contains(name)) {
          queue.add(node);
          return;
        }
      }
    });
  }

  private void queueAllNodes() {
    podsByNode.forEach((node, keys) -> {
      if (!keys.isEmpty()) {
        queue.add(node);
      }
    });
    for (MapValue a : attachments.list()) {
      queue.add(Nested.str(a, "spec", "nodeName"));
    }
  }

  @Override
  public void start() {
    workers = context.startWorkers("attachdetach", queue, 1, this::sync);
    attacher.ifPresent(SimulatedAttacher::start);
  }

  @Override
  public void close() {
    attacher.ifPresent(SimulatedAttacher::close);
    Workers.close(workers, queue);
  }

  private Outcome sync(String nodeName) {
    if (nodeName.isEmpty()) {
      return Outcome.FORGET;
    }
    try {
      reconcile(nodeName);
      return Outcome.FORGET;
    } catch (ConflictException e) {
      return Outcome.REQUEUE;
    } catch (NotFoundException e) {
      // the Node went meanwhile; its deletion queues it again
      return Outcome.FORGET;
    }
  }

  /** kube's reconciler and node status updater for one Node. */
  private void reconcile(String nodeName) {
    Optional<MapValue> node = nodes.get("", nodeName);
    if (node.isPresent() && !Meta.annotations(node.get()).containsKey(MANAGED_ANNOTATION)) {
      return; // the kubelet attaches its own volumes
    }
    // desired state of the world
    Map<String, CsiVolumes.Volume> desired = new LinkedHashMap<>();
    Map<String, List<MapValue>> usedBy = new LinkedHashMap<>();
    if (node.isPresent()) {
      for (String key : podsByNode.getOrDefault(nodeName, Set.of())) {
        int slash = key.indexOf('/');
        Optional<MapValue> pod = pods.get(key.substring(0, slash), key.substring(slash + 1));
        if (pod.isEmpty() || CsiVolumes.terminated(pod.get())) {
          continue;
        }
        CsiVolumes.attachable(pod.get(), claims, volumes, drivers).forEach((u, v) -> {
          desired.putIfAbsent(u, v);
          usedBy.computeIfAbsent(u, x -> new ArrayList<>()).add(pod.get());
        });
      }
    }
    // actual state of the world: the VolumeAttachments on the Node
    Map<String, MapValue> onNode = new LinkedHashMap<>();
    for (MapValue a : attachments.list()) {
      if (nodeName.equals(Nested.str(a, "spec", "nodeName"))
          && !Nested.str(a, "spec", "source", "persistentVolumeName").isEmpty()) {
        onNode.put(Meta.metaString(a, "name"), a);
      }
    }
    Instant now = context.clock().instant();
    Set<String> wanted = new HashSet<>();
    for (CsiVolumes.Volume v : desired.values()) {
      String name = v.attachmentName(nodeName);
      wanted.add(name);
      uniqueNames.put(name, v.uniqueName());
      detachRequested.remove(name);
      if (!onNode.containsKey(name)) {
        attach(name, v, nodeName);
      }
    }
    Set<String> inUse = new HashSet<>();
    node.ifPresent(n -> Nested.list(n, "status", "volumesInUse")
        .forEach(x -> inUse.add(Nested.str(x))));
    boolean healthy = node.isPresent() && ready(node.get());
    boolean outOfService = node.isPresent() && hasTaint(node.get(), OUT_OF_SERVICE_TAINT);
    // volumes to report attached, and attachments to delete once they are no longer reported
    Map<String, MapValue> reported = new TreeMap<>();
    List<String> toDetach = new ArrayList<>();
    for (Map.Entry<String, MapValue> e : onNode.entrySet()) {
      String name = e.getKey();
      MapValue a = e.getValue();
      if (Meta.hasMeta(a, "deletionTimestamp")) {
        continue; // detaching
      }
      Optional<String> unique = uniqueName(name, a);
      boolean attached = Nested.bool(a, "status", "attached");
      if (!wanted.contains(name)) {
        boolean mounted = node.isPresent() && unique.isPresent() && inUse.contains(unique.get());
        if (mounted && !outOfService) {
          Instant since = detachRequested.computeIfAbsent(name, k -> now);
          Instant force = since.plus(MAX_WAIT_FOR_UNMOUNT);
          if (healthy || now.isBefore(force)) {
            if (!healthy) {
              queue.addAt(nodeName, force);
            }
            unique.filter(u -> attached).ifPresent(u -> reported.put(u, attachedVolume(u)));
            continue;
          }
        }
        toDetach.add(name);
        continue;
      }
      if (attached && unique.isPresent()) {
        reported.put(unique.get(), attachedVolume(unique.get()));
      }
    }
    if (node.isPresent()) {
      Set<String> before = new HashSet<>();
      Nested.list(node.get(), "status", "volumesAttached")
          .forEach(x -> before.add(Nested.str(x, "name")));
      updateNodeStatus(node.get(), List.copyOf(reported.values()));
      for (String u : reported.keySet()) {
        if (!before.contains(u) && desired.containsKey(u)) {
          attachSucceeded(desired.get(u), usedBy.getOrDefault(u, List.of()));
        }
      }
    }
    for (String name : toDetach) {
      detach(name);
    }
  }

  private Optional<String> uniqueName(String attachment, MapValue a) {
    String known = uniqueNames.get(attachment);
    if (known != null) {
      return Optional.of(known);
    }
    Optional<MapValue> pv = volumes.get("", Nested.str(a, "spec", "source",
        "persistentVolumeName"));
    if (pv.isEmpty() || !Nested.has(pv.get(), "spec", "csi")) {
      return Optional.empty();
    }
    CsiVolumes.Volume v = new CsiVolumes.Volume(Meta.metaString(pv.get(), "name"),
        Nested.str(pv.get(), "spec", "csi", "driver"),
        Nested.str(pv.get(), "spec", "csi", "volumeHandle"));
    uniqueNames.put(attachment, v.uniqueName());
    return Optional.of(v.uniqueName());
  }

  /** kube's CSI attacher's {@code Attach}: the VolumeAttachment the external attacher acts on. */
  private void attach(String name, CsiVolumes.Volume v, String nodeName) {
    MapValue attachment = MapValue.ofEntries("apiVersion", Value.of("storage.k8s.io/v1"),
        "kind", Value.of("VolumeAttachment"),
        "metadata", MapValue.ofEntries("name", Value.of(name)),
        "spec", MapValue.ofEntries("attacher", Value.of(v.driver()),
            "source", MapValue.ofEntries("persistentVolumeName", Value.of(v.persistentVolume())),
            "nodeName", Value.of(nodeName)));
    try {
      context.client(VOLUME_ATTACHMENTS, user).create(attachment);
    } catch (AlreadyExistsException e) {
      // kube's attacher takes an existing attachment as its own
    }
  }

  /** kube's CSI attacher's {@code Detach}: deletes the VolumeAttachment. */
  private void detach(String name) {
    try {
      context.client(VOLUME_ATTACHMENTS, user).delete(name);
    } catch (NotFoundException e) {
      // gone already
    }
    detachRequested.remove(name);
    uniqueNames.remove(name);
  }

  private void attachSucceeded(CsiVolumes.Volume v, List<MapValue> podsUsing) {
    // kube's GenerateMsg with an empty suffix keeps the space before it
    String message = "AttachVolume.Attach succeeded for volume \"" + v.persistentVolume()
        + "\" ";
    for (MapValue pod : podsUsing) {
      events.normal(InvolvedObject.of("v1", "Pod", pod), "SuccessfulAttachVolume", message);
    }
  }

  private static MapValue attachedVolume(String uniqueName) {
    return MapValue.ofEntries("name", Value.of(uniqueName), "devicePath", Value.of(""));
  }

  /** kube's node status updater: {@code status.volumesAttached} when it changed. */
  private void updateNodeStatus(MapValue node, List<MapValue> attached) {
    List<Value> current = Nested.list(node, "status", "volumesAttached");
    if (current.equals(attached)) {
      return;
    }
    Value list = attached.isEmpty() ? Value.nullValue() : ListValue.of(List.copyOf(attached));
    String patch = Json.write(MapValue.ofEntries("status",
        MapValue.ofEntries("volumesAttached", list)));
    context.api().handle(ApiRequest.builder(ApiRequest.Verb.PATCH, NODES)
        .name(Meta.metaString(node, "name")).subresource("status")
        .patch(PatchType.STRATEGIC_MERGE_PATCH, patch)
        .user(user).fieldManager(ControllerContext.FIELD_MANAGER).build()).orThrow();
  }

  private static boolean ready(MapValue node) {
    for (Value c : Nested.list(node, "status", "conditions")) {
      if ("Ready".equals(Nested.str(c, "type"))) {
        return "True".equals(Nested.str(c, "status"));
      }
    }
    return false;
  }

  private static boolean hasTaint(MapValue node, String key) {
    for (Value t : Nested.list(node, "spec", "taints")) {
      if (key.equals(Nested.str(t, "key"))) {
        return true;
      }
    }
    return false;
  }

  private static ResourceEventHandler handler(java.util.function.Consumer<MapValue> any) {
    return ResourceEventHandler.of(any, any);
  }
}
