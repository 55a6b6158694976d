/*
 * Copyright The apiserver4j authors.
 * SPDX-License-Identifier: Apache-2.0
 */
package io.apiserver4j.admission;

import static java.util.Objects.requireNonNull;

import io.apiserver4j.cel.CelAuthorizer;
import io.apiserver4j.core.GroupVersionKind;
import io.apiserver4j.core.GroupVersionResource;
import io.apiserver4j.core.ListValue;
import io.apiserver4j.core.MapValue;
import io.apiserver4j.core.Value;
import java.util.Optional;

/**
 * Everything an admission plugin may look at about one request: kube-apiserver's
 * {@code admission.Attributes}, immutable.
 *
 * <p>Invariants checked by the builder: {@link Operation#CREATE} and {@link Operation#UPDATE}
 * carry an object, {@link Operation#DELETE} does not (the object being deleted is the old
 * object); unless the options are empty, their {@code dryRun} list is non-empty exactly when
 * {@link #isDryRun()} is true.
 *
 * <p>Build one with {@link #builder()}; derive a copy with {@link #newBuilder()} or
 * {@link #withObject(MapValue)}. Instances are thread-safe.
 */
public final class AdmissionAttributes {
  private final Operation operation;
  private final GroupVersionResource resource;
  private final String subresource;
  private final GroupVersionKind kind;
  private final String name;
  private final String namespace;
  private final MapValue object;
  private final MapValue oldObject;
  private final UserInfo userInfo;
  private final MapValue options;
  private final boolean dryRun;
  private final AuditAnnotations auditAnnotations;
  private final AdmissionContext context;
  private final CelAuthorizer authorizer;

  private AdmissionAttributes(Builder b) {
    this.operation = b.operation;
    this.resource = b.resource;
    this.subresource = b.subresource;
    this.kind = b.kind;
    this.name = b.name;
    this.namespace = b.namespace;
    this.object = b.object;
    this.oldObject = b.oldObject;
    this.userInfo = b.userInfo;
    this.options = b.options;
    this.dryRun = b.dryRun;
    this.auditAnnotations = b.auditAnnotations;
    this.context = b.context == null ? AdmissionContext.create() : b.context;
    this.authorizer = b.authorizer;
  }

  /**
   * A builder with no values set; operation, resource and kind are required.
   *
   * @return a new builder
   */
  public static Builder builder() {
    return new Builder();
  }

  /**
   * A builder starting from this instance's values.
   *
   * @return a new builder; the context is shared
   */
  public Builder newBuilder() {
    return new Builder(this);
  }

  /**
   * The operation requested.
   *
   * @return CREATE, UPDATE, DELETE or CONNECT
   */
  public Operation operation() {
    return operation;
  }

  /**
   * The resource requested.
   *
   * @return e.g. {@code /v1, Resource=configmaps}
   */
  public GroupVersionResource resource() {
    return resource;
  }

  /**
   * The subresource requested.
   *
   * @return e.g. {@code status}; empty for the main resource
   */
  public String subresource() {
    return subresource;
  }

  /**
   * The kind of the object being admitted.
   *
   * @return the group, version and kind
   */
  public GroupVersionKind kind() {
    return kind;
  }

  /**
   * The name in the request.
   *
   * @return the name; empty on a create that relies on {@code generateName}
   */
  public String name() {
    return name;
  }

  /**
   * The namespace of the request.
   *
   * @return the namespace; empty for cluster-scoped resources
   */
  public String namespace() {
    return namespace;
  }

  /**
   * The incoming object.
   *
   * @return the object; absent for DELETE (and CONNECT without options object)
   */
  public Optional<MapValue> object() {
    return Optional.ofNullable(object);
  }

  /**
   * The stored object.
   *
   * @return the old object; present for UPDATE and DELETE of an existing object
   */
  public Optional<MapValue> oldObject() {
    return Optional.ofNullable(oldObject);
  }

  /**
   * The requesting user.
   *
   * @return the user; {@link UserInfo#empty()} when not set
   */
  public UserInfo userInfo() {
    return userInfo;
  }

