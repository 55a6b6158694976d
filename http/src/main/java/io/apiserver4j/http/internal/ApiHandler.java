/*
 * Copyright The apiserver4j authors.
 * SPDX-License-Identifier: Apache-2.0
 */
package io.apiserver4j.http.internal;

import io.apiserver4j.kubeapi.ProtobufCodec;
import io.apiserver4j.admission.UserInfo;
import io.apiserver4j.apiserver.ApiRequest;
import io.apiserver4j.apiserver.ApiResponse;
import io.apiserver4j.apiserver.QueryParameters;
import io.apiserver4j.apiserver.ResourceDefinition;
import io.apiserver4j.apiserver.answer.StreamedList;
import io.apiserver4j.apiserver.SubresourceConnect;
import io.apiserver4j.apimachinery.patch.PatchType;
import io.apiserver4j.apimachinery.patch.ResourceOrigin;
import io.apiserver4j.authz.AuditRecorder;
import io.apiserver4j.authz.AuditStart;
import io.apiserver4j.authz.Auditor;
import io.apiserver4j.authz.AuthenticationRequest;
import io.apiserver4j.authz.AuthenticationResult;
import io.apiserver4j.authz.AuthorizationAttributes;
import io.apiserver4j.authz.AuthorizationDecision;
import io.apiserver4j.cel.CelAuthorizer;
import io.apiserver4j.core.BooleanValue;
import io.apiserver4j.core.DecodeException;
import io.apiserver4j.core.DecodeLimits;
import io.apiserver4j.core.GoDurations;
import io.apiserver4j.core.GoStrings;
import io.apiserver4j.core.GroupResource;
import io.apiserver4j.core.GroupVersion;
import io.apiserver4j.core.GroupVersionResource;
import io.apiserver4j.core.IntegerValue;
import io.apiserver4j.core.Json;
import io.apiserver4j.core.ListValue;
import io.apiserver4j.core.MapValue;
import io.apiserver4j.core.Nested;
import io.apiserver4j.core.errors.Status;
import io.apiserver4j.core.errors.StatusDetails;
import io.apiserver4j.core.errors.StatusErrors;
import io.apiserver4j.core.errors.StatusException;
import io.apiserver4j.core.errors.StatusReason;
import io.apiserver4j.core.StringValue;
import io.apiserver4j.core.Value;
import io.apiserver4j.core.Yaml;
import io.apiserver4j.storage.StoredObject;
import java.io.ByteArrayOutputStream;
import java.net.InetSocketAddress;
import java.net.SocketAddress;
import java.nio.ByteBuffer;
import java.nio.charset.StandardCharsets;
import java.security.cert.X509Certificate;
import java.time.Duration;
import java.time.Instant;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.HashMap;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import java.util.concurrent.CountDownLatch;
import java.util.concurrent.ScheduledExecutorService;
import java.util.concurrent.ScheduledFuture;
import java.util.concurrent.TimeUnit;
import org.eclipse.jetty.http.HttpField;
import org.eclipse.jetty.http.HttpHeader;
import org.eclipse.jetty.io.Content;
import org.eclipse.jetty.io.EndPoint;
import org.eclipse.jetty.server.Handler;
import org.eclipse.jetty.server.Request;
import org.eclipse.jetty.server.Response;
import org.eclipse.jetty.util.Callback;
import org.eclipse.jetty.util.Fields;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * The Kubernetes REST API as a Jetty handler: authentication, authorization, the non-resource
 * endpoints (version, health, discovery, OpenAPI) and the resource endpoints, which are mapped
 * one to one onto {@link ApiRequest}s of the pipeline. Watches are streamed by
 * {@link WatchStreamer}.
 *
 * <p>Request handling blocks the Jetty thread (the pipeline is synchronous); non-watch requests
 * are answered with 504 when they exceed their timeout, as kube-apiserver's timeout filter does.
 */
public final class ApiHandler extends Handler.Abstract {
  private static final Logger LOG = LoggerFactory.getLogger(ApiHandler.class);
  private static final Duration WRITE_TIMEOUT_CAP = Duration.ofSeconds(34);
  private static final String AGGREGATED_AS = "APIGroupDiscoveryList";
  private static final List<String> BODY_MEDIA_TYPES =
      List.of("application/json", "application/yaml", ProtobufBodies.MEDIA_TYPE);
  private static final Status GENERIC_NOT_FOUND = new Status(Status.Outcome.FAILURE, 404,
      StatusReason.NOT_FOUND, "the server could not find the requested resource",
      Optional.of(StatusDetails.of("", "", "")));
  private static final Status GENERIC_METHOD_NOT_ALLOWED = new Status(Status.Outcome.FAILURE,
      405, StatusReason.METHOD_NOT_ALLOWED,
      "the server does not allow this method on the requested resource",
      Optional.of(StatusDetails.of("", "", "")));

  private static final String AUDIT_ID = "Audit-ID";
  private static final String AUDIT_ID_RESPONSE = "Audit-Id";
  private static final String DECISION = "authorization.k8s.io/decision";
  private static final String REASON = "authorization.k8s.io/reason";
  private static final Auditor NO_AUDIT = Auditor.none();

