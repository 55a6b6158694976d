/*
 * Copyright The apiserver4j authors.
 * SPDX-License-Identifier: Apache-2.0
 */
package io.apiserver4j.apiserver.strategy;

import io.apiserver4j.core.MapValue;

/**
 * kube's defaulting of a kind (the {@code SetDefaults_*} functions): fills in fields the client
 * left out. It runs on every decoded body, on the result of every patch and on the result of
 * every apply, so it must be idempotent.
 */
@FunctionalInterface
public interface Defaulter {
  MapValue apply(MapValue object);
}
