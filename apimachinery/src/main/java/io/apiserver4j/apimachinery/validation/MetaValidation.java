/*
 * Copyright The apiserver4j authors.
 * SPDX-License-Identifier: Apache-2.0
 */
package io.apiserver4j.apimachinery.validation;

import io.apiserver4j.apimachinery.validation.NameValidation;
import io.apiserver4j.core.BooleanValue;
import io.apiserver4j.core.errors.FieldError;
import io.apiserver4j.core.IntegerValue;
import io.apiserver4j.core.LabelValidation;
import io.apiserver4j.core.ListValue;
import io.apiserver4j.core.MapValue;
import io.apiserver4j.core.Meta;
import io.apiserver4j.core.StringValue;
import io.apiserver4j.core.Value;
import io.apiserver4j.fieldpath.ManagedFields;
import java.util.ArrayList;
import java.util.LinkedHashSet;
import java.util.List;
import java.util.Locale;
import java.util.Objects;
import java.util.Set;
import java.util.TreeSet;
import java.util.regex.Pattern;

/**
 * ObjectMeta validation with kube-apiserver's messages (apimachinery
 * {@code api/validation/objectmeta.go}, {@code util/validation}, {@code api/validate/content},
 * {@code apis/meta/v1/validation}). Where Go iterates over maps (labels, annotations) the keys are
 * visited in sorted order so that messages are deterministic.
 */
public final class MetaValidation {
  /** Total size limit of all annotation keys and values. */
  public static final int TOTAL_ANNOTATION_SIZE_LIMIT = 256 * 1024;

  private static final String DNS1123_LABEL_FMT = "[a-z0-9]([-a-z0-9]*[a-z0-9])?";
  private static final String DNS1123_SUBDOMAIN_FMT =
      DNS1123_LABEL_FMT + "(\\." + DNS1123_LABEL_FMT + ")*";
  private static final String DNS1035_LABEL_FMT = "[a-z]([-a-z0-9]*[a-z0-9])?";
  private static final Pattern DNS1035_LABEL = Pattern.compile(DNS1035_LABEL_FMT);

  private static final String DNS1123_LABEL_MSG = "a lowercase RFC 1123 label must consist of lower"
      + " case alphanumeric characters or '-', and must start and end with an alphanumeric"
      + " character";
  private static final String DNS1123_SUBDOMAIN_MSG = "a lowercase RFC 1123 subdomain must consist"
      + " of lower case alphanumeric characters, '-' or '.', and must start and end with an"
      + " alphanumeric character";
  private static final String DNS1035_LABEL_MSG = "a DNS-1035 label must consist of lower case"
      + " alphanumeric characters or '-', start with an alphabetic character, and end with an"
      + " alphanumeric character";

  private MetaValidation() {}

  // --- util/validation -------------------------------------------------------------------

  /**
   * apimachinery's {@code RegexError} text.
   *
   * @param msg the leading message
   * @param fmt the regular expression
   * @param examples valid examples
   * @return the text
   */
  public static String regexError(String msg, String fmt, String... examples) {
    return LabelValidation.regexError(msg, fmt, examples);
  }

  // Go's len() counts bytes.
  private static int byteLength(String s) {
    return LabelValidation.utf8Length(s);
  }

  /**
   * util/validation {@code IsDNS1123Label} ("characters" in the length message).
   *
   * @param value the text
   * @return the messages; empty when valid
   */
  public static List<String> dns1123Label(String value) {
    List<String> errs = new ArrayList<>();
    if (byteLength(value) > 63) {
      errs.add("must be no more than 63 characters");
    }
    if (!LabelValidation.isDns1123Label(value)) {
      if (LabelValidation.isDns1123Subdomain(value)) {
        errs.add("must not contain dots");
      } else {
        errs.add(regexError(DNS1123_LABEL_MSG, DNS1123_LABEL_FMT, "my-name", "123-abc"));
      }
    }
    return errs;
  }

  /**
   * util/validation {@code IsDNS1123Subdomain}.
   *
   * @param value the text
   * @return the messages; empty when valid
   */
  public static List<String> dns1123Subdomain(String value) {
    List<String> errs = new ArrayList<>();
    if (byteLength(value) > 253) {
      errs.add("must be no more than 253 characters");
    }
    if (!LabelValidation.isDns1123Subdomain(value)) {
      errs.add(regexError(DNS1123_SUBDOMAIN_MSG, DNS1123_SUBDOMAIN_FMT, "example.com"));
    }
    return errs;
  }