  /**
   * The operation's options as kube-apiserver sends them to webhooks ({@code CreateOptions},
   * {@code UpdateOptions}, {@code DeleteOptions}); empty when the caller supplied none.
   *
   * @return the options object, or an empty map
   */
  public MapValue options() {
    return options;
  }

  /**
   * True when nothing of this request will be persisted ({@code dryRun=All}). False does not
   * promise the write happens: a later step may still reject the request.
   *
   * @return true for a dry run
   */
  public boolean isDryRun() {
    return dryRun;
  }

  /**
   * Where plugins add audit annotations for this request (kube's
   * {@code Attributes.AddAnnotation}); discards them unless the server audits the request.
   *
   * @return the request's audit annotations
   */
  public AuditAnnotations auditAnnotations() {
    return auditAnnotations;
  }

  /**
   * The request's context: warnings, audit annotations and reinvocation state, shared by every
   * attributes of the request (copies keep it).
   *
   * @return the shared context
   */
  public AdmissionContext context() {
    return context;
  }

  /**
   * What the request's user may do, for CEL's {@code authorizer} in policies and match
   * conditions; allows everything unless the server authorizes requests.
   *
   * @return the authorizer
   */
  public CelAuthorizer authorizer() {
    return authorizer;
  }

  /**
   * A copy whose object is {@code newObject}; the same instance when it already is.
   *
   * @param newObject the new object
   * @return attributes with the object replaced
   */
  public AdmissionAttributes withObject(MapValue newObject) {
    requireNonNull(newObject, "newObject");
    if (newObject == object) {
      return this;
    }
    return newBuilder().object(newObject).build();
  }

  @Override
  public String toString() {
    return "AdmissionAttributes{" + operation + " " + resource
        + (subresource.isEmpty() ? "" : "/" + subresource)
        + (namespace.isEmpty() ? "" : " namespace=" + namespace)
        + (name.isEmpty() ? "" : " name=" + name)
        + (dryRun ? " dryRun" : "") + "}";
  }

  /** Builds {@link AdmissionAttributes}; operation, resource and kind are required. */
  public static final class Builder {
    private Operation operation;
    private GroupVersionResource resource;
    private String subresource = "";
    private GroupVersionKind kind;
    private String name = "";
    private String namespace = "";
    private MapValue object;
    private MapValue oldObject;
    private UserInfo userInfo = UserInfo.empty();
    private MapValue options = MapValue.empty();
    private boolean dryRun;
    private AuditAnnotations auditAnnotations = AuditAnnotations.DISCARD;
    private AdmissionContext context;
    private CelAuthorizer authorizer = CelAuthorizer.allowAll();

    private Builder() {}

    private Builder(AdmissionAttributes a) {
      this.operation = a.operation;
      this.resource = a.resource;
      this.subresource = a.subresource;
      this.kind = a.kind;
      this.name = a.name;
      this.namespace = a.namespace;
      this.object = a.object;
      this.oldObject = a.oldObject;
      this.userInfo = a.userInfo;
      this.options = a.options;
      this.dryRun = a.dryRun;
      this.auditAnnotations = a.auditAnnotations;
      this.context = a.context;
      this.authorizer = a.authorizer;
    }

    /**
     * The operation; required.
     *
     * @param operation the operation
     * @return this builder
     */
    public Builder operation(Operation operation) {
      this.operation = requireNonNull(operation, "operation");
      return this;
    }

    /**
     * The requested resource; required.
     *
     * @param resource the resource
     * @return this builder
     */
    public Builder resource(GroupVersionResource resource) {
      this.resource = requireNonNull(resource, "resource");
      return this;
    }

    /**
     * The requested subresource; empty (the default) for the main resource.
     *
     * @param subresource the subresource
     * @return this builder
     */
    public Builder subresource(String subresource) {
      this.subresource = requireNonNull(subresource, "subresource");
      return this;
    }

    /**
     * The kind of the object; required.
     *
     * @param kind the kind
     * @return this builder
     */
    public Builder kind(GroupVersionKind kind) {
      this.kind = requireNonNull(kind, "kind");
      return this;
    }

    /**
     * The name in the request; empty by default.
     *
     * @param name the name
     * @return this builder
     */
    public Builder name(String name) {
      this.name = requireNonNull(name, "name");
      return this;
    }

