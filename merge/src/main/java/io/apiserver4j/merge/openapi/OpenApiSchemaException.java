/*
 * Copyright The apiserver4j authors.
 * SPDX-License-Identifier: Apache-2.0
 */
package io.apiserver4j.merge.openapi;

import static java.util.Objects.requireNonNull;

/**
 * An OpenAPI v3 document or CRD schema cannot be converted to a structured-merge-diff schema:
 * a schema node that is not a JSON object, an unknown {@code type}, an unresolvable
 * {@code $ref}, a bad {@code x-kubernetes-*} extension value, and so on.
 *
 * <p>{@link #path()} names the offending node in Kubernetes' field-path notation, for example
 * {@code components.schemas[io.k8s.api.core.v1.PodSpec].properties[containers].x-kubernetes-list-type}
 * or {@code openAPIV3Schema.properties[spec].items}; the message is {@code "<path>: <problem>"}.
 */
public final class OpenApiSchemaException extends IllegalArgumentException {
  private static final long serialVersionUID = 1L;

  /**
   * The location of the offending node.
   */
  private final String path;

  /**
   * An exception with the message {@code "<path>: <problem>"}.
   *
   * @param path the location of the offending node
   * @param problem what is wrong there
   */
  public OpenApiSchemaException(String path, String problem) {
    super(requireNonNull(path, "path") + ": " + requireNonNull(problem, "problem"));
    this.path = path;
  }

  /**
   * The location of the offending node.
   *
   * @return e.g. {@code openAPIV3Schema.properties[spec].items}
   */
  public String path() {
    return path;
  }
}
