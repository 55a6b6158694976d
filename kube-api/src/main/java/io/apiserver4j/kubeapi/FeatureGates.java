/*
 * Copyright The apiserver4j authors.
 * SPDX-License-Identifier: Apache-2.0
 */
package io.apiserver4j.kubeapi;

import static java.util.Objects.requireNonNull;

import java.io.BufferedReader;
import java.io.IOException;
import java.io.InputStream;
import java.io.InputStreamReader;
import java.io.UncheckedIOException;
import java.nio.charset.StandardCharsets;
import java.util.ArrayList;
import java.util.Collections;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Set;
import java.util.TreeMap;
import java.util.regex.Pattern;

/**
 * The feature gates of a kube-apiserver at one emulated release, as component-base's versioned
 * feature gate computes them (KEP-4330): every known gate has a list of specs (default, stage,
 * locked to default) each valid from a release on; the spec of a gate at release {@code 1.x} is
 * its last one at or below {@code 1.x}, and a gate whose first spec comes later is
 * {@link Stage#PRE_ALPHA} there (off, and refused when set).
 *
 * <p>The table of known gates is data transcribed from kube's feature files (component-base,
 * {@code k8s.io/apiserver} and {@code k8s.io/apiextensions-apiserver} v0.36.3 in full, a subset of
 * {@code kubernetes/kubernetes} {@code pkg/features}); its resource {@code feature-gates.txt}
 * names the sources. A gate kube knows that the table lacks is refused as unrecognized.
 *
 * <p>Gates may depend on others (component-base's {@code AddDependencies}, data in the resource
 * {@code feature-gate-dependencies.txt}): a set of gates that leaves a gate enabled while one of
 * its dependencies is disabled is refused, as kube-apiserver refuses such a
 * {@code --feature-gates}.
 *
 * <p>Immutable and thread-safe; equal when the release and the explicitly set gates are.
 */
public final class FeatureGates {
  /** kube's {@code featuregate.prerelease}: a gate's maturity at a release. */
  public enum Stage {
    /** Not yet introduced at that release: off and cannot be set. */
    PRE_ALPHA("PRE-ALPHA"),
    /** Alpha: off by default unless stated. */
    ALPHA("ALPHA"),
    /** Beta. */
    BETA("BETA"),
    /** Generally available; kube's label is the empty string. */
    GA(""),
    /** Deprecated. */
    DEPRECATED("DEPRECATED");

    private final String label;

    Stage(String label) {
      this.label = label;
    }

    /**
     * {@return kube's name of the stage, as in {@code --feature-gates} help and the
     * {@code stage} label of {@code kubernetes_feature_enabled}: {@code ALPHA}, {@code BETA},
     * the empty string for GA, {@code DEPRECATED}, {@code PRE-ALPHA}}
     */
    public String label() {
      return label;
    }
  }

  /**
   * One gate at one release: its stage, its default and whether it is locked to that default.
   *
   * @param name the gate's name, e.g. {@code PodLevelResources}
   * @param stage its stage at the release
   * @param defaultValue whether it is on unless set
   * @param lockedToDefault whether setting it to the other value is refused
   */
  public record Spec(String name, Stage stage, boolean defaultValue, boolean lockedToDefault) {
    /**
     * Checks the arguments.
     *
     * @param name the gate's name
     * @param stage its stage at the release
     * @param defaultValue whether it is on unless set
     * @param lockedToDefault whether setting it to the other value is refused
     */
    public Spec {
      requireNonNull(name, "name");
      requireNonNull(stage, "stage");
    }
  }

  /** kube's toggle of every alpha gate not set on its own. */
  private static final String ALL_ALPHA = "AllAlpha";
  /** kube's toggle of every beta gate not set on its own. */
  private static final String ALL_BETA = "AllBeta";

  private final KubeVersion version;
  private final Map<String, Boolean> explicit;
  private final Map<String, Boolean> enabled;

  private FeatureGates(KubeVersion version, Map<String, Boolean> explicit,
      Map<String, Boolean> enabled) {
    this.version = version;
    this.explicit = explicit;
    this.enabled = enabled;
  }

