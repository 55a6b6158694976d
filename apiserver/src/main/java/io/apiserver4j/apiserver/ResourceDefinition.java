/*
 * Copyright The apiserver4j authors.
 * SPDX-License-Identifier: Apache-2.0
 */
package io.apiserver4j.apiserver;

import static java.util.Objects.requireNonNull;

import io.apiserver4j.apiserver.internal.BuiltinSchema;
import io.apiserver4j.core.GroupResource;
import io.apiserver4j.core.GroupVersionKind;
import io.apiserver4j.core.GroupVersionResource;
import io.apiserver4j.core.MapValue;
import io.apiserver4j.merge.Atom;
import io.apiserver4j.merge.Schema;
import io.apiserver4j.merge.StructField;
import io.apiserver4j.merge.TypeRef;
import java.util.HashSet;
import java.util.List;
import java.util.Locale;
import java.util.Optional;
import java.util.Set;
import java.util.regex.Pattern;

/**
 * One served resource at one version: its kind and names (what discovery shows), its scope,
 * subresources, the schema that drives merging, validation and unknown-field handling, and its
 * {@link ResourceStrategy}.
 *
 * <p>Several definitions may share a {@link #groupResource()} (the versions of one custom
 * resource); they then share storage, which keeps objects at {@link #storageVersion()}.
 *
 * <p>Immutable and thread-safe; build with {@link #builder(GroupVersionKind, String)}.
 */
public final class ResourceDefinition {
  // kube's ValidateCustomResourceDefinitionNames: the lower-cased kind is a DNS-1035 label
  private static final Pattern KIND = Pattern.compile("[a-zA-Z]([-a-zA-Z0-9]{0,61}[a-zA-Z0-9])?");
  private static final Pattern LOWER_NAME = Pattern.compile("[a-z0-9]([-a-z0-9]*[a-z0-9])?");

  private final GroupVersionKind kind;
  private final String plural;
  private final String singular;
  private final String listKind;
  private final List<String> shortNames;
  private final List<String> categories;
  private final boolean namespaced;
  private final boolean hasStatus;
  private final ScaleSubresource scale;
  private final Schema schema;
  private final String schemaType;
  private final ResourceStrategy strategy;
  private final boolean customResource;
  private final String storageVersion;
  private final List<String> verbs;
  private final String storageVersionHash;
  private final List<Subresource> discoverySubresources;
  private final TablePrinter printer;
  private final List<String> warnings;
  private final MapValue openApiSchema;
  private final java.util.Map<String, SubresourceHandler> subresourceHandlers;

  private ResourceDefinition(Builder b) {
    this.kind = b.kind;
    this.plural = b.plural;
    this.singular = b.singular.isEmpty() ? b.kind.kind().toLowerCase(Locale.ROOT) : b.singular;
    this.listKind = b.listKind.isEmpty() ? b.kind.kind() + "List" : b.listKind;
    this.shortNames = List.copyOf(b.shortNames);
    this.categories = List.copyOf(b.categories);
    this.namespaced = b.namespaced;
    this.hasStatus = b.hasStatus;
    this.scale = b.scale;
    this.schema = b.schema;
    this.schemaType = b.schemaType;
    this.strategy = b.strategy;
    this.customResource = b.customResource;
    this.storageVersion = b.storageVersion.isEmpty() ? b.kind.version() : b.storageVersion;
    this.verbs = b.verbs == null ? STORAGE_VERBS : b.verbs;
    this.storageVersionHash = b.storageVersionHash == null
        ? storageVersionHash(b.kind.group(), storageVersion, b.kind.kind())
        : b.storageVersionHash;
    this.discoverySubresources = b.discoverySubresources == null
        ? servedSubresources(b.kind, b.hasStatus, b.scale != null)
        : b.discoverySubresources;
    this.printer = b.printer;
    this.warnings = List.copyOf(b.warnings);
    this.openApiSchema = b.openApiSchema;
    this.subresourceHandlers = handlers(b.hasStatus, b.scale, b.strategy);
  }

  private static java.util.Map<String, SubresourceHandler> handlers(boolean status,
      ScaleSubresource scale, ResourceStrategy strategy) {
    java.util.Map<String, SubresourceHandler> m = new java.util.HashMap<>();
    if (status) {
      m.put("status", StatusSubresource.INSTANCE);
    }
    if (scale != null) {
      m.put("scale", scale);
    }
    strategy.subresourceCreates().forEach((name, create) -> {
      // "" is the create of the resource itself, no subresource
      if (!name.isEmpty()) {
        m.put(name, create);
      }
    });
    m.putAll(strategy.subresourceConnects());
    // a kind's own status rules replace the common ones
    m.putAll(strategy.subresourceUpdates());
    return java.util.Map.copyOf(m);
  }

