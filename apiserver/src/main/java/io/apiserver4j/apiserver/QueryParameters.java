/*
 * Copyright The apiserver4j authors.
 * SPDX-License-Identifier: Apache-2.0
 */
package io.apiserver4j.apiserver;

import io.apiserver4j.apiserver.ApiRequest.Verb;
import io.apiserver4j.core.BooleanValue;
import io.apiserver4j.core.errors.FieldError;
import io.apiserver4j.core.GoStrings;
import io.apiserver4j.core.GroupKind;
import io.apiserver4j.core.IntegerValue;
import io.apiserver4j.core.ListValue;
import io.apiserver4j.core.MapValue;
import io.apiserver4j.core.errors.StatusErrors;
import io.apiserver4j.core.StringValue;
import io.apiserver4j.core.Value;
import io.apiserver4j.dryrun.OptionsKind;
import io.apiserver4j.core.fields.FieldSelector;
import io.apiserver4j.core.labels.LabelSelector;
import io.apiserver4j.storage.ResourceVersionMatch;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.Optional;

/**
 * Turns the query parameters of a REST call (and the body of a delete) into the typed options of
 * an {@link ApiRequest}, as kube-apiserver's parameter codec does: booleans are false only for
 * {@code 0} and {@code false} (any case), integers must parse, and invalid values are rejected
 * with kube's texts — a 400 for what does not parse, one 422 naming the options kind
 * ({@code CreateOptions}, {@code PatchOptions}, ...) for every unsupported value. This is the
 * only place where option strings are read.
 */
public final class QueryParameters {
  private static final GroupKind LIST_OPTIONS = new GroupKind("meta.k8s.io", "ListOptions");

  private QueryParameters() {}

  /**
   * Sets the options of {@code b} (a request with {@code verb}) from {@code query}.
   *
   * @throws io.apiserver4j.core.errors.StatusException 400 or 422 with kube-apiserver's text
   */
  public static ApiRequest.Builder apply(ApiRequest.Builder b, Verb verb,
      Map<String, List<String>> query) {
    List<FieldError> invalid = new ArrayList<>();
    if (verb.isWrite()) {
      List<String> dry = query.getOrDefault("dryRun", List.of());
      invalid.addAll(io.apiserver4j.dryrun.DryRun.validate(dry));
      if (invalid.isEmpty()) {
        b.dryRun(dry.isEmpty() ? DryRun.NONE : DryRun.ALL);
      }
    }
    first(query, "fieldManager").ifPresent(b::fieldManager);
    first(query, "force").ifPresent(v -> b.force(bool(v)));
    first(query, "fieldValidation").ifPresent(v -> {
      Optional<FieldValidation> fv = FieldValidation.fromWireName(v);
      if (fv.isPresent()) {
        b.fieldValidation(fv.get());
      } else {
        invalid.add(FieldError.notSupported("fieldValidation", Value.of(v),
            List.of("", "Ignore", "Strict", "Warn")));
      }
    });
    first(query, "propagationPolicy").ifPresent(v -> propagationPolicy(v, invalid)
        .ifPresent(b::propagationPolicy));
    if (!invalid.isEmpty()) {
      throw StatusErrors.invalid(optionsKind(verb).groupKind(), "", invalid);
    }
    first(query, "resourceVersion").ifPresent(b::resourceVersion);
    first(query, "resourceVersionMatch").filter(v -> !v.isEmpty()).ifPresent(v ->
        b.resourceVersionMatch(resourceVersionMatch(v)));
    first(query, "labelSelector").ifPresent(v -> b.labelSelector(LabelSelector.parse(v)));
    first(query, "fieldSelector").ifPresent(v -> b.fieldSelector(FieldSelector.parse(v)));
    first(query, "continue").ifPresent(b::continueToken);
    // kube treats a negative limit as no limit
    first(query, "limit").ifPresent(v -> b.limit(Math.max(0, int64(v))));
    first(query, "gracePeriodSeconds").ifPresent(v -> b.gracePeriodSeconds(int64(v)));
    first(query, "orphanDependents").ifPresent(v -> b.orphanDependents(bool(v)));
    first(query, "allowWatchBookmarks").ifPresent(v -> b.allowWatchBookmarks(bool(v)));
    first(query, "sendInitialEvents").ifPresent(v -> b.sendInitialEvents(bool(v)));
    return b;
  }