  private final Backend backend;
  private final ServerSettings settings;
  private final ScheduledExecutorService timers;
  private final WatchStreamer watches;
  private final Metadata metadata;
  private final RequestMetrics metrics;
  /** The served release's protobuf messages: bodies are that release's, as its kube's are. */
  private final ProtobufCodec codec;
  /** Empty when the ConstrainedImpersonation gate is off: kube's legacy filter then. */
  private final Optional<ConstrainedImpersonation> constrainedImpersonation;
  private volatile boolean shuttingDown;

  public ApiHandler(Backend backend, ServerSettings settings, ScheduledExecutorService timers,
      WatchStreamer watches, RequestMetrics metrics) {
    this.backend = backend;
    this.metrics = metrics;
    this.settings = settings;
    this.timers = timers;
    this.watches = watches;
    this.metadata = new Metadata(backend.registry(), settings.gitVersion(),
        backend.kubernetesVersion());
    this.codec = ProtobufCodec.builtIn(backend.kubernetesVersion());
    io.apiserver4j.kubeapi.FeatureGates gates = backend.featureGates();
    this.constrainedImpersonation = gates.known().contains("ConstrainedImpersonation")
        && gates.enabled("ConstrainedImpersonation")
        ? Optional.of(new ConstrainedImpersonation()) : Optional.empty();
  }

  /** Makes {@code /readyz} fail, as kube-apiserver does once it starts shutting down. */
  public void beginShutdown() {
    shuttingDown = true;
  }

  @Override
  public boolean handle(Request request, Response response, Callback callback) {
    // the request is logged and counted when it ends, whoever ends it
    RequestObserver observer = new RequestObserver(request, response, callback, metrics);
    Exchange ex = new Exchange(request, response, observer, codec);
    ex.observer = observer;
    OutputFormat.Encoding errorEncoding = errorEncoding(request);
    Instant received = settings.clock().instant();
    // kube's audit-init filter: every response names its audit ID, audited or not
    String auditId = header(request, AUDIT_ID);
    if (auditId.isEmpty()) {
      auditId = AuditIds.next();
    }
    response.getHeaders().put(AUDIT_ID_RESPONSE, auditId);
    try {
      serve(ex, auditId, received);
    } catch (StatusException e) {
      if (!ex.bodyRead && request.getLength() != 0) {
        // the unread body is left on the connection, which the server then closes: saying so
        // keeps clients from sending their next request on it
        response.getHeaders().put(HttpHeader.CONNECTION, "close");
      }
      ex.sendStatus(e.status(), errorEncoding, List.of());
    } catch (RuntimeException | Error e) {
      LOG.error("internal error serving {} {}", request.getMethod(), request.getHttpURI(), e);
      ex.audit.panic(e);
      ex.sendStatus(StatusErrors.internal(String.valueOf(e.getMessage())).status(),
          errorEncoding, List.of());
    } finally {
      if (!ex.auditDetached) {
        ex.audit.complete();
      }
    }
    return true;
  }

  private static OutputFormat.Encoding errorEncoding(Request request) {
    try {
      return OutputFormat.negotiate(request.getHeaders().get("Accept")).encoding();
    } catch (StatusException e) {
      return OutputFormat.Encoding.JSON;
    }
  }

  private void serve(Exchange ex, String auditId, Instant received) {
    Request request = ex.request;
    String path = request.getHttpURI().getDecodedPath();
    if (path == null || path.isEmpty()) {
      path = "/";
    }
    Fields query;
    try {
      query = Request.extractQueryParameters(request);
    } catch (RuntimeException e) {
      throw StatusErrors.badRequest("invalid query string: " + e.getMessage());
    }
    String method = request.getMethod();
    String watch = query.getValue("watch");
    RequestInfo info = RequestInfo.parse(method, path,
        watch != null && QueryParameters.bool(watch));
    ex.observer.info(info);

    // null when auditing is off: the request pays nothing for it
    AuditStart audit = settings.auditor() == NO_AUDIT ? null : new AuditStart(auditId, received,
        request.getHttpURI().getPathQuery(), Audits.sourceIps(request),
        Audits.userAgent(header(request, "User-Agent")), attributes(UserInfo.empty(), info, path),
        info.verb().equals("watch"), Optional.empty());
    UserInfo authenticated = authenticate(ex, audit);
    if (authenticated == null) {
      return;
    }
    if (audit != null) {
      ex.audit = beginAudit(ex, new AuditStart(auditId, received, audit.requestUri(),
          audit.sourceIps(), audit.userAgent(), attributes(authenticated, info, path),
          audit.longRunning(), Optional.empty()));
      if (ex.answered()) {
        return;
      }
    }
    UserInfo user = Impersonation.runAs(ex.request.getHeaders(), authenticated,
        attributes(authenticated, info, path), settings.authorizer(), constrainedImpersonation,
        ex.audit);
    AuthorizationAttributes attributes = attributes(user, info, path);
    AuthorizationDecision decision = settings.authorizer().authorize(attributes);
    if (decision instanceof AuthorizationDecision.Deny deny) {
      annotateDecision(ex, "forbid", deny.reason());
      throw forbidden(attributes, deny.reason());
    }
    annotateDecision(ex, "allow", ((AuthorizationDecision.Allow) decision).reason());
    if (!info.resourceRequest()) {
      serveNonResource(ex, info, query);
      return;
    }
    serveResource(ex, info, query, user, attributes);
  }

