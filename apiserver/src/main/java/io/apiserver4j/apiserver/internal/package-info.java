/*
 * Copyright The apiserver4j authors.
 * SPDX-License-Identifier: Apache-2.0
 */
/**
 * The request path; not API. {@code Dispatcher} resolves a request to a {@code Scope} and hands
 * it to a verb handler ({@code CreateHandler}, {@code UpdateHandler}, {@code PatchHandler},
 * {@code ReadHandler}, {@code DeleteHandler}); writes go through {@code GuaranteedWrite}, with
 * {@code ObjectMetaRules}, {@code AdmissionStage} and {@code FieldManagers} as shared stages, and
 * the controllers follow committed writes as {@code WriteListener}s.
 */
package io.apiserver4j.apiserver.internal;
