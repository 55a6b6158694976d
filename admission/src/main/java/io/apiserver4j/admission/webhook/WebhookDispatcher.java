/*
 * Copyright The apiserver4j authors.
 * SPDX-License-Identifier: Apache-2.0
 */
package io.apiserver4j.admission.webhook;

import io.apiserver4j.admission.AdmissionAttributes;
import io.apiserver4j.admission.AdmissionContext;
import io.apiserver4j.admission.AdmissionErrors;
import io.apiserver4j.admission.Reinvocation;
import io.apiserver4j.admission.SideEffects;
import io.apiserver4j.admission.matching.AdmissionRequests;
import io.apiserver4j.admission.matching.EquivalentResources;
import io.apiserver4j.admission.matching.Match;
import io.apiserver4j.admission.matching.MatchConditions;
import io.apiserver4j.admission.matching.NamespaceLookup;
import io.apiserver4j.admission.matching.ObjectConverter;
import io.apiserver4j.cel.CelAuthorizer;
import io.apiserver4j.core.Json;
import io.apiserver4j.apimachinery.patch.JsonPatch;
import io.apiserver4j.core.ListValue;
import io.apiserver4j.core.MapValue;
import io.apiserver4j.core.errors.Status;
import io.apiserver4j.core.errors.StatusErrors;
import io.apiserver4j.core.errors.StatusException;
import io.apiserver4j.core.errors.StatusReason;
import io.apiserver4j.core.Value;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import java.util.Set;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.CompletionException;
import java.util.function.Supplier;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * Calls webhooks the way kube-apiserver's webhook dispatchers do; shared by the webhooks of
 * configurations and the in-process {@link WebhookAdapter}.
 *
 * <p>Per webhook: match (rules, selectors, match policy), then match conditions on the object
 * converted to the matched version (a failing condition obeys the failure policy: Fail is 403
 * {@code <resource> "<name>" is forbidden: <error>}); on a dry run, side effects other than None
 * and NoneOnDryRun are kube's 400; then the call, whose failures obey the failure policy (Fail:
 * 500 {@code failed calling webhook "<name>": <reason>}, Ignore: skipped, with kube's
 * {@code failed-open} audit annotation). Warnings and audit annotations of responses go to the
 * request's {@link AdmissionContext}; a denial is kube's {@code ToStatusErr}.
 *
 * <p>Mutating webhooks run in order, each seeing the previous one's patched object, with kube's
 * reinvocation bookkeeping; validating webhooks are all called at once and the first error, in
 * webhook order, is reported. Thread-safe.
 */
final class WebhookDispatcher {
  private static final Logger LOG = LoggerFactory.getLogger(WebhookDispatcher.class);
  /** As kube's webhook match conditions: no params, the authorizer declared. */
  private static final List<String> CONDITION_VARIABLES =
      List.of("object", "oldObject", "request", "authorizer");
  private static final String MUTATION_ANNOTATION = "mutation.webhook.admission.k8s.io/";
  private static final String PATCH_ANNOTATION = "patch.webhook.admission.k8s.io/";
  private static final String MUTATING_FAILED_OPEN = "failed-open." + MUTATION_ANNOTATION;
  private static final String VALIDATING_FAILED_OPEN =
      "failed-open.validating.webhook.admission.k8s.io/";

  private final String pluginName;
  private final NamespaceLookup namespaces;
  private final EquivalentResources equivalents;
  private final ObjectConverter converter;
  private final Supplier<String> uids;

  WebhookDispatcher(String pluginName, NamespaceLookup namespaces,
      EquivalentResources equivalents, ObjectConverter converter, Supplier<String> uids) {
    this.pluginName = pluginName;
    this.namespaces = namespaces;
    this.equivalents = equivalents;
    this.converter = converter;
    this.uids = uids;
  }

  /** The variables match conditions of webhooks are compiled with. */
  static List<String> conditionVariables() {
    return CONDITION_VARIABLES;
  }

