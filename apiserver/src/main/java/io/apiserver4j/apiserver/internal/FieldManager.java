/*
 * Copyright The apiserver4j authors.
 * SPDX-License-Identifier: Apache-2.0
 */
package io.apiserver4j.apiserver.internal;

import io.apiserver4j.core.BadRequestException;
import io.apiserver4j.core.ConflictException;
import io.apiserver4j.core.GroupVersionKind;
import io.apiserver4j.core.Json;
import io.apiserver4j.core.ListValue;
import io.apiserver4j.core.MapValue;
import io.apiserver4j.core.Meta;
import io.apiserver4j.core.Status;
import io.apiserver4j.core.StatusCause;
import io.apiserver4j.core.StatusDetails;
import io.apiserver4j.core.StatusErrors;
import io.apiserver4j.core.StatusException;
import io.apiserver4j.core.StatusReason;
import io.apiserver4j.core.StringValue;
import io.apiserver4j.core.Value;
import io.apiserver4j.fieldpath.FieldName;
import io.apiserver4j.fieldpath.FieldPath;
import io.apiserver4j.fieldpath.FieldSet;
import io.apiserver4j.fieldpath.ManagedFields;
import io.apiserver4j.fieldpath.ManagedFieldsEntry;
import io.apiserver4j.fieldpath.ManagedFieldsOperation;
import io.apiserver4j.merge.Comparison;
import io.apiserver4j.merge.Conflict;
import io.apiserver4j.merge.ConflictsException;
import io.apiserver4j.merge.Duplicates;
import io.apiserver4j.merge.Force;
import io.apiserver4j.merge.ManagedFieldsMap;
import io.apiserver4j.merge.ParseableType;
import io.apiserver4j.merge.TypedValue;
import io.apiserver4j.merge.UpdateResult;
import io.apiserver4j.merge.Updater;
import io.apiserver4j.merge.VersionedSet;
import java.time.Instant;
import java.util.ArrayList;
import java.util.Comparator;
import java.util.HashMap;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import java.util.TreeMap;
import java.util.function.UnaryOperator;
import io.apiserver4j.apimachinery.decoding.SortedJson;
import io.apiserver4j.apimachinery.validation.MetaValidation;

/**
 * kube-apiserver's managed-fields manager for one endpoint (a kind at a version, on the main
 * resource or a subresource). It reproduces apimachinery's chain of managers in its order:
 * version check, last-applied updater, last-applied (CSA to SSA) upgrade, skip-non-applied /
 * before-first-apply, cap Update managers, build manager identity, timestamp updater, strip
 * metadata, and the structured merge with the endpoint's reset fields ignored.
 *
 * <p>Managers are keyed by kube's identity JSON ({@link ManagedFieldsEntry#identity()}) while
 * the chain runs, exactly as apimachinery keys them, and turned back into entries when encoded.
 * Thread-safe; instances are cached per endpoint.
 */
public final class FieldManager {
  /** The key of the write in progress, never persisted. */
  static final String CURRENT_OPERATION = "current-operation";
  static final String BEFORE_FIRST_APPLY = "before-first-apply";
  static final String ANCIENT_CHANGES = "ancient-changes";
  /** The cap on Update entries. */
  public static final int MAX_UPDATE_MANAGERS = 10;
  /** The annotation kubectl's client-side apply keeps. */
  public static final String LAST_APPLIED = "kubectl.kubernetes.io/last-applied-configuration";

  private static final FieldSet STRIP = FieldSet.of(
      path("apiVersion"), path("kind"), path("metadata"),
      path("metadata", "name"), path("metadata", "namespace"),
      path("metadata", "creationTimestamp"), path("metadata", "selfLink"),
      path("metadata", "uid"), path("metadata", "clusterName"),
      path("metadata", "generation"), path("metadata", "managedFields"),
      path("metadata", "resourceVersion"));

  private final GroupVersionKind gvk;
  private final String apiVersion;
  private final String subresource;
  private final ParseableType type;
  private final Updater updater;
  private final UnaryOperator<MapValue> defaulter;
  private final MapValue zero;

