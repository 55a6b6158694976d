/*
 * Copyright The apiserver4j authors.
 * SPDX-License-Identifier: Apache-2.0
 */
package io.apiserver4j.controllers.persistentvolume;

import static io.apiserver4j.controllers.persistentvolume.VolumeMatching.ANN_BETA_STORAGE_PROVISIONER;
import static io.apiserver4j.controllers.persistentvolume.VolumeMatching.ANN_BIND_COMPLETED;
import static io.apiserver4j.controllers.persistentvolume.VolumeMatching.ANN_BOUND_BY_CONTROLLER;
import static io.apiserver4j.controllers.persistentvolume.VolumeMatching.ANN_DYNAMICALLY_PROVISIONED;
import static io.apiserver4j.controllers.persistentvolume.VolumeMatching.ANN_SELECTED_NODE;
import static io.apiserver4j.controllers.persistentvolume.VolumeMatching.ANN_STORAGE_PROVISIONER;

import io.apiserver4j.admission.UserInfo;
import io.apiserver4j.apiserver.ApiRequest;
import io.apiserver4j.apiserver.UpdateOptions;
import io.apiserver4j.controllers.internal.Controller;
import io.apiserver4j.controllers.internal.ControllerContext;
import io.apiserver4j.controllers.internal.ControllerContext.Outcome;
import io.apiserver4j.controllers.internal.ControllerContext.Workers;
import io.apiserver4j.controllers.internal.EventRecorder;
import io.apiserver4j.controllers.internal.EventRecorder.InvolvedObject;
import io.apiserver4j.controllers.internal.Informer;
import io.apiserver4j.controllers.internal.Pods;
import io.apiserver4j.controllers.internal.ResourceEventHandler;
import io.apiserver4j.controllers.internal.SyncError;
import io.apiserver4j.controllers.internal.WorkQueue;
import io.apiserver4j.core.GroupResource;
import io.apiserver4j.core.GroupVersionResource;
import io.apiserver4j.core.MapValue;
import io.apiserver4j.core.Meta;
import io.apiserver4j.core.Nested;
import io.apiserver4j.core.Value;
import io.apiserver4j.core.errors.ConflictException;
import io.apiserver4j.core.errors.NotFoundException;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.Optional;

/**
 * kube's {@code PersistentVolumeController} (pkg/controller/volume/persistentvolume,
 * pv_controller.go and pv_controller_base.go), as user
 * {@code system:serviceaccount:kube-system:persistent-volume-binder}, with events from
 * {@code persistentvolume-controller}. A claim queue and a volume queue, one worker each as in
 * kube, and kube's 15 s resync ({@code --pvclaimbinder-sync-period}) on the server clock:
 * <ul>
 *   <li>an unbound claim gets the best volume of {@link VolumeMatching} (a pre-bound one, or
 *       the smallest fitting Available one), both bound with kube's annotations
 *       ({@code pv.kubernetes.io/bind-completed}, {@code pv.kubernetes.io/bound-by-controller})
 *       and phases; with no match and a class, provisioning is asked of the class's external
 *       provisioner ({@code volume.kubernetes.io/storage-provisioner} and the
 *       {@code ExternalProvisioning} event), for a WaitForFirstConsumer class only once the
 *       scheduler set {@code volume.kubernetes.io/selected-node} (before that the
 *       {@code WaitForFirstConsumer} / {@code WaitForPodScheduled} event);</li>
 *   <li>a bound claim that lost its volume is {@code Lost}; a volume whose claim went is
 *       {@code Released} and reclaimed: {@code Retain} keeps it, {@code Delete} leaves an
 *       externally provisioned volume to its provisioner and otherwise deletes a hostPath
 *       volume under {@code /tmp/} as kube's hostPath deleter does, or fails the volume with
 *       kube's message; {@code Recycle} fails the volume (no recycler runs here).</li>
 * </ul>
 * Beyond kube, a StorageClass that appears queues the claims of its name, and a volume that
 * becomes Available the unbound claims, at once instead of at the next resync. Static volumes of a WaitForFirstConsumer class, which kube's scheduler binds,
 * are bound here once the claim has its selected node.
 */
