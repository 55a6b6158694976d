package io.apiserver4j.admission.webhook;

import static java.util.Objects.requireNonNull;

import io.apiserver4j.admission.AdmissionAttributes;
import io.apiserver4j.admission.AdmissionErrors;
import io.apiserver4j.admission.AdmissionPlugin;
import io.apiserver4j.admission.MutatingPlugin;
import io.apiserver4j.admission.SideEffects;
import io.apiserver4j.admission.ValidatingPlugin;
import io.apiserver4j.core.JsonPatch;
import io.apiserver4j.core.MapValue;
import io.apiserver4j.core.Status;
import io.apiserver4j.core.StatusErrors;
import io.apiserver4j.core.StatusException;
import io.apiserver4j.core.StatusReason;
import io.apiserver4j.core.Value;
import java.util.ArrayList;
import java.util.List;
import java.util.Optional;
import java.util.Set;
import java.util.UUID;
import java.util.function.Function;
import java.util.function.Supplier;

/**
 * An admission webhook in process: a user function from {@link AdmissionReviewRequest} to
 * {@link AdmissionReviewResponse}, run as a plugin with admissionregistration.k8s.io/v1 rules.
 *
 * <p>Semantics, following kube-apiserver's webhook dispatchers:
 * <ul>
 *   <li>The webhook is called only when one of its {@link WebhookRule}s matches; it is never
 *       called for the admission-configuration kinds themselves.
 *   <li>Dry run: a matching webhook whose side effects are {@link SideEffects#SOME} or
 *       {@link SideEffects#UNKNOWN} is not called; the request fails with 400
 *       {@code admission webhook "<name>" does not support dry run}, whatever the failure
 *       policy. Others are called with {@code dryRun: true}.
 *   <li>Denial: the response's status with code raised to 400 if below, and message
 *       {@code admission webhook "<name>" denied the request: <message>} (or the reason when
 *       there is no message, or {@code ... denied the request without explanation}).
 *   <li>Call failures (the function throws, returns {@code null}, answers with another uid, or
 *       a validating webhook returns a patch) obey the {@link FailurePolicy}: {@code FAIL} gives
 *       500 {@code Internal error occurred: failed calling webhook "<name>": <why>},
 *       {@code IGNORE} skips the webhook.
 *   <li>Mutating webhooks change the object with a JSON Patch. A patch that does not apply, or a
 *       patch for a request without object, is a 500 regardless of the failure policy.
 * </ul>
 * Not modelled: namespace and object selectors, match conditions, matchPolicy equivalence,
 * reinvocation, timeouts.
 *
 * <p>Build with {@link #mutating} or {@link #validating}. Thread-safe when the function is.
 */
