/*
 * Copyright The apiserver4j authors.
 * SPDX-License-Identifier: Apache-2.0
 */
package io.apiserver4j.apiextensions;

import io.apiserver4j.apimachinery.validation.MetaValidation;
import io.apiserver4j.core.BooleanValue;
import io.apiserver4j.core.errors.FieldError;
import io.apiserver4j.core.ListValue;
import io.apiserver4j.core.MapValue;
import io.apiserver4j.core.Meta;
import io.apiserver4j.core.Nested;
import io.apiserver4j.core.StringValue;
import io.apiserver4j.core.Value;
import java.util.ArrayList;
import java.util.List;
import java.util.Optional;

/**
 * kube's validation of CustomResourceDefinition objects ({@code ValidateCustomResourceDefinition}
 * and {@code ValidateCustomResourceDefinitionUpdate} in apiextensions-apiserver): names, group,
 * scope, versions and their schemas (through {@link CrdValidator}), conversion and deprecation
 * warnings, and kube's version ordering.
 */
public final class CustomResourceDefinitionValidation {
  private CustomResourceDefinitionValidation() {}

  static String str(MapValue m, String... path) {
    return Nested.getOrNull(m, path) instanceof StringValue s ? s.value() : "";
  }

  private static boolean bool(MapValue m, String... path) {
    return Nested.getOrNull(m, path) instanceof BooleanValue b && b.value();
  }

  /**
   * The essential checks of kube's CRD validation, for a create.
   *
   * @param crd the CustomResourceDefinition object
   * @return the field errors, as kube reports them; empty when valid
   */
  public static List<FieldError> validate(MapValue crd) {
    return validate(crd, java.util.Optional.empty());
  }

  /**
   * The same for a create ({@code old} empty) or an update of {@code old}.
   *
   * @param crd the new CustomResourceDefinition
   * @param old the stored one on updates
   * @return the field errors, as kube reports them; empty when valid
   */
  public static List<FieldError> validate(MapValue crd, java.util.Optional<MapValue> old) {
    List<FieldError> errs = new ArrayList<>();
    String group = str(crd, "spec", "group");
    String plural = str(crd, "spec", "names", "plural");
    String kind = str(crd, "spec", "names", "kind");
    String name = Meta.metaString(crd, "name");
    if (!name.equals(plural + "." + group)) {
      errs.add(FieldError.invalid("metadata.name", Value.of(name),
          "must be spec.names.plural+\".\"+spec.group"));
    }
    if (group.isEmpty()) {
      errs.add(FieldError.required("spec.group", ""));
    } else {
      for (String msg : MetaValidation.dns1123Subdomain(group)) {
        errs.add(FieldError.invalid("spec.group", Value.of(group), msg));
      }
      if (!group.contains(".")) {
        errs.add(FieldError.invalid("spec.group", Value.of(group),
            "should be a domain with at least one dot"));
      }
    }
    String scope = str(crd, "spec", "scope");
    if (!scope.equals("Cluster") && !scope.equals("Namespaced")) {
      errs.add(FieldError.notSupported("spec.scope", Value.of(scope),
          List.of("Cluster", "Namespaced")));
    }
    if (plural.isEmpty()) {
      errs.add(FieldError.required("spec.names.plural", ""));
    }
    if (kind.isEmpty()) {
      errs.add(FieldError.required("spec.names.kind", ""));
    }
    errs.addAll(names(Nested.mapOrNull(crd, "spec", "names"), "spec.names"));
    errs.addAll(names(Nested.mapOrNull(crd, "status", "acceptedNames"), "status.acceptedNames"));
    Value versions = Nested.getOrNull(crd, "spec", "versions");
    int storage = 0;
    if (versions instanceof ListValue l && !l.isEmpty()) {
      java.util.Set<String> seen = new java.util.HashSet<>();
      for (int i = 0; i < l.size(); i++) {
        MapValue v = l.get(i) instanceof MapValue m ? m : MapValue.empty();
        String vname = str(v, "name");
        String at = "spec.versions[" + i + "]";
        if (vname.isEmpty()) {
          errs.add(FieldError.required(at + ".name", ""));
        } else {
          for (String msg : MetaValidation.dns1035Label(vname)) {
            errs.add(FieldError.invalid(at + ".name", Value.of(vname), msg));
          }
          if (!seen.add(vname)) {
            errs.add(FieldError.invalid("spec.versions", l, "must contain unique version names"));
          }
        }
        if (bool(v, "storage")) {
          storage++;
        }
        if (v.getOrNull("deprecationWarning") instanceof StringValue w) {
          for (String msg : deprecationWarningErrors(bool(v, "deprecated"), w.value())) {
            errs.add(FieldError.invalid(at + ".deprecationWarning", w, msg));
          }
        }
        // kube's internal form holds the subresources all versions share once, in spec
        boolean shared = sameSubresources(l);
        if ((!shared || i == 0)
            && Nested.getOrNull(v, "subresources", "scale") instanceof MapValue s) {
          scale(s, (shared ? "spec" : at) + ".subresources.scale", errs);
        }
      }
    } else {
      errs.add(FieldError.invalid("spec.versions", versions == null ? Value.nullValue() : versions,
          "must have exactly one version marked as storage version"));
      return errs;
    }
    if (storage != 1) {
      errs.add(FieldError.invalid("spec.versions", versions,
          "must have exactly one version marked as storage version"));
    }
    conversion(Nested.mapOrNull(crd, "spec", "conversion"), errs);
    errs.addAll(old.isPresent() ? CrdValidator.validateDefinitionUpdate(crd, old.get())
        : CrdValidator.validateDefinition(crd));
    return errs;
  }