public final class PersistentVolumeController implements Controller {
  /** kube's event source of this controller. */
  static final String COMPONENT = "persistentvolume-controller";
  private static final Duration RESYNC = Duration.ofSeconds(15);
  static final GroupVersionResource PVS = new GroupVersionResource("", "v1", "persistentvolumes");
  static final GroupVersionResource PVCS =
      new GroupVersionResource("", "v1", "persistentvolumeclaims");

  private final ControllerContext context;
  private final UserInfo user;
  private final EventRecorder events;
  private final Informer volumes;
  private final Informer claims;
  private final Informer classes;
  private final Informer pods;
  private final WorkQueue<String> volumeQueue;
  private final WorkQueue<String> claimQueue;
  private final Optional<SimulatedProvisioner> provisioner;
  private Workers volumeWorkers;
  private Workers claimWorkers;
  private volatile boolean closed;

  private PersistentVolumeController(ControllerContext context) {
    this.context = context;
    this.user = ControllerContext.serviceAccount("persistent-volume-binder");
    this.events = new EventRecorder(context, user, COMPONENT);
    this.volumes = context.informers().informer(new GroupResource("", "persistentvolumes"));
    this.claims = context.informers().informer(new GroupResource("", "persistentvolumeclaims"));
    this.classes = context.informers().informer(new GroupResource("storage.k8s.io",
        "storageclasses"));
    this.pods = context.informers().informer(new GroupResource("", "pods"));
    this.volumeQueue = context.newQueue("volumes");
    this.claimQueue = context.newQueue("claims");
    claims.addHandler(ResourceEventHandler.of(c -> claimQueue.add(Pods.key(c)), c -> {
      // the volume of a deleted claim is released at once rather than at the next resync
      String volume = Nested.str(c, "spec", "volumeName");
      if (!volume.isEmpty()) {
        volumeQueue.add(volume);
      }
    }));
    volumes.addHandler(ResourceEventHandler.of(
        v -> volumeQueue.add(Meta.metaString(v, "name")), v -> {
      MapValue ref = Nested.mapOrNull(v, "spec", "claimRef");
      if (ref != null) {
        claimQueue.add(Nested.str(ref, "namespace") + "/" + Nested.str(ref, "name"));
      }
    }));
    classes.addHandler(ResourceEventHandler.of(this::classChanged, c -> { }));
    this.provisioner = context.simulatedStorage()
        ? Optional.of(new SimulatedProvisioner(context, claims, volumes, classes))
        : Optional.empty();
  }

  /** The {@code persistentvolume-binder} controller, with the simulated provisioner if on. */
  public static Controller create(ControllerContext context) {
    return new PersistentVolumeController(context);
  }

  private void classChanged(MapValue storageClass) {
    String name = Meta.metaString(storageClass, "name");
    for (MapValue c : claims.list()) {
      if (Nested.str(c, "spec", "volumeName").isEmpty()
          && VolumeMatching.claimClass(c).equals(name)) {
        claimQueue.add(Pods.key(c));
      }
    }
  }

  @Override
  public void start() {
    volumeWorkers = context.startWorkers("volumes", volumeQueue, 1, this::syncVolumeKey);
    claimWorkers = context.startWorkers("claims", claimQueue, 1, this::syncClaimKey);
    provisioner.ifPresent(SimulatedProvisioner::start);
    context.timers().schedule(RESYNC, this::resync);
  }

  /** kube's {@code resync}: every claim and volume queued again, every sync period. */
  private void resync() {
    if (closed) {
      return;
    }
    claims.list().forEach(c -> claimQueue.add(Pods.key(c)));
    volumes.list().forEach(v -> volumeQueue.add(Meta.metaString(v, "name")));
    context.timers().schedule(RESYNC, this::resync);
  }

