/*
 * Copyright The apiserver4j authors.
 * SPDX-License-Identifier: Apache-2.0
 */
/** The HTTP binding's implementation (routing, content, discovery, OpenAPI, watches); not API. */
package io.apiserver4j.http.internal;