  /**
   * Sets the options a {@code DeleteOptions} body gives; its fields take precedence over the
   * query's, as kube decodes the body over the query's values.
   *
   * @throws io.apiserver4j.core.errors.StatusException 400 for a body that is no DeleteOptions, 422 for
   *     unsupported values
   */
  public static ApiRequest.Builder applyDeleteOptions(ApiRequest.Builder b, Value body) {
    if (body.isNull()) {
      return b;
    }
    if (!(body instanceof MapValue m)) {
      throw StatusErrors.badRequest("decoded object cannot be converted to DeleteOptions");
    }
    Value kind = m.getOrNull("kind");
    if (kind instanceof StringValue k && !k.value().isEmpty()
        && !k.value().equals("DeleteOptions")) {
      throw StatusErrors.badRequest("decoded object cannot be converted to DeleteOptions");
    }
    List<FieldError> invalid = new ArrayList<>();
    if (m.getOrNull("dryRun") instanceof ListValue l) {
      List<String> values = new ArrayList<>();
      for (Value x : l.items()) {
        values.add(x instanceof StringValue s ? s.value() : io.apiserver4j.core.Json.write(x));
      }
      invalid.addAll(io.apiserver4j.dryrun.DryRun.validate(values));
      b.dryRun(values.isEmpty() ? DryRun.NONE : DryRun.ALL);
    }
    if (m.getOrNull("propagationPolicy") instanceof StringValue s) {
      propagationPolicy(s.value(), invalid).ifPresent(b::propagationPolicy);
    }
    if (!invalid.isEmpty()) {
      throw StatusErrors.invalid(OptionsKind.DELETE_OPTIONS.groupKind(), "", invalid);
    }
    if (m.getOrNull("gracePeriodSeconds") instanceof IntegerValue i) {
      b.gracePeriodSeconds(i.value());
    }
    if (m.getOrNull("orphanDependents") instanceof BooleanValue o) {
      b.orphanDependents(o.value());
    }
    if (m.getOrNull("preconditions") instanceof MapValue p) {
      if (p.getOrNull("uid") instanceof StringValue u) {
        b.preconditionUid(u.value());
      }
      if (p.getOrNull("resourceVersion") instanceof StringValue rv) {
        b.preconditionResourceVersion(rv.value());
      }
    }
    return b;
  }

  /** A boolean query value as kube's parameter codec reads it: false only for 0 and false. */
  public static boolean bool(String value) {
    return !(value.equals("0") || value.equalsIgnoreCase("false"));
  }

  /** The options kind whose validation names a request's verb. */
  static OptionsKind optionsKind(Verb verb) {
    switch (verb) {
      case CREATE:
        return OptionsKind.CREATE_OPTIONS;
      case UPDATE:
        return OptionsKind.UPDATE_OPTIONS;
      case PATCH:
        return OptionsKind.PATCH_OPTIONS;
      default:
        return OptionsKind.DELETE_OPTIONS;
    }
  }

  private static Optional<String> first(Map<String, List<String>> query, String name) {
    List<String> values = query.get(name);
    return values == null || values.isEmpty() ? Optional.empty() : Optional.of(values.get(0));
  }

  private static long int64(String v) {
    try {
      return Long.parseLong(v);
    } catch (NumberFormatException e) {
      throw StatusErrors.badRequest("strconv.ParseInt: parsing " + GoStrings.quote(v)
          + ": invalid syntax");
    }
  }

  private static Optional<PropagationPolicy> propagationPolicy(String v,
      List<FieldError> invalid) {
    for (PropagationPolicy p : PropagationPolicy.values()) {
      if (p.wireName().equals(v)) {
        return Optional.of(p);
      }
    }
    invalid.add(FieldError.notSupported("propagationPolicy", Value.of(v),
        List.of("Foreground", "Background", "Orphan", "nil")));
    return Optional.empty();
  }

  private static ResourceVersionMatch resourceVersionMatch(String v) {
    switch (v) {
      case "Exact":
        return ResourceVersionMatch.EXACT;
      case "NotOlderThan":
        return ResourceVersionMatch.NOT_OLDER_THAN;
      default:
        throw StatusErrors.invalid(LIST_OPTIONS, "", List.of(FieldError.notSupported(
            "resourceVersionMatch", Value.of(v), List.of("Exact", "NotOlderThan", ""))));
    }
  }
}
