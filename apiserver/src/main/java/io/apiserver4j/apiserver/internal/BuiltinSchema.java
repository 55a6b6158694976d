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
import io.apiserver4j.kubeapi.KubeVersion;
import io.apiserver4j.merge.Schema;
import java.util.Collections;
import java.util.EnumMap;
import java.util.IdentityHashMap;
import java.util.Map;
import java.util.Optional;
import java.util.concurrent.ConcurrentHashMap;

/**
 * The generated data of the built-in types that the generic request path needs whichever kinds
 * are registered: their merge schema, Go-struct shape and decoder, and strategic merge patch
 * schemas, per Kubernetes release. Each release's is loaded once, on first use; a built-in
 * definition's {@link Schema} instance says which release it belongs to.
 */
public final class BuiltinSchema {
  /** The SMD type of autoscaling/v1 Scale. */
  public static final String SCALE_TYPE = "io.k8s.api.autoscaling.v1.Scale";

  /** One release's schema and what is derived from it. */
  static final class Release {
    final KubeVersion version;
    final KubeSchema data;
    final Schema schema;
    final TypedShape shape;
    final GoDecoder decoder;
    private final ConcurrentHashMap<String, PatchSchema> patchSchemas =
        new ConcurrentHashMap<>();

    private Release(KubeVersion version) {
      this.version = version;
      this.data = KubeApi.schema(version);
      // each type decoded on first use: a server touches a few dozen of the hundreds
      this.schema = Schema.fromSmdTypes(data.typeNames(),
          name -> data.typeDefinition(name).orElse(null));
      this.shape = new TypedShape(schema, data.zeros());
      this.decoder = new GoDecoder(new GoType.Resolver(schema, data.goTypes()));
      BY_SCHEMA.put(schema, this);
    }

    PatchSchema patchSchema(String typeName) {
      return patchSchemas.computeIfAbsent(typeName,
          t -> SmdPatchSchema.of(schema, t, data.patchTags()));
    }
  }

  private static final class Latest {
    static final Release RELEASE = new Release(KubeVersion.latest());
  }

  private static final Map<KubeVersion, Release> OLDER = new EnumMap<>(KubeVersion.class);
  // every release loaded so far, by its schema instance (the latest's included)
  private static final Map<Schema, Release> BY_SCHEMA =
      Collections.synchronizedMap(new IdentityHashMap<>());

  private BuiltinSchema() {}

  static Release release(KubeVersion version) {
    if (version == KubeVersion.latest()) {
      return Latest.RELEASE;
    }
    synchronized (OLDER) {
      return OLDER.computeIfAbsent(version, Release::new);
    }
  }

  /** The release whose built-in schema {@code schema} is, if it is one. */
  static Optional<Release> release(Schema schema) {
    // a release not loaded yet has no schema instance that could be this one
    return Optional.ofNullable(BY_SCHEMA.get(schema));
  }

  /** The schema of all built-in types (SMD format) of the newest release. */
  public static Schema schema() {
    return Latest.RELEASE.schema;
  }

  /** The schema of all built-in types (SMD format) of {@code version}. */
  public static Schema schema(KubeVersion version) {
    return release(version).schema;
  }

  /**
   * The release of built-in schema {@code schema}, if it is one of {@link #schema(KubeVersion)};
   * loads no release. Such a schema is closed: every reference of every type resolves (the
   * generator includes every type a type refers to; kube-api's and apiserver's tests check it).
   */
  public static Optional<KubeVersion> version(Schema schema) {
    return release(schema).map(r -> r.version);
  }

  /** The Go-struct shape of built-in objects. */
  public static TypedShape shape() {
    return Latest.RELEASE.shape;
  }

  /** Decodes built-in objects into their Go types, as kube's decoders do. */
  public static GoDecoder decoder() {
    return Latest.RELEASE.decoder;
  }

  /** The strategic merge patch schema of built-in type {@code typeName}. */
  public static PatchSchema patchSchema(String typeName) {
    return Latest.RELEASE.patchSchema(typeName);
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