    /**
     * The namespace; empty (the default) for cluster-scoped resources.
     *
     * @param namespace the namespace
     * @return this builder
     */
    public Builder namespace(String namespace) {
      this.namespace = requireNonNull(namespace, "namespace");
      return this;
    }

    /**
     * The incoming object.
     *
     * @param object the object
     * @return this builder
     */
    public Builder object(MapValue object) {
      this.object = requireNonNull(object, "object");
      return this;
    }

    /**
     * Removes the object (e.g. when deriving DELETE attributes from others).
     *
     * @return this builder
     */
    public Builder noObject() {
      this.object = null;
      return this;
    }

    /**
     * The stored object.
     *
     * @param oldObject the stored object
     * @return this builder
     */
    public Builder oldObject(MapValue oldObject) {
      this.oldObject = requireNonNull(oldObject, "oldObject");
      return this;
    }

    /**
     * Removes the stored object (e.g. for a CREATE).
     *
     * @return this builder
     */
    public Builder noOldObject() {
      this.oldObject = null;
      return this;
    }

    /**
     * The requesting user; {@link UserInfo#empty()} by default.
     *
     * @param userInfo the user
     * @return this builder
     */
    public Builder userInfo(UserInfo userInfo) {
      this.userInfo = requireNonNull(userInfo, "userInfo");
      return this;
    }

    /**
     * The operation's options object; an empty map by default.
     *
     * @param options the options as webhooks receive them
     * @return this builder
     */
    public Builder options(MapValue options) {
      this.options = requireNonNull(options, "options");
      return this;
    }

    /**
     * Whether nothing of the request is persisted ({@code dryRun=All}); false by default.
     *
     * @param dryRun true for a dry run
     * @return this builder
     */
    public Builder dryRun(boolean dryRun) {
      this.dryRun = dryRun;
      return this;
    }

    /**
     * Where plugins add audit annotations; discarding ones by default.
     *
     * @param annotations the request's audit annotations
     * @return this builder
     */
    public Builder auditAnnotations(AuditAnnotations annotations) {
      this.auditAnnotations = requireNonNull(annotations, "auditAnnotations");
      return this;
    }

    /**
     * The request user's authorizer; allows everything when not set.
     *
     * @param authorizer the authorizer
     * @return this builder
     */
    public Builder authorizer(CelAuthorizer authorizer) {
      this.authorizer = requireNonNull(authorizer, "authorizer");
      return this;
    }

    /**
     * The request's context; a fresh one when not set.
     *
     * @param context the context shared by the request's attributes
     * @return this builder
     */
    public Builder context(AdmissionContext context) {
      this.context = requireNonNull(context, "context");
      return this;
    }

    /**
     * Builds the attributes.
     *
     * @return the immutable attributes
     * @throws IllegalStateException naming the problem when a required value is missing or the
     *     values contradict each other
     */
    public AdmissionAttributes build() {
      if (operation == null) {
        throw new IllegalStateException("AdmissionAttributes: operation is required");
      }
      if (resource == null) {
        throw new IllegalStateException("AdmissionAttributes: resource is required");
      }
      if (kind == null) {
        throw new IllegalStateException("AdmissionAttributes: kind is required");
      }
      if ((operation == Operation.CREATE || operation == Operation.UPDATE) && object == null) {
        throw new IllegalStateException("AdmissionAttributes: " + operation
            + " requires an object");
      }
      if (operation == Operation.DELETE && object != null) {
        throw new IllegalStateException("AdmissionAttributes: DELETE carries no object; pass the"
            + " object being deleted as oldObject");
      }
      if (!options.isEmpty()) {
        Value optionsDryRun = options.getOrNull("dryRun");
        boolean listed = optionsDryRun instanceof ListValue l && !l.isEmpty();
        if (listed != dryRun) {
          throw new IllegalStateException("AdmissionAttributes: options.dryRun "
              + (optionsDryRun == null ? "(absent)" : optionsDryRun.toString())
              + " contradicts dryRun(" + dryRun + ")");
        }
      }
      return new AdmissionAttributes(this);
    }
  }
}
