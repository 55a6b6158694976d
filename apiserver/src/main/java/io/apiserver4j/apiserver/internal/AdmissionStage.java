/*
 * Copyright The apiserver4j authors.
 * SPDX-License-Identifier: Apache-2.0
 */
package io.apiserver4j.apiserver.internal;

import io.apiserver4j.admission.AdmissionAttributes;
import io.apiserver4j.admission.AdmissionChain;
import io.apiserver4j.admission.AdmissionContext;
import io.apiserver4j.admission.Operation;
import io.apiserver4j.admission.OperationOptions;
import io.apiserver4j.apimachinery.managedfields.FieldManager;
import io.apiserver4j.core.GroupResource;
import io.apiserver4j.core.GroupVersionKind;
import io.apiserver4j.core.MapValue;
import io.apiserver4j.core.Meta;
import io.apiserver4j.core.errors.StatusErrors;
import java.util.Optional;
import java.util.function.Predicate;

/**
 * The admission chain as the request path runs it: mutating admission on the object being
 * written, validating admission on what is about to be stored, and both on deletes. Every call
 * sees the request's endpoint, user and dry-run flag.
 */
final class AdmissionStage {
  private final AdmissionChain chain;
  private final Predicate<GroupResource> terminatingCrd;

  /**
   * @param terminatingCrd whether a custom resource's CRD is being deleted (no new objects then)
   */
  AdmissionStage(AdmissionChain chain, Predicate<GroupResource> terminatingCrd) {
    this.chain = chain;
    this.terminatingCrd = terminatingCrd;
  }

  private static AdmissionAttributes attributes(Scope s, Operation op, GroupVersionKind kind,
      String name, MapValue object, MapValue oldObject, AdmissionContext context) {
    AdmissionAttributes.Builder b = AdmissionAttributes.builder()
        .context(context)
        .operation(op)
        .resource(s.def().resource())
        .subresource(s.subresource())
        .kind(kind)
        .name(name)
        .namespace(s.objectNamespace())
        .userInfo(s.request().user())
        .authorizer(s.request().authorizer())
        .dryRun(s.dryRun())
        .auditAnnotations(s.request().auditAnnotations())
        .options(OperationOptions.of(op, s.dryRun(), s.request().fieldManager()));
    if (object != null) {
      b.object(object);
    }
    if (oldObject != null) {
      b.oldObject(oldObject);
    }
    return b.build();
  }

  /**
   * Mutating admission of a create ({@code old} null) or an update, restoring managedFields a
   * plugin left undecodable (with kube's warning). A create of a custom resource whose CRD
   * terminates is forbidden first, as kube's {@code forbidCreateAdmission}.
   */
  MapValue mutate(Scope s, GroupVersionKind kind, String name, MapValue object, MapValue old) {
    Operation op = old == null ? Operation.CREATE : Operation.UPDATE;
    if (op == Operation.CREATE && s.def().customResource()
        && terminatingCrd.test(s.groupResource())) {
      throw StatusErrors.forbidden(s.groupResource(), name,
          "create not allowed while custom resource definition is terminating");
    }
    AdmissionContext context = AdmissionContext.create();
    MapValue after;
    try {
      after = chain.admit(attributes(s, op, kind, name, object, old, context));
    } finally {
      report(s, context);
    }
    if (after == object) {
      return after;
    }
    // as kube decodes what a webhook or policy patched: the object is defaulted again
    after = s.def().strategy().defaulter().apply(after);
    Optional<String> error = FieldManager.validateManagedFields(
        Meta.metaValue(after, "managedFields"));
    if (error.isPresent()) {
      s.warn(".metadata.managedFields was in an invalid state after admission; this could be"
          + " caused by an outdated mutating admission controller; please fix your requests: "
          + error.get());
      return Meta.copyMeta(after, object, "managedFields");
    }
    return after;
  }

  /** Validating admission of a create ({@code old} null) or an update of object {@code name}. */
  void validate(Scope s, GroupVersionKind kind, String name, MapValue object, MapValue old) {
    Operation op = old == null ? Operation.CREATE : Operation.UPDATE;
    AdmissionContext context = AdmissionContext.create();
    try {
      chain.validate(attributes(s, op, kind, name, object, old, context));
    } finally {
      report(s, context);
    }
  }

  /**
   * Passes what admission raised on: warnings to the response (as kube, also on failures) and
   * audit annotations (of webhooks and policies) to the request's audit event.
   */
  private static void report(Scope s, AdmissionContext context) {
    context.warnings().forEach(s::warn);
    context.auditAnnotations().forEach(s.request().auditAnnotations()::add);
  }

  /** Delete admission (mutating without object, then validating) of {@code existing}. */
  void admitDelete(Scope s, MapValue existing) {
    AdmissionContext context = AdmissionContext.create();
    AdmissionAttributes attrs = attributes(s, Operation.DELETE, s.def().kind(),
        Meta.metaString(existing, "name"), null, existing, context);
    try {
      chain.admitWithoutObject(attrs);
      chain.validate(attrs);
    } finally {
      report(s, context);
    }
  }
}
