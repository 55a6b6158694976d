/*
 * Copyright The apiserver4j authors.
 * SPDX-License-Identifier: Apache-2.0
 */
package io.apiserver4j.registry.admissionregistration.validation;

import io.apiserver4j.cel.CelException;
import io.apiserver4j.cel.CelProgram;
import io.apiserver4j.core.errors.FieldError;
import io.apiserver4j.core.IntegerValue;
import io.apiserver4j.core.ListValue;
import io.apiserver4j.core.MapValue;
import io.apiserver4j.core.Meta;
import io.apiserver4j.core.Nested;
import io.apiserver4j.core.StringValue;
import io.apiserver4j.core.Value;
import java.net.URI;
import java.net.URISyntaxException;
import java.util.ArrayList;
import java.util.HashSet;
import java.util.List;
import java.util.Optional;
import java.util.Set;
import io.apiserver4j.apimachinery.validation.MetaValidation;

/**
 * The registry rules of admissionregistration.k8s.io/v1 Validating/MutatingWebhookConfigurations:
 * kube's defaults ({@code SetDefaults_ValidatingWebhook}, {@code _MutatingWebhook},
 * {@code _Rule}, {@code _ServiceReference}) and validation
 * ({@code ValidateValidatingWebhookConfiguration} and its update form) with kube's field paths
 * and messages: names, rules, failure and match policies, side effects (only None and
 * NoneOnDryRun in v1, unless the stored object already had others), timeouts, client configs,
 * selectors, AdmissionReview versions, reinvocation policies and match conditions (compiled).
 * Match conditions using {@code authorizer} do not compile here (no authorizer library).
 * Stateless and thread-safe.
 */
public final class WebhookConfigurationRules {
  private static final List<String> FAILURE_POLICIES = List.of("Fail", "Ignore");
  private static final List<String> MATCH_POLICIES = List.of("Equivalent", "Exact");
  private static final List<String> NO_SIDE_EFFECTS = List.of("None", "NoneOnDryRun");
  private static final List<String> SIDE_EFFECTS =
      List.of("None", "NoneOnDryRun", "Some", "Unknown");
  private static final List<String> OPERATIONS =
      List.of("*", "CONNECT", "CREATE", "DELETE", "UPDATE");
  private static final List<String> SCOPES = List.of("*", "Cluster", "Namespaced");
  private static final List<String> REINVOCATION = List.of("IfNeeded", "Never");
  private static final List<String> REVIEW_VERSIONS = List.of("v1", "v1beta1");
  private static final List<String> CONDITION_VARIABLES =
      List.of("object", "oldObject", "request", "authorizer");

  private WebhookConfigurationRules() {}

  /** kube's v1 defaults of every webhook of a configuration ({@code mutating} or validating). */
  public static MapValue defaults(MapValue configuration, boolean mutating) {
    return Nested.updateListItems(configuration, w -> {
      MapValue d = Nested.setDefault(w, Value.of("Fail"), "failurePolicy");
      d = Nested.setDefault(d, Value.of("Equivalent"), "matchPolicy");
      d = Nested.setDefault(d, MapValue.empty(), "namespaceSelector");
      d = Nested.setDefault(d, MapValue.empty(), "objectSelector");
      d = Nested.setDefault(d, Value.of(10), "timeoutSeconds");
      if (mutating) {
        d = Nested.setDefault(d, Value.of("Never"), "reinvocationPolicy");
      }
      d = Nested.updateListItems(d, r -> Nested.setDefault(r, Value.of("*"), "scope"), "rules");
      if (Nested.mapOrNull(d, "clientConfig", "service") != null) {
        d = Nested.setDefault(d, Value.of(443), "clientConfig", "service", "port");
      }
      return d;
    }, "webhooks");
  }

