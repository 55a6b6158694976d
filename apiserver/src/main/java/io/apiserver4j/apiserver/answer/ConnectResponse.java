/*
 * Copyright The apiserver4j authors.
 * SPDX-License-Identifier: Apache-2.0
 */
package io.apiserver4j.apiserver.answer;

import static java.util.Objects.requireNonNull;

/**
 * What a {@link io.apiserver4j.apiserver.SubresourceConnect} answers when it succeeds: a status code, a content type and
 * a text body (e.g. {@code pods/log}'s {@code text/plain}). An empty content type with an empty
 * body is sent as a bare status line, as kube answers 204 for a log that has no location.
 *
 * @param code the HTTP status code
 * @param contentType the content type, or empty for none
 * @param body the body
 */
public record ConnectResponse(int code, String contentType, String body) {
  public ConnectResponse {
    requireNonNull(contentType, "contentType");
    requireNonNull(body, "body");
    if (code < 100 || code > 599) {
      throw new IllegalArgumentException("code " + code + " is not an HTTP status code");
    }
  }

  /** 200 with {@code text} as {@code text/plain}. */
  public static ConnectResponse text(String text) {
    return new ConnectResponse(200, "text/plain", text);
  }

  /** 204 without a body. */
  public static ConnectResponse noContent() {
    return new ConnectResponse(204, "", "");
  }
}
