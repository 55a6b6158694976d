package io.apiserver4j.apiserver;

import static java.util.Objects.requireNonNull;

import io.apiserver4j.core.MapValue;
import io.apiserver4j.core.Status;
import io.apiserver4j.core.StatusException;
import java.util.List;
import java.util.Optional;

/**
 * The outcome of an {@link ApiRequest}: the HTTP status code kube-apiserver would send, the body
 * (an object, a list, or a {@code Status}), and the warnings kube-apiserver would put in
 * {@code Warning} headers, in the order they were raised.
 *
 * @param code the HTTP status code (200, 201, 202, or an error code)
 * @param body the response object; for errors the {@code Status} object
 * @param warnings warning texts (without the {@code 299 - } header prefix)
 */
public record ApiResponse(int code, MapValue body, List<String> warnings) {
  public ApiResponse {
    requireNonNull(body, "body");
    warnings = List.copyOf(warnings);
  }

  /** An error response carrying {@code status}. */
  public static ApiResponse of(Status status, List<String> warnings) {
    requireNonNull(status, "status");
    return new ApiResponse(status.code(), status.toValue(), warnings);
  }

  /** Whether the request succeeded (a 2xx code). */
  public boolean isSuccess() {
    return code >= 200 && code < 300;
  }

  /**
   * The failure, when the body is a {@code Status} with {@code status: Failure}; success Status
   * bodies (from deletes) are not failures.
   */
  public Optional<Status> failure() {
    if (isSuccess()) {
      return Optional.empty();
    }
    return Optional.of(Status.fromValue(body));
  }

  /**
   * The body of a successful response; for a failure, throws the {@link StatusException}
   * subclass matching its reason.
   */
  public MapValue orThrow() {
    Optional<Status> f = failure();
    if (f.isPresent()) {
      throw StatusException.of(f.get());
    }
    return body;
  }
}
