/*
 * Copyright The apiserver4j authors.
 * SPDX-License-Identifier: Apache-2.0
 */
package io.apiserver4j.apiserver.internal;

import io.apiserver4j.apiserver.SubresourceUpdate;
import io.apiserver4j.apiserver.strategy.Validator;
import io.apiserver4j.apiserver.strategy.Verdict;
import io.apiserver4j.apiserver.ResourceDefinition;
import io.apiserver4j.apiserver.ResourceStrategy;
import io.apiserver4j.apiserver.strategy.GenerationPolicy;
import io.apiserver4j.core.errors.FieldError;
import io.apiserver4j.apiserver.strategy.GenerationPolicy;
import io.apiserver4j.core.errors.FieldError;
import io.apiserver4j.core.ListValue;
import io.apiserver4j.core.MapValue;
import io.apiserver4j.core.Meta;
import io.apiserver4j.core.errors.StatusErrors;
import io.apiserver4j.core.Value;
import java.time.Instant;
import java.util.ArrayList;
import java.util.HashSet;
import java.util.List;
import java.util.Objects;
import java.util.Optional;
import java.util.Random;
import java.util.Set;
import java.util.function.Supplier;
import io.apiserver4j.apimachinery.validation.MetaValidation;

/**
 * kube-apiserver's ObjectMeta rules in one place ({@code rest.BeforeCreate},
 * {@code rest.BeforeUpdate}, {@code FillObjectMetaSystemFields}, {@code checkName}, owner
 * reference dedup, generated names), with each kind's preparation and validation from its
 * strategy.
 */
final class ObjectMetaRules {
  private static final String GENERATE_ALPHABET = "bcdfghjklmnpqrstvwxz2456789";
  private static final int MAX_GENERATED_PREFIX = 58;
  private static final List<String> SYSTEM_FIELDS = List.of("creationTimestamp", "uid",
      "deletionTimestamp", "deletionGracePeriodSeconds", "selfLink");
  private static final List<String> OMIT_EMPTY_METADATA =
      List.of("labels", "annotations", "finalizers", "ownerReferences");

  private final Supplier<String> uids;
  private final Random random;

  ObjectMetaRules(Supplier<String> uids, Random random) {
    this.uids = uids;
    this.random = random;
  }

  /** kube's {@code WipeObjectMetaSystemFields}. */
  static MapValue wipeSystemFields(MapValue obj) {
    MapValue r = obj;
    for (String k : SYSTEM_FIELDS) {
      r = Meta.withoutMeta(r, k);
    }
    return r;
  }

  /** kube's {@code FillObjectMetaSystemFields}. */
  MapValue fillSystemFields(MapValue obj, Instant now) {
    MapValue r = Meta.withMeta(obj, "creationTimestamp", Value.of(Meta.formatTime(now)));
    return Meta.withMeta(r, "uid", Value.of(uids.get()));
  }

  /** A name from {@code generateName}: the prefix (cut to 58 characters) and 5 random characters. */
  String generateName(String base) {
    String prefix = base.length() > MAX_GENERATED_PREFIX ? base.substring(0, MAX_GENERATED_PREFIX)
        : base;
    StringBuilder sb = new StringBuilder(prefix);
    synchronized (random) {
      for (int i = 0; i < 5; i++) {
        sb.append(GENERATE_ALPHABET.charAt(random.nextInt(GENERATE_ALPHABET.length())));
      }
    }
    return sb.toString();
  }

  /** kube's {@code EnsureObjectNamespaceMatchesRequestNamespace}. */
  static MapValue ensureNamespace(MapValue obj, String expected) {
    String actual = Meta.metaString(obj, "namespace");
    if (actual.equals(expected)) {
      return obj;
    }
    if (actual.isEmpty()) {
      return Meta.withMeta(obj, "namespace", Value.of(expected));
    }
    if (expected.isEmpty()) {
      return Meta.withoutMeta(obj, "namespace");
    }
    throw StatusErrors.badRequest("the namespace of the provided object does not match the"
        + " namespace sent on the request");
  }

  /** {@link #ensureNamespace} then kube's {@code checkName}: the object carries the URL's name. */
  static MapValue matchUrl(Scope s, MapValue obj) {
    MapValue r = ensureNamespace(obj, s.objectNamespace());
    String objName = Meta.metaString(r, "name");
    if (!objName.equals(s.name())) {
      throw StatusErrors.badRequest("the name of the object (" + objName
          + ") does not match the name on the URL (" + s.name() + ")");
    }
    return r;
  }

