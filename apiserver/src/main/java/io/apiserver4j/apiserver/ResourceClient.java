/*
 * Copyright The apiserver4j authors.
 * SPDX-License-Identifier: Apache-2.0
 */
package io.apiserver4j.apiserver;

import static java.util.Objects.requireNonNull;

import io.apiserver4j.apiserver.ApiRequest.Verb;
import io.apiserver4j.apimachinery.patch.PatchType;
import io.apiserver4j.core.GroupVersionResource;
import io.apiserver4j.core.ListValue;
import io.apiserver4j.core.MapValue;
import io.apiserver4j.core.errors.StatusException;
import io.apiserver4j.core.Value;
import io.apiserver4j.dryrun.DryRun;
import java.util.List;
import java.util.Optional;

/**
 * A small typed facade over {@link ApiServer#handle} for embedders: one resource (optionally in
 * one namespace, optionally as dry runs or with a default field manager). Every method throws
 * the {@link StatusException} subclass of kube-apiserver's answer on failure.
 *
 * <p>Immutable and thread-safe; the {@code namespace}, {@code dryRun} and {@code fieldManager}
 * methods return derived clients.
 */
public final class ResourceClient {
  private final ApiServer server;
  private final GroupVersionResource resource;
  private final String namespace;
  private final DryRun dryRun;
  private final String fieldManager;

  ResourceClient(ApiServer server, GroupVersionResource resource, String namespace,
      DryRun dryRun, String fieldManager) {
    this.server = server;
    this.resource = resource;
    this.namespace = namespace;
    this.dryRun = dryRun;
    this.fieldManager = fieldManager;
  }

  /** The client for objects in {@code ns}. */
  public ResourceClient namespace(String ns) {
    return new ResourceClient(server, resource, requireNonNull(ns, "namespace"), dryRun,
        fieldManager);
  }

  /** The client whose writes are {@code dryRun=All}. */
  public ResourceClient dryRun() {
    return new ResourceClient(server, resource, namespace, DryRun.ALL, fieldManager);
  }

  /** The client whose non-apply writes name {@code manager} as field manager. */
  public ResourceClient fieldManager(String manager) {
    return new ResourceClient(server, resource, namespace, dryRun,
        requireNonNull(manager, "manager"));
  }

  private ApiRequest.Builder request(Verb verb) {
    return ApiRequest.builder(verb, resource).namespace(namespace).dryRun(dryRun)
        .fieldManager(fieldManager);
  }

  private MapValue run(ApiRequest request) {
    return server.handle(request).orThrow();
  }

  public MapValue create(Value object) {
    return run(request(Verb.CREATE).body(requireNonNull(object, "object")).build());
  }

  public MapValue get(String name) {
    return run(request(Verb.GET).name(name).build());
  }

  /** The object, or empty when it does not exist. */
  public Optional<MapValue> find(String name) {
    ApiResponse r = server.handle(request(Verb.GET).name(name).build());
    if (r.code() == 404) {
      return Optional.empty();
    }
    return Optional.of(r.orThrow());
  }

  /** The items of a list (all of them). */
  public List<MapValue> list() {
    MapValue list = run(request(Verb.LIST).build());
    return ((ListValue) list.getOrNull("items")).items().stream()
        .map(v -> (MapValue) v).toList();
  }

  public MapValue update(Value object) {
    requireNonNull(object, "object");
    String name = object instanceof MapValue m && m.getOrNull("metadata") instanceof MapValue meta
        && meta.getOrNull("name") instanceof io.apiserver4j.core.StringValue s ? s.value() : "";
    return run(request(Verb.UPDATE).name(name).body(object).build());
  }

  public MapValue patch(String name, PatchType type, String patch) {
    return run(request(Verb.PATCH).name(name).patch(type, patch).build());
  }

  /** Server-side apply of a YAML (or JSON) configuration by {@code manager}, without force. */
  public MapValue apply(String manager, String configuration) {
    return apply(manager, configuration, false);
  }

  /** Server-side apply of a YAML (or JSON) configuration by {@code manager}. */
  public MapValue apply(String manager, String configuration, boolean force) {
    requireNonNull(manager, "manager");
    requireNonNull(configuration, "configuration");
    Value parsed = io.apiserver4j.core.Yaml.read(configuration);
    String name = parsed instanceof MapValue m && m.getOrNull("metadata") instanceof MapValue meta
        && meta.getOrNull("name") instanceof io.apiserver4j.core.StringValue s ? s.value() : "";
    ApiRequest.Builder b = ApiRequest.builder(Verb.PATCH, resource).namespace(namespace)
        .dryRun(dryRun).name(name).fieldManager(manager)
        .patch(PatchType.APPLY_YAML, configuration);
    if (force) {
      b.force(true);
    }
    return run(b.build());
  }

  /** Deletes; returns what the server returns (a Status or the object). */
  public MapValue delete(String name) {
    return run(request(Verb.DELETE).name(name).build());
  }

  /** Opens a watch of the collection from now on. */
  public ApiWatch watch() {
    return server.watch(ApiRequest.builder(Verb.WATCH, resource).namespace(namespace).build());
  }
}
