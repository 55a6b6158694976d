/*
 * Copyright The apiserver4j authors.
 * SPDX-License-Identifier: Apache-2.0
 */
package io.apiserver4j.kubeapi;

import static java.util.Objects.requireNonNull;

import java.util.List;

/**
 * A Kubernetes minor release whose built-in API this project serves: the newest (the
 * "binary" version, as kube-apiserver calls it) and the three before it, which kube-apiserver
 * 1.36 can emulate with {@code --emulated-version} (KEP-4330).
 *
 * <p>The data of each release ({@link KubeApi#resources(KubeVersion)} and the rest) is generated
 * from that release's upstream API definitions and loaded only when first asked for.
 */
public enum KubeVersion {
  /** Kubernetes 1.33. */
  V1_33(33),
  /** Kubernetes 1.34. */
  V1_34(34),
  /** Kubernetes 1.35. */
  V1_35(35),
  /** Kubernetes 1.36, the binary version: what a server serves unless told otherwise. */
  V1_36(36);

  private static final List<KubeVersion> ALL = List.of(values());

  private final int minor;

  KubeVersion(int minor) {
    this.minor = minor;
  }

  /** {@return the newest release, the default of every server} */
  public static KubeVersion latest() {
    return V1_36;
  }

  /** {@return every release, oldest first} */
  public static List<KubeVersion> all() {
    return ALL;
  }

  /**
   * Parses kube's {@code major.minor} form of {@code --emulated-version}, e.g. {@code 1.33}.
   *
   * @param version the version text
   * @return the release
   * @throws IllegalArgumentException with kube-apiserver's message when the text is no
   *     version ({@code could not parse "x" as version}, {@code illegal version string "1"}) or
   *     names a release
   *     outside the emulatable range ({@code emulation version 1.32 is not between [1.33,
   *     1.36.0]})
   */
  public static KubeVersion parse(String version) {
    requireNonNull(version, "version");
    // kube's version.ParseGeneric: an optional "v", two or more numeric components (the flag
    // keeps major.minor), nothing after them but a pre-release or build suffix
    java.util.regex.Matcher m = java.util.regex.Pattern
        .compile("\\s*v?([0-9]+(?:\\.[0-9]+)*)((?:-[0-9A-Za-z.-]+)?(?:\\+[0-9A-Za-z.-]+)?)\\s*")
        .matcher(version);
    if (!m.matches()) {
      throw new IllegalArgumentException("could not parse \"" + version + "\" as version");
    }
    String[] components = m.group(1).split("\\.");
    if (components.length < 2) {
      throw new IllegalArgumentException("illegal version string \"" + version + "\"");
    }
    long major;
    long minor;
    try {
      major = Long.parseLong(components[0]);
      minor = Long.parseLong(components[1]);
    } catch (NumberFormatException e) {
      throw new IllegalArgumentException("illegal version string \"" + version + "\"", e);
    }
    if (major == 1) {
      for (KubeVersion v : ALL) {
        if (v.minor == minor) {
          return v;
        }
      }
    }
    throw new IllegalArgumentException("emulation version " + major + "." + minor
        + " is not between [" + ALL.get(0) + ", " + latest() + ".0]");
  }

  /** {@return the major version, 1} */
  public int major() {
    return 1;
  }

  /** {@return the minor version, e.g. 33} */
  public int minor() {
    return minor;
  }

  /**
   * {@return the minimum compatibility version kube derives from this emulation version: one
   * minor release below, as {@code major.minor}}
   */
  public String minCompatibility() {
    return "1." + (minor - 1);
  }

  /** {@return {@code major.minor}, e.g. {@code 1.33}, the form of the flag and of /version} */
  @Override
  public String toString() {
    return "1." + minor;
  }
}
