/*
 * Copyright The apiserver4j authors.
 * SPDX-License-Identifier: Apache-2.0
 */
package io.apiserver4j.admission.webhook;

import static java.util.Objects.requireNonNull;

import io.apiserver4j.admission.AdmissionAttributes;
import io.apiserver4j.admission.AdmissionPlugin;
import io.apiserver4j.admission.MutatingPlugin;
import io.apiserver4j.admission.SideEffects;
import io.apiserver4j.admission.ValidatingPlugin;
import io.apiserver4j.admission.matching.AdmissionRequests;
import io.apiserver4j.admission.matching.EquivalentResources;
import io.apiserver4j.admission.matching.MatchConditions;
import io.apiserver4j.admission.matching.MatchCriteria;
import io.apiserver4j.admission.matching.MatchPolicy;
import io.apiserver4j.admission.matching.NamespaceLookup;
import io.apiserver4j.admission.matching.ObjectConverter;
import io.apiserver4j.core.MapValue;
import java.util.ArrayList;
import java.util.List;
import java.util.Optional;
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
 * The calls go through the same dispatcher as webhooks configured by
 * Validating/MutatingWebhookConfigurations ({@link ConfiguredWebhooks}); what an adapter does not
 * have: namespace and object selectors, match conditions, matchPolicy equivalence, reinvocation,
 * timeouts.
 *
 * <p>Build with {@link #mutating} or {@link #validating}. Thread-safe when the function is.
 */
public abstract sealed class WebhookAdapter implements AdmissionPlugin
    permits WebhookAdapter.Mutating, WebhookAdapter.Validating {

  private final String name;
  private final List<WebhookRule> rules;
  private final SideEffects sideEffects;
  private final FailurePolicy failurePolicy;
  /** The adapter as the one webhook its dispatcher calls. */
  private final List<Webhook> webhook;
  private final WebhookDispatcher dispatcher;

  private WebhookAdapter(Builder<?> b) {
    this.name = b.name;
    this.rules = List.copyOf(b.rules);
    this.sideEffects = b.sideEffects;
    this.failurePolicy = b.failurePolicy;
    MatchCriteria.Builder criteria = MatchCriteria.builder().matchPolicy(MatchPolicy.EXACT);
    for (WebhookRule r : rules) {
      criteria.rule(r.toRule());
    }
    this.webhook = List.of(new Webhook(name, name, name, criteria.build(),
        MatchConditions.none(), failurePolicy, Optional.of(sideEffects),
        Webhook.DEFAULT_TIMEOUT, List.of(AdmissionReviewRequest.V1), false,
        new FunctionEndpoint(b.handler)));
    this.dispatcher = new WebhookDispatcher(name, NamespaceLookup.NONE,
        EquivalentResources.NONE, ObjectConverter.API_VERSION, b.uids);
  }

  /**
   * A mutating webhook named {@code name} (e.g. {@code defaulter.example.com}).
   *
   * @param name the webhook's name, not empty
   * @param handler the webhook's handler: receives the request, returns the response
   * @return a builder for the webhook
   * @throws IllegalArgumentException when the name is empty
   */
  public static Builder<Mutating> mutating(
      String name, Function<AdmissionReviewRequest, AdmissionReviewResponse> handler) {
    return new Builder<>(name, handler, Mutating::new);
  }

  /**
   * A validating webhook named {@code name}.
   *
   * @param name the webhook's name, not empty
   * @param handler the webhook's handler: receives the request, returns the response
   * @return a builder for the webhook
   * @throws IllegalArgumentException when the name is empty
   */
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

  /**
   * The rules that select the requests the webhook sees.
   *
   * @return the rules, at least one
   */
  public final List<WebhookRule> rules() {
    return rules;
  }

  /**
   * What happens when the webhook fails.
   *
   * @return the failure policy; Fail by default
   */
  public final FailurePolicy failurePolicy() {
    return failurePolicy;
  }

  final WebhookDispatcher dispatcher() {
    return dispatcher;
  }

  final List<Webhook> webhook() {
    return webhook;
  }

  @Override
  public final boolean handles(AdmissionAttributes a) {
    if (AdmissionRequests.isAdmissionConfiguration(a)) {
      return false;
    }
    for (WebhookRule rule : rules) {
      if (rule.matches(a)) {
        return true;
      }
    }
    return false;
  }

  /** A mutating webhook; see {@link WebhookAdapter}. */
  public static final class Mutating extends WebhookAdapter implements MutatingPlugin {
    private Mutating(Builder<?> b) {
      super(b);
    }

    @Override
    public MapValue admit(AdmissionAttributes a, MapValue object) {
      return dispatcher().mutate(a, Optional.of(object), webhook()).orElseThrow();
    }

    @Override
    public void admitWithoutObject(AdmissionAttributes a) {
      dispatcher().mutate(a, Optional.empty(), webhook());
    }
  }

  /** A validating webhook; see {@link WebhookAdapter}. */
  public static final class Validating extends WebhookAdapter implements ValidatingPlugin {
    private Validating(Builder<?> b) {
      super(b);
    }

    @Override
    public void validate(AdmissionAttributes a) {
      dispatcher().validate(a, webhook());
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

    /**
     * Adds a rule; at least one is required.
     *
     * @param rule the rule
     * @return this builder
     */
    public Builder<W> rule(WebhookRule rule) {
      rules.add(requireNonNull(rule, "rule"));
      return this;
    }

    /**
     * The side-effect class. Required: admissionregistration.k8s.io/v1 has no default.
     *
     * @param sideEffects the side-effect class
     * @return this builder
     */
    public Builder<W> sideEffects(SideEffects sideEffects) {
      this.sideEffects = requireNonNull(sideEffects, "sideEffects");
      return this;
    }

    /**
     * What happens when the webhook fails; Fail by default.
     *
     * @param failurePolicy the policy
     * @return this builder
     */
    public Builder<W> failurePolicy(FailurePolicy failurePolicy) {
      this.failurePolicy = requireNonNull(failurePolicy, "failurePolicy");
      return this;
    }

    /**
     * Where request uids come from; random UUIDs by default (inject for tests).
     *
     * @param uids the uid supplier
     * @return this builder
     */
    public Builder<W> uidSupplier(Supplier<String> uids) {
      this.uids = requireNonNull(uids, "uids");
      return this;
    }

    /**
     * Builds the webhook.
     *
     * @return the webhook, an admission plugin
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
