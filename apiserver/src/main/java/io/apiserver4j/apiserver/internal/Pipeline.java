package io.apiserver4j.apiserver.internal;

import io.apiserver4j.admission.AdmissionAttributes;
import io.apiserver4j.admission.AdmissionChain;
import io.apiserver4j.admission.Operation;
import io.apiserver4j.admission.OperationOptions;
import io.apiserver4j.apiserver.ApiRequest;
import io.apiserver4j.apiserver.ApiRequest.Verb;
import io.apiserver4j.apiserver.ApiResponse;
import io.apiserver4j.apiserver.ApiWatch;
import io.apiserver4j.apiserver.ResourceDefinition;
import io.apiserver4j.apiserver.ResourceStrategy;
import io.apiserver4j.apiserver.ResourceStrategy.GenerationPolicy;
import io.apiserver4j.apiserver.patch.JsonPatch;
import io.apiserver4j.apiserver.patch.MergePatch;
import io.apiserver4j.apiserver.patch.PatchSchema;
import io.apiserver4j.apiserver.patch.PatchType;
import io.apiserver4j.apiserver.patch.Patches;
import io.apiserver4j.apiserver.patch.ResourceOrigin;
import io.apiserver4j.apiserver.patch.StrategicMergePatch;
import io.apiserver4j.core.AlreadyExistsException;
import io.apiserver4j.core.BooleanValue;
import io.apiserver4j.core.DecodeException;
import io.apiserver4j.core.FieldError;
import io.apiserver4j.core.GroupKind;
import io.apiserver4j.core.GroupVersionKind;
import io.apiserver4j.core.IntegerValue;
import io.apiserver4j.core.Json;
import io.apiserver4j.core.ListValue;
import io.apiserver4j.core.MapValue;
import io.apiserver4j.core.NotFoundException;
import io.apiserver4j.core.Status;
import io.apiserver4j.core.StatusDetails;
import io.apiserver4j.core.StatusErrors;
import io.apiserver4j.core.StatusException;
import io.apiserver4j.core.StatusReason;
import io.apiserver4j.core.StringValue;
import io.apiserver4j.core.Value;
import io.apiserver4j.core.Yaml;
import io.apiserver4j.dryrun.DryRun;
import io.apiserver4j.dryrun.DryRunStore;
import io.apiserver4j.dryrun.GeneratedValuesPolicy;
import io.apiserver4j.fieldpath.ManagedFields;
import io.apiserver4j.merge.ParseableType;
import io.apiserver4j.merge.Updater;
import io.apiserver4j.merge.VersionConverter;
import io.apiserver4j.storage.CollectionKey;
import io.apiserver4j.storage.FieldSelector;
import io.apiserver4j.storage.LabelSelector;
import io.apiserver4j.storage.ListOptions;
import io.apiserver4j.storage.ListResult;
import io.apiserver4j.storage.ObjectKey;
import io.apiserver4j.storage.Preconditions;
import io.apiserver4j.storage.Store;
import io.apiserver4j.storage.StoredObject;
import io.apiserver4j.storage.WatchOptions;
import java.nio.charset.StandardCharsets;
import java.time.Clock;
import java.time.Instant;
import java.util.ArrayList;
import java.util.HashSet;
import java.util.List;
import java.util.Objects;
import java.util.Optional;
import java.util.OptionalLong;
import java.util.Random;
import java.util.Set;
import java.util.concurrent.ConcurrentHashMap;
import java.util.function.Supplier;

/**
 * The request pipeline: kube-apiserver's REST handlers ({@code create.go}, {@code update.go},
 * {@code patch.go}, {@code delete.go}, {@code get.go}) and generic registry store
 * ({@code registry/store.go}) for every verb, in their order. See the class comments of the
 * public {@code ApiServer} for the contract. Thread-safe.
 */
public final class Pipeline {
  /** The default limit of a request body: 3 MiB, as kube-apiserver's. */
  public static final long DEFAULT_MAX_BODY_BYTES = 3L * 1024 * 1024;
  private static final String GENERATE_ALPHABET = "bcdfghjklmnpqrstvwxz2456789";
  private static final int MAX_GENERATE_ATTEMPTS = 8;
  private static final int MAX_GENERATED_PREFIX = 58;
  private static final String APPLY_YAML = PatchType.APPLY_YAML.mediaType();

  final Registry registry;
  final Store store;
  final DryRunStore dryStore;
  final Clock clock;
  final Supplier<String> uids;
  final Random random;
  final AdmissionChain admission;
  final GeneratedValuesPolicy generatedValues;
  final long maxBodyBytes;
  final io.apiserver4j.apiserver.CreateAuthorizer createAuthorizer;
  private final ConcurrentHashMap<String, FieldManager> fieldManagers = new ConcurrentHashMap<>();
  private final ConcurrentHashMap<String, PatchSchema> patchSchemas = new ConcurrentHashMap<>();
  final CrdController crds;
  final CrdInformer crdInformer;
  final NamespaceController namespaces;
  final ScaleSupport scale;

  public Pipeline(Registry registry, Store store, Clock clock, Supplier<String> uids,
      Random random, java.util.function.Function<io.apiserver4j.admission.plugins.NamespaceStore,
          AdmissionChain> admission, GeneratedValuesPolicy generatedValues, long maxBodyBytes,
      io.apiserver4j.apiserver.CreateAuthorizer createAuthorizer) {
    this.createAuthorizer = createAuthorizer;
    this.registry = registry;
    this.store = store;
    this.dryStore = DryRunStore.over(store, clock);
    this.clock = clock;
    this.uids = uids;
    this.random = random;
    ServerNamespaces namespaces = new ServerNamespaces();
    this.admission = java.util.Objects.requireNonNull(admission.apply(namespaces),
        "the admission factory returned null");
    namespaces.bind(this);
    this.generatedValues = generatedValues;
    this.maxBodyBytes = maxBodyBytes;
    this.crdInformer = new CrdInformer(store, registry);
    this.crds = new CrdController(this, crdInformer);
    this.namespaces = new NamespaceController(this);
    this.scale = new ScaleSupport(this);
    registry.addListener((change, def) -> {
      // A changed definition may have another schema: drop what was derived from the old one.
      fieldManagers.keySet().removeIf(k -> k.startsWith(def.resource() + "|"));
      patchSchemas.remove(def.resource().toString());
    });
  }

  // --- entry points ----------------------------------------------------------------------------

  /**
   * Serves the established CustomResourceDefinitions in the store and follows their changes in
   * the background until {@link #stopFollowingCrds()}.
   *
   * @throws StatusException if the store cannot list them
   */
  public void followCrds() {
    crdInformer.start();
    registry.followedBy(crdInformer);
  }

  /** Stops following CustomResourceDefinitions; waits for the background watch to end. */
  public void stopFollowingCrds() {
    crdInformer.close();
  }

  /** Runs a request; every failure becomes a Status response. */
  public ApiResponse handle(ApiRequest request) {
    if (request.verb() == Verb.WATCH) {
      throw new IllegalArgumentException("WATCH requests go to ApiServer.watch");
    }
    Ctx c = new Ctx(request, clock.instant());
    try {
      switch (request.verb()) {
        case CREATE:
          return create(c);
        case GET:
          return get(c);
        case LIST:
          return list(c);
        case UPDATE:
          return update(c);
        case PATCH:
          return patch(c);
        case DELETE:
          return delete(c);
        case DELETE_COLLECTION:
          return deleteCollection(c);
        case WATCH:
        default:
          throw new IllegalArgumentException("WATCH requests go to ApiServer.watch");
      }
    } catch (StatusException e) {
      return ApiResponse.of(e.status(), c.warnings());
    } catch (RuntimeException e) {
      // A bug: report it as kube reports unexpected errors rather than throwing at the caller.
      return ApiResponse.of(StatusErrors.internal(e.toString()).status(), c.warnings());
    }
  }

  // --- endpoint resolution ---------------------------------------------------------------------

  static StatusException resourceNotFound() {
    return new NotFoundException(Status.failure(StatusReason.NOT_FOUND,
        "the server could not find the requested resource", StatusDetails.of("", "", "")));
  }

  static StatusException methodNotAllowed() {
    return StatusException.of(Status.failure(StatusReason.METHOD_NOT_ALLOWED,
        "the server does not allow this method on the requested resource",
        StatusDetails.of("", "", "")));
  }