  /**
   * @param gvk the kind and version the endpoint serves (for a scale subresource, the Scale kind)
   * @param subresource empty for the main resource
   * @param type the object's type in its schema
   * @param updater the merge engine, configured with the endpoint's reset fields and converter
   * @param defaulter kube's defaulting, run on the result of an apply
   * @param zero the kind's zero value (what kube's object creater makes), from which the
   *     {@code before-first-apply} manager is computed
   */
  public FieldManager(GroupVersionKind gvk, String subresource, ParseableType type,
      Updater updater, UnaryOperator<MapValue> defaulter, MapValue zero) {
    this.zero = zero;
    this.gvk = gvk;
    this.apiVersion = gvk.apiVersion();
    this.subresource = subresource;
    this.type = type;
    this.updater = updater;
    this.defaulter = defaulter;
  }

  private static FieldPath path(String... names) {
    FieldName[] elements = new FieldName[names.length];
    for (int i = 0; i < names.length; i++) {
      elements[i] = new FieldName(names[i]);
    }
    return FieldPath.of(elements);
  }

  /** Ownership while the chain runs: identity to set, and identity to time. */
  static final class Managed {
    final LinkedHashMap<String, VersionedSet> fields;
    final HashMap<String, Instant> times;

    Managed(LinkedHashMap<String, VersionedSet> fields, HashMap<String, Instant> times) {
      this.fields = fields;
      this.times = times;
    }

    static Managed empty() {
      return new Managed(new LinkedHashMap<>(), new HashMap<>());
    }

    Managed copy() {
      return new Managed(new LinkedHashMap<>(fields), new HashMap<>(times));
    }

    ManagedFieldsMap asMap() {
      return ManagedFieldsMap.of(fields);
    }

    Managed withFields(ManagedFieldsMap m) {
      return new Managed(new LinkedHashMap<>(m.asMap()), new HashMap<>(times));
    }
  }

  private record Result(MapValue object, Managed managed) {}

  // --- decoding and encoding ------------------------------------------------------------------

  /**
   * Decodes a managedFields value into the chain's form.
   *
   * @throws io.apiserver4j.fieldpath.ManagedFieldsException when it does not decode
   */
  static Managed decode(Value managedFields) {
    List<ManagedFieldsEntry> entries = DecodeCache.decode(managedFields);
    Managed m = Managed.empty();
    for (ManagedFieldsEntry e : entries) {
      String id = e.identity();
      m.fields.put(id, new VersionedSet(e.fields(), e.apiVersion(), e.isApply()));
      if (e.time().isPresent()) {
        m.times.put(id, e.time().get());
      } else {
        m.times.remove(id);
      }
    }
    return m;
  }

  /** The entries of {@code managed} in kube's encoding order. */
  static List<ManagedFieldsEntry> entries(Managed managed) {
    List<ManagedFieldsEntry> out = new ArrayList<>(managed.fields.size());
    for (Map.Entry<String, VersionedSet> e : managed.fields.entrySet()) {
      MapValue id = identityMap(e.getKey());
      VersionedSet vs = e.getValue();
      ManagedFieldsOperation op = vs.applied() ? ManagedFieldsOperation.APPLY
          : ManagedFieldsOperation.fromWireName(Meta.string(id, "operation"))
              .orElse(ManagedFieldsOperation.UPDATE);
      Instant t = managed.times.get(e.getKey());
      out.add(new ManagedFieldsEntry(Meta.string(id, "manager"), op, vs.apiVersion(),
          Optional.ofNullable(t), vs.set(), Meta.string(id, "subresource")));
    }
    return ManagedFields.sorted(out);
  }

  static MapValue encode(MapValue object, Managed managed) {
    List<ManagedFieldsEntry> entries = entries(managed);
    MapValue out = ManagedFields.withManagedFields(object, entries);
    DecodeCache.remember(Meta.metaValue(out, "managedFields"), entries);
    return out;
  }

