package io.apiserver4j.core;

import static java.util.Objects.requireNonNull;

import java.util.LinkedHashMap;
import java.util.Map;
import java.util.Optional;

/**
 * Read accessors (and copy-on-write setters) for a Kubernetes object held as a {@link MapValue}:
 * {@code apiVersion}, {@code kind} and the common {@code metadata} fields.
 *
 * <p>String accessors return {@code ""} for an absent or non-string field, as Go's zero value
 * does; that is how kube-apiserver treats them. Setters return a new object.
 */
public record ApiObject(MapValue value) {
  public ApiObject {
    requireNonNull(value, "value");
  }

  public static ApiObject of(Value value) {
    if (!(value instanceof MapValue m)) {
      throw new IllegalArgumentException("an API object must be a map, got " + value.kind());
    }
    return new ApiObject(m);
  }

  public String apiVersion() {
    return string(value, "apiVersion");
  }

  public String kind() {
    return string(value, "kind");
  }

  public GroupVersionKind groupVersionKind() {
    return GroupVersionKind.of(apiVersion(), kind());
  }

  /** The metadata map; empty when absent or not a map. */
  public MapValue metadata() {
    return value.getOrNull("metadata") instanceof MapValue m ? m : MapValue.empty();
  }

  public String name() {
    return string(metadata(), "name");
  }

  public String generateName() {
    return string(metadata(), "generateName");
  }

  public String namespace() {
    return string(metadata(), "namespace");
  }

  public String uid() {
    return string(metadata(), "uid");
  }

  public String resourceVersion() {
    return string(metadata(), "resourceVersion");
  }

  public String creationTimestamp() {
    return string(metadata(), "creationTimestamp");
  }

  public String deletionTimestamp() {
    return string(metadata(), "deletionTimestamp");
  }

  public long generation() {
    return metadata().getOrNull("generation") instanceof IntegerValue i ? i.value() : 0;
  }

  public Map<String, String> labels() {
    return stringMap(metadata().getOrNull("labels"));
  }

  public Map<String, String> annotations() {
    return stringMap(metadata().getOrNull("annotations"));
  }

  /** {@code metadata.managedFields} as stored, if present. */
  public Optional<Value> managedFields() {
    return Optional.ofNullable(metadata().getOrNull("managedFields"));
  }

  /** A top-level field, if present. */
  public Optional<Value> field(String name) {
    return value.get(name);
  }

  /** A copy with metadata field {@code key} set (metadata created when absent). */
  public ApiObject withMetadata(String key, Value v) {
    return new ApiObject(value.with("metadata", metadata().with(key, v)));
  }

  /** A copy without metadata field {@code key}. */
  public ApiObject withoutMetadata(String key) {
    MapValue meta = metadata();
    if (!meta.containsKey(key)) {
      return this;
    }
    return new ApiObject(value.with("metadata", meta.without(key)));
  }

  public ApiObject with(String key, Value v) {
    return new ApiObject(value.with(key, v));
  }

  public ApiObject without(String key) {
    return new ApiObject(value.without(key));
  }

  private static String string(MapValue m, String key) {
    return m.getOrNull(key) instanceof StringValue s ? s.value() : "";
  }

  private static Map<String, String> stringMap(Value v) {
    if (!(v instanceof MapValue m)) {
      return Map.of();
    }
    Map<String, String> out = new LinkedHashMap<>();
    for (int i = 0; i < m.size(); i++) {
      if (m.valueAt(i) instanceof StringValue s) {
        out.put(m.keyAt(i), s.value());
      }
    }
    return java.util.Collections.unmodifiableMap(out);
  }
}
