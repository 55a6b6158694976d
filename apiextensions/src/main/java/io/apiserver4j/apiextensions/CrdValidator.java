/*
 * Copyright The apiserver4j authors.
 * SPDX-License-Identifier: Apache-2.0
 */
package io.apiserver4j.apiextensions;

import static java.util.Objects.requireNonNull;

import io.apiserver4j.apimachinery.validation.NameValidation;
import io.apiserver4j.apiextensions.internal.CelValidation;
import io.apiserver4j.apiextensions.internal.Defaulting;
import io.apiserver4j.apiextensions.internal.SchemaNode;
import io.apiserver4j.apiextensions.internal.SchemaValidation;
import io.apiserver4j.apimachinery.validation.MetaValidation;
import io.apiserver4j.core.errors.FieldError;
import io.apiserver4j.core.GroupVersionKind;
import io.apiserver4j.core.ListValue;
import io.apiserver4j.core.MapValue;
import io.apiserver4j.core.StringValue;
import io.apiserver4j.core.Value;
import java.util.ArrayList;
import java.util.List;
import java.util.Optional;

/**
 * Validates custom resources against one version of a CustomResourceDefinition as
 * kube-apiserver 1.36 does, without a server: the OpenAPI schema (types, formats, enums, ranges,
 * lengths, patterns with RE2 semantics, item and property counts, required, nullable,
 * allOf/anyOf/oneOf/not, int-or-string, embedded resources), list-type set and map uniqueness,
 * and the CEL {@code x-kubernetes-validations} on every level, with ratcheting of unchanged values
 * on updates. Errors carry kube's field paths and messages, e.g.
 * {@code spec.size: Invalid value: 20: spec.size in body should be less than or equal to 10}.
 *
 * <p>The schema and its CEL rules are parsed and compiled once, when the validator is built.
 * Immutable and thread-safe.
 *
 * <pre>{@code
 * List<FieldError> errors = CrdValidator.validate(crd, object);
 * }</pre>
 */
public final class CrdValidator {
  private final GroupVersionKind kind;
  private final SchemaNode schema;
  private final boolean namespaced;

  private CrdValidator(GroupVersionKind kind, SchemaNode schema, boolean namespaced) {
    this.kind = kind;
    this.schema = schema;
    this.namespaced = namespaced;
  }

  /**
   * The validator of version {@code version} of {@code crd}.
   *
   * @throws IllegalArgumentException when the CRD has no such version
   * @param crd the CustomResourceDefinition object
   * @param version the version name
   * @return the validator, with the version's schema compiled
   */
  public static CrdValidator of(MapValue crd, String version) {
    requireNonNull(crd, "crd");
    requireNonNull(version, "version");
    MapValue spec = crd.getOrNull("spec") instanceof MapValue s ? s : MapValue.empty();
    String group = str(spec, "group");
    String kindName = spec.getOrNull("names") instanceof MapValue n ? str(n, "kind") : "";
    boolean namespaced = str(spec, "scope").equals("Namespaced");
    if (spec.getOrNull("versions") instanceof ListValue versions) {
      for (Value v : versions.items()) {
        if (v instanceof MapValue m && str(m, "name").equals(version)) {
          Value openApi = m.getOrNull("schema") instanceof MapValue sc
              ? sc.getOrNull("openAPIV3Schema") : null;
          if (openApi == null && spec.getOrNull("validation") instanceof MapValue legacy) {
            openApi = legacy.getOrNull("openAPIV3Schema");
          }
          return new CrdValidator(new GroupVersionKind(group, version, kindName),
              SchemaNode.parseShared(openApi == null ? MapValue.empty() : openApi), namespaced);
        }
      }
    }
    throw new IllegalArgumentException("CustomResourceDefinition of " + group + "/" + kindName
        + " has no version " + version);
  }

  /**
   * kube's checks of the schemas of a CRD (apiextensions-apiserver's structural schema rules,
   * defaults valid against their schema, CEL rules that compile), with paths under
   * {@code spec.versions[i].schema.openAPIV3Schema}.
   *
   * @param crd the CustomResourceDefinition object
   * @return the field errors, as kube reports them; empty when valid
   */
  public static List<FieldError> validateDefinition(MapValue crd) {
    return io.apiserver4j.apiextensions.internal.DefinitionValidation.validate(
        requireNonNull(crd, "crd"));
  }

