/*
 * Copyright The apiserver4j authors.
 * SPDX-License-Identifier: Apache-2.0
 */
package io.apiserver4j.merge.openapi;

import static java.util.Objects.requireNonNull;

import io.apiserver4j.core.GroupVersionKind;
import io.apiserver4j.core.MapValue;
import io.apiserver4j.core.Value;
import java.util.Arrays;
import java.util.Collections;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;

/**
 * Converts OpenAPI v3 schemas into structured-merge-diff schemas, in SMD's own format as a
 * {@link Value} ({@code {types: [{name: ..., scalar|list|map: ...}, ...]}}), which the merge
 * engine's schema loader reads.
 *
 * <p>The conversion follows kube-openapi's {@code schemaconv.ToSchemaFromOpenAPI}, which
 * kube-apiserver uses to build the type converter behind managed fields and server-side apply:
 * <ul>
 *   <li>{@code type: object} is a map: {@code properties} become struct fields (sorted by name,
 *       with the property's {@code default}); {@code additionalProperties} gives the element type
 *       ({@code true} means {@code __untyped_deduced_}); an object with neither, or one under
 *       {@code x-kubernetes-preserve-unknown-fields: true}, accepts unknown fields as
 *       {@code __untyped_deduced_}. {@code x-kubernetes-map-type} {@code atomic}/{@code granular}
 *       sets the relationship; on a property that refers to a named type it overrides that
 *       type's relationship for this field only.
 *   <li>{@code type: array} is a list of {@code items}. {@code x-kubernetes-list-type}
 *       {@code atomic}, {@code set} (associative, no keys) or {@code map} (associative, keyed by
 *       {@code x-kubernetes-list-map-keys}); without a list type, strategic merge patch's
 *       {@code x-kubernetes-patch-strategy: merge} makes the list associative keyed by
 *       {@code x-kubernetes-patch-merge-key} (a set when there is no merge key); any other list
 *       is atomic.
 *   <li>{@code integer} and {@code number} are numeric scalars, {@code boolean} boolean,
 *       {@code string} a string scalar unless it has a format other than {@code byte} (for
 *       example {@code date-time}), which makes it untyped. A node without {@code type} (for
 *       example {@code IntOrString}, or {@code x-kubernetes-int-or-string} and
 *       {@code x-kubernetes-preserve-unknown-fields} nodes of CRDs) is untyped: an untyped
 *       scalar, an atomic list of {@code __untyped_atomic_} and a map of
 *       {@code __untyped_deduced_}.
 *   <li>{@code $ref: "#/components/schemas/<name>"}, or an {@code allOf} holding only such a
 *       reference, is a reference to the named type; {@code nullable: true} marks the reference
 *       nullable. {@code Quantity} becomes an untyped scalar and {@code RawExtension}
 *       {@code __untyped_atomic_}, as kube-openapi hard-codes them.
 *   <li>SMD's {@code __untyped_atomic_} and {@code __untyped_deduced_} are appended.
 * </ul>
 *
 * <p>Where schemaconv logs a problem and carries on (or misreads the input), these methods throw
 * an {@link OpenApiSchemaException} naming the offending node: non-object schema nodes, unknown
 * {@code type}s, unresolvable or non-local references, unknown list/map types or patch
 * strategies, missing, malformed or duplicate {@code x-kubernetes-list-map-keys}, list-map keys
 * that are not properties of the list items, keys given without list type {@code map}, array
 * schemas without {@code items}, and non-boolean boolean extensions. {@code x-kubernetes-unions}
 * is ignored, as the v3 conversion ignores it.
 *
 * <p>Stateless and thread-safe; the results are immutable and deterministic (type definitions
 * sorted by name in Go's byte order, the two untyped types last).
 */
public final class OpenApiSchemas {
  /** SMD's type for any value that is replaced as a whole. */
  public static final String UNTYPED_ATOMIC = SmdConverter.UNTYPED_ATOMIC;
  /** SMD's type for any value whose maps are merged key by key ("deduced" from the value). */
  public static final String UNTYPED_DEDUCED = SmdConverter.UNTYPED_DEDUCED;
  /** The root type name {@link #fromCrdVersion(Value)} uses. */
  public static final String DEFAULT_CRD_TYPE_NAME = "io.apiserver4j.CustomResource";

  private OpenApiSchemas() {}

  /**
   * Converts every entry of {@code components.schemas} of an OpenAPI v3 document into a type of
   * the same name (for example {@code io.k8s.api.core.v1.Pod}). A document without
   * {@code components.schemas} yields only the two untyped types.
   *
   * @throws OpenApiSchemaException if the document or one of its schemas cannot be converted
   * @param openApiV3Document the parsed OpenAPI v3 document
   * @return the schema in SMD's format ({@code types: [...]})
   */
  public static MapValue fromDocument(Value openApiV3Document) {
    requireNonNull(openApiV3Document, "openApiV3Document");
    SchemaPath root = SchemaPath.root("document");
    if (!(openApiV3Document instanceof MapValue document)) {
      throw root.error("an OpenAPI document must be a JSON object, got "
          + SmdConverter.describe(openApiV3Document));
    }
    Value components = document.getOrNull("components");
    if (components == null || components.isNull()) {
      return fromDefinitions(MapValue.empty(), SchemaPath.root("components.schemas"));
    }
    if (!(components instanceof MapValue c)) {
      throw SchemaPath.root("components").error("must be an object, got "
          + SmdConverter.describe(components));
    }
    Value schemas = c.getOrNull("schemas");
    if (schemas == null || schemas.isNull()) {
      return fromDefinitions(MapValue.empty(), SchemaPath.root("components.schemas"));
    }
    if (!(schemas instanceof MapValue s)) {
      throw SchemaPath.root("components.schemas").error("must be an object, got "
          + SmdConverter.describe(schemas));
    }
    return fromDefinitions(s, SchemaPath.root("components.schemas"));
  }