  /**
   * The defaults of {@code version}, nothing set.
   *
   * @param version the emulated release
   * @return the gates
   */
  public static FeatureGates defaults(KubeVersion version) {
    return of(version, Map.of());
  }

  /**
   * The gates of {@code version} with {@code set} applied, as component-base's
   * {@code SetFromMap}; {@code AllAlpha} and {@code AllBeta} set every gate of their stage that
   * is not set on its own.
   *
   * @param version the emulated release
   * @param set gate names to values, applied in iteration order
   * @return the gates
   * @throws IllegalArgumentException with kube's message: {@code unrecognized feature gate: X}
   *     (the first unknown name, before any other check), {@code cannot set feature gate X to
   *     false, feature is locked to true}, {@code cannot set feature gate X to true, feature is
   *     PreAlpha at emulated version 1.33, min compatibility version 1.32}; when those pass,
   *     {@code X is enabled, but depends on features that are disabled: [A B]} for every enabled
   *     gate (by name) with a disabled dependency; several errors are joined as kube's error
   *     aggregate ({@code [a, b]})
   */
  public static FeatureGates of(KubeVersion version, Map<String, Boolean> set) {
    requireNonNull(version, "version");
    requireNonNull(set, "set");
    Map<String, List<VersionedSpec>> known = Table.GATES;
    for (String name : set.keySet()) {
      if (!known.containsKey(requireNonNull(name, "gate name"))) {
        throw new IllegalArgumentException("unrecognized feature gate: " + name);
      }
    }
    List<String> errors = new ArrayList<>();
    Map<String, Boolean> explicit = new LinkedHashMap<>();
    for (Map.Entry<String, Boolean> e : set.entrySet()) {
      String name = e.getKey();
      boolean value = requireNonNull(e.getValue(), "value of " + name);
      Spec spec = specAt(name, known.get(name), version);
      if (spec.lockedToDefault() && spec.defaultValue() != value) {
        errors.add("cannot set feature gate " + name + " to " + value
            + ", feature is locked to " + spec.defaultValue());
        continue;
      }
      if (spec.stage() == Stage.PRE_ALPHA && !isToggle(name)) {
        errors.add("cannot set feature gate " + name + " to " + value
            + ", feature is PreAlpha at emulated version " + version
            + ", min compatibility version " + version.minCompatibility());
        continue;
      }
      explicit.put(name, value);
    }
    throwIfAny(errors);
    Map<String, Boolean> enabled = new TreeMap<>();
    for (Map.Entry<String, List<VersionedSpec>> g : known.entrySet()) {
      String name = g.getKey();
      Spec spec = specAt(name, g.getValue(), version);
      boolean on = spec.defaultValue();
      if (explicit.containsKey(name)) {
        on = explicit.get(name);
      } else if (!isToggle(name) && spec.stage() == Stage.ALPHA
          && explicit.containsKey(ALL_ALPHA)) {
        on = explicit.get(ALL_ALPHA);
      } else if (!isToggle(name) && spec.stage() == Stage.BETA
          && explicit.containsKey(ALL_BETA)) {
        on = explicit.get(ALL_BETA);
      }
      enabled.put(name, on);
    }
    // component-base checks the dependencies only once every gate was set without error
    Table.DEPENDENCIES.forEach((gate, deps) -> {
      if (!enabled.get(gate)) {
        return;
      }
      List<String> disabled = deps.stream().filter(d -> !enabled.get(d)).toList();
      if (!disabled.isEmpty()) {
        errors.add(gate + " is enabled, but depends on features that are disabled: ["
            + String.join(" ", disabled) + "]");
      }
    });
    throwIfAny(errors);
    return new FeatureGates(version, Collections.unmodifiableMap(explicit),
        Collections.unmodifiableMap(enabled));
  }

