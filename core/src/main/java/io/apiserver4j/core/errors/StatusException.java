/*
 * Copyright The apiserver4j authors.
 * SPDX-License-Identifier: Apache-2.0
 */
package io.apiserver4j.core.errors;

import static java.util.Objects.requireNonNull;

/**
 * A failure a client can cause, carrying the {@link Status} kube-apiserver would return.
 *
 * <p>Catch the subclass for the reason you care about ({@link NotFoundException},
 * {@link ConflictException}, ...) instead of comparing codes. {@link #of(Status)} picks the
 * subclass for a status.
 */
public class StatusException extends RuntimeException {
  /**
   * The status returned to the client.
   */
  private final Status status;

  /**
   * An exception carrying {@code status}; its message is the status' message.
   *
   * @param status the status returned to the client
   */
  public StatusException(Status status) {
    super(status.message(), null, false, true);
    this.status = requireNonNull(status, "status");
  }

  /**
   * Keeps {@code cause} (e.g. a storage client's exception) for debugging; not sent to clients.
   *
   * @param status the status returned to the client
   * @param cause the underlying failure
   */
  public StatusException(Status status, Throwable cause) {
    super(status.message(), cause, false, true);
    this.status = requireNonNull(status, "status");
  }

  /**
   * The status kube-apiserver would return.
   *
   * @return the status
   */
  public Status status() {
    return status;
  }

  /**
   * The HTTP status code.
   *
   * @return the status' code
   */
  public int code() {
    return status.code();
  }

  /**
   * The Kubernetes reason.
   *
   * @return the status' reason
   */
  public StatusReason reason() {
    return status.reason();
  }

  /**
   * The exception type matching the status' reason.
   *
   * @param status the status
   * @return e.g. a {@link NotFoundException} for NotFound; a plain {@code StatusException} for reasons without a subclass
   */
  public static StatusException of(Status status) {
    switch (status.reason()) {
      case BAD_REQUEST: return new BadRequestException(status);
      case UNAUTHORIZED: return new UnauthorizedException(status);
      case FORBIDDEN: return new ForbiddenException(status);
      case NOT_FOUND: return new NotFoundException(status);
      case METHOD_NOT_ALLOWED: return new MethodNotAllowedException(status);
      case ALREADY_EXISTS: return new AlreadyExistsException(status);
      case CONFLICT: return new ConflictException(status);
      case GONE:
      case EXPIRED: return new GoneException(status);
      case INVALID: return new InvalidException(status);
      case REQUEST_ENTITY_TOO_LARGE: return new RequestEntityTooLargeException(status);
      case UNSUPPORTED_MEDIA_TYPE: return new UnsupportedMediaTypeException(status);
      case NOT_ACCEPTABLE: return new NotAcceptableException(status);
      case TOO_MANY_REQUESTS: return new TooManyRequestsException(status);
      case SERVICE_UNAVAILABLE: return new ServiceUnavailableException(status);
      case TIMEOUT:
      case SERVER_TIMEOUT: return new TimeoutException(status);
      case INTERNAL_ERROR: return new InternalErrorException(status);
      default: return new StatusException(status);
    }
  }
}