  @Override
  public void resetInPlace() {
    context.timers().schedule(RESYNC, this::resync);
  }

  @Override
  public void close() {
    closed = true;
    provisioner.ifPresent(SimulatedProvisioner::close);
    Workers.close(claimWorkers, claimQueue);
    Workers.close(volumeWorkers, volumeQueue);
  }

  private Outcome syncClaimKey(String key) {
    int slash = key.indexOf('/');
    Optional<MapValue> claim = claims.get(key.substring(0, slash), key.substring(slash + 1));
    return claim.isEmpty() ? Outcome.FORGET : outcome(() -> syncClaim(claim.get()));
  }

  private Outcome syncVolumeKey(String name) {
    Optional<MapValue> volume = volumes.get("", name);
    return volume.isEmpty() ? Outcome.FORGET : outcome(() -> syncVolume(volume.get()));
  }

  /** A sync that failed on a stale object or a vanished one is retried, as kube's error. */
  private static Outcome outcome(Runnable sync) {
    try {
      sync.run();
      return Outcome.FORGET;
    } catch (ConflictException e) {
      return Outcome.REQUEUE;
    } catch (NotFoundException e) {
      return Outcome.FORGET;
    }
  }

  /** kube's {@code syncClaim}. */
  void syncClaim(MapValue claim) {
    if (!Meta.annotations(claim).containsKey(ANN_BIND_COMPLETED)) {
      syncUnboundClaim(claim);
    } else {
      syncBoundClaim(claim);
    }
  }

  /** kube's {@code syncUnboundClaim}. */
  private void syncUnboundClaim(MapValue claim) {
    String volumeName = Nested.str(claim, "spec", "volumeName");
    if (volumeName.isEmpty()) {
      boolean delayBinding = isDelayBindingMode(claim);
      boolean nodeSelected = !Meta.annotations(claim).getOrDefault(ANN_SELECTED_NODE, "")
          .isEmpty();
      // with a selected node the scheduler's part (binding a static volume) is done here
      Optional<MapValue> volume = VolumeMatching.findBestMatch(claim, volumes.list(),
          delayBinding && !nodeSelected);
      if (volume.isPresent()) {
        bind(volume.get(), claim);
        return;
      }
      if (delayBinding && !nodeSelected) {
        emitEventForUnboundDelayBindingClaim(claim);
      } else if (!VolumeMatching.claimClass(claim).isEmpty()) {
        provisionClaim(claim);
        return;
      } else {
        events.normal(involved(claim), "FailedBinding",
            "no persistent volumes available for this claim and no storage class is set");
      }
      updateClaimStatus(claim, "Pending", null);
      return;
    }
    Optional<MapValue> found = volumes.get("", volumeName);
    if (found.isEmpty()) {
      // the user asked for a volume that does not exist (yet)
      updateClaimStatus(claim, "Pending", null);
      return;
    }
    MapValue volume = found.get();
    if (!Nested.has(volume, "spec", "claimRef")) {
      Optional<String> mismatch = checkVolumeSatisfyClaim(volume, claim);
      if (mismatch.isPresent()) {
        events.warning(involved(claim), "VolumeMismatch", "Cannot bind to requested volume \""
            + volumeName + "\": " + mismatch.get());
        updateClaimStatus(claim, "Pending", null);
      } else {
        bind(volume, claim);
      }
    } else if (VolumeMatching.isVolumeBoundToClaim(volume, claim)) {
      bind(volume, claim);
    } else if (!Meta.annotations(claim).containsKey(ANN_BOUND_BY_CONTROLLER)) {
      // the user asked for a volume bound to another claim: wait for it
      updateClaimStatus(claim, "Pending", null);
    } else {
      throw new SyncError("Invalid binding of claim \"" + Pods.key(claim)
          + "\" to volume \"" + volumeName + "\": volume already claimed by \""
          + claimRefKey(volume) + "\"");
    }
  }