  /**
   * Parses kube's {@code --feature-gates} value ({@code A=true,B=false}) at {@code version}: the
   * syntax of component-base's {@code featureGate.Set} (items split at commas, empty items
   * skipped, names and values trimmed, values as Go's {@code strconv.ParseBool}) with the
   * component prefix of kube's compatibility registry ({@code kube:A=true}; kube-apiserver
   * registers no other component).
   *
   * @param version the emulated release
   * @param flag the flag's value
   * @return the gates
   * @throws IllegalArgumentException with kube's message: {@code missing bool value for A},
   *     {@code invalid value of A=x, err: strconv.ParseBool: parsing "x": invalid syntax},
   *     {@code component not registered: wardle}, {@code set kube feature gates with default
   *     empty prefix or kube: prefix consistently, do not mix use}, and those of {@link #of}
   */
  public static FeatureGates parse(KubeVersion version, String flag) {
    requireNonNull(version, "version");
    requireNonNull(flag, "flag");
    Map<String, Boolean> set = new LinkedHashMap<>();
    boolean plain = false;
    boolean prefixed = false;
    for (String item : flag.split(",", -1)) {
      if (item.isEmpty()) {
        continue;
      }
      int colon = item.indexOf(':');
      int equals = item.indexOf('=');
      if (colon >= 0 && (equals < 0 || colon < equals)) {
        String component = item.substring(0, colon).trim();
        if (!component.equals("kube")) {
          throw new IllegalArgumentException("component not registered: " + component);
        }
        prefixed = true;
        item = item.substring(colon + 1);
      } else {
        plain = true;
      }
      String[] kv = item.split("=", 2);
      String key = kv[0].trim();
      if (kv.length != 2) {
        throw new IllegalArgumentException("missing bool value for " + key);
      }
      String value = kv[1].trim();
      set.put(key, parseBool(key, value));
    }
    if (plain && prefixed) {
      throw new IllegalArgumentException("set kube feature gates with default empty prefix or"
          + " kube: prefix consistently, do not mix use");
    }
    return of(version, set);
  }

  // Go's strconv.ParseBool, whose error kube quotes
  private static boolean parseBool(String key, String value) {
    switch (value) {
      case "1", "t", "T", "true", "TRUE", "True":
        return true;
      case "0", "f", "F", "false", "FALSE", "False":
        return false;
      default:
        throw new IllegalArgumentException("invalid value of " + key + "=" + value
            + ", err: strconv.ParseBool: parsing \"" + value + "\": invalid syntax");
    }
  }

  /** {@return the emulated release these gates belong to} */
  public KubeVersion version() {
    return version;
  }

  /** {@return the gates set explicitly, in the order they were set (immutable)} */
  public Map<String, Boolean> explicit() {
    return explicit;
  }

  /**
   * Whether {@code gate} is on.
   *
   * @param gate the gate's name
   * @return whether it is on
   * @throws IllegalArgumentException for a gate the table does not know (kube panics: a
   *     programmer error)
   */
  public boolean enabled(String gate) {
    Boolean on = enabled.get(requireNonNull(gate, "gate"));
    if (on == null) {
      throw new IllegalArgumentException("feature \"" + gate
          + "\" is not registered in FeatureGate");
    }
    return on;
  }

  /**
   * The spec of {@code gate} at this release.
   *
   * @param gate the gate's name
   * @return its spec
   * @throws IllegalArgumentException for a gate the table does not know
   */
  public Spec spec(String gate) {
    List<VersionedSpec> specs = Table.GATES.get(requireNonNull(gate, "gate"));
    if (specs == null) {
      throw new IllegalArgumentException("feature \"" + gate
          + "\" is not registered in FeatureGate");
    }
    return specAt(gate, specs, version);
  }

  /** {@return every known gate's name, sorted} */
  public Set<String> known() {
    return enabled.keySet();
  }

  @Override
  public boolean equals(Object o) {
    return o instanceof FeatureGates g && g.version == version && g.explicit.equals(explicit);
  }

  @Override
  public int hashCode() {
    return version.hashCode() * 31 + explicit.hashCode();
  }

