/*
 * Copyright The apiserver4j authors.
 * SPDX-License-Identifier: Apache-2.0
 */
package io.apiserver4j.core.errors;

/** Kubernetes {@code StatusReason} values with the HTTP code kube-apiserver pairs them with. */
public enum StatusReason {
  /** No reason (an unclassified failure), 500. */
  UNKNOWN("", 500),
  /** 401. */
  UNAUTHORIZED("Unauthorized", 401),
  /** 403. */
  FORBIDDEN("Forbidden", 403),
  /** 404. */
  NOT_FOUND("NotFound", 404),
  /** 409, on create. */
  ALREADY_EXISTS("AlreadyExists", 409),
  /** 409, on a stale write or a failed precondition. */
  CONFLICT("Conflict", 409),
  /** 410. */
  GONE("Gone", 410),
  /** 422, with field causes. */
  INVALID("Invalid", 422),
  /** 500, the server could not finish in time. */
  SERVER_TIMEOUT("ServerTimeout", 500),
  /** 504, the request could not finish in time. */
  TIMEOUT("Timeout", 504),
  /** 429. */
  TOO_MANY_REQUESTS("TooManyRequests", 429),
  /** 400. */
  BAD_REQUEST("BadRequest", 400),
  /** 405. */
  METHOD_NOT_ALLOWED("MethodNotAllowed", 405),
  /** 406. */
  NOT_ACCEPTABLE("NotAcceptable", 406),
  /** 413. */
  REQUEST_ENTITY_TOO_LARGE("RequestEntityTooLarge", 413),
  /** 415. */
  UNSUPPORTED_MEDIA_TYPE("UnsupportedMediaType", 415),
  /** 500. */
  INTERNAL_ERROR("InternalError", 500),
  /** 410, a resourceVersion too old to serve. */
  EXPIRED("Expired", 410),
  /** 503. */
  SERVICE_UNAVAILABLE("ServiceUnavailable", 503);

  private final String wireName;
  private final int code;

  StatusReason(String wireName, int code) {
    this.wireName = wireName;
    this.code = code;
  }

  /**
   * The name on the wire.
   *
   * @return e.g. {@code NotFound}; empty for {@link #UNKNOWN}
   */
  public String wireName() {
    return wireName;
  }

  /**
   * The HTTP status code kube-apiserver uses with this reason.
   *
   * @return the code
   */
  public int code() {
    return code;
  }

  /**
   * The reason with this wire name.
   *
   * @param name the wire name
   * @return the reason; {@link #UNKNOWN} for an unknown name
   */
  public static StatusReason fromWireName(String name) {
    for (StatusReason r : values()) {
      if (r.wireName.equals(name)) {
        return r;
      }
    }
    return UNKNOWN;
  }
}
