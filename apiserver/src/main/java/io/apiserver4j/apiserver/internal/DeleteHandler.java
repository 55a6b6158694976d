/*
 * Copyright The apiserver4j authors.
 * SPDX-License-Identifier: Apache-2.0
 */
package io.apiserver4j.apiserver.internal;

import io.apiserver4j.apiserver.DeleteOptions;
import io.apiserver4j.apiserver.ApiResponse;
import io.apiserver4j.apiserver.ResourceDefinition;
import io.apiserver4j.core.errors.FieldError;
import io.apiserver4j.core.GroupResource;
import io.apiserver4j.core.MapValue;
import io.apiserver4j.core.Meta;
import io.apiserver4j.core.errors.NotFoundException;
import io.apiserver4j.core.errors.Status;
import io.apiserver4j.core.errors.StatusDetails;
import io.apiserver4j.core.errors.StatusErrors;
import io.apiserver4j.core.errors.StatusReason;
import io.apiserver4j.core.Value;
import io.apiserver4j.dryrun.DeleteSettings;
import io.apiserver4j.dryrun.DeleteSettings.PropagationPolicy;
import io.apiserver4j.dryrun.DeletionPreview;
import io.apiserver4j.dryrun.OptionsKind;
import io.apiserver4j.storage.ListOptions;
import io.apiserver4j.storage.ListResult;
import io.apiserver4j.storage.ObjectKey;
import io.apiserver4j.storage.Preconditions;
import io.apiserver4j.storage.StoredObject;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import java.util.OptionalLong;
import java.util.concurrent.ConcurrentHashMap;

/**
 * DELETE and DELETE of a collection: kube's generic registry {@code Store.Delete}. What the
 * delete does to the object (graceful marks, finalizers after the propagation policy, or
 * removal) is the dryrun module's {@link DeletionPreview}, decided on the state the store
 * confirms; the scope's storage then writes it, or — on a dry run — only checks it. Resources
 * whose registry deletes differently (namespaces, CRDs) register a {@link CustomDelete}.
 */
final class DeleteHandler {
  /** A resource's own delete of one object; returns the response body. */
  @FunctionalInterface
  interface CustomDelete {
    MapValue delete(Scope s);
  }

  private final AdmissionStage admission;
  private final Map<GroupResource, CustomDelete> custom = new ConcurrentHashMap<>();

  DeleteHandler(AdmissionStage admission) {
    this.admission = admission;
  }

  void register(GroupResource resource, CustomDelete delete) {
    custom.put(resource, delete);
  }

  /** What a delete of one object answers, and whether the object went. */
  private record Result(MapValue body, boolean deleted) {}

  ApiResponse delete(Scope s) {
    checkOptions(s.deleteOptions());
    CustomDelete own = custom.get(s.groupResource());
    if (own != null) {
      return new ApiResponse(200, own.delete(s), s.warnings().list());
    }
    Result r = deleteOne(s);
    boolean orphanFalse = s.deleteOptions().orphanDependents().map(o -> !o).orElse(false);
    return new ApiResponse(!r.deleted() && orphanFalse ? 202 : 200, r.body(),
        s.warnings().list());
  }

  ApiResponse deleteCollection(Scope s) {
    checkOptions(s.deleteOptions());
    ListOptions lo = ReadHandler.listOptions(s);
    List<MapValue> stored = new ArrayList<>();
    ListResult page = s.store().list(s.collection(), lo);
    while (true) {
      for (StoredObject o : page.items()) {
        stored.add(o.object());
      }
      if (s.collectionOptions().limit() > 0 || page.continueToken().isEmpty()) {
        break;
      }
      page = s.store().list(s.collection(), lo.toBuilder()
          .continueToken(page.continueToken().get()).mostRecent().build());
    }
    // converted as one list, as kube converts the list a delete-collection answers
    List<MapValue> items = StorageForm.fromStorage(s.def(), stored);
    CustomDelete own = custom.get(s.groupResource());
    for (MapValue item : items) {
      Scope one = s.forObject(Meta.metaString(item, "namespace"), Meta.metaString(item, "name"));
      try {
        if (own != null) {
          own.delete(one);
        } else {
          deleteOne(one);
        }
      } catch (NotFoundException e) {
        // deleted meanwhile
      }
    }
    MapValue meta = MapValue.ofEntries("resourceVersion",
        Value.of(Long.toString(page.resourceVersion())));
    return new ApiResponse(200, ReadHandler.listOf(s.def(), items, meta), s.warnings().list());
  }

