/*
 * Copyright The apiserver4j authors.
 * SPDX-License-Identifier: Apache-2.0
 */
package io.apiserver4j.junit;

import java.lang.annotation.Documented;
import java.lang.annotation.ElementType;
import java.lang.annotation.Inherited;
import java.lang.annotation.Retention;
import java.lang.annotation.RetentionPolicy;
import java.lang.annotation.Target;

/**
 * Manifests to create in every server {@link ApiServerTest} starts for the annotated class, or,
 * on a test method, before that test (in addition to the class's; with
 * {@link ApiServerTest.Lifecycle#PER_CLASS} they stay for the tests that follow, with
 * {@link ApiServerTest.Lifecycle#RESET_PER_METHOD} the next reset removes them).
 *
 * <p>Each location is a class-path resource ({@code crds/widgets.yaml}) or, if no such resource
 * exists, a file path; its last segment may be a glob ({@code crds/*.yaml}), matched in name
 * order (in a jar, the directory needs its own entry, as Maven and Gradle write them). Each file may hold several YAML (or JSON) documents separated by {@code ---}; a
 * {@code List} document contributes its items. CustomResourceDefinitions are created first, and
 * the server waits until each is {@code Established} and served; then Namespaces, then the
 * rest, each in the order found. Objects without a namespace of a namespaced kind go to
 * {@code default}. The field manager is {@value #FIELD_MANAGER}.
 *
 * <p>A location that matches nothing, a document that is not a Kubernetes object, or an object
 * the server rejects fails the test with the location and the server's message.
 */
@Target({ElementType.TYPE, ElementType.METHOD})
@Retention(RetentionPolicy.RUNTIME)
@Documented
@Inherited
public @interface WithManifests {
  /** The field manager of the created objects. */
  String FIELD_MANAGER = "apiserver4j-manifests";

  /** Class-path resources or files; the last segment may be a glob. */
  String[] value();
}
