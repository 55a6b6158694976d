/*
 * Copyright The apiserver4j authors.
 * SPDX-License-Identifier: Apache-2.0
 */
package io.apiserver4j.registry.admissionregistration.validatingwebhookconfiguration;

import io.apiserver4j.apiserver.ResourceStrategy;
import io.apiserver4j.registry.admissionregistration.validation.WebhookConfigurationRules;

/**
 * kube's pkg/registry/admissionregistration/validatingwebhookconfiguration strategy: kube's v1
 * webhook defaults and {@code ValidateValidatingWebhookConfiguration} (and its update form).
 */
public final class ValidatingWebhookConfigurationStrategy {
  private ValidatingWebhookConfigurationStrategy() {}

  /** The ValidatingWebhookConfiguration strategy. */
  public static ResourceStrategy strategy() {
    return ResourceStrategy.builder()
        .defaulter(o -> WebhookConfigurationRules.defaults(o, false))
        .validator((o, old) -> WebhookConfigurationRules.validate(o, old, false))
        .build();
  }
}
