/*
 * Copyright The apiserver4j authors.
 * SPDX-License-Identifier: Apache-2.0
 */
/**
 * kube's pkg/controller/bootstrap: the bootstrap signer, which signs
 * {@code kube-public/cluster-info} with every signing bootstrap token, and the token cleaner,
 * which deletes expired bootstrap tokens. Both are off by default, as in kube.
 */
package io.apiserver4j.controllers.bootstrap;