  /**
   * Runs mutating webhooks on the request's object ({@code object} empty for DELETE and
   * CONNECT without options).
   *
   * @return the object after the last patch; {@code object} itself when nothing changed
   */
  Optional<MapValue> mutate(AdmissionAttributes a, Optional<MapValue> object,
      List<Webhook> hooks) {
    if (hooks.isEmpty() || AdmissionRequests.isAdmissionConfiguration(a)) {
      return object;
    }
    AdmissionContext ctx = a.context();
    Reinvocation reinvocation = ctx.reinvocation(pluginName);
    boolean reinvoking = ctx.isReinvoke();
    reinvocation.beginRound(object);
    Optional<MapValue> current = object;
    try {
      for (int i = 0; i < hooks.size(); i++) {
        Webhook h = hooks.get(i);
        AdmissionAttributes now = current.isPresent() ? a.withObject(current.get()) : a;
        Optional<Match> match = shouldCall(h, now);
        if (match.isEmpty()) {
          continue;
        }
        if (reinvocation.skips(h.uid())) {
          continue;
        }
        int round = reinvoking ? 1 : 0;
        Optional<MapValue> versioned = current.map(o -> convert(o, now, match.get()));
        Optional<AdmissionReviewResponse> response = await(call(h, match.get(), now, versioned,
            now.oldObject().map(o -> convert(o, now, match.get())), true, round, i));
        boolean changed = false;
        if (response.isPresent() && response.get().patch().isPresent()
            && !response.get().patch().get().isEmpty()) {
          ListValue patch = response.get().patch().get();
          if (versioned.isEmpty()) {
            throw StatusErrors.internal("admission webhook \"" + h.name()
                + "\" attempted to modify the object, which is not supported for this"
                + " operation");
          }
          MapValue patched = applyPatch(h, versioned.get(), patch);
          MapValue back = match.get().kind().equals(now.kind()) ? patched
              : converter.convert(patched, now.kind());
          changed = !back.equals(current.get());
          ctx.addAuditAnnotation(PATCH_ANNOTATION + "round_" + round + "_index_" + i,
              Json.write(MapValue.ofEntries("configuration", Value.of(h.configurationName()),
                  "webhook", Value.of(h.name()), "patch", patch,
                  "patchType", Value.of("JSONPatch"))));
          current = Optional.of(back);
        }
        if (response.isPresent()) {
          ctx.addAuditAnnotation(MUTATION_ANNOTATION + "round_" + round + "_index_" + i,
              Json.write(MapValue.ofEntries("configuration", Value.of(h.configurationName()),
                  "webhook", Value.of(h.name()), "mutated", Value.of(changed))));
        }
        if (changed) {
          reinvocation.changed();
        }
        // after the change: a webhook's own patch does not make it run again
        if (h.reinvokeIfNeeded()) {
          reinvocation.invokedReinvocable(h.uid());
        }
      }
    } finally {
      reinvocation.endRound(current);
    }
    if (current.isPresent() && object.isPresent() && current.get().equals(object.get())) {
      return object;
    }
    return current;
  }

  /** Runs validating webhooks on the request as it is. */
  void validate(AdmissionAttributes a, List<Webhook> hooks) {
    if (hooks.isEmpty() || AdmissionRequests.isAdmissionConfiguration(a)) {
      return;
    }
    List<CompletableFuture<Optional<AdmissionReviewResponse>>> calls = new ArrayList<>();
    List<Webhook> called = new ArrayList<>();
    List<Match> matches = new ArrayList<>();
    List<Integer> indexes = new ArrayList<>();
    for (int i = 0; i < hooks.size(); i++) {
      Optional<Match> match = shouldCall(hooks.get(i), a);
      if (match.isPresent()) {
        called.add(hooks.get(i));
        matches.add(match.get());
        indexes.add(i);
      }
    }
    for (int i = 0; i < called.size(); i++) {
      Match m = matches.get(i);
      calls.add(call(called.get(i), m, a, a.object().map(o -> convert(o, a, m)),
          a.oldObject().map(o -> convert(o, a, m)), false, 0, indexes.get(i)));
    }
    RuntimeException first = null;
    for (CompletableFuture<Optional<AdmissionReviewResponse>> call : calls) {
      try {
        await(call);
      } catch (RuntimeException e) {
        if (first == null) {
          first = e;
        }
      }
    }
    if (first != null) {
      throw first;
    }
  }

  /**
   * Whether {@code h} is called, and how the request matched it.
   *
   * @throws StatusException a selector's error, or a failing match condition under Fail
   */
  private Optional<Match> shouldCall(Webhook h, AdmissionAttributes a) {
    Optional<Match> match = h.criteria().match(a, namespaces, equivalents);
    if (match.isEmpty() || h.conditions().isEmpty()) {
      return match;
    }
    Match m = match.get();
    MatchConditions.Result result = h.conditions().evaluate(Map.of(
        "object", a.object().<Value>map(o -> convert(o, a, m)).orElse(Value.nullValue()),
        "oldObject", a.oldObject().<Value>map(o -> convert(o, a, m)).orElse(Value.nullValue()),
        "request", AdmissionRequests.celRequest(a, m)),
        new CelAuthorizer.ForRequest(a.authorizer(), a.resource().group(),
            a.resource().resource(), a.subresource(), a.namespace(), a.name()));
    if (result instanceof MatchConditions.Result.Failed f) {
      if (h.failurePolicy() == FailurePolicy.IGNORE) {
        return Optional.empty();
      }
      LOG.warn("Failed evaluating match conditions, failing closed {}: {}", h.name(),
          f.message());
      throw StatusErrors.forbidden(a.resource().groupResource(), a.name(), f.message());
    }
    return result instanceof MatchConditions.Result.Matched ? match : Optional.empty();
  }

  private MapValue convert(MapValue object, AdmissionAttributes a, Match m) {
    return m.kind().equals(a.kind()) ? object : converter.convert(object, m.kind());
  }

