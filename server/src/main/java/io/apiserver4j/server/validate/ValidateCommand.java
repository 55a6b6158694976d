/*
 * Copyright The apiserver4j authors.
 * SPDX-License-Identifier: Apache-2.0
 */
package io.apiserver4j.server.validate;

import io.apiserver4j.validate.ManifestValidator;
import io.apiserver4j.validate.Reports;
import io.apiserver4j.validate.Verdict;
import java.io.InputStream;
import java.io.PrintStream;
import java.util.ArrayList;
import java.util.List;

/**
 * {@code apiserver4j validate}: checks manifests as the API server would accept or refuse them,
 * without a cluster, and prints what {@code kubectl apply --dry-run=server} prints for each
 * document, with its file and line.
 *
 * <pre>
 * apiserver4j validate [-o text|json|junit] [--cluster PATH]... PATH...
 * </pre>
 *
 * <p>Each PATH is a file, a directory (its {@code .yaml}, {@code .yml} and {@code .json} files,
 * recursively) or {@code -} for standard input; {@code -f PATH} works as in kubectl. CRDs,
 * Namespaces and admission policies with their bindings among the manifests apply to the other
 * manifests ({@link ManifestValidator} says how). {@code --cluster PATH} (repeatable) reads
 * objects that already exist: they are created first and are not reported unless refused.
 *
 * <p>The exit code is 0 when every document is valid, 1 when one is invalid, 2 when the input
 * could not be read (a missing file, a document that is not YAML, a refused snapshot object) or
 * the command line is wrong.
 */
public final class ValidateCommand {
  /** Exit code: every document is valid. */
  public static final int VALID = 0;
  /** Exit code: at least one document is invalid. */
  public static final int INVALID = 1;
  /** Exit code: bad input or a bad command line. */
  public static final int BAD_INPUT = 2;

  private ValidateCommand() {}

  /** The command's usage text. */
  static String usage() {
    return """
        Usage: apiserver4j validate [-o text|json|junit] [--cluster PATH]... PATH...

        Validates Kubernetes manifests with the API server's own checks (decoding, defaulting,
        validation, CRD schemas and CEL rules, admission policies), each as a server-side dry-run
        create, and prints what `kubectl apply --dry-run=server` prints, per document, with file
        and line.

          PATH              a file, a directory (its .yaml, .yml, .json files) or - for stdin;
                            -f PATH works too
          -o, --output F    text (default), json, or junit (JUnit XML)
          --cluster PATH    objects that already exist (namespaces, objects, CRDs, policies)
          -h, --help        this text

        Exit code: 0 all valid, 1 something invalid, 2 bad input or usage.
        """;
  }

  /**
   * Runs the command.
   *
   * @param args the arguments after {@code validate}
   * @param stdin what {@code -} reads
   * @param out where the report goes
   * @param err where usage errors go
   * @return the exit code: {@link #VALID}, {@link #INVALID} or {@link #BAD_INPUT}
   */
  public static int run(String[] args, InputStream stdin, PrintStream out, PrintStream err) {
    List<String> paths = new ArrayList<>();
    List<String> cluster = new ArrayList<>();
    String format = "text";
    for (int i = 0; i < args.length; i++) {
      String a = args[i];
      String value = null;
      String flag = a;
      if (a.startsWith("--") && a.contains("=")) {
        flag = a.substring(0, a.indexOf('='));
        value = a.substring(a.indexOf('=') + 1);
      }
      switch (flag) {
        case "-h", "--help" -> {
          out.print(usage());
          out.flush();
          return VALID;
        }
        case "-o", "--output", "--cluster", "-f", "--filename" -> {
          if (value == null) {
            if (i + 1 >= args.length) {
              return usageError(err, "flag needs an argument: " + flag);
            }
            value = args[++i];
          }
          switch (flag) {
            case "-o", "--output" -> format = value;
            case "--cluster" -> cluster.add(value);
            default -> paths.add(value);
          }
        }
        default -> {
          if (a.startsWith("-") && !a.equals("-")) {
            return usageError(err, "unknown flag: " + a);
          }
          paths.add(a);
        }
      }
    }
    if (!Reports.FORMATS.contains(format)) {
      return usageError(err, "unknown output format \"" + format
          + "\": use text, json or junit");
    }
    if (paths.isEmpty()) {
      return usageError(err, "no manifests given");
    }
    List<Verdict> verdicts = ManifestValidator.validatePaths(paths, cluster, stdin);
    out.print(Reports.format(format, verdicts));
    out.flush();
    return Verdict.worst(verdicts).exitCode();
  }

  private static int usageError(PrintStream err, String message) {
    err.println("apiserver4j validate: " + message);
    err.println("run with --help for usage");
    err.flush();
    return BAD_INPUT;
  }
}
