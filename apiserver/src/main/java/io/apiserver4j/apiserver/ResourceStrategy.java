/*
 * Copyright The apiserver4j authors.
 * SPDX-License-Identifier: Apache-2.0
 */
package io.apiserver4j.apiserver;

import static java.util.Objects.requireNonNull;

import io.apiserver4j.apiserver.strategy.GenerationPolicy;
import io.apiserver4j.apiserver.strategy.Validator;
import io.apiserver4j.apiserver.strategy.Converter;
import io.apiserver4j.apiserver.strategy.Defaulter;
import io.apiserver4j.apiserver.strategy.GracePeriod;
import io.apiserver4j.apiserver.Allocator;
import io.apiserver4j.apiserver.strategy.VirtualCreate;
import io.apiserver4j.core.MapValue;
import io.apiserver4j.fieldpath.FieldName;
import io.apiserver4j.fieldpath.FieldPath;
import io.apiserver4j.fieldpath.FieldSet;
import java.util.LinkedHashSet;
import java.util.List;
import java.util.Optional;
import java.util.Set;
import io.apiserver4j.apimachinery.validation.NameValidation;

/**
 * How one resource behaves on writes, the counterpart of kube-apiserver's REST strategies
 * ({@code RESTCreateStrategy}, {@code RESTUpdateStrategy}, {@code ResetFieldsStrategy}, graceful
 * delete): which fields each endpoint may not set (reset fields), whether updates need a
 * resourceVersion, whether PUT may create, when {@code metadata.generation} moves, how names are
 * validated, extra preparation and validation hooks, and graceful deletion.
 *
 * <p>The status handling common to all kinds is derived from {@link ResourceDefinition#hasStatus()}:
 * with a status subresource, the main resource cannot change {@code status} (a create clears it,
 * an update keeps the stored one) and the status endpoint can change nothing but {@code status}
 * (and the metadata not listed in {@link #statusPreservedMetadata()}).
 *
 * <p>Immutable and thread-safe; hooks must be thread-safe and side-effect free.
 */
public final class ResourceStrategy {
  /** Extra preparation of an object before validation (kube's {@code PrepareForCreate/Update}). */
  @FunctionalInterface
  public interface Preparer {
    /**
     * @param object the object about to be stored
     * @param old the stored object on updates
     * @return the prepared object
     */
    MapValue prepare(MapValue object, Optional<MapValue> old);
  }

  /**
   * The part of kube's {@code PrepareForCreate} that reads the requesting user from the
   * request's context, for kinds that record who creates them (a CertificateSigningRequest's
   * {@code spec.username}, {@code uid}, {@code groups} and {@code extra}). Runs after the
   * {@link Preparer} of creates.
   */
  @FunctionalInterface
  public interface CreatorPreparer {
    /**
     * @param object the object about to be stored
     * @param user the requesting user; {@link io.apiserver4j.admission.UserInfo#empty()} when
     *     the request carries none (kube: no user in the context)
     * @return the prepared object
     */
    MapValue prepare(MapValue object, io.apiserver4j.admission.UserInfo user);
  }

  private static final ResourceStrategy DEFAULT = builder().build();

  private final boolean allowCreateOnUpdate;
  private final boolean allowUnconditionalUpdate;
  private final GenerationPolicy generationPolicy;
  private final NameValidation nameValidation;
  private final FieldSet extraMainResetFields;
  private final FieldSet extraStatusResetFields;
  private final Set<String> statusPreservedMetadata;
  private final Preparer prepareForCreate;
  private final CreatorPreparer prepareForCreateByUser;
  private final Preparer prepareForUpdate;
  private final Validator validator;
  private final GatedValidator gatedValidator;
  private final Defaulter defaulter;
  private final Converter converter;
  private final GracePeriod gracePeriod;
  private final boolean returnDeletedObject;
  private final Set<String> omitEmptyFields;
  private final boolean defaultOnRead;
  private final VirtualCreate virtualCreate;
  private final java.util.Map<String, SubresourceCreate> subresourceCreates;
  private final java.util.Map<String, SubresourceUpdate> subresourceUpdates;
  private final java.util.Map<String, SubresourceConnect> subresourceConnects;
  private final Set<String> selectableFields;
  private final Allocator allocator;
  private final io.apiserver4j.apiserver.strategy.DisabledFields disabledFields;
  private final StatusDisabledFields statusDisabledFields;
  private final io.apiserver4j.kubeapi.FeatureGates featureGates;