  /**
   * Decoded managedFields by the identity of their (immutable) list: a stored object's list is
   * the very instance this manager encoded or decoded last time, so the next write on the object
   * skips decoding its field sets again. Small and lossy; a miss just decodes.
   */
  static final class DecodeCache {
    private static final int SIZE = 256;
    private record Slot(Value key, List<ManagedFieldsEntry> entries) {}
    private static final java.util.concurrent.atomic.AtomicReferenceArray<Slot> SLOTS =
        new java.util.concurrent.atomic.AtomicReferenceArray<>(SIZE);

    private DecodeCache() {}

    static List<ManagedFieldsEntry> decode(Value managedFields) {
      if (!(managedFields instanceof ListValue) || ((ListValue) managedFields).isEmpty()) {
        return ManagedFields.decode(managedFields);
      }
      int i = System.identityHashCode(managedFields) & (SIZE - 1);
      Slot s = SLOTS.get(i);
      if (s != null && s.key == managedFields) {
        return s.entries;
      }
      List<ManagedFieldsEntry> entries = ManagedFields.decode(managedFields);
      SLOTS.set(i, new Slot(managedFields, entries));
      return entries;
    }

    static void remember(Value managedFields, List<ManagedFieldsEntry> entries) {
      if (managedFields instanceof ListValue l && !l.isEmpty()) {
        SLOTS.set(System.identityHashCode(managedFields) & (SIZE - 1),
            new Slot(managedFields, List.copyOf(entries)));
      }
    }
  }

  private static MapValue identityMap(String identity) {
    try {
      return Json.read(identity) instanceof MapValue m ? m : MapValue.empty();
    } catch (RuntimeException e) {
      return MapValue.ofEntries("manager", Value.of(identity));
    }
  }

  /** kube's identity of a manager entry (see {@link ManagedFieldsEntry#identity()}). */
  String identity(String manager, ManagedFieldsOperation op) {
    return new ManagedFieldsEntry(manager, op, apiVersion, Optional.empty(), FieldSet.empty(),
        subresource).identity();
  }

  /** Whether the request's managedFields ask for a reset: exactly {@code []} or {@code [{}]}. */
  static boolean isReset(Value managedFields) {
    if (!(managedFields instanceof ListValue l)) {
      return false;
    }
    if (l.isEmpty()) {
      return true;
    }
    if (l.size() != 1 || !(l.get(0) instanceof MapValue m)) {
      return false;
    }
    for (int i = 0; i < m.size(); i++) {
      Value v = m.valueAt(i);
      if (v.isNull() || (v instanceof StringValue s && s.value().isEmpty())) {
        continue;
      }
      return false;
    }
    return true;
  }

  private Managed decodeLiveOrNew(MapValue live, MapValue newObj) {
    Value liveFields = Meta.metaValue(live, "managedFields");
    if (!subresource.isEmpty()) {
      return decodeOrEmpty(liveFields);
    }
    Value newFields = Meta.metaValue(newObj, "managedFields");
    if (isReset(newFields)) {
      return Managed.empty();
    }
    try {
      Managed m = decode(newFields);
      if (!m.fields.isEmpty()) {
        return m;
      }
    } catch (RuntimeException e) {
      // invalid managedFields in a request are ignored: the live ones are used
    }
    return decodeOrEmpty(liveFields);
  }

  private static Managed decodeOrEmpty(Value v) {
    try {
      return decode(v);
    } catch (RuntimeException e) {
      return Managed.empty();
    }
  }

  // --- Update ----------------------------------------------------------------------------------

  /**
   * Records a non-apply write of {@code newObj} over {@code live} by {@code manager} (already
   * defaulted from the User-Agent); never fails: on an internal error the object keeps the live
   * object's managedFields (kube's {@code UpdateNoErrors}).
   */
  public MapValue update(MapValue live, MapValue newObj, String manager, Instant now) {
    try {
      Managed managed = decodeLiveOrNew(live, newObj);
      MapValue stripped = Meta.withoutMeta(newObj, "managedFields");
      Result r = skipNonAppliedUpdate(live, stripped, managed, manager, now);
      return encode(r.object, r.managed);
    } catch (RuntimeException e) {
      return Meta.copyMeta(newObj, live, "managedFields");
    }
  }