  /** Resolves the endpoint of {@code c}'s request and checks the URL parts the verb needs. */
  void resolve(Ctx c) {
    ApiRequest r = c.request;
    ResourceDefinition def = registry.find(r.resource()).orElseThrow(Pipeline::resourceNotFound);
    c.def = def;
    c.subresource = r.subresource();
    c.namespace = r.namespace();
    c.name = r.name();
    Verb verb = r.verb();
    if (!c.subresource.isEmpty()) {
      boolean served = (c.subresource.equals("status") && def.hasStatus())
          || (c.subresource.equals("scale") && def.scale().isPresent());
      if (!served) {
        throw resourceNotFound();
      }
      if (verb != Verb.GET && verb != Verb.UPDATE && verb != Verb.PATCH) {
        throw methodNotAllowed();
      }
    }
    if (def.namespaced()) {
      boolean collectionWide = verb == Verb.LIST || verb == Verb.WATCH;
      if (c.namespace.isEmpty() && !collectionWide) {
        throw resourceNotFound();
      }
    } else if (!c.namespace.isEmpty()) {
      throw resourceNotFound();
    }
    boolean named = verb == Verb.GET || verb == Verb.UPDATE || verb == Verb.PATCH
        || verb == Verb.DELETE;
    if (named && c.name.isEmpty()) {
      throw methodNotAllowed();
    }
    if (!named && !c.name.isEmpty() && verb != Verb.WATCH) {
      throw methodNotAllowed();
    }
    if (!c.name.isEmpty()) {
      checkPathSegment("resource name", c.name);
    }
    if (!c.namespace.isEmpty()) {
      checkPathSegment("namespace", c.namespace);
    }
  }

  private static void checkPathSegment(String what, String value) {
    List<String> errs = MetaValidation.pathSegment(value, false);
    if (value.indexOf('\0') >= 0) {
      errs = new ArrayList<>(errs);
      errs.add("may not contain NUL");
    }
    if (!errs.isEmpty()) {
      throw StatusErrors.badRequest("invalid " + what + " " + GoText.quote(value) + ": "
          + errs);
    }
  }

  // --- options ---------------------------------------------------------------------------------

  /**
   * Validates the options of a write (kube's {@code Validate*Options}) and records dry run,
   * field validation and the manager in {@code c}.
   */
  void writeOptions(Ctx c, String optionsKind, Optional<PatchType> patchType) {
    ApiRequest r = c.request;
    List<FieldError> errs = new ArrayList<>();
    if (patchType.isPresent()) {
      if (patchType.get().isApply()) {
        if (r.fieldManager().isEmpty()) {
          errs.add(FieldError.required("fieldManager", "is required for apply patch"));
        }
      } else if (r.force().isPresent()) {
        errs.add(FieldError.forbidden("force", "may not be specified for non-apply patch"));
      }
    }
    errs.addAll(ManagedFields.validateManager(r.fieldManager(), "fieldManager"));
    errs.addAll(DryRun.validate(r.dryRun()));
    errs.addAll(validateFieldValidation(r.fieldValidation()));
    if (!errs.isEmpty()) {
      throw StatusErrors.invalid(new GroupKind("meta.k8s.io", optionsKind), "", errs);
    }
    c.dryRun = !r.dryRun().isEmpty();
    c.validation = fieldValidation(r.fieldValidation());
    c.manager = managerOrUserAgent(r.fieldManager(), r.userAgent());
  }

  static List<FieldError> validateFieldValidation(String v) {
    if (v.isEmpty() || v.equals("Ignore") || v.equals("Warn") || v.equals("Strict")) {
      return List.of();
    }
    return List.of(FieldError.notSupported("fieldValidation", Value.of(v),
        List.of("", "Ignore", "Strict", "Warn")));
  }

  static Ctx.FieldValidation fieldValidation(String v) {
    switch (v) {
      case "Ignore":
        return Ctx.FieldValidation.IGNORE;
      case "Strict":
        return Ctx.FieldValidation.STRICT;
      default:
        return Ctx.FieldValidation.WARN;
    }
  }

  /** {@code force} as Go's {@code strconv.ParseBool} reads the query parameter. */
  static boolean parseForce(Optional<String> force) {
    if (force.isEmpty()) {
      return false;
    }
    switch (force.get()) {
      case "1": case "t": case "T": case "TRUE": case "true": case "True":
        return true;
      case "0": case "f": case "F": case "FALSE": case "false": case "False":
        return false;
      default:
        throw StatusErrors.badRequest("strconv.ParseBool: parsing " + GoText.quote(force.get())
            + ": invalid syntax");
    }
  }

  /** kube's {@code managerOrUserAgent}: the manager, or the User-Agent up to its first '/'. */
  static String managerOrUserAgent(String manager, String userAgent) {
    if (!manager.isEmpty()) {
      return manager;
    }
    int slash = userAgent.indexOf('/');
    String prefix = slash >= 0 ? userAgent.substring(0, slash) : userAgent;
    StringBuilder sb = new StringBuilder();
    int bytes = 0;
    for (int i = 0; i < prefix.length(); ) {
      int cp = prefix.codePointAt(i);
      i += Character.charCount(cp);
      if (!GoText.isPrint(cp)) {
        continue;
      }
      int len = new String(Character.toChars(cp)).getBytes(StandardCharsets.UTF_8).length;
      if (bytes + len > ManagedFields.MAX_MANAGER_BYTES) {
        break;
      }
      bytes += len;
      sb.appendCodePoint(cp);
    }
    return sb.toString();
  }

  // --- bodies ----------------------------------------------------------------------------------

  private void checkSize(byte[] raw) {
    if (maxBodyBytes > 0 && raw.length > maxBodyBytes) {
      throw StatusErrors.requestEntityTooLarge("limit is " + maxBodyBytes);
    }
  }

  private static String baseMediaType(String contentType) {
    int semi = contentType.indexOf(';');
    return (semi > 0 ? contentType.substring(0, semi) : contentType).trim();
  }

  /** A decoded body and the keys it gave twice. */
  record Body(Value value, List<String> duplicates, byte[] raw) {}

  Body readBody(Ctx c) {
    ApiRequest r = c.request;
    Optional<Value> decoded = r.body();
    if (decoded.isPresent()) {
      return new Body(decoded.get(), List.of(), null);
    }
    byte[] raw = r.rawBody().orElse(new byte[0]);
    checkSize(raw);
    String type = baseMediaType(r.contentType());
    try {
      if (type.isEmpty() || type.equals("application/json") || type.equals("*/*")) {
        LenientJson.Decoded d = LenientJson.read(raw);
        return new Body(d.value(), d.duplicates(), raw);
      }
      if (type.equals("application/yaml")) {
        return new Body(Yaml.read(new String(raw, StandardCharsets.UTF_8)), List.of(), raw);
      }
    } catch (DecodeException e) {
      throw decodeError(c, raw, "couldn't get version/kind; json parse error: " + e.getMessage());
    }
    throw StatusErrors.unsupportedMediaType(List.of("application/json", "application/yaml"));
  }

  private static StatusException decodeError(Ctx c, byte[] raw, String detail) {
    return StatusErrors.badRequest("the object provided is unrecognized (must be of type "
        + c.def.kind().kind() + "): " + detail + " (" + summarize(raw) + ")");
  }

  // kube's summarizeData: the start of a JSON object as text, anything else in hex.
  static String summarize(byte[] data) {
    if (data == null || data.length == 0) {
      return "<empty>";
    }
    int max = 30;
    if (data[0] == '{') {
      String s = new String(data, 0, Math.min(data.length, max), StandardCharsets.UTF_8);
      return data.length > max ? s + " ..." : s;
    }
    StringBuilder sb = new StringBuilder();
    for (int i = 0; i < Math.min(data.length, max); i++) {
      sb.append(String.format("%02x", data[i] & 0xff));
    }
    return data.length > max ? sb + " ..." : sb.toString();
  }