  /**
   * util/validation {@code IsDNS1035Label}.
   *
   * @param value the text
   * @return the messages; empty when valid
   */
  public static List<String> dns1035Label(String value) {
    List<String> errs = new ArrayList<>();
    if (byteLength(value) > 63) {
      errs.add("must be no more than 63 characters");
    }
    if (!DNS1035_LABEL.matcher(value).matches()) {
      errs.add(regexError(DNS1035_LABEL_MSG, DNS1035_LABEL_FMT, "my-name", "abc-123"));
    }
    return errs;
  }

  /**
   * {@code IsValidPathSegmentName} / {@code IsValidPathSegmentPrefix}.
   *
   * @param name the name
   * @param prefix whether it is a prefix
   * @return the messages; empty when valid
   */
  public static List<String> pathSegment(String name, boolean prefix) {
    if (!prefix && (name.equals(".") || name.equals(".."))) {
      return List.of("may not be '" + name + "'");
    }
    List<String> errs = new ArrayList<>();
    if (name.contains("/")) {
      errs.add("may not contain '/'");
    }
    if (name.contains("%")) {
      errs.add("may not contain '%'");
    }
    return errs;
  }

  /**
   * api/validate/content {@code IsLabelKey} (= {@code IsQualifiedName}).
   *
   * @param value the text
   * @return the messages; empty when valid
   */
  public static List<String> qualifiedName(String value) {
    return LabelValidation.qualifiedName(value);
  }

  /**
   * api/validate/content {@code IsLabelValue}.
   *
   * @param value the text
   * @return the messages; empty when valid
   */
  public static List<String> labelValue(String value) {
    return LabelValidation.labelValue(value);
  }

  /**
   * The name validator of a kind; {@code prefix} is true for {@code generateName}.
   *
   * @param rule the kind's name rule
   * @param name the name
   * @param prefix whether it is a generateName prefix
   * @return the messages; empty when valid
   */
  public static List<String> name(NameValidation rule, String name, boolean prefix) {
    switch (rule) {
      case DNS1123_LABEL:
        return dns1123Label(prefix ? maskTrailingDash(name) : name);
      case DNS1035_LABEL:
        return dns1035Label(prefix ? maskTrailingDash(name) : name);
      case PATH_SEGMENT:
        return pathSegment(name, prefix);
      case DNS1123_SUBDOMAIN:
      default:
        return dns1123Subdomain(prefix ? maskTrailingDash(name) : name);
    }
  }

  // A generateName prefix may end in '-': the generated suffix makes it valid.
  private static String maskTrailingDash(String name) {
    if (name.length() > 1 && name.endsWith("-")) {
      return name.substring(0, name.length() - 2) + "a";
    }
    return name;
  }

  // --- ObjectMeta --------------------------------------------------------------------------

  /**
   * {@code ValidateObjectMetaAccessor}: the checks of a create.
   *
   * @param obj the object
   * @param namespaced whether the kind is namespaced
   * @param rule the kind's name rule
   * @return the field errors; empty when valid
   */
  public static List<FieldError> objectMeta(MapValue obj, boolean namespaced, NameValidation rule) {
    List<FieldError> errs = new ArrayList<>();
    MapValue meta = Meta.metadata(obj);
    String generateName = Meta.string(meta, "generateName");
    String name = Meta.string(meta, "name");
    if (!generateName.isEmpty()) {
      for (String msg : name(rule, generateName, true)) {
        errs.add(FieldError.invalid("metadata.generateName", Value.of(generateName), msg));
      }
    }
    if (name.isEmpty()) {
      errs.add(FieldError.required("metadata.name", "name or generateName is required"));
    } else {
      for (String msg : name(rule, name, false)) {
        errs.add(FieldError.invalid("metadata.name", Value.of(name), msg));
      }
    }
    errs.addAll(common(meta, namespaced));
    return errs;
  }

  private static List<FieldError> common(MapValue meta, boolean namespaced) {
    List<FieldError> errs = new ArrayList<>();
    String namespace = Meta.string(meta, "namespace");
    if (namespaced) {
      if (namespace.isEmpty()) {
        errs.add(FieldError.required("metadata.namespace", ""));
      } else {
        for (String msg : dns1123Label(namespace)) {
          errs.add(FieldError.invalid("metadata.namespace", Value.of(namespace), msg));
        }
      }
    } else if (!namespace.isEmpty()) {
      errs.add(FieldError.forbidden("metadata.namespace", "not allowed on this type"));
    }
    if (meta.getOrNull("generation") instanceof IntegerValue g && g.value() < 0) {
      errs.add(FieldError.invalid("metadata.generation", g,
          "must be greater than or equal to 0"));
    }
    errs.addAll(labels(meta.getOrNull("labels"), "metadata.labels"));
    errs.addAll(annotations(meta.getOrNull("annotations"), "metadata.annotations"));
    errs.addAll(ownerReferences(meta.getOrNull("ownerReferences")));
    errs.addAll(finalizers(meta.getOrNull("finalizers")));
    Value managed = meta.getOrNull("managedFields");
    if (managed != null && !managed.isNull()) {
      errs.addAll(ManagedFields.validate(managed, "metadata.managedFields"));
    }
    return errs;
  }

