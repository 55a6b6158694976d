/*
 * Copyright The apiserver4j authors.
 * SPDX-License-Identifier: Apache-2.0
 */
package io.apiserver4j.integration;

import static org.assertj.core.api.Assertions.assertThat;

import java.io.IOException;
import java.io.UncheckedIOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.HashSet;
import java.util.List;
import java.util.Set;
import java.util.regex.Matcher;
import java.util.regex.Pattern;
import java.util.stream.Stream;
import org.junit.jupiter.api.Test;

/**
 * Every module keeps its {@code internal} packages to itself: no source of one module (main or
 * test) imports an {@code internal} package that another module declares. This is the rule a
 * {@code module-info} would enforce, checked on the sources so that tests run on the class path.
 */
class ModuleBoundariesTest {
  private static final Pattern PACKAGE = Pattern.compile("^package ([\\w.]+);", Pattern.MULTILINE);
  private static final Pattern IMPORT = Pattern.compile(
      "^import (?:static )?(io\\.apiserver4j\\.[\\w.]*\\.internal)(?:\\.[\\w.*]+)?;",
      Pattern.MULTILINE);

  @Test
  void noModuleImportsAnotherModulesInternalPackages() throws IOException {
    Path root = Path.of("..").toAbsolutePath().normalize();
    List<Path> modules = new ArrayList<>();
    try (Stream<Path> dirs = Files.list(root)) {
      dirs.filter(d -> Files.isRegularFile(d.resolve("pom.xml"))
          && Files.isDirectory(d.resolve("src"))).forEach(modules::add);
    }
    assertThat(modules).hasSizeGreaterThan(10);
    List<String> violations = new ArrayList<>();
    for (Path module : modules) {
      Set<String> own = new HashSet<>();
      List<Path> sources = sources(module.resolve("src"));
      for (Path source : sources) {
        Matcher m = PACKAGE.matcher(read(source));
        if (m.find()) {
          own.add(m.group(1));
        }
      }
      for (Path source : sources) {
        Matcher m = IMPORT.matcher(read(source));
        while (m.find()) {
          String imported = internalPackage(m.group(1));
          if (own.stream().noneMatch(p -> p.equals(imported) || p.startsWith(imported + "."))) {
            violations.add(root.relativize(source) + " imports " + imported);
          }
        }
      }
    }
    assertThat(violations).isEmpty();
  }

  /** The internal package an import names (an import may name a nested class in it). */
  private static String internalPackage(String imported) {
    int at = imported.lastIndexOf(".internal");
    return imported.substring(0, at + ".internal".length());
  }

  private static List<Path> sources(Path dir) throws IOException {
    try (Stream<Path> files = Files.walk(dir)) {
      return files.filter(p -> p.toString().endsWith(".java")).toList();
    }
  }

  private static String read(Path p) {
    try {
      return Files.readString(p);
    } catch (IOException e) {
      throw new UncheckedIOException(e);
    }
  }
}
