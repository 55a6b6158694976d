/*
 * Copyright The apiserver4j authors.
 * SPDX-License-Identifier: Apache-2.0
 */
package io.apiserver4j.apimachinery.managedfields;

import static java.util.Objects.requireNonNull;

import io.apiserver4j.core.ListValue;
import io.apiserver4j.core.MapValue;
import io.apiserver4j.core.Value;
import io.apiserver4j.fieldpath.ManagedFields;
import io.apiserver4j.fieldpath.ManagedFieldsEntry;
import io.apiserver4j.fieldpath.ManagedFieldsOperation;
import io.apiserver4j.merge.ManagedFieldsMap;
import io.apiserver4j.merge.VersionedSet;
import java.time.Instant;
import java.util.ArrayList;
import java.util.Collections;
import java.util.HashMap;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Optional;

/**
 * The field ownership of one object while the manager chain runs (kube's
 * {@code ManagedInterface}): the merge engine's sets by manager key, the time of each manager's
 * last change, and the {@link ManagerIdentity} behind each key. Keys are kube's manager
 * identifiers ({@link ManagerIdentity#encode()}), so the merge engine and its conflicts see what
 * kube's see; a key without an identity (kube's transient {@code current-operation}) must not
 * reach {@link #entries()}.
 *
 * <p>Immutable and thread-safe: every {@code with} method returns a modified copy.
 */
public final class Managed {
  private static final Managed EMPTY = new Managed(ManagedFieldsMap.empty(), Map.of(), Map.of());

  private final ManagedFieldsMap fields;
  private final Map<String, Instant> times;
  private final Map<String, ManagerIdentity> identities;

  private Managed(ManagedFieldsMap fields, Map<String, Instant> times,
      Map<String, ManagerIdentity> identities) {
    this.fields = fields;
    this.times = times;
    this.identities = identities;
  }

  /** No managers (kube's {@code NewEmptyManaged}). */
  public static Managed empty() {
    return EMPTY;
  }

  /**
   * Decodes a {@code metadata.managedFields} value (kube's {@code DecodeManagedFields}); null or
   * absent is {@link #empty()}. Entries with the same identity collapse, the later one winning.
   *
   * @throws io.apiserver4j.fieldpath.ManagedFieldsException when the value does not decode
   */
  public static Managed decode(Value managedFields) {
    requireNonNull(managedFields, "managedFields");
    List<ManagedFieldsEntry> entries = ManagedFields.decode(managedFields);
    if (entries.isEmpty()) {
      return EMPTY;
    }
    LinkedHashMap<String, VersionedSet> fields = new LinkedHashMap<>();
    Map<String, Instant> times = new HashMap<>();
    Map<String, ManagerIdentity> identities = new HashMap<>();
    for (ManagedFieldsEntry e : entries) {
      String key = e.identity();
      fields.put(key, new VersionedSet(e.fields(), e.apiVersion(), e.isApply()));
      e.time().ifPresent(t -> times.put(key, t));
      identities.put(key, ManagerIdentity.of(e));
    }
    return new Managed(ManagedFieldsMap.of(fields), Collections.unmodifiableMap(times),
        Collections.unmodifiableMap(identities));
  }

  /** The sets by manager key, as the merge engine takes and returns them. */
  public ManagedFieldsMap fields() {
    return fields;
  }

  /** When manager {@code key} last changed something, if known. */
  public Optional<Instant> time(String key) {
    return Optional.ofNullable(times.get(key));
  }

  /** The identity behind manager {@code key}, if it has one. */
  public Optional<ManagerIdentity> identity(String key) {
    return Optional.ofNullable(identities.get(key));
  }

  /** Whether no manager owns anything. */
  public boolean isEmpty() {
    return fields.isEmpty();
  }

  /** A copy with the merge engine's new sets; times and identities are kept (kube's NewManaged). */
  public Managed withFields(ManagedFieldsMap newFields) {
    requireNonNull(newFields, "newFields");
    return newFields == fields ? this : new Managed(newFields, times, identities);
  }

  /** A copy where manager {@code key} owns {@code set}, replaced in place or appended. */
  public Managed with(String key, VersionedSet set) {
    return withFields(fields.with(key, set));
  }

  /** A copy without manager {@code key}'s set. */
  public Managed without(String key) {
    return withFields(fields.without(key));
  }