  /**
   * {@code ValidateLabels}.
   *
   * @param labels the labels value
   * @param path the field path
   * @return the field errors
   */
  public static List<FieldError> labels(Value labels, String path) {
    List<FieldError> errs = new ArrayList<>();
    if (!(labels instanceof MapValue m)) {
      return errs;
    }
    for (String k : sortedKeys(m)) {
      for (String msg : qualifiedName(k)) {
        errs.add(FieldError.invalid(path, Value.of(k), msg));
      }
      if (m.getOrNull(k) instanceof StringValue v) {
        for (String msg : labelValue(v.value())) {
          errs.add(FieldError.invalid(path, v, msg));
        }
      }
    }
    return errs;
  }

  /**
   * {@code ValidateAnnotations}.
   *
   * @param annotations the annotations value
   * @param path the field path
   * @return the field errors
   */
  public static List<FieldError> annotations(Value annotations, String path) {
    List<FieldError> errs = new ArrayList<>();
    if (!(annotations instanceof MapValue m)) {
      return errs;
    }
    for (String k : sortedKeys(m)) {
      for (String msg : qualifiedName(k.toLowerCase(Locale.ROOT))) {
        errs.add(FieldError.invalid(path, Value.of(k), msg));
      }
    }
    if (annotationsSize(m) > TOTAL_ANNOTATION_SIZE_LIMIT) {
      errs.add(FieldError.tooLong(path, TOTAL_ANNOTATION_SIZE_LIMIT));
    }
    return errs;
  }

  /**
   * Σ len(key) + len(value) in bytes.
   *
   * @param annotations the annotations
   * @return the total size
   */
  public static long annotationsSize(MapValue annotations) {
    long total = 0;
    for (int i = 0; i < annotations.size(); i++) {
      total += byteLength(annotations.keyAt(i));
      if (annotations.valueAt(i) instanceof StringValue s) {
        total += byteLength(s.value());
      }
    }
    return total;
  }

  private static List<FieldError> ownerReferences(Value refs) {
    List<FieldError> errs = new ArrayList<>();
    if (!(refs instanceof ListValue l)) {
      return errs;
    }
    String firstController = "";
    for (int i = 0; i < l.size(); i++) {
      String at = "metadata.ownerReferences[" + i + "]";
      MapValue ref = l.get(i) instanceof MapValue m ? m : MapValue.empty();
      String apiVersion = Meta.string(ref, "apiVersion");
      String kind = Meta.string(ref, "kind");
      if (apiVersion.isEmpty()) {
        errs.add(FieldError.required(at + ".apiVersion", "must not be empty"));
      } else if (!validGroupVersion(apiVersion)) {
        errs.add(FieldError.invalid(at + ".apiVersion", Value.of(apiVersion),
            "must be <group>/<version> or <version>"));
      }
      if (kind.isEmpty()) {
        errs.add(FieldError.required(at + ".kind", "must not be empty"));
      }
      if (Meta.string(ref, "name").isEmpty()) {
        errs.add(FieldError.required(at + ".name", "must not be empty"));
      }
      if (Meta.string(ref, "uid").isEmpty()) {
        errs.add(FieldError.required(at + ".uid", "must not be empty"));
      }
      if (apiVersion.equals("v1") && kind.equals("Event")) {
        errs.add(FieldError.invalid(at, ref, "/v1, Kind=Event is disallowed from being an owner"));
      }
      if (ref.getOrNull("controller") instanceof BooleanValue b && b.value()) {
        String current = kind + "/" + Meta.string(ref, "name");
        if (!firstController.isEmpty()) {
          errs.add(FieldError.invalid("metadata.ownerReferences", l,
              "Only one reference can have Controller set to true. Found \"true\" in references for "
                  + firstController + " and " + current));
        } else {
          firstController = current;
        }
      }
    }
    return errs;
  }

  private static boolean validGroupVersion(String gv) {
    if (gv.equals("/")) {
      return false;
    }
    int slash = gv.indexOf('/');
    if (slash < 0) {
      return !gv.isEmpty();
    }
    return slash == gv.lastIndexOf('/') && slash < gv.length() - 1;
  }