  /**
   * kube's drop of the status fields of disabled gates on an update through the status
   * endpoint (the Pod's {@code dropDisabledPodStatusFields}). Must be thread-safe and free of
   * side effects.
   */
  @FunctionalInterface
  public interface StatusDisabledFields {
    /**
     * Drops the disabled status fields.
     *
     * @param object the object about to be stored: the stored one with the request's status
     * @param old the stored object
     * @param gates the server's feature gates at its emulated release
     * @return the object without the status fields of disabled gates not in use by {@code old}
     */
    MapValue drop(MapValue object, MapValue old, io.apiserver4j.kubeapi.FeatureGates gates);
  }

  private ResourceStrategy(Builder b) {
    this.allowCreateOnUpdate = b.allowCreateOnUpdate;
    this.allowUnconditionalUpdate = b.allowUnconditionalUpdate;
    this.generationPolicy = b.generationPolicy;
    this.nameValidation = b.nameValidation;
    this.extraMainResetFields = b.extraMainResetFields;
    this.extraStatusResetFields = b.extraStatusResetFields;
    this.statusPreservedMetadata = Set.copyOf(b.statusPreservedMetadata);
    this.prepareForCreate = b.prepareForCreate;
    this.prepareForCreateByUser = b.prepareForCreateByUser;
    this.prepareForUpdate = b.prepareForUpdate;
    this.gatedValidator = b.gatedValidator;
    this.featureGates = b.featureGates;
    this.validator = b.gatedValidator == null ? b.validator
        : bind(b.gatedValidator, featureGates());
    this.defaulter = b.defaulter;
    this.converter = b.converter;
    this.gracePeriod = b.gracePeriod;
    this.returnDeletedObject = b.returnDeletedObject;
    this.omitEmptyFields = b.omitEmptyFields;
    this.defaultOnRead = b.defaultOnRead;
    this.virtualCreate = b.virtualCreate;
    this.subresourceCreates = java.util.Map.copyOf(b.subresourceCreates);
    this.subresourceUpdates = java.util.Map.copyOf(b.subresourceUpdates);
    this.subresourceConnects = java.util.Map.copyOf(b.subresourceConnects);
    this.selectableFields = b.selectableFields;
    this.allocator = b.allocator;
    this.disabledFields = b.disabledFields;
    this.statusDisabledFields = b.statusDisabledFields;
  }

  private static Validator bind(GatedValidator v, io.apiserver4j.kubeapi.FeatureGates gates) {
    return new Validator() {
      @Override
      public List<io.apiserver4j.core.errors.FieldError> validate(MapValue object,
          Optional<MapValue> old) {
        return check(object, old).errors();
      }

      @Override
      public io.apiserver4j.apiserver.strategy.Verdict check(MapValue object,
          Optional<MapValue> old) {
        return v.check(object, old, gates);
      }
    };
  }

  /** The strategy of a plain namespaced or cluster-scoped kind: see the builder's defaults. */
  public static ResourceStrategy defaults() {
    return DEFAULT;
  }

  /**
   * A builder with kube's most common defaults: no create on update, unconditional update
   * allowed, no generation, DNS-1123 subdomain names, no hooks, no graceful deletion, a
   * {@code Status} returned by deletes.
   */
  public static Builder builder() {
    return new Builder();
  }

  public Builder toBuilder() {
    Builder b = new Builder();
    b.allowCreateOnUpdate = allowCreateOnUpdate;
    b.allowUnconditionalUpdate = allowUnconditionalUpdate;
    b.generationPolicy = generationPolicy;
    b.nameValidation = nameValidation;
    b.extraMainResetFields = extraMainResetFields;
    b.extraStatusResetFields = extraStatusResetFields;
    b.statusPreservedMetadata = new LinkedHashSet<>(statusPreservedMetadata);
    b.prepareForCreate = prepareForCreate;
    b.prepareForCreateByUser = prepareForCreateByUser;
    b.prepareForUpdate = prepareForUpdate;
    b.validator = validator;
    b.gatedValidator = gatedValidator;
    b.defaulter = defaulter;
    b.converter = converter;
    b.gracePeriod = gracePeriod;
    b.returnDeletedObject = returnDeletedObject;
    b.omitEmptyFields = omitEmptyFields;
    b.defaultOnRead = defaultOnRead;
    b.virtualCreate = virtualCreate;
    b.subresourceCreates = new java.util.HashMap<>(subresourceCreates);
    b.subresourceUpdates = new java.util.HashMap<>(subresourceUpdates);
    b.subresourceConnects = new java.util.HashMap<>(subresourceConnects);
    b.selectableFields = selectableFields;
    b.allocator = allocator;
    b.disabledFields = disabledFields;
    b.statusDisabledFields = statusDisabledFields;
    b.featureGates = featureGates;
    return b;
  }

