/*
 * Copyright The apiserver4j authors.
 * SPDX-License-Identifier: Apache-2.0
 */
package io.apiserver4j.core.errors;

import java.util.ArrayList;
import java.util.LinkedHashSet;
import java.util.List;
import io.apiserver4j.core.GoStrings;
import io.apiserver4j.core.GroupKind;
import io.apiserver4j.core.GroupResource;

/**
 * Builds the {@link StatusException}s kube-apiserver returns, with its exact messages and
 * details (apimachinery {@code pkg/api/errors}).
 */
public final class StatusErrors {
  private StatusErrors() {}

  private static StatusDetails details(GroupResource gr, String name) {
    return StatusDetails.of(name, gr.group(), gr.resource());
  }

  /**
   * 404: {@code configmaps "x" not found}.
   *
   * @param gr the resource
   * @param name the object name
   * @return the exception
   */
  public static NotFoundException notFound(GroupResource gr, String name) {
    return new NotFoundException(Status.failure(StatusReason.NOT_FOUND,
        gr + " \"" + name + "\" not found", details(gr, name)));
  }

  /**
   * 409 AlreadyExists: {@code configmaps "x" already exists}.
   *
   * @param gr the resource
   * @param name the object name
   * @return the exception
   */
  public static AlreadyExistsException alreadyExists(GroupResource gr, String name) {
    return new AlreadyExistsException(Status.failure(StatusReason.ALREADY_EXISTS,
        gr + " \"" + name + "\" already exists", details(gr, name)));
  }

  /**
   * 409 AlreadyExists after generateName retries ran out; tells the client to retry in 1s.
   *
   * @param gr the resource
   * @param name the object name
   * @return the exception
   */
  public static AlreadyExistsException generatedNameExhausted(GroupResource gr, String name) {
    return new AlreadyExistsException(Status.failure(StatusReason.ALREADY_EXISTS,
        gr + " \"" + name + "\" already exists, the server was not able to generate a unique name"
            + " for the object",
        details(gr, name).withRetryAfterSeconds(1)));
  }

  /**
   * 409 Conflict: {@code Operation cannot be fulfilled on <gr> "<name>": <reason>}.
   *
   * @param gr the resource
   * @param name the object name
   * @param reason the text after the colon
   * @return the exception
   */
  public static ConflictException conflict(GroupResource gr, String name, String reason) {
    return new ConflictException(Status.failure(StatusReason.CONFLICT,
        "Operation cannot be fulfilled on " + gr + " \"" + name + "\": " + reason,
        details(gr, name)));
  }

  /**
   * The optimistic-concurrency conflict of a stale resourceVersion.
   *
   * @param gr the resource
   * @param name the object name
   * @return the 409 exception with kube's {@code the object has been modified} message
   */
  public static ConflictException objectModified(GroupResource gr, String name) {
    return conflict(gr, name, "the object has been modified; please apply your changes to the"
        + " latest version and try again");
  }

  /**
   * 422 Invalid: {@code <Kind.group> "<name>" is invalid: <errors>}; duplicate errors are
   * dropped, several are bracketed.
   *
   * @param gk the kind
   * @param name the object name
   * @param errors the field errors
   * @return the exception, with one cause per error
   */
  public static InvalidException invalid(GroupKind gk, String name, List<FieldError> errors) {
    LinkedHashSet<String> messages = new LinkedHashSet<>();
    List<StatusCause> causes = new ArrayList<>();
    for (FieldError e : errors) {
      if (messages.add(e.toString())) {
        causes.add(e.toCause());
      }
    }
    String aggregate = messages.size() == 1 ? messages.iterator().next()
        : "[" + String.join(", ", messages) + "]";
    return new InvalidException(Status.failure(StatusReason.INVALID,
        gk + " \"" + name + "\" is invalid: " + aggregate,
        StatusDetails.of(name, gk.group(), gk.kind()).withCauses(causes)));
  }

  /**
   * 400 BadRequest with {@code message}.
   *
   * @param message the message
   * @return the exception
   */
  public static BadRequestException badRequest(String message) {
    return new BadRequestException(Status.failure(StatusReason.BAD_REQUEST, message));
  }

  /**
   * 401 Unauthorized.
   *
   * @param message the message
   * @return the exception
   */
  public static UnauthorizedException unauthorized(String message) {
    return new UnauthorizedException(Status.failure(StatusReason.UNAUTHORIZED, message));
  }

  /**
   * 403: {@code <gr> "<name>" is forbidden: <reason>} (without the name part when empty).
   *
   * @param gr the resource
   * @param name the object name, or empty
   * @param reason the reason
   * @return the exception
   */
  public static ForbiddenException forbidden(GroupResource gr, String name, String reason) {
    String subject = name.isEmpty() ? gr.toString() : gr + " \"" + name + "\"";
    return new ForbiddenException(Status.failure(StatusReason.FORBIDDEN,
        subject + " is forbidden: " + reason, details(gr, name)));
  }