  /** kube's {@code syncBoundClaim}. */
  private void syncBoundClaim(MapValue claim) {
    String volumeName = Nested.str(claim, "spec", "volumeName");
    if (volumeName.isEmpty()) {
      updateClaimStatusWithEvent(claim, "Lost", "ClaimLost",
          "Bound claim has lost reference to PersistentVolume. Data on the volume is lost!");
      return;
    }
    Optional<MapValue> volume = volumes.get("", volumeName);
    if (volume.isEmpty()) {
      updateClaimStatusWithEvent(claim, "Lost", "ClaimLost",
          "Bound claim has lost its PersistentVolume. Data on the volume is lost!");
      return;
    }
    MapValue ref = Nested.mapOrNull(volume.get(), "spec", "claimRef");
    if (ref == null || Nested.str(ref, "uid").equals(Meta.metaString(claim, "uid"))) {
      bind(volume.get(), claim);
    } else {
      updateClaimStatusWithEvent(claim, "Lost", "ClaimMisbound",
          "Two claims are bound to the same volume, this one is bound incorrectly");
    }
  }

  /** kube's {@code syncVolume}. */
  void syncVolume(MapValue volume) {
    MapValue ref = Nested.mapOrNull(volume, "spec", "claimRef");
    if (ref == null || Nested.str(ref, "uid").isEmpty()) {
      // unused, or reserved for a claim whose own sync binds it
      updateVolumePhase(volume, "Available", "");
      return;
    }
    Optional<MapValue> claim = claims.get(Nested.str(ref, "namespace"),
        Nested.str(ref, "name"));
    if (claim.isPresent()
        && !Meta.metaString(claim.get(), "uid").equals(Nested.str(ref, "uid"))) {
      // the claim was deleted and another made with its name
      claim = Optional.empty();
    }
    String phase = Nested.str(volume, "status", "phase");
    if (claim.isEmpty()) {
      MapValue released = volume;
      if (!phase.equals("Released") && !phase.equals("Failed")) {
        released = updateVolumePhase(volume, "Released", "");
      }
      reclaimVolume(released);
      return;
    }
    String claimVolume = Nested.str(claim.get(), "spec", "volumeName");
    if (claimVolume.isEmpty()) {
      // bound by the controller (or the user) and not yet by the claim: its sync finishes
      claimQueue.add(Pods.key(claim.get()));
    } else if (claimVolume.equals(Meta.metaString(volume, "name"))) {
      updateVolumePhase(volume, "Bound", "");
    } else if (Meta.annotations(volume).containsKey(ANN_DYNAMICALLY_PROVISIONED)
        && "Delete".equals(Nested.str(volume, "spec", "persistentVolumeReclaimPolicy"))) {
      // provisioned for a claim that got bound elsewhere: not needed
      MapValue released = volume;
      if (!phase.equals("Released") && !phase.equals("Failed")) {
        released = updateVolumePhase(volume, "Released", "");
      }
      reclaimVolume(released);
    } else {
      unbindVolume(volume);
    }
  }

  /** kube's {@code emitEventForUnboundDelayBindingClaim}. */
  private void emitEventForUnboundDelayBindingClaim(MapValue claim) {
    List<String> waiting = nonScheduledPodsOf(claim);
    if (waiting.isEmpty()) {
      events.normal(involved(claim), "WaitForFirstConsumer",
          "waiting for first consumer to be created before binding");
    } else if (waiting.size() == 1) {
      events.normal(involved(claim), "WaitForPodScheduled",
          "waiting for pod " + waiting.get(0) + " to be scheduled");
    } else {
      events.normal(involved(claim), "WaitForPodScheduled",
          "waiting for pods " + String.join(",", waiting) + " to be scheduled");
    }
  }

