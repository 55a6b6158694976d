/*
 * Copyright The apiserver4j authors.
 * SPDX-License-Identifier: Apache-2.0
 */
package io.apiserver4j.merge;

import static java.util.Objects.requireNonNull;

import io.apiserver4j.fieldpath.FieldPath;
import io.apiserver4j.fieldpath.FieldSet;
import io.apiserver4j.fieldpath.FieldSetFilter;
import io.apiserver4j.merge.internal.Comparer;
import io.apiserver4j.merge.internal.SmdValues;
import java.util.ArrayList;
import java.util.HashMap;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;

/**
 * Computes field ownership for writes and merges applied configurations, with the semantics of
 * structured-merge-diff's {@code merge.Updater}:
 *
 * <ul>
 *   <li>{@link #update}: a plain write. The writer gains what it changed; other managers lose
 *       what it changed or removed.
 *   <li>{@link #apply}: server-side apply. The configuration is merged onto the live object;
 *       fields the applier set before and omits now are removed unless someone else owns them;
 *       changing fields other managers own is a conflict unless forced, in which case ownership
 *       moves to the applier. Applying the same value as another manager shares ownership.
 * </ul>
 *
 * <p>Every manager's fields are compared in the manager's own API version, converting with the
 * configured {@link VersionConverter}; managers at versions that no longer exist are dropped.
 * Per-version ignored fields are never recorded as owned (and so never conflict).
 *
 * <p>Immutable and thread-safe; inputs are never changed.
 */
public final class Updater {
  private final VersionConverter converter;
  private final Map<String, FieldSetFilter> ignore;
  private final boolean compareOnApply;

  private Updater(Builder b) {
    this.converter = b.converter;
    this.ignore = Map.copyOf(b.ignore);
    this.compareOnApply = b.compareOnApply;
  }

  /**
   * A builder with the identity converter, nothing ignored and no-op comparison on.
   *
   * @return a new builder
   */
  public static Builder builder() {
    return new Builder();
  }

  /**
   * Records a non-apply write of {@code newObject} (replacing {@code liveObject}) by
   * {@code manager} at {@code version}. Never conflicts.
   *
   * @throws ConversionException if a conversion fails for a reason other than a missing version
   * @throws ValidationException if the objects do not fit their type
   * @param liveObject the stored object; its null value on create
   * @param newObject the object the write stores
   * @param version the API version of both objects
   * @param managers the field ownership before the write; not changed
   * @param manager the writer's field manager
   * @return the new object, the new managers, and whether the object changed
   */
  public UpdateResult update(
      TypedValue liveObject,
      TypedValue newObject,
      String version,
      ManagedFieldsMap managers,
      String manager) {
    requireNonNull(liveObject, "liveObject");
    requireNonNull(newObject, "newObject");
    requireNonNull(version, "version");
    requireNonNull(managers, "managers");
    requireNonNull(manager, "manager");
    LinkedHashMap<String, VersionedSet> m = reconcile(liveObject, managers);
    Comparer.Result result = track(liveObject, newObject, version, m, manager, Force.YES, true);
    Comparison compare = result.comparison();
    VersionedSet own = m.get(manager);
    FieldSet set = own == null ? FieldSet.empty() : own.set();
    set = set.difference(compare.removed()).union(compare.modified()).union(compare.added());
    set = filter(version, set);
    if (set.isEmpty()) {
      m.remove(manager);
    } else {
      m.put(manager, new VersionedSet(set, version, false));
    }
    return new UpdateResult(newObject, ManagedFieldsMap.of(m), !result.exactlyEqual());
  }

