/*
 * Copyright The apiserver4j authors.
 * SPDX-License-Identifier: Apache-2.0
 */
/**
 * What admission configured by API objects shares (webhooks and admission policies): kube's
 * request matching ({@link io.apiserver4j.admission.matching.MatchCriteria} with
 * {@link io.apiserver4j.admission.matching.Rule}s, selectors and the match policy), CEL match
 * conditions ({@link io.apiserver4j.admission.matching.MatchConditions}), the
 * {@code AdmissionRequest} value ({@link io.apiserver4j.admission.matching.AdmissionRequests})
 * and the live configuration objects
 * ({@link io.apiserver4j.admission.matching.ConfigurationSource}).
 */
package io.apiserver4j.admission.matching;
