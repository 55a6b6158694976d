/*
 * Copyright The apiserver4j authors.
 * SPDX-License-Identifier: Apache-2.0
 */
/**
 * Admission webhooks: {@link io.apiserver4j.admission.webhook.ConfiguredWebhooks} are kube's
 * MutatingAdmissionWebhook and ValidatingAdmissionWebhook plugins, calling the HTTPS webhooks of
 * the stored Mutating/ValidatingWebhookConfigurations; a
 * {@link io.apiserver4j.admission.webhook.WebhookAdapter} turns a function from AdmissionReview
 * requests to responses into a plugin. Both share one dispatcher with kube's matching, failure
 * policies, side-effect classes, patch handling and error texts.
 */
package io.apiserver4j.admission.webhook;