  /**
   * Runs the kind's {@link Builder#dropDisabledFields} hook with the strategy's
   * {@link #featureGates() feature gates}: kube's {@code dropDisabledFields}, which the server
   * runs first when it prepares a create or a main-resource update.
   *
   * @param object the object about to be stored
   * @param old the stored object on updates, empty on creates
   * @return the object without the fields of disabled gates that {@code old} does not use
   */
  public MapValue dropDisabledFields(MapValue object, Optional<MapValue> old) {
    return disabledFields == null ? object : disabledFields.drop(object, old, featureGates());
  }

  /**
   * Runs the kind's {@link Builder#dropDisabledStatusFields} hook with the strategy's
   * {@link #featureGates() feature gates}; the server runs it when it prepares an update
   * through the status endpoint.
   *
   * @param object the object about to be stored: the stored one with the request's status
   * @param old the stored object
   * @return the object without the status fields of disabled gates that {@code old} does not use
   */
  public MapValue dropDisabledStatusFields(MapValue object, MapValue old) {
    return statusDisabledFields == null ? object
        : statusDisabledFields.drop(object, old, featureGates());
  }

  /** Whether the kind declares a hook that reads the feature gates. */
  boolean dropsDisabledFields() {
    return disabledFields != null || statusDisabledFields != null || gatedValidator != null;
  }

  /**
   * Validation that reads the feature gates, as kube's validation reads its options from the
   * global feature gate (e.g. the Pod's {@code PodValidationOptions}). Must be thread-safe and
   * free of side effects.
   */
  @FunctionalInterface
  public interface GatedValidator {
    /**
     * @param object the object about to be stored
     * @param old the stored object on updates
     * @param gates the server's feature gates at its emulated release
     * @return field errors; empty when valid
     */
    List<io.apiserver4j.core.errors.FieldError> validate(MapValue object, Optional<MapValue> old,
        io.apiserver4j.kubeapi.FeatureGates gates);

    /**
     * The validation with its warnings; none unless a validator says otherwise.
     *
     * @param object the object about to be stored
     * @param old the stored object on updates
     * @param gates the server's feature gates at its emulated release
     * @return the errors and warnings
     */
    default io.apiserver4j.apiserver.strategy.Verdict check(MapValue object,
        Optional<MapValue> old, io.apiserver4j.kubeapi.FeatureGates gates) {
      return new io.apiserver4j.apiserver.strategy.Verdict(validate(object, old, gates),
          List.of());
    }
  }

  /**
   * {@return the feature gates the {@link Builder#dropDisabledFields} hook reads: those an
   * {@link ApiServer} binds to its definitions, else the defaults of the newest release}
   */
  public io.apiserver4j.kubeapi.FeatureGates featureGates() {
    return featureGates != null ? featureGates : LatestGates.DEFAULTS;
  }

  /** The newest release's default gates, made on first use. */
  private static final class LatestGates {
    static final io.apiserver4j.kubeapi.FeatureGates DEFAULTS =
        io.apiserver4j.kubeapi.FeatureGates.defaults(io.apiserver4j.kubeapi.KubeVersion.latest());
  }

  /** Whether PUT on a missing object creates it. */
  public boolean allowCreateOnUpdate() {
    return allowCreateOnUpdate;
  }

  /** Whether PUT without {@code metadata.resourceVersion} overwrites (last write wins). */
  public boolean allowUnconditionalUpdate() {
    return allowUnconditionalUpdate;
  }

  public GenerationPolicy generationPolicy() {
    return generationPolicy;
  }

