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
import java.util.List;
import java.util.regex.Matcher;
import java.util.regex.Pattern;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.MethodSource;

/**
 * Every library module, that is every module the BOM publishes, has a
 * {@code src/main/java/module-info.java} that names the module as its jar's
 * {@code Automatic-Module-Name} ({@code module.name} in its pom) does and exports no
 * {@code internal} package, not even to a named module, except the controller runtime that
 * {@code controllers} shares with {@code cluster} alone by design. The Maven plugin is not a
 * library: Maven loads it in a class realm of its own, never from a module path, and the Maven
 * API it is built on has no module names; its jar still carries an {@code Automatic-Module-Name}.
 *
 * <p>The modules come from {@code bom/pom.xml}, so a module added to the BOM is checked without
 * touching this test: a new published module needs its descriptor from the start.
 */
class ModuleDescriptorsTest {
  private static final Path ROOT = Path.of("..").toAbsolutePath().normalize();
  private static final Pattern BOM_ARTIFACT =
      Pattern.compile("<artifactId>apiserver4j-([\\w-]+)</artifactId>");
  private static final Pattern MODULE_NAME_PROPERTY =
      Pattern.compile("<module\\.name>([\\w.]+)</module\\.name>");
  private static final Pattern COMMENT =
      Pattern.compile("/\\*.*?\\*/|//[^\\n]*", Pattern.DOTALL);
  private static final Pattern MODULE = Pattern.compile("\\bmodule\\s+([\\w.]+)\\s*\\{");
  private static final Pattern EXPORTS =
      Pattern.compile("\\bexports\\s+([\\w.]+)\\s*(?:to\\s+([\\w.,\\s]+))?;");

  /** Published modules that are not libraries (see the class comment). */
  private static final List<String> NOT_LIBRARIES = List.of("maven-plugin");

  /** The directories of the library modules the BOM lists, in the BOM's order. */
  static List<String> publishedModules() {
    Matcher m = BOM_ARTIFACT.matcher(read(ROOT.resolve("bom/pom.xml")));
    List<String> modules = new ArrayList<>();
    while (m.find()) {
      if (!m.group(1).equals("bom") && !NOT_LIBRARIES.contains(m.group(1))) {
        modules.add(m.group(1));
      }
    }
    return modules;
  }

  @Test
  void theBomListsTheLibraryModules() {
    List<String> published = publishedModules();
    assertThat(published).contains("core", "merge", "apiserver", "http", "auth", "junit",
        "junit-fabric8", "junit-client-java", "server");
    for (String module : published) {
      assertThat(ROOT.resolve(module).resolve("pom.xml"))
          .as("apiserver4j-%s is published from the directory %s", module, module)
          .isRegularFile();
    }
  }

  @ParameterizedTest(name = "{0}")
  @MethodSource("publishedModules")
  void hasADescriptorNamedAsItsJarThatExportsNoInternalPackage(String module) {
    Path descriptor = ROOT.resolve(module).resolve("src/main/java/module-info.java");
    assertThat(descriptor).as("%s has a module-info.java", module).isRegularFile();
    String source = COMMENT.matcher(read(descriptor)).replaceAll(" ");

    Matcher name = MODULE.matcher(source);
    assertThat(name.find()).as("%s declares a module", descriptor).isTrue();
    Matcher property = MODULE_NAME_PROPERTY.matcher(read(ROOT.resolve(module).resolve("pom.xml")));
    assertThat(property.find()).as("%s/pom.xml sets module.name", module).isTrue();
    assertThat(name.group(1))
        .as("the module name of %s is its jar's Automatic-Module-Name", module)
        .isEqualTo(property.group(1));

    List<String> internal = new ArrayList<>();
    Matcher exports = EXPORTS.matcher(source);
    while (exports.find()) {
      String pkg = exports.group(1);
      if (pkg.equals("io.apiserver4j.controllers.internal") && exports.group(2) != null
          && exports.group(2).trim().equals("io.apiserver4j.cluster")) {
        continue;
      }
      if (pkg.equals("internal") || pkg.contains(".internal")) {
        internal.add(exports.group(0).replaceAll("\\s+", " "));
      }
    }
    assertThat(internal).as("internal packages exported by %s", module).isEmpty();
  }

  private static String read(Path p) {
    try {
      return Files.readString(p);
    } catch (IOException e) {
      throw new UncheckedIOException(e);
    }
  }
}