  private static final List<String> STORAGE_VERBS = List.of("create", "delete",
      "deletecollection", "get", "list", "patch", "update", "watch");
  private static final List<String> STATUS_VERBS = List.of("get", "patch", "update");

  /**
   * A subresource as discovery lists it: its name, the kind its requests and responses carry,
   * and its verbs.
   */
  public record Subresource(String name, GroupVersionKind kind, List<String> verbs) {
    public Subresource {
      requireNonNull(name, "name");
      requireNonNull(kind, "kind");
      verbs = List.copyOf(verbs);
    }
  }

  private static List<Subresource> servedSubresources(GroupVersionKind kind, boolean status,
      boolean scale) {
    List<Subresource> out = new java.util.ArrayList<>();
    if (scale) {
      out.add(new Subresource("scale", new GroupVersionKind("autoscaling", "v1", "Scale"),
          STATUS_VERBS));
    }
    if (status) {
      out.add(new Subresource("status", kind, STATUS_VERBS));
    }
    return List.copyOf(out);
  }

  // kube-apiserver's discovery hash: base64(sha256("group/version/Kind")[:8]) of the storage
  // version, so that clients can tell when storage moved to another version.
  private static String storageVersionHash(String group, String version, String kind) {
    try {
      byte[] sum = java.security.MessageDigest.getInstance("SHA-256").digest(
          (group + "/" + version + "/" + kind).getBytes(java.nio.charset.StandardCharsets.UTF_8));
      return java.util.Base64.getEncoder().encodeToString(java.util.Arrays.copyOf(sum, 8));
    } catch (java.security.NoSuchAlgorithmException e) {
      throw new IllegalStateException("SHA-256 is required by every JDK", e);
    }
  }

  /**
   * A builder for the resource {@code plural} serving {@code kind}. Defaults: namespaced, no
   * subresources, the deduced schema (any object, maps merged key by key, lists atomic), the
   * default strategy.
   */
  public static Builder builder(GroupVersionKind kind, String plural) {
    return new Builder(requireNonNull(kind, "kind"), requireNonNull(plural, "plural"));
  }

  public Builder toBuilder() {
    Builder b = new Builder(kind, plural);
    b.singular = singular;
    b.listKind = listKind;
    b.shortNames = shortNames;
    b.categories = categories;
    b.namespaced = namespaced;
    b.hasStatus = hasStatus;
    b.scale = scale;
    b.schema = schema;
    b.schemaType = schemaType;
    b.checkedSchema = schema;
    b.checkedSchemaType = schemaType;
    b.strategy = strategy;
    b.customResource = customResource;
    b.storageVersion = storageVersion;
    b.verbs = verbs;
    b.storageVersionHash = storageVersionHash;
    b.discoverySubresources = discoverySubresources;
    b.printer = printer;
    b.warnings = warnings;
    b.openApiSchema = openApiSchema;
    return b;
  }

  public GroupVersionKind kind() {
    return kind;
  }

  /** The endpoint: group, version and plural resource name. */
  public GroupVersionResource resource() {
    return new GroupVersionResource(kind.group(), kind.version(), plural);
  }

  public GroupResource groupResource() {
    return new GroupResource(kind.group(), plural);
  }

  public String plural() {
    return plural;
  }

  public String singular() {
    return singular;
  }

  public String listKind() {
    return listKind;
  }

  public List<String> shortNames() {
    return shortNames;
  }

  public List<String> categories() {
    return categories;
  }

  public boolean namespaced() {
    return namespaced;
  }

  /** Whether the {@code status} subresource is served. */
  public boolean hasStatus() {
    return hasStatus;
  }

  /** The {@code scale} subresource, if served. */
  public Optional<ScaleSubresource> scale() {
    return Optional.ofNullable(scale);
  }

  public Schema schema() {
    return schema;
  }

  /** The name of the object's type in {@link #schema()}. */
  public String schemaType() {
    return schemaType;
  }

  public ResourceStrategy strategy() {
    return strategy;
  }

  /**
   * Whether this is a custom resource (served from a CustomResourceDefinition): list items then
   * keep {@code apiVersion} and {@code kind}, as kube-apiserver's unstructured lists do.
   */
  public boolean customResource() {
    return customResource;
  }

  /** The version objects of this group/resource are stored at. */
  public String storageVersion() {
    return storageVersion;
  }

  /**
   * The verbs discovery lists for the main resource, sorted: all eight by default, fewer for
   * resources that declare them (e.g. {@code create} for bindings and the review kinds).
   */
  public List<String> verbs() {
    return verbs;
  }

  /**
   * The {@code storageVersionHash} discovery shows: as declared, or kube-apiserver's hash of
   * the group, {@link #storageVersion()} and kind; empty for resources without storage.
   */
  public String storageVersionHash() {
    return storageVersionHash;
  }