  public NameValidation nameValidation() {
    return nameValidation;
  }

  /**
   * Fields the main resource endpoint resets besides {@code status} (which is reset whenever the
   * kind has a status subresource).
   */
  public FieldSet extraMainResetFields() {
    return extraMainResetFields;
  }

  /**
   * Fields the status endpoint resets besides {@code spec} (e.g. {@code metadata.labels} for
   * the apps kinds).
   */
  public FieldSet extraStatusResetFields() {
    return extraStatusResetFields;
  }

  /**
   * Metadata fields a status update cannot change; {@code "*"} means all of metadata (custom
   * resources).
   */
  public Set<String> statusPreservedMetadata() {
    return statusPreservedMetadata;
  }

  public Preparer prepareForCreate() {
    return prepareForCreate;
  }

  /** The preparation of creates that reads the requesting user; none changes nothing. */
  public CreatorPreparer prepareForCreateByUser() {
    return prepareForCreateByUser;
  }

  public Preparer prepareForUpdate() {
    return prepareForUpdate;
  }

  public Validator validator() {
    return validator;
  }

  public Converter converter() {
    return converter;
  }

  public Defaulter defaulter() {
    return defaulter;
  }

  /** The default grace period, for kinds that delete gracefully (Pod). */
  public Optional<GracePeriod> gracePeriod() {
    return Optional.ofNullable(gracePeriod);
  }

  /** The allocator of the kind's shared values, for kinds that have one (Service). */
  public Optional<Allocator> allocator() {
    return Optional.ofNullable(allocator);
  }

  /** Whether a delete returns the deleted object rather than a {@code Status}. */
  public boolean returnDeletedObject() {
    return returnDeletedObject;
  }

  /**
   * Top-level fields that Go's {@code omitempty} drops from a built-in object when they are empty
   * maps (e.g. a ConfigMap's {@code data}), as kube's typed structs do on the way through.
   */
  public Set<String> omitEmptyFields() {
    return omitEmptyFields;
  }

  /**
   * Whether objects of a built-in kind are defaulted when they are read back from storage, as
   * kube's storage codec defaults every decode: for kinds whose defaults depend on what a later
   * step of a write sets (a Job's labels are its template's, which {@code PrepareForCreate}
   * labels after defaulting), so that a stored object gains them at its first read (get, list,
   * watch, and the current object of every write). Other built-in kinds are served from
   * storage unchanged. Custom resources are always defaulted on read.
   */
  public boolean defaultOnRead() {
    return defaultOnRead;
  }

  /** How a create of a resource that stores nothing is answered, for such resources. */
  public Optional<VirtualCreate> virtualCreate() {
    return Optional.ofNullable(virtualCreate);
  }

  /** How a create of {@code subresource} of a named object is answered, if it is served. */
  public Optional<SubresourceCreate> subresourceCreate(String subresource) {
    return Optional.ofNullable(subresourceCreates.get(subresource));
  }

  /** Every subresource create, by subresource ({@code ""}: the create of the resource). */
  public java.util.Map<String, SubresourceCreate> subresourceCreates() {
    return subresourceCreates;
  }

  /** Every subresource's rules when it writes the parent object, by subresource. */
  public java.util.Map<String, SubresourceUpdate> subresourceUpdates() {
    return subresourceUpdates;
  }

  /** Every subresource answered from a kubelet or a proxied endpoint, by subresource. */
  public java.util.Map<String, SubresourceConnect> subresourceConnects() {
    return subresourceConnects;
  }

  /** The rules of {@code subresource} when it writes the parent object, if it is served. */
  public Optional<SubresourceUpdate> subresourceUpdate(String subresource) {
    return Optional.ofNullable(subresourceUpdates.get(subresource));
  }

  /**
   * The fields a field selector may name besides {@code metadata.name} and
   * {@code metadata.namespace} (kube's {@code GetAttrs} of the kind).
   */
  public Set<String> selectableFields() {
    return selectableFields;
  }