  /**
   * Decodes the body of a create or update for the endpoint's kind: 413/415/400 for bodies that
   * are too large, of an unknown media type or malformed; 400 for another kind or version;
   * unknown fields and duplicate keys dropped and reported per {@code fieldValidation}; then
   * kube's defaulting.
   */
  MapValue decodeObject(Ctx c, GroupVersionKind expected, String schemaTypeName,
      io.apiserver4j.merge.Schema schema, ResourceStrategy.Defaulter defaulter) {
    Body body = readBody(c);
    if (!(body.value() instanceof MapValue m)) {
      throw decodeError(c, body.raw(), "couldn't get version/kind; json parse error: json: cannot"
          + " unmarshal " + SchemaChecker.jsonType(body.value()) + " into Go value of type struct"
          + " { APIVersion string \"json:\\\"apiVersion,omitempty\\\"\"; Kind string"
          + " \"json:\\\"kind,omitempty\\\"\" }");
    }
    String apiVersion = Meta.string(m, "apiVersion");
    String kind = Meta.string(m, "kind");
    if (!kind.isEmpty() && !kind.equals(expected.kind())) {
      String version = apiVersion.isEmpty() ? expected.version()
          : GroupVersionKind.of(apiVersion, kind).version();
      throw StatusErrors.badRequest(kind + " in version " + GoText.quote(version)
          + " cannot be handled as a " + expected.kind() + ": converting (" + version + "."
          + kind + ") to (" + internalPackage(expected.group()) + "." + expected.kind()
          + "): unknown conversion");
    }
    if (!apiVersion.isEmpty() && !apiVersion.equals(expected.apiVersion())) {
      throw StatusErrors.badRequest("the API version in the data (" + apiVersion
          + ") does not match the expected API version (" + expected.apiVersion() + ")");
    }
    MapValue obj = withTypeMeta(m, expected);
    SchemaChecker.Result checked = SchemaChecker.check(schema, schemaTypeName, obj);
    if (!checked.typeErrors().isEmpty()) {
      throw StatusErrors.badRequest(expected.kind() + " in version "
          + GoText.quote(expected.version()) + " cannot be handled as a " + expected.kind() + ": "
          + checked.typeErrors().get(0));
    }
    List<String> strict = new ArrayList<>();
    checked.unknownFields().forEach(p -> strict.add("unknown field " + GoText.quote(p)));
    body.duplicates().forEach(p -> strict.add("duplicate field " + GoText.quote(p)));
    if (!strict.isEmpty()) {
      if (c.validation == Ctx.FieldValidation.STRICT) {
        throw StatusErrors.badRequest(expected.kind() + " in version "
            + GoText.quote(expected.version()) + " cannot be handled as a " + expected.kind()
            + ": strict decoding error: " + String.join(", ", strict));
      }
      if (c.validation == Ctx.FieldValidation.WARN) {
        strict.forEach(c::warn);
      }
    }
    return typed(schema, schemaTypeName, defaulter.apply(checked.object()));
  }

  private static String internalPackage(String group) {
    if (group.isEmpty()) {
      return "core";
    }
    int dot = group.indexOf('.');
    return dot < 0 ? group : group.substring(0, dot);
  }

  /** {@code obj} in the shape kube's Go structs give built-in objects (see {@link TypedShape}). */
  static MapValue typed(io.apiserver4j.merge.Schema schema, String typeName, MapValue obj) {
    return schema == BuiltinKinds.schema() ? BuiltinKinds.shape().normalize(typeName, obj) : obj;
  }

  static MapValue typed(ResourceDefinition def, MapValue obj) {
    return def.customResource() ? obj : typed(def.schema(), def.schemaType(), obj);
  }

  /** The object a create starts from: kube's zero value of the kind. */
  static MapValue zeroObject(ResourceDefinition def) {
    return typed(def, withTypeMeta(MapValue.empty(), def.kind()));
  }

  static MapValue withTypeMeta(MapValue obj, GroupVersionKind gvk) {
    MapValue r = obj;
    if (!Meta.string(r, "apiVersion").equals(gvk.apiVersion())) {
      r = r.with("apiVersion", Value.of(gvk.apiVersion()));
    }
    if (!Meta.string(r, "kind").equals(gvk.kind())) {
      r = r.with("kind", Value.of(gvk.kind()));
    }
    return r;
  }

  // --- storage conversion ----------------------------------------------------------------------

  /** The object as stored: at the storage version. */
  static MapValue toStorage(ResourceDefinition def, MapValue obj) {
    if (!def.customResource() || def.storageVersion().equals(def.kind().version())) {
      return obj;
    }
    return obj.with("apiVersion", Value.of(
        new GroupVersionKind(def.kind().group(), def.storageVersion(), "").apiVersion()));
  }

  /**
   * A stored object as the endpoint serves it: at the endpoint's version. Custom resources are
   * converted with conversion strategy None (only apiVersion changes) and pruned by the
   * version's schema, as kube-apiserver's CRD storage codec does.
   */
  static MapValue fromStorage(ResourceDefinition def, MapValue stored) {
    if (!def.customResource()) {
      return stored;
    }
    String want = def.kind().apiVersion();
    if (Meta.string(stored, "apiVersion").equals(want)) {
      return stored;
    }
    MapValue converted = stored.with("apiVersion", Value.of(want));
    return SchemaChecker.check(def.schema(), def.schemaType(), converted).object();
  }

  // --- field managers --------------------------------------------------------------------------

  /** The managed-fields manager of an endpoint (a definition, or its status / scale). */
  FieldManager fieldManager(ResourceDefinition def, String subresource) {
    String key = def.resource() + "|" + subresource;
    FieldManager fm = fieldManagers.get(key);
    if (fm != null) {
      return fm;
    }
    fm = subresource.equals("scale") ? scale.newFieldManager(def) : newFieldManager(def, subresource);
    FieldManager prev = fieldManagers.putIfAbsent(key, fm);
    return prev == null ? fm : prev;
  }

  private FieldManager newFieldManager(ResourceDefinition def, String subresource) {
    ParseableType type = def.schema().type(def.schemaType());
    Updater.Builder b = Updater.builder().converter(converter(def));
    io.apiserver4j.fieldpath.FieldSet reset =
        def.strategy().resetFields(subresource, def.hasStatus());
    if (!reset.isEmpty()) {
      b.ignoredFields(def.kind().apiVersion(), reset);
    }
    ResourceStrategy.Defaulter defaulter = def.strategy().defaulter();
    return new FieldManager(def.kind(), subresource, type, b.build(),
        o -> typed(def, defaulter.apply(o)), zeroObject(def));
  }

  /** Converts objects between the served versions of a group/resource (CRD conversion None). */
  VersionConverter converter(ResourceDefinition def) {
    return (object, version) -> {
      if (version.isEmpty()) {
        throw new io.apiserver4j.merge.ConversionException(
            "cannot convert to invalid version: \"\"");
      }
      GroupVersionKind target = GroupVersionKind.of(version, def.kind().kind());
      if (target.equals(def.kind())) {
        return object;
      }
      Optional<ResourceDefinition> other = registry.findByKind(target);
      if (other.isEmpty() || !other.get().groupResource().equals(def.groupResource())) {
        throw new io.apiserver4j.merge.MissingVersionException("version " + version
            + " of " + def.kind().kind() + " is not served");
      }
      MapValue v = object.value() instanceof MapValue m ? m : MapValue.empty();
      ResourceDefinition to = other.get();
      MapValue converted = SchemaChecker.check(to.schema(), to.schemaType(),
          v.with("apiVersion", Value.of(version))).object();
      return to.schema().type(to.schemaType()).fromValueUnvalidated(converted);
    };
  }

  /** The strategic merge patch schema of a built-in kind (custom resources have none). */
  PatchSchema patchSchema(ResourceDefinition def) {
    return patchSchemas.computeIfAbsent(def.resource().toString(),
        k -> def.schema() == BuiltinKinds.schema()
            ? BuiltinKinds.patchSchema(def.schemaType())
            : SmdPatchSchema.of(def.schema(), def.schemaType(), java.util.Map.of()));
  }

  // --- admission -------------------------------------------------------------------------------

  AdmissionAttributes attributes(Ctx c, Operation op, GroupVersionKind kind, String name,
      MapValue object, MapValue oldObject) {
    AdmissionAttributes.Builder b = AdmissionAttributes.builder()
        .operation(op)
        .resource(c.def.resource())
        .subresource(c.subresource)
        .kind(kind)
        .name(name)
        .namespace(c.def.namespaced() ? c.namespace : "")
        .userInfo(c.request.user())
        .dryRun(c.dryRun)
        .options(OperationOptions.of(op, c.dryRun, c.request.fieldManager()));
    if (object != null) {
      b.object(object);
    }
    if (oldObject != null) {
      b.oldObject(oldObject);
    }
    return b.build();
  }

  /**
   * kube's {@code forbidCreateAdmission}: while a CRD is terminating, creates and patches may
   * not create its objects (an update through PUT still may, as in kube).
   */
  private void forbidCreateWhileTerminating(Ctx c, String name) {
    if (c.def.customResource() && crdInformer.terminating(c.def.groupResource())) {
      throw StatusErrors.forbidden(c.def.groupResource(), name,
          "create not allowed while custom resource definition is terminating");
    }
  }

  /**
   * Mutating admission, restoring managedFields a plugin left undecodable (with kube's warning).
   */
  MapValue mutate(Ctx c, AdmissionAttributes attrs) {
    MapValue before = attrs.object().orElseThrow();
    MapValue after = admission.admit(attrs);
    if (after == before) {
      return after;
    }
    Optional<String> error = FieldManager.managedFieldsError(after);
    if (error.isPresent()) {
      c.warn(".metadata.managedFields was in an invalid state after admission; this could be"
          + " caused by an outdated mutating admission controller; please fix your requests: "
          + error.get());
      return Meta.copyMeta(after, before, "managedFields");
    }
    return after;
  }