  // ---- authentication and authorization ----------------------------------------------------

  private static AuthorizationAttributes attributes(UserInfo user, RequestInfo info,
      String path) {
    return new AuthorizationAttributes(user, info.verb(), info.resourceRequest(), info.group(),
        info.version(), info.resource(), info.subresource(), info.namespace(), info.name(),
        path);
  }

  /** kube's authorization filter records its decision in the audit event. */
  private static void annotateDecision(Exchange ex, String decision, String reason) {
    if (ex.audit != AuditRecorder.NONE) {
      ex.audit.add(DECISION, decision);
      ex.audit.add(REASON, reason);
    }
  }

  /**
   * The request's audit, or {@link AuditRecorder#NONE} after answering 500 when the auditor
   * could not store the first event (kube's audit filter refuses such requests).
   */
  private AuditRecorder beginAudit(Exchange ex, AuditStart start) {
    try {
      return settings.auditor().begin(start);
    } catch (RuntimeException e) {
      LOG.error("failed to store audit event of {}", start.requestUri(), e);
      ex.sendText(500, StatusErrors.sanitize("Internal Server Error: "
          + GoStrings.quote(start.requestUri()) + ": failed to store audit event") + "\n");
      return AuditRecorder.NONE;
    }
  }

  /**
   * The user of the request, or null after answering 401 (audited when {@code audit} is not
   * null).
   */
  private UserInfo authenticate(Exchange ex, AuditStart audit) {
    if (settings.authenticator().isEmpty()) {
      return settings.unauthenticatedUser();
    }
    Map<String, List<String>> headers = new LinkedHashMap<>();
    for (HttpField f : ex.request.getHeaders()) {
      headers.computeIfAbsent(f.getName(), k -> new ArrayList<>()).add(f.getValue());
    }
    List<X509Certificate> certs = List.of();
    Object ssl = ex.request.getAttribute(EndPoint.SslSessionData.ATTRIBUTE);
    if (ssl instanceof EndPoint.SslSessionData data && data.peerCertificates() != null) {
      certs = Arrays.asList(data.peerCertificates());
    }
    SocketAddress remote = ex.request.getConnectionMetaData().getRemoteSocketAddress();
    InetSocketAddress peer = remote instanceof InetSocketAddress i ? i
        : new InetSocketAddress(0);
    AuthenticationResult result = settings.authenticator().get()
        .authenticate(new AuthenticationRequest(headers, certs, peer));
    if (result instanceof AuthenticationResult.Authenticated a) {
      List<String> groups = new ArrayList<>(a.user().groups());
      if (!groups.contains("system:authenticated")) {
        groups.add("system:authenticated");
      }
      return new UserInfo(a.user().name(), a.user().uid(), groups, a.user().extra());
    }
    if (result instanceof AuthenticationResult.NoCredentials && settings.anonymous()) {
      return new UserInfo("system:anonymous", "", List.of("system:unauthenticated"), Map.of());
    }
    if (audit != null) {
      // kube's failed-authentication audit: the policy sees no user, the 401 is ResponseStarted
      ex.audit = beginAudit(ex, new AuditStart(audit.auditId(), audit.received(),
          audit.requestUri(), audit.sourceIps(), audit.userAgent(), audit.attributes(), true,
          Optional.of(Audits.authenticationMethods(ex.request, certs))));
    }
    ex.sendStatus(StatusErrors.unauthorized("Unauthorized").status(), errorEncoding(ex.request),
        List.of());
    return null;
  }

  /** kube-apiserver's 403 for a denied request ({@code responsewriters.ForbiddenStatusError}). */
  static StatusException forbidden(AuthorizationAttributes a, String reason) {
    String msg = a.resourceRequest()
        ? StatusErrors.forbiddenMessage(a.user().name(), a.verb(), a.apiGroup(), a.resource(),
            a.subresource(), a.namespace())
        : StatusErrors.sanitize("User " + GoStrings.quote(a.user().name()) + " cannot "
            + a.verb() + " path " + GoStrings.quote(a.path()));
    if (!reason.isEmpty()) {
      msg = msg + ": " + reason;
    }
    if (!a.resourceRequest() || a.resource().isEmpty()) {
      return StatusException.of(Status.failure(StatusReason.FORBIDDEN,
          "forbidden: " + msg, StatusDetails.of(a.name(), a.apiGroup(), a.resource())));
    }
    return StatusErrors.forbidden(new GroupResource(a.apiGroup(), a.resource()), a.name(), msg);
  }

  // ---- non-resource endpoints --------------------------------------------------------------