  /**
   * The reset fields of one endpoint, as kube's {@code GetResetFields}: {@code status} (plus the
   * extra main reset fields) on the main resource of a kind with a status subresource,
   * {@code spec} (plus the extra status reset fields) on {@code status}, nothing on {@code scale}.
   */
  public FieldSet resetFields(String subresource, boolean hasStatus) {
    SubresourceUpdate update = subresourceUpdates.get(subresource);
    if (update != null) {
      return update.resetFields();
    }
    if (subresource.equals("status")) {
      return FieldSet.of(path("spec")).union(extraStatusResetFields);
    }
    if (subresource.isEmpty() && hasStatus) {
      return FieldSet.of(path("status")).union(extraMainResetFields);
    }
    return subresource.isEmpty() ? extraMainResetFields : FieldSet.empty();
  }

  private static FieldPath path(String field) {
    return FieldPath.of(new FieldName(field));
  }

  /** Mutable builder of {@link ResourceStrategy}; not thread-safe. */
  public static final class Builder {
    private boolean allowCreateOnUpdate;
    private boolean allowUnconditionalUpdate = true;
    private GenerationPolicy generationPolicy = GenerationPolicy.NONE;
    private NameValidation nameValidation = NameValidation.DNS1123_SUBDOMAIN;
    private FieldSet extraMainResetFields = FieldSet.empty();
    private FieldSet extraStatusResetFields = FieldSet.empty();
    private Set<String> statusPreservedMetadata = new LinkedHashSet<>();
    private Preparer prepareForCreate = (o, old) -> o;
    private CreatorPreparer prepareForCreateByUser = (o, user) -> o;
    private Preparer prepareForUpdate = (o, old) -> o;
    private Validator validator = (o, old) -> List.of();
    private GatedValidator gatedValidator;
    private Defaulter defaulter = o -> o;
    private Converter converter = Converter.NONE;
    private GracePeriod gracePeriod;
    private boolean returnDeletedObject;
    private Set<String> omitEmptyFields = Set.of();
    private boolean defaultOnRead;
    private VirtualCreate virtualCreate;
    private java.util.Map<String, SubresourceCreate> subresourceCreates =
        new java.util.HashMap<>();
    private java.util.Map<String, SubresourceUpdate> subresourceUpdates =
        new java.util.HashMap<>();
    private java.util.Map<String, SubresourceConnect> subresourceConnects =
        new java.util.HashMap<>();
    private Set<String> selectableFields = Set.of();
    private Allocator allocator;
    private io.apiserver4j.apiserver.strategy.DisabledFields disabledFields;
    private StatusDisabledFields statusDisabledFields;
    private io.apiserver4j.kubeapi.FeatureGates featureGates;

    private Builder() {}

    /**
     * kube's drop of disabled status fields on updates through the status endpoint, as the Pod's
     * status strategy runs {@code dropDisabledPodStatusFields} (default: none).
     *
     * @param drop the hook
     * @return this builder
     */
    public Builder dropDisabledStatusFields(StatusDisabledFields drop) {
      this.statusDisabledFields = requireNonNull(drop, "drop");
      return this;
    }

    /**
     * kube's {@code dropDisabledFields} of the kind: clears fields whose feature gate is off on
     * creates and main-resource updates (default: none).
     *
     * @param drop the hook
     * @return this builder
     */
    public Builder dropDisabledFields(io.apiserver4j.apiserver.strategy.DisabledFields drop) {
      this.disabledFields = requireNonNull(drop, "drop");
      return this;
    }

    /**
     * The feature gates the {@link #dropDisabledFields} hook reads; an {@link ApiServer} sets
     * its own on every definition it serves (default: the newest release's defaults).
     *
     * @param gates the gates
     * @return this builder
     */
    public Builder featureGates(io.apiserver4j.kubeapi.FeatureGates gates) {
      this.featureGates = requireNonNull(gates, "gates");
      return this;
    }

    public Builder allocator(Allocator a) {
      this.allocator = requireNonNull(a, "allocator");
      return this;
    }

    /**
     * Serves {@code subresource} of named objects through the HTTP layer with {@code connect}
     * (kube's connecters: logs, exec, proxies).
     */
    public Builder subresourceConnect(String subresource, SubresourceConnect connect) {
      if (requireNonNull(subresource, "subresource").isEmpty()) {
        throw new IllegalArgumentException("a connect subresource needs a name");
      }
      subresourceConnects.put(subresource, requireNonNull(connect, "connect"));
      return this;
    }

