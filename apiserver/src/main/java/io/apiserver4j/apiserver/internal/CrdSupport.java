/*
 * Copyright The apiserver4j authors.
 * SPDX-License-Identifier: Apache-2.0
 */
package io.apiserver4j.apiserver.internal;

import io.apiserver4j.apiserver.ResourceDefinition;
import io.apiserver4j.apiserver.ResourceStrategy;
import io.apiserver4j.apiserver.ResourceStrategy.GenerationPolicy;
import io.apiserver4j.apiserver.ScaleSubresource;
import io.apiserver4j.apiserver.crd.CrdValidator;
import io.apiserver4j.core.BooleanValue;
import io.apiserver4j.core.FieldError;
import io.apiserver4j.core.GroupVersionKind;
import io.apiserver4j.core.ListValue;
import io.apiserver4j.core.MapValue;
import io.apiserver4j.core.Meta;
import io.apiserver4j.core.Nested;
import io.apiserver4j.core.StringValue;
import io.apiserver4j.core.Value;
import io.apiserver4j.merge.Schema;
import io.apiserver4j.merge.openapi.CrdSchema;
import io.apiserver4j.merge.openapi.OpenApiSchemas;
import java.util.ArrayList;
import java.util.List;
import java.util.Optional;
import io.apiserver4j.apimachinery.validation.MetaValidation;

/**
 * CustomResourceDefinitions: their validation, the resource definitions they serve, and the
 * status kube-apiserver's CRD controllers (naming, establishing, finalizing) write. Each served
 * version's strategy validates, defaults (and, through its untyped merge schema, leaves type
 * errors to) the {@link CrdValidator} built once for that version.
 */
public final class CrdSupport {
  /** The finalizer kube-apiserver keeps on CRDs while their objects are being deleted. */
  public static final String CLEANUP_FINALIZER = "customresourcecleanup.apiextensions.k8s.io";

  private CrdSupport() {}

  static String str(MapValue m, String... path) {
    return Nested.getOrNull(m, path) instanceof StringValue s ? s.value() : "";
  }

  private static boolean bool(MapValue m, String... path) {
    return Nested.getOrNull(m, path) instanceof BooleanValue b && b.value();
  }

  /** The essential checks of kube's CRD validation. */
  public static List<FieldError> validate(MapValue crd) {
    return validate(crd, java.util.Optional.empty());
  }