  /**
   * kube's {@code ValidateMutatingWebhookConfiguration} or
   * {@code ValidateValidatingWebhookConfiguration}, and their update forms when {@code old} is
   * present: the errors in kube's order, empty when valid.
   */
  public static List<FieldError> validate(MapValue configuration, Optional<MapValue> old,
      boolean mutating) {
    List<Value> oldHooks = old.map(o -> Nested.list(o, "webhooks")).orElse(List.of());
    // kube relaxes on update what the stored object already violated
    boolean requireNoSideEffects = old.isEmpty() || oldHooks.stream().allMatch(
        h -> NO_SIDE_EFFECTS.contains(Nested.str(h, "sideEffects")));
    boolean requireKnownVersion = old.isEmpty() || oldHooks.stream().allMatch(h -> {
      List<String> v = Meta.stringList(Nested.getOrNull(h, "admissionReviewVersions"));
      return v.isEmpty() || v.stream().anyMatch(REVIEW_VERSIONS::contains);
    });
    Set<String> oldNames = new HashSet<>();
    boolean requireUniqueNames = true;
    for (Value h : oldHooks) {
      requireUniqueNames &= oldNames.add(Nested.str(h, "name"));
    }
    boolean conditionsUnchanged = old.isPresent() && sameConditions(
        Nested.list(configuration, "webhooks"), oldHooks);

    List<FieldError> errs = new ArrayList<>();
    Set<String> names = new HashSet<>();
    List<Value> hooks = Nested.list(configuration, "webhooks");
    for (int i = 0; i < hooks.size(); i++) {
      Value h = hooks.get(i);
      String path = "webhooks[" + i + "]";
      validateWebhook(h, path, mutating, requireNoSideEffects, !conditionsUnchanged, errs);
      validateReviewVersions(h, path + ".admissionReviewVersions", requireKnownVersion, errs);
      String name = Nested.str(h, "name");
      if (requireUniqueNames && !name.isEmpty() && !names.add(name)) {
        errs.add(FieldError.duplicate(path + ".name", Value.of(name)));
      }
    }
    return errs;
  }

  private static boolean sameConditions(List<Value> hooks, List<Value> oldHooks) {
    if (hooks.size() != oldHooks.size()) {
      return false;
    }
    for (int i = 0; i < hooks.size(); i++) {
      if (!java.util.Objects.equals(Nested.getOrNull(hooks.get(i), "matchConditions"),
          Nested.getOrNull(oldHooks.get(i), "matchConditions"))) {
        return false;
      }
    }
    return true;
  }

  private static void validateWebhook(Value h, String path, boolean mutating,
      boolean requireNoSideEffects, boolean checkConditions, List<FieldError> errs) {
    fullyQualifiedName(Nested.str(h, "name"), path + ".name", errs);
    List<Value> rules = Nested.list(h, "rules");
    for (int i = 0; i < rules.size(); i++) {
      validateRule(rules.get(i), path + ".rules[" + i + "]", errs);
    }
    oneOf(h, "failurePolicy", path, FAILURE_POLICIES, errs);
    oneOf(h, "matchPolicy", path, MATCH_POLICIES, errs);
    List<String> allowed = requireNoSideEffects ? NO_SIDE_EFFECTS : SIDE_EFFECTS;
    Value sideEffects = Nested.getOrNull(h, "sideEffects");
    if (sideEffects == null || sideEffects.isNull()) {
      errs.add(FieldError.required(path + ".sideEffects",
          "must specify one of " + String.join(", ", allowed)));
    } else if (!(sideEffects instanceof StringValue s) || !allowed.contains(s.value())) {
      errs.add(FieldError.notSupported(path + ".sideEffects", sideEffects, allowed));
    }
    Value timeout = Nested.getOrNull(h, "timeoutSeconds");
    if (timeout instanceof IntegerValue t && (t.value() > 30 || t.value() < 1)) {
      errs.add(FieldError.invalid(path + ".timeoutSeconds", timeout,
          "the timeout value must be between 1 and 30 seconds"));
    }
    selector(Nested.getOrNull(h, "namespaceSelector"), path + ".namespaceSelector", errs);
    selector(Nested.getOrNull(h, "objectSelector"), path + ".objectSelector", errs);
    if (mutating) {
      oneOf(h, "reinvocationPolicy", path, REINVOCATION, errs);
    }
    clientConfig(Nested.getOrNull(h, "clientConfig"), path + ".clientConfig", errs);
    if (checkConditions) {
      matchConditions(Nested.list(h, "matchConditions"), path + ".matchConditions", errs);
    }
  }