  /**
   * Applies {@code configObject} for {@code manager} at {@code version} onto {@code liveObject}.
   *
   * @throws ConflictsException if {@code force} is {@link Force#NO} and the apply would change
   *     fields other managers own; nothing is changed then
   * @throws ConversionException if a conversion fails for a reason other than a missing version
   * @throws ValidationException if the objects do not fit their type or the configuration has
   *     duplicate items
   * @param liveObject the stored object; its null value on create
   * @param configObject the applied configuration
   * @param version the API version of both objects
   * @param managers the field ownership before the apply; not changed
   * @param manager the applier's field manager
   * @param force whether fields owned by others are taken
   * @return the merged object, the new managers, and whether the object changed; the live object itself when nothing changed
   */
  public UpdateResult apply(
      TypedValue liveObject,
      TypedValue configObject,
      String version,
      ManagedFieldsMap managers,
      String manager,
      Force force) {
    requireNonNull(liveObject, "liveObject");
    requireNonNull(configObject, "configObject");
    requireNonNull(version, "version");
    requireNonNull(managers, "managers");
    requireNonNull(manager, "manager");
    requireNonNull(force, "force");
    LinkedHashMap<String, VersionedSet> m = reconcile(liveObject, managers);
    TypedValue newObject = liveObject.merge(configObject);
    VersionedSet lastSet = m.get(manager);
    FieldSet set = filter(version, configObject.toFieldSet());
    m.put(manager, new VersionedSet(set, version, true));
    newObject = prune(newObject, m, manager, lastSet);
    Comparer.Result result = track(liveObject, newObject, version, m, manager, force, false);
    boolean changed;
    if (!compareOnApply) {
      changed = liveObject.value() != newObject.value();
    } else if (result != null) {
      changed = !result.smdEqual();
    } else {
      changed = !SmdValues.equal(liveObject.value(), newObject.value());
    }
    return new UpdateResult(changed ? newObject : liveObject, ManagedFieldsMap.of(m), changed);
  }

  private FieldSet filter(String version, FieldSet set) {
    FieldSetFilter f = ignore.get(version);
    return f == null ? set : set.filter(f);
  }

  private Comparison filter(String version, Comparison c) {
    FieldSetFilter f = ignore.get(version);
    return f == null ? c : c.filter(f);
  }

  /**
   * Updates the other managers for the change from {@code oldObject} to {@code newObject}
   * (SMD's {@code update}); returns the comparison at {@code version}, ignored fields removed,
   * with the equality of the two objects (null when not needed and not computed).
   */
  private Comparer.Result track(
      TypedValue oldObject,
      TypedValue newObject,
      String version,
      LinkedHashMap<String, VersionedSet> managers,
      String workflow,
      Force force,
      boolean needComparison) {
    // The comparison at the writer's version is only needed when someone else owns fields or the
    // caller uses it (an apply by the only manager skips it; its result would be unused).
    Comparer.Result result = null;
    Comparison compare = null;
    boolean others = managers.size() > (managers.containsKey(workflow) ? 1 : 0);
    if (needComparison || others) {
      result = oldObject.compareWithEquality(newObject);
      compare = filter(version, result.comparison());
      result = new Comparer.Result(compare, result.exactlyEqual(), result.smdEqual());
    }
    Map<String, Comparison> versions = new HashMap<>(4);
    if (compare != null) {
      versions.put(version, compare);
    }
    Map<String, FieldSet> conflicts = new LinkedHashMap<>();
    Map<String, FieldSet> removed = new LinkedHashMap<>();
    List<String> obsolete = new ArrayList<>();
    for (Map.Entry<String, VersionedSet> e : managers.entrySet()) {
      String manager = e.getKey();
      if (manager.equals(workflow)) {
        continue;
      }
      VersionedSet vs = e.getValue();
      Comparison c = versions.get(vs.apiVersion());
      if (c == null) {
        TypedValue oldAt;
        TypedValue newAt;
        try {
          oldAt = convert(oldObject, vs.apiVersion(), "failed to convert old object");
          newAt = convert(newObject, vs.apiVersion(), "failed to convert new object");
        } catch (MissingVersionException missing) {
          obsolete.add(manager);
          continue;
        }
        c = filter(vs.apiVersion(), oldAt.compare(newAt));
        versions.put(vs.apiVersion(), c);
      }
      FieldSet conflict = vs.set().intersection(c.modified().union(c.added()));
      if (!conflict.isEmpty()) {
        conflicts.put(manager, conflict);
      }
      if (!c.removed().isEmpty()) {
        removed.put(manager, c.removed());
      }
    }
    if (force == Force.NO && !conflicts.isEmpty()) {
      List<Conflict> list = new ArrayList<>();
      conflicts.forEach((manager, set) -> {
        for (FieldPath p : set) {
          list.add(new Conflict(manager, p));
        }
      });
      throw new ConflictsException(list);
    }
    obsolete.forEach(managers::remove);
    conflicts.forEach((manager, set) -> {
      VersionedSet vs = managers.get(manager);
      managers.put(manager, new VersionedSet(vs.set().difference(set), vs.apiVersion(), vs.applied()));
    });
    removed.forEach((manager, set) -> {
      VersionedSet vs = managers.get(manager);
      managers.put(manager, new VersionedSet(vs.set().difference(set), vs.apiVersion(), vs.applied()));
    });
    managers.values().removeIf(vs -> vs.set().isEmpty());
    return result;
  }

