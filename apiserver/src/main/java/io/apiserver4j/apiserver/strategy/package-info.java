/*
 * Copyright The apiserver4j authors.
 * SPDX-License-Identifier: Apache-2.0
 */
/**
 * The hooks a {@link io.apiserver4j.apiserver.ResourceStrategy} is built from, each the
 * counterpart of one part of kube-apiserver's REST strategies: validation ({@link
 * io.apiserver4j.apiserver.strategy.Validator}), defaulting, conversion between served versions,
 * generation, graceful deletion, shared allocations and virtual creates.
 */
package io.apiserver4j.apiserver.strategy;