  /**
   * Calls {@code h}. The future holds the response, or nothing when a call failure is ignored;
   * it fails with the StatusException to answer (a denial, a failure under Fail, a dry run the
   * webhook cannot take).
   */
  private CompletableFuture<Optional<AdmissionReviewResponse>> call(Webhook h, Match m,
      AdmissionAttributes a, Optional<MapValue> object, Optional<MapValue> oldObject,
      boolean mutating, int round, int index) {
    if (a.isDryRun()) {
      if (h.sideEffects().isEmpty()) {
        return CompletableFuture.completedFuture(callFailed(h, a, mutating, round, index,
            new WebhookCallException("", "Webhook SideEffects is nil")));
      }
      SideEffects sideEffects = h.sideEffects().get();
      if (!sideEffects.supportsDryRun()) {
        return CompletableFuture.failedFuture(AdmissionErrors.dryRunUnsupported(h.name()));
      }
    }
    String version = null;
    for (String v : h.reviewVersions()) {
      if (v.equals(AdmissionReviewRequest.V1) || v.equals(AdmissionReviewRequest.V1BETA1)) {
        version = v;
        break;
      }
    }
    if (version == null) {
      return CompletableFuture.completedFuture(callFailed(h, a, mutating, round, index,
          new WebhookCallException("could not create admission objects",
              "webhook does not accept known AdmissionReview versions (v1, v1beta1)")));
    }
    AdmissionReviewRequest request = AdmissionReviewRequest.of(uids.get(), a, m, object,
        oldObject);
    CompletableFuture<AdmissionReviewResponse> sent;
    try {
      sent = h.endpoint().call(request, version, mutating, h.timeout());
    } catch (RuntimeException e) {
      sent = CompletableFuture.failedFuture(e);
    }
    return sent.handle((response, error) -> {
      if (error != null) {
        Throwable cause = unwrap(error);
        if (cause instanceof WebhookCallException wce) {
          return callFailed(h, a, mutating, round, index, wce);
        }
        if (cause instanceof StatusException se) {
          throw se;
        }
        LOG.error("calling webhook {} failed unexpectedly", h.name(), cause);
        throw StatusErrors.internal("failed calling webhook \"" + h.name() + "\": " + cause);
      }
      AdmissionContext ctx = a.context();
      response.auditAnnotations().forEach((k, v) -> {
        if (!ctx.addAuditAnnotation(h.name() + "/" + k, v)) {
          LOG.warn("Failed to set admission audit annotation {}/{} for webhook {}: already set",
              h.name(), k, h.name());
        }
      });
      response.warnings().forEach(ctx::addWarning);
      if (!response.allowed()) {
        throw denial(h.name(), response.result());
      }
      return Optional.of(response);
    });
  }

  /** Applies the failure policy to a failed call: nothing under Ignore, else kube's 500. */
  private static Optional<AdmissionReviewResponse> callFailed(Webhook h, AdmissionAttributes a,
      boolean mutating, int round, int index, WebhookCallException e) {
    String message = "failed calling webhook \"" + h.name() + "\": " + e.getMessage();
    if (h.failurePolicy() == FailurePolicy.IGNORE) {
      LOG.warn("Failed calling webhook, failing open {}: {}", h.name(), message);
      a.context().addAuditAnnotation((mutating ? MUTATING_FAILED_OPEN + "round_" + round
          : VALIDATING_FAILED_OPEN + "round_0") + "_index_" + index, h.name());
      return Optional.empty();
    }
    LOG.warn("Failed calling webhook, failing closed {}: {}", h.name(), message);
    throw StatusErrors.internal(message);
  }

  /** kube's {@code ToStatusErr}: the webhook's status, its message prefixed. */
  static StatusException denial(String webhookName, Optional<Status> result) {
    String deniedBy = "admission webhook \"" + webhookName + "\" denied the request";
    Status s = result.orElse(new Status(Status.Outcome.FAILURE, 0, StatusReason.UNKNOWN, "",
        Optional.empty()));
    String message;
    if (!s.message().isEmpty()) {
      message = deniedBy + ": " + s.message();
    } else if (!s.reason().wireName().isEmpty()) {
      message = deniedBy + ": " + s.reason().wireName();
    } else {
      message = deniedBy + " without explanation";
    }
    int code = s.code() < 400 ? 400 : s.code();
    return StatusException.of(new Status(Status.Outcome.FAILURE, code, s.reason(), message,
        s.details()));
  }

  private static MapValue applyPatch(Webhook h, MapValue object, ListValue patch) {
    Value patched;
    try {
      patched = JsonPatch.applyOrFail(object, patch, JsonPatch.DEFAULT_MAX_COPY_BYTES);
    } catch (JsonPatch.Failure e) {
      throw StatusErrors.internal(e.getMessage());
    }
    if (!(patched instanceof MapValue m)) {
      throw StatusErrors.internal("admission webhook \"" + h.name()
          + "\" patched the object into a non-object: " + patched.kind());
    }
    return m;
  }

  private static <T> T await(CompletableFuture<T> future) {
    try {
      return future.join();
    } catch (CompletionException e) {
      Throwable cause = unwrap(e);
      if (cause instanceof RuntimeException re) {
        throw re;
      }
      throw new IllegalStateException(cause);
    }
  }

  private static Throwable unwrap(Throwable t) {
    while (t instanceof CompletionException && t.getCause() != null) {
      t = t.getCause();
    }
    return t;
  }
}