  private static void oneOf(Value h, String field, String path, List<String> supported,
      List<FieldError> errs) {
    Value v = Nested.getOrNull(h, field);
    if (v != null && !v.isNull()
        && !(v instanceof StringValue s && supported.contains(s.value()))) {
      errs.add(FieldError.notSupported(path + "." + field, v, supported));
    }
  }

  private static void fullyQualifiedName(String name, String field, List<FieldError> errs) {
    if (name.isEmpty()) {
      errs.add(FieldError.required(field, ""));
      return;
    }
    List<String> dns = MetaValidation.dns1123Subdomain(name);
    if (!dns.isEmpty()) {
      errs.add(FieldError.invalid(field, Value.of(name), String.join(",", dns)));
    } else if (name.split("\\.", -1).length < 3) {
      errs.add(FieldError.invalid(field, Value.of(name),
          "should be a domain with at least three segments separated by dots"));
    }
  }

  private static void validateRule(Value rule, String path, List<FieldError> errs) {
    List<String> ops = Meta.stringList(Nested.getOrNull(rule, "operations"));
    if (ops.isEmpty()) {
      errs.add(FieldError.required(path + ".operations", ""));
    }
    if (ops.size() > 1 && ops.contains("*")) {
      errs.add(FieldError.invalid(path + ".operations", strings(ops),
          "if '*' is present, must not specify other operations"));
    }
    for (int i = 0; i < ops.size(); i++) {
      if (!OPERATIONS.contains(ops.get(i))) {
        errs.add(FieldError.notSupported(path + ".operations[" + i + "]",
            Value.of(ops.get(i)), OPERATIONS));
      }
    }
    List<String> groups = Meta.stringList(Nested.getOrNull(rule, "apiGroups"));
    if (groups.isEmpty()) {
      errs.add(FieldError.required(path + ".apiGroups", ""));
    }
    if (groups.size() > 1 && groups.contains("*")) {
      errs.add(FieldError.invalid(path + ".apiGroups", strings(groups),
          "if '*' is present, must not specify other API groups"));
    }
    List<String> versions = Meta.stringList(Nested.getOrNull(rule, "apiVersions"));
    if (versions.isEmpty()) {
      errs.add(FieldError.required(path + ".apiVersions", ""));
    }
    if (versions.size() > 1 && versions.contains("*")) {
      errs.add(FieldError.invalid(path + ".apiVersions", strings(versions),
          "if '*' is present, must not specify other API versions"));
    }
    for (int i = 0; i < versions.size(); i++) {
      if (versions.get(i).isEmpty()) {
        errs.add(FieldError.required(path + ".apiVersions[" + i + "]", ""));
      }
    }
    resources(Meta.stringList(Nested.getOrNull(rule, "resources")), path + ".resources", errs);
    Value scope = Nested.getOrNull(rule, "scope");
    if (scope != null && !scope.isNull()
        && !(scope instanceof StringValue s && SCOPES.contains(s.value()))) {
      errs.add(FieldError.notSupported(path + ".scope", scope, SCOPES));
    }
  }