  /** kube's {@code findNonScheduledPodsByPVC}: running-to-be Pods using the claim, no node. */
  private List<String> nonScheduledPodsOf(MapValue claim) {
    String name = Meta.metaString(claim, "name");
    List<String> out = new ArrayList<>();
    for (MapValue pod : pods.list(Meta.metaString(claim, "namespace"))) {
      String phase = Nested.str(pod, "status", "phase");
      if (phase.equals("Succeeded") || phase.equals("Failed")
          || !Nested.str(pod, "spec", "nodeName").isEmpty()) {
        continue;
      }
      for (Value v : Nested.list(pod, "spec", "volumes")) {
        String claimName = Nested.str(v, "persistentVolumeClaim", "claimName");
        if (claimName.isEmpty() && Nested.has(v, "ephemeral")) {
          claimName = Meta.metaString(pod, "name") + "-" + Nested.str(v, "name");
        }
        if (claimName.equals(name)) {
          out.add(Meta.metaString(pod, "name"));
          break;
        }
      }
    }
    out.sort(null);
    return out;
  }

  /** kube's {@code IsDelayBindingMode}: the claim's class binds WaitForFirstConsumer. */
  private boolean isDelayBindingMode(MapValue claim) {
    String className = VolumeMatching.claimClass(claim);
    if (className.isEmpty()) {
      return false;
    }
    return classes.get("", className)
        .map(c -> "WaitForFirstConsumer".equals(Nested.str(c, "volumeBindingMode")))
        .orElse(false);
  }

  /**
   * kube's {@code provisionClaim} for an external provisioner (every provisioner but the
   * in-tree names, which 1.36 has none of that provision): the claim is annotated with the
   * provisioner, which an external provisioner waits for.
   */
  private void provisionClaim(MapValue claim) {
    String className = VolumeMatching.claimClass(claim);
    Optional<MapValue> storageClass = classes.get("", className);
    if (storageClass.isEmpty()) {
      events.warning(involved(claim), "ProvisioningFailed",
          "storageclass.storage.k8s.io \"" + className + "\" not found");
      return;
    }
    String provisionerName = Nested.str(storageClass.get(), "provisioner");
    if (provisionerName.startsWith("kubernetes.io/")) {
      events.warning(involved(claim), "ProvisioningFailed",
          "no volume plugin matched name: " + provisionerName);
      return;
    }
    MapValue current = claim;
    if (!provisionerName.equals(Meta.annotations(claim).get(ANN_STORAGE_PROVISIONER))) {
      MapValue annotated = withAnnotation(withAnnotation(claim, ANN_BETA_STORAGE_PROVISIONER,
          provisionerName), ANN_STORAGE_PROVISIONER, provisionerName);
      current = context.client(PVCS, user).namespace(Meta.metaString(claim, "namespace"))
          .update(annotated);
    }
    events.normal(involved(current), "ExternalProvisioning",
        "Waiting for a volume to be created either by the external provisioner '"
            + provisionerName + "' or manually by the system administrator. If volume creation"
            + " is delayed, please verify that the provisioner is running and correctly"
            + " registered.");
  }

  /** kube's {@code checkVolumeSatisfyClaim}: why a requested volume cannot serve the claim. */
  static Optional<String> checkVolumeSatisfyClaim(MapValue volume, MapValue claim) {
    if (Nested.has(volume, "metadata", "deletionTimestamp")) {
      return Optional.of("the volume is marked for deletion \"" + Meta.metaString(volume,
          "name") + "\"");
    }
    if (VolumeMatching.capacity(volume).compareTo(VolumeMatching.storage(Nested.getOrNull(
        claim, "spec", "resources", "requests", "storage"))) < 0) {
      return Optional.of("requested PV is too small");
    }
    if (!VolumeMatching.volumeClass(volume).equals(VolumeMatching.claimClass(claim))) {
      return Optional.of("storageClassName does not match");
    }
    String claimMode = Nested.str(claim, "spec", "volumeMode");
    String volumeMode = Nested.str(volume, "spec", "volumeMode");
    if (!(claimMode.isEmpty() ? "Filesystem" : claimMode)
        .equals(volumeMode.isEmpty() ? "Filesystem" : volumeMode)) {
      return Optional.of("incompatible volumeMode");
    }
    if (!VolumeMatching.modes(volume).containsAll(Meta.stringList(Nested.getOrNull(claim,
        "spec", "accessModes")))) {
      return Optional.of("incompatible accessMode");
    }
    return Optional.empty();
  }

