/*
 * Copyright The apiserver4j authors.
 * SPDX-License-Identifier: Apache-2.0
 */
package io.apiserver4j.examples;

import io.apiserver4j.core.DecodeException;
import io.apiserver4j.core.Json;
import io.apiserver4j.core.MapValue;
import io.apiserver4j.core.Value;
import io.apiserver4j.core.Yaml;
import io.apiserver4j.fieldpath.ManagedFieldsException;
import java.io.IOException;
import java.io.PrintStream;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.NoSuchFileException;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;

/**
 * {@code blame FILE}: shows which field manager owns each field of the object(s) in FILE, read
 * from their {@code metadata.managedFields} — for example the output of
 * {@code kubectl get -o yaml --show-managed-fields}. FILE holds YAML (one or more documents) or
 * JSON; a {@code kind: List} is expanded into its items; {@code -} reads standard input.
 *
 * <p>Exit status: 0 on success, 1 when the file cannot be read or parsed or an object's
 * managedFields are invalid, 2 for a usage error.
 */
public final class Blame {
  private Blame() {}

  public static void main(String[] args) {
    System.exit(run(args, System.out, System.err));
  }

  /** The command's behaviour without exiting the JVM; returns the exit status. */
  public static int run(String[] args, PrintStream out, PrintStream err) {
    if (args.length != 1 || args[0].startsWith("-") && !args[0].equals("-")) {
      err.println("usage: blame FILE   (YAML or JSON object(s) with metadata.managedFields;"
          + " - for stdin)");
      return 2;
    }
    String file = args[0];
    String text;
    try {
      text = file.equals("-") ? new String(System.in.readAllBytes(), StandardCharsets.UTF_8)
          : Files.readString(Path.of(file), StandardCharsets.UTF_8);
    } catch (NoSuchFileException e) {
      err.println("error: " + file + ": no such file");
      return 1;
    } catch (IOException e) {
      err.println("error: cannot read " + file + ": " + e.getMessage());
      return 1;
    }
    List<MapValue> objects = new ArrayList<>();
    try {
      for (Value doc : parse(text)) {
        if (!doc.isNull()) {
          objects.addAll(BlameFormatter.objects(doc));
        }
      }
    } catch (DecodeException | IllegalArgumentException e) {
      err.println("error: " + file + ": " + e.getMessage());
      return 1;
    }
    if (objects.isEmpty()) {
      err.println("error: " + file + ": no objects found");
      return 1;
    }
    BlameFormatter formatter = new BlameFormatter();
    StringBuilder report = new StringBuilder();
    for (MapValue object : objects) {
      try {
        if (report.length() > 0) {
          report.append('\n');
        }
        report.append(formatter.format(object));
      } catch (ManagedFieldsException e) {
        err.println("error: " + file + ": " + BlameFormatter.title(object)
            + ": invalid managedFields: " + e.getMessage());
        return 1;
      }
    }
    out.print(report);
    return 0;
  }

  private static List<Value> parse(String text) {
    String t = text.stripLeading();
    if (t.startsWith("{") || t.startsWith("[")) {
      return List.of(Json.read(text));
    }
    return Yaml.readAll(text);
  }
}