  private Result skipNonAppliedUpdate(MapValue live, MapValue newObj, Managed managed,
      String manager, Instant now) {
    if (managed.fields.isEmpty() && !Meta.metaString(live, "uid").isEmpty()) {
      return new Result(newObj, managed);
    }
    return capUpdate(live, newObj, managed, manager, now);
  }

  private Result capUpdate(MapValue live, MapValue newObj, Managed managed, String manager,
      Instant now) {
    Result r = buildInfoUpdate(live, newObj, managed, manager, now);
    return new Result(r.object, capUpdateManagers(r.managed, MAX_UPDATE_MANAGERS));
  }

  private Result buildInfoUpdate(MapValue live, MapValue newObj, Managed managed, String manager,
      Instant now) {
    String id = identity(manager.isEmpty() ? "unknown" : manager, ManagedFieldsOperation.UPDATE);
    return timestampUpdate(live, newObj, managed, id, now);
  }

  private Result timestampUpdate(MapValue live, MapValue newObj, Managed managed, String id,
      Instant now) {
    Result r = stripUpdate(live, newObj, managed, CURRENT_OPERATION);
    Managed m = r.managed;
    VersionedSet current = m.fields.remove(CURRENT_OPERATION);
    if (current != null) {
      VersionedSet previous = m.fields.get(id);
      m.fields.put(id, previous == null ? current
          : new VersionedSet(current.set().union(previous.set()), current.apiVersion(),
              current.applied()));
      m.times.put(id, now);
    }
    return r;
  }

  private Result stripUpdate(MapValue live, MapValue newObj, Managed managed, String manager) {
    Result r = structuredUpdate(live, newObj, managed, manager);
    strip(r.managed, manager);
    return r;
  }

  private Result structuredUpdate(MapValue live, MapValue newObj, Managed managed,
      String manager) {
    TypedValue newTyped = type.fromValue(newObj, Duplicates.ALLOW);
    TypedValue liveTyped = type.fromValue(live, Duplicates.ALLOW);
    UpdateResult u = updater.update(liveTyped, newTyped, apiVersion, managed.asMap(), manager);
    return new Result(newObj, managed.withFields(u.managers()));
  }

  private static void strip(Managed managed, String manager) {
    VersionedSet vs = managed.fields.get(manager);
    if (vs == null) {
      return;
    }
    FieldSet s = vs.set().difference(STRIP);
    if (s.isEmpty()) {
      managed.fields.remove(manager);
    } else {
      managed.fields.put(manager, new VersionedSet(s, vs.apiVersion(), vs.applied()));
    }
  }

  /** kube's {@code capUpdateManagers}: merges the oldest Update entries into ancient-changes. */
  static Managed capUpdateManagers(Managed managed, int max) {
    List<String> updaters = new ArrayList<>();
    for (Map.Entry<String, VersionedSet> e : managed.fields.entrySet()) {
      if (!e.getValue().applied()) {
        updaters.add(e.getKey());
      }
    }
    if (updaters.size() <= max) {
      return managed;
    }
    updaters.sort(Comparator.<String>comparingLong(id -> seconds(managed.times.get(id)))
        .thenComparing(io.apiserver4j.core.Values::compareStrings));
    Map<String, String> firstByVersion = new HashMap<>();
    int length = updaters.size();
    for (int i = 0; i < updaters.size() && length > max; i++) {
      String id = updaters.get(i);
      VersionedSet vs = managed.fields.get(id);
      Instant time = managed.times.get(id);
      String version = vs.apiVersion();
      String bucket = new ManagedFieldsEntry(ANCIENT_CHANGES, ManagedFieldsOperation.UPDATE,
          version, Optional.empty(), FieldSet.empty(), "").identity();
      String first = firstByVersion.get(version);
      if (first != null) {
        if (!managed.fields.containsKey(bucket)) {
          VersionedSet s = managed.fields.remove(first);
          managed.fields.put(bucket, s);
        }
        VersionedSet b = managed.fields.get(bucket);
        managed.fields.put(bucket, new VersionedSet(vs.set().union(b.set()), vs.apiVersion(),
            vs.applied()));
        managed.fields.remove(id);
        length--;
        if (time == null) {
          managed.times.remove(bucket);
        } else {
          managed.times.put(bucket, time);
        }
      } else {
        firstByVersion.put(version, id);
      }
    }
    return managed;
  }

