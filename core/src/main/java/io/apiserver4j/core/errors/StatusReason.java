/*
 * Copyright The apiserver4j authors.
 * SPDX-License-Identifier: Apache-2.0
 */
package io.apiserver4j.core.errors;

/** Kubernetes {@code StatusReason} values with the HTTP code kube-apiserver pairs them with. */
public enum StatusReason {
  UNKNOWN("", 500),
  UNAUTHORIZED("Unauthorized", 401),
  FORBIDDEN("Forbidden", 403),
  NOT_FOUND("NotFound", 404),
  ALREADY_EXISTS("AlreadyExists", 409),
  CONFLICT("Conflict", 409),
  GONE("Gone", 410),
  INVALID("Invalid", 422),
  SERVER_TIMEOUT("ServerTimeout", 500),
  TIMEOUT("Timeout", 504),
  TOO_MANY_REQUESTS("TooManyRequests", 429),
  BAD_REQUEST("BadRequest", 400),
  METHOD_NOT_ALLOWED("MethodNotAllowed", 405),
  NOT_ACCEPTABLE("NotAcceptable", 406),
  REQUEST_ENTITY_TOO_LARGE("RequestEntityTooLarge", 413),
  UNSUPPORTED_MEDIA_TYPE("UnsupportedMediaType", 415),
  INTERNAL_ERROR("InternalError", 500),
  EXPIRED("Expired", 410),
  SERVICE_UNAVAILABLE("ServiceUnavailable", 503);

  private final String wireName;
  private final int code;

  StatusReason(String wireName, int code) {
    this.wireName = wireName;
    this.code = code;
  }

  /** The name on the wire, e.g. {@code NotFound}; empty for {@link #UNKNOWN}. */
  public String wireName() {
    return wireName;
  }

  /** The HTTP status code kube-apiserver uses with this reason. */
  public int code() {
    return code;
  }

  public static StatusReason fromWireName(String name) {
    for (StatusReason r : values()) {
      if (r.wireName.equals(name)) {
        return r;
      }
    }
    return UNKNOWN;
  }
}