  // --- ObjectMeta handling ---------------------------------------------------------------------

  /** kube's {@code WipeObjectMetaSystemFields}. */
  static MapValue wipeSystemFields(MapValue obj) {
    MapValue r = obj;
    for (String k : List.of("creationTimestamp", "uid", "deletionTimestamp",
        "deletionGracePeriodSeconds", "selfLink")) {
      r = Meta.withoutMeta(r, k);
    }
    return r;
  }

  /** kube's {@code FillObjectMetaSystemFields}. */
  MapValue fillSystemFields(Ctx c, MapValue obj) {
    MapValue r = Meta.withMeta(obj, "creationTimestamp", Value.of(Meta.formatTime(c.now)));
    return Meta.withMeta(r, "uid", Value.of(uids.get()));
  }

  /** kube's {@code EnsureObjectNamespaceMatchesRequestNamespace}. */
  static MapValue ensureNamespace(MapValue obj, String expected) {
    String actual = Meta.metaString(obj, "namespace");
    if (actual.equals(expected)) {
      return obj;
    }
    if (actual.isEmpty()) {
      return Meta.withMeta(obj, "namespace", Value.of(expected));
    }
    if (expected.isEmpty()) {
      return Meta.withoutMeta(obj, "namespace");
    }
    throw StatusErrors.badRequest("the namespace of the provided object does not match the"
        + " namespace sent on the request");
  }

  /** The namespace an object of the endpoint must have (none for Namespace objects). */
  static String expectedNamespace(Ctx c) {
    if (!c.def.namespaced()) {
      return "";
    }
    return c.namespace;
  }

  /** kube's {@code checkName}: the object must carry the URL's name. */
  static void checkName(MapValue obj, String name, String namespace) {
    String objName = Meta.metaString(obj, "name");
    if (!objName.equals(name)) {
      throw StatusErrors.badRequest("the name of the object (" + objName
          + ") does not match the name on the URL (" + name + ")");
    }
    String objNamespace = Meta.metaString(obj, "namespace");
    if (!namespace.isEmpty() && !objNamespace.isEmpty() && !objNamespace.equals(namespace)) {
      throw StatusErrors.badRequest("the namespace of the object (" + objNamespace
          + ") does not match the namespace on the request (" + namespace + ")");
    }
  }

  /** kube's owner reference dedup (same uid and equal reference), with its warnings. */
  static MapValue dedupOwnerReferences(Ctx c, MapValue obj, boolean afterMutatingAdmission) {
    if (!(Meta.metadata(obj).getOrNull("ownerReferences") instanceof ListValue refs)) {
      return obj;
    }
    ListValue.Builder out = ListValue.builder(refs.size());
    List<Value> kept = new ArrayList<>();
    List<String> duplicates = new ArrayList<>();
    Set<String> seen = new HashSet<>();
    for (Value ref : refs.items()) {
      String uid = ref instanceof MapValue m ? Meta.string(m, "uid") : "";
      if (!seen.contains(uid) || !kept.contains(ref)) {
        seen.add(uid);
        kept.add(ref);
        out.add(ref);
      } else {
        duplicates.add(uid);
      }
    }
    if (duplicates.isEmpty()) {
      return obj;
    }
    c.warn(".metadata.ownerReferences contains duplicate entries"
        + (afterMutatingAdmission ? " after mutating admission happens" : "")
        + "; API server dedups owner references in 1.20+, and may reject such requests as early"
        + " as 1.24; please fix your requests; duplicate UID(s) observed: "
        + String.join(", ", duplicates));
    return Meta.withMeta(obj, "ownerReferences", out.build());
  }

  /** A name from {@code generateName}: the prefix (cut to 58 characters) and 5 random characters. */
  String generateName(String base) {
    String prefix = base.length() > MAX_GENERATED_PREFIX ? base.substring(0, MAX_GENERATED_PREFIX)
        : base;
    StringBuilder sb = new StringBuilder(prefix);
    synchronized (random) {
      for (int i = 0; i < 5; i++) {
        sb.append(GENERATE_ALPHABET.charAt(random.nextInt(GENERATE_ALPHABET.length())));
      }
    }
    return sb.toString();
  }

  /** kube's {@code PrepareForCreate} of the kind (status, generation, the strategy's hook). */
  static MapValue prepareForCreate(ResourceDefinition def, MapValue obj) {
    MapValue r = obj;
    if (def.hasStatus()) {
      r = def.customResource() ? r.without("status") : r.with("status", MapValue.empty());
    }
    if (def.strategy().generationPolicy() != GenerationPolicy.NONE) {
      r = Meta.withMeta(r, "generation", Value.of(1L));
    }
    return def.strategy().prepareForCreate().prepare(r, Optional.empty());
  }

  /**
   * What Go's {@code omitempty} does to a built-in object on its way through kube-apiserver's
   * typed structs: empty metadata maps and lists, and empty data maps, are not kept. (Custom
   * resources are unstructured and keep them.)
   */
  static MapValue omitEmpty(ResourceDefinition def, MapValue obj) {
    if (def.customResource()) {
      return obj;
    }
    MapValue r = obj;
    for (String k : List.of("labels", "annotations", "finalizers", "ownerReferences")) {
      Value v = Meta.metadata(r).getOrNull(k);
      if (v != null && (v.isNull() || (v instanceof MapValue m && m.isEmpty())
          || (v instanceof ListValue l && l.isEmpty()))) {
        r = Meta.withoutMeta(r, k);
      }
    }
    if (def.kind().group().isEmpty() && (def.kind().kind().equals("ConfigMap")
        || def.kind().kind().equals("Secret"))) {
      for (String k : List.of("data", "binaryData", "stringData")) {
        Value v = r.getOrNull(k);
        if (v != null && (v.isNull() || (v instanceof MapValue m && m.isEmpty()))) {
          r = r.without(k);
        }
      }
    }
    return r;
  }

  /** kube's {@code BeforeCreate}: namespace, preparation, validation. */
  MapValue beforeCreate(Ctx c, MapValue obj) {
    ResourceDefinition def = c.def;
    MapValue r = ensureNamespace(obj, def.namespaced() ? c.namespace : "");
    r = omitEmpty(def, r);
    r = typed(def, prepareForCreate(def, r));
    List<FieldError> errs = new ArrayList<>(
        MetaValidation.objectMeta(r, def.namespaced(), def.strategy().nameValidation()));
    errs.addAll(def.strategy().validator().validate(r, Optional.empty()));
    if (!errs.isEmpty()) {
      throw StatusErrors.invalid(def.kind().groupKind(), Meta.metaString(r, "name"), errs);
    }
    return r;
  }

  /**
   * kube's {@code PrepareForUpdate} of the endpoint: the main resource keeps the stored status
   * and moves generation per the strategy; the status endpoint keeps everything but status.
   */
  static MapValue prepareForUpdate(ResourceDefinition def, String subresource, MapValue obj,
      MapValue old) {
    MapValue r = obj;
    ResourceStrategy s = def.strategy();
    if (subresource.equals("status")) {
      Value status = r.getOrNull("status");
      MapValue fresh = old;
      MapValue meta = Meta.metadata(r);
      if (s.statusPreservedMetadata().contains("*")) {
        MapValue oldMeta = Meta.metadata(old);
        Value mf = meta.getOrNull("managedFields");
        meta = mf == null ? oldMeta.without("managedFields") : oldMeta.with("managedFields", mf);
      } else {
        for (String k : s.statusPreservedMetadata()) {
          Value v = Meta.metadata(old).getOrNull(k);
          meta = v == null ? meta.without(k) : meta.with(k, v);
        }
      }
      fresh = fresh.with("metadata", meta);
      return status == null ? fresh.without("status") : fresh.with("status", status);
    }
    if (def.hasStatus()) {
      Value oldStatus = old.getOrNull("status");
      r = oldStatus == null ? r.without("status") : r.with("status", oldStatus);
    }
    if (bumpsGeneration(def, r, old)) {
      r = Meta.withMeta(r, "generation", Value.of(Meta.generation(old) + 1));
    }
    return s.prepareForUpdate().prepare(r, Optional.of(old));
  }

  private static boolean bumpsGeneration(ResourceDefinition def, MapValue obj, MapValue old) {
    switch (def.strategy().generationPolicy()) {
      case SPEC:
        return !Objects.equals(obj.getOrNull("spec"), old.getOrNull("spec"));
      case SPEC_AND_ANNOTATIONS:
        return !Objects.equals(obj.getOrNull("spec"), old.getOrNull("spec"))
            || !Objects.equals(Meta.metadata(obj).getOrNull("annotations"),
                Meta.metadata(old).getOrNull("annotations"));
      case NON_METADATA:
        MapValue a = obj.without("metadata");
        MapValue b = old.without("metadata");
        if (def.hasStatus()) {
          a = a.without("status");
          b = b.without("status");
        }
        return !a.equals(b);
      case NONE:
      default:
        return false;
    }
  }

