/*
 * Copyright The apiserver4j authors.
 * SPDX-License-Identifier: Apache-2.0
 */
package io.apiserver4j.podsecurity;

import static java.util.Objects.requireNonNull;

import io.apiserver4j.core.Value;
import io.apiserver4j.core.errors.FieldError;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.Optional;

/**
 * The level and version of each mode of a namespace, as kube's {@code api.Policy}: {@code enforce}
 * refuses pods that violate it, {@code audit} annotates the audit event, {@code warn} warns the
 * client.
 *
 * @param enforce the enforced level and version
 * @param audit the audited level and version
 * @param warn the warned level and version
 */
public record Policy(LevelVersion enforce, LevelVersion audit, LevelVersion warn) {
  /** The prefix of the namespace labels and of the audit annotations. */
  public static final String LABEL_PREFIX = "pod-security.kubernetes.io/";
  /** The enforce level label. */
  public static final String ENFORCE_LEVEL_LABEL = LABEL_PREFIX + "enforce";
  /** The enforce version label. */
  public static final String ENFORCE_VERSION_LABEL = LABEL_PREFIX + "enforce-version";
  /** The audit level label. */
  public static final String AUDIT_LEVEL_LABEL = LABEL_PREFIX + "audit";
  /** The audit version label. */
  public static final String AUDIT_VERSION_LABEL = LABEL_PREFIX + "audit-version";
  /** The warn level label. */
  public static final String WARN_LEVEL_LABEL = LABEL_PREFIX + "warn";
  /** The warn version label. */
  public static final String WARN_VERSION_LABEL = LABEL_PREFIX + "warn-version";

  /** Everything privileged at latest: kube's default when nothing is configured. */
  public static final Policy PRIVILEGED = new Policy(LevelVersion.latest(Level.PRIVILEGED),
      LevelVersion.latest(Level.PRIVILEGED), LevelVersion.latest(Level.PRIVILEGED));

  /**
   * Checks the components.
   *
   * @param enforce see the record component
   * @param audit see the record component
   * @param warn see the record component
   * @throws NullPointerException when one is null
   */
  public Policy {
    requireNonNull(enforce, "enforce");
    requireNonNull(audit, "audit");
    requireNonNull(warn, "warn");
  }

  /**
   * Whether every mode is privileged (nothing to check).
   *
   * @return true when fully privileged
   */
  public boolean fullyPrivileged() {
    return enforce.level() == Level.PRIVILEGED && audit.level() == Level.PRIVILEGED
        && warn.level() == Level.PRIVILEGED;
  }

  /**
   * Whether each mode is {@link LevelVersion#equivalent equivalent} to the other's.
   *
   * @param other the other policy
   * @return true when equivalent
   */
  public boolean equivalent(Policy other) {
    return enforce.equivalent(other.enforce) && audit.equivalent(other.audit)
        && warn.equivalent(other.warn);
  }

  @Override
  public String toString() {
    return "enforce=" + enforce + ", audit=" + audit + ", warn=" + warn;
  }

  /**
   * A namespace's policy and the problems of its labels.
   *
   * @param policy the policy to evaluate
   * @param errors the invalid labels, as kube's field errors on {@code metadata.labels[...]}
   */
  public record Evaluation(Policy policy, List<FieldError> errors) {
    /**
     * Copies the errors.
     *
     * @param policy see the record component
     * @param errors see the record component
     * @throws NullPointerException when a component is null
     */
    public Evaluation {
      requireNonNull(policy, "policy");
      errors = List.copyOf(errors);
    }
  }

  /**
   * The policy of a namespace with {@code labels}, as kube's {@code api.PolicyToEvaluate}: each
   * label overrides the default; an invalid enforce level evaluates as restricted, an invalid
   * audit or warn level as privileged, an invalid version as latest; without a warn label, warn
   * is raised to an enforce level set by label (with its version unless a warn version is set).
   *
   * @param labels the namespace's labels
   * @param defaults the configured defaults
   * @return the policy and the label errors
   */
  public static Evaluation fromLabels(Map<String, String> labels, Policy defaults) {
    requireNonNull(labels, "labels");
    requireNonNull(defaults, "defaults");
    if (labels.isEmpty()) {
      return new Evaluation(defaults, List.of());
    }
    List<FieldError> errors = new ArrayList<>();
    LevelVersion enforce = defaults.enforce;
    LevelVersion audit = defaults.audit;
    LevelVersion warn = defaults.warn;
    boolean hasEnforceLevel = false;
    String v = labels.get(ENFORCE_LEVEL_LABEL);
    if (v != null) {
      Optional<Level> l = Level.parse(v);
      enforce = enforce.withLevel(l.orElse(Level.RESTRICTED));
      hasEnforceLevel = l.isPresent();
      levelError(errors, l, ENFORCE_LEVEL_LABEL, v);
    }
    v = labels.get(ENFORCE_VERSION_LABEL);
    if (v != null) {
      enforce = enforce.withVersion(version(errors, ENFORCE_VERSION_LABEL, v));
    }
    v = labels.get(AUDIT_LEVEL_LABEL);
    if (v != null) {
      Optional<Level> l = Level.parse(v);
      audit = audit.withLevel(l.orElse(Level.PRIVILEGED));
      levelError(errors, l, AUDIT_LEVEL_LABEL, v);
    }
    v = labels.get(AUDIT_VERSION_LABEL);
    if (v != null) {
      audit = audit.withVersion(version(errors, AUDIT_VERSION_LABEL, v));
    }
    boolean hasWarnLevel = false;
    boolean hasWarnVersion = false;
    v = labels.get(WARN_LEVEL_LABEL);
    if (v != null) {
      hasWarnLevel = true;
      Optional<Level> l = Level.parse(v);
      warn = warn.withLevel(l.orElse(Level.PRIVILEGED));
      levelError(errors, l, WARN_LEVEL_LABEL, v);
    }
    v = labels.get(WARN_VERSION_LABEL);
    if (v != null) {
      hasWarnVersion = true;
      warn = warn.withVersion(version(errors, WARN_VERSION_LABEL, v));
    }
    if (!hasWarnLevel && hasEnforceLevel && enforce.level().compareTo(warn.level()) > 0) {
      warn = warn.withLevel(enforce.level());
      if (!hasWarnVersion) {
        warn = warn.withVersion(enforce.version());
      }
    }
    return new Evaluation(new Policy(enforce, audit, warn), errors);
  }

  private static void levelError(List<FieldError> errors, Optional<Level> parsed, String label,
      String value) {
    if (parsed.isEmpty()) {
      errors.add(FieldError.invalid(labelPath(label), Value.of(value), Level.PARSE_ERROR));
    }
  }

  private static PolicyVersion version(List<FieldError> errors, String label, String value) {
    Optional<PolicyVersion> parsed = PolicyVersion.parse(value);
    if (parsed.isEmpty()) {
      errors.add(FieldError.invalid(labelPath(label), Value.of(value), PolicyVersion.PARSE_ERROR));
    }
    return parsed.orElse(PolicyVersion.latest());
  }

  private static String labelPath(String label) {
    return "metadata.labels[" + label + "]";
  }
}