  private static void resources(List<String> resources, String path, List<FieldError> errs) {
    if (resources.isEmpty()) {
      errs.add(FieldError.required(path, ""));
    }
    Set<String> withWildcardSub = new HashSet<>();
    Set<String> subWithWildcardRes = new HashSet<>();
    boolean doubleWildcard = false;
    boolean singleWildcard = false;
    boolean withoutSub = false;
    for (int i = 0; i < resources.size(); i++) {
      String r = resources.get(i);
      if (r.isEmpty()) {
        errs.add(FieldError.required(path + "[" + i + "]", ""));
        continue;
      }
      doubleWildcard |= r.equals("*/*");
      singleWildcard |= r.equals("*");
      int slash = r.indexOf('/');
      if (slash < 0) {
        // as kube: only the last entry without a subresource counts
        withoutSub = !r.equals("*");
        continue;
      }
      String res = r.substring(0, slash);
      String sub = r.substring(slash + 1);
      if (withWildcardSub.contains(res)) {
        errs.add(FieldError.invalid(path + "[" + i + "]", Value.of(r),
            "if '" + res + "/*' is present, must not specify " + r));
      }
      if (subWithWildcardRes.contains(sub)) {
        errs.add(FieldError.invalid(path + "[" + i + "]", Value.of(r),
            "if '*/" + sub + "' is present, must not specify " + r));
      }
      if (sub.equals("*")) {
        withWildcardSub.add(res);
      }
      if (res.equals("*")) {
        subWithWildcardRes.add(sub);
      }
    }
    if (resources.size() > 1 && doubleWildcard) {
      errs.add(FieldError.invalid(path, strings(resources),
          "if '*/*' is present, must not specify other resources"));
    }
    if (singleWildcard && withoutSub) {
      errs.add(FieldError.invalid(path, strings(resources),
          "if '*' is present, must not specify other resources without subresources"));
    }
  }

  private static void selector(Value selector, String path, List<FieldError> errs) {
    if (!(selector instanceof MapValue)) {
      return;
    }
    MapValue labels = Nested.map(selector, "matchLabels");
    for (int i = 0; i < labels.size(); i++) {
      for (String msg : MetaValidation.qualifiedName(labels.keyAt(i))) {
        errs.add(FieldError.invalid(path + ".matchLabels", Value.of(labels.keyAt(i)), msg));
      }
      String v = labels.valueAt(i) instanceof StringValue s ? s.value() : "";
      for (String msg : MetaValidation.labelValue(v)) {
        errs.add(FieldError.invalid(path + ".matchLabels", Value.of(v), msg));
      }
    }
    List<Value> exprs = Nested.list(selector, "matchExpressions");
    for (int i = 0; i < exprs.size(); i++) {
      Value e = exprs.get(i);
      String p = path + ".matchExpressions[" + i + "]";
      String op = Nested.str(e, "operator");
      List<String> values = Meta.stringList(Nested.getOrNull(e, "values"));
      switch (op) {
        case "In":
        case "NotIn":
          if (values.isEmpty()) {
            errs.add(FieldError.required(p + ".values",
                "must be specified when `operator` is 'In' or 'NotIn'"));
          }
          break;
        case "Exists":
        case "DoesNotExist":
          if (!values.isEmpty()) {
            errs.add(FieldError.forbidden(p + ".values",
                "may not be specified when `operator` is 'Exists' or 'DoesNotExist'"));
          }
          break;
        default:
          errs.add(FieldError.invalid(p + ".operator", Value.of(op),
              "not a valid selector operator"));
      }
      for (String msg : MetaValidation.qualifiedName(Nested.str(e, "key"))) {
        errs.add(FieldError.invalid(p + ".key", Value.of(Nested.str(e, "key")), msg));
      }
    }
  }

  private static void clientConfig(Value cc, String path, List<FieldError> errs) {
    Value url = Nested.getOrNull(cc, "url");
    Value service = Nested.getOrNull(cc, "service");
    boolean hasUrl = url != null && !url.isNull();
    boolean hasService = service != null && !service.isNull();
    if (hasUrl == hasService) {
      errs.add(FieldError.required(path, "exactly one of url or service is required"));
      return;
    }
    if (hasUrl) {
      webhookUrl(url instanceof StringValue s ? s.value() : "", path + ".url", errs);
      return;
    }
    String sp = path + ".service";
    if (Nested.str(service, "name").isEmpty()) {
      errs.add(FieldError.required(sp + ".name", ""));
    }
    if (Nested.str(service, "namespace").isEmpty()) {
      errs.add(FieldError.required(sp + ".namespace", ""));
    }
    Value port = Nested.getOrNull(service, "port");
    if (port instanceof IntegerValue p && (p.value() < 1 || p.value() > 65535)) {
      errs.add(FieldError.invalid(sp + ".port", port,
          "port is not valid: must be between 1 and 65535, inclusive"));
    }
  }

