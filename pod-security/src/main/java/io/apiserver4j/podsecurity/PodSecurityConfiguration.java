/*
 * Copyright The apiserver4j authors.
 * SPDX-License-Identifier: Apache-2.0
 */
package io.apiserver4j.podsecurity;

import static java.util.Objects.requireNonNull;

import io.apiserver4j.apimachinery.validation.MetaValidation;
import io.apiserver4j.core.DecodeException;
import io.apiserver4j.core.ListValue;
import io.apiserver4j.core.MapValue;
import io.apiserver4j.core.StringValue;
import io.apiserver4j.core.Value;
import io.apiserver4j.core.Yaml;
import io.apiserver4j.core.errors.FieldError;
import java.util.ArrayList;
import java.util.HashSet;
import java.util.List;
import java.util.Set;

/**
 * The PodSecurity plugin's configuration, kube's {@code PodSecurityConfiguration}
 * ({@code pod-security.admission.config.k8s.io/v1}, also {@code v1beta1} and {@code v1alpha1}):
 * the default level and version of each mode for namespaces without labels, and the exempt
 * usernames, namespaces and runtime classes. Values are kept as written (defaulted as kube's
 * {@code SetDefaults_PodSecurityDefaults}) and checked by {@link #validate()}. Immutable.
 *
 * @param enforce the default enforce level
 * @param enforceVersion the default enforce version
 * @param audit the default audit level
 * @param auditVersion the default audit version
 * @param warn the default warn level
 * @param warnVersion the default warn version
 * @param exemptUsernames requests by these users are not checked
 * @param exemptNamespaces pods in these namespaces are not checked
 * @param exemptRuntimeClasses pods with these runtime classes are not checked
 */
