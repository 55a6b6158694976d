package io.apiserver4j.apiserver.internal;

import io.apiserver4j.admission.Operation;
import io.apiserver4j.apiserver.ResourceDefinition;
import io.apiserver4j.core.GroupResource;
import io.apiserver4j.core.MapValue;
import io.apiserver4j.core.NotFoundException;
import io.apiserver4j.core.StatusDetails;
import io.apiserver4j.core.StatusErrors;
import io.apiserver4j.core.Value;
import io.apiserver4j.storage.ObjectKey;
import io.apiserver4j.storage.Preconditions;
import io.apiserver4j.storage.StoredObject;
import java.time.Instant;
import java.util.ArrayList;
import java.util.HashSet;
import java.util.List;
import java.util.Optional;
import java.util.OptionalLong;
import java.util.function.UnaryOperator;

/**
 * kube-apiserver's generic registry delete ({@code Store.Delete}, {@code BeforeDelete},
 * {@code updateForGracefulDeletionAndFinalizers}, {@code markAsDeleting},
 * {@code deletionFinalizersForGarbageCollection}) for one object. A dry run computes exactly
 * what the real delete would return and writes nothing.
 */
final class DeleteFlow {
  /** What a delete returns, and whether the object is gone. */
  record Outcome(MapValue body, boolean deleted) {}

  private final Pipeline p;
  private final Ctx c;
  private final ResourceDefinition def;
  private final Pipeline.DeleteOptions options;
  private OptionalLong grace;

  DeleteFlow(Pipeline p, Ctx c, ResourceDefinition def, Pipeline.DeleteOptions options) {
    this.p = p;
    this.c = c;
    this.def = def;
    this.options = options;
    this.grace = options.gracePeriodSeconds();
  }

  private record Graceful(boolean graceful, boolean pending, MapValue object) {}

  Outcome run(String name) {
    ObjectKey key = c.key(name);
    StoredObject current = p.store.get(key)
        .orElseThrow(() -> StatusErrors.notFound(def.groupResource(), name));
    MapValue obj = Pipeline.fromStorage(def, current.object());
    Preconditions preconditions = preconditions();
    Graceful g = beforeDelete(obj, current.resourceVersionString());
    if (g.pending()) {
      return new Outcome(finalizeDelete(obj), false);
    }
    boolean pendingFinalizers = !Meta.finalizers(obj).isEmpty();
    boolean updateFinalizers = gcFinalizers(obj).isPresent();
    if (g.graceful() || pendingFinalizers || updateFinalizers) {
      GracefulResult r = updateForGracefulDeletionAndFinalizers(key, name, preconditions);
      if (r.alreadyDeleting != null) {
        return new Outcome(finalizeDelete(r.alreadyDeleting), false);
      }
      if (!r.deleteImmediately) {
        return new Outcome(r.out, false);
      }
      if (preconditions.resourceVersion().isPresent() && r.out != null) {
        preconditions = preconditions.withResourceVersion(Meta.metaString(r.out, "resourceVersion"));
      }
      if (c.dryRun && r.out != null) {
        return new Outcome(finalizeDelete(r.out), true);
      }
    }
    return deleteNow(key, name, preconditions);
  }

  private Preconditions preconditions() {
    Preconditions pre = Preconditions.none();
    if (options.uid().isPresent()) {
      pre = pre.withUid(options.uid().get());
    }
    if (options.resourceVersion().isPresent()) {
      pre = pre.withResourceVersion(options.resourceVersion().get());
    }
    return pre;
  }

  private Outcome deleteNow(ObjectKey key, String name, Preconditions preconditions) {
    StoredObject current = p.store.get(key)
        .orElseThrow(() -> StatusErrors.notFound(def.groupResource(), name));
    MapValue obj = Pipeline.fromStorage(def, current.object());
    preconditions.check(current);
    validateDeletion(obj);
    StoredObject deleted;
    try {
      deleted = c.dryRun ? p.dryStore.delete(key, preconditions) : p.store.delete(key, preconditions);
    } catch (NotFoundException e) {
      throw StatusErrors.notFound(def.groupResource(), name);
    }
    MapValue last = Pipeline.fromStorage(def, deleted.object());
    if (!c.dryRun) {
      c.deletedRevision = deleted.resourceVersion();
      p.crds.afterDelete(c, last);
      p.namespaces.afterDelete(c);
    }
    return new Outcome(finalizeDelete(last), true);
  }