  private static List<FieldError> finalizers(Value finalizers) {
    List<FieldError> errs = new ArrayList<>();
    if (!(finalizers instanceof ListValue l)) {
      return errs;
    }
    boolean orphan = false;
    boolean foreground = false;
    for (Value v : l.items()) {
      String f = v instanceof StringValue s ? s.value() : "";
      for (String msg : qualifiedName(f)) {
        errs.add(FieldError.invalid("metadata.finalizers", Value.of(f), msg));
      }
      orphan |= f.equals(Finalizers.ORPHAN);
      foreground |= f.equals(Finalizers.FOREGROUND);
    }
    if (orphan && foreground) {
      errs.add(FieldError.invalid("metadata.finalizers", l, "finalizer " + Finalizers.ORPHAN
          + " and " + Finalizers.FOREGROUND + " cannot be both set"));
    }
    return errs;
  }

  /**
   * {@code ValidateObjectMetaAccessorUpdate}: the checks of an update against the stored object.
   *
   * @param obj the new object
   * @param old the stored object
   * @param namespaced whether the kind is namespaced
   * @param rule the kind's name rule
   * @return the field errors; empty when valid
   */
  public static List<FieldError> objectMetaUpdate(MapValue obj, MapValue old, boolean namespaced,
      NameValidation rule) {
    List<FieldError> errs = new ArrayList<>();
    MapValue meta = Meta.metadata(obj);
    MapValue oldMeta = Meta.metadata(old);
    // ValidateObjectMetaAccessor runs too (validateCommonFields).
    String name = Meta.string(meta, "name");
    if (name.isEmpty()) {
      errs.add(FieldError.required("metadata.name", "name or generateName is required"));
    } else {
      for (String msg : name(rule, name, false)) {
        errs.add(FieldError.invalid("metadata.name", Value.of(name), msg));
      }
    }
    errs.addAll(common(meta, namespaced));
    if (oldMeta.getOrNull("deletionTimestamp") instanceof StringValue) {
      Set<String> extra = new TreeSet<>(Meta.stringList(meta.getOrNull("finalizers")));
      extra.removeAll(Meta.stringList(oldMeta.getOrNull("finalizers")));
      if (!extra.isEmpty()) {
        errs.add(FieldError.forbidden("metadata.finalizers", "no new finalizers can be added if"
            + " the object is being deleted, found new finalizers " + goStringSlice(extra)));
      }
    }
    long gen = Meta.generation(obj);
    if (gen < Meta.generation(old)) {
      errs.add(FieldError.invalid("metadata.generation", Value.of(gen), "must not be decremented"));
    }
    immutable(errs, meta, oldMeta, "name");
    immutable(errs, meta, oldMeta, "namespace");
    immutable(errs, meta, oldMeta, "uid");
    immutable(errs, meta, oldMeta, "creationTimestamp");
    immutable(errs, meta, oldMeta, "deletionTimestamp");
    immutable(errs, meta, oldMeta, "deletionGracePeriodSeconds");
    return dedup(errs);
  }

  private static void immutable(List<FieldError> errs, MapValue meta, MapValue oldMeta,
      String key) {
    Value now = meta.getOrNull(key);
    Value before = oldMeta.getOrNull(key);
    if (isZero(now) && isZero(before)) {
      return;
    }
    if (!Objects.equals(now, before)) {
      errs.add(FieldError.invalid("metadata." + key, now == null ? Value.of("") : now,
          "field is immutable"));
    }
  }

  private static boolean isZero(Value v) {
    return v == null || v.isNull() || (v instanceof StringValue s && s.value().isEmpty());
  }

  // Go's %#v of a []string.
  private static String goStringSlice(Set<String> values) {
    StringBuilder sb = new StringBuilder("[]string{");
    boolean first = true;
    for (String v : values) {
      if (!first) {
        sb.append(", ");
      }
      first = false;
      sb.append(io.apiserver4j.core.Json.quote(v));
    }
    return sb.append('}').toString();
  }

  private static List<FieldError> dedup(List<FieldError> errs) {
    return new ArrayList<>(new LinkedHashSet<>(errs));
  }

  private static List<String> sortedKeys(MapValue m) {
    List<String> keys = new ArrayList<>(m.size());
    for (int i = 0; i < m.size(); i++) {
      keys.add(m.keyAt(i));
    }
    keys.sort(io.apiserver4j.core.Values::compareStrings);
    return keys;
  }
}