public record PodSecurityConfiguration(String enforce, String enforceVersion, String audit,
    String auditVersion, String warn, String warnVersion, List<String> exemptUsernames,
    List<String> exemptNamespaces, List<String> exemptRuntimeClasses) {
  /** The configuration's API group. */
  public static final String GROUP = "pod-security.admission.config.k8s.io";
  /** The configuration's kind. */
  public static final String KIND = "PodSecurityConfiguration";
  private static final Set<String> VERSIONS = Set.of("v1", "v1beta1", "v1alpha1");

  /**
   * Copies the lists.
   *
   * @param enforce see the record component
   * @param enforceVersion see the record component
   * @param audit see the record component
   * @param auditVersion see the record component
   * @param warn see the record component
   * @param warnVersion see the record component
   * @param exemptUsernames see the record component
   * @param exemptNamespaces see the record component
   * @param exemptRuntimeClasses see the record component
   * @throws NullPointerException when a component is null
   */
  public PodSecurityConfiguration {
    requireNonNull(enforce, "enforce");
    requireNonNull(enforceVersion, "enforceVersion");
    requireNonNull(audit, "audit");
    requireNonNull(auditVersion, "auditVersion");
    requireNonNull(warn, "warn");
    requireNonNull(warnVersion, "warnVersion");
    exemptUsernames = List.copyOf(exemptUsernames);
    exemptNamespaces = List.copyOf(exemptNamespaces);
    exemptRuntimeClasses = List.copyOf(exemptRuntimeClasses);
  }

  /**
   * kube's configuration when none is given: everything privileged at latest, no exemptions.
   *
   * @return the default configuration
   */
  public static PodSecurityConfiguration defaults() {
    return new PodSecurityConfiguration("privileged", "latest", "privileged", "latest",
        "privileged", "latest", List.of(), List.of(), List.of());
  }

  /**
   * Loads a configuration as kube's {@code load.LoadFromData}: empty text gives
   * {@link #defaults()}; otherwise a JSON or YAML {@code PodSecurityConfiguration} of a known
   * version, decoded strictly (unknown fields refused), with empty defaults filled in.
   *
   * @param text the configuration document
   * @return the configuration (not yet validated; see {@link #validate()})
   * @throws IllegalArgumentException naming the problem
   */
  public static PodSecurityConfiguration load(String text) {
    requireNonNull(text, "text");
    if (text.isBlank()) {
      return defaults();
    }
    Value doc;
    try {
      doc = Yaml.read(text);
    } catch (DecodeException e) {
      throw new IllegalArgumentException(e.getMessage(), e);
    }
    if (!(doc instanceof MapValue m)) {
      throw new IllegalArgumentException("couldn't get version/kind; json parse error: expected"
          + " an object, got " + doc);
    }
    return fromObject(m);
  }

  /**
   * Decodes a configuration object, as {@link #load} does (e.g. the {@code configuration} of the
   * PodSecurity entry of an {@code AdmissionConfiguration}).
   *
   * @param object the decoded document
   * @return the configuration (not yet validated)
   * @throws IllegalArgumentException naming the problem
   */
  public static PodSecurityConfiguration fromObject(MapValue object) {
    requireNonNull(object, "object");
    String apiVersion = object.getOrNull("apiVersion") instanceof StringValue s ? s.value() : "";
    String kind = object.getOrNull("kind") instanceof StringValue s ? s.value() : "";
    if (apiVersion.isEmpty()) {
      throw new IllegalArgumentException("Object 'apiVersion' is missing in '" + object + "'");
    }
    if (kind.isEmpty()) {
      throw new IllegalArgumentException("Object 'Kind' is missing in '" + object + "'");
    }
    int slash = apiVersion.indexOf('/');
    String group = slash < 0 ? "" : apiVersion.substring(0, slash);
    String version = slash < 0 ? apiVersion : apiVersion.substring(slash + 1);
    if (!group.equals(GROUP) || !VERSIONS.contains(version) || !kind.equals(KIND)) {
      throw new IllegalArgumentException("no kind \"" + kind + "\" is registered for version \""
          + apiVersion + "\" in scheme \"pod-security-admission\"");
    }
    List<String> unknown = new ArrayList<>();
    unknownFields(object, "", Set.of("apiVersion", "kind", "defaults", "exemptions"), unknown);
    MapValue defaults = object(object, "defaults", "PodSecurityConfiguration.defaults");
    MapValue exemptions = object(object, "exemptions", "PodSecurityConfiguration.exemptions");
    unknownFields(defaults, "defaults.", Set.of("enforce", "enforce-version", "audit",
        "audit-version", "warn", "warn-version"), unknown);
    unknownFields(exemptions, "exemptions.", Set.of("usernames", "namespaces", "runtimeClasses"),
        unknown);
    if (!unknown.isEmpty()) {
      throw new IllegalArgumentException("strict decoding error: "
          + String.join(", ", unknown));
    }
    return new PodSecurityConfiguration(
        orDefault(string(defaults, "enforce"), "privileged"),
        orDefault(string(defaults, "enforce-version"), "latest"),
        orDefault(string(defaults, "audit"), "privileged"),
        orDefault(string(defaults, "audit-version"), "latest"),
        orDefault(string(defaults, "warn"), "privileged"),
        orDefault(string(defaults, "warn-version"), "latest"),
        strings(exemptions, "usernames"), strings(exemptions, "namespaces"),
        strings(exemptions, "runtimeClasses"));
  }

  /**
   * The problems of this configuration, as kube's {@code ValidatePodSecurityConfiguration}:
   * levels and versions that do not parse, exempt namespaces that are not DNS labels, runtime
   * classes that are not DNS subdomains, empty usernames, and duplicates.
   *
   * @return the field errors; empty when valid
   */
  public List<FieldError> validate() {
    List<FieldError> errs = new ArrayList<>();
    level(errs, "defaults.enforce", enforce);
    version(errs, "defaults.enforce-version", enforceVersion);
    level(errs, "defaults.warn", warn);
    version(errs, "defaults.warn-version", warnVersion);
    level(errs, "defaults.audit", audit);
    version(errs, "defaults.audit-version", auditVersion);
    Set<String> seen = new HashSet<>();
    for (int i = 0; i < exemptNamespaces.size(); i++) {
      String ns = exemptNamespaces.get(i);
      String path = "exemptions.namespaces[" + i + "]";
      List<String> problems = MetaValidation.dns1123Label(ns);
      if (!problems.isEmpty()) {
        errs.add(FieldError.invalid(path, Value.of(ns), String.join(", ", problems)));
      } else if (!seen.add(ns)) {
        errs.add(FieldError.duplicate(path, Value.of(ns)));
      }
    }
    seen.clear();
    for (int i = 0; i < exemptRuntimeClasses.size(); i++) {
      String rc = exemptRuntimeClasses.get(i);
      String path = "exemptions.runtimeClasses[" + i + "]";
      List<String> problems = MetaValidation.dns1123Subdomain(rc);
      if (!problems.isEmpty()) {
        errs.add(FieldError.invalid(path, Value.of(rc), String.join(", ", problems)));
      } else if (!seen.add(rc)) {
        errs.add(FieldError.duplicate(path, Value.of(rc)));
      }
    }
    seen.clear();
    for (int i = 0; i < exemptUsernames.size(); i++) {
      String user = exemptUsernames.get(i);
      String path = "exemptions.usernames[" + i + "]";
      if (user.isEmpty()) {
        errs.add(FieldError.invalid(path, Value.of(user), "username must not be empty"));
      } else if (!seen.add(user)) {
        errs.add(FieldError.duplicate(path, Value.of(user)));
      }
    }
    return errs;
  }

  /**
   * The default policy, as kube's {@code ToPolicy}.
   *
   * @return the policy
   * @throws IllegalArgumentException listing each default that is missing or does not parse,
   *     in kube's words (e.g. {@code enforce: must be one of privileged, baseline, restricted})
   */
  public Policy defaultPolicy() {
    List<String> errs = new ArrayList<>();
    Level e = parseLevel(errs, "enforce", enforce);
    PolicyVersion ev = parseVersion(errs, "enforce-version", enforceVersion);
    Level a = parseLevel(errs, "audit", audit);
    PolicyVersion av = parseVersion(errs, "audit-version", auditVersion);
    Level w = parseLevel(errs, "warn", warn);
    PolicyVersion wv = parseVersion(errs, "warn-version", warnVersion);
    if (!errs.isEmpty()) {
      throw new IllegalArgumentException(errs.size() == 1 ? errs.get(0)
          : "[" + String.join(", ", errs) + "]");
    }
    return new Policy(new LevelVersion(e, ev), new LevelVersion(a, av), new LevelVersion(w, wv));
  }

  private static Level parseLevel(List<String> errs, String field, String value) {
    if (value.isEmpty()) {
      errs.add(field + ": required");
      return Level.PRIVILEGED;
    }
    return Level.parse(value).orElseGet(() -> {
      errs.add(field + ": " + Level.PARSE_ERROR);
      return Level.RESTRICTED;
    });
  }

  private static PolicyVersion parseVersion(List<String> errs, String field, String value) {
    if (value.isEmpty()) {
      errs.add(field + ": required");
      return PolicyVersion.latest();
    }
    return PolicyVersion.parse(value).orElseGet(() -> {
      errs.add(field + ": " + PolicyVersion.PARSE_ERROR);
      return PolicyVersion.latest();
    });
  }

  private static void level(List<FieldError> errs, String path, String value) {
    if (Level.parse(value).isEmpty()) {
      errs.add(FieldError.invalid(path, Value.of(value), Level.PARSE_ERROR));
    }
  }

  private static void version(List<FieldError> errs, String path, String value) {
    if (PolicyVersion.parse(value).isEmpty()) {
      errs.add(FieldError.invalid(path, Value.of(value), PolicyVersion.PARSE_ERROR));
    }
  }

  private static void unknownFields(MapValue m, String prefix, Set<String> known,
      List<String> out) {
    m.forEach((k, v) -> {
      if (!known.contains(k)) {
        out.add("unknown field \"" + prefix + k + "\"");
      }
    });
  }

  private static MapValue object(MapValue m, String key, String goField) {
    Value v = m.getOrNull(key);
    if (v == null || v.isNull()) {
      return MapValue.empty();
    }
    if (v instanceof MapValue mv) {
      return mv;
    }
    throw new IllegalArgumentException("json: cannot unmarshal " + v.kind()
        + " into Go struct field " + goField + " of type object");
  }

  private static String string(MapValue m, String key) {
    Value v = m.getOrNull(key);
    if (v == null || v.isNull()) {
      return "";
    }
    if (v instanceof StringValue s) {
      return s.value();
    }
    throw new IllegalArgumentException("json: cannot unmarshal " + v.kind()
        + " into Go struct field PodSecurityDefaults.defaults." + key + " of type string");
  }

  private static List<String> strings(MapValue m, String key) {
    Value v = m.getOrNull(key);
    if (v == null || v.isNull()) {
      return List.of();
    }
    List<String> out = new ArrayList<>();
    if (v instanceof ListValue l) {
      for (Value item : l.items()) {
        if (!(item instanceof StringValue s)) {
          throw new IllegalArgumentException("json: cannot unmarshal " + item.kind()
              + " into Go struct field PodSecurityExemptions.exemptions." + key
              + " of type string");
        }
        out.add(s.value());
      }
      return out;
    }
    throw new IllegalArgumentException("json: cannot unmarshal " + v.kind()
        + " into Go struct field PodSecurityExemptions.exemptions." + key + " of type []string");
  }

  private static String orDefault(String v, String d) {
    return v.isEmpty() ? d : v;
  }
}