  /**
   * Removes what {@code applyingManager} applied last time but not this time, unless another
   * manager (or the new configuration) owns it, and keeps what nobody owned before (SMD's
   * {@code prune} with its two add-back passes).
   */
  private TypedValue prune(
      TypedValue merged,
      Map<String, VersionedSet> managers,
      String applyingManager,
      VersionedSet lastSet) {
    if (lastSet == null || lastSet.set().isEmpty()) {
      return merged;
    }
    String version = lastSet.apiVersion();
    TypedValue convertedMerged;
    try {
      convertedMerged = convert(merged, version, "failed to convert merged object to last applied version");
    } catch (MissingVersionException missing) {
      return merged;
    }
    TypedValue pruned = convertedMerged.removeItems(
        convertedMerged.ensureNamedFieldsAreMembers(lastSet.set()));
    FieldsOf fieldsOf = new FieldsOf();
    pruned = addBackOwnedItems(convertedMerged, pruned, version, managers, fieldsOf);
    pruned = addBackDanglingItems(convertedMerged, pruned, lastSet, fieldsOf);
    return convert(pruned, managers.get(applyingManager).apiVersion(), "failed to convert pruned object");
  }

  /**
   * The field set (named fields as members) of the last merged object asked for: both add-back
   * passes need the merged object's set, and without conversion it is one object.
   */
  private static final class FieldsOf {
    private TypedValue value;
    private FieldSet set;

    FieldSet of(TypedValue v) {
      if (v != value) {
        set = v.ensureNamedFieldsAreMembers(v.toFieldSet());
        value = v;
      }
      return set;
    }
  }

  private TypedValue addBackOwnedItems(TypedValue merged, TypedValue pruned, String prunedVersion,
      Map<String, VersionedSet> managers, FieldsOf fieldsOf) {
    Map<String, FieldSet> managedAtVersion = new LinkedHashMap<>();
    for (VersionedSet vs : managers.values()) {
      managedAtVersion.merge(vs.apiVersion(), vs.set(), FieldSet::union);
    }
    // The pruned version first, so that fields needed for conversion are back before converting.
    FieldSet atPruned = managedAtVersion.remove(prunedVersion);
    TypedValue[] state = {merged, pruned};
    if (atPruned != null) {
      addBackOwnedItemsForVersion(state, prunedVersion, atPruned, fieldsOf);
    }
    for (Map.Entry<String, FieldSet> e : managedAtVersion.entrySet()) {
      addBackOwnedItemsForVersion(state, e.getKey(), e.getValue(), fieldsOf);
    }
    return state[1];
  }

  /** {@code state} is {merged, pruned}; both are replaced by their conversions to {@code version}. */
  private void addBackOwnedItemsForVersion(TypedValue[] state, String version, FieldSet managed,
      FieldsOf fieldsOf) {
    TypedValue merged;
    TypedValue pruned;
    try {
      merged = convert(state[0], version, "failed to convert merged object at version " + version);
    } catch (MissingVersionException missing) {
      return;
    }
    state[0] = merged;
    try {
      pruned = convert(state[1], version, "failed to convert pruned object at version " + version);
    } catch (MissingVersionException missing) {
      return;
    }
    FieldSet mergedSet = fieldsOf.of(merged);
    FieldSet prunedSet = merged.ensureNamedFieldsAreMembers(pruned.toFieldSet());
    FieldSet owned = merged.ensureNamedFieldsAreMembers(managed);
    state[1] = merged.removeItems(mergedSet.difference(prunedSet.union(owned)));
  }