  /** A copy with manager {@code key}'s time set, or cleared when {@code time} is empty. */
  public Managed withTime(String key, Optional<Instant> time) {
    requireNonNull(key, "key");
    requireNonNull(time, "time");
    if (time.isEmpty() && !times.containsKey(key)) {
      return this;
    }
    Map<String, Instant> t = new HashMap<>(times);
    if (time.isPresent()) {
      t.put(key, time.get());
    } else {
      t.remove(key);
    }
    return new Managed(fields, Collections.unmodifiableMap(t), identities);
  }

  /**
   * A copy that knows {@code key} stands for {@code identity}; the caller passes the key it
   * encoded, so that an identity is encoded once.
   */
  Managed withIdentity(String key, ManagerIdentity identity) {
    if (identity.equals(identities.get(key))) {
      return this;
    }
    Map<String, ManagerIdentity> ids = new HashMap<>(identities);
    ids.put(key, identity);
    return new Managed(fields, times, Collections.unmodifiableMap(ids));
  }

  /**
   * The entries in kube's encoding order (kube's {@code encodeManagedFields}): each key's
   * identity with the set's version, and {@code Apply} when the set was applied.
   *
   * @throws IllegalStateException when a key has no identity (a bug in the chain)
   */
  public List<ManagedFieldsEntry> entries() {
    List<ManagedFieldsEntry> out = new ArrayList<>(fields.size());
    fields.asMap().forEach((key, set) -> out.add(entry(key, set)));
    return ManagedFields.sorted(out);
  }

  private ManagedFieldsEntry entry(String key, VersionedSet set) {
    ManagerIdentity id = identities.get(key);
    if (id == null) {
      throw new IllegalStateException("manager " + key + " has no identity to encode");
    }
    ManagedFieldsOperation op = set.applied() ? ManagedFieldsOperation.APPLY : id.operation();
    return new ManagedFieldsEntry(id.manager(), op, set.apiVersion(),
        Optional.ofNullable(times.get(key)), set.set(), id.subresource());
  }

  /**
   * {@code object} with its managedFields set to these (kube's {@code EncodeObjectManagedFields};
   * none removes the field), and the same ownership as {@link #decode} would read back from it.
   */
  Encoded encodeInto(MapValue object) {
    requireNonNull(object, "object");
    List<String> keys = new ArrayList<>(fields.managers());
    List<ManagedFieldsEntry> entries = new ArrayList<>(keys.size());
    for (String key : keys) {
      entries.add(entry(key, fields.asMap().get(key)));
    }
    // sort keys and entries together so the remembered ownership is in decoding order
    Integer[] order = new Integer[keys.size()];
    for (int i = 0; i < order.length; i++) {
      order[i] = i;
    }
    java.util.Arrays.sort(order, (a, b) -> ManagedFields.ENCODING_ORDER.compare(entries.get(a),
        entries.get(b)));
    LinkedHashMap<String, VersionedSet> sortedFields = new LinkedHashMap<>();
    Map<String, Instant> keptTimes = new HashMap<>();
    Map<String, ManagerIdentity> keptIds = new HashMap<>();
    List<ManagedFieldsEntry> sortedEntries = new ArrayList<>(order.length);
    for (int i : order) {
      String key = keys.get(i);
      sortedEntries.add(entries.get(i));
      sortedFields.put(key, fields.asMap().get(key));
      Instant t = times.get(key);
      if (t != null) {
        keptTimes.put(key, t);
      }
      keptIds.put(key, identities.get(key));
    }
    MapValue out = ManagedFields.withManagedFields(object, sortedEntries);
    Managed canonical = sortedEntries.isEmpty() ? EMPTY : new Managed(
        ManagedFieldsMap.of(sortedFields), Collections.unmodifiableMap(keptTimes),
        Collections.unmodifiableMap(keptIds));
    return new Encoded(out, canonical);
  }

  /** An encoded object and the ownership its managedFields decode to. */
  record Encoded(MapValue object, Managed managed) {
    /** The list written, when there is one (kube writes none for no managers). */
    Optional<ListValue> list() {
      return Managed.list(object);
    }
  }

  static Optional<ListValue> list(MapValue object) {
    return object.getOrNull("metadata") instanceof MapValue m
        && m.getOrNull("managedFields") instanceof ListValue l ? Optional.of(l) : Optional.empty();
  }

  @Override
  public String toString() {
    return fields.toString();
  }
}