  /** kube's {@code BeforeUpdate}. */
  MapValue beforeUpdate(Ctx c, ResourceDefinition def, String subresource, MapValue obj,
      MapValue old) {
    MapValue r = ensureNamespace(obj, def.namespaced() ? c.namespace : "");
    r = omitEmpty(def, r);
    r = Meta.copyMeta(r, old, "generation");
    r = typed(def, prepareForUpdate(def, subresource, r, old));
    if (Meta.metaString(r, "uid").isEmpty()) {
      r = Meta.copyMeta(r, old, "uid");
    }
    if (Meta.hasMeta(old, "creationTimestamp")) {
      r = Meta.copyMeta(r, old, "creationTimestamp");
    }
    if (Meta.hasMeta(old, "deletionTimestamp")) {
      r = Meta.copyMeta(r, old, "deletionTimestamp");
    }
    if (Meta.hasMeta(old, "deletionGracePeriodSeconds")
        && !Meta.hasMeta(r, "deletionGracePeriodSeconds")) {
      r = Meta.copyMeta(r, old, "deletionGracePeriodSeconds");
    }
    List<FieldError> errs = new ArrayList<>(MetaValidation.objectMetaUpdate(r, old,
        def.namespaced(), def.strategy().nameValidation()));
    errs.addAll(def.strategy().validator().validate(r, Optional.of(old)));
    if (!errs.isEmpty()) {
      throw StatusErrors.invalid(def.kind().groupKind(), Meta.metaString(r, "name"), errs);
    }
    return r;
  }

  /**
   * kube's {@code IgnoreManagedFieldsTimestampsTransformer}: when nothing but managedFields
   * times changed, the old times are kept so that the write is a no-op.
   */
  static MapValue ignoreTimestampOnlyChanges(MapValue obj, MapValue old) {
    Value newMf = Meta.metaValue(obj, "managedFields");
    Value oldMf = Meta.metaValue(old, "managedFields");
    if (!(newMf instanceof ListValue n) || !(oldMf instanceof ListValue o)
        || n.size() != o.size() || n.isEmpty() || n.equals(o)) {
      return obj;
    }
    if (!withoutTimes(n).equals(withoutTimes(o))) {
      return obj;
    }
    MapValue candidate = Meta.withMeta(obj, "managedFields", o);
    return candidate.equals(old) ? candidate : obj;
  }

  private static ListValue withoutTimes(ListValue entries) {
    ListValue.Builder b = ListValue.builder(entries.size());
    for (Value e : entries.items()) {
      b.add(e instanceof MapValue m ? m.without("time") : e);
    }
    return b.build();
  }

  // --- CREATE ----------------------------------------------------------------------------------

  private ApiResponse create(Ctx c) {
    resolve(c);
    if (!c.subresource.isEmpty()) {
      throw methodNotAllowed();
    }
    writeOptions(c, "CreateOptions", Optional.empty());
    ResourceDefinition def = c.def;
    MapValue requested = decodeObject(c, def.kind(), def.schemaType(), def.schema(),
        def.strategy().defaulter());
    String name = Meta.metaString(requested, "name");
    if (def.kind().group().isEmpty() && def.plural().equals("namespaces")) {
      c.namespace = "";
    }
    MapValue obj = wipeSystemFields(requested);
    obj = ensureNamespace(obj, expectedNamespace(c));
    obj = dedupOwnerReferences(c, obj, false);
    MapValue live = zeroObject(def);
    obj = fieldManager(def, "").update(live, obj, c.manager, c.now);
    forbidCreateWhileTerminating(c, name);
    obj = mutate(c, attributes(c, Operation.CREATE, def.kind(), name, obj, null));
    obj = dedupOwnerReferences(c, obj, true);
    MapValue created = storeCreate(c, obj);
    if (c.dryRun) {
      created = generatedValues.applyToCreate(requested, created);
    } else {
      crds.afterWrite(c, created);
    }
    return new ApiResponse(201, created, c.warnings());
  }

  /** kube's {@code Store.Create}, with generateName retries. */
  MapValue storeCreate(Ctx c, MapValue obj) {
    boolean generate = !Meta.metaString(obj, "generateName").isEmpty()
        && Meta.metaString(obj, "name").isEmpty();
    int attempts = generate ? MAX_GENERATE_ATTEMPTS : 1;
    AlreadyExistsException last = null;
    for (int i = 0; i < attempts; i++) {
      MapValue o = fillSystemFields(c, obj);
      if (generate) {
        o = Meta.withMeta(o, "name", Value.of(generateName(Meta.metaString(o, "generateName"))));
      }
      o = beforeCreate(c, o);
      String name = Meta.metaString(o, "name");
      admission.validate(attributes(c, Operation.CREATE, c.def.kind(), name, o, null));
      ObjectKey key = c.key(name);
      try {
        if (c.dryRun) {
          return fromStorage(c.def, dryStore.create(key, toStorage(c.def, o)));
        }
        return fromStorage(c.def, store.create(key, toStorage(c.def, o)).object());
      } catch (AlreadyExistsException e) {
        last = interpretAlreadyExists(c, key, generate);
      }
    }
    throw last;
  }

  private AlreadyExistsException interpretAlreadyExists(Ctx c, ObjectKey key, boolean generated) {
    AlreadyExistsException e = generated
        ? StatusErrors.generatedNameExhausted(c.groupResource(), key.name())
        : StatusErrors.alreadyExists(c.groupResource(), key.name());
    Optional<StoredObject> existing = store.get(key);
    if (existing.isPresent() && Meta.hasMeta(existing.get().object(), "deletionTimestamp")) {
      return new AlreadyExistsException(e.status().withMessage("object is being deleted: "
          + e.status().message()));
    }
    return e;
  }

  // --- GET / LIST / WATCH ----------------------------------------------------------------------

  private ApiResponse get(Ctx c) {
    resolve(c);
    StoredObject stored = store.get(c.key(c.name))
        .orElseThrow(() -> notFound(c));
    MapValue obj = fromStorage(c.def, stored.object());
    if (c.subresource.equals("scale")) {
      obj = scale.scaleOf(c.def, obj);
    }
    return new ApiResponse(200, obj, c.warnings());
  }

  NotFoundException notFound(Ctx c) {
    return StatusErrors.notFound(c.def.groupResource(), c.name);
  }

  ListOptions listOptions(Ctx c) {
    ApiRequest r = c.request;
    ListOptions.Builder b = ListOptions.builder();
    if (!r.labelSelector().isEmpty()) {
      b.labelSelector(LabelSelector.parse(r.labelSelector()));
    }
    if (!r.fieldSelector().isEmpty()) {
      FieldSelector fs = FieldSelector.parse(r.fieldSelector());
      for (FieldSelector.Term t : fs.terms()) {
        if (!selectableField(c.def, t.field())) {
          throw StatusErrors.badRequest("field label not supported: " + t.field());
        }
      }
      b.fieldSelector(fs);
    }
    if (r.limit() > 0) {
      b.limit(r.limit());
    }
    if (!r.continueToken().isEmpty()) {
      b.continueToken(r.continueToken());
    }
    String rv = r.resourceVersion();
    String match = r.resourceVersionMatch();
    if (!match.isEmpty() && rv.isEmpty()) {
      throw StatusErrors.invalid(new GroupKind("meta.k8s.io", "ListOptions"), "",
          List.of(FieldError.forbidden("resourceVersionMatch",
              "resourceVersionMatch is forbidden unless resourceVersion is provided")));
    }
    if (!rv.isEmpty()) {
      long v = parseResourceVersion(rv);
      if (match.equals("Exact")) {
        b.exact(v);
      } else if (match.isEmpty() || match.equals("NotOlderThan")) {
        b.notOlderThan(v);
      } else {
        throw StatusErrors.invalid(new GroupKind("meta.k8s.io", "ListOptions"), "",
            List.of(FieldError.notSupported("resourceVersionMatch", Value.of(match),
                List.of("Exact", "NotOlderThan", ""))));
      }
    }
    return b.build();
  }

  private static long parseResourceVersion(String rv) {
    try {
      long v = Long.parseLong(rv);
      if (v < 0) {
        throw new NumberFormatException();
      }
      return v;
    } catch (NumberFormatException e) {
      throw StatusErrors.badRequest("invalid resource version: " + rv);
    }
  }