  /**
   * Like {@link #validateDefinition(MapValue)} for an update of {@code old}: as kube, the
   * versions whose schema is unchanged are not held to the per-expression CEL cost limit.
   *
   * @param crd the new CustomResourceDefinition
   * @param old the stored one
   * @return the field errors, as kube reports them; empty when valid
   */
  public static List<FieldError> validateDefinitionUpdate(MapValue crd, MapValue old) {
    requireNonNull(crd, "crd");
    requireNonNull(old, "old");
    java.util.Set<String> unchanged = new java.util.HashSet<>();
    java.util.Map<String, io.apiserver4j.core.Value> oldSchemas = schemasByVersion(old);
    schemasByVersion(crd).forEach((name, schema) -> {
      if (schema.equals(oldSchemas.get(name))) {
        unchanged.add(name);
      }
    });
    boolean[] ratchets = io.apiserver4j.apiextensions.internal.DefinitionValidation.ratchets(old);
    return io.apiserver4j.apiextensions.internal.DefinitionValidation.validate(crd, unchanged,
        ratchets[0], ratchets[1]);
  }

  private static java.util.Map<String, io.apiserver4j.core.Value> schemasByVersion(
      MapValue crd) {
    java.util.Map<String, io.apiserver4j.core.Value> out = new java.util.HashMap<>();
    if (io.apiserver4j.core.Nested.getOrNull(crd, "spec", "versions")
        instanceof io.apiserver4j.core.ListValue versions) {
      for (io.apiserver4j.core.Value v : versions.items()) {
        if (v instanceof MapValue m && m.getOrNull("name")
            instanceof io.apiserver4j.core.StringValue n) {
          io.apiserver4j.core.Value schema = m.getOrNull("schema");
          out.put(n.value(), schema == null ? io.apiserver4j.core.Value.nullValue() : schema);
        }
      }
    }
    return out;
  }

  /**
   * Validates {@code object} (a create) against the CRD version named by its apiVersion, after
   * applying the schema's defaults as the server does before validating.
   *
   * @param crd the CustomResourceDefinition object
   * @param object the custom resource
   * @return the field errors, as kube reports them; empty when valid
   */
  public static List<FieldError> validate(MapValue crd, MapValue object) {
    CrdValidator v = of(crd, versionOf(object));
    return v.validate(v.applyDefaults(object));
  }

  /**
   * Validates an update of {@code old} to {@code object} (both defaulted first, as the server
   * defaults bodies and stored objects), ratcheting unchanged values.
   *
   * @param crd the CustomResourceDefinition object
   * @param object the new custom resource
   * @param old the stored one
   * @return the field errors, as kube reports them; empty when valid
   */
  public static List<FieldError> validate(MapValue crd, MapValue object, MapValue old) {
    CrdValidator v = of(crd, versionOf(object));
    return v.validateUpdate(v.applyDefaults(object), v.applyDefaults(old));
  }

  private static String versionOf(MapValue object) {
    String apiVersion = str(requireNonNull(object, "object"), "apiVersion");
    int slash = apiVersion.indexOf('/');
    return slash < 0 ? apiVersion : apiVersion.substring(slash + 1);
  }

  /**
   * The kind and version this validator checks.
   *
   * @return the group, version and kind
   */
  public GroupVersionKind kind() {
    return kind;
  }

  /**
   * Everything kube checks on a create: ObjectMeta, then {@link #validateSchema}.
   *
   * @param object the custom resource
   * @return the field errors, as kube reports them; empty when valid
   */
  public List<FieldError> validate(MapValue object) {
    requireNonNull(object, "object");
    List<FieldError> errs = new ArrayList<>(
        MetaValidation.objectMeta(object, namespaced, NameValidation.PATH_SEGMENT));
    errs.addAll(validateSchema(object, Optional.empty()));
    return errs;
  }

  /**
   * Everything kube checks on an update: ObjectMeta, then {@link #validateSchema}.
   *
   * @param object the new custom resource
   * @param old the stored one
   * @return the field errors, as kube reports them; empty when valid
   */
  public List<FieldError> validateUpdate(MapValue object, MapValue old) {
    requireNonNull(object, "object");
    requireNonNull(old, "old");
    List<FieldError> errs = new ArrayList<>(
        MetaValidation.objectMetaUpdate(object, old, namespaced, NameValidation.PATH_SEGMENT));
    errs.addAll(validateSchema(object, Optional.of(old)));
    return errs;
  }

  /**
   * The schema checks alone (OpenAPI, list types, embedded resources, CEL), as the server's
   * strategy runs them after its own ObjectMeta validation. With {@code old}, transition rules
   * run and unchanged values ratchet.
   *
   * @param object the custom resource
   * @param old the stored one on updates
   * @return the field errors, as kube reports them; empty when valid
   */
  public List<FieldError> validateSchema(MapValue object, Optional<MapValue> old) {
    return check(object, old).errors();
  }

