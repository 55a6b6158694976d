/*
 * Copyright The apiserver4j authors.
 * SPDX-License-Identifier: Apache-2.0
 */
package io.apiserver4j.registry.admissionregistration.mutatingwebhookconfiguration;

import io.apiserver4j.apiserver.ResourceStrategy;
import io.apiserver4j.registry.admissionregistration.validation.WebhookConfigurationRules;

/**
 * kube's pkg/registry/admissionregistration/mutatingwebhookconfiguration strategy: kube's v1
 * webhook defaults and {@code ValidateMutatingWebhookConfiguration} (and its update form).
 */
public final class MutatingWebhookConfigurationStrategy {
  private MutatingWebhookConfigurationStrategy() {}

  /** The MutatingWebhookConfiguration strategy. */
  public static ResourceStrategy strategy() {
    return ResourceStrategy.builder()
        .defaulter(o -> WebhookConfigurationRules.defaults(o, true))
        .validator((o, old) -> WebhookConfigurationRules.validate(o, old, true))
        .build();
  }
}