  /**
   * Every subresource discovery lists, sorted by name: by default those served
   * ({@link #subresources()}); built-in kinds also list those kube-apiserver has, such as
   * {@code pods/eviction} or {@code serviceaccounts/token}.
   */
  public List<Subresource> discoverySubresources() {
    return discoverySubresources;
  }

  /**
   * How objects print as tables ({@code kubectl get}); empty for kube's default columns
   * ({@code Name}, {@code Created At}) or, for custom resources, the CRD's printer columns.
   */
  /**
   * The warnings every request to this resource raises, as kube's for a deprecated custom
   * resource version; empty for most resources.
   */
  public List<String> warnings() {
    return warnings;
  }

  /**
   * The OpenAPI v3 schema to publish for the kind when it is not derived from {@link #schema()}:
   * a CRD version's {@code openAPIV3Schema}, with its types, formats and descriptions.
   */
  public Optional<MapValue> openApiSchema() {
    return Optional.ofNullable(openApiSchema);
  }

  public Optional<TablePrinter> printer() {
    return Optional.ofNullable(printer);
  }

  /**
   * Whether the server serves {@code subresource} of this resource: status, scale, or one its
   * strategy creates (e.g. {@code serviceaccounts/token}) or updates with its own rules (e.g.
   * {@code pods/resize}).
   */
  public boolean servesSubresource(String subresource) {
    return subresourceHandlers.containsKey(subresource);
  }

  /**
   * The handler of {@code subresource}, if the resource serves it: the common status, the
   * scale, or one its strategy declares (which replaces the common status rules for
   * {@code status}).
   */
  public Optional<SubresourceHandler> subresource(String subresource) {
    return Optional.ofNullable(subresourceHandlers.get(subresource));
  }

  /** The subresources served: {@code status} and/or {@code scale}. */
  public List<String> subresources() {
    if (hasStatus && scale != null) {
      return List.of("status", "scale");
    }
    if (hasStatus) {
      return List.of("status");
    }
    return scale != null ? List.of("scale") : List.of();
  }

  @Override
  public String toString() {
    return "ResourceDefinition[" + resource() + ", kind=" + kind.kind()
        + (namespaced ? ", namespaced" : ", cluster") + "]";
  }

  /** Mutable builder of {@link ResourceDefinition}; not thread-safe. */
  public static final class Builder {
    private final GroupVersionKind kind;
    private final String plural;
    private String singular = "";
    private String listKind = "";
    private List<String> shortNames = List.of();
    private List<String> categories = List.of();
    private boolean namespaced = true;
    private boolean hasStatus;
    private ScaleSubresource scale;
    private Schema schema;
    private String schemaType;
    // the schema and type of the definition this builder copies, whose references its build
    // checked already (schemas are immutable): a server's build derives definitions this way
    private Schema checkedSchema;
    private String checkedSchemaType;
    private ResourceStrategy strategy = ResourceStrategy.defaults();
    private boolean customResource;
    private String storageVersion = "";
    private List<String> verbs;
    private String storageVersionHash;
    private List<Subresource> discoverySubresources;
    private TablePrinter printer;
    private List<String> warnings = List.of();
    private MapValue openApiSchema;

    private Builder(GroupVersionKind kind, String plural) {
      this.kind = kind;
      this.plural = plural;
    }

    public Builder singular(String s) {
      this.singular = requireNonNull(s, "singular");
      return this;
    }

    public Builder listKind(String k) {
      this.listKind = requireNonNull(k, "listKind");
      return this;
    }

    public Builder shortNames(List<String> names) {
      this.shortNames = List.copyOf(names);
      return this;
    }

    public Builder categories(List<String> c) {
      this.categories = List.copyOf(c);
      return this;
    }

    public Builder namespaced(boolean n) {
      this.namespaced = n;
      return this;
    }

    public Builder status(boolean s) {
      this.hasStatus = s;
      return this;
    }

    public Builder scale(ScaleSubresource s) {
      this.scale = requireNonNull(s, "scale");
      return this;
    }

    public Builder noScale() {
      this.scale = null;
      return this;
    }

    /** The schema and the name of the object's type in it. */
    public Builder schema(Schema s, String typeName) {
      this.schema = requireNonNull(s, "schema");
      this.schemaType = requireNonNull(typeName, "typeName");
      return this;
    }

    public Builder strategy(ResourceStrategy s) {
      this.strategy = requireNonNull(s, "strategy");
      return this;
    }

    public Builder customResource(boolean c) {
      this.customResource = c;
      return this;
    }

    public Builder storageVersion(String v) {
      this.storageVersion = requireNonNull(v, "storageVersion");
      return this;
    }

