/*
 * Copyright The apiserver4j authors.
 * SPDX-License-Identifier: Apache-2.0
 */
package io.apiserver4j.controllers.persistentvolume;

import io.apiserver4j.admission.matching.LabelSelectors;
import io.apiserver4j.apimachinery.validation.KubeValidation;
import io.apiserver4j.core.MapValue;
import io.apiserver4j.core.Meta;
import io.apiserver4j.core.Nested;
import io.apiserver4j.core.Value;
import io.apiserver4j.core.labels.LabelSelector;
import java.math.BigDecimal;
import java.util.ArrayList;
import java.util.Comparator;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Optional;

/**
 * How kube matches a claim to a volume: {@code persistentVolumeOrderedIndex.findByClaim}
 * (index.go), which tries the access-mode sets of the known volumes that contain every mode the
 * claim asks for, fewest modes first, and in each component-helpers' {@code FindMatchingVolume}:
 * a volume pre-bound to the claim wins, otherwise the smallest Available volume of the claim's
 * class, large enough, of its volume mode, that its selector selects, not being deleted. With
 * delayed binding (WaitForFirstConsumer) and no node, only a pre-bound volume matches: kube's
 * scheduler binds the rest. Stateless; the helpers mirror kube's storage helpers.
 */
final class VolumeMatching {
  static final String ANN_BIND_COMPLETED = "pv.kubernetes.io/bind-completed";
  static final String ANN_BOUND_BY_CONTROLLER = "pv.kubernetes.io/bound-by-controller";
  static final String ANN_SELECTED_NODE = "volume.kubernetes.io/selected-node";
  static final String ANN_STORAGE_PROVISIONER = "volume.kubernetes.io/storage-provisioner";
  static final String ANN_BETA_STORAGE_PROVISIONER =
      "volume.beta.kubernetes.io/storage-provisioner";
  static final String ANN_DYNAMICALLY_PROVISIONED = "pv.kubernetes.io/provisioned-by";
  static final String ANN_BETA_CLASS = "volume.beta.kubernetes.io/storage-class";
  /** kube's order of access modes in their string form ({@code GetAccessModesAsString}). */
  private static final List<String> MODE_ORDER =
      List.of("ReadWriteOnce", "ReadOnlyMany", "ReadWriteMany", "ReadWriteOncePod");

  private VolumeMatching() {}

  /** kube's {@code findByClaim}: the best volume for {@code claim} among {@code volumes}. */
  static Optional<MapValue> findBestMatch(MapValue claim, List<MapValue> volumes,
      boolean delayBinding) {
    // the index: volumes by their set of access modes, in kube's string form
    Map<List<String>, List<MapValue>> byModes = new LinkedHashMap<>();
    for (MapValue v : volumes) {
      byModes.computeIfAbsent(modes(v), k -> new ArrayList<>()).add(v);
    }
    List<String> requested = Meta.stringList(Nested.getOrNull(claim, "spec", "accessModes"));
    List<List<String>> candidates = new ArrayList<>();
    for (List<String> indexed : byModes.keySet()) {
      if (indexed.containsAll(requested)) {
        candidates.add(indexed);
      }
    }
    candidates.sort(Comparator.comparingInt(List::size));
    for (List<String> modes : candidates) {
      Optional<MapValue> best = findMatchingVolume(claim, byModes.get(modes), delayBinding);
      if (best.isPresent()) {
        return best;
      }
    }
    return Optional.empty();
  }

  /** component-helpers' {@code FindMatchingVolume} without a node (the controller's path). */
  static Optional<MapValue> findMatchingVolume(MapValue claim, List<MapValue> volumes,
      boolean delayBinding) {
    BigDecimal requested = storage(Nested.getOrNull(claim, "spec", "resources", "requests",
        "storage"));
    String requestedClass = claimClass(claim);
    Optional<LabelSelector> selector = Optional.empty();
    Value s = Nested.getOrNull(claim, "spec", "selector");
    if (s instanceof MapValue) {
      selector = Optional.of(LabelSelectors.parse(s));
    }
    MapValue smallest = null;
    BigDecimal smallestSize = null;
    for (MapValue volume : volumes) {
      if (Nested.has(volume, "spec", "claimRef") && !isVolumeBoundToClaim(volume, claim)) {
        continue;
      }
      BigDecimal size = capacity(volume);
      if (size.compareTo(requested) < 0) {
        continue;
      }
      if (!volumeMode(Nested.str(claim, "spec", "volumeMode"))
          .equals(volumeMode(Nested.str(volume, "spec", "volumeMode")))) {
        continue;
      }
      if (Nested.has(volume, "metadata", "deletionTimestamp")) {
        continue;
      }
      if (isVolumeBoundToClaim(volume, claim)) {
        return Optional.of(volume);
      }
      if (delayBinding) {
        // the scheduler binds such a claim once a Pod using it has a node
        continue;
      }
      if (!"Available".equals(Nested.str(volume, "status", "phase"))) {
        continue;
      }
      if (selector.isPresent() && !selector.get().matches(Meta.labels(volume))) {
        continue;
      }
      if (!volumeClass(volume).equals(requestedClass)) {
        continue;
      }
      if (smallest == null || smallestSize.compareTo(size) > 0) {
        smallest = volume;
        smallestSize = size;
      }
    }
    return Optional.ofNullable(smallest);
  }

  /** A volume's access modes, deduplicated, in kube's order. */
  static List<String> modes(MapValue volume) {
    List<String> m = Meta.stringList(Nested.getOrNull(volume, "spec", "accessModes"));
    return MODE_ORDER.stream().filter(m::contains).toList();
  }

  /** kube's {@code IsVolumeBoundToClaim}: the claimRef names the claim, its UID if set too. */
  static boolean isVolumeBoundToClaim(MapValue volume, MapValue claim) {
    MapValue ref = Nested.mapOrNull(volume, "spec", "claimRef");
    if (ref == null) {
      return false;
    }
    if (!Nested.str(ref, "name").equals(Meta.metaString(claim, "name"))
        || !Nested.str(ref, "namespace").equals(Meta.metaString(claim, "namespace"))) {
      return false;
    }
    String uid = Nested.str(ref, "uid");
    return uid.isEmpty() || uid.equals(Meta.metaString(claim, "uid"));
  }

  /** kube's {@code GetPersistentVolumeClaimClass}: the beta annotation, else the spec field. */
  static String claimClass(MapValue claim) {
    String beta = Meta.annotations(claim).get(ANN_BETA_CLASS);
    return beta != null ? beta : Nested.str(claim, "spec", "storageClassName");
  }

  /** kube's {@code GetPersistentVolumeClass}. */
  static String volumeClass(MapValue volume) {
    String beta = Meta.annotations(volume).get(ANN_BETA_CLASS);
    return beta != null ? beta : Nested.str(volume, "spec", "storageClassName");
  }

  /** A volume's {@code spec.capacity.storage}, zero when it has none. */
  static BigDecimal capacity(MapValue volume) {
    return storage(Nested.getOrNull(volume, "spec", "capacity", "storage"));
  }

  /** A quantity's value; zero when absent or malformed (validation rejects those first). */
  static BigDecimal storage(Value quantity) {
    if (quantity == null) {
      return BigDecimal.ZERO;
    }
    return KubeValidation.quantity(KubeValidation.quantityString(quantity))
        .orElse(BigDecimal.ZERO);
  }

  /** The volume mode, Filesystem when unset (as kube's {@code CheckVolumeModeMismatches}). */
  private static String volumeMode(String mode) {
    return mode.isEmpty() ? "Filesystem" : mode;
  }
}