  /**
   * Converts one version of a CustomResourceDefinition ({@code spec.versions[*].schema
   * .openAPIV3Schema}) with the root type named {@link #DEFAULT_CRD_TYPE_NAME}.
   *
   * @see #fromCrdVersion(Value, GroupVersionKind)
   * @param openApiV3Schema the version's {@code openAPIV3Schema}, or null for none
   * @return the schema and its root type name
   */
  public static CrdSchema fromCrdVersion(Value openApiV3Schema) {
    requireNonNull(openApiV3Schema, "openApiV3Schema");
    return crd(openApiV3Schema, DEFAULT_CRD_TYPE_NAME);
  }

  /**
   * Converts one version of a CustomResourceDefinition ({@code spec.versions[*].schema
   * .openAPIV3Schema}) the way kube-apiserver's CRD handler builds its type converter. The root
   * type is named like kube-apiserver names the version's model ({@link #crdTypeName}).
   *
   * <p>{@code apiVersion} and {@code kind} (strings) and {@code metadata} (the built-in
   * {@code io.k8s.apimachinery.pkg.apis.meta.v1.ObjectMeta}, included in the result together
   * with the types it uses) are added to the root and to every
   * {@code x-kubernetes-embedded-resource} node, replacing what the schema declares for them.
   * A root with {@code x-kubernetes-preserve-unknown-fields: true} keeps those three typed
   * fields and deduces everything else. {@link Value#nullValue()} stands for a version without a
   * schema: its root is a map whose every field is {@code __untyped_deduced_} (what
   * kube-apiserver uses when no structural schema exists).
   *
   * <p>The schema is expected to be structural; only the rules that matter for merging are
   * checked (see the class documentation), and the root must have {@code type: object}.
   *
   * @throws OpenApiSchemaException naming the offending node (paths start at
   *     {@code openAPIV3Schema})
   * @param openApiV3Schema the version's {@code openAPIV3Schema}, or null for none
   * @param gvk the version's group, version and kind, which name the root type
   * @return the schema and its root type name
   */
  public static CrdSchema fromCrdVersion(Value openApiV3Schema, GroupVersionKind gvk) {
    requireNonNull(openApiV3Schema, "openApiV3Schema");
    requireNonNull(gvk, "gvk");
    return crd(openApiV3Schema, crdTypeName(gvk));
  }

  /**
   * The name kube-apiserver gives the OpenAPI model of a custom resource: the group's DNS labels
   * reversed, then version and kind ({@code stable.example.com/v1 CronTab} is
   * {@code com.example.stable.v1.CronTab}).
   *
   * @param gvk the custom resource's group, version and kind
   * @return the model name
   */
  public static String crdTypeName(GroupVersionKind gvk) {
    requireNonNull(gvk, "gvk");
    List<String> labels = Arrays.asList(gvk.group().split("\\.", -1));
    Collections.reverse(labels);
    return String.join(".", labels) + "." + gvk.version() + "." + gvk.kind();
  }

  private static CrdSchema crd(Value openApiV3Schema, String rootName) {
    SchemaPath rootPath = SchemaPath.root("openAPIV3Schema");
    Map<String, SmdConverter.Definition> definitions = new LinkedHashMap<>();
    if (openApiV3Schema.isNull()) {
      definitions.put(rootName,
          new SmdConverter.Definition(CrdPreparation.schemaless(), rootPath));
    } else {
      MapValue root = SmdConverter.asSchema(openApiV3Schema, rootPath);
      MapValue meta = ObjectMetaDefinitions.definitions();
      for (int i = 0; i < meta.size(); i++) {
        definitions.put(meta.keyAt(i), new SmdConverter.Definition(meta.valueAt(i),
            SchemaPath.root("builtin").key(meta.keyAt(i))));
      }
      if (definitions.containsKey(rootName)) {
        throw rootPath.error("the root type name " + rootName + " is taken by a built-in type");
      }
      definitions.put(rootName,
          new SmdConverter.Definition(CrdPreparation.prepareRoot(root, rootPath), rootPath));
    }
    return new CrdSchema(new SmdConverter(definitions).convert(), rootName);
  }

  private static MapValue fromDefinitions(MapValue schemas, SchemaPath path) {
    Map<String, SmdConverter.Definition> definitions = new LinkedHashMap<>();
    for (int i = 0; i < schemas.size(); i++) {
      definitions.put(schemas.keyAt(i),
          new SmdConverter.Definition(schemas.valueAt(i), path.key(schemas.keyAt(i))));
    }
    return new SmdConverter(definitions).convert();
  }
}
