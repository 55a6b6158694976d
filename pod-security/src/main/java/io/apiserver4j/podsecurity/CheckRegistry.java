/*
 * Copyright The apiserver4j authors.
 * SPDX-License-Identifier: Apache-2.0
 */
package io.apiserver4j.podsecurity;

import static java.util.Objects.requireNonNull;

import io.apiserver4j.core.MapValue;
import java.util.ArrayList;
import java.util.HashMap;
import java.util.HashSet;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import java.util.Set;

/**
 * The default {@link Evaluator}, as kube's {@code policy.checkRegistry}: for each
 * policy version from v1.0 to the newest one a check names, the baseline checks in effect, and
 * the restricted ones (restricted checks plus the baseline checks they do not override), in
 * kube's order (baseline ids sorted, then restricted ids sorted). Versions newer than the newest
 * known (and {@code latest}) evaluate as the newest. Immutable and thread-safe.
 */
final class CheckRegistry implements Evaluator {
  private final Map<PolicyVersion, List<PodCheck>> baseline = new HashMap<>();
  private final Map<PolicyVersion, List<PodCheck>> restricted = new HashMap<>();
  private final PolicyVersion maxVersion;

  /** The evaluator of the default checks, built on first use. */
  private static final class Defaults {
    static final CheckRegistry INSTANCE = new CheckRegistry(Checks.defaultChecks(),
        Optional.empty());
  }

  /**
   * The evaluator of kube's default checks, shared (it is immutable once built) and built on
   * the first pod evaluated: a server that admits no pod never loads the checks.
   */
  static Evaluator defaults() {
    return LazyDefaults.INSTANCE;
  }

  /** Evaluates with {@link Defaults#INSTANCE}, which the first evaluation initialises. */
  private enum LazyDefaults implements Evaluator {
    INSTANCE;

    @Override
    public List<CheckResult> evaluatePod(LevelVersion levelVersion, MapValue podMetadata,
        MapValue podSpec) {
      return Defaults.INSTANCE.evaluatePod(levelVersion, podMetadata, podSpec);
    }
  }

  CheckRegistry(List<Check> checks, Optional<PolicyVersion> emulationVersion) {
    validate(checks);
    PolicyVersion max = PolicyVersion.of(0, 0);
    for (Check c : checks) {
      PolicyVersion last = c.versions().get(c.versions().size() - 1).minimumVersion();
      if (max.isOlderThan(last)) {
        max = last;
      }
    }
    Map<PolicyVersion, Map<String, Check.Versioned>> restrictedByVersion = new HashMap<>();
    Map<PolicyVersion, Map<String, Check.Versioned>> baselineByVersion = new HashMap<>();
    List<String> baselineIds = new ArrayList<>();
    List<String> restrictedIds = new ArrayList<>();
    for (Check c : checks) {
      if (c.level() == Level.RESTRICTED) {
        restrictedIds.add(c.id());
        inflate(c, restrictedByVersion, max);
      } else {
        baselineIds.add(c.id());
        inflate(c, baselineByVersion, max);
      }
    }
    baselineIds.sort(null);
    restrictedIds.sort(null);
    List<String> ordered = new ArrayList<>(baselineIds);
    ordered.addAll(restrictedIds);
    for (PolicyVersion v = PolicyVersion.of(1, 0); v.isOlderThan(max.nextMinor());
        v = v.nextMinor()) {
      Set<String> overrides = new HashSet<>();
      Map<String, Check.Versioned> r = new LinkedHashMap<>(
          restrictedByVersion.getOrDefault(v, Map.of()));
      for (Check.Versioned c : r.values()) {
        overrides.addAll(c.overrideCheckIds());
      }
      Map<String, Check.Versioned> b = baselineByVersion.getOrDefault(v, Map.of());
      b.forEach((id, c) -> {
        if (!overrides.contains(id)) {
          r.put(id, c);
        }
      });
      restricted.put(v, ordered(r, ordered));
      baseline.put(v, ordered(b, ordered));
    }
    // kube: an emulated server version newer than every check still knows its own version
    if (emulationVersion.isPresent() && emulationVersion.get().isOlderThan(max)) {
      max = emulationVersion.get();
    }
    this.maxVersion = max;
  }