  /** kube's owner reference dedup (same uid and equal reference), with its warnings. */
  static MapValue dedupOwnerReferences(Scope s, MapValue obj, boolean afterMutatingAdmission) {
    if (!(Meta.metadata(obj).getOrNull("ownerReferences") instanceof ListValue refs)) {
      return obj;
    }
    ListValue.Builder out = ListValue.builder(refs.size());
    List<Value> kept = new ArrayList<>();
    List<String> duplicates = new ArrayList<>();
    Set<String> seen = new HashSet<>();
    for (Value ref : refs.items()) {
      String uid = ref instanceof MapValue m ? Meta.string(m, "uid") : "";
      if (!seen.contains(uid) || !kept.contains(ref)) {
        seen.add(uid);
        kept.add(ref);
        out.add(ref);
      } else {
        duplicates.add(uid);
      }
    }
    if (duplicates.isEmpty()) {
      return obj;
    }
    s.warn(".metadata.ownerReferences contains duplicate entries"
        + (afterMutatingAdmission ? " after mutating admission happens" : "")
        + "; API server dedups owner references in 1.20+, and may reject such requests as early"
        + " as 1.24; please fix your requests; duplicate UID(s) observed: "
        + String.join(", ", duplicates));
    return Meta.withMeta(obj, "ownerReferences", out.build());
  }

  /**
   * What Go's {@code omitempty} does to a built-in object on its way through kube-apiserver's
   * typed structs: empty metadata maps and lists, and the kind's omit-empty fields, are not
   * kept. (Custom resources are unstructured and keep them.)
   */
  static MapValue omitEmpty(ResourceDefinition def, MapValue obj) {
    if (def.customResource()) {
      return obj;
    }
    MapValue r = obj;
    for (String k : OMIT_EMPTY_METADATA) {
      if (isEmpty(Meta.metadata(r).getOrNull(k))) {
        r = Meta.withoutMeta(r, k);
      }
    }
    for (String k : def.strategy().omitEmptyFields()) {
      if (isEmpty(r.getOrNull(k))) {
        r = r.without(k);
      }
    }
    return r;
  }

  private static boolean isEmpty(Value v) {
    return v != null && (v.isNull() || (v instanceof MapValue m && m.isEmpty())
        || (v instanceof ListValue l && l.isEmpty()));
  }

  /**
   * kube's {@code PrepareForCreate} of the kind (status, generation, the strategy's hooks, the
   * one that reads the requesting user last).
   */
  private static MapValue prepareForCreate(ResourceDefinition def, MapValue obj,
      io.apiserver4j.admission.UserInfo user) {
    MapValue r = def.strategy().dropDisabledFields(obj, Optional.empty());
    if (def.hasStatus()) {
      r = def.customResource() ? r.without("status") : r.with("status", MapValue.empty());
    }
    if (def.strategy().generationPolicy() != GenerationPolicy.NONE) {
      r = Meta.withMeta(r, "generation", Value.of(1L));
    }
    r = def.strategy().prepareForCreate().prepare(r, Optional.empty());
    return def.strategy().prepareForCreateByUser().prepare(r, user);
  }

  /** kube's {@code BeforeCreate}: namespace, preparation, validation. */
  static MapValue beforeCreate(Scope s, MapValue obj) {
    ResourceDefinition def = s.def();
    MapValue r = ensureNamespace(obj, s.objectNamespace());
    r = StorageForm.typed(def, prepareForCreate(def, omitEmpty(def, r), s.request().user()));
    List<FieldError> errs = new ArrayList<>(
        MetaValidation.objectMeta(r, def.namespaced(), def.strategy().nameValidation()));
    Verdict verdict = s.writer() == Scope.Writer.SYSTEM
        ? new Verdict(List.of(), List.of())
        : def.strategy().validator().check(r, Optional.empty());
    errs.addAll(verdict.errors());
    verdict.warnings().forEach(s::warn);
    if (!errs.isEmpty()) {
      throw StatusErrors.invalid(def.kind().groupKind(), Meta.metaString(r, "name"), errs);
    }
    return r;
  }

  /**
   * kube's {@code PrepareForUpdate} of the endpoint: the main resource keeps the stored status
   * and moves generation per the strategy; the status endpoint keeps everything but status.
   */
  private static MapValue prepareForUpdate(ResourceDefinition def, String subresource,
      MapValue obj, MapValue old, java.time.Instant now) {
    ResourceStrategy s = def.strategy();
    Optional<SubresourceUpdate> own = s.subresourceUpdate(subresource);
    if (own.isPresent()) {
      MapValue r = own.get().prepare().prepare(obj, old, now);
      if (bumpsGeneration(def, r, old)) {
        r = Meta.withMeta(r, "generation", Value.of(Meta.generation(old) + 1));
      }
      return r;
    }
    if (subresource.equals("status")) {
      Value status = obj.getOrNull("status");
      MapValue meta = Meta.metadata(obj);
      if (s.statusPreservedMetadata().contains("*")) {
        Value mf = meta.getOrNull("managedFields");
        MapValue oldMeta = Meta.metadata(old);
        meta = mf == null ? oldMeta.without("managedFields") : oldMeta.with("managedFields", mf);
      } else {
        for (String k : s.statusPreservedMetadata()) {
          Value v = Meta.metadata(old).getOrNull(k);
          meta = v == null ? meta.without(k) : meta.with(k, v);
        }
      }
      MapValue fresh = old.with("metadata", meta);
      fresh = status == null ? fresh.without("status") : fresh.with("status", status);
      return s.dropDisabledStatusFields(fresh, old);
    }
    MapValue r = s.dropDisabledFields(obj, Optional.of(old));
    if (def.hasStatus()) {
      Value oldStatus = old.getOrNull("status");
      r = oldStatus == null ? r.without("status") : r.with("status", oldStatus);
    }
    if (bumpsGeneration(def, r, old)) {
      r = Meta.withMeta(r, "generation", Value.of(Meta.generation(old) + 1));
    }
    return s.prepareForUpdate().prepare(r, Optional.of(old));
  }