  private TypedValue addBackDanglingItems(TypedValue merged, TypedValue pruned, VersionedSet lastSet,
      FieldsOf fieldsOf) {
    TypedValue convertedPruned;
    try {
      convertedPruned = convert(pruned, lastSet.apiVersion(),
          "failed to convert pruned object to last applied version");
    } catch (MissingVersionException missing) {
      return merged;
    }
    FieldSet prunedSet = merged.ensureNamedFieldsAreMembers(convertedPruned.toFieldSet());
    FieldSet mergedSet = fieldsOf.of(merged);
    FieldSet last = merged.ensureNamedFieldsAreMembers(lastSet.set());
    return merged.removeItems(mergedSet.difference(prunedSet).intersection(last));
  }

  /**
   * Reconciles every manager's set with the current schema (atomic/granular changes); managers
   * whose version no longer exists are dropped.
   */
  private LinkedHashMap<String, VersionedSet> reconcile(TypedValue live, ManagedFieldsMap managers) {
    LinkedHashMap<String, VersionedSet> out = new LinkedHashMap<>(managers.size() * 2 + 2);
    for (Map.Entry<String, VersionedSet> e : managers.asMap().entrySet()) {
      VersionedSet vs = e.getValue();
      TypedValue tv;
      try {
        tv = convert(live, vs.apiVersion(), "failed to convert live object");
      } catch (MissingVersionException missing) {
        continue;
      }
      FieldSet reconciled = tv.reconcileFieldSetWithSchema(vs.set()).orElse(null);
      out.put(e.getKey(), reconciled == null ? vs
          : new VersionedSet(reconciled, vs.apiVersion(), vs.applied()));
    }
    return out;
  }

  private TypedValue convert(TypedValue object, String version, String context) {
    try {
      return requireNonNull(converter.convert(object, version), "converter returned null");
    } catch (MissingVersionException e) {
      throw e;
    } catch (ConversionException e) {
      throw new ConversionException(context + ": " + e.getMessage(), e);
    }
  }

  /**
   * Configures an {@link Updater}. Not thread-safe. Options that clash (two ignore settings for
   * one version) are rejected when set.
   */
  public static final class Builder {
    private VersionConverter converter = VersionConverter.identity();
    private final Map<String, FieldSetFilter> ignore = new HashMap<>();
    private boolean compareOnApply = true;

    private Builder() {}

    /**
     * The converter between API versions; the default is {@link VersionConverter#identity()}.
     *
     * @param converter the converter
     * @return this builder
     */
    public Builder converter(VersionConverter converter) {
      this.converter = requireNonNull(converter, "converter");
      return this;
    }

    /**
     * Fields (and everything below them) that are never recorded as owned at {@code version}.
     *
     * @param version the API version
     * @param fields the fields
     * @return this builder
     * @throws IllegalStateException when the version already has ignored fields
     */
    public Builder ignoredFields(String version, FieldSet fields) {
      requireNonNull(fields, "fields");
      return ignoreFilter(version, FieldSetFilter.exclude(fields));
    }

    /**
     * A filter applied to every field set recorded or compared at {@code version}.
     *
     * @param version the API version
     * @param filter the filter
     * @return this builder
     * @throws IllegalStateException when the version already has a filter
     */
    public Builder ignoreFilter(String version, FieldSetFilter filter) {
      requireNonNull(version, "version");
      requireNonNull(filter, "filter");
      if (ignore.containsKey(version)) {
        throw new IllegalStateException("ignored fields for version \"" + version + "\" are already set");
      }
      ignore.put(version, filter);
      return this;
    }

    /**
     * Skips comparing the applied result with the live object (SMD's {@code ReturnInputOnNoop}).
     * {@link UpdateResult#changed()} is then true unless the result is the live object instance.
     *
     * @return this builder
     */
    public Builder skipNoopComparison() {
      this.compareOnApply = false;
      return this;
    }

    /**
     * Builds the updater.
     *
     * @return an immutable, thread-safe updater
     */
    public Updater build() {
      return new Updater(this);
    }
  }
}
