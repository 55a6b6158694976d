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
    AdmissionChain.Builder b = chain.newBuilder();
    // admission policies before webhooks in each phase, as kube-apiserver orders its plugins
    if (PolicyStage.served(registry)) {
      b.add(new PolicyStage(sources, registry));
    }
    if (!registry.versionsOf(ConfiguredWebhooks.MUTATING_CONFIGURATIONS).isEmpty()) {
      b.add(ConfiguredWebhooks.mutating(sources));
    }
    if (!registry.versionsOf(ConfiguredWebhooks.VALIDATING_CONFIGURATIONS).isEmpty()) {
      b.add(ConfiguredWebhooks.validating(sources));
    }
    return b.build();
  }
}
