/*
 * Copyright The apiserver4j authors.
 * SPDX-License-Identifier: Apache-2.0
 */
package io.apiserver4j.merge.openapi;

import io.apiserver4j.core.BooleanValue;
import io.apiserver4j.core.MapValue;
import io.apiserver4j.core.Value;

/**
 * Turns a CRD version's {@code openAPIV3Schema} into the model kube-apiserver's CRD handler
 * hands to schemaconv: {@code apiVersion}, {@code kind} and {@code metadata} (a reference to
 * {@code ObjectMeta}) are set on the root and on every {@code x-kubernetes-embedded-resource}
 * node reachable through properties, items and additionalProperties, replacing whatever the CRD
 * declared for them.
 */
final class CrdPreparation {
  private static final MapValue STRING = MapValue.builder(1).put("type", Value.of("string")).build();
  private static final MapValue OBJECT_META_REF = MapValue.builder(1)
      .put("$ref", Value.of(SmdConverter.REF_PREFIX + ObjectMetaDefinitions.OBJECT_META))
      .build();

  private CrdPreparation() {}

  /** The model of the custom resource itself for a schema that passed root checks. */
  static MapValue prepareRoot(MapValue root, SchemaPath path) {
    Value type = root.getOrNull("type");
    if (!Value.of("object").equals(type)) {
      throw path.field("type").error("must be object at the root, got "
          + (type == null ? "nothing" : SmdConverter.describe(type)));
    }
    return withTypeAndObjectMeta(addEmbeddedProperties(root));
  }

  /** The model kube-apiserver uses for a version without a (structural) schema. */
  static MapValue schemaless() {
    return MapValue.builder(1).put("type", Value.of("object")).build();
  }

  private static MapValue addEmbeddedProperties(MapValue node) {
    MapValue.Builder b = null;
    if (node.getOrNull("properties") instanceof MapValue properties) {
      MapValue.Builder pb = null;
      for (int i = 0; i < properties.size(); i++) {
        if (properties.valueAt(i) instanceof MapValue child) {
          MapValue updated = addEmbeddedProperties(child);
          if (updated != child) {
            pb = pb == null ? properties.toBuilder() : pb;
            pb.put(properties.keyAt(i), updated);
          }
        }
      }
      if (pb != null) {
        b = node.toBuilder();
        b.put("properties", pb.build());
      }
    }
    for (String key : new String[] {"items", "additionalProperties"}) {
      if (node.getOrNull(key) instanceof MapValue child) {
        MapValue updated = addEmbeddedProperties(child);
        if (updated != child) {
          b = b == null ? node.toBuilder() : b;
          b.put(key, updated);
        }
      }
    }
    MapValue result = b == null ? node : b.build();
    if (result.getOrNull(SmdConverter.EMBEDDED_RESOURCE) instanceof BooleanValue e
        && e.value()) {
      result = withTypeAndObjectMeta(result);
    }
    return result;
  }

  private static MapValue withTypeAndObjectMeta(MapValue node) {
    Value existing = node.getOrNull("properties");
    MapValue properties;
    if (existing == null || existing.isNull()) {
      properties = MapValue.empty();
    } else if (existing instanceof MapValue m) {
      properties = m;
    } else {
      // Left for the converter, which reports it with the node's path.
      return node;
    }
    properties = properties
        .with("apiVersion", STRING)
        .with("kind", STRING)
        .with("metadata", OBJECT_META_REF);
    return node.with("properties", properties);
  }
}
