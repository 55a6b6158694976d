/*
 * Copyright The apiserver4j authors.
 * SPDX-License-Identifier: Apache-2.0
 */
package io.apiserver4j.controllers.internal;

import io.apiserver4j.apimachinery.patch.PatchType;
import io.apiserver4j.apiserver.ResourceClient;
import io.apiserver4j.core.Json;
import io.apiserver4j.core.ListValue;
import io.apiserver4j.core.MapValue;
import io.apiserver4j.core.Meta;
import io.apiserver4j.core.Nested;
import io.apiserver4j.core.Value;
import io.apiserver4j.core.errors.AlreadyExistsException;
import io.apiserver4j.core.errors.ConflictException;
import io.apiserver4j.core.errors.NotFoundException;
import io.apiserver4j.core.labels.LabelSelector;
import java.nio.charset.StandardCharsets;
import java.time.Instant;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.Comparator;
import java.util.List;
import java.util.Map;
import java.util.Objects;
import java.util.Optional;
import java.util.function.Function;

/**
 * kube's pkg/controller/history for ControllerRevision values: the revision hash (FNV-32 of the
 * revision's raw data and the collision count, encoded with {@code rand.SafeEncodeString}),
 * names {@code <parent>-<hash>}, ordering by revision number, equality, and the API operations a
 * workload controller makes on its revisions (create with collision handling, renumber, delete,
 * adopt). The static functions are pure; an instance is thread-safe when its client is.
 */
public final class ControllerHistory {
  /** kube's {@code ControllerRevisionHashLabel}: the hash of a revision's data. */
  public static final String HASH_LABEL = "controller.kubernetes.io/hash";
  /** The alphabet of apimachinery's {@code rand.SafeEncodeString}: no vowels, no look-alikes. */
  private static final String ALPHANUMS = "bcdfghjklmnpqrstvwxz2456789";

  private final String ownerApiVersion;
  private final String ownerKind;
  private final Function<String, ResourceClient> revisions;

  /**
   * @param ownerApiVersion the owner kind's apiVersion, for the controllerRef
   * @param ownerKind the owner kind, for the controllerRef
   * @param revisions the ControllerRevision client of a namespace, as the controller's user
   */
  public ControllerHistory(String ownerApiVersion, String ownerKind,
      Function<String, ResourceClient> revisions) {
    this.ownerApiVersion = Objects.requireNonNull(ownerApiVersion, "ownerApiVersion");
    this.ownerKind = Objects.requireNonNull(ownerKind, "ownerKind");
    this.revisions = Objects.requireNonNull(revisions, "revisions");
  }

  // ---- pure functions ----

  /**
   * kube's {@code HashControllerRevision}: FNV-32 (not 32a) over the raw data, then over the
   * decimal collision count when there is one, safe-encoded.
   */
  public static String hash(byte[] raw, Optional<Long> collisionCount) {
    int h = 0x811c9dc5;
    h = fnv32(h, raw);
    if (collisionCount.isPresent()) {
      h = fnv32(h, Long.toString(collisionCount.get()).getBytes(StandardCharsets.US_ASCII));
    }
    return safeEncode(Long.toString(Integer.toUnsignedLong(h)));
  }

  private static int fnv32(int h, byte[] bytes) {
    for (byte b : bytes) {
      h *= 0x01000193;
      h ^= b & 0xff;
    }
    return h;
  }

  /** FNV-32a over bytes, as Go's {@code fnv.New32a}; unsigned value. */
  public static long fnv32a(byte[] bytes) {
    int h = 0x811c9dc5;
    for (byte b : bytes) {
      h ^= b & 0xff;
      h *= 0x01000193;
    }
    return Integer.toUnsignedLong(h);
  }

  /** apimachinery's {@code rand.SafeEncodeString}: each byte mapped into a 27-letter alphabet. */
  public static String safeEncode(String s) {
    byte[] bytes = s.getBytes(StandardCharsets.UTF_8);
    StringBuilder out = new StringBuilder(bytes.length);
    for (byte b : bytes) {
      out.append(ALPHANUMS.charAt((b & 0xff) % ALPHANUMS.length()));
    }
    return out.toString();
  }

  /** kube's {@code ControllerRevisionName}: the prefix cut to 223 bytes, a dash, the hash. */
  public static String name(String prefix, String hash) {
    String p = prefix.length() > 223 ? prefix.substring(0, 223) : prefix;
    return p + "-" + hash;
  }