  private void serveNonResource(Exchange ex, RequestInfo info, Fields query) {
    String path = trimSlash(info.path());
    String method = ex.request.getMethod();
    boolean get = method.equals("GET") || method.equals("HEAD");
    if (path.equals("/version")) {
      requireGet(get);
      sendJson(ex, 200, metadata.version(), "application/json");
      return;
    }
    if (path.equals("/healthz") || path.equals("/livez") || path.equals("/readyz")
        || path.startsWith("/healthz/") || path.startsWith("/livez/")
        || path.startsWith("/readyz/")) {
      if (info.path().equals(path)) {
        // as kube's healthz.InstallPathHandler: the root check only, path as subresource
        ex.observer.instrument(new RequestMetrics.Labels(
            RequestVerbs.forMetrics(method, info, ""), RequestVerbs.dryRun(
                query.getValues("dryRun")), "", "", "", path, "", ""));
      }
      requireGet(get);
      health(ex, path, query);
      return;
    }
    if (path.equals("/api") || path.equals("/apis")) {
      requireGet(get);
      discoveryRoot(ex, path.equals("/api"));
      return;
    }
    java.util.function.Function<java.net.URI, io.apiserver4j.authz.NonResourceDocument> document =
        settings.documents().get(path);
    if (document != null) {
      requireGet(get);
      io.apiserver4j.authz.NonResourceDocument d = document.apply(baseUrl(ex.request));
      d.headers().forEach((k, v) -> ex.response.getHeaders().put(k, v));
      ex.send(200, d.contentType(), d.body(), List.of());
      return;
    }
    if (path.equals("/metrics")) {
      requireGet(get);
      String exposition = metrics.render(backend.storedObjects())
          + RequestMetrics.featureInfo(backend.featureGates());
      ex.send(200, RequestMetrics.CONTENT_TYPE, exposition.getBytes(StandardCharsets.UTF_8),
          List.of());
      return;
    }
    List<String> segs = segments(path);
    DiscoveryDocuments discovery = metadata.discovery();
    if (segs.size() == 2 && segs.get(0).equals("apis")) {
      Optional<MapValue> group = discovery.apiGroup(segs.get(1));
      if (group.isPresent()) {
        requireGet(get);
        sendJson(ex, 200, group.get(), "application/json");
        return;
      }
    } else if ((segs.size() == 2 && segs.get(0).equals("api"))
        || (segs.size() == 3 && segs.get(0).equals("apis"))) {
      GroupVersion gv = segs.size() == 2 ? new GroupVersion("", segs.get(1))
          : new GroupVersion(segs.get(1), segs.get(2));
      Optional<MapValue> list = discovery.apiResourceList(gv);
      if (list.isPresent()) {
        requireGet(get);
        sendJson(ex, 200, list.get(), "application/json");
        return;
      }
    } else if (path.equals("/openapi/v3")) {
      requireGet(get);
      sendJson(ex, 200, metadata.openApi().index(), "application/json");
      return;
    } else if (path.startsWith("/openapi/v3/")) {
      String relative = path.substring("/openapi/v3/".length());
      Optional<OpenApiDocuments.Document> doc = metadata.openApi().document(relative);
      if (doc.isPresent()) {
        requireGet(get);
        openApiDocument(ex, relative, doc.get(), query.getValue("hash"));
        return;
      }
    } else if (path.equals("/openapi/v2")) {
      requireGet(get);
      String accept = header(ex.request, "Accept");
      if (accept.contains("protobuf")) {
        ex.send(200, OpenApiV2.PROTOBUF,
            OpenApiV2.protobuf(metadata.definitions(), settings.gitVersion()), List.of());
      } else {
        ex.send(200, "application/json",
            OpenApiV2.json(metadata.definitions(), settings.gitVersion()), List.of());
      }
      return;
    }
    ex.sendText(404, "404 page not found\n");
  }

  /**
   * A group-version's OpenAPI document, cached as kube-apiserver has it cached: with the current
   * hash the response is immutable (clients keep it), with an outdated one the client is sent
   * to the current URL, without one it must be revalidated.
   */
  private void openApiDocument(Exchange ex, String relative,
      OpenApiDocuments.Document doc, String hash) {
    if (hash != null && !hash.equals(doc.hash())) {
      ex.response.getHeaders().put("Location", "/openapi/v3/" + relative + "?hash=" + doc.hash());
      ex.send(301, "text/plain; charset=utf-8", new byte[0], List.of());
      return;
    }
    ex.response.getHeaders().put("Etag", "\"" + doc.hash() + "\"");
    if (hash != null) {
      ex.response.getHeaders().put("Cache-Control", "public, immutable");
      ex.response.getHeaders().put("Expires", java.time.format.DateTimeFormatter.RFC_1123_DATE_TIME
          .format(java.time.ZonedDateTime.now(settings.clock()).plusYears(1)));
    } else {
      ex.response.getHeaders().put("Cache-Control", "no-cache, private");
    }
    ex.send(200, "application/json", doc.json(), List.of());
  }

  private static void requireGet(boolean get) {
    if (!get) {
      throw StatusException.of(GENERIC_METHOD_NOT_ALLOWED);
    }
  }

  /**
   * The scope label kube's installer gives an endpoint: {@code resource} for one object or a
   * create, {@code namespace} for a collection in a namespace, {@code cluster} otherwise.
   */
  private static String metricsScope(ResourceDefinition def, String namespace, String name,
      String method) {
    if (!name.isEmpty() || method.equals("POST")) {
      return "resource";
    }
    return def.namespaced() && !namespace.isEmpty() ? "namespace" : "cluster";
  }

  private void health(Exchange ex, String path, Fields query) {
    new HealthChecks(backend, () -> shuttingDown).serve(ex, path, query);
  }

