/*
 * Copyright The apiserver4j authors.
 * SPDX-License-Identifier: Apache-2.0
 */
package io.apiserver4j.apiserver.internal;

import io.apiserver4j.apiserver.Allocated;
import io.apiserver4j.apiserver.Allocator;
import io.apiserver4j.apiserver.CreateAuthorizer;
import io.apiserver4j.apiserver.ResourceDefinition;
import io.apiserver4j.core.errors.AlreadyExistsException;
import io.apiserver4j.core.errors.FieldError;
import io.apiserver4j.core.GroupKind;
import io.apiserver4j.core.GroupVersionKind;
import io.apiserver4j.core.MapValue;
import io.apiserver4j.core.Meta;
import io.apiserver4j.core.errors.NotFoundException;
import io.apiserver4j.core.errors.StatusErrors;
import io.apiserver4j.core.Value;
import io.apiserver4j.storage.ObjectKey;
import io.apiserver4j.storage.Preconditions;
import io.apiserver4j.storage.StoredObject;
import java.util.List;
import java.util.Optional;
import java.util.function.UnaryOperator;

/**
 * The one write step every verb shares, kube's generic registry {@code Store.Create} and
 * {@code Store.Update} over {@code GuaranteedUpdate}: the object is built from the current state
 * inside the store's read-modify-write (a lost race re-runs it), goes through BeforeCreate or
 * BeforeUpdate and validating admission, and is written to the scope's storage. A missing object
 * is created where the endpoint allows it, after the create is authorized — inside the write,
 * right before the atomic create, so that no check-then-act window exists.
 */
final class GuaranteedWrite {
  private static final int MAX_GENERATE_ATTEMPTS = 8;

  private final ObjectMetaRules meta;
  private final AdmissionStage admission;
  private final CreateAuthorizer serverAuthorizer;
  private final Allocations allocations;

  GuaranteedWrite(ObjectMetaRules meta, AdmissionStage admission,
      CreateAuthorizer serverAuthorizer, Allocations allocations) {
    this.meta = meta;
    this.admission = admission;
    this.serverAuthorizer = serverAuthorizer;
    this.allocations = allocations;
  }

  /**
   * The strategy's allocation (kube's {@code BeginCreate}/{@code BeginUpdate}), if any; the
   * caller finishes it with {@link Allocations#finish} once it knows whether the write happened.
   * No lock is held: the allocator's claims are atomic writes of the store.
   */
  private Allocated allocate(Scope s, MapValue obj, Optional<MapValue> old) {
    Optional<Allocator> allocator = s.def().strategy().allocator();
    if (allocator.isEmpty()) {
      return Allocated.of(obj);
    }
    return allocator.get().allocate(obj, old, allocations.of(s));
  }

  /** Builds the new object from the current one ({@code null} when it does not exist yet). */
  @FunctionalInterface
  interface Transform {
    MapValue apply(MapValue existing);
  }

  /** How validating admission sees the objects of an endpoint (a scale sees Scales). */
  record AdmissionView(GroupVersionKind kind, UnaryOperator<MapValue> convert) {
    static AdmissionView of(ResourceDefinition def) {
      return new AdmissionView(def.kind(), m -> m);
    }
  }

  /** kube's {@code Store.Create}: a new object, with generateName retries. */
  WriteOutcome create(Scope s, MapValue obj) {
    boolean generate = !Meta.metaString(obj, "generateName").isEmpty()
        && Meta.metaString(obj, "name").isEmpty();
    AlreadyExistsException last = null;
    for (int i = 0; i < (generate ? MAX_GENERATE_ATTEMPTS : 1); i++) {
      MapValue o = meta.fillSystemFields(obj, s.now());
      if (generate) {
        o = Meta.withMeta(o, "name", Value.of(meta.generateName(Meta.metaString(o,
            "generateName"))));
      }
      Allocated allocated = allocate(s, ObjectMetaRules.ensureNamespace(o, s.objectNamespace()),
          Optional.empty());
      boolean stored = false;
      try {
        o = ObjectMetaRules.beforeCreate(s, allocated.object());
        String name = Meta.metaString(o, "name");
        admission.validate(s, s.def().kind(), name, o, null);
        ObjectKey key = s.key(name);
        try {
          StoredObject created = s.store().create(key, StorageForm.toStorage(s.def(), o));
          stored = true;
          MapValue served = StorageForm.fromStorage(s.def(), created.object());
          return s.committed(new WriteOutcome.Created(served, asServed(created, served)));
        } catch (AlreadyExistsException e) {
          last = alreadyExists(s, key, generate);
        }
      } finally {
        Allocations.finish(allocated, stored);
      }
    }
    throw last;
  }

