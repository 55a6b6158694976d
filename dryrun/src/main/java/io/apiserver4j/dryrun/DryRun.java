/*
 * Copyright The apiserver4j authors.
 * SPDX-License-Identifier: Apache-2.0
 */
package io.apiserver4j.dryrun;

import static java.util.Objects.requireNonNull;

import io.apiserver4j.core.errors.FieldError;
import io.apiserver4j.core.errors.InvalidException;
import io.apiserver4j.core.ListValue;
import io.apiserver4j.core.errors.StatusErrors;
import io.apiserver4j.core.Value;
import java.util.List;

/**
 * The {@code dryRun} option of a write, parsed once at the edge and carried as a value.
 *
 * <p>kube-apiserver accepts a list of values, each of which must be {@code All} (so
 * {@code ?dryRun=All&dryRun=All} is fine); an empty list means no dry run. Any other value —
 * including the empty string of {@code ?dryRun=} — is a 422 Invalid on the options object:
 * {@code CreateOptions.meta.k8s.io "" is invalid: dryRun: Unsupported value: ["foo"]: supported
 * values: "All"}, where the bad value is the JSON array of <em>all</em> the given values.
 */
public enum DryRun {
  /** A normal write. */
  NONE,
  /** Everything runs except the storage write ({@code dryRun=All}). */
  ALL;

  /** The only value kube-apiserver supports. */
  public static final String ALL_VALUE = "All";

  private static final List<String> SUPPORTED = List.of(ALL_VALUE);

  /**
   * Parses the {@code dryRun} values of a request whose options are of {@code kind}.
   *
   * @param values the query (or options body) values, in request order; empty for none
   * @param kind the options kind the error message names
   * @return {@link #NONE} for no values, {@link #ALL} when every value is {@code All}
   * @throws InvalidException 422 with kube-apiserver's message when a value is not {@code All}
   */
  public static DryRun parse(List<String> values, OptionsKind kind) {
    requireNonNull(kind, "kind");
    List<FieldError> errors = validate(values);
    if (!errors.isEmpty()) {
      throw StatusErrors.invalid(kind.groupKind(), "", errors);
    }
    return values.isEmpty() ? NONE : ALL;
  }

  /**
   * The field errors of {@code values} (empty when valid), for callers that aggregate them with
   * other option errors (e.g. {@code fieldManager}) into one Invalid, as kube-apiserver does.
   *
   * @param values the {@code dryRun} values of the request
   * @return one NotSupported error on {@code dryRun} listing all the values, or an empty list
   */
  public static List<FieldError> validate(List<String> values) {
    requireNonNull(values, "values");
    for (String v : values) {
      if (!ALL_VALUE.equals(requireNonNull(v, "dryRun value"))) {
        ListValue given = ListValue.of(values.stream().map(Value::of).toList());
        return List.of(FieldError.notSupported("dryRun", given, SUPPORTED));
      }
    }
    return List.of();
  }

  /**
   * Checks that a CONNECT request carries no {@code dryRun} value, which kube-apiserver refuses.
   *
   * @param values the {@code dryRun} values of the request
   * @throws io.apiserver4j.core.errors.BadRequestException 400 {@code dryRun is not supported}
   */
  public static void requireAbsentOnConnect(List<String> values) {
    requireNonNull(values, "values");
    if (!values.isEmpty()) {
      throw StatusErrors.badRequest("dryRun is not supported");
    }
  }

  /**
   * Whether the write must skip storage.
   *
   * @return true for {@link #ALL}
   */
  public boolean isDryRun() {
    return this == ALL;
  }

  /**
   * The values as sent on the wire.
   *
   * @return {@code []} or {@code ["All"]}
   */
  public List<String> wireValues() {
    return this == ALL ? SUPPORTED : List.of();
  }
}
