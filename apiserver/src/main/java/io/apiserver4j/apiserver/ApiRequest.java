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
import io.apiserver4j.dryrun.DeleteSettings.PropagationPolicy;
import io.apiserver4j.dryrun.DryRun;
import io.apiserver4j.core.fields.FieldSelector;
import io.apiserver4j.core.labels.LabelSelector;
import io.apiserver4j.storage.ResourceVersionMatch;
import java.util.Optional;
import java.util.OptionalLong;

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
  private final DryRun dryRun;
  private final String fieldManager;
  private final Boolean force;
  private final FieldValidation fieldValidation;
  private final String resourceVersion;
  private final ResourceVersionMatch resourceVersionMatch;
  private final LabelSelector labelSelector;
  private final FieldSelector fieldSelector;
  private final long limit;
  private final String continueToken;
  private final PropagationPolicy propagationPolicy;
  private final Long gracePeriodSeconds;
  private final Boolean orphanDependents;
  private final String preconditionUid;
  private final String preconditionResourceVersion;
  private final boolean allowWatchBookmarks;
  private final Boolean sendInitialEvents;
  private final String userAgent;
  private final UserInfo user;
  private final CreateAuthorizer createAuthorizer;
  private final io.apiserver4j.cel.CelAuthorizer authorizer;
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
    this.dryRun = b.dryRun;
    this.fieldManager = b.fieldManager;
    this.force = b.force;
    this.fieldValidation = b.fieldValidation;
    this.resourceVersion = b.resourceVersion;
    this.resourceVersionMatch = b.resourceVersionMatch;
    this.labelSelector = b.labelSelector;
    this.fieldSelector = b.fieldSelector;
    this.limit = b.limit;
    this.continueToken = b.continueToken;
    this.propagationPolicy = b.propagationPolicy;
    this.gracePeriodSeconds = b.gracePeriodSeconds;
    this.orphanDependents = b.orphanDependents;
    this.preconditionUid = b.preconditionUid;
    this.preconditionResourceVersion = b.preconditionResourceVersion;
    this.allowWatchBookmarks = b.allowWatchBookmarks;
    this.sendInitialEvents = b.sendInitialEvents;
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

  /** A builder initialised with this request's values. */
  public Builder newBuilder() {
    return new Builder(this);
  }

  public Verb verb() {
    return verb;
  }

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

  /** Whether this is a dry run ({@code dryRun=All}). */
  public DryRun dryRun() {
    return dryRun;
  }

  /** The {@code fieldManager}; empty when absent. */
  public String fieldManager() {
    return fieldManager;
  }

  /** The {@code force} of an apply, if given. */
  public Optional<Boolean> force() {
    return Optional.ofNullable(force);
  }

  /** The {@code fieldValidation} directive ({@link FieldValidation#WARN} when absent). */
  public FieldValidation fieldValidation() {
    return fieldValidation;
  }

  /** The {@code resourceVersion} as sent; empty when absent. The server parses it. */
  public String resourceVersion() {
    return resourceVersion;
  }

  /** The {@code resourceVersionMatch} of a list, if given. */
  public Optional<ResourceVersionMatch> resourceVersionMatch() {
    return Optional.ofNullable(resourceVersionMatch);
  }

  public LabelSelector labelSelector() {
    return labelSelector;
  }

  public FieldSelector fieldSelector() {
    return fieldSelector;
  }

  /** The {@code limit} of a list; 0 means no limit. */
  public long limit() {
    return limit;
  }

  public String continueToken() {
    return continueToken;
  }

  /** The {@code propagationPolicy} of a delete, if given. */
  public Optional<PropagationPolicy> propagationPolicy() {
    return Optional.ofNullable(propagationPolicy);
  }

  public OptionalLong gracePeriodSeconds() {
    return gracePeriodSeconds == null ? OptionalLong.empty() : OptionalLong.of(gracePeriodSeconds);
  }

  public Optional<Boolean> orphanDependents() {
    return Optional.ofNullable(orphanDependents);
  }

  /** The {@code preconditions.uid} of a delete, if given. */
  public Optional<String> preconditionUid() {
    return Optional.ofNullable(preconditionUid);
  }

  /** The {@code preconditions.resourceVersion} of a delete, if given. */
  public Optional<String> preconditionResourceVersion() {
    return Optional.ofNullable(preconditionResourceVersion);
  }

  public boolean allowWatchBookmarks() {
    return allowWatchBookmarks;
  }

  public Optional<Boolean> sendInitialEvents() {
    return Optional.ofNullable(sendInitialEvents);
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
  public io.apiserver4j.cel.CelAuthorizer authorizer() {
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

  /** Mutable builder of {@link ApiRequest}; not thread-safe. */
  public static final class Builder {
    private Verb verb;
    private GroupVersionResource resource;
    private String namespace = "";
    private String name = "";
    private String subresource = "";
    private Value body;
    private byte[] rawBody;
    private String contentType = "";
    private DryRun dryRun = DryRun.NONE;
    private String fieldManager = "";
    private Boolean force;
    private FieldValidation fieldValidation = FieldValidation.WARN;
    private String resourceVersion = "";
    private ResourceVersionMatch resourceVersionMatch;
    private LabelSelector labelSelector = LabelSelector.everything();
    private FieldSelector fieldSelector = FieldSelector.everything();
    private long limit;
    private String continueToken = "";
    private PropagationPolicy propagationPolicy;
    private Long gracePeriodSeconds;
    private Boolean orphanDependents;
    private String preconditionUid;
    private String preconditionResourceVersion;
    private boolean allowWatchBookmarks;
    private Boolean sendInitialEvents;
    private String userAgent = "";
    private UserInfo user = UserInfo.empty();
    private CreateAuthorizer createAuthorizer = CreateAuthorizer.ALLOW_ALL;
    private io.apiserver4j.cel.CelAuthorizer authorizer = io.apiserver4j.cel.CelAuthorizer.allowAll();
    private AuditAnnotations auditAnnotations = AuditAnnotations.DISCARD;

    private Builder(Verb verb, GroupVersionResource resource) {
      this.verb = verb;
      this.resource = resource;
    }

    private Builder(ApiRequest r) {
      this.verb = r.verb;
      this.resource = r.resource;
      this.namespace = r.namespace;
      this.name = r.name;
      this.subresource = r.subresource;
      this.body = r.body;
      this.rawBody = r.rawBody;
      this.contentType = r.contentType;
      this.dryRun = r.dryRun;
      this.fieldManager = r.fieldManager;
      this.force = r.force;
      this.fieldValidation = r.fieldValidation;
      this.resourceVersion = r.resourceVersion;
      this.resourceVersionMatch = r.resourceVersionMatch;
      this.labelSelector = r.labelSelector;
      this.fieldSelector = r.fieldSelector;
      this.limit = r.limit;
      this.continueToken = r.continueToken;
      this.propagationPolicy = r.propagationPolicy;
      this.gracePeriodSeconds = r.gracePeriodSeconds;
      this.orphanDependents = r.orphanDependents;
      this.preconditionUid = r.preconditionUid;
      this.preconditionResourceVersion = r.preconditionResourceVersion;
      this.allowWatchBookmarks = r.allowWatchBookmarks;
      this.sendInitialEvents = r.sendInitialEvents;
      this.userAgent = r.userAgent;
      this.user = r.user;
      this.createAuthorizer = r.createAuthorizer;
      this.authorizer = r.authorizer;
      this.auditAnnotations = r.auditAnnotations;
    }

    public Builder verb(Verb v) {
      this.verb = requireNonNull(v, "verb");
      return this;
    }

    public Builder resource(GroupVersionResource r) {
      this.resource = requireNonNull(r, "resource");
      return this;
    }

    public Builder namespace(String ns) {
      this.namespace = requireNonNull(ns, "namespace");
      return this;
    }

    public Builder name(String n) {
      this.name = requireNonNull(n, "name");
      return this;
    }

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

    public Builder patch(PatchType type, String text) {
      return patch(type, requireNonNull(text, "text").getBytes(java.nio.charset.StandardCharsets.UTF_8));
    }

    public Builder dryRun(DryRun d) {
      this.dryRun = requireNonNull(d, "dryRun");
      return this;
    }

    /** Shorthand for {@code dryRun(DryRun.ALL)} or {@code dryRun(DryRun.NONE)}. */
    public Builder dryRun(boolean dry) {
      return dryRun(dry ? DryRun.ALL : DryRun.NONE);
    }

    public Builder fieldManager(String m) {
      this.fieldManager = requireNonNull(m, "fieldManager");
      return this;
    }

    public Builder force(boolean f) {
      this.force = f;
      return this;
    }

    public Builder noForce() {
      this.force = null;
      return this;
    }

    public Builder fieldValidation(FieldValidation v) {
      this.fieldValidation = requireNonNull(v, "fieldValidation");
      return this;
    }

    public Builder resourceVersion(String rv) {
      this.resourceVersion = requireNonNull(rv, "resourceVersion");
      return this;
    }

    /** {@link ResourceVersionMatch#EXACT} or {@link ResourceVersionMatch#NOT_OLDER_THAN}. */
    public Builder resourceVersionMatch(ResourceVersionMatch m) {
      if (requireNonNull(m, "resourceVersionMatch") == ResourceVersionMatch.MOST_RECENT) {
        throw new IllegalArgumentException("resourceVersionMatch is Exact or NotOlderThan");
      }
      this.resourceVersionMatch = m;
      return this;
    }

    public Builder labelSelector(LabelSelector s) {
      this.labelSelector = requireNonNull(s, "labelSelector");
      return this;
    }

    public Builder fieldSelector(FieldSelector s) {
      this.fieldSelector = requireNonNull(s, "fieldSelector");
      return this;
    }

    public Builder limit(long l) {
      if (l < 0) {
        throw new IllegalArgumentException("limit must not be negative: " + l);
      }
      this.limit = l;
      return this;
    }

    public Builder continueToken(String c) {
      this.continueToken = requireNonNull(c, "continueToken");
      return this;
    }

    public Builder propagationPolicy(PropagationPolicy p) {
      this.propagationPolicy = requireNonNull(p, "propagationPolicy");
      return this;
    }

    public Builder gracePeriodSeconds(long seconds) {
      this.gracePeriodSeconds = seconds;
      return this;
    }

    public Builder orphanDependents(boolean orphan) {
      this.orphanDependents = orphan;
      return this;
    }

    public Builder preconditionUid(String uid) {
      this.preconditionUid = requireNonNull(uid, "uid");
      return this;
    }

    public Builder preconditionResourceVersion(String rv) {
      this.preconditionResourceVersion = requireNonNull(rv, "resourceVersion");
      return this;
    }

    public Builder allowWatchBookmarks(boolean allow) {
      this.allowWatchBookmarks = allow;
      return this;
    }

    public Builder sendInitialEvents(boolean send) {
      this.sendInitialEvents = send;
      return this;
    }

    public Builder userAgent(String ua) {
      this.userAgent = requireNonNull(ua, "userAgent");
      return this;
    }

    public Builder user(UserInfo u) {
      this.user = requireNonNull(u, "user");
      return this;
    }

    public Builder createAuthorizer(CreateAuthorizer a) {
      this.createAuthorizer = requireNonNull(a, "createAuthorizer");
      return this;
    }

    /** The request user's authorizer for admission policies' CEL {@code authorizer}. */
    public Builder authorizer(io.apiserver4j.cel.CelAuthorizer a) {
      this.authorizer = requireNonNull(a, "authorizer");
      return this;
    }

    public Builder auditAnnotations(AuditAnnotations a) {
      this.auditAnnotations = requireNonNull(a, "auditAnnotations");
      return this;
    }

    public ApiRequest build() {
      return new ApiRequest(this);
    }
  }
}