public abstract sealed class WebhookAdapter implements AdmissionPlugin
    permits WebhookAdapter.Mutating, WebhookAdapter.Validating {

  private final String name;
  private final Function<AdmissionReviewRequest, AdmissionReviewResponse> handler;
  private final List<WebhookRule> rules;
  private final SideEffects sideEffects;
  private final FailurePolicy failurePolicy;
  private final Supplier<String> uids;

  private WebhookAdapter(Builder<?> b) {
    this.name = b.name;
    this.handler = b.handler;
    this.rules = List.copyOf(b.rules);
    this.sideEffects = b.sideEffects;
    this.failurePolicy = b.failurePolicy;
    this.uids = b.uids;
  }

  /** A mutating webhook named {@code name} (e.g. {@code defaulter.example.com}). */
  public static Builder<Mutating> mutating(
      String name, Function<AdmissionReviewRequest, AdmissionReviewResponse> handler) {
    return new Builder<>(name, handler, Mutating::new);
  }

  /** A validating webhook named {@code name}. */
  public static Builder<Validating> validating(
      String name, Function<AdmissionReviewRequest, AdmissionReviewResponse> handler) {
    return new Builder<>(name, handler, Validating::new);
  }

  @Override
  public final String name() {
    return name;
  }

  @Override
  public final SideEffects sideEffects() {
    return sideEffects;
  }

  public final List<WebhookRule> rules() {
    return rules;
  }

  public final FailurePolicy failurePolicy() {
    return failurePolicy;
  }

  @Override
  public final boolean handles(AdmissionAttributes a) {
    if (isAdmissionConfiguration(a)) {
      return false;
    }
    for (WebhookRule rule : rules) {
      if (rule.matches(a)) {
        return true;
      }
    }
    return false;
  }

  /**
   * Calls the function; empty when a call failure is ignored by the failure policy.
   */
  final Optional<AdmissionReviewResponse> call(
      AdmissionAttributes a, Optional<MapValue> object, boolean mutating) {
    if (a.isDryRun() && !sideEffects.supportsDryRun()) {
      throw AdmissionErrors.dryRunUnsupported(name);
    }
    AdmissionReviewRequest request = AdmissionReviewRequest.of(uids.get(), a, object);
    AdmissionReviewResponse response;
    try {
      response = handler.apply(request);
    } catch (RuntimeException e) {
      String why = e.getMessage() == null ? e.getClass().getName() : e.getMessage();
      return callFailed("failed to call webhook: " + why);
    }
    if (response == null) {
      return callFailed("received invalid webhook response: webhook response was absent");
    }
    if (!response.uid().equals(request.uid())) {
      return callFailed("received invalid webhook response: expected response.uid=\""
          + request.uid() + "\", got \"" + response.uid() + "\"");
    }
    if (!mutating && response.patch().isPresent()) {
      return callFailed(
          "received invalid webhook response: validating webhook may not return response.patch");
    }
    if (!response.allowed()) {
      throw denial(response.result());
    }
    return Optional.of(response);
  }

  private Optional<AdmissionReviewResponse> callFailed(String why) {
    if (failurePolicy == FailurePolicy.IGNORE) {
      return Optional.empty();
    }
    throw StatusErrors.internal("failed calling webhook \"" + name + "\": " + why);
  }

  private StatusException denial(Optional<Status> result) {
    String deniedBy = "admission webhook \"" + name + "\" denied the request";
    // A missing result is an empty failure status (code 0), which the code rule turns into 400.
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

  private static boolean isAdmissionConfiguration(AdmissionAttributes a) {
    if (!a.kind().group().equals("admissionregistration.k8s.io")) {
      return false;
    }
    return CONFIGURATION_KINDS.contains(a.kind().kind());
  }

  private static final Set<String> CONFIGURATION_KINDS = Set.of(
      "ValidatingWebhookConfiguration", "MutatingWebhookConfiguration",
      "ValidatingAdmissionPolicy", "ValidatingAdmissionPolicyBinding",
      "MutatingAdmissionPolicy", "MutatingAdmissionPolicyBinding");

  /** A mutating webhook; see {@link WebhookAdapter}. */
  public static final class Mutating extends WebhookAdapter implements MutatingPlugin {
    private Mutating(Builder<?> b) {
      super(b);
    }

    @Override
    public MapValue admit(AdmissionAttributes a, MapValue object) {
      Optional<AdmissionReviewResponse> response = call(a, Optional.of(object), true);
      if (response.isEmpty() || response.get().patch().isEmpty()
          || response.get().patch().get().isEmpty()) {
        return object;
      }
      Value patched;
      try {
        patched = JsonPatch.applyOrFail(object, response.get().patch().get(),
            JsonPatch.DEFAULT_MAX_COPY_BYTES);
      } catch (JsonPatch.Failure e) {
        throw StatusErrors.internal(e.getMessage());
      }
      if (!(patched instanceof MapValue m)) {
        throw StatusErrors.internal("admission webhook \"" + name()
            + "\" patched the object into a non-object: " + patched.kind());
      }
      return m;
    }

    @Override
    public void admitWithoutObject(AdmissionAttributes a) {
      Optional<AdmissionReviewResponse> response = call(a, Optional.empty(), true);
      if (response.isPresent() && response.get().patch().isPresent()
          && !response.get().patch().get().isEmpty()) {
        throw StatusErrors.internal("admission webhook \"" + name()
            + "\" attempted to modify the object, which is not supported for this operation");
      }
    }
  }

  /** A validating webhook; see {@link WebhookAdapter}. */
  public static final class Validating extends WebhookAdapter implements ValidatingPlugin {
    private Validating(Builder<?> b) {
      super(b);
    }

    @Override
    public void validate(AdmissionAttributes a) {
      call(a, a.object(), false);
    }
  }

  /**
   * Configures a webhook; at least one rule and the side-effect class are required.
   *
   * @param <W> the kind of webhook built
   */
  public static final class Builder<W extends WebhookAdapter> {
    private final String name;
    private final Function<AdmissionReviewRequest, AdmissionReviewResponse> handler;
    private final Function<Builder<W>, W> factory;
    private final List<WebhookRule> rules = new ArrayList<>();
    private SideEffects sideEffects;
    private FailurePolicy failurePolicy = FailurePolicy.FAIL;
    private Supplier<String> uids = () -> UUID.randomUUID().toString();

    private Builder(String name,
        Function<AdmissionReviewRequest, AdmissionReviewResponse> handler,
        Function<Builder<W>, W> factory) {
      this.name = requireNonNull(name, "name");
      this.handler = requireNonNull(handler, "handler");
      this.factory = factory;
      if (name.isEmpty()) {
        throw new IllegalArgumentException("webhook name must not be empty");
      }
    }

    public Builder<W> rule(WebhookRule rule) {
      rules.add(requireNonNull(rule, "rule"));
      return this;
    }

    /** Required: admissionregistration.k8s.io/v1 has no default. */
    public Builder<W> sideEffects(SideEffects sideEffects) {
      this.sideEffects = requireNonNull(sideEffects, "sideEffects");
      return this;
    }

    public Builder<W> failurePolicy(FailurePolicy failurePolicy) {
      this.failurePolicy = requireNonNull(failurePolicy, "failurePolicy");
      return this;
    }

    /** Where request uids come from; random UUIDs by default (inject for tests). */
    public Builder<W> uidSupplier(Supplier<String> uids) {
      this.uids = requireNonNull(uids, "uids");
      return this;
    }

    /**
     * @throws IllegalStateException naming the webhook when it has no rule (it would never be
     *     called) or no side-effect class
     */
    public W build() {
      if (rules.isEmpty()) {
        throw new IllegalStateException("webhook \"" + name + "\" has no rules; it would never"
            + " be called");
      }
      if (sideEffects == null) {
        throw new IllegalStateException("webhook \"" + name + "\": sideEffects is required");
      }
      return factory.apply(this);
    }
  }
}
