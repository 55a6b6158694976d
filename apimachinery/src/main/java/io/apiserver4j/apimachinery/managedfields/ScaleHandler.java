/*
 * Copyright The apiserver4j authors.
 * SPDX-License-Identifier: Apache-2.0
 */
package io.apiserver4j.apimachinery.managedfields;

import static java.util.Objects.requireNonNull;

import io.apiserver4j.core.Value;
import io.apiserver4j.fieldpath.FieldName;
import io.apiserver4j.fieldpath.FieldPath;
import io.apiserver4j.fieldpath.FieldSet;
import io.apiserver4j.fieldpath.ManagedFieldsEntry;
import io.apiserver4j.merge.VersionedSet;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;

/**
 * kube's {@code ScaleHandler} (scalehandler.go): moves the ownership of the replicas field
 * between a resource's managedFields and its {@code autoscaling/v1 Scale}'s, so that a write
 * through {@code /scale} owns (or takes) the resource's replicas field.
 *
 * <p>Immutable and thread-safe.
 */
public final class ScaleHandler {
  /** The Scale's group/version. */
  public static final String SCALE_API_VERSION = "autoscaling/v1";
  private static final FieldPath REPLICAS_IN_SCALE =
      FieldPath.of(new FieldName("spec"), new FieldName("replicas"));

  private final String apiVersion;
  private final Map<String, FieldPath> mappings;

  /**
   * @param apiVersion the resource's group/version served
   * @param mappings the replicas path of the resource at each served group/version (kube's
   *     {@code ResourcePathMappings}); entries at other versions are dropped
   */
  public ScaleHandler(String apiVersion, Map<String, FieldPath> mappings) {
    this.apiVersion = requireNonNull(apiVersion, "apiVersion");
    this.mappings = Map.copyOf(requireNonNull(mappings, "mappings"));
  }

  /**
   * kube's {@code ToSubresource}: the resource's entries that own its replicas path, each as
   * owning the Scale's {@code spec.replicas} at {@value #SCALE_API_VERSION}.
   *
   * @throws io.apiserver4j.fieldpath.ManagedFieldsException when the entries do not decode
   */
  public List<ManagedFieldsEntry> toSubresource(Value parentManagedFields) {
    Managed parent = Managed.decode(parentManagedFields);
    Managed out = Managed.empty();
    for (Map.Entry<String, VersionedSet> e : parent.fields().asMap().entrySet()) {
      FieldPath replicas = mappings.get(e.getValue().apiVersion());
      if (replicas == null || !e.getValue().set().contains(replicas)) {
        continue;
      }
      out = copy(out, parent, e.getKey(), new VersionedSet(FieldSet.of(REPLICAS_IN_SCALE),
          SCALE_API_VERSION, e.getValue().applied()), parent);
    }
    return out.entries();
  }

  /**
   * kube's {@code ToParent}: the resource's entries after a write of the Scale whose entries are
   * {@code scaleManagedFields}. A resource entry loses the replicas path when its manager no
   * longer owns the Scale's replicas; a Scale manager owning them gets them in the resource.
   *
   * @throws io.apiserver4j.fieldpath.ManagedFieldsException when the entries do not decode
   */
  public List<ManagedFieldsEntry> toParent(Value parentManagedFields, Value scaleManagedFields) {
    Managed parent = Managed.decode(parentManagedFields);
    Managed scale = Managed.decode(scaleManagedFields);
    Map<String, VersionedSet> scaleFields = new LinkedHashMap<>(scale.fields().asMap());
    Managed out = Managed.empty();
    for (Map.Entry<String, VersionedSet> e : parent.fields().asMap().entrySet()) {
      String key = e.getKey();
      VersionedSet vs = e.getValue();
      if (!mappings.containsKey(vs.apiVersion())) {
        continue;
      }
      FieldPath replicas = mappings.get(vs.apiVersion());
      if (!vs.set().contains(replicas)) {
        out = copy(out, parent, key, vs, parent);
      } else if (scaleFields.remove(key) == null) {
        // the Scale's writer took the replicas from this manager
        FieldSet rest = vs.set().difference(FieldSet.of(replicas));
        if (!rest.isEmpty()) {
          out = copy(out, parent, key, new VersionedSet(rest, vs.apiVersion(), vs.applied()),
              parent);
        }
      } else {
        out = copy(out, parent, key, vs, parent);
      }
    }
    for (Map.Entry<String, VersionedSet> e : scaleFields.entrySet()) {
      if (!e.getValue().set().contains(REPLICAS_IN_SCALE)) {
        continue;
      }
      // as kube, the time is the resource's entry's (none for a new manager)
      out = copy(out, scale, e.getKey(), new VersionedSet(FieldSet.of(mappings.get(apiVersion)),
          apiVersion, e.getValue().applied()), parent);
    }
    return out.entries();
  }

  private static Managed copy(Managed out, Managed from, String key, VersionedSet set,
      Managed timeFrom) {
    return out.with(key, set).withIdentity(key, from.identity(key).orElseThrow())
        .withTime(key, timeFrom.time(key));
  }
}