  /** kube's {@code ValidateDeleteOptions} on what the typed options can still get wrong. */
  private static void checkOptions(DeleteOptions r) {
    if (r.orphanDependents().isPresent() && r.propagationPolicy().isPresent()) {
      throw StatusErrors.invalid(OptionsKind.DELETE_OPTIONS.groupKind(), "", List.of(
          FieldError.invalid("propagationPolicy", Value.of(r.propagationPolicy().get()
              .wireName()), "orphanDependents and deletionPropagation cannot be both set")));
    }
  }

  private Result deleteOne(Scope s) {
    ObjectKey key = s.key();
    StoredObject current = s.store().get(key)
        .orElseThrow(() -> StatusErrors.notFound(s.groupResource(), s.name()));
    MapValue existing = StorageForm.fromStorage(s.def(), current.object());
    checkPreconditions(s, existing, current.resourceVersionString());
    DeletionPreview first = preview(s, existing);
    if (first.outcome() == DeletionPreview.Outcome.ALREADY_DELETING) {
      return new Result(finalizeDelete(s.def(), existing), false);
    }
    Preconditions preconditions = s.deleteOptions().preconditions();
    if (first.outcome() == DeletionPreview.Outcome.REMOVED && first.object() == existing) {
      return deleteNow(s, key, preconditions);
    }
    Marking marking = new Marking(s);
    StoredObject written;
    try {
      written = s.store().guaranteedUpdate(key, preconditions, marking);
    } catch (NotFoundException e) {
      if (e == marking.failure) {
        throw e;
      }
      throw StatusErrors.notFound(s.groupResource(), s.name());
    }
    DeletionPreview decided = marking.decided;
    switch (decided.outcome()) {
      case ALREADY_DELETING:
        return new Result(finalizeDelete(s.def(), decided.object()), false);
      case MARKED_FOR_DELETION:
        MapValue marked = StorageForm.fromStorage(s.def(), written.object());
        s.committed(new WriteOutcome.Updated(marked));
        return new Result(marked, false);
      case REMOVED:
      default:
        if (decided.object() == marking.existing) {
          return deleteNow(s, key, preconditions);
        }
        // graceful marks written first, then the object goes, as kube does with grace 0
        MapValue last = StorageForm.fromStorage(s.def(), written.object());
        if (preconditions.resourceVersion().isPresent()) {
          preconditions = preconditions.withResourceVersion(written.resourceVersionString());
        }
        Result r = deleteNow(s, key, preconditions);
        return new Result(finalizeDelete(s.def(), last), r.deleted());
    }
  }

  /**
   * One attempt of kube's {@code updateForGracefulDeletionAndFinalizers} on the current state:
   * delete admission, the preconditions, then the preview; returns what to write (the state
   * itself when nothing is to be written) and remembers the decision.
   */
  private final class Marking implements java.util.function.UnaryOperator<MapValue> {
    private final Scope s;
    DeletionPreview decided;
    MapValue existing;
    RuntimeException failure;

    Marking(Scope s) {
      this.s = s;
    }

    @Override
    public MapValue apply(MapValue stored) {
      try {
        existing = StorageForm.fromStorage(s.def(), stored);
        admission.admitDelete(s, existing);
        checkPreconditions(s, existing, Meta.metaString(stored, "resourceVersion"));
        decided = preview(s, existing);
        boolean writes = decided.outcome() != DeletionPreview.Outcome.ALREADY_DELETING
            && decided.object() != existing;
        return writes ? StorageForm.toStorage(s.def(), decided.object()) : stored;
      } catch (RuntimeException e) {
        failure = e;
        throw e;
      }
    }
  }