  @Override
  public List<CheckResult> evaluatePod(LevelVersion levelVersion, MapValue podMetadata,
      MapValue podSpec) {
    requireNonNull(podMetadata, "podMetadata");
    requireNonNull(podSpec, "podSpec");
    if (levelVersion.level() == Level.PRIVILEGED) {
      return List.of();
    }
    PolicyVersion v = levelVersion.version();
    if (maxVersion.isOlderThan(v)) {
      v = maxVersion;
    }
    List<PodCheck> checks = (levelVersion.level() == Level.BASELINE ? baseline : restricted)
        .getOrDefault(v, List.of());
    List<CheckResult> results = new ArrayList<>(checks.size());
    for (PodCheck c : checks) {
      results.add(c.check(podMetadata, podSpec));
    }
    return results;
  }

  private static void inflate(Check check, Map<PolicyVersion, Map<String, Check.Versioned>> out,
      PolicyVersion max) {
    List<Check.Versioned> versions = check.versions();
    for (int i = 0; i < versions.size(); i++) {
      PolicyVersion next = i + 1 < versions.size() ? versions.get(i + 1).minimumVersion()
          : max.nextMinor();
      for (PolicyVersion v = versions.get(i).minimumVersion(); v.isOlderThan(next);
          v = v.nextMinor()) {
        out.computeIfAbsent(v, k -> new HashMap<>()).put(check.id(), versions.get(i));
      }
    }
  }

  private static List<PodCheck> ordered(Map<String, Check.Versioned> checks, List<String> ids) {
    List<PodCheck> out = new ArrayList<>(checks.size());
    for (String id : ids) {
      Check.Versioned c = checks.get(id);
      if (c != null) {
        out.add(c.check());
      }
    }
    return List.copyOf(out);
  }

  private static void validate(List<Check> checks) {
    Map<String, Level> ids = new HashMap<>();
    for (Check check : checks) {
      if (ids.put(check.id(), check.level()) != null) {
        throw new IllegalArgumentException("multiple checks registered for ID " + check.id());
      }
      if (check.level() != Level.BASELINE && check.level() != Level.RESTRICTED) {
        throw new IllegalArgumentException("check " + check.id() + ": invalid level "
            + check.level());
      }
      if (check.versions().isEmpty()) {
        throw new IllegalArgumentException("check " + check.id() + ": empty");
      }
      PolicyVersion max = PolicyVersion.of(0, 0);
      for (Check.Versioned c : check.versions()) {
        if (c.minimumVersion().equals(PolicyVersion.of(0, 0))) {
          throw new IllegalArgumentException("check " + check.id()
              + ": undefined version found");
        }
        if (c.minimumVersion().isLatest()) {
          throw new IllegalArgumentException("check " + check.id()
              + ": version cannot be 'latest'");
        }
        if (max.equals(c.minimumVersion())) {
          throw new IllegalArgumentException("check " + check.id() + ": duplicate version "
              + c.minimumVersion());
        }
        if (!max.isOlderThan(c.minimumVersion())) {
          throw new IllegalArgumentException("check " + check.id()
              + ": versions must be strictly increasing");
        }
        max = c.minimumVersion();
      }
    }
    for (Check check : checks) {
      for (Check.Versioned c : check.versions()) {
        if (c.overrideCheckIds().isEmpty()) {
          continue;
        }
        if (check.level() != Level.RESTRICTED) {
          throw new IllegalArgumentException("check " + check.id()
              + ": only restricted checks may set overrides");
        }
        for (String override : c.overrideCheckIds()) {
          Level overridden = ids.get(override);
          if (overridden != null && overridden != Level.BASELINE) {
            throw new IllegalArgumentException("check " + check.id() + ": overrides "
                + overridden + " check " + override);
          }
        }
      }
    }
  }
}