  /** kube's {@code bind}: volume to claim, volume Bound, claim to volume, claim Bound. */
  private void bind(MapValue volume, MapValue claim) {
    MapValue boundVolume = bindVolumeToClaim(volume, claim);
    boundVolume = updateVolumePhase(boundVolume, "Bound", "");
    MapValue boundClaim = bindClaimToVolume(claim, boundVolume);
    updateClaimStatus(boundClaim, "Bound", boundVolume);
  }

  /** kube's {@code GetBindVolumeToClaim} and the volume update. */
  private MapValue bindVolumeToClaim(MapValue volume, MapValue claim) {
    boolean setBoundByController = !VolumeMatching.isVolumeBoundToClaim(volume, claim);
    MapValue out = volume;
    boolean dirty = false;
    MapValue ref = Nested.mapOrNull(volume, "spec", "claimRef");
    if (ref == null || !Nested.str(ref, "name").equals(Meta.metaString(claim, "name"))
        || !Nested.str(ref, "namespace").equals(Meta.metaString(claim, "namespace"))
        || !Nested.str(ref, "uid").equals(Meta.metaString(claim, "uid"))) {
      out = Nested.set(out, claimReference(claim), "spec", "claimRef");
      dirty = true;
    }
    if (setBoundByController && !Meta.annotations(out).containsKey(ANN_BOUND_BY_CONTROLLER)) {
      out = withAnnotation(out, ANN_BOUND_BY_CONTROLLER, "yes");
      dirty = true;
    }
    return dirty ? context.client(PVS, user).update(out) : volume;
  }

  /** client-go's {@code GetReference} of a claim from an informer. */
  static MapValue claimReference(MapValue claim) {
    return MapValue.ofEntries("kind", Value.of("PersistentVolumeClaim"),
        "namespace", Value.of(Meta.metaString(claim, "namespace")),
        "name", Value.of(Meta.metaString(claim, "name")),
        "uid", Value.of(Meta.metaString(claim, "uid")),
        "apiVersion", Value.of("v1"),
        "resourceVersion", Value.of(Meta.metaString(claim, "resourceVersion")));
  }

  /** kube's {@code bindClaimToVolume}. */
  private MapValue bindClaimToVolume(MapValue claim, MapValue volume) {
    MapValue out = claim;
    boolean dirty = false;
    String volumeName = Meta.metaString(volume, "name");
    if (!Nested.str(claim, "spec", "volumeName").equals(volumeName)) {
      out = Nested.set(out, Value.of(volumeName), "spec", "volumeName");
      if (!Meta.annotations(out).containsKey(ANN_BOUND_BY_CONTROLLER)) {
        out = withAnnotation(out, ANN_BOUND_BY_CONTROLLER, "yes");
      }
      dirty = true;
    }
    if (!Meta.annotations(out).containsKey(ANN_BIND_COMPLETED)) {
      out = withAnnotation(out, ANN_BIND_COMPLETED, "yes");
      dirty = true;
    }
    return dirty ? context.client(PVCS, user).namespace(Meta.metaString(claim, "namespace"))
        .update(out) : claim;
  }