  /**
   * {@code /api} and {@code /apis}: the aggregated form when the Accept header asks for an
   * {@code APIGroupDiscoveryList} (kubectl 1.26+ asks for v2, then v2beta1, then plain JSON),
   * the legacy form otherwise.
   */
  private void discoveryRoot(Exchange ex, boolean legacyCore) {
    String accept = header(ex.request, "Accept");
    for (MediaRange r : MediaRange.parseAccept(accept)) {
      if (!r.covers("application", "json")) {
        continue;
      }
      String as = r.param("as");
      if (as.isEmpty()) {
        break;
      }
      String v = r.param("v");
      if (as.equals(AGGREGATED_AS) && r.param("g").equals("apidiscovery.k8s.io")
          && (v.equals("v2") || v.equals("v2beta1"))) {
        ex.response.getHeaders().put("Vary", "Accept");
        sendJson(ex, 200, metadata.discovery().aggregated(legacyCore, v),
            "application/json;g=apidiscovery.k8s.io;v=" + v + ";as=" + AGGREGATED_AS);
        return;
      }
    }
    DiscoveryDocuments d = metadata.discovery();
    sendJson(ex, 200, legacyCore ? d.apiVersions(serverAddress(ex.request)) : d.apiGroupList(),
        "application/json");
  }

  /** The base URL the client reached the server at. */
  private static java.net.URI baseUrl(Request request) {
    return java.net.URI.create(request.getHttpURI().getScheme() + "://"
        + serverAddress(request));
  }

  private static String serverAddress(Request request) {
    SocketAddress local = request.getConnectionMetaData().getLocalSocketAddress();
    if (local instanceof InetSocketAddress i) {
      String host = i.getAddress() != null ? i.getAddress().getHostAddress() : i.getHostString();
      if (host.contains(":")) {
        host = "[" + host + "]";
      }
      return host + ":" + i.getPort();
    }
    return "127.0.0.1";
  }

  // ---- resource endpoints ------------------------------------------------------------------

  private void serveResource(Exchange ex, RequestInfo info, Fields query, UserInfo user,
      AuthorizationAttributes attributes) {
    GroupVersion gv = new GroupVersion(info.group(), info.version());
    DiscoveryDocuments discovery = metadata.discovery();
    if (!discovery.serves(gv)) {
      ex.sendText(404, "404 page not found\n");
      return;
    }
    Optional<ResourceDefinition> found = backend.registry().find(
        new GroupVersionResource(info.group(), info.version(), info.resource()));
    if (found.isEmpty() || info.parts().size() > 3 && !(found.get().subresource(
        info.subresource()).orElse(null) instanceof SubresourceConnect c && c.takesPath())) {
      throw genericNotFound();
    }
    ResourceDefinition def = found.get();
    String namespace = info.namespace();
    String name = info.name();
    String sub = info.subresource();
    if (def.namespaced()) {
      if (namespace.isEmpty() && !name.isEmpty()) {
        throw genericNotFound();
      }
    } else if (!namespace.isEmpty()) {
      // cluster-scoped resources only live outside /namespaces/, except namespaces themselves
      boolean namespaceItself = info.resource().equals("namespaces") && info.group().isEmpty()
          && namespace.equals(name);
      if (!namespaceItself) {
        throw genericNotFound();
      }
      namespace = "";
    }
    if (!sub.isEmpty() && !def.servesSubresource(sub)) {
      throw genericNotFound();
    }
    String method = ex.request.getMethod();
    // an installed endpoint from here on: kube-apiserver counts it in its request metrics
    ex.observer.instrument(new RequestMetrics.Labels(
        RequestVerbs.forMetrics(method, info, header(ex.request, "Content-Type")),
        RequestVerbs.dryRun(query.getValues("dryRun")), info.group(), info.version(),
        info.resource(), sub, metricsScope(def, namespace, name, method), "apiserver"));
    if (def.subresource(sub).orElse(null) instanceof SubresourceConnect connect) {
      ConnectEndpoint.serve(ex, connect, backend, info, namespace, query, user, attributes,
          settings.authorizer());
      return;
    }
    ApiRequest.Verb verb = verbOf(method, def, namespace, name, sub, info.verb());

    OutputFormat format = info.verb().equals("watch")
        ? watchFormat(header(ex.request, "Accept"), ProtobufBodies.offered(def))
        : OutputFormat.negotiate(header(ex.request, "Accept"), ProtobufBodies.offered(def));
    ApiRequest.Builder b = ApiRequest.builder(verb, def.resource())
        .namespace(namespace)
        .name(name)
        .subresource(sub)
        .userAgent(header(ex.request, "User-Agent"))
        .user(user)
        .auditAnnotations(ex.audit);
    QueryParameters.apply(b, verb, queryParameters(query));

    if (verb == ApiRequest.Verb.CREATE || verb == ApiRequest.Verb.UPDATE
        || verb == ApiRequest.Verb.PATCH) {
      byte[] body = readBody(ex.request);
      ex.bodyRead = true;
      String contentType = header(ex.request, "Content-Type");
      if (verb == ApiRequest.Verb.PATCH) {
        // the server reads the patch type from the content type
        b.rawBody(body, contentType);
        ex.audit.requestPatch(() -> Audits.decode(body, "application/json"));
      } else if (isProtobuf(contentType)) {
        Value decoded = ProtobufBodies.decode(codec, body, BODY_MEDIA_TYPES);
        b.rawBody(Json.writeBytes(decoded), "application/json");
        ex.audit.requestObject(() -> decoded);
      } else {
        String mediaType = bodyMediaType(contentType);
        b.rawBody(body, mediaType);
        ex.audit.requestObject(() -> Audits.decode(body, mediaType));
      }
    } else if (verb == ApiRequest.Verb.DELETE || verb == ApiRequest.Verb.DELETE_COLLECTION) {
      byte[] body = readBody(ex.request);
      ex.bodyRead = true;
      if (body.length > 0) {
        Value options = deleteOptions(body, header(ex.request, "Content-Type"));
        QueryParameters.applyDeleteOptions(b, options);
        ex.audit.requestObject(() -> options);
      }
    }
    // A PUT or an apply that creates its object needs create permission too; the server asks
    // inside the write, right before the create, so no check-then-act window exists.
    AuthorizationAttributes create = attributes.withVerb("create");
    b.createAuthorizer((u, resource, subresource, ns, objectName) -> settings.authorizer()
        .authorize(create) instanceof AuthorizationDecision.Deny d
            ? Optional.of(d.reason()) : Optional.empty());
    b.authorizer(celAuthorizer(attributes.user()));
    ApiRequest apiRequest = b.build();

    if (verb == ApiRequest.Verb.WATCH) {
      watches.stream(ex, apiRequest, def, format, query, backend,
          format.conversion() == OutputFormat.Conversion.TABLE
              ? metadata.printerColumns(def, backend) : List.of());
      return;
    }
    executeWithTimeout(ex, apiRequest, def, format, query);
  }

