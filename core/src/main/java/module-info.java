/*
 * Copyright The apiserver4j authors.
 * SPDX-License-Identifier: Apache-2.0
 */

/**
 * The immutable value tree, its JSON and YAML codecs with Kubernetes' scalar rules, object
 * accessors, group/version/kind names and the {@code Status} error model.
 *
 * <p>Jackson's streaming types appear in {@code Json}'s low-level read and write methods, so
 * this module re-exports {@code com.fasterxml.jackson.core}. The YAML engine is an implementation
 * detail.
 */
module io.apiserver4j.core {
  requires transitive com.fasterxml.jackson.core;
  requires org.snakeyaml.engine.v2;

  exports io.apiserver4j.core;
  exports io.apiserver4j.core.errors;
  exports io.apiserver4j.core.fields;
  exports io.apiserver4j.core.labels;
}