  /**
   * kube's checks of a version's scale subresource
   * ({@code ValidateCustomResourceDefinitionSubresources}):
   * the replicas paths are required simple JSON paths under {@code .spec.} and {@code .status.},
   * the label selector path, if any, under either.
   */
  private static void scale(MapValue scale, String at, List<FieldError> errs) {
    String spec = str(scale, "specReplicasPath");
    if (spec.isEmpty()) {
      errs.add(FieldError.required(at + ".specReplicasPath", ""));
    } else if (!simpleJsonPath(spec, at + ".specReplicasPath", errs)
        && !spec.startsWith(".spec.")) {
      errs.add(FieldError.invalid(at + ".specReplicasPath", Value.of(spec),
          "should be a json path under .spec"));
    }
    String status = str(scale, "statusReplicasPath");
    if (status.isEmpty()) {
      errs.add(FieldError.required(at + ".statusReplicasPath", ""));
    } else if (!simpleJsonPath(status, at + ".statusReplicasPath", errs)
        && !status.startsWith(".status.")) {
      errs.add(FieldError.invalid(at + ".statusReplicasPath", Value.of(status),
          "should be a json path under .status"));
    }
    String selector = str(scale, "labelSelectorPath");
    if (!selector.isEmpty() && !simpleJsonPath(selector, at + ".labelSelectorPath", errs)
        && !selector.startsWith(".spec.") && !selector.startsWith(".status.")) {
      errs.add(FieldError.invalid(at + ".labelSelectorPath", Value.of(selector),
          "should be a json path under either .spec or .status"));
    }
  }

  // as kube's v1 to internal conversion decides whether spec.subresources holds them
  private static boolean sameSubresources(ListValue versions) {
    Value first = versions.get(0) instanceof MapValue m ? m.getOrNull("subresources") : null;
    for (Value v : versions.items()) {
      Value sub = v instanceof MapValue m ? m.getOrNull("subresources") : null;
      if (!java.util.Objects.equals(first, sub)) {
        return false;
      }
    }
    return true;
  }

  // kube's validateSimpleJSONPath: true when it reported an error
  private static boolean simpleJsonPath(String path, String at, List<FieldError> errs) {
    if (path.charAt(0) != '.') {
      errs.add(FieldError.invalid(at, Value.of(path),
          "must be a simple json path starting with ."));
      return true;
    }
    return false;
  }

  /**
   * kube's {@code ValidateCustomResourceDefinitionNames}: plural, singular, short names and
   * categories are DNS-1035 labels; kind and listKind may have mixed case but, lower-cased, are
   * DNS-1035 labels too (so an all lower-case kind is valid), and they differ.
   *
   * @param names a CRD's {@code spec.names} or {@code status.acceptedNames}; null for none
   * @param at the path of {@code names}
   * @return the field errors, in kube's order; empty when valid
   */
  public static List<FieldError> names(MapValue names, String at) {
    List<FieldError> errs = new ArrayList<>();
    if (names == null) {
      return errs;
    }
    for (String field : List.of("plural", "singular")) {
      String v = str(names, field);
      List<String> msgs = MetaValidation.dns1035Label(v);
      if (!v.isEmpty() && !msgs.isEmpty()) {
        errs.add(FieldError.invalid(at + "." + field, Value.of(v), String.join(",", msgs)));
      }
    }
    for (String field : List.of("kind", "listKind")) {
      String v = str(names, field);
      List<String> msgs = MetaValidation.dns1035Label(v.toLowerCase(java.util.Locale.ROOT));
      if (!v.isEmpty() && !msgs.isEmpty()) {
        errs.add(FieldError.invalid(at + "." + field, Value.of(v),
            "may have mixed case, but should otherwise match: " + String.join(",", msgs)));
      }
    }
    labels(names, "shortNames", at, errs);
    String kind = str(names, "kind");
    if (!kind.isEmpty() && kind.equals(str(names, "listKind"))) {
      errs.add(FieldError.invalid(at + ".listKind", Value.of(kind),
          "kind and listKind may not be the same"));
    }
    labels(names, "categories", at, errs);
    return errs;
  }

