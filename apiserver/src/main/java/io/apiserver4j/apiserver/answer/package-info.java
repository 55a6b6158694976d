/*
 * Copyright The apiserver4j authors.
 * SPDX-License-Identifier: Apache-2.0
 */

/**
 * Answers that are not one object: a list streamed from its stored objects, and the plain
 * answer of a connect subresource ({@code pods/log}).
 */
package io.apiserver4j.apiserver.answer;