  private static long seconds(Instant t) {
    return t == null ? 0 : t.getEpochSecond();
  }

  // --- Apply -----------------------------------------------------------------------------------

  /**
   * Applies {@code applied} for {@code manager} onto {@code live} (an object without uid when it
   * does not exist yet).
   *
   * @throws StatusException 400 for a wrong kind or version or managedFields in the body, 409
   *     with the conflicts, 500 when the body does not fit the schema or the live managedFields do
   *     not decode (as kube-apiserver)
   */
  public MapValue apply(MapValue live, MapValue applied, String manager, boolean force,
      Instant now) {
    Managed managed;
    try {
      managed = decode(Meta.metaValue(live, "managedFields"));
    } catch (RuntimeException e) {
      throw plainError("failed to decode managed fields: " + e.getMessage());
    }
    Result r;
    try {
      r = versionCheckApply(live, applied, managed, manager, force, now);
    } catch (ConflictsException e) {
      throw conflictError(e.conflicts());
    }
    return encode(r.object, r.managed);
  }

  private Result versionCheckApply(MapValue live, MapValue applied, Managed managed,
      String manager, boolean force, Instant now) {
    GroupVersionKind given = GroupVersionKind.of(Meta.string(applied, "apiVersion"),
        Meta.string(applied, "kind"));
    if (!given.equals(gvk)) {
      throw StatusErrors.badRequest("invalid object type: " + gvkString(given));
    }
    return lastAppliedUpdaterApply(live, applied, managed, manager, force, now);
  }

  private Result lastAppliedUpdaterApply(MapValue live, MapValue applied, Managed managed,
      String manager, boolean force, Instant now) {
    Result r = lastAppliedManagerApply(live, applied, managed, manager, force, now);
    if (manager.equals("kubectl") && hasLastApplied(r.object)) {
      MapValue config = withoutAnnotation(applied, LAST_APPLIED);
      return new Result(setLastApplied(r.object, SortedJson.encodeLine(config)), r.managed);
    }
    return r;
  }

  private static boolean hasLastApplied(MapValue obj) {
    return Meta.metadata(obj).getOrNull("annotations") instanceof MapValue a
        && a.getOrNull(LAST_APPLIED) instanceof StringValue s && !s.value().isEmpty();
  }

  private static MapValue withoutAnnotation(MapValue obj, String key) {
    if (!(Meta.metadata(obj).getOrNull("annotations") instanceof MapValue a)
        || !a.containsKey(key)) {
      return obj;
    }
    MapValue rest = a.without(key);
    return Meta.withMeta(obj, "annotations", rest);
  }

  // Sets the annotation, or drops it when the annotations would exceed their total size limit.
  static MapValue setLastApplied(MapValue obj, String value) {
    MapValue annotations = Meta.metadata(obj).getOrNull("annotations") instanceof MapValue a
        ? a : MapValue.empty();
    annotations = annotations.with(LAST_APPLIED, Value.of(value));
    if (MetaValidation.annotationsSize(annotations) > MetaValidation.TOTAL_ANNOTATION_SIZE_LIMIT) {
      annotations = annotations.without(LAST_APPLIED);
    }
    return Meta.withMeta(obj, "annotations", annotations);
  }

  private Result lastAppliedManagerApply(MapValue live, MapValue applied, Managed managed,
      String manager, boolean force, Instant now) {
    try {
      return skipNonAppliedApply(live, applied, managed.copy(), manager, force, now);
    } catch (ConflictsException e) {
      if (!manager.equals("kubectl")) {
        throw e;
      }
      Optional<FieldSet> allowed = allowedConflictsFromLastApplied(live);
      if (allowed.isEmpty()) {
        throw e;
      }
      List<Conflict> remaining = new ArrayList<>();
      for (Conflict c : e.conflicts()) {
        if (!allowed.get().contains(c.path())) {
          remaining.add(c);
        }
      }
      if (!remaining.isEmpty()) {
        throw new ConflictsException(remaining);
      }
      return skipNonAppliedApply(live, applied, managed.copy(), manager, true, now);
    }
  }