  /** Delete admission (mutating without object, then validating) on the object being deleted. */
  private void validateDeletion(MapValue obj) {
    var attrs = p.attributes(c, Operation.DELETE, def.kind(), Meta.metaString(obj, "name"), null,
        obj);
    p.admission.admitWithoutObject(attrs);
    p.admission.validate(attrs);
  }

  /** kube's {@code finalizeDelete}: the object, or a Success Status naming it. */
  private MapValue finalizeDelete(MapValue obj) {
    if (def.strategy().returnDeletedObject()) {
      return obj;
    }
    StatusDetails details = StatusDetails.of(Meta.metaString(obj, "name"), def.kind().group(),
        def.plural()).withUid(Meta.metaString(obj, "uid"));
    return Pipeline.successStatus(details);
  }

  /** kube's {@code BeforeDelete}: preconditions (checked early), then grace periods. */
  private Graceful beforeDelete(MapValue obj, String storedRv) {
    String name = Meta.metaString(obj, "name");
    GroupResource byKind = new GroupResource(def.kind().group(), def.kind().kind());
    if (options.uid().isPresent() && !options.uid().get().equals(Meta.metaString(obj, "uid"))) {
      throw StatusErrors.conflict(byKind, name, "the UID in the precondition ("
          + options.uid().get() + ") does not match the UID in record ("
          + Meta.metaString(obj, "uid") + "). The object might have been deleted and then"
          + " recreated");
    }
    if (options.resourceVersion().isPresent()
        && !options.resourceVersion().get().equals(storedRv)) {
      throw StatusErrors.conflict(byKind, name, "the ResourceVersion in the precondition ("
          + options.resourceVersion().get() + ") does not match the ResourceVersion in record ("
          + storedRv + "). The object might have been modified");
    }
    if (grace.isPresent() && grace.getAsLong() < 0) {
      grace = OptionalLong.of(1);
    }
    MapValue o = obj;
    Long dgps = Meta.deletionGracePeriod(o);
    if (dgps != null && dgps < 0) {
      o = Meta.withMeta(o, "deletionGracePeriodSeconds", Value.of(1L));
      dgps = 1L;
    }
    if (def.strategy().gracePeriod().isEmpty()) {
      return new Graceful(false, false, o);
    }
    if (Meta.hasMeta(o, "deletionTimestamp")) {
      if (dgps == null || dgps == 0) {
        return new Graceful(false, false, o);
      }
      if (grace.isPresent()) {
        long period = grace.getAsLong();
        if (period >= dgps) {
          return new Graceful(false, true, o);
        }
        Instant ts = Instant.parse(Meta.metaString(o, "deletionTimestamp"));
        Instant moved = ts.minusSeconds(dgps).plusSeconds(period);
        if (moved.isBefore(c.now)) {
          moved = c.now;
          if (period != 0) {
            period = 1;
          }
        }
        o = Meta.withMeta(o, "deletionTimestamp", Value.of(Meta.formatTime(moved)));
        o = Meta.withMeta(o, "deletionGracePeriodSeconds", Value.of(period));
        return new Graceful(true, false, o);
      }
      grace = OptionalLong.of(dgps);
      return new Graceful(false, true, o);
    }
    long period = def.strategy().gracePeriod().get().resolve(o, grace);
    grace = OptionalLong.of(period);
    o = Meta.withMeta(o, "deletionTimestamp",
        Value.of(Meta.formatTime(c.now.plusSeconds(period))));
    o = Meta.withMeta(o, "deletionGracePeriodSeconds", Value.of(period));
    if (Meta.generation(o) > 0) {
      o = Meta.withMeta(o, "generation", Value.of(Meta.generation(o) + 1));
    }
    return new Graceful(true, false, o);
  }

  /**
   * kube's {@code deletionFinalizersForGarbageCollection}: the finalizers after the propagation
   * policy, when they change.
   */
  private Optional<List<String>> gcFinalizers(MapValue obj) {
    List<String> existing = Meta.finalizers(obj);
    boolean orphan = shouldOrphan(existing);
    boolean foreground = shouldForeground(existing);
    List<String> out = new ArrayList<>();
    for (String f : existing) {
      if (!f.equals(Finalizers.ORPHAN) && !f.equals(Finalizers.FOREGROUND)) {
        out.add(f);
      }
    }
    if (orphan) {
      out.add(Finalizers.ORPHAN);
    }
    if (foreground) {
      out.add(Finalizers.FOREGROUND);
    }
    if (new HashSet<>(out).equals(new HashSet<>(existing))) {
      return Optional.empty();
    }
    return Optional.of(out);
  }