  private static boolean bumpsGeneration(ResourceDefinition def, MapValue obj, MapValue old) {
    switch (def.strategy().generationPolicy()) {
      case SPEC:
        return !Objects.equals(obj.getOrNull("spec"), old.getOrNull("spec"));
      case SPEC_AND_ANNOTATIONS:
        return !Objects.equals(obj.getOrNull("spec"), old.getOrNull("spec"))
            || !Objects.equals(Meta.metadata(obj).getOrNull("annotations"),
                Meta.metadata(old).getOrNull("annotations"));
      case NON_METADATA:
        MapValue a = obj.without("metadata");
        MapValue b = old.without("metadata");
        if (def.hasStatus()) {
          a = a.without("status");
          b = b.without("status");
        }
        return !a.equals(b);
      case NONE:
      default:
        return false;
    }
  }

  /** kube's {@code BeforeUpdate} of the endpoint of {@code s}. */
  static MapValue beforeUpdate(Scope s, MapValue obj, MapValue old) {
    ResourceDefinition def = s.def();
    MapValue r = omitEmpty(def, ensureNamespace(obj, s.objectNamespace()));
    r = Meta.copyMeta(r, old, "generation");
    r = StorageForm.typed(def, prepareForUpdate(def, s.subresource(), r, old, s.now()));
    if (Meta.metaString(r, "uid").isEmpty()) {
      r = Meta.copyMeta(r, old, "uid");
    }
    for (String k : List.of("creationTimestamp", "deletionTimestamp")) {
      if (Meta.hasMeta(old, k)) {
        r = Meta.copyMeta(r, old, k);
      }
    }
    if (Meta.hasMeta(old, "deletionGracePeriodSeconds")
        && !Meta.hasMeta(r, "deletionGracePeriodSeconds")) {
      r = Meta.copyMeta(r, old, "deletionGracePeriodSeconds");
    }
    List<FieldError> errs = new ArrayList<>(MetaValidation.objectMetaUpdate(r, old,
        def.namespaced(), def.strategy().nameValidation()));
    Validator validator = def.strategy().subresourceUpdate(s.subresource())
        .map(SubresourceUpdate::validator)
        .orElse(def.strategy().validator());
    Verdict verdict = s.writer() == Scope.Writer.SYSTEM
        ? new Verdict(List.of(), List.of()) : validator.check(r, Optional.of(old));
    errs.addAll(verdict.errors());
    verdict.warnings().forEach(s::warn);
    if (!errs.isEmpty()) {
      throw StatusErrors.invalid(def.kind().groupKind(), Meta.metaString(r, "name"), errs);
    }
    return r;
  }

  /**
   * kube's {@code IgnoreManagedFieldsTimestampsTransformer}: when nothing but managedFields
   * times changed, the old times are kept so that the write is a no-op.
   */
  static MapValue ignoreTimestampOnlyChanges(MapValue obj, MapValue old) {
    Value newMf = Meta.metaValue(obj, "managedFields");
    Value oldMf = Meta.metaValue(old, "managedFields");
    if (!(newMf instanceof ListValue n) || !(oldMf instanceof ListValue o)
        || n.size() != o.size() || n.isEmpty() || n.equals(o)) {
      return obj;
    }
    if (!withoutTimes(n).equals(withoutTimes(o))) {
      return obj;
    }
    MapValue candidate = Meta.withMeta(obj, "managedFields", o);
    return candidate.equals(old) ? candidate : obj;
  }

  private static ListValue withoutTimes(ListValue entries) {
    ListValue.Builder b = ListValue.builder(entries.size());
    for (Value e : entries.items()) {
      b.add(e instanceof MapValue m ? m.without("time") : e);
    }
    return b.build();
  }

  /** kube's {@code ShouldDeleteDuringUpdate}: the last finalizer of a deleting object went. */
  static boolean shouldDeleteDuringUpdate(MapValue obj, MapValue existing) {
    if (!Meta.finalizers(obj).isEmpty() || !Meta.hasMeta(existing, "deletionTimestamp")) {
      return false;
    }
    Long grace = Meta.deletionGracePeriod(existing);
    return grace == null || grace == 0;
  }
}