  /**
   * The bytes Go's {@code json.Marshal} writes for a {@code map[string]interface{}} holding
   * {@code value}: compact, keys sorted at every level, Go's escapes.
   */
  public static byte[] canonicalJson(Value value) {
    return Json.writeBytes(sortKeys(value));
  }

  private static Value sortKeys(Value v) {
    if (v instanceof MapValue m) {
      String[] keys = new String[m.size()];
      for (int i = 0; i < m.size(); i++) {
        keys[i] = m.keyAt(i);
      }
      // Go sorts map keys by their bytes; UTF-16 order differs only beyond the BMP
      Arrays.sort(keys);
      MapValue.Builder b = MapValue.builder(keys.length);
      for (String k : keys) {
        b.put(k, sortKeys(m.getOrNull(k)));
      }
      return b.build();
    }
    if (v instanceof ListValue l) {
      List<Value> items = new ArrayList<>(l.size());
      for (Value item : l.items()) {
        items.add(sortKeys(item));
      }
      return ListValue.of(items);
    }
    return v;
  }

  /** A revision's raw data: its {@code data} as canonical JSON (empty when it has none). */
  public static byte[] raw(MapValue revision) {
    Value data = revision.getOrNull("data");
    if (data == null || data.equals(Value.nullValue())) {
      return new byte[0];
    }
    return canonicalJson(data);
  }

  /** A revision's {@code revision} number. */
  public static long revision(MapValue revision) {
    return Nested.integer(revision, "revision");
  }

  /**
   * kube's {@code SortControllerRevisions}: by revision number, then creation time, then name;
   * stable, returns a new list.
   */
  public static List<MapValue> sorted(List<MapValue> revisions) {
    List<MapValue> out = new ArrayList<>(revisions);
    out.sort(Comparator.comparingLong(ControllerHistory::revision)
        .thenComparing(r -> Pods.time(r, "metadata", "creationTimestamp").orElse(Instant.MIN))
        .thenComparing(r -> Meta.metaString(r, "name")));
    return out;
  }

  /**
   * kube's {@code EqualRevision}: hashes in the hash label, when both parse, must agree; then
   * the raw data must be equal.
   */
  public static boolean equalRevision(MapValue a, MapValue b) {
    Optional<Long> ha = labelHash(a);
    Optional<Long> hb = labelHash(b);
    if (ha.isPresent() && hb.isPresent() && !ha.get().equals(hb.get())) {
      return false;
    }
    return Arrays.equals(raw(a), raw(b));
  }

  /** The hash label as Go's {@code strconv.ParseInt(hs, 10, 32)} reads it, truncated to 32 bits. */
  private static Optional<Long> labelHash(MapValue revision) {
    String hs = Meta.labels(revision).get(HASH_LABEL);
    if (hs == null) {
      return Optional.empty();
    }
    try {
      int v = Integer.parseInt(hs);
      return Optional.of(Integer.toUnsignedLong(v));
    } catch (NumberFormatException e) {
      return Optional.empty();
    }
  }

  /** kube's {@code FindEqualRevisions}: the ones equal to {@code needle}, order kept. */
  public static List<MapValue> findEqual(List<MapValue> revisions, MapValue needle) {
    return revisions.stream().filter(r -> equalRevision(r, needle)).toList();
  }

  /** kube's {@code nextRevision}: one past the last of sorted revisions, 1 when there are none. */
  public static long nextRevision(List<MapValue> sorted) {
    return sorted.isEmpty() ? 1 : revision(sorted.get(sorted.size() - 1)) + 1;
  }

  /**
   * kube's {@code NewControllerRevision}: a revision controlled by {@code parent} with the
   * template's labels plus the hash label, the data, the number, named by its hash.
   */
  public MapValue newRevision(MapValue parent, Map<String, String> templateLabels, Value data,
      long revision, Optional<Long> collisionCount) {
    MapValue body = MapValue.ofEntries("apiVersion", Value.of("apps/v1"),
        "kind", Value.of("ControllerRevision"),
        "metadata", MapValue.ofEntries("namespace", Value.of(Meta.metaString(parent, "namespace")),
            "ownerReferences", ListValue.of(List.of(controllerRef(parent)))),
        "data", data, "revision", Value.of(revision));
    String hash = hash(canonicalJson(data), collisionCount);
    MapValue.Builder labels = MapValue.builder();
    templateLabels.forEach((k, v) -> labels.put(k, Value.of(v)));
    labels.put(HASH_LABEL, Value.of(hash));
    body = Meta.withMeta(body, "labels", labels.build());
    return Meta.withMetaString(body, "name", name(Meta.metaString(parent, "name"), hash));
  }

