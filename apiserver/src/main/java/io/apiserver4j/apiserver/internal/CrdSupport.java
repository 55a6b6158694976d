/*
 * Copyright The apiserver4j authors.
 * SPDX-License-Identifier: Apache-2.0
 */
package io.apiserver4j.apiserver.internal;

import io.apiserver4j.apiserver.strategy.Converter;
import io.apiserver4j.apiserver.strategy.Validator;
import io.apiserver4j.apiserver.strategy.Verdict;
import io.apiserver4j.apiserver.ResourceDefinition;
import io.apiserver4j.apiserver.ResourceStrategy;
import io.apiserver4j.apiserver.strategy.GenerationPolicy;
import io.apiserver4j.apiserver.ScaleSubresource;
import io.apiserver4j.apiextensions.CrdValidator;
import io.apiserver4j.core.BooleanValue;
import io.apiserver4j.core.errors.FieldError;
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
import io.apiserver4j.apiextensions.CustomResourceDefinitionValidation;

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

  /** The definitions a CRD serves (its served versions); empty when it is malformed. */
  public static List<ResourceDefinition> definitions(MapValue crd) {
    List<ResourceDefinition> out = new ArrayList<>();
    String group = str(crd, "spec", "group");
    String plural = str(crd, "spec", "names", "plural");
    String kind = str(crd, "spec", "names", "kind");
    boolean namespaced = str(crd, "spec", "scope").equals("Namespaced");
    if (!(Nested.getOrNull(crd, "spec", "versions") instanceof ListValue versions)) {
      return out;
    }
    String storageVersion = storageVersion(crd);
    // one client for all versions: the webhook converts between any two of them
    Converter converter = str(crd, "spec", "conversion", "strategy")
        .equals("Webhook") && Nested.getOrNull(crd, "spec", "conversion", "webhook")
            instanceof MapValue webhook
        ? ConversionWebhook.of(webhook) : Converter.NONE;
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
              .validator(new Validator() {
                @Override
                public List<FieldError> validate(MapValue object, Optional<MapValue> old) {
                  return validator.validateSchema(object, old);
                }

                // ratcheted CEL rules warn, as kube's custom resource strategy does
                @Override
                public Verdict check(MapValue object, Optional<MapValue> old) {
                  CrdValidator.Result r = validator.check(object, old);
                  return new Verdict(r.errors(), r.warnings());
                }
              })
              .build());
      if (openApi instanceof MapValue published) {
        b.openApiSchema(published);
      }
      if (bool(version, "deprecated")) {
        Value w = version.getOrNull("deprecationWarning");
        b.warnings(List.of(w instanceof StringValue text ? text.value()
            : CustomResourceDefinitionValidation.defaultDeprecationWarning(crd,
                str(version, "name"))));
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

  /** The name of the CRD's storage version (the last marked so); empty when none is. */
  static String storageVersion(MapValue crd) {
    String storageVersion = "";
    for (Value v : Nested.list(crd, "spec", "versions")) {
      if (v instanceof MapValue m && bool(m, "storage")) {
        storageVersion = str(m, "name");
      }
    }
    return storageVersion;
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
