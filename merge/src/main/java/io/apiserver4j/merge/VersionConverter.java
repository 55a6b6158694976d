/*
 * Copyright The apiserver4j authors.
 * SPDX-License-Identifier: Apache-2.0
 */
package io.apiserver4j.merge;

import static java.util.Objects.requireNonNull;

/**
 * Converts objects between API versions for the {@link Updater}, which needs every manager's
 * fields in that manager's version.
 *
 * <p>Implementations must be thread-safe and must not change their input. Throw
 * {@link MissingVersionException} when {@code version} is unknown (ownership at that version is
 * then dropped) and {@link ConversionException} for any other failure.
 */
@FunctionalInterface
public interface VersionConverter {
  /**
   * Converts an object to another API version.
   *
   * @param object the object; not changed
   * @param version the target API version
   * @return the object at {@code version}
   * @throws MissingVersionException when the version is unknown
   * @throws ConversionException for any other failure
   */
  TypedValue convert(TypedValue object, String version);

  /**
   * The converter for single-version objects: returns the object unchanged for any non-empty
   * version (SMD's test converter).
   *
   * @return the converter; it fails with {@link ConversionException} on an empty version
   */
  static VersionConverter identity() {
    return (object, version) -> {
      requireNonNull(object, "object");
      requireNonNull(version, "version");
      if (version.isEmpty()) {
        throw new ConversionException("cannot convert to invalid version: \"\"");
      }
      return object;
    };
  }
}
