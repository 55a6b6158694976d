/*
 * Copyright The apiserver4j authors.
 * SPDX-License-Identifier: Apache-2.0
 */
/**
 * The admission SPI: {@link io.apiserver4j.admission.MutatingPlugin} and
 * {@link io.apiserver4j.admission.ValidatingPlugin} see
 * {@link io.apiserver4j.admission.AdmissionAttributes} (operation, resource, user, objects,
 * options and {@code isDryRun()}); {@link io.apiserver4j.admission.AdmissionChain} runs them in
 * kube-apiserver's order and names the plugin in denials. Plugins declare their
 * {@link io.apiserver4j.admission.SideEffects}, which decide whether a dry run may call them.
 */
package io.apiserver4j.admission;