  /** {@return kube's flag form of the explicitly set gates, e.g. {@code A=true,B=false}} */
  @Override
  public String toString() {
    StringBuilder sb = new StringBuilder();
    explicit.forEach((k, v) -> sb.append(sb.length() == 0 ? "" : ",").append(k).append('=')
        .append(v));
    return sb.toString();
  }

  // kube's utilerrors.NewAggregate: one error as itself, several as [a, b]
  private static void throwIfAny(List<String> errors) {
    if (errors.size() == 1) {
      throw new IllegalArgumentException(errors.get(0));
    }
    if (!errors.isEmpty()) {
      throw new IllegalArgumentException("[" + String.join(", ", errors) + "]");
    }
  }

  /**
   * {@return the gates {@code gate} depends on, sorted; empty for most gates}
   *
   * @param gate the gate's name
   * @throws IllegalArgumentException for a gate the table does not know
   */
  public List<String> dependencies(String gate) {
    if (!Table.GATES.containsKey(requireNonNull(gate, "gate"))) {
      throw new IllegalArgumentException("feature \"" + gate
          + "\" is not registered in FeatureGate");
    }
    return Table.DEPENDENCIES.getOrDefault(gate, List.of());
  }

  private static boolean isToggle(String name) {
    return name.equals(ALL_ALPHA) || name.equals(ALL_BETA);
  }

  private static Spec specAt(String name, List<VersionedSpec> specs, KubeVersion version) {
    return specAt(name, specs, new int[] {version.major(), version.minor()});
  }

  // majorMinor: {major, minor}
  private static Spec specAt(String name, List<VersionedSpec> specs, int[] majorMinor) {
    for (int i = specs.size() - 1; i >= 0; i--) {
      VersionedSpec s = specs.get(i);
      if (s.major() < majorMinor[0]
          || (s.major() == majorMinor[0] && s.minor() <= majorMinor[1])) {
        return new Spec(name, s.stage(), s.defaultValue(), s.locked());
      }
    }
    return new Spec(name, Stage.PRE_ALPHA, false, false);
  }

  private record VersionedSpec(int major, int minor, Stage stage, boolean defaultValue,
      boolean locked) {}

  /**
   * The tables of {@code feature-gates.txt} and {@code feature-gate-dependencies.txt}, read on
   * first use.
   */
  private static final class Table {
    // compiled once: String.split compiles a pattern per call, per line of the tables
    private static final Pattern SPACES = Pattern.compile("\\s+");
    static final Map<String, List<VersionedSpec>> GATES = read();
    static final Map<String, List<String>> DEPENDENCIES = readDependencies(GATES);

    /**
     * Reads the dependencies and checks them as component-base's {@code AddDependencies} does:
     * known gates, and at every version a dependent's spec starts, a dependency no less stable,
     * not off by default under an on-by-default dependent, locked when the dependent is; no
     * cycles.
     */
    private static Map<String, List<String>> readDependencies(
        Map<String, List<VersionedSpec>> gates) {
      Map<String, List<String>> deps = new TreeMap<>();
      for (String line : lines("feature-gate-dependencies.txt")) {
        String[] fields = SPACES.split(line);
        List<String> on = new ArrayList<>(List.of(fields).subList(1, fields.length));
        on.sort(null);
        if (on.isEmpty() || deps.put(fields[0], List.copyOf(on)) != null) {
          throw new IllegalStateException("feature-gate-dependencies.txt: bad or repeated gate "
              + fields[0]);
        }
      }
      deps.forEach((gate, on) -> {
        List<VersionedSpec> specs = gates.get(gate);
        if (specs == null) {
          throw new IllegalStateException("cannot add dependency for unknown feature " + gate);
        }
        for (String dep : on) {
          List<VersionedSpec> depSpecs = gates.get(dep);
          if (depSpecs == null) {
            throw new IllegalStateException("cannot add dependency from " + gate
                + " to unknown feature " + dep);
          }
          for (VersionedSpec s : specs) {
            Spec d = specAt(dep, depSpecs, new int[] {s.major(), s.minor()});
            String at = " at version " + s.major() + "." + s.minor();
            if (stability(s.stage()) > stability(d.stage())) {
              throw new IllegalStateException(s.stage().name() + " feature " + gate
                  + " cannot depend on " + d.stage().name() + " feature " + dep + at);
            }
            if (s.defaultValue() && !d.defaultValue()) {
              throw new IllegalStateException("default-enabled feature " + gate
                  + " cannot depend on default-disabled feature " + dep + at);
            }
            if (s.locked() && !d.lockedToDefault()) {
              throw new IllegalStateException("locked-to-default feature " + gate
                  + " cannot depend on unlocked feature " + dep + at);
            }
          }
        }
      });
      java.util.Set<String> finished = new java.util.HashSet<>();
      for (String gate : deps.keySet()) {
        checkAcyclic(gate, deps, new java.util.HashSet<>(), finished);
      }
      return Collections.unmodifiableMap(deps);
    }

