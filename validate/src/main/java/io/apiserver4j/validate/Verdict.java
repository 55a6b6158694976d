/*
 * Copyright The apiserver4j authors.
 * SPDX-License-Identifier: Apache-2.0
 */
package io.apiserver4j.validate;

import static java.util.Objects.requireNonNull;

import io.apiserver4j.core.errors.Status;
import java.util.List;
import java.util.Optional;

/**
 * What validation said of one {@link Manifest}.
 *
 * @param manifest the document
 * @param result valid, invalid or unreadable
 * @param message the line {@code kubectl apply --dry-run=server} prints for it (without the
 *     location)
 * @param status the server's {@code Status} when it refused the object
 */
public record Verdict(Manifest manifest, Result result, String message, Optional<Status> status) {
  /** The outcome of one document, and of a whole run (the worst of its documents). */
  public enum Result {
    /** The server accepted the object. */
    VALID(0),
    /** The server, or kubectl before it, refused the object. */
    INVALID(1),
    /** The input could not be read: a missing file, a document that is not YAML or an object. */
    BAD_INPUT(2);

    private final int exitCode;

    Result(int exitCode) {
      this.exitCode = exitCode;
    }

    /**
     * The process's exit code for this outcome.
     *
     * @return 0, 1 or 2
     */
    public int exitCode() {
      return exitCode;
    }
  }

  /**
   * The outcome of a whole run: the worst of its verdicts.
   *
   * @param verdicts a run's verdicts
   * @return {@link Result#VALID} for none
   */
  public static Result worst(List<Verdict> verdicts) {
    Result worst = Result.VALID;
    for (Verdict v : verdicts) {
      if (v.result().compareTo(worst) > 0) {
        worst = v.result();
      }
    }
    return worst;
  }

  /**
   * Checks that no component is null.
   *
   * @throws NullPointerException for a null component
   */
  public Verdict {
    requireNonNull(manifest, "manifest");
    requireNonNull(result, "result");
    requireNonNull(message, "message");
    requireNonNull(status, "status");
  }
}