  static boolean selectableField(ResourceDefinition def, String field) {
    if (field.equals("metadata.name") || field.equals("metadata.namespace")) {
      return true;
    }
    if (def.customResource()) {
      return false;
    }
    switch (def.kind().kind()) {
      case "Pod":
        return List.of("spec.nodeName", "spec.restartPolicy", "spec.schedulerName",
            "spec.serviceAccountName", "spec.hostNetwork", "status.phase", "status.podIP",
            "status.nominatedNodeName").contains(field);
      case "Secret":
        return field.equals("type");
      case "Namespace":
        return field.equals("status.phase");
      case "Event":
        return field.startsWith("involvedObject.") || List.of("reason", "reportingComponent",
            "source", "type").contains(field);
      case "Job":
        return field.equals("status.successful");
      default:
        return false;
    }
  }

  private ApiResponse list(Ctx c) {
    resolve(c);
    ListResult result = store.list(collection(c), listOptions(c));
    ListValue.Builder items = ListValue.builder(result.items().size());
    for (StoredObject o : result.items()) {
      MapValue obj = fromStorage(c.def, o.object());
      if (!c.def.customResource()) {
        obj = obj.without("apiVersion").without("kind");
      }
      items.add(obj);
    }
    MapValue.Builder meta = MapValue.builder()
        .put("resourceVersion", Value.of(Long.toString(result.resourceVersion())));
    result.continueToken().ifPresent(t -> meta.put("continue", Value.of(t)));
    result.remainingItemCount().ifPresent(n -> meta.put("remainingItemCount", Value.of(n)));
    MapValue body = MapValue.ofEntries("apiVersion", Value.of(c.def.kind().apiVersion()),
        "items", items.build(), "kind", Value.of(c.def.listKind()), "metadata", meta.build());
    return new ApiResponse(200, body, c.warnings());
  }

  CollectionKey collection(Ctx c) {
    String group = c.def.kind().group();
    return c.def.namespaced() && !c.namespace.isEmpty()
        ? CollectionKey.inNamespace(group, c.def.plural(), c.namespace)
        : CollectionKey.all(group, c.def.plural());
  }

  /** Opens a watch. */
  public ApiWatch watch(ApiRequest request) {
    Ctx c = new Ctx(request, clock.instant());
    resolve(c);
    if (!c.subresource.isEmpty()) {
      throw methodNotAllowed();
    }
    ListOptions lo = listOptions(c);
    WatchOptions.Builder b = WatchOptions.builder()
        .labelSelector(lo.labelSelector())
        .fieldSelector(lo.fieldSelector())
        .allowBookmarks(request.allowWatchBookmarks());
    if (!request.resourceVersion().isEmpty() && !request.resourceVersion().equals("0")) {
      b.resourceVersion(parseResourceVersion(request.resourceVersion()));
    }
    request.sendInitialEvents().ifPresent(send -> b.initialEvents(send
        ? io.apiserver4j.storage.InitialEvents.SEND : io.apiserver4j.storage.InitialEvents.SKIP));
    io.apiserver4j.storage.Watch w;
    if (!c.name.isEmpty()) {
      w = store.watch(c.key(c.name), b.build());
    } else {
      w = store.watch(collection(c), b.build());
    }
    return new WatchAdapter(w, c.def);
  }

  // --- UPDATE (PUT) ----------------------------------------------------------------------------

  private ApiResponse update(Ctx c) {
    resolve(c);
    writeOptions(c, "UpdateOptions", Optional.empty());
    if (c.subresource.equals("scale")) {
      return scale.update(c);
    }
    ResourceDefinition def = c.def;
    MapValue body = decodeObject(c, def.kind(), def.schemaType(), def.schema(),
        def.strategy().defaulter());
    body = ensureNamespace(body, expectedNamespace(c));
    checkName(body, c.name, c.namespace);
    body = dedupOwnerReferences(c, body, false);
    MapValue requested = body;
    String uid = Meta.metaString(body, "uid");
    FieldManager fm = fieldManager(def, c.subresource);
    Transform transform = (existing, creating) -> {
      MapValue live = existing == null ? zeroObject(def) : existing;
      MapValue o = fm.update(live, requested, c.manager, c.now);
      if (creating) {
        o = mutate(c, attributes(c, Operation.CREATE, def.kind(), c.name, o, null));
      } else {
        o = mutate(c, attributes(c, Operation.UPDATE, def.kind(), c.name, o, existing));
      }
      return dedupOwnerReferences(c, o, true);
    };
    UpdateOutcome out = storeUpdate(c, def, c.subresource, transform, false,
        uid.isEmpty() ? Optional.empty() : Optional.of(uid));
    return respondUpdate(c, requested, out);
  }

  ApiResponse respondUpdate(Ctx c, MapValue requested, UpdateOutcome out) {
    MapValue result = out.object();
    if (out.created() && c.dryRun) {
      result = generatedValues.applyToCreate(requested, result);
    }
    if (!c.dryRun && !out.deleted()) {
      crds.afterWrite(c, result);
    }
    if (!c.dryRun && out.deleted()) {
      crds.afterDelete(c, result);
      namespaces.afterDelete(c);
    }
    return new ApiResponse(out.created() ? 201 : 200, result, c.warnings());
  }

  /** Builds the new object from the current one (null when it does not exist yet). */
  @FunctionalInterface
  interface Transform {
    MapValue apply(MapValue existing, boolean creating);
  }

  /** The result of {@link #storeUpdate}. */
  record UpdateOutcome(MapValue object, boolean created, boolean deleted) {}

  /**
   * kube's {@code Store.Update} over {@code GuaranteedUpdate}: an existing object is updated by
   * {@link Store#guaranteedUpdate}, each attempt building the new object from the current one,
   * checking resourceVersion and running BeforeUpdate and validating admission (a lost race
   * re-runs the attempt); a missing one, where allowed, is built and created instead, and
   * updated after all if another writer created it first.
   */
  UpdateOutcome storeUpdate(Ctx c, ResourceDefinition def, String subresource,
      Transform transform, boolean forceAllowCreate, Optional<String> uidPrecondition) {
    return storeUpdate(c, def, subresource, transform, forceAllowCreate, uidPrecondition,
        AdmissionView.of(def.kind()));
  }

  /** How validating admission sees the objects of an endpoint (a scale sees Scales). */
  record AdmissionView(GroupVersionKind kind, java.util.function.UnaryOperator<MapValue> convert) {
    static AdmissionView of(GroupVersionKind kind) {
      return new AdmissionView(kind, m -> m);
    }
  }

  UpdateOutcome storeUpdate(Ctx c, ResourceDefinition def, String subresource,
      Transform transform, boolean forceAllowCreate, Optional<String> uidPrecondition,
      AdmissionView view) {
    ResourceStrategy s = def.strategy();
    boolean allowCreate = s.allowCreateOnUpdate() || forceAllowCreate;
    ObjectKey key = c.key(c.name);
    Preconditions preconditions = uidPrecondition.map(Preconditions::ofUid)
        .orElse(Preconditions.none());
    while (true) {
      UpdateAttempt attempt = new UpdateAttempt(c, def, subresource, transform, view);
      try {
        // The store runs the attempt on the current state and retries it on a lost race; the
        // etcd store starts from the state it last saw, so a read-modify-write of an object this
        // server just read or wrote is a single transaction.
        StoredObject written = c.dryRun
            ? dryStore.guaranteedUpdate(key, preconditions, attempt)
            : store.guaranteedUpdate(key, preconditions, attempt);
        return new UpdateOutcome(fromStorage(def, written.object()), false, false);
      } catch (DeleteInstead d) {
        deleteWithoutFinalizers(c, def, key, d.resourceVersion);
        return new UpdateOutcome(d.object, false, true);
      } catch (NotFoundException e) {
        if (e == attempt.failure) {
          throw e; // the attempt's own 404 (admission, a missing namespace), not a missing key
        }
        if (!allowCreate) {
          throw StatusErrors.notFound(def.groupResource(), c.name);
        }
      }
      MapValue obj = transform.apply(null, true);
      if (!c.subresource.isEmpty()) {
        throw StatusErrors.notFound(def.groupResource(), c.name);
      }
      obj = fillSystemFields(c, wipeSystemFields(obj));
      obj = beforeCreate(c, obj);
      authorizeCreate(c);
      admission.validate(attributes(c, Operation.CREATE, view.kind(), c.name,
          view.convert().apply(obj), null));
      try {
        MapValue created;
        if (c.dryRun) {
          created = dryStore.create(key, toStorage(def, Meta.withoutMeta(obj,
              "resourceVersion")));
        } else {
          created = store.create(key, toStorage(def, Meta.withoutMeta(obj, "resourceVersion")))
              .object();
        }
        return new UpdateOutcome(fromStorage(def, created), true, false);
      } catch (AlreadyExistsException e) {
        // created meanwhile: update it instead
      }
    }
  }

