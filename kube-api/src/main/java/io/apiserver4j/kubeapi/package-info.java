/*
 * Copyright The apiserver4j authors.
 * SPDX-License-Identifier: Apache-2.0
 */
/**
 * The Kubernetes 1.36 built-in API as data: the served resources with their discovery facts,
 * the schemas of their kinds and their OpenAPI definitions ({@link io.apiserver4j.kubeapi.KubeApi}),
 * generated from the upstream API definitions in {@code ../shared/api} (see NOTICE) by
 * {@code io.apiserver4j.kubeapi.internal.generator.KubeApiGenerator}, whose output is committed
 * and checked by a test that regenerates it.
 *
 * <p>Where the inputs disagree, the generator takes: the resource table of
 * {@code api/README.md} (checked against the v1.36.0 swagger) for which resources and
 * subresources exist; the per-group-version discovery documents for names, verbs, short names,
 * categories and {@code storageVersionHash}, except that {@code api__v1.json} predates
 * {@code pods/resize}, whose verbs come from the table; {@code aggregated_v2.json} (1.33) only for
 * the order of groups; client-go's SMD schema for merge semantics and Go zero values, and the
 * swagger for the types client-go has none of, for patch strategies and for everything OpenAPI
 * shows.
 */
package io.apiserver4j.kubeapi;
