/*
 * Copyright The apiserver4j authors.
 * SPDX-License-Identifier: Apache-2.0
 */
/**
 * The Kubernetes CEL environment: rules compiled once, evaluated over apiserver4j values, with
 * kube-apiserver's cost model: static estimates on the checked expression
 * ({@link io.apiserver4j.cel.CelProgram#estimatedCost()}, sizes from
 * {@link io.apiserver4j.cel.CelObjectType#maxElements()}) and runtime costs counted against a
 * per-call limit ({@link io.apiserver4j.cel.CelProgram#evaluate(java.util.Map, java.util.Map,
 * long)}).
 */
package io.apiserver4j.cel;
