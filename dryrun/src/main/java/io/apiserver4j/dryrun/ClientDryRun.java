/*
 * Copyright The apiserver4j authors.
 * SPDX-License-Identifier: Apache-2.0
 */
package io.apiserver4j.dryrun;

import static java.util.Objects.requireNonNull;

import java.util.List;

/**
 * kubectl's {@code --dry-run} flag, parsed as kubectl does (its {@code GetDryRunStrategy}):
 *
 * <ul>
 *   <li>absent: the flag's default {@code none};
 *   <li>{@code none}, {@code client}, {@code server}: that strategy;
 *   <li>given without a value ({@code --dry-run}): the deprecated default {@code client}, with the
 *       warning {@code --dry-run is deprecated and can be replaced with --dry-run=client.};
 *   <li>a Go boolean ({@code 1 t T TRUE true True 0 f F FALSE false False}): deprecated;
 *       true is {@code client}, false is {@code none}, with the warning
 *       {@code --dry-run=<value> is deprecated (boolean value) and can be replaced with
 *       --dry-run=client.} (or {@code none});
 *   <li>anything else, including an explicit empty value ({@code --dry-run=}): an error,
 *       {@code Invalid dry-run value (<value>). Must be "none", "server", or "client".}
 * </ul>
 *
 * <p>The design proposal parsed an empty value as "unset" with a deprecation warning; kubectl as
 * released represents a bare flag by a sentinel value instead and rejects an explicit empty
 * value. This class follows kubectl.
 *
 * <p>It is for client-side tools (a JVM kubectl look-alike, a test harness that takes kubectl's
 * flags); the server does not use it, as kube-apiserver never sees the flag: kubectl sends
 * {@code dryRun=All} for {@code server} and, for {@code client}, no write at all.
 */
public final class ClientDryRun {
  /** The value kubectl's flag library substitutes when the flag is given without a value. */
  public static final String BARE_FLAG_VALUE = "unchanged";

  private static final List<String> TRUE = List.of("1", "t", "T", "TRUE", "true", "True");
  private static final List<String> FALSE = List.of("0", "f", "F", "FALSE", "false", "False");

  private ClientDryRun() {}

  /**
   * A parsed flag: the strategy and the warnings kubectl prints.
   *
   * @param strategy what to do
   * @param warnings deprecation warnings, in order; empty for the current forms
   */
  public record Result(DryRunStrategy strategy, List<String> warnings) {
    /**
     * Checks the strategy and copies the warnings.
     *
     * @param strategy see the record component
     * @param warnings see the record component
     * @throws NullPointerException when a component or a warning is null
     */
    public Result {
      requireNonNull(strategy, "strategy");
      warnings = List.copyOf(warnings);
    }
  }

  /**
   * The flag was not given.
   *
   * @return {@link DryRunStrategy#NONE} without warnings
   */
  public static Result absent() {
    return new Result(DryRunStrategy.NONE, List.of());
  }

  /**
   * The flag was given without a value ({@code --dry-run}).
   *
   * @return {@link DryRunStrategy#CLIENT} with kubectl's deprecation warning for the bare flag
   */
  public static Result bareFlag() {
    return parse(BARE_FLAG_VALUE);
  }

  /**
   * Parses the flag's value as kubectl receives it ({@link #BARE_FLAG_VALUE} for a bare flag).
   *
   * @param flagValue the value after {@code --dry-run=}; Go's boolean spellings are accepted
   *     with a deprecation warning
   * @return the strategy and the warnings kubectl would print
   * @throws IllegalArgumentException with kubectl's message for an invalid value
   */
  public static Result parse(String flagValue) {
    requireNonNull(flagValue, "flagValue");
    if (TRUE.contains(flagValue)) {
      return new Result(DryRunStrategy.CLIENT, List.of(booleanWarning(flagValue, "client")));
    }
    if (FALSE.contains(flagValue)) {
      return new Result(DryRunStrategy.NONE, List.of(booleanWarning(flagValue, "none")));
    }
    switch (flagValue) {
      case BARE_FLAG_VALUE:
        return new Result(DryRunStrategy.CLIENT,
            List.of("--dry-run is deprecated and can be replaced with --dry-run=client."));
      case "client":
        return new Result(DryRunStrategy.CLIENT, List.of());
      case "server":
        return new Result(DryRunStrategy.SERVER, List.of());
      case "none":
        return new Result(DryRunStrategy.NONE, List.of());
      default:
        throw new IllegalArgumentException("Invalid dry-run value (" + flagValue
            + "). Must be \"none\", \"server\", or \"client\".");
    }
  }

  /**
   * Parses one command-line argument: {@code --dry-run} or {@code --dry-run=<value>}.
   *
   * @param argument the whole argument, flag name included
   * @return the parsed flag, as {@link #bareFlag()} or {@link #parse(String)}
   * @throws IllegalArgumentException when the argument is not the dry-run flag, or has an invalid
   *     value
   */
  public static Result parseArgument(String argument) {
    requireNonNull(argument, "argument");
    if (argument.equals("--dry-run")) {
      return bareFlag();
    }
    if (argument.startsWith("--dry-run=")) {
      return parse(argument.substring("--dry-run=".length()));
    }
    throw new IllegalArgumentException("not a --dry-run flag: " + argument);
  }

  private static String booleanWarning(String value, String replacement) {
    return "--dry-run=" + value + " is deprecated (boolean value) and can be replaced with"
        + " --dry-run=" + replacement + ".";
  }
}