  /** The controllerRef of a revision (or another dependent) of {@code parent}. */
  public MapValue controllerRef(MapValue parent) {
    return MapValue.ofEntries("apiVersion", Value.of(ownerApiVersion),
        "kind", Value.of(ownerKind), "name", Value.of(Meta.metaString(parent, "name")),
        "uid", Value.of(Meta.metaString(parent, "uid")), "controller", Value.of(true),
        "blockOwnerDeletion", Value.of(true));
  }

  // ---- API operations ----

  /**
   * kube's {@code ListControllerRevisions}: the revisions matching the selector that
   * {@code parent} controls or nobody controls.
   */
  public static List<MapValue> owned(MapValue parent, LabelSelector selector,
      List<MapValue> candidates) {
    String uid = Meta.metaString(parent, "uid");
    List<MapValue> out = new ArrayList<>();
    for (MapValue r : candidates) {
      if (!selector.matches(Meta.labels(r))) {
        continue;
      }
      Optional<MapValue> ref = Pods.controllerRef(r);
      if (ref.isEmpty() || Nested.str(ref.get(), "uid").equals(uid)) {
        out.add(r);
      }
    }
    return out;
  }

  /** The result of {@link #create}: the revision in the server and the collision count. */
  public record Created(MapValue revision, long collisionCount) {}

  /**
   * kube's {@code CreateControllerRevision}: creates {@code revision}, renamed by its hash with
   * the collision count; when the name is taken by equal data the existing one is returned,
   * else the count is incremented and the name recomputed.
   */
  public Created create(MapValue parent, MapValue revision, long collisionCount) {
    long count = collisionCount;
    byte[] raw = raw(revision);
    ResourceClient client = revisions.apply(Meta.metaString(parent, "namespace"));
    while (true) {
      String hash = hash(raw, Optional.of(count));
      MapValue clone = Meta.withMetaString(revision, "name",
          name(Meta.metaString(parent, "name"), hash));
      try {
        return new Created(client.create(clone), count);
      } catch (AlreadyExistsException e) {
        MapValue exists = client.get(Meta.metaString(clone, "name"));
        if (Arrays.equals(raw(exists), raw)) {
          return new Created(exists, count);
        }
        count++;
      }
    }
  }

  /** kube's {@code UpdateControllerRevision}: sets the revision number, retrying conflicts. */
  public MapValue renumber(MapValue revision, long newRevision) {
    ResourceClient client = revisions.apply(Meta.metaString(revision, "namespace"));
    MapValue current = revision;
    for (int attempt = 0; ; attempt++) {
      if (revision(current) == newRevision) {
        return current;
      }
      try {
        return client.update(current.with("revision", Value.of(newRevision)));
      } catch (ConflictException e) {
        if (attempt >= 4) {
          throw e;
        }
        current = client.get(Meta.metaString(current, "name"));
      }
    }
  }

  /** kube's {@code DeleteControllerRevision}; one already gone counts as deleted. */
  public void delete(MapValue revision) {
    try {
      revisions.apply(Meta.metaString(revision, "namespace"))
          .delete(Meta.metaString(revision, "name"));
    } catch (NotFoundException e) {
      // already gone
    }
  }

  /**
   * kube's {@code AdoptControllerRevision}: a strategic merge patch adding the controllerRef
   * with the revision's UID as precondition.
   *
   * @throws IllegalStateException when the revision already has a controller
   */
  public MapValue adopt(MapValue parent, MapValue revision) {
    Optional<MapValue> owner = Pods.controllerRef(revision);
    if (owner.isPresent()) {
      throw new IllegalStateException("attempt to adopt revision owned by " + owner.get());
    }
    MapValue patch = MapValue.ofEntries("metadata", MapValue.ofEntries(
        "ownerReferences", ListValue.of(List.of(controllerRef(parent))),
        "uid", Value.of(Meta.metaString(revision, "uid"))));
    return revisions.apply(Meta.metaString(parent, "namespace")).patch(
        Meta.metaString(revision, "name"), PatchType.STRATEGIC_MERGE_PATCH, Json.write(patch));
  }
}