  private boolean shouldOrphan(List<String> finalizers) {
    if (options.orphanDependents().isPresent()) {
      return options.orphanDependents().get();
    }
    if (options.propagationPolicy().isPresent()) {
      return options.propagationPolicy().get().equals("Orphan");
    }
    for (String f : finalizers) {
      if (f.equals(Finalizers.ORPHAN)) {
        return true;
      }
      if (f.equals(Finalizers.FOREGROUND)) {
        return false;
      }
    }
    return false;
  }

  private boolean shouldForeground(List<String> finalizers) {
    if (options.orphanDependents().isPresent()) {
      return false;
    }
    if (options.propagationPolicy().isPresent()) {
      return options.propagationPolicy().get().equals("Foreground");
    }
    for (String f : finalizers) {
      if (f.equals(Finalizers.FOREGROUND)) {
        return true;
      }
      if (f.equals(Finalizers.ORPHAN)) {
        return false;
      }
    }
    return false;
  }

  private static final class GracefulResult {
    MapValue out;
    boolean deleteImmediately;
    MapValue alreadyDeleting;
    boolean pendingFinalizers;
    RuntimeException failure;
  }

  /**
   * Ends an attempt of {@link #updateForGracefulDeletionAndFinalizers} without writing: the
   * object is already being deleted, or goes at once. Thrown inside the store's
   * read-modify-write so that the decision is taken on the state the store confirms.
   */
  private static final class NoUpdate extends RuntimeException {
    private static final long serialVersionUID = 1L;

    NoUpdate() {
      super(null, null, false, false);
    }
  }

  /** kube's {@code updateForGracefulDeletionAndFinalizers}. */
  private GracefulResult updateForGracefulDeletionAndFinalizers(ObjectKey key, String name,
      Preconditions preconditions) {
    GracefulResult result = new GracefulResult();
    UnaryOperator<MapValue> tryUpdate = stored -> {
      try {
        return gracefulAttempt(stored, result);
      } catch (RuntimeException e) {
        result.failure = e;
        throw e;
      }
    };
    StoredObject written;
    try {
      written = c.dryRun ? p.dryStore.guaranteedUpdate(key, preconditions, tryUpdate)
          : p.store.guaranteedUpdate(key, preconditions, tryUpdate);
    } catch (NoUpdate e) {
      return result;
    } catch (NotFoundException e) {
      if (e == result.failure) {
        throw e;
      }
      throw StatusErrors.notFound(def.groupResource(), name);
    }
    result.out = Pipeline.fromStorage(def, written.object());
    if (result.pendingFinalizers) {
      return result;
    }
    long lastGraceful = grace.orElse(0);
    if (lastGraceful > 0) {
      return result;
    }
    result.deleteImmediately = true;
    return result;
  }

  /** One attempt on the current stored state: the object to write, or {@link NoUpdate}. */
  private MapValue gracefulAttempt(MapValue stored, GracefulResult result) {
    result.alreadyDeleting = null;
    result.deleteImmediately = false;
    MapValue existing = Pipeline.fromStorage(def, stored);
    validateDeletion(existing);
    grace = options.gracePeriodSeconds();
    Graceful g = beforeDelete(existing, Meta.metaString(stored, "resourceVersion"));
    if (g.pending()) {
      result.alreadyDeleting = existing;
      throw new NoUpdate();
    }
    MapValue updated = g.object();
    Optional<List<String>> fin = gcFinalizers(updated);
    if (fin.isPresent()) {
      updated = Meta.withFinalizers(updated, fin.get());
    }
    result.pendingFinalizers = !Meta.finalizers(updated).isEmpty();
    if (!g.graceful()) {
      if (!result.pendingFinalizers) {
        result.deleteImmediately = true;
        throw new NoUpdate();
      }
      updated = markAsDeleting(updated, c.now);
    }
    return Pipeline.toStorage(def, updated);
  }

  /** kube's {@code markAsDeleting}. */
  private static MapValue markAsDeleting(MapValue obj, Instant now) {
    MapValue o = obj;
    boolean deleting = Meta.hasMeta(o, "deletionTimestamp");
    if (!deleting && Meta.generation(o) > 0) {
      o = Meta.withMeta(o, "generation", Value.of(Meta.generation(o) + 1));
    }
    String existing = Meta.metaString(o, "deletionTimestamp");
    if (existing.isEmpty() || Instant.parse(existing).isAfter(now)) {
      o = Meta.withMeta(o, "deletionTimestamp", Value.of(Meta.formatTime(now)));
    }
    return Meta.withMeta(o, "deletionGracePeriodSeconds", Value.of(0L));
  }
}
