/*
 * Copyright The apiserver4j authors.
 * SPDX-License-Identifier: Apache-2.0
 */
package io.apiserver4j.apiserver.internal;

import io.apiserver4j.apimachinery.decoding.GoDecoder;
import io.apiserver4j.apimachinery.decoding.GoType;
import io.apiserver4j.apimachinery.decoding.TypedShape;
import io.apiserver4j.apimachinery.patch.PatchSchema;
import io.apiserver4j.apimachinery.patch.SmdPatchSchema;
import io.apiserver4j.core.GroupVersionResource;
import io.apiserver4j.kubeapi.KubeApi;
import io.apiserver4j.kubeapi.KubeResource;
import io.apiserver4j.kubeapi.KubeSchema;
import io.apiserver4j.kubeapi.KubeSubresource;
import io.apiserver4j.merge.Schema;
import java.util.Optional;
import java.util.concurrent.ConcurrentHashMap;

/**
 * The generated data of the built-in types that the generic request path needs whichever kinds
 * are registered: their merge schema, Go-struct shape and decoder, and strategic merge patch
 * schemas. Loaded once, on first use.
 */
public final class BuiltinSchema {
  /** The SMD type of autoscaling/v1 Scale. */
  public static final String SCALE_TYPE = "io.k8s.api.autoscaling.v1.Scale";

  private static final KubeSchema DATA = KubeApi.schema();
  private static final Schema SCHEMA = Schema.fromSmdValue(DATA.smd());
  private static final TypedShape SHAPE = new TypedShape(SCHEMA, DATA.zeros());
  private static final GoDecoder DECODER =
      new GoDecoder(new GoType.Resolver(SCHEMA, DATA.goTypes()));
  private static final ConcurrentHashMap<String, PatchSchema> PATCH_SCHEMAS =
      new ConcurrentHashMap<>();

  private BuiltinSchema() {}

  /** The schema of all built-in types (SMD format). */
  public static Schema schema() {
    return SCHEMA;
  }

  /** The Go-struct shape of built-in objects. */
  public static TypedShape shape() {
    return SHAPE;
  }

  /** Decodes built-in objects into their Go types, as kube's decoders do. */
  public static GoDecoder decoder() {
    return DECODER;
  }

  /** The strategic merge patch schema of built-in type {@code typeName}. */
  public static PatchSchema patchSchema(String typeName) {
    return PATCH_SCHEMAS.computeIfAbsent(typeName,
        t -> SmdPatchSchema.of(SCHEMA, t, DATA.patchTags()));
  }

  /** The schema type of the kind {@code subresource} of built-in {@code resource} carries. */
  public static Optional<String> subresourceSchemaType(GroupVersionResource resource,
      String subresource) {
    for (KubeResource r : KubeApi.resources()) {
      if (r.resource().equals(resource)) {
        return r.subresource(subresource).flatMap(KubeSubresource::schemaTypeIfDefined);
      }
    }
    return Optional.empty();
  }
}