  // The fields of the last-applied annotation whose values still match the live object.
  private Optional<FieldSet> allowedConflictsFromLastApplied(MapValue live) {
    if (!(Meta.metadata(live).getOrNull("annotations") instanceof MapValue a)
        || !(a.getOrNull(LAST_APPLIED) instanceof StringValue s) || s.value().isEmpty()) {
      return Optional.empty();
    }
    try {
      Value lastApplied = Json.read(s.value());
      if (!(lastApplied instanceof MapValue la) || !Meta.string(la, "apiVersion").equals(apiVersion)) {
        return Optional.empty();
      }
      TypedValue liveTyped = type.fromValue(live);
      TypedValue lastTyped = type.fromValue(la);
      FieldSet set = lastTyped.toFieldSet();
      Comparison c = lastTyped.compare(liveTyped);
      return Optional.of(set.difference(c.modified()).difference(c.added())
          .difference(c.removed()));
    } catch (RuntimeException e) {
      return Optional.empty();
    }
  }

  private Result skipNonAppliedApply(MapValue live, MapValue applied, Managed managed,
      String manager, boolean force, Instant now) {
    if (managed.fields.isEmpty()) {
      Result r = capUpdate(zero, live, managed, BEFORE_FIRST_APPLY, now);
      managed = r.managed;
    }
    return buildInfoApply(live, applied, managed, manager, force, now);
  }

  private Result buildInfoApply(MapValue live, MapValue applied, Managed managed, String manager,
      boolean force, Instant now) {
    String id = identity(manager, ManagedFieldsOperation.APPLY);
    return timestampApply(live, applied, managed, id, force, now);
  }

  private Result timestampApply(MapValue live, MapValue applied, Managed managed, String id,
      boolean force, Instant now) {
    Result r = stripApply(live, applied, managed, id, force);
    if (r.object != null) {
      r.managed.times.put(id, now);
      return r;
    }
    return new Result(Meta.withoutMeta(live, "managedFields"), r.managed);
  }

  private Result stripApply(MapValue live, MapValue applied, Managed managed, String id,
      boolean force) {
    Result r = structuredApply(live, applied, managed, id, force);
    strip(r.managed, id);
    return r;
  }

  private Result structuredApply(MapValue live, MapValue applied, Managed managed, String id,
      boolean force) {
    String patchVersion = Meta.string(applied, "apiVersion");
    if (!patchVersion.equals(apiVersion)) {
      throw StatusErrors.badRequest("Incorrect version specified in apply patch. Specified patch"
          + " version: " + patchVersion + ", expected: " + apiVersion);
    }
    if (Meta.metadata(applied).containsKey("managedFields")
        && !Meta.metadata(applied).getOrNull("managedFields").isNull()) {
      throw StatusErrors.badRequest("metadata.managedFields must be nil");
    }
    TypedValue patchTyped;
    try {
      patchTyped = type.fromValue(applied, Duplicates.REJECT);
    } catch (RuntimeException e) {
      throw plainError("failed to create typed patch object (" + gvknn(applied) + "): "
          + e.getMessage());
    }
    TypedValue liveTyped;
    try {
      liveTyped = type.fromValue(live, Duplicates.ALLOW);
    } catch (RuntimeException e) {
      throw plainError("failed to create typed live object (" + gvknn(live) + "): "
          + e.getMessage());
    }
    UpdateResult u = updater.apply(liveTyped, patchTyped, apiVersion, managed.asMap(), id,
        force ? Force.YES : Force.NO);
    Managed m = managed.withFields(u.managers());
    if (!u.changed()) {
      return new Result(null, m);
    }
    MapValue merged = (MapValue) u.object().value();
    try {
      return new Result(defaulter.apply(merged), m);
    } catch (GoDecoding.ConversionFailure e) {
      // kube converts the merged object back to its Go type before defaulting it
      throw plainError("failed to convert new object (" + gvknn(applied) + ") to proper"
          + " version: unable to convert unstructured object to " + gvkString(gvk) + ": "
          + e.getMessage());
    }
  }