    /**
     * Serves POST on {@code subresource} of named objects with {@code create} ({@code ""}: the
     * creates of the resource itself).
     */
    public Builder subresourceCreate(String subresource, SubresourceCreate create) {
      subresourceCreates.put(requireNonNull(subresource, "subresource"),
          requireNonNull(create, "create"));
      return this;
    }

    /**
     * Serves GET, PUT and PATCH on {@code subresource} of named objects with {@code rules}; for
     * {@code status}, the rules replace the common status rules (kube's own status strategy).
     */
    public Builder subresourceUpdate(String subresource, SubresourceUpdate rules) {
      if (subresource.isEmpty() || subresource.equals("scale")) {
        throw new IllegalArgumentException("subresource " + "\"" + subresource + "\""
            + " cannot have update rules");
      }
      subresourceUpdates.put(subresource, requireNonNull(rules, "rules"));
      return this;
    }

    public Builder virtualCreate(VirtualCreate create) {
      this.virtualCreate = requireNonNull(create, "create");
      return this;
    }

    public Builder omitEmptyFields(String... fields) {
      this.omitEmptyFields = Set.of(fields);
      return this;
    }

    /** Defaults the kind's objects on every read from storage: see {@link #defaultOnRead()}. */
    public Builder defaultOnRead() {
      this.defaultOnRead = true;
      return this;
    }

    public Builder selectableFields(String... fields) {
      this.selectableFields = Set.of(fields);
      return this;
    }

    public Builder allowCreateOnUpdate(boolean allow) {
      this.allowCreateOnUpdate = allow;
      return this;
    }

    public Builder allowUnconditionalUpdate(boolean allow) {
      this.allowUnconditionalUpdate = allow;
      return this;
    }

    public Builder generationPolicy(GenerationPolicy policy) {
      this.generationPolicy = requireNonNull(policy, "policy");
      return this;
    }

    public Builder nameValidation(NameValidation validation) {
      this.nameValidation = requireNonNull(validation, "validation");
      return this;
    }

    public Builder extraMainResetFields(FieldSet fields) {
      this.extraMainResetFields = requireNonNull(fields, "fields");
      return this;
    }

    public Builder extraStatusResetFields(FieldSet fields) {
      this.extraStatusResetFields = requireNonNull(fields, "fields");
      return this;
    }

    /** Metadata keys a status update keeps from the stored object ({@code "*"} for all). */
    public Builder statusPreservedMetadata(String... keys) {
      this.statusPreservedMetadata = new LinkedHashSet<>(List.of(keys));
      return this;
    }

    public Builder prepareForCreate(Preparer preparer) {
      this.prepareForCreate = requireNonNull(preparer, "preparer");
      return this;
    }

    /** Prepares creates with the requesting user, after {@link #prepareForCreate}. */
    public Builder prepareForCreateByUser(CreatorPreparer preparer) {
      this.prepareForCreateByUser = requireNonNull(preparer, "preparer");
      return this;
    }

    public Builder prepareForUpdate(Preparer preparer) {
      this.prepareForUpdate = requireNonNull(preparer, "preparer");
      return this;
    }

    /**
     * Validation that reads the strategy's {@link ResourceStrategy#featureGates() feature
     * gates}; replaces any {@link #validator(Validator)}.
     *
     * @param v the validation
     * @return this builder
     */
    public Builder gatedValidator(GatedValidator v) {
      this.gatedValidator = requireNonNull(v, "validator");
      return this;
    }

    public Builder validator(Validator v) {
      this.validator = requireNonNull(v, "validator");
      this.gatedValidator = null;
      return this;
    }

    /** How objects convert between the served versions (default: apiVersion rewritten). */
    public Builder converter(Converter c) {
      this.converter = requireNonNull(c, "converter");
      return this;
    }

    public Builder defaulter(Defaulter d) {
      this.defaulter = requireNonNull(d, "defaulter");
      return this;
    }

    /** Enables graceful deletion with a default grace period computed from the object. */
    public Builder gracePeriod(GracePeriod period) {
      this.gracePeriod = requireNonNull(period, "period");
      return this;
    }

    public Builder returnDeletedObject(boolean returnObject) {
      this.returnDeletedObject = returnObject;
      return this;
    }

    public ResourceStrategy build() {
      return new ResourceStrategy(this);
    }
  }
}
