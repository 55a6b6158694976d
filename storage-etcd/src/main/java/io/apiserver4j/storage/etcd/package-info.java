/*
 * Copyright The apiserver4j authors.
 * SPDX-License-Identifier: Apache-2.0
 */
/**
 * {@link io.apiserver4j.storage.etcd.EtcdStore}: the {@link io.apiserver4j.storage.Store} on etcd
 * v3 (jetcd), with resourceVersion as the etcd revision, consistent paginated lists, watches
 * with bookmarks, compaction ({@link io.apiserver4j.storage.etcd.CompactionPolicy}) and 410
 * after it.
 */
package io.apiserver4j.storage.etcd;
