/*
 * Copyright The apiserver4j authors.
 * SPDX-License-Identifier: Apache-2.0
 */
package io.apiserver4j.apiserver;

import static java.util.Objects.requireNonNull;

import io.apiserver4j.admission.AuditAnnotations;
import io.apiserver4j.admission.UserInfo;
import io.apiserver4j.apimachinery.patch.PatchType;
import io.apiserver4j.core.GroupVersionResource;
import io.apiserver4j.core.Value;
import io.apiserver4j.cel.CelAuthorizer;
import java.nio.charset.StandardCharsets;
import java.util.Optional;

/**
 * One request to an {@link ApiServer}, shaped like a kube-apiserver REST call so that an HTTP
 * layer can map onto it one to one: the verb, the resource endpoint (group, version, resource,
 * namespace, name, subresource), the body, and the options as typed values. An HTTP layer turns
 * query parameters into these with {@link QueryParameters}, which rejects bad values with
 * kube-apiserver's texts (for example {@code dryRun=Foo} is a 422 naming {@code CreateOptions});
 * combinations of options (a {@code force} on a non-apply patch, an apply without a field
 * manager) are checked by the server.
 *
 * <p>The body is either a decoded {@link Value} (what embedders use) or raw bytes with a content
 * type (what an HTTP layer passes; then the request-body size limit and decoding errors apply).
 * PATCH requests always carry raw bytes, since the patch type is the content type.
 *
 * <p>Immutable and thread-safe; build with {@link #builder(Verb, GroupVersionResource)} and derive
 * variants with {@link #newBuilder()}.
 */
public final class ApiRequest {

  /** The REST verbs kube-apiserver distinguishes. */
  public enum Verb {
    CREATE, GET, LIST, WATCH, UPDATE, PATCH, DELETE, DELETE_COLLECTION;

    /** Whether the verb may change stored state (and therefore accepts {@code dryRun}). */
    public boolean isWrite() {
      return this == CREATE || this == UPDATE || this == PATCH || this == DELETE
          || this == DELETE_COLLECTION;
    }
  }

  private final Verb verb;
  private final GroupVersionResource resource;
  private final String namespace;
  private final String name;
  private final String subresource;
  private final Value body;
  private final byte[] rawBody;
  private final String contentType;
  private final VerbOptions options;
  private final String userAgent;
  private final UserInfo user;
  private final CreateAuthorizer createAuthorizer;
  private final CelAuthorizer authorizer;
  private final AuditAnnotations auditAnnotations;

  private ApiRequest(Builder b) {
    this.verb = b.verb;
    this.resource = b.resource;
    this.namespace = b.namespace;
    this.name = b.name;
    this.subresource = b.subresource;
    this.body = b.body;
    this.rawBody = b.rawBody;
    this.contentType = b.contentType;
    this.options = b.options(b.verb);
    this.userAgent = b.userAgent;
    this.user = b.user;
    this.createAuthorizer = b.createAuthorizer;
    this.authorizer = b.authorizer;
    this.auditAnnotations = b.auditAnnotations;
  }

  /** A builder for a request with {@code verb} on the endpoint of {@code resource}. */
  public static Builder builder(Verb verb, GroupVersionResource resource) {
    return new Builder(requireNonNull(verb, "verb"), requireNonNull(resource, "resource"));
  }

  /**
   * A builder initialised with this request's values. Options this request's verb does not take
   * are not kept: a builder switched to another verb starts from that verb's defaults for them.
   */
  public Builder newBuilder() {
    return new Builder(this);
  }

  /** The verb. */
  public Verb verb() {
    return verb;
  }

  /** The endpoint's group, version and resource. */
  public GroupVersionResource resource() {
    return resource;
  }

  /** The namespace of the URL; empty for cluster-scoped resources and all-namespace lists. */
  public String namespace() {
    return namespace;
  }

  /** The name of the URL; empty for collection requests. */
  public String name() {
    return name;
  }

  /** The subresource of the URL ({@code status}, {@code scale}); empty for the main resource. */
  public String subresource() {
    return subresource;
  }

  /** The decoded body, when the caller supplied one. */
  public Optional<Value> body() {
    return Optional.ofNullable(body);
  }

  /** The raw body bytes (a copy), when the caller supplied them. */
  public Optional<byte[]> rawBody() {
    return rawBody == null ? Optional.empty() : Optional.of(rawBody.clone());
  }

  byte[] rawBodyUnsafe() {
    return rawBody;
  }

  Value bodyUnsafe() {
    return body;
  }

  /** The body's media type, e.g. {@code application/json}; empty when none was given. */
  public String contentType() {
    return contentType;
  }

  /**
   * The typed options, of the kind {@link VerbOptions} names for {@link #verb()}: e.g.
   * {@link PatchOptions} for a PATCH, {@link CollectionOptions} for a LIST or a WATCH.
   */
  public VerbOptions options() {
    return options;
  }

  /** Whether this is a dry run ({@code dryRun=All}); {@link DryRun#NONE} for reads. */
  public DryRun dryRun() {
    return options.dryRun();
  }

  /** The {@code fieldManager} of a create, update or patch; empty otherwise. */
  public String fieldManager() {
    return options.fieldManager();
  }

  /**
   * Who decides whether this request's user may create the object when a PUT or an apply
   * creates it; asked inside the write, right before the create (besides the server's own).
   */
  public CreateAuthorizer createAuthorizer() {
    return createAuthorizer;
  }