    /** The verbs of the resource itself (default: all eight). */
    public Builder verbs(List<String> v) {
      this.verbs = List.copyOf(v);
      return this;
    }

    /** The discovery hash (default: computed from the storage version); empty for none. */
    public Builder storageVersionHash(String hash) {
      this.storageVersionHash = requireNonNull(hash, "hash");
      return this;
    }

    /**
     * The subresources discovery lists (default: the served {@code status} and {@code scale});
     * sorted by name when built.
     */
    public Builder discoverySubresources(List<Subresource> subresources) {
      List<Subresource> sorted = new java.util.ArrayList<>(subresources);
      sorted.sort(java.util.Comparator.comparing(Subresource::name));
      this.discoverySubresources = List.copyOf(sorted);
      return this;
    }

    /** The table printer (default: none, kube's default columns). */
    public Builder printer(TablePrinter p) {
      this.printer = requireNonNull(p, "printer");
      return this;
    }

    /** The OpenAPI v3 schema to publish for the kind (a CRD version's openAPIV3Schema). */
    public Builder openApiSchema(MapValue s) {
      this.openApiSchema = requireNonNull(s, "openApiSchema");
      return this;
    }

    /** Warnings every request to the resource raises (a deprecated version's). */
    public Builder warnings(List<String> w) {
      this.warnings = List.copyOf(w);
      return this;
    }

    /**
     * @throws IllegalArgumentException if a name is not a lowercase DNS label, the kind is empty
     *     or, lower-cased, not a DNS-1035 label (kube's rule for a CRD's kind, which may be all
     *     lower case), the version is empty, or the schema type (or a type it uses) does not
     *     exist in the schema
     */
    public ResourceDefinition build() {
      if (!KIND.matcher(kind.kind()).matches()) {
        throw new IllegalArgumentException(
            "kind must be a DNS-1035 label when lower-cased: " + kind);
      }
      if (kind.version().isEmpty()) {
        throw new IllegalArgumentException("version must not be empty: " + kind);
      }
      checkLower("plural", plural);
      if (!singular.isEmpty()) {
        checkLower("singular", singular);
      }
      for (String s : shortNames) {
        checkLower("shortName", s);
      }
      if (schema == null) {
        schema = Schema.deducedSchema();
        schemaType = Schema.UNTYPED_DEDUCED;
      }
      if (schema.findNamedType(schemaType).isEmpty()) {
        throw new IllegalArgumentException("schema type " + schemaType + " of " + kind
            + " is not defined in the schema");
      }
      if (schema != checkedSchema || !schemaType.equals(checkedSchemaType)) {
        // Every type reachable from the object's type must exist, or typing objects fails later.
        References.firstUnresolved(schema, TypeRef.named(schemaType)).ifPresent(ref -> {
          throw new IllegalArgumentException("the schema of " + kind + " refers to "
              + ref.namedType().map(n -> "the undefined type " + n)
                  .orElse("an unresolvable type")
              + " (SMD's untyped types must be defined by the schema too)");
        });
      }
      return new ResourceDefinition(this);
    }

    private static void checkLower(String what, String value) {
      if (!LOWER_NAME.matcher(value).matches()) {
        throw new IllegalArgumentException(what + " must be a lowercase DNS label: " + value);
      }
    }
  }

  /**
   * The first type reachable from a kind's type that its schema does not define (else typing its
   * objects fails later). A built-in schema is closed by construction (BuiltinSchemaDataTest
   * proves it for every release) and is not walked.
   */
  private static final class References {
    private References() {}

    static Optional<TypeRef> firstUnresolved(Schema schema, TypeRef type) {
      if (BuiltinSchema.version(schema).isPresent()) {
        return Optional.empty();
      }
      return Optional.ofNullable(walk(schema, type, new HashSet<>()));
    }

    private static TypeRef walk(Schema s, TypeRef ref, Set<TypeRef> seen) {
      if (!seen.add(ref)) {
        return null;
      }
      Optional<Atom> resolved = s.resolve(ref);
      if (resolved.isEmpty()) {
        return ref;
      }
      Atom atom = resolved.get();
      if (atom.list().isPresent()) {
        TypeRef bad = walk(s, atom.list().get().elementType(), seen);
        if (bad != null) {
          return bad;
        }
      }
      if (atom.map().isPresent()) {
        if (!atom.map().get().elementType().isNone()) {
          TypeRef bad = walk(s, atom.map().get().elementType(), seen);
          if (bad != null) {
            return bad;
          }
        }
        for (StructField f : atom.map().get().fields()) {
          TypeRef bad = walk(s, f.type(), seen);
          if (bad != null) {
            return bad;
          }
        }
      }
      return null;
    }
  }
}