  private Result deleteNow(Scope s, ObjectKey key, Preconditions preconditions) {
    StoredObject current = s.store().get(key)
        .orElseThrow(() -> StatusErrors.notFound(s.groupResource(), s.name()));
    preconditions.check(current);
    admission.admitDelete(s, StorageForm.fromStorage(s.def(), current.object()));
    StoredObject deleted;
    try {
      deleted = s.store().delete(key, preconditions);
    } catch (NotFoundException e) {
      throw StatusErrors.notFound(s.groupResource(), s.name());
    }
    MapValue last = StorageForm.fromStorage(s.def(), deleted.object());
    s.committed(new WriteOutcome.Deleted(last, deleted.resourceVersion()));
    return new Result(finalizeDelete(s.def(), last), true);
  }

  /** What the delete does to {@code existing}, with the kind's grace period resolved. */
  private static DeletionPreview preview(Scope s, MapValue existing) {
    DeleteOptions r = s.deleteOptions();
    OptionalLong requested = r.gracePeriodSeconds();
    if (requested.isPresent() && requested.getAsLong() < 0) {
      requested = OptionalLong.of(1);
    }
    Optional<Long> grace = requested.isPresent() ? Optional.of(requested.getAsLong())
        : Optional.empty();
    var period = s.def().strategy().gracePeriod();
    if (period.isPresent() && !Meta.hasMeta(existing, "deletionTimestamp")) {
      grace = Optional.of(period.get().resolve(existing, requested));
    }
    Optional<PropagationPolicy> policy = r.orphanDependents()
        .map(o -> o ? PropagationPolicy.ORPHAN : PropagationPolicy.BACKGROUND)
        .or(() -> r.propagationPolicy().map(p -> PropagationPolicy.fromWireName(p.wireName())));
    return DeletionPreview.of(existing,
        new DeleteSettings(period.isPresent(), grace, policy), s.now());
  }

  /** kube's {@code BeforeDelete} precondition checks, with its texts. */
  private static void checkPreconditions(Scope s, MapValue obj, String storedRv) {
    Preconditions pre = s.deleteOptions().preconditions();
    GroupResource byKind = new GroupResource(s.def().kind().group(), s.def().kind().kind());
    String uid = Meta.metaString(obj, "uid");
    if (pre.uid().isPresent() && !pre.uid().get().equals(uid)) {
      throw StatusErrors.conflict(byKind, s.name(), "the UID in the precondition ("
          + pre.uid().get() + ") does not match the UID in record (" + uid
          + "). The object might have been deleted and then recreated");
    }
    if (pre.resourceVersion().isPresent() && !pre.resourceVersion().get().equals(storedRv)) {
      throw StatusErrors.conflict(byKind, s.name(), "the ResourceVersion in the precondition ("
          + pre.resourceVersion().get() + ") does not match the ResourceVersion in"
          + " record (" + storedRv + "). The object might have been modified");
    }
  }

  /** kube's {@code finalizeDelete}: the object, or a Success Status naming it. */
  static MapValue finalizeDelete(ResourceDefinition def, MapValue obj) {
    if (def.strategy().returnDeletedObject()) {
      return obj;
    }
    return successStatus(StatusDetails.of(Meta.metaString(obj, "name"), def.kind().group(),
        def.plural()).withUid(Meta.metaString(obj, "uid")));
  }

  /** A Success Status as kube's {@code finalizeDelete} returns it (without a code). */
  static MapValue successStatus(StatusDetails details) {
    return new Status(Status.Outcome.SUCCESS, 0, StatusReason.UNKNOWN, "", Optional.of(details))
        .toValue();
  }
}
