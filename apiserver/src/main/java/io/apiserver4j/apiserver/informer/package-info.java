/*
 * Copyright The apiserver4j authors.
 * SPDX-License-Identifier: Apache-2.0
 */
/**
 * Informers over a {@link io.apiserver4j.storage.Store}: a list then a watch of a collection,
 * kept in memory and resumed after a compaction, as client-go's shared informers are; the
 * admission configuration (webhooks, policies and their bindings) is followed through them.
 */
package io.apiserver4j.apiserver.informer;