  /**
   * kube's {@code forbiddenMessage} of a denied resource request, with what could pass for HTML
   * escaped as kube-apiserver's error writer does: {@code User "bob" cannot create resource
   * "configmaps" in API group "" in the namespace "default"}.
   *
   * @param user the user name
   * @param verb the verb
   * @param group the API group
   * @param resource the resource
   * @param subresource the subresource, or empty
   * @param namespace the namespace, or empty
   * @return the message
   */
  public static String forbiddenMessage(String user, String verb, String group, String resource,
      String subresource, String namespace) {
    String res = subresource.isEmpty() ? resource : resource + "/" + subresource;
    return sanitize("User " + GoStrings.quote(user) + " cannot " + verb + " resource "
        + GoStrings.quote(res) + " in API group " + GoStrings.quote(group)
        + (namespace.isEmpty() ? " at the cluster scope"
            : " in the namespace " + GoStrings.quote(namespace)));
  }

  /**
   * kube's error-writer sanitizer: {@code &}, {@code <} and {@code >} as HTML entities.
   *
   * @param message the message
   * @return the escaped message
   */
  public static String sanitize(String message) {
    return message.replace("&", "&amp;").replace("<", "&lt;").replace(">", "&gt;");
  }

  /**
   * 405: {@code <action> is not supported on resources of kind "<gr>"}.
   *
   * @param gr the resource
   * @param action the action, e.g. {@code delete}
   * @return the exception
   */
  public static MethodNotAllowedException methodNotSupported(GroupResource gr, String action) {
    return new MethodNotAllowedException(Status.failure(StatusReason.METHOD_NOT_ALLOWED,
        action + " is not supported on resources of kind \"" + gr + "\"",
        StatusDetails.of("", gr.group(), gr.resource())));
  }

  /**
   * 410 Gone.
   *
   * @param message the message
   * @return the exception
   */
  public static GoneException gone(String message) {
    return new GoneException(Status.failure(StatusReason.GONE, message));
  }

  /**
   * 410 Expired, e.g. {@code too old resource version: 5 (10)}.
   *
   * @param message the message
   * @return the exception
   */
  public static GoneException expired(String message) {
    return new GoneException(Status.failure(StatusReason.EXPIRED, message));
  }

  /**
   * 500: {@code Internal error occurred: <message>}, with the message as the only cause.
   *
   * @param message the message
   * @return the exception
   */
  public static InternalErrorException internal(String message) {
    return new InternalErrorException(Status.failure(StatusReason.INTERNAL_ERROR,
        "Internal error occurred: " + message,
        StatusDetails.of("", "", "").withCauses(List.of(new StatusCause("", message, "")))));
  }

  /**
   * 413: {@code Request entity too large: <message>}.
   *
   * @param message the message
   * @return the exception
   */
  public static RequestEntityTooLargeException requestEntityTooLarge(String message) {
    return new RequestEntityTooLargeException(Status.failure(
        StatusReason.REQUEST_ENTITY_TOO_LARGE, "Request entity too large: " + message));
  }

  /**
   * 415 listing the accepted media types.
   *
   * @param accepted the media types
   * @return the exception
   */
  public static UnsupportedMediaTypeException unsupportedMediaType(List<String> accepted) {
    return new UnsupportedMediaTypeException(Status.failure(StatusReason.UNSUPPORTED_MEDIA_TYPE,
        "the body of the request was in an unknown format - accepted media types include: "
            + String.join(", ", accepted)));
  }

  /**
   * 406 listing the supported media types.
   *
   * @param supported the media types
   * @return the exception
   */
  public static NotAcceptableException notAcceptable(List<String> supported) {
    return new NotAcceptableException(Status.failure(StatusReason.NOT_ACCEPTABLE,
        "only the following media types are accepted: " + String.join(", ", supported)));
  }

  /**
   * 429 with a retry hint.
   *
   * @param message the message
   * @param retryAfterSeconds the hint in seconds
   * @return the exception
   */
  public static TooManyRequestsException tooManyRequests(String message, int retryAfterSeconds) {
    return new TooManyRequestsException(Status.failure(StatusReason.TOO_MANY_REQUESTS, message,
        StatusDetails.of("", "", "").withRetryAfterSeconds(retryAfterSeconds)));
  }

  /**
   * 503 ServiceUnavailable.
   *
   * @param message the message
   * @return the exception
   */
  public static ServiceUnavailableException serviceUnavailable(String message) {
    return new ServiceUnavailableException(
        Status.failure(StatusReason.SERVICE_UNAVAILABLE, message));
  }

  /**
   * 504: {@code Timeout: <message>}.
   *
   * @param message the message
   * @param retryAfterSeconds the hint in seconds, 0 for none
   * @return the exception
   */
  public static TimeoutException timeout(String message, int retryAfterSeconds) {
    return new TimeoutException(Status.failure(StatusReason.TIMEOUT, "Timeout: " + message,
        StatusDetails.of("", "", "").withRetryAfterSeconds(retryAfterSeconds)));
  }
}