  private static void labels(MapValue names, String field, String at, List<FieldError> errs) {
    List<String> values = Meta.stringList(names.getOrNull(field));
    for (int i = 0; i < values.size(); i++) {
      List<String> msgs = MetaValidation.dns1035Label(values.get(i));
      if (!msgs.isEmpty()) {
        errs.add(FieldError.invalid(at + "." + field + "[" + i + "]", Value.of(values.get(i)),
            String.join(",", msgs)));
      }
    }
  }

  /**
   * kube's checks of {@code spec.conversion}, with its paths (those of the internal type:
   * {@code webhookClientConfig}, {@code conversionReviewVersions}).
   */
  private static void conversion(MapValue conversion, List<FieldError> errs) {
    if (conversion == null) {
      return;
    }
    String strategy = str(conversion, "strategy");
    if (strategy.isEmpty()) {
      errs.add(FieldError.required("spec.conversion.strategy", ""));
    } else if (!strategy.equals("None") && !strategy.equals("Webhook")) {
      errs.add(FieldError.notSupported("spec.conversion.strategy", Value.of(strategy),
          List.of("None", "Webhook")));
    }
    MapValue clientConfig = Nested.mapOrNull(conversion, "webhook", "clientConfig");
    List<String> reviews = Meta.stringList(
        Nested.getOrNull(conversion, "webhook", "conversionReviewVersions"));
    if (!strategy.equals("Webhook")) {
      if (clientConfig != null) {
        errs.add(FieldError.forbidden("spec.conversion.webhookClientConfig",
            "should not be set when strategy is not set to Webhook"));
      }
      if (!reviews.isEmpty()) {
        errs.add(FieldError.forbidden("spec.conversion.conversionReviewVersions",
            "should not be set when strategy is not set to Webhook"));
      }
      return;
    }
    if (clientConfig == null) {
      errs.add(FieldError.required("spec.conversion.webhookClientConfig",
          "required when strategy is set to Webhook"));
    } else if (Nested.has(clientConfig, "url") == Nested.has(clientConfig, "service")) {
      errs.add(FieldError.required("spec.conversion.webhookClientConfig",
          "exactly one of url or service is required"));
    }
    String at = "spec.conversion.conversionReviewVersions";
    if (reviews.isEmpty()) {
      errs.add(FieldError.required(at, ""));
    }
    java.util.Set<String> seen = new java.util.HashSet<>();
    for (int i = 0; i < reviews.size(); i++) {
      String v = reviews.get(i);
      if (!seen.add(v)) {
        errs.add(FieldError.invalid(at + "[" + i + "]", Value.of(v), "duplicate version"));
        continue;
      }
      for (String msg : MetaValidation.dns1035Label(v)) {
        errs.add(FieldError.invalid(at + "[" + i + "]", Value.of(v), msg));
      }
    }
    if (!reviews.isEmpty() && !reviews.contains("v1") && !reviews.contains("v1beta1")) {
      errs.add(FieldError.invalid(at, ListValue.ofStrings(reviews),
          "must include at least one of v1, v1beta1"));
    }
  }


  /**
   * kube's checks of a version's deprecationWarning.
   *
   * @param deprecated whether the version is deprecated
   * @param warning the warning text
   * @return the error texts; empty when valid
   */
  public static List<String> deprecationWarningErrors(boolean deprecated, String warning) {
    if (!deprecated) {
      return List.of("can only be set for deprecated versions");
    }
    List<String> out = new ArrayList<>();
    int bytes = warning.getBytes(java.nio.charset.StandardCharsets.UTF_8).length;
    if (bytes > 256) {
      out.add("must be <= 256 characters long");
    }
    if (warning.isEmpty()) {
      out.add("must not be an empty string");
    }
    int index = 0;
    for (int i = 0; i < warning.length(); ) {
      int cp = warning.codePointAt(i);
      if (!goPrintable(cp)) {
        out.add("must only contain printable UTF-8 characters; non-printable character found at"
            + " index " + index);
        break;
      }
      index += new String(Character.toChars(cp)).getBytes(
          java.nio.charset.StandardCharsets.UTF_8).length;
      i += Character.charCount(cp);
    }
    return out;
  }