  /** kube's {@code ValidateWebhookURL} with https forced. */
  private static void webhookUrl(String url, String field, List<FieldError> errs) {
    final String form = "; desired format: https://host[/path]";
    URI u;
    try {
      u = new URI(url);
    } catch (URISyntaxException e) {
      errs.add(FieldError.required(field, "url must be a valid URL: " + e.getMessage() + form));
      return;
    }
    String scheme = u.getScheme() == null ? "" : u.getScheme();
    if (!scheme.equals("https")) {
      errs.add(FieldError.invalid(field, Value.of(scheme),
          "'https' is the only allowed URL scheme" + form));
    }
    String host = u.getRawAuthority() == null ? "" : u.getRawAuthority();
    int at = host.lastIndexOf('@');
    if (at >= 0) {
      host = host.substring(at + 1);
    }
    if (host.isEmpty()) {
      errs.add(FieldError.invalid(field, Value.of(host), "host must be specified" + form));
    }
    if (u.getRawUserInfo() != null) {
      errs.add(FieldError.invalid(field, Value.of(u.getRawUserInfo()),
          "user information is not permitted in the URL"));
    }
    if (u.getRawFragment() != null && !u.getRawFragment().isEmpty()) {
      errs.add(FieldError.invalid(field, Value.of(u.getRawFragment()),
          "fragments are not permitted in the URL"));
    }
    if (u.getRawQuery() != null && !u.getRawQuery().isEmpty()) {
      errs.add(FieldError.invalid(field, Value.of(u.getRawQuery()),
          "query parameters are not permitted in the URL"));
    }
  }

  private static void validateReviewVersions(Value h, String path, boolean requireKnown,
      List<FieldError> errs) {
    List<String> versions = Meta.stringList(Nested.getOrNull(h, "admissionReviewVersions"));
    if (versions.isEmpty()) {
      errs.add(FieldError.required(path, "must specify one of v1, v1beta1"));
      return;
    }
    Set<String> seen = new HashSet<>();
    boolean known = false;
    for (int i = 0; i < versions.size(); i++) {
      String v = versions.get(i);
      if (!seen.add(v)) {
        errs.add(FieldError.invalid(path + "[" + i + "]", Value.of(v), "duplicate version"));
        continue;
      }
      for (String msg : MetaValidation.dns1035Label(v)) {
        errs.add(FieldError.invalid(path + "[" + i + "]", Value.of(v), msg));
      }
      known |= REVIEW_VERSIONS.contains(v);
    }
    if (requireKnown && !known) {
      errs.add(FieldError.invalid(path, strings(versions),
          "must include at least one of v1, v1beta1"));
    }
  }

  private static void matchConditions(List<Value> conditions, String path,
      List<FieldError> errs) {
    if (conditions.size() > 64) {
      errs.add(FieldError.invalidOmitValue(path,
          "Too many: " + conditions.size() + ": must have at most 64 items"));
    }
    Set<String> names = new HashSet<>();
    for (int i = 0; i < conditions.size(); i++) {
      Value c = conditions.get(i);
      String p = path + "[" + i + "]";
      String expression = Nested.str(c, "expression").strip();
      if (expression.isEmpty()) {
        errs.add(FieldError.required(p + ".expression", ""));
      } else {
        try {
          CelProgram.compile(expression, CONDITION_VARIABLES);
        } catch (CelException e) {
          errs.add(FieldError.invalid(p + ".expression", Value.of(expression),
              "compilation failed: " + e.getMessage()));
        }
      }
      String name = Nested.str(c, "name");
      if (name.isEmpty()) {
        errs.add(FieldError.required(p + ".name", ""));
      } else {
        for (String msg : MetaValidation.qualifiedName(name)) {
          errs.add(FieldError.invalid(p + ".name", Value.of(name), msg));
        }
        if (!names.add(name)) {
          errs.add(FieldError.duplicate(p + ".name", Value.of(name)));
        }
      }
    }
  }

  private static Value strings(List<String> items) {
    return ListValue.of(items.stream().map(Value::of).toList());
  }
}
