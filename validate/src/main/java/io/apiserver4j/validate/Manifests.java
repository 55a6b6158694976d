/*
 * Copyright The apiserver4j authors.
 * SPDX-License-Identifier: Apache-2.0
 */
package io.apiserver4j.validate;

import io.apiserver4j.core.DecodeException;
import io.apiserver4j.core.Json;
import io.apiserver4j.core.ListValue;
import io.apiserver4j.core.MapValue;
import io.apiserver4j.core.Value;
import io.apiserver4j.core.Yaml;
import java.io.IOException;
import java.io.InputStream;
import java.io.UncheckedIOException;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.Locale;
import java.util.regex.Pattern;
import java.util.stream.Stream;

/**
 * Reads manifests as {@code kubectl apply -f} does: files, directories (their {@code .yaml},
 * {@code .yml} and {@code .json} files, recursively, in name order) and {@code -} for standard
 * input; YAML files with several documents separated by {@code ---}; a {@code List} (or any
 * {@code *List} kind with {@code items}) contributes its items. Documents with nothing but
 * comments are skipped, as kubectl skips them. Each document keeps its file and line.
 */
public final class Manifests {
  /** kubectl's name for standard input in its messages. */
  public static final String STDIN = "STDIN";
  private static final Pattern DOCUMENT_START = Pattern.compile("^---(\\s.*)?$");
  private static final Pattern DOCUMENT_END = Pattern.compile("^\\.\\.\\.\\s*$");

  private Manifests() {}

  /**
   * The documents of {@code location}: a file, a directory or {@code -} (read from {@code stdin}).
   * A location that does not exist or cannot be read yields one unreadable document.
   *
   * @param location a path or {@code -}
   * @param stdin what {@code -} reads
   * @return the documents, each with its source and line
   */
  public static List<Manifest> read(String location, InputStream stdin) {
    if (location.equals("-")) {
      try {
        return documents(STDIN, new String(stdin.readAllBytes(), StandardCharsets.UTF_8), false);
      } catch (IOException e) {
        return List.of(Manifest.unreadable(STDIN, 1, "cannot read: " + e.getMessage()));
      }
    }
    Path path = Path.of(location);
    if (Files.isDirectory(path)) {
      List<Path> files;
      try (Stream<Path> walk = Files.walk(path)) {
        files = walk.filter(Files::isRegularFile).filter(Manifests::isManifestFile)
            .sorted().toList();
      } catch (IOException | UncheckedIOException e) {
        return List.of(Manifest.unreadable(location, 1, "cannot read the directory: " + e));
      }
      List<Manifest> out = new ArrayList<>();
      for (Path f : files) {
        out.addAll(readFile(f.toString(), f));
      }
      return out;
    }
    return readFile(location, path);
  }

  private static boolean isManifestFile(Path p) {
    String name = p.getFileName().toString().toLowerCase(Locale.ROOT);
    return name.endsWith(".yaml") || name.endsWith(".yml") || name.endsWith(".json");
  }

  private static List<Manifest> readFile(String name, Path path) {
    String text;
    try {
      text = Files.readString(path, StandardCharsets.UTF_8);
    } catch (IOException | UncheckedIOException e) {
      String why = Files.exists(path) ? "cannot read: " + e.getMessage()
          : "the path \"" + name + "\" does not exist";
      return List.of(Manifest.unreadable(name, 1, why));
    }
    return documents(name, text, name.toLowerCase(Locale.ROOT).endsWith(".json"));
  }

  /**
   * The documents of one file's text.
   *
   * @param source the name messages give the text (a file name, or {@code STDIN})
   * @param text YAML (one or more documents) or JSON
   * @param json whether {@code text} is JSON
   * @return the documents, each with its line in {@code text}
   */
  public static List<Manifest> documents(String source, String text, boolean json) {
    List<Manifest> out = new ArrayList<>();
    if (json) {
      int line = firstContentLine(text.split("\n", -1), 0, Integer.MAX_VALUE);
      if (line > 0) {
        try {
          addObjects(out, source, line, Json.read(text));
        } catch (DecodeException | IllegalArgumentException e) {
          out.add(Manifest.unreadable(source, line, "error parsing " + source + ": "
              + e.getMessage()));
        }
      }
      return out;
    }
    String[] lines = text.split("\n", -1);
    int start = 0;
    for (int i = 0; i <= lines.length; i++) {
      boolean boundary = i == lines.length || DOCUMENT_START.matcher(lines[i]).matches()
          || DOCUMENT_END.matcher(lines[i]).matches();
      if (!boundary) {
        continue;
      }
      int line = firstContentLine(lines, start, i);
      if (line > 0) {
        StringBuilder doc = new StringBuilder();
        for (int j = start; j < i; j++) {
          doc.append(lines[j]).append('\n');
        }
        try {
          addObjects(out, source, line, Yaml.read(doc.toString()));
        } catch (DecodeException | IllegalArgumentException e) {
          out.add(Manifest.unreadable(source, line, "error parsing " + source + ": "
              + fileRelativeError(doc, start, e)));
        }
      }
      start = i + 1;
    }
    return out;
  }

  /**
   * The parser's message for a document that starts at line {@code start + 1} of its file, with
   * the file's line numbers: the document parsed again behind {@code start} blank lines (only on
   * failure, as the padding would make reading a long file quadratic).
   */
  private static String fileRelativeError(StringBuilder doc, int start, RuntimeException first) {
    try {
      Yaml.read("\n".repeat(start) + doc);
    } catch (DecodeException | IllegalArgumentException e) {
      return e.getMessage();
    }
    return first.getMessage();
  }

  /** The 1-based number of the first line in [from, to) that is not blank or a comment, or 0. */
  private static int firstContentLine(String[] lines, int from, int to) {
    for (int i = from; i < Math.min(to, lines.length); i++) {
      String t = lines[i].strip();
      if (!t.isEmpty() && !t.startsWith("#")) {
        return i + 1;
      }
    }
    return 0;
  }

  private static void addObjects(List<Manifest> out, String source, int line, Value doc) {
    if (doc == null || doc instanceof io.apiserver4j.core.NullValue) {
      return;
    }
    if (!(doc instanceof MapValue map)) {
      out.add(Manifest.unreadable(source, line, "error parsing " + source
          + ": the document is not an object"));
      return;
    }
    String kind = map.getOrNull("kind") instanceof io.apiserver4j.core.StringValue s
        ? s.value() : "";
    if (kind.endsWith("List") && map.getOrNull("items") instanceof ListValue items) {
      for (Value item : items.items()) {
        addObjects(out, source, line, item);
      }
      return;
    }
    out.add(Manifest.of(source, line, map));
  }
}
