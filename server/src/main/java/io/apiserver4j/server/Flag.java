/*
 * Copyright The apiserver4j authors.
 * SPDX-License-Identifier: Apache-2.0
 */
package io.apiserver4j.server;

import static java.util.Objects.requireNonNull;

import java.net.URI;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.Optional;
import java.util.Set;
import java.util.function.Function;

/**
 * One command-line flag: its name (kube-apiserver's), older names still accepted, the shape of
 * its value, its help line, its default and how its text becomes a value. Flags are declared
 * once, as constants of {@link ServeOptions}, and read back with {@link ServeOptions#get}.
 *
 * <p>Parsing follows kube's pflag conventions: {@code --name value} or {@code --name=value};
 * a boolean flag alone means {@code true} and takes a value only as {@code --name=false}.
 *
 * @param <T> the parsed value's type
 */
final class Flag<T> {
  private final String name;
  private final List<String> aliases;
  private final String valueName;
  private final String help;
  private final T defaultValue;
  private final Function<String, T> parser;
  private final boolean bool;

  private Flag(String name, List<String> aliases, String valueName, String help, T defaultValue,
      Function<String, T> parser, boolean bool) {
    this.name = requireNonNull(name, "name");
    this.aliases = List.copyOf(aliases);
    this.valueName = requireNonNull(valueName, "valueName");
    this.help = requireNonNull(help, "help");
    this.defaultValue = requireNonNull(defaultValue, "defaultValue");
    this.parser = requireNonNull(parser, "parser");
    this.bool = bool;
    if (!name.startsWith("--")) {
      throw new IllegalArgumentException("a flag name starts with --: " + name);
    }
  }

  /** A flag whose value {@code parser} reads; its exceptions' messages are shown to the user. */
  static <T> Flag<T> of(String name, String valueName, T defaultValue, String help,
      Function<String, T> parser) {
    return new Flag<>(name, List.of(), valueName, help, defaultValue, parser, false);
  }

  /** A flag naming a file, absent by default. */
  static Flag<Optional<Path>> file(String name, String help) {
    return of(name, "FILE", Optional.empty(), help, v -> {
      if (v.isEmpty()) {
        throw new IllegalArgumentException(name + " needs a file name");
      }
      return Optional.of(Path.of(v));
    });
  }

  /** A plain string flag. */
  static Flag<String> string(String name, String valueName, String defaultValue, String help) {
    return of(name, valueName, defaultValue, help, v -> v);
  }

  /** A TCP port, 0 to 65535 (0 picks a free one). */
  static Flag<Integer> port(String name, int defaultValue, String help) {
    return of(name, "PORT", defaultValue, help, v -> {
      int p;
      try {
        p = Integer.parseInt(v);
      } catch (NumberFormatException e) {
        throw new IllegalArgumentException(name + " must be a number: " + v);
      }
      if (p < 0 || p > 65535) {
        throw new IllegalArgumentException(name + " out of range (0-65535): " + v);
      }
      return p;
    });
  }

  /** A non-negative integer. */
  static Flag<Integer> count(String name, int defaultValue, String help) {
    return of(name, "N", defaultValue, help, v -> {
      int n;
      try {
        n = Integer.parseInt(v);
      } catch (NumberFormatException e) {
        throw new IllegalArgumentException(name + " must be a number: " + v);
      }
      if (n < 0) {
        throw new IllegalArgumentException(name + " must not be negative: " + v);
      }
      return n;
    });
  }

  /** An integer of at least {@code min}. */
  static Flag<Integer> atLeast(String name, int min, int defaultValue, String help) {
    return of(name, "N", defaultValue, help, v -> {
      int n;
      try {
        n = Integer.parseInt(v);
      } catch (NumberFormatException e) {
        throw new IllegalArgumentException(name + " must be a number: " + v);
      }
      if (n < min) {
        throw new IllegalArgumentException(name + " must be at least " + min + ": " + v);
      }
      return n;
    });
  }

  /** A positive duration in Go's {@code time.ParseDuration} form, e.g. {@code 15s}, {@code 1m30s}. */
  static Flag<java.time.Duration> duration(String name, java.time.Duration defaultValue,
      String help) {
    return of(name, "DURATION", defaultValue, help, v -> {
      java.time.Duration d = GoDuration.parse(v).orElseThrow(() -> new IllegalArgumentException(
          name + ": invalid duration \"" + v + "\" (e.g. 15s, 500ms, 1m30s)"));
      if (d.isNegative() || d.isZero()) {
        throw new IllegalArgumentException(name + " must be positive: " + v);
      }
      return d;
    });
  }

  /** A boolean: {@code --name} alone is true, else {@code --name=true|false}. */
  static Flag<Boolean> bool(String name, boolean defaultValue, String help) {
    return new Flag<>(name, List.of(), "", help, defaultValue, v -> {
      switch (v) {
        case "true":
          return true;
        case "false":
          return false;
        default:
          throw new IllegalArgumentException(name + " is true or false, got: " + v);
      }
    }, true);
  }

  /** One of {@code choices}, exactly as written. */
  static Flag<String> choice(String name, String defaultValue, Set<String> choices, String help) {
    return of(name, String.join("|", choices.stream().sorted().toList()), defaultValue, help,
        v -> {
          if (!choices.contains(v)) {
            throw new IllegalArgumentException(name + ": one of "
                + String.join(", ", choices.stream().sorted().toList()) + ", got: " + v);
          }
          return v;
        });
  }

  /** Comma-separated http(s)://HOST:PORT URLs, none by default. */
  static Flag<List<URI>> urls(String name, String help) {
    return of(name, "URL[,URL...]", List.of(), help, value -> {
      List<URI> urls = new ArrayList<>();
      for (String part : value.split(",", -1)) {
        URI uri = null;
        try {
          uri = URI.create(part.strip());
        } catch (IllegalArgumentException e) {
          // reported below, with the expected form
        }
        if (uri == null || !("http".equals(uri.getScheme()) || "https".equals(uri.getScheme()))
            || uri.getHost() == null || uri.getPort() < 0) {
          throw new IllegalArgumentException(
              name + ": expected http://HOST:PORT (or https), got: " + part);
        }
        urls.add(uri);
      }
      return List.copyOf(urls);
    });
  }

  /** This flag, also accepted under {@code alias} (an older name kept for scripts). */
  Flag<T> alias(String alias) {
    List<String> all = new ArrayList<>(aliases);
    all.add(alias);
    return new Flag<>(name, all, valueName, help, defaultValue, parser, bool);
  }

  String name() {
    return name;
  }

  List<String> aliases() {
    return aliases;
  }

  String valueName() {
    return valueName;
  }

  String help() {
    return help;
  }

  T defaultValue() {
    return defaultValue;
  }

  boolean isBoolean() {
    return bool;
  }

  T parse(String text) {
    return parser.apply(text);
  }

  @Override
  public String toString() {
    return name;
  }
}