  /**
   * One attempt of an update on the current stored state (kube's {@code tryUpdate} in
   * {@code Store.Update}): builds the new object, checks its resourceVersion against the
   * state's, runs BeforeUpdate and validating admission, and returns what to store. Remembers
   * the last exception it threw, so that its own NotFound is told from the store's.
   */
  private final class UpdateAttempt implements java.util.function.UnaryOperator<MapValue> {
    private final Ctx c;
    private final ResourceDefinition def;
    private final String subresource;
    private final Transform transform;
    private final AdmissionView view;
    RuntimeException failure;

    UpdateAttempt(Ctx c, ResourceDefinition def, String subresource, Transform transform,
        AdmissionView view) {
      this.c = c;
      this.def = def;
      this.subresource = subresource;
      this.transform = transform;
      this.view = view;
    }

    @Override
    public MapValue apply(MapValue stored) {
      try {
        return attempt(stored);
      } catch (RuntimeException e) {
        failure = e;
        throw e;
      }
    }

    private MapValue attempt(MapValue stored) {
      MapValue existing = fromStorage(def, stored);
      String existingRv = Meta.metaString(stored, "resourceVersion");
      MapValue obj = transform.apply(existing, false);
      String newRvText = Meta.metaString(obj, "resourceVersion");
      if (newRvText.isEmpty()) {
        if (!def.strategy().allowUnconditionalUpdate()) {
          throw StatusErrors.invalid(new GroupKind(def.kind().group(), def.plural()), c.name,
              List.of(FieldError.invalid("metadata.resourceVersion", Value.of(0L),
                  "must be specified for an update")));
        }
        obj = Meta.withMeta(obj, "resourceVersion", Value.of(existingRv));
      } else if (!newRvText.equals(existingRv)) {
        // a precondition of the client: final, whatever the store would retry
        throw StatusErrors.objectModified(def.groupResource(), c.name);
      }
      obj = beforeUpdate(c, def, subresource, obj, existing);
      obj = ignoreTimestampOnlyChanges(obj, existing);
      admission.validate(attributes(c, Operation.UPDATE, view.kind(), c.name,
          view.convert().apply(obj), view.convert().apply(existing)));
      if (shouldDeleteDuringUpdate(obj, existing)) {
        throw new DeleteInstead(obj, Long.parseLong(existingRv));
      }
      return toStorage(def, obj);
    }
  }

  /**
   * Ends an update attempt whose result is the deletion of the object (its last finalizer
   * went): the delete happens outside the store's read-modify-write, at the attempt's state.
   */
  private static final class DeleteInstead extends RuntimeException {
    private static final long serialVersionUID = 1L;
    final transient MapValue object;
    final long resourceVersion;

    DeleteInstead(MapValue object, long resourceVersion) {
      super(null, null, false, false);
      this.object = object;
      this.resourceVersion = resourceVersion;
    }
  }

  /** kube's {@code withAuthorization}: a create through PUT or apply needs {@code create}. */
  private void authorizeCreate(Ctx c) {
    Optional<String> deny = createAuthorizer.denyReason(c.request.user(), c.def.resource(),
        c.subresource, c.namespace, c.name);
    if (deny.isEmpty()) {
      return;
    }
    String resource = c.def.plural() + (c.subresource.isEmpty() ? "" : "/" + c.subresource);
    String where = c.def.namespaced() ? "in the namespace " + GoText.quote(c.namespace)
        : "at the cluster scope";
    String reason = "User " + GoText.quote(c.request.user().name()) + " cannot create resource "
        + GoText.quote(resource) + " in API group " + GoText.quote(c.def.kind().group()) + " "
        + where + (deny.get().isEmpty() ? "" : ": " + deny.get());
    throw StatusErrors.forbidden(c.def.groupResource(), c.name, reason);
  }

  /** kube's {@code ShouldDeleteDuringUpdate}: the last finalizer of a deleting object went. */
  static boolean shouldDeleteDuringUpdate(MapValue obj, MapValue existing) {
    if (!Meta.finalizers(obj).isEmpty() || !Meta.hasMeta(existing, "deletionTimestamp")) {
      return false;
    }
    Long grace = Meta.deletionGracePeriod(existing);
    return grace == null || grace == 0;
  }

  private void deleteWithoutFinalizers(Ctx c, ResourceDefinition def, ObjectKey key, long rv) {
    try {
      if (c.dryRun) {
        dryStore.delete(key, Preconditions.none());
      } else {
        c.deletedRevision = store.delete(key, Preconditions.ofResourceVersion(Long.toString(rv)))
            .resourceVersion();
      }
    } catch (NotFoundException e) {
      // Deletion is racy: another request removing the last finalizer already deleted it.
    }
  }

  // --- PATCH -----------------------------------------------------------------------------------

  private ApiResponse patch(Ctx c) {
    resolve(c);
    ResourceOrigin origin = c.def.customResource() ? ResourceOrigin.CUSTOM_RESOURCE
        : ResourceOrigin.BUILT_IN;
    PatchType type = PatchType.fromContentType(c.request.contentType(),
        PatchType.accepted(origin, PatchType.Cbor.DISABLED));
    byte[] raw = c.request.rawBody().orElseGet(() -> c.request.body()
        .map(v -> Json.writeBytes(v)).orElse(new byte[0]));
    checkSize(raw);
    writeOptions(c, "PatchOptions", Optional.of(type));
    boolean force = parseForce(c.request.force());
    Value patchValue;
    if (type.isApply()) {
      patchValue = readApplyBody(raw);
      if (patchValue.isNull()) {
        patchValue = MapValue.empty();
      }
      if (!(patchValue instanceof MapValue)) {
        throw StatusErrors.badRequest("error decoding patch: json: cannot unmarshal "
            + SchemaChecker.jsonType(patchValue) + " into Go value of type map[string]interface"
            + " {}");
      }
    } else {
      patchValue = Patches.parseBody(raw);
    }
    if (c.subresource.equals("scale")) {
      return scale.patch(c, type, patchValue, force);
    }
    ResourceDefinition def = c.def;
    FieldManager fm = fieldManager(def, c.subresource);
    Value patch = patchValue;
    Transform transform = (existing, creating) -> {
      MapValue patched;
      if (creating) {
        if (!type.isApply()) {
          throw StatusErrors.notFound(def.groupResource(), c.name);
        }
        patched = applyPatch(c, fm, zeroObject(def), (MapValue) patch, force);
        if (!Meta.metaString(patched, "uid").isEmpty()) {
          throw StatusErrors.conflict(def.groupResource(), c.name, "uid mismatch: the provided"
              + " object specified uid " + Meta.metaString(patched, "uid")
              + ", and no existing object was found");
        }
      } else if (type.isApply()) {
        patched = applyPatch(c, fm, existing, (MapValue) patch, force);
      } else {
        patched = nonApplyPatch(c, def, fm, type, existing, patch);
      }
      patched = ensureNamespace(patched, expectedNamespace(c));
      checkName(patched, c.name, c.namespace);
      if (creating) {
        forbidCreateWhileTerminating(c, c.name);
        patched = mutate(c, attributes(c, Operation.CREATE, def.kind(), c.name, patched, null));
      } else {
        patched = mutate(c, attributes(c, Operation.UPDATE, def.kind(), c.name, patched,
            existing));
      }
      return dedupOwnerReferences(c, patched, true);
    };
    UpdateOutcome out = storeUpdate(c, def, c.subresource, transform, type.isApply(),
        Optional.empty());
    return respondUpdate(c, MapValue.empty(), out);
  }

  /**
   * The body of an apply: YAML, read as Go's yaml.v2 reads it. Most clients (kubectl among them)
   * send JSON, which is YAML too: it is read with the JSON reader when it parses as JSON.
   */
  static Value readApplyBody(byte[] raw) {
    int i = 0;
    while (i < raw.length && (raw[i] == ' ' || raw[i] == '\n' || raw[i] == '\r' || raw[i] == '\t')) {
      i++;
    }
    if (i < raw.length && raw[i] == '{') {
      try {
        return Json.read(raw);
      } catch (DecodeException e) {
        // not plain JSON (duplicate keys, YAML-only syntax): YAML decides
      }
    }
    try {
      return Yaml.read(new String(raw, StandardCharsets.UTF_8));
    } catch (DecodeException e) {
      // kube transcodes the body to JSON before decoding it: YAML errors surface there
      throw StatusErrors.badRequest("error encoding patch: error converting YAML to JSON: "
          + e.getMessage());
    }
  }