    private static void checkAcyclic(String gate, Map<String, List<String>> deps,
        java.util.Set<String> visiting, java.util.Set<String> finished) {
      if (finished.contains(gate)) {
        return;
      }
      if (!visiting.add(gate)) {
        throw new IllegalStateException("cycle detected with feature " + gate);
      }
      for (String dep : deps.getOrDefault(gate, List.of())) {
        checkAcyclic(dep, deps, visiting, finished);
      }
      finished.add(gate);
    }

    // component-base's stabilityOrder: alpha may depend on pre-alpha, nothing on deprecated
    private static int stability(Stage stage) {
      return switch (stage) {
        case DEPRECATED -> 0;
        case PRE_ALPHA, ALPHA -> 1;
        case BETA -> 2;
        case GA -> 3;
      };
    }

    private static List<String> lines(String resource) {
      List<String> lines = new ArrayList<>();
      try (InputStream in = FeatureGates.class.getResourceAsStream(resource)) {
        if (in == null) {
          throw new IllegalStateException(resource + " is missing from the jar");
        }
        BufferedReader r = new BufferedReader(new InputStreamReader(in, StandardCharsets.UTF_8));
        for (String line = r.readLine(); line != null; line = r.readLine()) {
          line = line.strip();
          if (!line.isEmpty() && !line.startsWith("#")) {
            lines.add(line);
          }
        }
      } catch (IOException e) {
        throw new UncheckedIOException(e);
      }
      return lines;
    }

    private static Map<String, List<VersionedSpec>> read() {
      Map<String, List<VersionedSpec>> gates = new TreeMap<>();
      for (String line : lines("feature-gates.txt")) {
        String[] fields = SPACES.split(line);
        List<VersionedSpec> specs = new ArrayList<>();
        for (int i = 1; i < fields.length; i++) {
          specs.add(spec(fields[0], fields[i]));
        }
        if (specs.isEmpty() || gates.put(fields[0], List.copyOf(specs)) != null) {
          throw new IllegalStateException("feature-gates.txt: bad or repeated gate "
              + fields[0]);
        }
      }
      return Collections.unmodifiableMap(gates);
    }

    private static VersionedSpec spec(String gate, String text) {
      String[] p = text.split(":");
      String[] v = p[0].split("\\.");
      if (p.length < 3 || p.length > 4 || v.length != 2
          || (p.length == 4 && !p[3].equals("locked"))) {
        throw new IllegalStateException("feature-gates.txt: bad spec " + text + " of " + gate);
      }
      Stage stage = switch (p[1]) {
        case "ALPHA" -> Stage.ALPHA;
        case "BETA" -> Stage.BETA;
        case "GA" -> Stage.GA;
        case "DEPRECATED" -> Stage.DEPRECATED;
        default -> throw new IllegalStateException("feature-gates.txt: bad stage " + text);
      };
      return new VersionedSpec(Integer.parseInt(v[0]), Integer.parseInt(v[1]), stage,
          Boolean.parseBoolean(p[2]), p.length == 4);
    }
  }
}