  /**
   * The server's authorizer as CEL's {@code authorizer} library asks it (kube's
   * {@code library/authz.go}): resource checks of any version, path checks, and checks as a
   * service account (its user and groups).
   */
  private CelAuthorizer celAuthorizer(UserInfo user) {
    return check -> {
      UserInfo as = check.serviceAccount().isEmpty() ? user : serviceAccountUser(
          check.serviceAccount());
      AuthorizationAttributes attrs = check.resourceRequest()
          ? new AuthorizationAttributes(as, check.verb(), true, check.group(), "*",
              check.resource(), check.subresource(), check.namespace(), check.name(), "")
          : new AuthorizationAttributes(as, check.verb(), false, "", "", "", "", "", "",
              check.path());
      AuthorizationDecision d = settings.authorizer().authorize(attrs);
      return d instanceof AuthorizationDecision.Allow a
          ? new CelAuthorizer.Decision(true, a.reason(), "")
          : new CelAuthorizer.Decision(false, ((AuthorizationDecision.Deny) d).reason(), "");
    };
  }

  /** kube's user of a service account {@code namespace:name}. */
  private static UserInfo serviceAccountUser(String namespacedName) {
    int colon = namespacedName.indexOf(':');
    String ns = namespacedName.substring(0, colon);
    return UserInfo.of("system:serviceaccount:" + namespacedName, "system:serviceaccounts",
        "system:serviceaccounts:" + ns);
  }

  private static StatusException genericNotFound() {
    return StatusException.of(GENERIC_NOT_FOUND);
  }

  private static ApiRequest.Verb verbOf(String method, ResourceDefinition def, String namespace,
      String name, String sub, String kubeVerb) {
    boolean collection = name.isEmpty();
    boolean allNamespaces = def.namespaced() && namespace.isEmpty();
    switch (method) {
      case "GET":
      case "HEAD":
        if (kubeVerb.equals("watch")) {
          if (!sub.isEmpty()) {
            break;
          }
          return ApiRequest.Verb.WATCH;
        }
        return collection ? ApiRequest.Verb.LIST : ApiRequest.Verb.GET;
      case "POST":
        // a named object's subresource may be created (kube's NamedCreater: serviceaccounts/token)
        if (collection ? !allNamespaces : !sub.isEmpty()) {
          return ApiRequest.Verb.CREATE;
        }
        break;
      case "PUT":
        if (!collection) {
          return ApiRequest.Verb.UPDATE;
        }
        break;
      case "PATCH":
        if (!collection) {
          return ApiRequest.Verb.PATCH;
        }
        break;
      case "DELETE":
        if (!sub.isEmpty()) {
          break;
        }
        if (collection && !allNamespaces) {
          return ApiRequest.Verb.DELETE_COLLECTION;
        }
        if (!collection) {
          return ApiRequest.Verb.DELETE;
        }
        break;
      default:
        break;
    }
    throw StatusException.of(GENERIC_METHOD_NOT_ALLOWED);
  }

  /** Watches are JSON or protobuf streams; kube has no YAML stream serializer. */
  private static OutputFormat watchFormat(String accept, OutputFormat.Protobuf protobuf) {
    try {
      OutputFormat f = OutputFormat.negotiate(accept, protobuf);
      if (f.encoding() == OutputFormat.Encoding.PROTOBUF) {
        return f;
      }
      if (f.encoding() == OutputFormat.Encoding.JSON
          && (f.conversion() == OutputFormat.Conversion.NONE
              || f.conversion() == OutputFormat.Conversion.TABLE
              || f.conversion() == OutputFormat.Conversion.PARTIAL_OBJECT_METADATA)) {
        return f;
      }
    } catch (StatusException e) {
      // fall through to the stream-specific 406
    }
    throw StatusErrors.notAcceptable(List.of("application/json;stream=watch"));
  }

