/*
 * Copyright The apiserver4j authors.
 * SPDX-License-Identifier: Apache-2.0
 */

/**
 * Offline validation of manifests with the API server's verdicts: {@link
 * io.apiserver4j.validate.ManifestValidator} dry-runs each object through an in-process server,
 * {@link io.apiserver4j.validate.Manifests} reads files as {@code kubectl apply -f} does, and
 * {@link io.apiserver4j.validate.Reports} prints text, JSON or JUnit XML.
 */
module io.apiserver4j.validate {
  requires transitive io.apiserver4j.apiserver;
  requires transitive io.apiserver4j.core;
  requires io.apiserver4j.admission;

  exports io.apiserver4j.validate;
}