  /**
   * What the request's user may do besides this request, as admission policies ask it through
   * CEL's {@code authorizer}; allows everything unless the server authorizes requests.
   */
  public CelAuthorizer authorizer() {
    return authorizer;
  }

  /** Where admission adds this request's audit annotations; discarded by default. */
  public AuditAnnotations auditAnnotations() {
    return auditAnnotations;
  }

  /** The {@code User-Agent} header; empty when absent. */
  public String userAgent() {
    return userAgent;
  }

  /** The authenticated user (for admission); {@link UserInfo#empty()} when anonymous. */
  public UserInfo user() {
    return user;
  }

  @Override
  public String toString() {
    StringBuilder sb = new StringBuilder(verb.name()).append(' ').append(resource);
    if (!namespace.isEmpty()) {
      sb.append(" ns=").append(namespace);
    }
    if (!name.isEmpty()) {
      sb.append(" name=").append(name);
    }
    if (!subresource.isEmpty()) {
      sb.append(" sub=").append(subresource);
    }
    return sb.toString();
  }

  /**
   * Mutable builder of {@link ApiRequest}; not thread-safe. Every option setter may be called
   * whatever the verb (as a query string may carry any parameter); {@link #build()} keeps the
   * options the verb takes, in its {@link VerbOptions}.
   */
  public static final class Builder extends VerbOptionsBuilder<Builder> {
    private Verb verb;
    private GroupVersionResource resource;
    private String namespace = "";
    private String name = "";
    private String subresource = "";
    private Value body;
    private byte[] rawBody;
    private String contentType = "";
    private String userAgent = "";
    private UserInfo user = UserInfo.empty();
    private CreateAuthorizer createAuthorizer = CreateAuthorizer.ALLOW_ALL;
    private CelAuthorizer authorizer = CelAuthorizer.allowAll();
    private AuditAnnotations auditAnnotations = AuditAnnotations.DISCARD;

    private Builder(Verb verb, GroupVersionResource resource) {
      this.verb = verb;
      this.resource = resource;
    }

    private Builder(ApiRequest r) {
      this(r.verb, r.resource);
      this.namespace = r.namespace;
      this.name = r.name;
      this.subresource = r.subresource;
      this.body = r.body;
      this.rawBody = r.rawBody;
      this.contentType = r.contentType;
      options(r.options);
      this.userAgent = r.userAgent;
      this.user = r.user;
      this.createAuthorizer = r.createAuthorizer;
      this.authorizer = r.authorizer;
      this.auditAnnotations = r.auditAnnotations;
    }

    /** The verb. */
    public Builder verb(Verb v) {
      this.verb = requireNonNull(v, "verb");
      return this;
    }

    /** The endpoint's group, version and resource. */
    public Builder resource(GroupVersionResource r) {
      this.resource = requireNonNull(r, "resource");
      return this;
    }

    /** The namespace of the URL. */
    public Builder namespace(String ns) {
      this.namespace = requireNonNull(ns, "namespace");
      return this;
    }

    /** The name of the URL. */
    public Builder name(String n) {
      this.name = requireNonNull(n, "name");
      return this;
    }

    /** The subresource of the URL. */
    public Builder subresource(String s) {
      this.subresource = requireNonNull(s, "subresource");
      return this;
    }

    /** A decoded body; replaces raw bytes set earlier. */
    public Builder body(Value v) {
      this.body = requireNonNull(v, "body");
      this.rawBody = null;
      if (contentType.isEmpty()) {
        contentType = "application/json";
      }
      return this;
    }

    /** Raw body bytes of media type {@code type}; replaces a decoded body set earlier. */
    public Builder rawBody(byte[] bytes, String type) {
      this.rawBody = requireNonNull(bytes, "bytes").clone();
      this.contentType = requireNonNull(type, "type");
      this.body = null;
      return this;
    }

    /** A patch body of the given type (sets the content type to the patch's media type). */
    public Builder patch(PatchType type, byte[] bytes) {
      return rawBody(bytes, requireNonNull(type, "type").mediaType());
    }

    /** A patch body of the given type, as UTF-8 text. */
    public Builder patch(PatchType type, String text) {
      return patch(type, requireNonNull(text, "text").getBytes(StandardCharsets.UTF_8));
    }

    /** The {@code User-Agent} header. */
    public Builder userAgent(String ua) {
      this.userAgent = requireNonNull(ua, "userAgent");
      return this;
    }

    /** The authenticated user. */
    public Builder user(UserInfo u) {
      this.user = requireNonNull(u, "user");
      return this;
    }

    /** Who decides whether a PUT or an apply may create its object. */
    public Builder createAuthorizer(CreateAuthorizer a) {
      this.createAuthorizer = requireNonNull(a, "createAuthorizer");
      return this;
    }

    /** The request user's authorizer for admission policies' CEL {@code authorizer}. */
    public Builder authorizer(CelAuthorizer a) {
      this.authorizer = requireNonNull(a, "authorizer");
      return this;
    }

    /** Where admission adds the request's audit annotations. */
    public Builder auditAnnotations(AuditAnnotations a) {
      this.auditAnnotations = requireNonNull(a, "auditAnnotations");
      return this;
    }

    /** The request. */
    public ApiRequest build() {
      return new ApiRequest(this);
    }
  }
}