  private static boolean isProtobuf(String contentType) {
    MediaRange r = MediaRange.parseContentType(contentType);
    return r != null && r.baseType().equals(ProtobufBodies.MEDIA_TYPE);
  }

  private static String bodyMediaType(String contentType) {
    if (contentType.isBlank()) {
      return "application/json";
    }
    MediaRange r = MediaRange.parseContentType(contentType);
    if (r != null && (r.baseType().equals("application/json")
        || r.baseType().equals("application/yaml"))) {
      return r.baseType();
    }
    throw StatusErrors.unsupportedMediaType(BODY_MEDIA_TYPES);
  }

  private static Map<String, List<String>> queryParameters(Fields query) {
    Map<String, List<String>> out = new HashMap<>();
    for (Fields.Field f : query) {
      out.put(f.getName(), f.getValues());
    }
    return out;
  }

  /** Decodes a {@code DeleteOptions} body (JSON, YAML or protobuf). */
  private Value deleteOptions(byte[] body, String contentType) {
    try {
      if (isProtobuf(contentType)) {
        return ProtobufBodies.decode(codec, body, BODY_MEDIA_TYPES);
      }
      return bodyMediaType(contentType).equals("application/yaml")
          ? Yaml.read(new String(body, StandardCharsets.UTF_8))
          : Json.read(body, DecodeLimits.DEFAULT);
    } catch (DecodeException e) {
      throw StatusErrors.badRequest(e.getMessage());
    }
  }

  /**
   * Reads the whole body, chunk by chunk (blocking this thread while the client sends), and
   * stops at the first byte over the limit.
   */
  private byte[] readBody(Request request) {
    long limit = settings.maxRequestBodyBytes();
    long declared = request.getLength();
    if (limit > 0 && declared > limit) {
      throw tooLarge(limit);
    }
    ByteArrayOutputStream out = new ByteArrayOutputStream(
        declared > 0 ? (int) Math.min(declared, 1 << 20) : 1024);
    long total = 0;
    while (true) {
      Content.Chunk chunk = request.read();
      if (chunk == null) {
        CountDownLatch more = new CountDownLatch(1);
        request.demand(more::countDown);
        try {
          more.await();
        } catch (InterruptedException e) {
          Thread.currentThread().interrupt();
          throw StatusErrors.badRequest("interrupted while reading the request body");
        }
        continue;
      }
      try {
        if (Content.Chunk.isFailure(chunk)) {
          throw StatusErrors.badRequest("unable to read the request body: "
              + chunk.getFailure().getMessage());
        }
        ByteBuffer buffer = chunk.getByteBuffer();
        total += buffer.remaining();
        if (limit > 0 && total > limit) {
          throw tooLarge(limit);
        }
        if (buffer.hasArray()) {
          out.write(buffer.array(), buffer.arrayOffset() + buffer.position(), buffer.remaining());
        } else {
          byte[] copy = new byte[buffer.remaining()];
          buffer.get(copy);
          out.write(copy, 0, copy.length);
        }
        if (chunk.isLast()) {
          return out.toByteArray();
        }
      } finally {
        chunk.release();
      }
    }
  }

  private static StatusException tooLarge(long limit) {
    return StatusErrors.requestEntityTooLarge("limit is " + limit);
  }

  // ---- execution ---------------------------------------------------------------------------

  private void executeWithTimeout(Exchange ex, ApiRequest request, ResourceDefinition def,
      OutputFormat format, Fields query) {
    Duration timeout = settings.requestTimeout();
    String t = query.getValue("timeout");
    if (t != null && !t.isEmpty()) {
      Duration requested;
      try {
        requested = GoDurations.parse(t);
      } catch (GoDurations.InvalidDurationException e) {
        throw StatusErrors.badRequest("invalid timeout specified in the request URL - "
            + e.getMessage());
      }
      if (requested.compareTo(Duration.ZERO) > 0 && requested.compareTo(timeout) < 0) {
        timeout = requested;
      }
    }
    if (request.verb().isWrite() && timeout.compareTo(WRITE_TIMEOUT_CAP) > 0) {
      timeout = WRITE_TIMEOUT_CAP;
    }
    ScheduledFuture<?> watchdog = timers.schedule(() -> ex.sendStatus(StatusErrors.timeout(
            "request did not complete within requested timeout - context deadline exceeded", 0)
            .status(), format.encoding(), List.of()),
        timeout.toNanos(), TimeUnit.NANOSECONDS);
    try {
      ApiResponse response = backend.execute(request);
      if (ex.answered()) {
        return;
      }
      respond(ex, response, def, format, query);
    } finally {
      watchdog.cancel(false);
    }
  }

