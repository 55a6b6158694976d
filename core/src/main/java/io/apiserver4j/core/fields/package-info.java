/*
 * Copyright The apiserver4j authors.
 * SPDX-License-Identifier: Apache-2.0
 */
/**
 * Field selectors as apimachinery's {@code fields} package defines them:
 * {@link io.apiserver4j.core.fields.FieldSelector} parses {@code field=value} terms with kube's
 * escaping and error texts and matches them against an object's fields.
 */
package io.apiserver4j.core.fields;