  /**
   * The outcome of the schema checks: errors, and the warnings kube returns for CEL rules
   * that ratcheted (an unchanged value that fails a rule without oldSelf), formatted as kube
   * formats them ({@code spec.x: Invalid value: "y": message}).
   *
   * @param errors the field errors
   * @param warnings the warnings of ratcheted rules
   */
  public record Result(List<FieldError> errors, List<String> warnings) {
    /**
     * Copies the lists.
     *
     * @param errors see the record component
     * @param warnings see the record component
     * @throws NullPointerException when a list or an entry is null
     */
    public Result {
      errors = List.copyOf(errors);
      warnings = List.copyOf(warnings);
    }
  }

  /**
   * {@link #validateSchema} with the warnings of ratcheted rules.
   *
   * @param object the custom resource
   * @param old the stored one on updates
   * @return the errors and warnings
   */
  public Result check(MapValue object, Optional<MapValue> old) {
    requireNonNull(object, "object");
    requireNonNull(old, "old");
    Optional<Value> oldValue = old.map(o -> o);
    List<FieldError> errs = new ArrayList<>(SchemaValidation.validate(schema, object, oldValue));
    List<FieldError> warnings = new ArrayList<>();
    CelValidation.validate(schema, object, old.orElse(null), "", errs, warnings);
    return new Result(errs, warnings.stream().map(FieldError::toString).toList());
  }

  /**
   * The checks of a write to the status subresource: the {@code status} part of the schema and
   * the CEL rules (kube runs the status schema alone, and all CEL rules, ratcheted).
   *
   * @param object the new custom resource
   * @param old the stored one
   * @return the field errors, as kube reports them; empty when valid
   */
  public List<FieldError> validateStatus(MapValue object, MapValue old) {
    requireNonNull(object, "object");
    requireNonNull(old, "old");
    List<FieldError> errs = new ArrayList<>();
    Optional<SchemaNode> status = schema.property("status");
    Value newStatus = object.getOrNull("status");
    if (status.isPresent() && newStatus != null) {
      Value oldStatus = old.getOrNull("status");
      List<FieldError> statusErrs = SchemaValidation.validate(
          wrapStatus(status.get()), MapValue.ofEntries("status", newStatus),
          oldStatus == null ? Optional.empty()
              : Optional.of(MapValue.ofEntries("status", oldStatus)));
      errs.addAll(statusErrs);
    }
    CelValidation.validate(schema, object, old, "", errs);
    return errs;
  }

  private static SchemaNode wrapStatus(SchemaNode status) {
    return SchemaNode.parse(MapValue.ofEntries("type", Value.of("object"), "properties",
        MapValue.ofEntries("status", status.raw())));
  }

  /**
   * {@code object} with the schema's {@code default}s applied (kube defaults on decoding a
   * request and on reading from storage). Idempotent.
   *
   * @param object the custom resource
   * @return the defaulted object
   */
  public MapValue applyDefaults(MapValue object) {
    Value out = Defaulting.applyDefaults(schema, requireNonNull(object, "object"));
    return out instanceof MapValue m ? m : object;
  }

  /**
   * The result of {@link #prune}.
   *
   * @param object the pruned object
   * @param unknownFields the paths of the removed fields, as kube reports them
   */
  public record PruneResult(MapValue object, List<String> unknownFields) {
    /**
     * Checks the object and copies the paths.
     *
     * @param object see the record component
     * @param unknownFields see the record component
     * @throws NullPointerException when a component is null
     */
    public PruneResult {
      requireNonNull(object, "object");
      unknownFields = List.copyOf(unknownFields);
    }
  }

  /**
   * {@code object} without the fields the schema does not know (respecting
   * {@code x-kubernetes-preserve-unknown-fields} and embedded resources), with their paths as
   * kube reports them for {@code fieldValidation=Warn|Strict} ({@code unknown field "spec.x"}).
   *
   * @param object the custom resource
   * @return the pruned object and the removed paths
   */
  public PruneResult prune(MapValue object) {
    List<String> pruned = new ArrayList<>();
    Value out = Defaulting.prune(schema, requireNonNull(object, "object"), true, pruned::add);
    return new PruneResult(out instanceof MapValue m ? m : object, pruned);
  }

  private static String str(MapValue m, String key) {
    return m.getOrNull(key) instanceof StringValue s ? s.value() : "";
  }
}
