/*
 * Copyright The apiserver4j authors.
 * SPDX-License-Identifier: Apache-2.0
 */
package io.apiserver4j.auth.audit;

import static java.util.Objects.requireNonNull;

import io.apiserver4j.authz.AuthorizationAttributes;
import io.apiserver4j.core.BooleanValue;
import io.apiserver4j.core.DecodeException;
import io.apiserver4j.core.errors.FieldError;
import io.apiserver4j.core.LabelValidation;
import io.apiserver4j.core.ListValue;
import io.apiserver4j.core.MapValue;
import io.apiserver4j.core.StringValue;
import io.apiserver4j.core.Value;
import io.apiserver4j.core.Yaml;
import java.io.IOException;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.EnumSet;
import java.util.List;
import java.util.Optional;
import java.util.Set;
import java.util.regex.Pattern;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * An {@code audit.k8s.io/v1 Policy}: which requests are audited at which level. The first rule
 * that matches a request decides (kube's policy rule evaluator); no match means
 * {@link AuditLevel#NONE}. Rules match on users, user groups, verbs, resources (group,
 * {@code resource}, {@code resource/subresource}, <code>*&#47;sub</code>, {@code res/*}, {@code *},
 * resource names), namespaces and non-resource URLs ({@code /path}, {@code /prefix*},
 * {@code *}); omitted criteria match everything. A rule's {@code omitStages} adds to the
 * policy's; its {@code omitManagedFields}, when set, overrides the policy's.
 *
 * <p>Read from YAML or JSON as kube-apiserver's {@code --audit-policy-file}, with kube's
 * validation and messages. Immutable and thread-safe.
 */
public final class AuditPolicy {
  private static final Logger LOG = LoggerFactory.getLogger(AuditPolicy.class);
  private static final Pattern DNS1123_SUBDOMAIN =
      Pattern.compile("[a-z0-9]([-a-z0-9]*[a-z0-9])?(\\.[a-z0-9]([-a-z0-9]*[a-z0-9])?)*");
  private static final Set<String> POLICY_FIELDS =
      Set.of("apiVersion", "kind", "metadata", "rules", "omitStages", "omitManagedFields");
  private static final Set<String> RULE_FIELDS = Set.of("level", "users", "userGroups", "verbs",
      "resources", "namespaces", "nonResourceURLs", "omitStages", "omitManagedFields");
  private static final Set<String> RESOURCE_FIELDS = Set.of("group", "resources",
      "resourceNames");

  private final List<Rule> rules;
  private final Set<AuditStage> omitStages;
  private final boolean omitManagedFields;

  /** What the policy decides for one request: level, stages left out, managedFields dropped. */
  record Decision(AuditLevel level, Set<AuditStage> omitStages, boolean omitManagedFields) {}

  record GroupResources(String group, List<String> resources, List<String> resourceNames) {}

  record Rule(AuditLevel level, List<String> users, List<String> userGroups, List<String> verbs,
      List<GroupResources> resources, List<String> namespaces, List<String> nonResourceUrls,
      Set<AuditStage> omitStages, Optional<Boolean> omitManagedFields) {}

  private AuditPolicy(List<Rule> rules, Set<AuditStage> omitStages, boolean omitManagedFields) {
    this.rules = List.copyOf(rules);
    this.omitStages = omitStages.isEmpty() ? Set.of() : Set.copyOf(omitStages);
    this.omitManagedFields = omitManagedFields;
  }

  /** A policy with one rule auditing every request at {@code level}. */
  public static AuditPolicy allAt(AuditLevel level) {
    requireNonNull(level, "level");
    return new AuditPolicy(List.of(new Rule(level, List.of(), List.of(), List.of(), List.of(),
        List.of(), List.of(), Set.of(), Optional.empty())), Set.of(), false);
  }

  /**
   * Reads a policy file, as kube-apiserver's {@code --audit-policy-file}.
   *
   * @throws IllegalArgumentException with kube's message, ending {@code : from file <path>}
   */
  public static AuditPolicy read(Path file) {
    requireNonNull(file, "file");
    String text;
    try {
      text = Files.readString(file, StandardCharsets.UTF_8);
    } catch (IOException e) {
      throw new IllegalArgumentException("failed to read file path \"" + file + "\": " + e, e);
    }
    try {
      return parse(text);
    } catch (IllegalArgumentException e) {
      throw new IllegalArgumentException(e.getMessage() + ": from file " + file, e);
    }
  }

  /**
   * Parses a policy from YAML or JSON. Unknown fields are ignored with a warning, as kube falls
   * back to lenient decoding.
   *
   * @throws IllegalArgumentException with kube's message when the document is not an
   *     {@code audit.k8s.io/v1 Policy}, does not validate, or has no rules
   */
  public static AuditPolicy parse(String yamlOrJson) {
    requireNonNull(yamlOrJson, "yamlOrJson");
    Value doc;
    try {
      doc = Yaml.read(yamlOrJson);
    } catch (DecodeException e) {
      throw new IllegalArgumentException("failed decoding: " + e.getMessage(), e);
    }
    if (!(doc instanceof MapValue m)) {
      throw new IllegalArgumentException("failed decoding: the policy is not an object");
    }
    String kind = string(m, "kind", "kind");
    String apiVersion = string(m, "apiVersion", "apiVersion");
    if (kind.isEmpty()) {
      throw new IllegalArgumentException("failed decoding: Object 'Kind' is missing in '"
          + yamlOrJson.strip() + "'");
    }
    if (!apiVersion.equals("audit.k8s.io/v1") || !kind.equals("Policy")) {
      throw new IllegalArgumentException("failed decoding: no kind \"" + kind
          + "\" is registered for version \"" + apiVersion + "\" in scheme"
          + " \"k8s.io/apiserver/pkg/audit/scheme.go:30\"");
    }
    warnUnknown(m, POLICY_FIELDS, "");
    List<FieldError> errors = new ArrayList<>();
    Set<AuditStage> policyStages = stages(m, "omitStages", "omitStages", errors);
    boolean policyOmit = bool(m, "omitManagedFields", "omitManagedFields").orElse(false);
    List<Rule> rules = new ArrayList<>();
    List<Value> ruleValues = list(m, "rules", "rules");
    for (int i = 0; i < ruleValues.size(); i++) {
      String path = "rules[" + i + "]";
      if (!(ruleValues.get(i) instanceof MapValue r)) {
        throw decodeError(path, "PolicyRule");
      }
      rules.add(rule(r, path, policyStages, errors));
    }
    if (!errors.isEmpty()) {
      throw new IllegalArgumentException(errors.size() == 1 ? errors.get(0).toString()
          : "[" + String.join(", ", errors.stream().map(FieldError::toString).toList()) + "]");
    }
    if (rules.isEmpty()) {
      throw new IllegalArgumentException("loaded illegal policy with 0 rules");
    }
    return new AuditPolicy(rules, policyStages, policyOmit);
  }

  private static Rule rule(MapValue r, String path, Set<AuditStage> policyStages,
      List<FieldError> errors) {
    warnUnknown(r, RULE_FIELDS, path + ".");
    String levelName = string(r, "level", path + ".level");
    AuditLevel level = null;
    for (AuditLevel l : AuditLevel.values()) {
      if (l.kubeName().equals(levelName)) {
        level = l;
      }
    }
    if (levelName.isEmpty()) {
      errors.add(FieldError.required(path + ".level", ""));
    } else if (level == null) {
      errors.add(FieldError.notSupported(path + ".level", Value.of(levelName),
          List.of("None", "Metadata", "Request", "RequestResponse")));
    }
    List<String> urls = strings(r, "nonResourceURLs", path + ".nonResourceURLs");
    for (int i = 0; i < urls.size(); i++) {
      String url = urls.get(i);
      if (url.equals("*")) {
        continue;
      }
      String at = path + ".nonResourceURLs[" + i + "]";
      if (!url.startsWith("/")) {
        errors.add(FieldError.invalid(at, Value.of(url),
            "non-resource URL rules must begin with a '/' character"));
      }
      if (!url.isEmpty() && url.substring(0, url.length() - 1).contains("*")) {
        errors.add(FieldError.invalid(at, Value.of(url),
            "non-resource URL wildcards '*' must be the final character of the rule"));
      }
    }
    List<GroupResources> resources = new ArrayList<>();
    List<Value> resourceValues = list(r, "resources", path + ".resources");
    for (int i = 0; i < resourceValues.size(); i++) {
      String at = path + ".resources[" + i + "]";
      if (!(resourceValues.get(i) instanceof MapValue g)) {
        throw decodeError(at, "GroupResources");
      }
      warnUnknown(g, RESOURCE_FIELDS, at + ".");
      GroupResources gr = new GroupResources(string(g, "group", at + ".group"),
          strings(g, "resources", at + ".resources"),
          strings(g, "resourceNames", at + ".resourceNames"));
      if (!gr.group().isEmpty() && !gr.group().equals("*")) {
        List<String> msgs = dnsSubdomain(gr.group());
        if (!msgs.isEmpty()) {
          errors.add(FieldError.invalid(path + ".resources.group", Value.of(gr.group()),
              String.join(",", msgs)));
        }
      }
      if (!gr.resourceNames().isEmpty() && gr.resources().isEmpty()) {
        errors.add(FieldError.invalid(path + ".resources.resourceNames",
            ListValue.of(gr.resourceNames().stream().map(Value::of).toList()),
            "using resourceNames requires at least one resource"));
      }
      resources.add(gr);
    }
    Set<AuditStage> omit = EnumSet.noneOf(AuditStage.class);
    omit.addAll(policyStages);
    omit.addAll(stages(r, "omitStages", path + ".omitStages", errors));
    List<String> namespaces = strings(r, "namespaces", path + ".namespaces");
    if (!urls.isEmpty() && (!resources.isEmpty() || !namespaces.isEmpty())) {
      errors.add(FieldError.invalid(path + ".nonResourceURLs",
          ListValue.of(urls.stream().map(Value::of).toList()),
          "rules cannot apply to both regular resources and non-resource URLs"));
    }
    return new Rule(level == null ? AuditLevel.NONE : level,
        strings(r, "users", path + ".users"), strings(r, "userGroups", path + ".userGroups"),
        strings(r, "verbs", path + ".verbs"), resources, namespaces, urls, omit,
        bool(r, "omitManagedFields", path + ".omitManagedFields"));
  }

  /** The level, stages and managedFields handling of one request. */
  Decision decide(AuthorizationAttributes a) {
    for (Rule r : rules) {
      if (matches(r, a)) {
        return new Decision(r.level(), r.omitStages(),
            r.omitManagedFields().orElse(omitManagedFields));
      }
    }
    return new Decision(AuditLevel.NONE, omitStages, omitManagedFields);
  }

  /** The level of one request (the first matching rule's, else None). */
  public AuditLevel levelOf(AuthorizationAttributes attributes) {
    return decide(requireNonNull(attributes, "attributes")).level();
  }

  private static boolean matches(Rule r, AuthorizationAttributes a) {
    if (!r.users().isEmpty() && !r.users().contains(a.user().name())) {
      return false;
    }
    if (!r.userGroups().isEmpty()
        && a.user().groups().stream().noneMatch(r.userGroups()::contains)) {
      return false;
    }
    if (!r.verbs().isEmpty() && !r.verbs().contains(a.verb())) {
      return false;
    }
    if (!r.namespaces().isEmpty() || !r.resources().isEmpty()) {
      return matchesResource(r, a);
    }
    if (!r.nonResourceUrls().isEmpty()) {
      if (a.resourceRequest()) {
        return false;
      }
      for (String spec : r.nonResourceUrls()) {
        if (spec.equals("*") || spec.equals(a.path())
            || (spec.endsWith("*") && a.path().startsWith(stripStars(spec)))) {
          return true;
        }
      }
      return false;
    }
    return true;
  }

  private static boolean matchesResource(Rule r, AuthorizationAttributes a) {
    if (!a.resourceRequest()) {
      return false;
    }
    // cluster-scoped resources are in namespace ""
    if (!r.namespaces().isEmpty() && !r.namespaces().contains(a.namespace())) {
      return false;
    }
    if (r.resources().isEmpty()) {
      return true;
    }
    String sub = a.subresource();
    String combined = sub.isEmpty() ? a.resource() : a.resource() + "/" + sub;
    for (GroupResources gr : r.resources()) {
      if (!gr.group().equals(a.apiGroup()) && !gr.group().equals("*")) {
        continue;
      }
      if (gr.resources().isEmpty()) {
        return true;
      }
      if (!gr.resourceNames().isEmpty() && !gr.resourceNames().contains(a.name())) {
        continue;
      }
      for (String res : gr.resources()) {
        if (res.equals(combined) || res.equals("*")) {
          return true;
        }
        if (!sub.isEmpty() && res.startsWith("*/") && sub.equals(res.substring(2))) {
          return true;
        }
        if (res.endsWith("/*") && a.resource().equals(res.substring(0, res.length() - 2))) {
          return true;
        }
      }
    }
    return false;
  }

  // Go's strings.TrimRight(spec, "*"): every trailing star goes
  private static String stripStars(String spec) {
    int end = spec.length();
    while (end > 0 && spec.charAt(end - 1) == '*') {
      end--;
    }
    return spec.substring(0, end);
  }

  private static List<String> dnsSubdomain(String value) {
    List<String> msgs = new ArrayList<>();
    if (value.length() > 253) {
      msgs.add("must be no more than 253 characters");
    }
    if (!DNS1123_SUBDOMAIN.matcher(value).matches()) {
      msgs.add(LabelValidation.regexError("a lowercase RFC 1123 subdomain must consist of lower"
          + " case alphanumeric characters, '-' or '.', and must start and end with an"
          + " alphanumeric character", DNS1123_SUBDOMAIN.pattern(), "example.com"));
    }
    return msgs;
  }

  private static Set<AuditStage> stages(MapValue m, String key, String path,
      List<FieldError> errors) {
    Set<AuditStage> out = EnumSet.noneOf(AuditStage.class);
    List<String> names = strings(m, key, path);
    for (int i = 0; i < names.size(); i++) {
      AuditStage found = null;
      for (AuditStage s : AuditStage.values()) {
        if (s.kubeName().equals(names.get(i))) {
          found = s;
        }
      }
      if (found == null) {
        errors.add(FieldError.invalid(path + "[" + i + "]", Value.of(names.get(i)),
            "allowed stages are RequestReceived,ResponseStarted,ResponseComplete,Panic"));
      } else {
        out.add(found);
      }
    }
    return out;
  }

  private static void warnUnknown(MapValue m, Set<String> known, String prefix) {
    for (int i = 0; i < m.size(); i++) {
      if (!known.contains(m.keyAt(i))) {
        LOG.warn("Audit policy contains errors, falling back to lenient decoding: strict decoding"
            + " error: unknown field \"{}{}\"", prefix, m.keyAt(i));
      }
    }
  }

  private static String string(MapValue m, String key, String path) {
    Value v = m.getOrNull(key);
    if (v == null || v.isNull()) {
      return "";
    }
    if (v instanceof StringValue s) {
      return s.value();
    }
    throw decodeError(path, "string");
  }

  private static Optional<Boolean> bool(MapValue m, String key, String path) {
    Value v = m.getOrNull(key);
    if (v == null || v.isNull()) {
      return Optional.empty();
    }
    if (v instanceof BooleanValue b) {
      return Optional.of(b.value());
    }
    throw decodeError(path, "bool");
  }

  private static List<Value> list(MapValue m, String key, String path) {
    Value v = m.getOrNull(key);
    if (v == null || v.isNull()) {
      return List.of();
    }
    if (v instanceof ListValue l) {
      return l.items();
    }
    throw decodeError(path, "array");
  }

  private static List<String> strings(MapValue m, String key, String path) {
    List<Value> values = list(m, key, path);
    List<String> out = new ArrayList<>(values.size());
    for (int i = 0; i < values.size(); i++) {
      if (!(values.get(i) instanceof StringValue s)) {
        throw decodeError(path + "[" + i + "]", "string");
      }
      out.add(s.value());
    }
    return List.copyOf(out);
  }

  private static IllegalArgumentException decodeError(String path, String type) {
    return new IllegalArgumentException("failed decoding: json: cannot unmarshal " + path
        + " into a value of type " + type);
  }
}
