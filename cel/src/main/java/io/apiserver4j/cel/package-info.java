/*
 * Copyright The apiserver4j authors.
 * SPDX-License-Identifier: Apache-2.0
 */
/** The Kubernetes CEL environment: rules compiled once, evaluated over apiserver4j values. */
package io.apiserver4j.cel;