  private String gvknn(MapValue obj) {
    String ns = Meta.metaString(obj, "namespace");
    String name = Meta.metaString(obj, "name");
    return ns + "/" + name + "; " + gvkString(GroupVersionKind.of(Meta.string(obj, "apiVersion"),
        Meta.string(obj, "kind")));
  }

  /** Go's {@code GroupVersionKind.String()}: always {@code group/version, Kind=kind}. */
  static String gvkString(GroupVersionKind gvk) {
    return gvk.group() + "/" + gvk.version() + ", Kind=" + gvk.kind();
  }

  /** An error that is not a typed API error: HTTP 500 with no reason, as kube reports them. */
  static StatusException plainError(String message) {
    return new StatusException(Status.failure(StatusReason.UNKNOWN, message));
  }

  // --- conflicts -------------------------------------------------------------------------------

  /** kube's apply conflict error: 409, reason Conflict, one cause per conflicting field. */
  public static ConflictException conflictError(List<Conflict> conflicts) {
    List<StatusCause> causes = new ArrayList<>();
    for (Conflict c : conflicts) {
      causes.add(new StatusCause("FieldManagerConflict", "conflict with "
          + printManager(c.manager()), c.path().toString()));
    }
    String message;
    if (conflicts.size() == 1) {
      Conflict c = conflicts.get(0);
      message = "Apply failed with 1 conflict: conflict with " + printManager(c.manager()) + ": "
          + c.path();
    } else {
      TreeMap<String, List<FieldPath>> byManager =
          new TreeMap<>(io.apiserver4j.core.Values::compareStrings);
      for (Conflict c : conflicts) {
        byManager.computeIfAbsent(c.manager(), k -> new ArrayList<>()).add(c.path());
      }
      List<String> lines = new ArrayList<>();
      byManager.forEach((m, paths) -> {
        lines.add("conflicts with " + printManager(m) + ":");
        paths.forEach(p -> lines.add("- " + p));
      });
      message = "Apply failed with " + conflicts.size() + " conflicts: " + String.join("\n", lines);
    }
    return new ConflictException(Status.failure(StatusReason.CONFLICT, message,
        new StatusDetails("", "", "", "", causes, 0)));
  }

  /** kube's {@code printManager}: the name quoted, the subresource, and the version of Updates. */
  static String printManager(String identity) {
    Value v;
    try {
      v = Json.read(identity);
    } catch (RuntimeException e) {
      return io.apiserver4j.core.GoStrings.quote(identity);
    }
    if (!(v instanceof MapValue m)) {
      return io.apiserver4j.core.GoStrings.quote(identity);
    }
    StringBuilder sb = new StringBuilder(io.apiserver4j.core.GoStrings.quote(Meta.string(m, "manager")));
    String sub = Meta.string(m, "subresource");
    if (!sub.isEmpty()) {
      sb.append(" with subresource ").append(io.apiserver4j.core.GoStrings.quote(sub));
    }
    if (Meta.string(m, "operation").equals("Update")) {
      sb.append(" using ").append(Meta.string(m, "apiVersion"));
      String time = Meta.string(m, "time");
      if (!time.isEmpty()) {
        sb.append(" at ").append(time);
      }
    }
    return sb.toString();
  }

  /** The version this manager records. */
  public String apiVersion() {
    return apiVersion;
  }

  /** Whether {@code obj}'s managedFields decode (kube's {@code ValidateManagedFields}). */
  public static Optional<String> managedFieldsError(MapValue obj) {
    try {
      ManagedFields.decode(Meta.metaValue(obj, "managedFields"));
      return Optional.empty();
    } catch (RuntimeException e) {
      return Optional.of(e.getMessage());
    }
  }

  /** The 400 the body check of an apply raises when it is no object. */
  static BadRequestException notAnObject() {
    return StatusErrors.badRequest("error decoding patch: the apply configuration must be an"
        + " object");
  }
}
