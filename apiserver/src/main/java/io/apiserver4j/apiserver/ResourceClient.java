/*
 * Copyright The apiserver4j authors.
 * SPDX-License-Identifier: Apache-2.0
 */
package io.apiserver4j.apiserver;

import static java.util.Objects.requireNonNull;

import io.apiserver4j.admission.UserInfo;
import io.apiserver4j.apiserver.ApiRequest.Verb;
import io.apiserver4j.apimachinery.patch.PatchType;
import io.apiserver4j.core.GroupVersionResource;
import io.apiserver4j.core.ListValue;
import io.apiserver4j.core.MapValue;
import io.apiserver4j.core.Meta;
import io.apiserver4j.core.errors.StatusException;
import io.apiserver4j.core.Value;
import io.apiserver4j.core.Yaml;
import io.apiserver4j.merge.Force;
import java.util.List;
import java.util.Optional;

/**
 * A small typed facade over {@link ApiServer#handle} for embedders: one resource (optionally in
 * one namespace, optionally as dry runs or with a default field manager), with kube's options on
 * every verb as immutable values ({@link GetOptions}, {@link CollectionOptions},
 * {@link CreateOptions}, {@link UpdateOptions}, {@link PatchOptions}, {@link DeleteOptions}).
 * Every method throws the {@link StatusException} subclass of kube-apiserver's answer on failure.
 *
 * <p>The client's own settings apply on top of a call's options: a {@link #dryRun()} client makes
 * every write a dry run, and a {@link #fieldManager(String)} client names its manager on writes
 * whose options name none.
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
  private final UserInfo user;

  ResourceClient(ApiServer server, GroupVersionResource resource, String namespace,
      DryRun dryRun, String fieldManager, UserInfo user) {
    this.server = server;
    this.resource = resource;
    this.namespace = namespace;
    this.dryRun = dryRun;
    this.fieldManager = fieldManager;
    this.user = user;
  }

  /** The client for objects in {@code ns}. */
  public ResourceClient namespace(String ns) {
    return new ResourceClient(server, resource, requireNonNull(ns, "namespace"), dryRun,
        fieldManager, user);
  }

  /** The client whose writes are {@code dryRun=All}. */
  public ResourceClient dryRun() {
    return new ResourceClient(server, resource, namespace, DryRun.ALL, fieldManager, user);
  }

  /** The client whose non-apply writes name {@code manager} as field manager. */
  public ResourceClient fieldManager(String manager) {
    return new ResourceClient(server, resource, namespace, dryRun,
        requireNonNull(manager, "manager"), user);
  }

  /**
   * The client whose requests are made by {@code requester} (what admission, audit and
   * {@code UserInfo}-dependent defaults see), as a controller's requests are made by its own
   * service account.
   */
  public ResourceClient user(UserInfo requester) {
    return new ResourceClient(server, resource, namespace, dryRun, fieldManager,
        requireNonNull(requester, "requester"));
  }

  private ApiRequest.Builder request(Verb verb, String name, VerbOptions options) {
    ApiRequest.Builder b = ApiRequest.builder(verb, resource).namespace(namespace)
        .name(requireNonNull(name, "name")).options(requireNonNull(options, "options"))
        .user(user);
    if (verb.isWrite() && dryRun.isDryRun()) {
      b.dryRun(DryRun.ALL);
    }
    if (options.fieldManager().isEmpty()) {
      b.fieldManager(fieldManager);
    }
    return b;
  }

  private MapValue run(ApiRequest.Builder request) {
    return server.handle(request.build()).orThrow();
  }

  /** Creates {@code object}; returns it as stored. */
  public MapValue create(Value object) {
    return create(object, CreateOptions.defaults());
  }

  /** Creates {@code object} with {@code options}; returns it as stored (or as a dry run would). */
  public MapValue create(Value object, CreateOptions options) {
    return run(request(Verb.CREATE, "", options).body(requireNonNull(object, "object")));
  }

  /** The object named {@code name}, latest state; a 404 is a {@code NotFoundException}. */
  public MapValue get(String name) {
    return get(name, GetOptions.latest());
  }

  /** The object named {@code name}, as of {@code options}' resourceVersion. */
  public MapValue get(String name, GetOptions options) {
    return run(request(Verb.GET, name, options));
  }

  /** The object, or empty when it does not exist. */
  public Optional<MapValue> find(String name) {
    ApiResponse r = server.handle(request(Verb.GET, name, GetOptions.latest()).build());
    if (r.code() == 404) {
      return Optional.empty();
    }
    return Optional.of(r.orThrow());
  }

  /** The items of a list (all of them). */
  public List<MapValue> list() {
    return list(CollectionOptions.all());
  }

  /**
   * The items {@code options} select (selectors, limit, continue, resourceVersion), as
   * {@code kubectl get -l ...} lists them; use {@link #listObject} for the list's
   * {@code continue} token.
   */
  public List<MapValue> list(CollectionOptions options) {
    return ((ListValue) listObject(options).getOrNull("items")).items().stream()
        .map(v -> (MapValue) v).toList();
  }

  /**
   * The list object {@code options} select: its {@code items} and its {@code metadata}
   * ({@code resourceVersion}, and {@code continue} and {@code remainingItemCount} when a
   * {@code limit} cut it).
   */
  public MapValue listObject(CollectionOptions options) {
    return run(request(Verb.LIST, "", options));
  }

  /** Replaces the object {@code object} names; returns it as stored. */
  public MapValue update(Value object) {
    return update(object, UpdateOptions.defaults());
  }

  /** Replaces the object {@code object} names, with {@code options}. */
  public MapValue update(Value object, UpdateOptions options) {
    requireNonNull(object, "object");
    return run(request(Verb.UPDATE, nameOf(object), options).body(object));
  }

  /** Patches the object named {@code name} with a patch of {@code type}. */
  public MapValue patch(String name, PatchType type, String patch) {
    return patch(name, type, patch, PatchOptions.defaults());
  }

  /**
   * Patches the object named {@code name} with a patch of {@code type} and {@code options}
   * (an apply needs a field manager; only an apply may carry {@code force}).
   */
  public MapValue patch(String name, PatchType type, String patch, PatchOptions options) {
    return run(request(Verb.PATCH, name, options).patch(requireNonNull(type, "type"),
        requireNonNull(patch, "patch")));
  }

  /** Server-side apply of a YAML (or JSON) configuration by {@code manager}, without force. */
  public MapValue apply(String manager, String configuration) {
    return apply(manager, configuration, Force.NO);
  }

  /**
   * Server-side apply of a YAML (or JSON) configuration by {@code manager}; with
   * {@link Force#YES} it takes the fields other managers own instead of answering a 409.
   */
  public MapValue apply(String manager, String configuration, Force force) {
    requireNonNull(manager, "manager");
    requireNonNull(force, "force");
    return apply(configuration, PatchOptions.apply(manager, force));
  }

  /** Server-side apply of a YAML (or JSON) configuration with {@code options}. */
  public MapValue apply(String configuration, PatchOptions options) {
    requireNonNull(configuration, "configuration");
    return patch(nameOf(Yaml.read(configuration)), PatchType.APPLY_YAML, configuration, options);
  }

  /** Deletes; returns what the server returns (a Status or the object). */
  public MapValue delete(String name) {
    return delete(name, DeleteOptions.defaults());
  }

  /**
   * Deletes with {@code options} (propagation policy, grace period, preconditions); returns what
   * the server returns: a Status, or the object when it stays (finalizers, foreground deletion,
   * a grace period) or its kind returns deleted objects.
   */
  public MapValue delete(String name, DeleteOptions options) {
    return run(request(Verb.DELETE, name, options));
  }

  /** Deletes the objects {@code options} select; returns the list of what was deleted. */
  public MapValue deleteCollection(DeleteCollectionOptions options) {
    return run(request(Verb.DELETE_COLLECTION, "", options));
  }

  /** Opens a watch of the collection from now on. */
  public ApiWatch watch() {
    return watch(CollectionOptions.all());
  }

  /**
   * Opens a watch of the objects {@code options} select, from their {@code resourceVersion}
   * (from now when empty, with ADDED events for what exists).
   */
  public ApiWatch watch(CollectionOptions options) {
    return server.watch(ApiRequest.builder(Verb.WATCH, resource).namespace(namespace)
        .options(requireNonNull(options, "options")).user(user).build());
  }

  private static String nameOf(Value object) {
    return object instanceof MapValue m ? Meta.metaString(m, "name") : "";
  }
}
