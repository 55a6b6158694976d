/**
 * Admission webhooks in process: {@link io.apiserver4j.admission.webhook.WebhookAdapter} turns a
 * function from AdmissionReview requests to responses into a plugin with kube's rules, failure
 * policies, side-effect classes and patch handling.
 */
package io.apiserver4j.admission.webhook;