  private void respond(Exchange ex, ApiResponse response, ResourceDefinition def,
      OutputFormat format, Fields query) {
    Optional<StreamedList> streamed = response.streamedList();
    if (streamed.isPresent() && stream(ex, response, streamed.get(), def, format, query)) {
      return;
    }
    Optional<StoredObject> stored = response.storedObject();
    if (stored.isPresent() && format.encoding() == OutputFormat.Encoding.JSON
        && format.conversion() == OutputFormat.Conversion.NONE) {
      // an object served or written as stored: its stored JSON, not decoded and encoded again
      ex.sendJson(response.code(), format.contentType(), Exchange.json(stored.get()),
          response::body, response.warnings());
      return;
    }
    MapValue body = response.body();
    boolean isStatus = "Status".equals(Nested.str(body, "kind"))
        && "v1".equals(Nested.str(body, "apiVersion"));
    if (!response.isSuccess() || isStatus) {
      ex.sendValue(response.code(), body, format.encoding(), format.encoding().mediaType(),
          response.warnings());
      return;
    }
    Value out = convert(body, def, format, query);
    ex.sendValue(response.code(), out, format.encoding(), format.contentType(),
        response.warnings());
  }

  /**
   * Streams a list item by item: JSON and protobuf as kube 1.33+ does, and the Table and
   * partial-metadata conversions of JSON lists row by row (kube builds those whole; the bytes
   * are the same). False when the list is to be built whole: YAML, as kube's YAML serializer
   * converts whole documents.
   */
  private boolean stream(Exchange ex, ApiResponse response, StreamedList list,
      ResourceDefinition def, OutputFormat format, Fields query) {
    int code = response.code();
    List<String> warnings = response.warnings();
    if (format.encoding() == OutputFormat.Encoding.PROTOBUF) {
      Optional<io.apiserver4j.kubeapi.ProtobufCodec.PreparedList> prepared =
          ProtobufBodies.prepareList(codec, list);
      if (prepared.isPresent()) {
        ex.sendStreamed(code, format.contentType(), warnings, prepared.get()::writeTo);
      } else {
        // what protobuf cannot carry goes as JSON, which every protobuf client also accepts
        ex.sendStreamed(code, OutputFormat.Encoding.JSON.mediaType(), warnings,
            out -> writeJsonList(list, out));
      }
      return true;
    }
    if (format.encoding() != OutputFormat.Encoding.JSON) {
      return false;
    }
    switch (format.conversion()) {
      case NONE:
        ex.sendStreamed(code, format.contentType(), warnings, out -> writeJsonList(list, out));
        return true;
      case TABLE: {
        Tables tables = Tables.of(def, metadata.printerColumns(def, backend),
            Tables.IncludeObject.parse(Optional.ofNullable(query.getValue("includeObject"))
                .orElse("")), format.metaVersion());
        Instant now = settings.clock().instant();
        ex.sendStreamed(code, format.contentType(), warnings, out -> {
          tables.writeList(list, now, out);
          out.write('\n');
        });
        return true;
      }
      case PARTIAL_OBJECT_METADATA_LIST:
        ex.sendStreamed(code, format.contentType(), warnings, out -> {
          Tables.writePartialObjectMetadataList(list, format.metaVersion(), out);
          out.write('\n');
        });
        return true;
      default:
        // PartialObjectMetadata of a list: the 406 of convert
        return false;
    }
  }

  /** A JSON list ended by a newline, as kube's encoder ends a document. */
  private static void writeJsonList(StreamedList list, java.io.OutputStream out)
      throws java.io.IOException {
    list.writeJson(out);
    out.write('\n');
  }

  /** Applies the negotiated conversion ({@code as=Table}, ...) to a successful body. */
  Value convert(MapValue body, ResourceDefinition def, OutputFormat format, Fields query) {
    boolean list = Nested.has(body, "items") && Nested.str(body, "kind").endsWith("List");
    switch (format.conversion()) {
      case TABLE: {
        Tables tables = Tables.of(def, metadata.printerColumns(def, backend),
            Tables.IncludeObject.parse(Optional.ofNullable(query.getValue("includeObject"))
                .orElse("")), format.metaVersion());
        return list ? tables.ofList(body, settings.clock().instant())
            : tables.ofObject(body, settings.clock().instant(), true);
      }
      case PARTIAL_OBJECT_METADATA:
        if (list) {
          throw StatusErrors.notAcceptable(List.of("application/json;as=PartialObjectMetadataList;"
              + "v=" + format.metaVersion() + ";g=meta.k8s.io"));
        }
        return Tables.partialObjectMetadata(body, format.metaVersion());
      case PARTIAL_OBJECT_METADATA_LIST:
        if (!list) {
          throw StatusErrors.notAcceptable(List.of("application/json;as=PartialObjectMetadata;"
              + "v=" + format.metaVersion() + ";g=meta.k8s.io"));
        }
        return Tables.partialObjectMetadataList(body, format.metaVersion());
      default:
        return body;
    }
  }

  // ---- helpers -----------------------------------------------------------------------------

  private static void sendJson(Exchange ex, int code, Value body, String contentType) {
    ex.audit.responseObject(body);
    ex.send(code, contentType, Json.writeBytes(body), List.of());
  }

  static String header(Request request, String name) {
    String v = request.getHeaders().get(name);
    return v == null ? "" : v;
  }

  private static String trimSlash(String path) {
    return path.length() > 1 && path.endsWith("/") ? path.substring(0, path.length() - 1) : path;
  }

  private static List<String> segments(String path) {
    List<String> out = new ArrayList<>();
    for (String s : path.split("/")) {
      if (!s.isEmpty()) {
        out.add(s);
      }
    }
    return out;
  }
}