  /** kube's {@code unbindVolume}: the controller's binding undone, a user's kept by name. */
  private void unbindVolume(MapValue volume) {
    MapValue out;
    if (Meta.annotations(volume).containsKey(ANN_BOUND_BY_CONTROLLER)) {
      out = Nested.remove(volume, "spec", "claimRef");
      out = Nested.remove(out, "metadata", "annotations", ANN_BOUND_BY_CONTROLLER);
      if (Nested.map(out, "metadata", "annotations").isEmpty()) {
        out = Nested.remove(out, "metadata", "annotations");
      }
    } else {
      out = Nested.remove(volume, "spec", "claimRef", "uid");
    }
    updateVolumePhase(context.client(PVS, user).update(out), "Available", "");
  }

  /** kube's {@code reclaimVolume} for the policies a simulated cluster can carry out. */
  private void reclaimVolume(MapValue volume) {
    String policy = Nested.str(volume, "spec", "persistentVolumeReclaimPolicy");
    switch (policy) {
      case "Retain" -> { }
      case "Recycle" -> updateVolumePhaseWithEvent(volume, "Failed", "VolumeFailedRecycle",
          "No recycler plugin found for the volume!");
      case "Delete" -> deleteVolume(volume);
      default -> updateVolumePhaseWithEvent(volume, "Failed", "VolumeUnknownReclaimPolicy",
          "Volume has unrecognized PersistentVolumeReclaimPolicy");
    }
  }

  /**
   * kube's {@code deleteVolumeOperation}: an externally provisioned volume is left to its
   * provisioner; a hostPath volume under {@code /tmp/} is deleted as kube's hostPath deleter
   * does (the directory being simulated); any other volume has no deleter and fails.
   */
  private void deleteVolume(MapValue volume) {
    String name = Meta.metaString(volume, "name");
    Optional<MapValue> fresh = context.client(PVS, user).find(name);
    if (fresh.isEmpty() || Nested.has(fresh.get(), "metadata", "deletionTimestamp")
        || !isVolumeReleased(fresh.get())) {
      return;
    }
    String provisionedBy = Meta.annotations(volume).getOrDefault(ANN_DYNAMICALLY_PROVISIONED,
        "");
    if (!provisionedBy.isEmpty() && !provisionedBy.startsWith("kubernetes.io/")) {
      return; // the external provisioner deletes it
    }
    String hostPath = Nested.str(volume, "spec", "hostPath", "path");
    String error;
    if (Nested.has(volume, "spec", "hostPath")) {
      if (hostPath.matches("^/tmp/.+")) {
        try {
          context.client(PVS, user).delete(name);
        } catch (NotFoundException e) {
          // gone already
        }
        return;
      }
      error = "host_path deleter only supports /tmp/.+ but received provided " + hostPath;
    } else {
      error = "error getting deleter volume plugin for volume \"" + name
          + "\": no volume plugin matched";
    }
    updateVolumePhaseWithEvent(fresh.get(), "Failed", "VolumeFailedDelete", error);
  }

  /** kube's {@code isVolumeReleased}: its claim is gone, replaced, or bound elsewhere. */
  private boolean isVolumeReleased(MapValue volume) {
    MapValue ref = Nested.mapOrNull(volume, "spec", "claimRef");
    if (ref == null || Nested.str(ref, "uid").isEmpty()) {
      return false;
    }
    Optional<MapValue> claim = claims.get(Nested.str(ref, "namespace"),
        Nested.str(ref, "name"));
    if (claim.isEmpty() || !Meta.metaString(claim.get(), "uid").equals(Nested.str(ref,
        "uid"))) {
      return true;
    }
    return !Nested.str(claim.get(), "spec", "volumeName").equals(Meta.metaString(volume,
        "name"));
  }