  MapValue applyPatch(Ctx c, FieldManager fm, MapValue live, MapValue config, boolean force) {
    MapValue out = fm.apply(live, config, c.request.fieldManager(), force, c.now);
    return out;
  }

  /** JSON patch, merge patch or strategic merge patch onto the current object. */
  MapValue nonApplyPatch(Ctx c, ResourceDefinition def, FieldManager fm, PatchType type,
      MapValue current, Value patch) {
    List<String> strict = new ArrayList<>();
    if (type == PatchType.JSON_PATCH && c.validation != Ctx.FieldValidation.IGNORE) {
      JsonPatch.strictErrors(patch).forEach(e -> strict.add("json patch " + e));
    }
    Value patchedValue = Patches.apply(type, current, patch,
        type == PatchType.STRATEGIC_MERGE_PATCH ? patchSchema(def) : PatchSchema.unknown());
    if (!(patchedValue instanceof MapValue patchedMap)) {
      throw StatusErrors.invalid(new GroupKind("", ""), "", List.of(FieldError.invalid("patch",
          Value.of(Json.write(patchedValue)), "Object 'Kind' is missing in '"
              + Json.write(patchedValue) + "'")));
    }
    SchemaChecker.Result checked = SchemaChecker.check(def.schema(), def.schemaType(),
        withTypeMeta(patchedMap, def.kind()));
    if (!checked.typeErrors().isEmpty()) {
      throw StatusErrors.invalid(new GroupKind("", ""), "", List.of(FieldError.invalid("patch",
          Value.of(Json.write(patchedMap)), checked.typeErrors().get(0))));
    }
    checked.unknownFields().forEach(p -> strict.add("unknown field " + GoText.quote(p)));
    if (!strict.isEmpty()) {
      if (c.validation == Ctx.FieldValidation.STRICT) {
        throw StatusErrors.invalid(new GroupKind("", ""), "", List.of(FieldError.invalid("patch",
            Value.of(Json.write(patchedMap)), "strict decoding error: "
                + String.join(", ", strict))));
      }
      if (c.validation == Ctx.FieldValidation.WARN) {
        strict.forEach(c::warn);
      }
    }
    MapValue obj = typed(def, def.strategy().defaulter().apply(checked.object()));
    return fm.update(current, obj, c.manager, c.now);
  }

  // --- DELETE ----------------------------------------------------------------------------------

  /** The options of a delete, from its body or its query. */
  record DeleteOptions(OptionalLong gracePeriodSeconds, Optional<String> propagationPolicy,
      Optional<Boolean> orphanDependents, Optional<String> uid, Optional<String> resourceVersion,
      List<String> dryRun) {}

  DeleteOptions deleteOptions(Ctx c) {
    ApiRequest r = c.request;
    Optional<Value> body = r.body();
    byte[] raw = r.rawBody().orElse(null);
    if (body.isEmpty() && raw != null && raw.length > 0) {
      checkSize(raw);
      try {
        body = Optional.of(Json.read(raw));
      } catch (DecodeException e) {
        throw StatusErrors.badRequest(e.getMessage());
      }
    }
    if (body.isPresent()) {
      if (!(body.get() instanceof MapValue m)) {
        throw StatusErrors.badRequest("decoded object cannot be converted to DeleteOptions");
      }
      String kind = Meta.string(m, "kind");
      if (!kind.isEmpty() && !kind.equals("DeleteOptions")) {
        throw StatusErrors.badRequest("decoded object cannot be converted to DeleteOptions");
      }
      OptionalLong grace = m.getOrNull("gracePeriodSeconds") instanceof IntegerValue g
          ? OptionalLong.of(g.value()) : OptionalLong.empty();
      Optional<String> policy = m.getOrNull("propagationPolicy") instanceof StringValue p
          ? Optional.of(p.value()) : Optional.empty();
      Optional<Boolean> orphan = m.getOrNull("orphanDependents") instanceof BooleanValue o
          ? Optional.of(o.value()) : Optional.empty();
      MapValue pre = Paths.getMap(m, "preconditions");
      Optional<String> uid = pre != null && pre.getOrNull("uid") instanceof StringValue u
          ? Optional.of(u.value()) : Optional.empty();
      Optional<String> rv = pre != null && pre.getOrNull("resourceVersion") instanceof StringValue v
          ? Optional.of(v.value()) : Optional.empty();
      List<String> dry = Meta.stringList(m.getOrNull("dryRun"));
      return new DeleteOptions(grace, policy, orphan, uid, rv, dry);
    }
    return new DeleteOptions(r.gracePeriodSeconds(),
        r.propagationPolicy().isEmpty() ? Optional.empty() : Optional.of(r.propagationPolicy()),
        r.orphanDependents(), r.preconditionUid(), r.preconditionResourceVersion(), r.dryRun());
  }

  void validateDeleteOptions(Ctx c, DeleteOptions o) {
    List<FieldError> errs = new ArrayList<>();
    if (o.orphanDependents().isPresent() && o.propagationPolicy().isPresent()) {
      errs.add(FieldError.invalid("propagationPolicy", Value.of(o.propagationPolicy().get()),
          "orphanDependents and deletionPropagation cannot be both set"));
    }
    if (o.propagationPolicy().isPresent()
        && !List.of("Foreground", "Background", "Orphan").contains(o.propagationPolicy().get())) {
      errs.add(FieldError.notSupported("propagationPolicy", Value.of(o.propagationPolicy().get()),
          List.of("Foreground", "Background", "Orphan", "nil")));
    }
    errs.addAll(DryRun.validate(o.dryRun()));
    if (!errs.isEmpty()) {
      throw StatusErrors.invalid(new GroupKind("meta.k8s.io", "DeleteOptions"), "", errs);
    }
    c.dryRun = !o.dryRun().isEmpty();
  }

  private ApiResponse delete(Ctx c) {
    resolve(c);
    DeleteOptions options = deleteOptions(c);
    validateDeleteOptions(c, options);
    if (c.def.resource().equals(CrdController.CRD_RESOURCE)) {
      return new ApiResponse(200, crds.delete(c, options), c.warnings());
    }
    if (NamespaceController.isNamespace(c.def)) {
      return new ApiResponse(200, namespaces.delete(c, options), c.warnings());
    }
    DeleteFlow.Outcome out = new DeleteFlow(this, c, c.def, options).run(c.name);
    int code = 200;
    if (!out.deleted() && options.orphanDependents().isPresent()
        && !options.orphanDependents().get()) {
      code = 202;
    }
    return new ApiResponse(code, out.body(), c.warnings());
  }

  private ApiResponse deleteCollection(Ctx c) {
    resolve(c);
    DeleteOptions options = deleteOptions(c);
    validateDeleteOptions(c, options);
    ListOptions lo = listOptions(c);
    List<MapValue> items = new ArrayList<>();
    ListResult page = store.list(collection(c), lo);
    while (true) {
      for (StoredObject o : page.items()) {
        items.add(fromStorage(c.def, o.object()));
      }
      if (c.request.limit() > 0 || page.continueToken().isEmpty()) {
        break;
      }
      page = store.list(collection(c), lo.toBuilder().continueToken(page.continueToken().get())
          .mostRecent().build());
    }
    for (MapValue item : items) {
      Ctx one = new Ctx(c.request, c.now);
      one.def = c.def;
      one.namespace = Meta.metaString(item, "namespace");
      one.name = Meta.metaString(item, "name");
      one.dryRun = c.dryRun;
      try {
        if (c.def.resource().equals(CrdController.CRD_RESOURCE)) {
          // each CRD takes its objects with it, as a single delete does
          crds.delete(one, options);
        } else {
          new DeleteFlow(this, one, c.def, options).run(one.name);
        }
      } catch (NotFoundException e) {
        // deleted meanwhile
      }
      c.warnings.addAll(one.warnings);
    }
    ListValue.Builder b = ListValue.builder(items.size());
    for (MapValue item : items) {
      b.add(c.def.customResource() ? item : item.without("apiVersion").without("kind"));
    }
    MapValue body = MapValue.ofEntries("apiVersion", Value.of(c.def.kind().apiVersion()),
        "items", b.build(), "kind", Value.of(c.def.listKind()), "metadata",
        MapValue.ofEntries("resourceVersion", Value.of(Long.toString(page.resourceVersion()))));
    return new ApiResponse(200, body, c.warnings());
  }

  /** A Success Status as kube's {@code finalizeDelete} returns it (without a code). */
  static MapValue successStatus(StatusDetails details) {
    return new Status(Status.Outcome.SUCCESS, 0, StatusReason.UNKNOWN, "", Optional.of(details))
        .toValue();
  }

  /** The current instant, for components that run outside a request. */
  Instant now() {
    return clock.instant();
  }
}
