/*
 * Copyright The apiserver4j authors.
 * SPDX-License-Identifier: Apache-2.0
 */
package io.apiserver4j.apiserver.internal;

import io.apiserver4j.admission.AdmissionChain;
import io.apiserver4j.admission.matching.ConfigurationSources;
import io.apiserver4j.admission.webhook.ConfiguredWebhooks;

/**
 * The admission kube-apiserver configures through API objects, after the embedder's plugins and
 * in kube's order: in the mutating phase the MutatingAdmissionPolicies then the mutating
 * admission webhooks, in the validating phase the ValidatingAdmissionPolicies then the
 * validating admission webhooks (each phase runs the chain's plugins in the order
 * added). Added only when the server serves the configuring resources.
 */
final class ConfiguredAdmission {
  private ConfiguredAdmission() {}

  static AdmissionChain append(AdmissionChain chain, Registry registry,
      ConfigurationSources sources) {
    return append(chain, AdmissionChain.empty(), java.util.Set.of(), registry, sources);
  }

  /**
   * The policy and webhook stages between {@code chain} and {@code tail} (kube-apiserver's
   * ResourceQuota runs after the validating webhooks), leaving out the stages named in
   * {@code disabled} ({@code --disable-admission-plugins}).
   */
  static AdmissionChain append(AdmissionChain chain, AdmissionChain tail,
      java.util.Set<String> disabled, Registry registry, ConfigurationSources sources) {
    AdmissionChain.Builder b = chain.newBuilder();
    // admission policies before webhooks in each phase, as kube-apiserver orders its plugins
    if (PolicyStage.served(registry) && !(disabled.contains(MUTATING_POLICY)
        && disabled.contains(VALIDATING_POLICY))) {
      b.add(new PolicyStage(sources, registry));
    }
    if (!registry.versionsOf(ConfiguredWebhooks.MUTATING_CONFIGURATIONS).isEmpty()
        && !disabled.contains(MUTATING_WEBHOOK)) {
      b.add(ConfiguredWebhooks.mutating(sources));
    }
    if (!registry.versionsOf(ConfiguredWebhooks.VALIDATING_CONFIGURATIONS).isEmpty()
        && !disabled.contains(VALIDATING_WEBHOOK)) {
      b.add(ConfiguredWebhooks.validating(sources));
    }
    tail.plugins().forEach(b::add);
    return b.build();
  }

  /** kube-apiserver's names of the stages added here. */
  static final String MUTATING_POLICY = "MutatingAdmissionPolicy";
  static final String MUTATING_WEBHOOK = "MutatingAdmissionWebhook";
  static final String VALIDATING_POLICY = "ValidatingAdmissionPolicy";
  static final String VALIDATING_WEBHOOK = "ValidatingAdmissionWebhook";

  /** The stage names, in kube's order. */
  static final java.util.List<String> STAGES = java.util.List.of(MUTATING_POLICY,
      MUTATING_WEBHOOK, VALIDATING_POLICY, VALIDATING_WEBHOOK);
}