  /** kube's {@code updateVolumePhase}: the phase, its message and its transition time. */
  private MapValue updateVolumePhase(MapValue volume, String phase, String message) {
    if (Nested.str(volume, "status", "phase").equals(phase)) {
      return volume;
    }
    MapValue status = Nested.map(volume, "status").with("phase", Value.of(phase))
        .with("lastPhaseTransitionTime", Value.of(Meta.formatTime(context.clock().instant())));
    status = message.isEmpty() ? status.without("message")
        : status.with("message", Value.of(message));
    MapValue written = updateStatus(PVS, volume.with("status", status));
    if (phase.equals("Available")) {
      // a claim synced while this volume was still Pending would wait for the resync
      for (MapValue c : claims.list()) {
        if (Nested.str(c, "spec", "volumeName").isEmpty()
            && !Meta.annotations(c).containsKey(ANN_BIND_COMPLETED)) {
          claimQueue.add(Pods.key(c));
        }
      }
    }
    return written;
  }

  /** kube's {@code updateVolumePhaseWithEvent}: an event only when the phase changes. */
  private void updateVolumePhaseWithEvent(MapValue volume, String phase, String reason,
      String message) {
    if (Nested.str(volume, "status", "phase").equals(phase)) {
      return;
    }
    MapValue written = updateVolumePhase(volume, phase, message);
    events.warning(InvolvedObject.of("v1", "PersistentVolume", written), reason, message);
  }

  /**
   * kube's {@code updateClaimStatus}: the phase; with no volume the access modes and capacity
   * cleared; with one its access modes, and its capacity when the claim becomes Bound (later a
   * difference is a resize in progress and kept).
   */
  private MapValue updateClaimStatus(MapValue claim, String phase, MapValue volume) {
    MapValue status = Nested.map(claim, "status");
    MapValue next = status.with("phase", Value.of(phase));
    if (volume == null) {
      next = next.without("accessModes").without("capacity");
    } else {
      Value modes = Nested.getOrNull(volume, "spec", "accessModes");
      next = modes == null ? next.without("accessModes") : next.with("accessModes", modes);
      if (!Nested.str(status, "phase").equals(phase)) {
        if (!Nested.has(volume, "spec", "capacity", "storage")) {
          throw new SyncError("PersistentVolume \"" + Meta.metaString(volume,
              "name") + "\" is without a storage capacity");
        }
        if (VolumeMatching.storage(Nested.getOrNull(status, "capacity", "storage"))
            .compareTo(VolumeMatching.capacity(volume)) != 0
            || !Nested.has(status, "capacity", "storage")) {
          next = next.with("capacity", Nested.map(volume, "spec", "capacity"));
        }
      }
    }
    if (next.equals(status)) {
      return claim;
    }
    return updateStatus(PVCS, claim.with("status", next));
  }

  /** kube's {@code updateClaimStatusWithEvent}: an event only when the phase changes. */
  private void updateClaimStatusWithEvent(MapValue claim, String phase, String reason,
      String message) {
    if (Nested.str(claim, "status", "phase").equals(phase)) {
      return;
    }
    MapValue written = updateClaimStatus(claim, phase, null);
    events.warning(involved(written), reason, message);
  }

  private MapValue updateStatus(GroupVersionResource resource, MapValue object) {
    return context.api().handle(ApiRequest.builder(ApiRequest.Verb.UPDATE, resource)
        .namespace(Meta.metaString(object, "namespace")).name(Meta.metaString(object, "name"))
        .subresource("status").options(UpdateOptions.defaults())
        .fieldManager(ControllerContext.FIELD_MANAGER).user(user).body(object).build())
        .orThrow();
  }

  static MapValue withAnnotation(MapValue object, String key, String value) {
    return Nested.set(object, Value.of(value), "metadata", "annotations", key);
  }

  private static String claimRefKey(MapValue volume) {
    return Nested.str(volume, "spec", "claimRef", "namespace") + "/"
        + Nested.str(volume, "spec", "claimRef", "name");
  }

  static InvolvedObject involved(MapValue claim) {
    return InvolvedObject.of("v1", "PersistentVolumeClaim", claim);
  }
}