  // Go's unicode.IsPrint: letters, marks, numbers, punctuation, symbols and the ASCII space.
  private static boolean goPrintable(int cp) {
    if (cp == ' ') {
      return true;
    }
    switch (Character.getType(cp)) {
      case Character.UPPERCASE_LETTER: case Character.LOWERCASE_LETTER:
      case Character.TITLECASE_LETTER: case Character.MODIFIER_LETTER:
      case Character.OTHER_LETTER: case Character.NON_SPACING_MARK:
      case Character.ENCLOSING_MARK: case Character.COMBINING_SPACING_MARK:
      case Character.DECIMAL_DIGIT_NUMBER: case Character.LETTER_NUMBER:
      case Character.OTHER_NUMBER: case Character.CONNECTOR_PUNCTUATION:
      case Character.DASH_PUNCTUATION: case Character.START_PUNCTUATION:
      case Character.END_PUNCTUATION: case Character.INITIAL_QUOTE_PUNCTUATION:
      case Character.FINAL_QUOTE_PUNCTUATION: case Character.OTHER_PUNCTUATION:
      case Character.MATH_SYMBOL: case Character.CURRENCY_SYMBOL:
      case Character.MODIFIER_SYMBOL: case Character.OTHER_SYMBOL:
        return true;
      default:
        return false;
    }
  }

  /**
   * kube's default warning of a deprecated version: it names the most preferred served version
   * that is not deprecated and is preferred to this one, if there is one.
   *
   * @param crd the CustomResourceDefinition object
   * @param deprecated the deprecated version's name
   * @return the warning text
   */
  public static String defaultDeprecationWarning(MapValue crd, String deprecated) {
    String group = str(crd, "spec", "group");
    String kind = str(crd, "spec", "names", "kind");
    String msg = group + "/" + deprecated + " " + kind + " is deprecated";
    String best = null;
    for (Value v : Nested.list(crd, "spec", "versions")) {
      String name = Nested.str(v, "name");
      if (v instanceof MapValue m && bool(m, "served") && !bool(m, "deprecated")
          && compareKubeAware(deprecated, name) < 0
          && (best == null || compareKubeAware(name, best) > 0)) {
        best = name;
      }
    }
    return best == null ? msg : msg + "; use " + group + "/" + best + " " + kind;
  }

  private static final java.util.regex.Pattern KUBE_VERSION =
      java.util.regex.Pattern.compile("v(\\d+)(?:(alpha|beta)(\\d+))?");

  /**
   * apimachinery's {@code CompareKubeAwareVersionStrings}: positive when {@code a} is preferred
   * (GA over beta over alpha, then higher numbers; kube-like names over others, which compare
   * in reverse lexical order).
   *
   * @param a a version name
   * @param b another version name
   * @return positive when {@code a} is preferred, negative when {@code b} is, 0 when equal
   */
  public static int compareKubeAware(String a, String b) {
    if (a.equals(b)) {
      return 0;
    }
    java.util.regex.Matcher ma = KUBE_VERSION.matcher(a);
    java.util.regex.Matcher mb = KUBE_VERSION.matcher(b);
    boolean ka = ma.matches() && fitsInt(ma);
    boolean kb = mb.matches() && fitsInt(mb);
    if (!ka || !kb) {
      return ka == kb ? b.compareTo(a) : ka ? 1 : -1;
    }
    int c = Integer.compare(stability(ma.group(2)), stability(mb.group(2)));
    if (c == 0) {
      c = Long.compare(Long.parseLong(ma.group(1)), Long.parseLong(mb.group(1)));
    }
    if (c == 0 && ma.group(3) != null) {
      c = Long.compare(Long.parseLong(ma.group(3)), Long.parseLong(mb.group(3)));
    }
    return c;
  }

  private static boolean fitsInt(java.util.regex.Matcher m) {
    return m.group(1).length() < 10 && (m.group(3) == null || m.group(3).length() < 10);
  }

  private static int stability(String qualifier) {
    return qualifier == null ? 2 : qualifier.equals("beta") ? 1 : 0;
  }
}
