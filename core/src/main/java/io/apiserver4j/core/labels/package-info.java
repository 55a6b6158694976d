/*
 * Copyright The apiserver4j authors.
 * SPDX-License-Identifier: Apache-2.0
 */
/**
 * Label selectors as apimachinery's {@code labels} package defines them:
 * {@link io.apiserver4j.core.labels.LabelSelector} parses kube's selector syntax with its error
 * texts and matches {@code metadata.labels}. Used by storage (list and watch filters), admission
 * (object and namespace selectors) and the request path alike, so it sits below all of them.
 */
package io.apiserver4j.core.labels;
