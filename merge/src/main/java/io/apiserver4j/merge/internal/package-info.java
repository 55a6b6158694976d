/*
 * Copyright The apiserver4j authors.
 * SPDX-License-Identifier: Apache-2.0
 */
/** The merge engine's walks and codecs; not API. */
package io.apiserver4j.merge.internal;