  private static AlreadyExistsException alreadyExists(Scope s, ObjectKey key, boolean generated) {
    AlreadyExistsException e = generated
        ? StatusErrors.generatedNameExhausted(s.groupResource(), key.name())
        : StatusErrors.alreadyExists(s.groupResource(), key.name());
    Optional<StoredObject> existing = s.store().get(key);
    if (existing.isPresent() && Meta.hasMeta(existing.get().object(), "deletionTimestamp")) {
      return new AlreadyExistsException(e.status().withMessage("object is being deleted: "
          + e.status().message()));
    }
    return e;
  }

  /**
   * kube's {@code Store.Update}: an existing object is updated by the store's guaranteed update,
   * each attempt building the new object from the current one; a missing one, where allowed, is
   * built and created instead, and updated after all if another writer created it first. The
   * last finalizer leaving a deleting object deletes it.
   */
  WriteOutcome update(Scope s, Transform transform, boolean forceAllowCreate,
      Optional<String> uidPrecondition, AdmissionView view) {
    ResourceDefinition def = s.def();
    boolean allowCreate = def.strategy().allowCreateOnUpdate() || forceAllowCreate;
    ObjectKey key = s.key();
    Preconditions preconditions = uidPrecondition.map(Preconditions::ofUid)
        .orElse(Preconditions.none());
    while (true) {
      Attempt attempt = new Attempt(s, transform, view);
      try {
        // The store runs the attempt on the current state and retries it on a lost race; the
        // etcd store starts from the state it last saw, so a read-modify-write of an object this
        // server just read or wrote is a single transaction.
        StoredObject written;
        try {
          written = s.store().guaranteedUpdate(key, preconditions, attempt);
        } catch (RuntimeException e) {
          attempt.finishAllocation(false);
          throw e;
        }
        attempt.finishAllocation(true);
        if (attempt.deleteAt == 0) {
          MapValue served = StorageForm.fromStorage(def, written.object());
          return s.committed(new WriteOutcome.Updated(served, asServed(written, served)));
        }
        return deleteFinalized(s, key, attempt);
      } catch (NotFoundException e) {
        if (e == attempt.failure) {
          throw e; // the attempt's own 404 (admission, a missing namespace), not a missing key
        }
        if (!allowCreate || !s.subresource().isEmpty()) {
          throw StatusErrors.notFound(def.groupResource(), s.name());
        }
      }
      MapValue obj = transform.apply(null);
      obj = meta.fillSystemFields(ObjectMetaRules.wipeSystemFields(obj), s.now());
      Allocated allocated = allocate(s, ObjectMetaRules.ensureNamespace(obj,
          s.objectNamespace()), Optional.empty());
      boolean stored = false;
      try {
        obj = ObjectMetaRules.beforeCreate(s, allocated.object());
        authorizeCreate(s);
        admission.validate(s, view.kind(), s.name(), view.convert().apply(obj), null);
        try {
          StoredObject created = s.store().create(key,
              StorageForm.toStorage(def, Meta.withoutMeta(obj, "resourceVersion")));
          stored = true;
          MapValue served = StorageForm.fromStorage(def, created.object());
          return s.committed(new WriteOutcome.Created(served, asServed(created, served)));
        } catch (AlreadyExistsException e) {
          // created meanwhile: update it instead
        }
      } finally {
        Allocations.finish(allocated, stored);
      }
    }
  }

  /** {@code stored} when the endpoint serves its object unchanged ({@code served}), else null. */
  static StoredObject asServed(StoredObject stored, MapValue served) {
    return stored.object() == served ? stored : null;
  }

  /** The deletion of an object whose last finalizer the update removed, at the attempt's state. */
  private static WriteOutcome deleteFinalized(Scope s, ObjectKey key, Attempt attempt) {
    long revision = 0;
    try {
      revision = s.store().delete(key, Preconditions.ofResourceVersion(
          Long.toString(attempt.deleteAt))).resourceVersion();
    } catch (NotFoundException e) {
      // Deletion is racy: another request removing the last finalizer already deleted it.
    }
    return s.committed(new WriteOutcome.Deleted(attempt.finalized, revision));
  }

