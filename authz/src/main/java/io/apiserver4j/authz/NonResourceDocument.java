/*
 * Copyright The apiserver4j authors.
 * SPDX-License-Identifier: Apache-2.0
 */
package io.apiserver4j.authz;

import static java.util.Objects.requireNonNull;

import java.util.Map;

/**
 * A document served by GET at a non-resource URL besides the API's own (e.g. kube's OpenID
 * discovery at {@code /.well-known/openid-configuration}); requests for it are authenticated and
 * authorized as for any non-resource URL.
 *
 * @param contentType the Content-Type header
 * @param headers further response headers (e.g. Cache-Control)
 * @param body the response body
 */
public record NonResourceDocument(String contentType, Map<String, String> headers, byte[] body) {
  /**
   * Checks the content type and copies the headers and body.
   *
   * @param contentType see the record component
   * @param headers see the record component
   * @param body see the record component
   * @throws NullPointerException when a component is null
   */
  public NonResourceDocument {
    requireNonNull(contentType, "contentType");
    headers = Map.copyOf(headers);
    body = body.clone();
  }

  /**
   * The response body.
   *
   * @return a copy of the body
   */
  @Override
  public byte[] body() {
    return body.clone();
  }
}