  /** The same for a create ({@code old} empty) or an update of {@code old}. */
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
    } else {
      for (String msg : MetaValidation.dns1035Label(plural)) {
        errs.add(FieldError.invalid("spec.names.plural", Value.of(plural), msg));
      }
    }
    if (kind.isEmpty()) {
      errs.add(FieldError.required("spec.names.kind", ""));
    }
    String singular = str(crd, "spec", "names", "singular");
    if (!singular.isEmpty()) {
      for (String msg : MetaValidation.dns1035Label(singular)) {
        errs.add(FieldError.invalid("spec.names.singular", Value.of(singular), msg));
      }
    }
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
        Value scale = Nested.getOrNull(v, "subresources", "scale");
        if (scale instanceof MapValue s) {
          for (String p : List.of("specReplicasPath", "statusReplicasPath")) {
            String path = str(s, p);
            if (!path.startsWith(".") || path.length() < 2) {
              errs.add(FieldError.invalid(at + ".subresources.scale." + p, Value.of(path),
                  "should be a json path under .spec"));
            }
          }
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
      errs.add(FieldError.invalid(at, BuiltinKinds.strings(reviews),
          "must include at least one of v1, v1beta1"));
    }
  }

  /** The definitions a CRD serves (its served versions); empty when it is malformed. */
  public static List<ResourceDefinition> definitions(MapValue crd) {
    List<ResourceDefinition> out = new ArrayList<>();
    String group = str(crd, "spec", "group");
    String plural = str(crd, "spec", "names", "plural");
    String kind = str(crd, "spec", "names", "kind");
    boolean namespaced = str(crd, "spec", "scope").equals("Namespaced");
    String storageVersion = "";
    if (!(Nested.getOrNull(crd, "spec", "versions") instanceof ListValue versions)) {
      return out;
    }
    for (Value v : versions.items()) {
      if (v instanceof MapValue m && bool(m, "storage")) {
        storageVersion = str(m, "name");
      }
    }
    // one client for all versions: the webhook converts between any two of them
    ResourceStrategy.Converter converter = str(crd, "spec", "conversion", "strategy")
        .equals("Webhook") && Nested.getOrNull(crd, "spec", "conversion", "webhook")
            instanceof MapValue webhook
        ? ConversionWebhook.of(webhook) : ResourceStrategy.Converter.NONE;
    for (Value v : versions.items()) {
      if (!(v instanceof MapValue version) || !bool(version, "served")) {
        continue;
      }
      GroupVersionKind gvk = new GroupVersionKind(group, str(version, "name"), kind);
      // The schema is parsed and its CEL rules compiled once per served version.
      CrdValidator validator = CrdValidator.of(crd, str(version, "name"));
      Value openApi = Nested.getOrNull(version, "schema", "openAPIV3Schema");
      CrdSchema crdSchema = OpenApiSchemas.fromCrdVersion(
          openApi == null ? Value.nullValue() : openApi, gvk);
      Schema schema = Schema.fromSmdValue(untypedScalars(crdSchema.smdSchema()));
      ResourceDefinition.Builder b = ResourceDefinition.builder(gvk, plural)
          .namespaced(namespaced)
          .singular(str(crd, "spec", "names", "singular"))
          .listKind(listKind(crd))
          .shortNames(Meta.stringList(Nested.getOrNull(crd, "spec", "names", "shortNames")))
          .categories(Meta.stringList(Nested.getOrNull(crd, "spec", "names", "categories")))
          .schema(schema, crdSchema.rootTypeName())
          .customResource(true)
          .storageVersion(storageVersion)
          .status(Nested.getOrNull(version, "subresources", "status") != null)
          .strategy(ResourceStrategy.builder()
              .generationPolicy(GenerationPolicy.NON_METADATA)
              .allowUnconditionalUpdate(false)
              .statusPreservedMetadata("*")
              .returnDeletedObject(true)
              .selectableFields(selectableFields(version))
              .converter(converter)
              .defaulter(validator::applyDefaults)
              .validator(new ResourceStrategy.Validator() {
                @Override
                public List<FieldError> validate(MapValue object, Optional<MapValue> old) {
                  return validator.validateSchema(object, old);
                }

                // ratcheted CEL rules warn, as kube's custom resource strategy does
                @Override
                public ResourceStrategy.Verdict check(MapValue object, Optional<MapValue> old) {
                  CrdValidator.Result r = validator.check(object, old);
                  return new ResourceStrategy.Verdict(r.errors(), r.warnings());
                }
              })
              .build());
      if (openApi instanceof MapValue published) {
        b.openApiSchema(published);
      }
      if (bool(version, "deprecated")) {
        Value w = version.getOrNull("deprecationWarning");
        b.warnings(List.of(w instanceof StringValue text ? text.value()
            : defaultDeprecationWarning(crd, str(version, "name"))));
      }
      if (Nested.getOrNull(version, "subresources", "scale") instanceof MapValue s) {
        String selector = str(s, "labelSelectorPath");
        b.scale(new ScaleSubresource(str(s, "specReplicasPath"), str(s, "statusReplicasPath"),
            selector.isEmpty() ? Optional.empty() : Optional.of(selector)));
      }
      out.add(b.build());
    }
    return out;
  }

  /** A version's selectableFields as field selector labels ({@code .spec.color} -> spec.color). */
  static String[] selectableFields(MapValue version) {
    List<String> out = new ArrayList<>();
    for (Value f : Nested.list(version, "selectableFields")) {
      String path = Nested.str(f, "jsonPath");
      out.add(path.startsWith(".") ? path.substring(1) : path);
    }
    return out.toArray(String[]::new);
  }

  /** kube's checks of a version's deprecationWarning. */
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
   */
  static int compareKubeAware(String a, String b) {
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

  private static final Value UNTYPED = Value.of("untyped");

  /**
   * The merge schema of a custom resource with untyped scalars: kube decodes custom resources
   * as unstructured JSON, so a scalar of the wrong type (a string for an integer, a fraction
   * for an integer) is not a decoding error (400) but a schema validation error (422) that
   * {@link CrdValidator} reports with kube's message. Scalars merge atomically either way.
   */
  static MapValue untypedScalars(MapValue smd) {
    return (MapValue) untype(smd);
  }

  private static Value untype(Value v) {
    if (v instanceof MapValue m) {
      MapValue.Builder b = null;
      for (int i = 0; i < m.size(); i++) {
        String k = m.keyAt(i);
        Value child = m.valueAt(i);
        Value out = k.equals("scalar") && child instanceof StringValue ? UNTYPED : untype(child);
        if (!out.equals(child)) {
          b = b == null ? m.toBuilder() : b;
          b.put(k, out);
        }
      }
      return b == null ? m : b.build();
    }
    if (v instanceof ListValue l) {
      ListValue.Builder b = ListValue.builder(l.size());
      boolean changed = false;
      for (Value item : l.items()) {
        Value out = untype(item);
        changed |= out != item;
        b.add(out);
      }
      return changed ? b.build() : l;
    }
    return v;
  }

  /** Whether the CRD's condition {@code type} has status True. */
  static boolean conditionTrue(MapValue crd, String type) {
    if (!(Nested.getOrNull(crd, "status", "conditions") instanceof ListValue conditions)) {
      return false;
    }
    for (Value c : conditions.items()) {
      if (c instanceof MapValue m && Meta.string(m, "type").equals(type)) {
        return Meta.string(m, "status").equals("True");
      }
    }
    return false;
  }

  /** kube's terminating CRD: being deleted, or with the condition Terminating. */
  static boolean terminating(MapValue crd) {
    return Meta.hasMeta(crd, "deletionTimestamp") || conditionTrue(crd, "Terminating");
  }

  /**
   * The CRD as it is served: kube serves its resources under {@code status.acceptedNames},
   * which keep the last names accepted when the requested ones conflict.
   */
  static MapValue servedView(MapValue crd) {
    MapValue accepted = Nested.mapOrNull(crd, "status", "acceptedNames");
    if (accepted == null || str(accepted, "plural").isEmpty() || str(accepted, "kind").isEmpty()) {
      return crd;
    }
    return Nested.set(crd, accepted, "spec", "names");
  }

  static String listKind(MapValue crd) {
    String lk = str(crd, "spec", "names", "listKind");
    return lk.isEmpty() ? str(crd, "spec", "names", "kind") + "List" : lk;
  }

  /** The names a CRD asks for, as {@code status.acceptedNames} shows them. */
  static MapValue requestedNames(MapValue crd) {
    MapValue names = Nested.mapOrNull(crd, "spec", "names");
    MapValue.Builder b = MapValue.builder();
    if (names != null) {
      for (String key : List.of("plural", "singular", "shortNames", "kind", "listKind",
          "categories")) {
        Value v = names.getOrNull(key);
        if (v != null && !v.isNull()) {
          b.put(key, v);
        }
      }
    }
    return b.build();
  }

  /** A condition with kube's field order. */
  static MapValue condition(String type, String status, String reason, String message,
      String time) {
    return MapValue.ofEntries("type", Value.of(type), "status", Value.of(status),
        "lastTransitionTime", Value.of(time), "reason", Value.of(reason),
        "message", Value.of(message));
  }

  /**
   * The conditions list with {@code condition} set: an existing condition of the same type keeps
   * its lastTransitionTime unless its status changes (kube's {@code SetCRDCondition}).
   */
  static ListValue setCondition(Value conditions, MapValue condition) {
    ListValue.Builder b = ListValue.builder();
    boolean found = false;
    String type = Meta.string(condition, "type");
    if (conditions instanceof ListValue l) {
      for (Value c : l.items()) {
        if (c instanceof MapValue m && Meta.string(m, "type").equals(type)) {
          found = true;
          if (Meta.string(m, "status").equals(Meta.string(condition, "status"))) {
            b.add(condition.with("lastTransitionTime", m.getOrNull("lastTransitionTime") == null
                ? condition.getOrNull("lastTransitionTime") : m.getOrNull("lastTransitionTime")));
          } else {
            b.add(condition);
          }
        } else {
          b.add(c);
        }
      }
    }
    if (!found) {
      b.add(condition);
    }
    return b.build();
  }
}