  /** kube's {@code withAuthorization}: a create through PUT or apply needs {@code create}. */
  private void authorizeCreate(Scope s) {
    for (CreateAuthorizer authorizer : List.of(serverAuthorizer, s.request().createAuthorizer())) {
      Optional<String> deny = authorizer.denyReason(s.request().user(), s.def().resource(),
          s.subresource(), s.namespace(), s.name());
      if (deny.isPresent()) {
        ResourceDefinition def = s.def();
        throw StatusErrors.forbidden(def.groupResource(), s.name(),
            StatusErrors.forbiddenMessage(s.request().user().name(), "create",
                def.kind().group(), def.plural(), s.subresource(), s.objectNamespace())
            + (deny.get().isEmpty() ? "" : ": " + deny.get()));
      }
    }
  }

  /**
   * One attempt of an update on the current stored state (kube's {@code tryUpdate} in
   * {@code Store.Update}): builds the new object, checks its resourceVersion against the
   * state's, runs BeforeUpdate and validating admission, and returns what to store — or, when
   * the last finalizer of a deleting object went, leaves the state as it is and records that
   * the object is to be deleted at this state. Remembers the last exception it threw, so that
   * its own NotFound is told from the store's.
   */
  private final class Attempt implements UnaryOperator<MapValue> {
    private final Scope s;
    private final Transform transform;
    private final AdmissionView view;
    RuntimeException failure;
    long deleteAt;
    MapValue finalized;
    // the allocation of the latest run; a re-run (lost race) gives back the earlier one's
    private Allocated allocated;

    Attempt(Scope s, Transform transform, AdmissionView view) {
      this.s = s;
      this.transform = transform;
      this.view = view;
    }

    /** Commits the allocation of the attempt whose result was stored, or reverts it. */
    void finishAllocation(boolean stored) {
      if (allocated != null) {
        Allocations.finish(allocated, stored);
        allocated = null;
      }
    }

    @Override
    public MapValue apply(MapValue stored) {
      deleteAt = 0;
      finishAllocation(false);
      try {
        return attempt(stored);
      } catch (RuntimeException e) {
        failure = e;
        throw e;
      }
    }

    private MapValue attempt(MapValue stored) {
      ResourceDefinition def = s.def();
      MapValue existing = StorageForm.fromStorage(def, stored);
      String existingRv = Meta.metaString(stored, "resourceVersion");
      MapValue obj = transform.apply(existing);
      String newRv = Meta.metaString(obj, "resourceVersion");
      if (newRv.isEmpty()) {
        if (!def.strategy().allowUnconditionalUpdate()) {
          throw StatusErrors.invalid(new GroupKind(def.kind().group(), def.plural()), s.name(),
              List.of(FieldError.invalid("metadata.resourceVersion", Value.of(0L),
                  "must be specified for an update")));
        }
        obj = Meta.withMeta(obj, "resourceVersion", Value.of(existingRv));
      } else if (!newRv.equals(existingRv)) {
        // a precondition of the client: final, whatever the store would retry
        throw StatusErrors.objectModified(def.groupResource(), s.name());
      }
      if (s.subresource().isEmpty()) {
        allocated = allocate(s, ObjectMetaRules.ensureNamespace(obj, s.objectNamespace()),
            Optional.of(existing));
        obj = allocated.object();
      }
      obj = ObjectMetaRules.beforeUpdate(s, obj, existing);
      obj = ObjectMetaRules.ignoreTimestampOnlyChanges(obj, existing);
      admission.validate(s, view.kind(), s.name(), view.convert().apply(obj),
          view.convert().apply(existing));
      if (ObjectMetaRules.shouldDeleteDuringUpdate(obj, existing)
          && !keptByNamespaceFinalizers(def, obj)) {
        deleteAt = Long.parseLong(existingRv);
        finalized = obj;
        return stored;
      }
      return StorageForm.toStorage(def, obj);
    }
  }

  /**
   * kube's {@code ShouldDeleteNamespaceDuringUpdate}: a namespace goes on an update only once
   * its {@code spec.finalizers} are empty too (the namespace controller empties them through
   * {@code namespaces/finalize}).
   */
  private static boolean keptByNamespaceFinalizers(ResourceDefinition def, MapValue obj) {
    return def.groupResource().equals(NamespaceController.NAMESPACES)
        && !Meta.stringList(io.apiserver4j.core.Nested.getOrNull(obj, "spec", "finalizers"))
            .isEmpty();
  }
}
