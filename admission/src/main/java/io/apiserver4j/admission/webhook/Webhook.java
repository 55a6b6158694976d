/*
 * Copyright The apiserver4j authors.
 * SPDX-License-Identifier: Apache-2.0
 */
package io.apiserver4j.admission.webhook;

import io.apiserver4j.admission.SideEffects;
import io.apiserver4j.admission.matching.MatchConditions;
import io.apiserver4j.admission.matching.MatchCriteria;
import java.time.Duration;
import java.util.List;
import java.util.Optional;

/**
 * One webhook ready to be called: from a Validating/MutatingWebhookConfiguration, or an in-process
 * {@link WebhookAdapter}.
 *
 * @param configurationName the configuration it comes from (its own name for adapters)
 * @param name the webhook's name, as errors show it
 * @param uid unique among the webhooks of one plugin (kube: configuration/name/index), for
 *     reinvocation
 * @param sideEffects empty when the configuration declares none (only v1beta1 allowed that)
 * @param reviewVersions the AdmissionReview versions it accepts, preferred first
 * @param reinvokeIfNeeded reinvocationPolicy {@code IfNeeded}
 */
record Webhook(String configurationName, String name, String uid, MatchCriteria criteria,
    MatchConditions conditions, FailurePolicy failurePolicy, Optional<SideEffects> sideEffects,
    Duration timeout, List<String> reviewVersions, boolean reinvokeIfNeeded,
    WebhookEndpoint endpoint) {

  /** kube's default {@code timeoutSeconds}. */
  static final Duration DEFAULT_TIMEOUT = Duration.ofSeconds(10);

  Webhook {
    reviewVersions = List.copyOf(reviewVersions);
  }
}
