/*
 * Copyright The apiserver4j authors.
 * SPDX-License-Identifier: Apache-2.0
 */
package io.apiserver4j.apiserver.admission;

import static java.util.Objects.requireNonNull;

import io.apiserver4j.core.ListValue;
import io.apiserver4j.core.MapValue;
import io.apiserver4j.core.Nested;
import io.apiserver4j.core.Value;
import io.apiserver4j.core.Yaml;
import java.io.IOException;
import java.io.UncheckedIOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.LinkedHashMap;
import java.util.Map;
import java.util.Set;

/**
 * kube-apiserver's {@code --admission-control-config-file}: an {@code AdmissionConfiguration}
 * ({@code apiserver.config.k8s.io/v1}, or the older {@code apiserver.k8s.io/v1alpha1}) whose
 * {@code plugins} give each plugin's configuration inline ({@code configuration}) or in a file
 * ({@code path}, relative to the configuration file), read as kube's {@code ReadAdmissionConfiguration}
 * does. The result is what {@link io.apiserver4j.apiserver.ApiServer.Builder#admissionConfiguration} takes.
 */
public final class AdmissionConfigurationFile {
  private static final Set<String> API_VERSIONS = Set.of("apiserver.config.k8s.io/v1",
      "apiserver.k8s.io/v1alpha1");

  private AdmissionConfigurationFile() {}

  /**
   * Reads the file.
   *
   * @param file the configuration file
   * @return each plugin's configuration by plugin name, in file order
   * @throws IllegalArgumentException when the file is not an AdmissionConfiguration or a plugin
   *     entry is malformed, naming the file
   * @throws UncheckedIOException when a file cannot be read
   */
  public static Map<String, MapValue> read(Path file) {
    requireNonNull(file, "file");
    Value doc = Yaml.read(text(file));
    if (!(doc instanceof MapValue config)
        || !"AdmissionConfiguration".equals(Nested.str(config, "kind"))
        || !API_VERSIONS.contains(Nested.str(config, "apiVersion"))) {
      throw new IllegalArgumentException("unable to read admission control configuration from \""
          + file + "\": not an AdmissionConfiguration of apiserver.config.k8s.io/v1");
    }
    Map<String, MapValue> out = new LinkedHashMap<>();
    if (config.getOrNull("plugins") instanceof ListValue plugins) {
      for (Value p : plugins.items()) {
        String name = Nested.str(p, "name");
        if (name.isEmpty()) {
          throw new IllegalArgumentException("admission configuration " + file
              + ": a plugin entry has no name");
        }
        MapValue inline = Nested.mapOrNull(p, "configuration");
        String path = Nested.str(p, "path");
        if (inline != null) {
          out.put(name, inline);
        } else if (!path.isEmpty()) {
          Path ref = Path.of(path);
          Path resolved = ref.isAbsolute() || file.getParent() == null ? ref
              : file.getParent().resolve(ref);
          if (!(Yaml.read(text(resolved)) instanceof MapValue m)) {
            throw new IllegalArgumentException("admission configuration " + resolved
                + " of plugin " + name + " is not an object");
          }
          out.put(name, m);
        }
      }
    }
    return out;
  }

  private static String text(Path file) {
    try {
      return Files.readString(file);
    } catch (IOException e) {
      throw new UncheckedIOException("unable to read admission control configuration from \""
          + file + "\"", e);
    }
  }
}
