package io.apiserver4j.apiserver.internal;

import io.apiserver4j.apiserver.ResourceDefinition;
import io.apiserver4j.apiserver.ResourceStrategy;
import io.apiserver4j.apiserver.ResourceStrategy.GenerationPolicy;
import io.apiserver4j.apiserver.ResourceStrategy.NameValidation;
import io.apiserver4j.apiserver.ScaleSubresource;
import io.apiserver4j.core.FieldError;
import io.apiserver4j.core.GroupVersionKind;
import io.apiserver4j.core.IntegerValue;
import io.apiserver4j.core.ListValue;
import io.apiserver4j.core.MapValue;
import io.apiserver4j.core.Meta;
import io.apiserver4j.core.Nested;
import io.apiserver4j.core.StringValue;
import io.apiserver4j.core.Value;
import io.apiserver4j.fieldpath.FieldName;
import io.apiserver4j.fieldpath.FieldPath;
import io.apiserver4j.fieldpath.FieldSet;
import io.apiserver4j.kubeapi.KubeApi;
import io.apiserver4j.kubeapi.KubeResource;
import io.apiserver4j.kubeapi.KubeSchema;
import io.apiserver4j.kubeapi.KubeSubresource;
import io.apiserver4j.merge.Schema;
import java.nio.charset.StandardCharsets;
import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;

/**
 * The resources a Kubernetes 1.36 kube-apiserver serves by default ({@link KubeApi}), with the
 * generated schema of their kinds and strategies modelled on their kube-apiserver registries:
 * scope, names, verbs, status and scale subresources, generation, create-on-update, graceful
 * deletion, defaulting ({@code SetDefaults_*}) and the essential validation of their own fields
 * for the kinds that have them so far; the others get the default strategy.
 */
public final class BuiltinKinds {
  /** The SMD type of autoscaling/v1 Scale. */
  public static final String SCALE_TYPE = "io.k8s.api.autoscaling.v1.Scale";

  private static final KubeSchema DATA = KubeApi.schema();
  private static final Schema SCHEMA = Schema.fromSmdValue(DATA.smd());
  private static final TypedShape SHAPE = new TypedShape(SCHEMA, DATA.zeros());
  private static final List<ResourceDefinition> DEFINITIONS = build();

  /** The Go-struct shape of built-in objects. */
  public static TypedShape shape() {
    return SHAPE;
  }

  private BuiltinKinds() {}

  /** The schema of all built-in types (SMD format). */
  public static Schema schema() {
    return SCHEMA;
  }

  private static final java.util.concurrent.ConcurrentHashMap<String,
      io.apiserver4j.apiserver.patch.PatchSchema> PATCH_SCHEMAS =
      new java.util.concurrent.ConcurrentHashMap<>();

  /** The strategic merge patch schema of built-in type {@code typeName}. */
  public static io.apiserver4j.apiserver.patch.PatchSchema patchSchema(String typeName) {
    return PATCH_SCHEMAS.computeIfAbsent(typeName,
        t -> SmdPatchSchema.of(SCHEMA, t, DATA.patchTags()));
  }

  /** The schema type of the kind {@code subresource} of built-in {@code resource} carries. */
  static java.util.Optional<String> subresourceSchemaType(
      io.apiserver4j.core.GroupVersionResource resource, String subresource) {
    for (KubeResource r : KubeApi.resources()) {
      if (r.resource().equals(resource)) {
        return r.subresource(subresource).flatMap(KubeSubresource::schemaTypeIfDefined);
      }
    }
    return java.util.Optional.empty();
  }

  /** The built-in definitions, in registration order (kube-apiserver's group order). */
  public static List<ResourceDefinition> definitions() {
    return DEFINITIONS;
  }

  private static List<ResourceDefinition> build() {
    Map<GroupVersionKind, ResourceStrategy> strategies = strategies();
    Map<String, io.apiserver4j.apiserver.TablePrinter> printers = BuiltinPrinters.all();
    List<ResourceDefinition> out = new ArrayList<>();
    for (KubeResource r : KubeApi.resources()) {
      ResourceDefinition.Builder b = ResourceDefinition.builder(r.kind(), r.plural())
          .singular(r.singular())
          .listKind(r.listKind())
          .namespaced(r.namespaced())
          .shortNames(r.shortNames())
          .categories(r.categories())
          .verbs(r.verbs())
          .storageVersionHash(r.storageVersionHash())
          .schema(SCHEMA, r.schemaType())
          .status(r.subresource("status").isPresent())
          .strategy(strategies.getOrDefault(r.kind(), ResourceStrategy.defaults()));
      if (r.subresource("scale").isPresent()) {
        b.scale(ScaleSubresource.builtinWorkload());
      }
      io.apiserver4j.apiserver.TablePrinter printer =
          printers.get(r.kind().group() + "/" + r.plural());
      if (printer != null) {
        b.printer(printer);
      }
      List<ResourceDefinition.Subresource> subs = new ArrayList<>();
      for (KubeSubresource s : r.subresources()) {
        subs.add(new ResourceDefinition.Subresource(s.name(), s.kind(), s.verbs()));
      }
      out.add(b.discoverySubresources(subs).build());
    }
    return List.copyOf(out);
  }

  // The kinds whose kube-apiserver registry rules are implemented so far, by kind.
  private static Map<GroupVersionKind, ResourceStrategy> strategies() {
    Map<GroupVersionKind, ResourceStrategy> out = new LinkedHashMap<>();
    out.putAll(CoreOtherStrategies.strategies());
    out.putAll(RbacStrategies.strategies());
    out.putAll(StorageStrategies.strategies());
    out.putAll(CertificatesStrategies.strategies());
    out.putAll(FlowcontrolStrategies.strategies());
    out.putAll(ResourceStrategies.strategies());
    out.put(core("Namespace"), ResourceStrategy.builder()
        .nameValidation(NameValidation.DNS1123_LABEL)
        .selectableFields("status.phase")
        .prepareForCreate((o, old) -> {
          MapValue r = Nested.set(o, MapValue.ofEntries("phase", Value.of("Active")), "status");
          List<String> fin = Meta.stringList(Nested.getOrNull(r, "spec", "finalizers"));
          if (!fin.contains("kubernetes")) {
            fin.add("kubernetes");
            r = Nested.set(r, strings(fin), "spec", "finalizers");
          }
          return r;
        })
        .prepareForUpdate((o, old) -> {
          Value fin = Nested.getOrNull(old.orElseThrow(), "spec", "finalizers");
          return fin == null ? Nested.remove(o, "spec", "finalizers")
              : Nested.set(o, fin, "spec", "finalizers");
        })
        .build());
    out.put(core("Event"), ResourceStrategy.builder()
        .allowCreateOnUpdate(true)
        .selectableFields("involvedObject.kind", "involvedObject.namespace",
            "involvedObject.name", "involvedObject.uid", "involvedObject.apiVersion",
            "involvedObject.resourceVersion", "involvedObject.fieldPath", "reason",
            "reportingComponent", "source", "type")
        .build());
    out.put(new GroupVersionKind("events.k8s.io", "v1", "Event"), ResourceStrategy.builder()
        .allowCreateOnUpdate(true)
        .build());
    out.put(core("Service"), ResourceStrategy.builder()
        .nameValidation(NameValidation.DNS1035_LABEL)
        .defaulter(BuiltinKinds::defaultService)
        .validator((o, old) -> validateService(o))
        .build());
    out.put(core("Pod"), ResourceStrategy.builder()
        .generationPolicy(GenerationPolicy.SPEC)
        .selectableFields("spec.nodeName", "spec.restartPolicy", "spec.schedulerName",
            "spec.serviceAccountName", "spec.hostNetwork", "status.phase", "status.podIP",
            "status.nominatedNodeName")
        .defaulter(BuiltinKinds::defaultPod)
        .prepareForCreate((o, old) -> Nested.set(o,
            MapValue.ofEntries("phase", Value.of("Pending")), "status"))
        .validator((o, old) -> validatePodSpec(Nested.mapOrNull(o, "spec"), "spec"))
        .gracePeriod(BuiltinKinds::podGracePeriod)
        .returnDeletedObject(true)
        .build());
    out.put(core("PodTemplate"), ResourceStrategy.builder()
        .defaulter(o -> Nested.updateMap(o, BuiltinKinds::defaultPodSpec, "template", "spec"))
        .build());
    out.put(core("ReplicationController"), ResourceStrategy.builder()
        .generationPolicy(GenerationPolicy.SPEC)
        .defaulter(BuiltinKinds::defaultReplicationController)
        .build());
    out.put(apps("Deployment"), ResourceStrategy.builder()
        .generationPolicy(GenerationPolicy.SPEC_AND_ANNOTATIONS)
        .extraStatusResetFields(FieldSet.of(FieldPath.of(new FieldName("metadata"),
            new FieldName("labels"))))
        .statusPreservedMetadata("labels")
        .defaulter(BuiltinKinds::defaultDeployment)
        .validator((o, old) -> validateWorkload(o, "Always"))
        .build());
    out.put(apps("ReplicaSet"), ResourceStrategy.builder()
        .generationPolicy(GenerationPolicy.SPEC)
        .defaulter(BuiltinKinds::defaultReplicaSet)
        .validator((o, old) -> validateWorkload(o, "Always"))
        .build());
    out.put(apps("StatefulSet"), ResourceStrategy.builder()
        .generationPolicy(GenerationPolicy.SPEC)
        .defaulter(BuiltinKinds::defaultStatefulSet)
        .validator((o, old) -> validateWorkload(o, "Always"))
        .build());
    out.put(apps("DaemonSet"), ResourceStrategy.builder()
        .generationPolicy(GenerationPolicy.SPEC)
        .defaulter(BuiltinKinds::defaultDaemonSet)
        .validator((o, old) -> validateWorkload(o, "Always"))
        .build());
    out.put(new GroupVersionKind("batch", "v1", "Job"), ResourceStrategy.builder()
        .generationPolicy(GenerationPolicy.SPEC)
        .defaulter(BuiltinKinds::defaultJob)
        .selectableFields("status.successful")
        .prepareForCreate((o, old) -> generateJobSelector(o))
        .validator((o, old) -> validateJob(o))
        .build());
    out.put(new GroupVersionKind("batch", "v1", "CronJob"), ResourceStrategy.builder()
        .generationPolicy(GenerationPolicy.SPEC)
        .build());
    // kube-aggregator's ValidateAPIService: the name is a path segment equal to version.group
    // ("v1." for the core group)
    out.put(new GroupVersionKind("apiregistration.k8s.io", "v1", "APIService"),
        ResourceStrategy.builder()
            .nameValidation(NameValidation.PATH_SEGMENT)
            .validator((o, old) -> validateApiService(o))
            .build());
    out.put(new GroupVersionKind("apiextensions.k8s.io", "v1", "CustomResourceDefinition"),
        ResourceStrategy.builder()
            .generationPolicy(GenerationPolicy.NON_METADATA)
            .allowUnconditionalUpdate(false)
            .defaulter(BuiltinKinds::defaultCrd)
            .validator((o, old) -> CrdSupport.validate(o))
            .build());
    return out;
  }

  static List<FieldError> validateApiService(MapValue apiService) {
    List<FieldError> errs = new ArrayList<>();
    String version = Nested.str(apiService, "spec", "version");
    String required = version + "." + Nested.str(apiService, "spec", "group");
    String name = Meta.metaString(apiService, "name");
    if (!name.isEmpty() && !name.equals(required)) {
      errs.add(FieldError.invalid("metadata.name", Value.of(name),
          "must be `spec.version+\".\"+spec.group`: \"" + required + "\""));
    }
    long groupPriority = Nested.integer(apiService, "spec", "groupPriorityMinimum");
    if (groupPriority <= 0 || groupPriority > 20000) {
      errs.add(FieldError.invalid("spec.groupPriorityMinimum", Value.of(groupPriority),
          "must be positive and less than 20000"));
    }
    long versionPriority = Nested.integer(apiService, "spec", "versionPriority");
    if (versionPriority <= 0 || versionPriority > 1000) {
      errs.add(FieldError.invalid("spec.versionPriority", Value.of(versionPriority),
          "must be positive and less than 1000"));
    }
    if (version.isEmpty()) {
      errs.add(FieldError.required("spec.version", ""));
    }
    return errs;
  }

  private static GroupVersionKind core(String kind) {
    return new GroupVersionKind("", "v1", kind);
  }

  private static GroupVersionKind apps(String kind) {
    return new GroupVersionKind("apps", "v1", kind);
  }

  static ListValue strings(List<String> values) {
    ListValue.Builder b = ListValue.builder(values.size());
    values.forEach(v -> b.add(Value.of(v)));
    return b.build();
  }

  // --- defaulting --------------------------------------------------------------------------

  static MapValue defaultPodSpec(MapValue spec) {
    MapValue s = spec;
    s = Nested.setDefault(s, Value.of("ClusterFirst"), "dnsPolicy");
    s = Nested.setDefault(s, Value.of("Always"), "restartPolicy");
    s = Nested.setDefault(s, Value.of(30L), "terminationGracePeriodSeconds");
    s = Nested.setDefault(s, MapValue.empty(), "securityContext");
    s = Nested.setDefault(s, Value.of("default-scheduler"), "schedulerName");
    s = Nested.updateListItems(s, BuiltinKinds::defaultContainer, "containers");
    s = Nested.updateListItems(s, BuiltinKinds::defaultContainer, "initContainers");
    s = Nested.updateListItems(s, BuiltinKinds::defaultVolume, "volumes");
    return s;
  }

  /**
   * kube's {@code SetDefaults_Pod} on top of the pod spec defaults: requests default to limits,
   * and service links are enabled (only on Pods, not on pod templates).
   */
  static MapValue defaultPod(MapValue pod) {
    MapValue r = Nested.updateMap(pod, BuiltinKinds::defaultPodSpec, "spec");
    if (Nested.mapOrNull(r, "spec") == null) {
      return r;
    }
    for (String list : List.of("containers", "initContainers")) {
      r = Nested.updateListItems(r, c -> {
        MapValue limits = Nested.mapOrNull(c, "resources", "limits");
        if (limits == null || limits.isEmpty()) {
          return c;
        }
        MapValue requests = Nested.mapOrNull(c, "resources", "requests");
        MapValue.Builder b = (requests == null ? MapValue.empty() : requests).toBuilder();
        for (int i = 0; i < limits.size(); i++) {
          if (!b.containsKey(limits.keyAt(i))) {
            b.put(limits.keyAt(i), limits.valueAt(i));
          }
        }
        MapValue merged = b.build();
        return merged.equals(requests) ? c : Nested.set(c, merged, "resources", "requests");
      }, "spec", list);
    }
    return Nested.setDefault(r, Value.of(true), "spec", "enableServiceLinks");
  }

  private static MapValue defaultContainer(MapValue c) {
    MapValue r = c;
    r = Nested.setDefault(r, Value.of("/dev/termination-log"), "terminationMessagePath");
    r = Nested.setDefault(r, Value.of("File"), "terminationMessagePolicy");
    if (r.getOrNull("imagePullPolicy") == null && r.getOrNull("image") instanceof StringValue img) {
      r = r.with("imagePullPolicy", Value.of(pullPolicy(img.value())));
    }
    r = Nested.updateListItems(r, p -> Nested.setDefault(p, Value.of("TCP"), "protocol"), "ports");
    for (String probe : List.of("livenessProbe", "readinessProbe", "startupProbe")) {
      r = Nested.updateMap(r, BuiltinKinds::defaultProbe, probe);
    }
    return r;
  }

  // kube pulls "latest" (explicit or implied) images always and tagged ones if not present.
  static String pullPolicy(String image) {
    String ref = image;
    int at = ref.indexOf('@');
    if (at >= 0) {
      return "IfNotPresent";
    }
    int slash = ref.lastIndexOf('/');
    int colon = ref.lastIndexOf(':');
    if (colon <= slash) {
      return "Always";
    }
    return ref.substring(colon + 1).equals("latest") ? "Always" : "IfNotPresent";
  }

  private static MapValue defaultProbe(MapValue p) {
    MapValue r = p;
    r = Nested.setDefault(r, Value.of(1L), "timeoutSeconds");
    r = Nested.setDefault(r, Value.of(10L), "periodSeconds");
    r = Nested.setDefault(r, Value.of(1L), "successThreshold");
    r = Nested.setDefault(r, Value.of(3L), "failureThreshold");
    r = Nested.updateMap(r, h -> Nested.setDefault(Nested.setDefault(h, Value.of("/"), "path"),
        Value.of("HTTP"), "scheme"), "httpGet");
    return r;
  }

  private static MapValue defaultVolume(MapValue v) {
    MapValue r = v;
    for (String source : List.of("secret", "configMap", "downwardAPI", "projected")) {
      r = Nested.updateMap(r, s -> Nested.setDefault(s, Value.of(420L), "defaultMode"), source);
    }
    boolean hasSource = false;
    for (int i = 0; i < r.size(); i++) {
      hasSource |= !r.keyAt(i).equals("name");
    }
    return hasSource ? r : r.with("emptyDir", MapValue.empty());
  }

  private static MapValue defaultTemplate(MapValue obj) {
    return Nested.updateMap(obj, BuiltinKinds::defaultPodSpec, "spec", "template", "spec");
  }

  static MapValue defaultDeployment(MapValue o) {
    MapValue r = o;
    if (Nested.mapOrNull(r, "spec") == null) {
      return r;
    }
    r = Nested.setDefault(r, Value.of(1L), "spec", "replicas");
    r = Nested.setDefault(r, Value.of("RollingUpdate"), "spec", "strategy", "type");
    if (Nested.getOrNull(r, "spec", "strategy", "type") instanceof StringValue t
        && t.value().equals("RollingUpdate")) {
      r = Nested.setDefault(r, Value.of("25%"), "spec", "strategy", "rollingUpdate",
          "maxUnavailable");
      r = Nested.setDefault(r, Value.of("25%"), "spec", "strategy", "rollingUpdate", "maxSurge");
    }
    r = Nested.setDefault(r, Value.of(10L), "spec", "revisionHistoryLimit");
    r = Nested.setDefault(r, Value.of(600L), "spec", "progressDeadlineSeconds");
    return defaultTemplate(r);
  }

  static MapValue defaultReplicaSet(MapValue o) {
    if (Nested.mapOrNull(o, "spec") == null) {
      return o;
    }
    return defaultTemplate(Nested.setDefault(o, Value.of(1L), "spec", "replicas"));
  }

  // SetDefaults_ReplicationController: the selector and the labels default to the template's.
  static MapValue defaultReplicationController(MapValue o) {
    MapValue r = o;
    if (Nested.mapOrNull(r, "spec") == null) {
      return r;
    }
    MapValue templateLabels = Nested.mapOrNull(r, "spec", "template", "metadata", "labels");
    if (templateLabels != null && !templateLabels.isEmpty()) {
      MapValue selector = Nested.mapOrNull(r, "spec", "selector");
      if (selector == null || selector.isEmpty()) {
        r = Nested.set(r, templateLabels, "spec", "selector");
      }
      MapValue labels = Nested.mapOrNull(r, "metadata", "labels");
      if (labels == null || labels.isEmpty()) {
        r = Nested.set(r, templateLabels, "metadata", "labels");
      }
    }
    r = Nested.setDefault(r, Value.of(1L), "spec", "replicas");
    return defaultTemplate(r);
  }

  static MapValue defaultStatefulSet(MapValue o) {
    MapValue r = o;
    if (Nested.mapOrNull(r, "spec") == null) {
      return r;
    }
    r = Nested.setDefault(r, Value.of("OrderedReady"), "spec", "podManagementPolicy");
    r = Nested.setDefault(r, Value.of("RollingUpdate"), "spec", "updateStrategy", "type");
    if (Nested.getOrNull(r, "spec", "updateStrategy", "type") instanceof StringValue t
        && t.value().equals("RollingUpdate")) {
      r = Nested.setDefault(r, Value.of(0L), "spec", "updateStrategy", "rollingUpdate",
          "partition");
    }
    r = Nested.setDefault(r, Value.of(1L), "spec", "replicas");
    r = Nested.setDefault(r, Value.of(10L), "spec", "revisionHistoryLimit");
    r = Nested.setDefault(r, Value.of("Retain"), "spec", "persistentVolumeClaimRetentionPolicy",
        "whenDeleted");
    r = Nested.setDefault(r, Value.of("Retain"), "spec", "persistentVolumeClaimRetentionPolicy",
        "whenScaled");
    return defaultTemplate(r);
  }

  static MapValue defaultDaemonSet(MapValue o) {
    MapValue r = o;
    if (Nested.mapOrNull(r, "spec") == null) {
      return r;
    }
    r = Nested.setDefault(r, Value.of("RollingUpdate"), "spec", "updateStrategy", "type");
    if (Nested.getOrNull(r, "spec", "updateStrategy", "type") instanceof StringValue t
        && t.value().equals("RollingUpdate")) {
      r = Nested.setDefault(r, Value.of(1L), "spec", "updateStrategy", "rollingUpdate",
          "maxUnavailable");
      r = Nested.setDefault(r, Value.of(0L), "spec", "updateStrategy", "rollingUpdate",
          "maxSurge");
    }
    r = Nested.setDefault(r, Value.of(10L), "spec", "revisionHistoryLimit");
    return defaultTemplate(r);
  }

  static MapValue defaultJob(MapValue o) {
    MapValue r = o;
    if (Nested.mapOrNull(r, "spec") == null) {
      return r;
    }
    if (Nested.getOrNull(r, "spec", "completions") == null && Nested.getOrNull(r, "spec", "parallelism") == null) {
      r = Nested.set(r, Value.of(1L), "spec", "completions");
      r = Nested.set(r, Value.of(1L), "spec", "parallelism");
    }
    r = Nested.setDefault(r, Value.of(1L), "spec", "parallelism");
    r = Nested.setDefault(r, Value.of(6L), "spec", "backoffLimit");
    r = Nested.setDefault(r, Value.of("NonIndexed"), "spec", "completionMode");
    r = Nested.setDefault(r, Value.of(false), "spec", "suspend");
    return defaultTemplate(r);
  }

  static MapValue defaultService(MapValue o) {
    MapValue r = o;
    if (Nested.mapOrNull(r, "spec") == null) {
      r = Nested.set(r, MapValue.empty(), "spec");
    }
    r = Nested.setDefault(r, Value.of("ClusterIP"), "spec", "type");
    r = Nested.setDefault(r, Value.of("None"), "spec", "sessionAffinity");
    String type = Nested.getOrNull(r, "spec", "type") instanceof StringValue t ? t.value() : "";
    if (!type.equals("ExternalName")) {
      r = Nested.setDefault(r, Value.of("Cluster"), "spec", "internalTrafficPolicy");
    }
    if (type.equals("NodePort") || type.equals("LoadBalancer")) {
      r = Nested.setDefault(r, Value.of("Cluster"), "spec", "externalTrafficPolicy");
    }
    r = Nested.updateListItems(r, p -> {
      MapValue q = Nested.setDefault(p, Value.of("TCP"), "protocol");
      Value port = q.getOrNull("port");
      return port == null ? q : Nested.setDefault(q, port, "targetPort");
    }, "spec", "ports");
    return r;
  }

  static MapValue defaultCrd(MapValue o) {
    MapValue r = o;
    if (Nested.mapOrNull(r, "spec") == null) {
      return r;
    }
    if (Nested.getOrNull(r, "spec", "names", "kind") instanceof StringValue k && !k.value().isEmpty()) {
      r = Nested.setDefault(r, Value.of(k.value().toLowerCase(java.util.Locale.ROOT)), "spec",
          "names", "singular");
      r = Nested.setDefault(r, Value.of(k.value() + "List"), "spec", "names", "listKind");
    }
    r = Nested.setDefault(r, Value.of("None"), "spec", "conversion", "strategy");
    return r;
  }

  // --- strategy hooks ----------------------------------------------------------------------

  // kube deletes pods that never reached a node (or finished) immediately.
  private static long podGracePeriod(MapValue pod, java.util.OptionalLong requested) {
    String node = Nested.getOrNull(pod, "spec", "nodeName") instanceof StringValue n ? n.value() : "";
    String phase = Nested.getOrNull(pod, "status", "phase") instanceof StringValue p ? p.value() : "";
    if (node.isEmpty() || phase.equals("Failed") || phase.equals("Succeeded")) {
      return 0;
    }
    if (requested.isPresent()) {
      return requested.getAsLong();
    }
    return Nested.getOrNull(pod, "spec", "terminationGracePeriodSeconds") instanceof IntegerValue i
        ? i.value() : 0;
  }

  private static MapValue generateJobSelector(MapValue job) {
    if (Nested.getOrNull(job, "spec", "manualSelector") instanceof io.apiserver4j.core.BooleanValue b
        && b.value()) {
      return job;
    }
    String uid = Meta.metaString(job, "uid");
    String name = Meta.metaString(job, "name");
    MapValue r = Nested.set(job, MapValue.ofEntries("matchLabels", MapValue.ofEntries(
        "batch.kubernetes.io/controller-uid", Value.of(uid))), "spec", "selector");
    MapValue labels = Nested.mapOrNull(r, "spec", "template", "metadata", "labels");
    MapValue.Builder l = (labels == null ? MapValue.empty() : labels).toBuilder();
    l.put("batch.kubernetes.io/controller-uid", Value.of(uid));
    l.put("batch.kubernetes.io/job-name", Value.of(name));
    l.put("controller-uid", Value.of(uid));
    l.put("job-name", Value.of(name));
    return Nested.set(r, l.build(), "spec", "template", "metadata", "labels");
  }

  // --- validation --------------------------------------------------------------------------

  static List<FieldError> validatePodSpec(MapValue spec, String path) {
    List<FieldError> errs = new ArrayList<>();
    if (spec == null) {
      errs.add(FieldError.required(path + ".containers", ""));
      return errs;
    }
    if (!(spec.getOrNull("containers") instanceof ListValue containers) || containers.isEmpty()) {
      errs.add(FieldError.required(path + ".containers", ""));
    } else {
      validateContainers(containers, path + ".containers", errs);
    }
    if (spec.getOrNull("initContainers") instanceof ListValue init) {
      validateContainers(init, path + ".initContainers", errs);
    }
    return errs;
  }

  private static void validateContainers(ListValue containers, String path, List<FieldError> errs) {
    java.util.Set<String> names = new java.util.HashSet<>();
    for (int i = 0; i < containers.size(); i++) {
      String at = path + "[" + i + "]";
      MapValue c = containers.get(i) instanceof MapValue m ? m : MapValue.empty();
      String name = Meta.string(c, "name");
      if (name.isEmpty()) {
        errs.add(FieldError.required(at + ".name", ""));
      } else {
        for (String msg : MetaValidation.dns1123Label(name)) {
          errs.add(FieldError.invalid(at + ".name", Value.of(name), msg));
        }
        if (!names.add(name)) {
          errs.add(FieldError.duplicate(at + ".name", Value.of(name)));
        }
      }
      if (Meta.string(c, "image").isEmpty()) {
        errs.add(FieldError.required(at + ".image", ""));
      }
    }
  }

  static List<FieldError> validateWorkload(MapValue o, String restartPolicy) {
    List<FieldError> errs = new ArrayList<>();
    MapValue spec = Nested.mapOrNull(o, "spec");
    if (spec == null) {
      errs.add(FieldError.required("spec.selector", ""));
      errs.add(FieldError.required("spec.template.spec.containers", ""));
      return errs;
    }
    if (spec.getOrNull("replicas") instanceof IntegerValue rep && rep.value() < 0) {
      errs.add(FieldError.invalid("spec.replicas", rep, "must be greater than or equal to 0"));
    }
    MapValue selector = Nested.mapOrNull(spec, "selector");
    MapValue templateLabels = Nested.mapOrNull(spec, "template", "metadata", "labels");
    if (selector == null) {
      errs.add(FieldError.required("spec.selector", ""));
    } else if (selector.isEmpty() || (Nested.getOrNull(selector, "matchLabels") == null
        && Nested.getOrNull(selector, "matchExpressions") == null)) {
      errs.add(FieldError.invalid("spec.selector", selector, "empty selector is invalid for"
          + " deployment"));
    } else if (!selectorMatches(selector, templateLabels == null ? MapValue.empty()
        : templateLabels)) {
      errs.add(FieldError.invalid("spec.template.metadata.labels",
          templateLabels == null ? MapValue.empty() : templateLabels,
          "`selector` does not match template `labels`"));
    }
    errs.addAll(validatePodSpec(Nested.mapOrNull(spec, "template", "spec"), "spec.template.spec"));
    Value rp = Nested.getOrNull(spec, "template", "spec", "restartPolicy");
    if (rp instanceof StringValue s && !s.value().equals(restartPolicy)) {
      errs.add(FieldError.notSupported("spec.template.spec.restartPolicy", s,
          List.of(restartPolicy)));
    }
    return errs;
  }

  private static List<FieldError> validateJob(MapValue o) {
    List<FieldError> errs = new ArrayList<>();
    MapValue spec = Nested.mapOrNull(o, "spec");
    errs.addAll(validatePodSpec(spec == null ? null : Nested.mapOrNull(spec, "template", "spec"),
        "spec.template.spec"));
    Value rp = spec == null ? null : Nested.getOrNull(spec, "template", "spec", "restartPolicy");
    String policy = rp instanceof StringValue s ? s.value() : "";
    if (!policy.equals("OnFailure") && !policy.equals("Never")) {
      errs.add(FieldError.notSupported("spec.template.spec.restartPolicy", Value.of(policy),
          List.of("OnFailure", "Never")));
    }
    return errs;
  }

  private static List<FieldError> validateService(MapValue o) {
    List<FieldError> errs = new ArrayList<>();
    String type = Nested.getOrNull(o, "spec", "type") instanceof StringValue t ? t.value() : "";
    String clusterIp = Nested.getOrNull(o, "spec", "clusterIP") instanceof StringValue c ? c.value() : "";
    Value ports = Nested.getOrNull(o, "spec", "ports");
    boolean noPorts = !(ports instanceof ListValue l) || l.isEmpty();
    if (noPorts && !type.equals("ExternalName") && !clusterIp.equals("None")) {
      errs.add(FieldError.required("spec.ports", ""));
    }
    if (ports instanceof ListValue l) {
      for (int i = 0; i < l.size(); i++) {
        if (l.get(i) instanceof MapValue p && p.getOrNull("port") instanceof IntegerValue port
            && (port.value() < 1 || port.value() > 65535)) {
          errs.add(FieldError.invalid("spec.ports[" + i + "].port", port,
              "must be between 1 and 65535, inclusive"));
        }
      }
    }
    List<String> types = List.of("ClusterIP", "ExternalName", "LoadBalancer", "NodePort");
    if (!type.isEmpty() && !types.contains(type)) {
      errs.add(FieldError.notSupported("spec.type", Value.of(type), types));
    }
    return errs;
  }

  private static boolean isLabelSet(MapValue selector) {
    if (selector.containsKey("matchLabels") || selector.containsKey("matchExpressions")) {
      return false;
    }
    for (int i = 0; i < selector.size(); i++) {
      if (!(selector.valueAt(i) instanceof StringValue)) {
        return false;
      }
    }
    return true;
  }

  /** Whether a LabelSelector map selects {@code labels}. */
  static boolean selectorMatches(MapValue selector, MapValue labels) {
    if (selector.getOrNull("matchLabels") instanceof MapValue ml) {
      for (int i = 0; i < ml.size(); i++) {
        Value want = ml.valueAt(i);
        if (!want.equals(labels.getOrNull(ml.keyAt(i)))) {
          return false;
        }
      }
    }
    if (selector.getOrNull("matchExpressions") instanceof ListValue exprs) {
      for (Value e : exprs.items()) {
        if (!(e instanceof MapValue expr)) {
          return false;
        }
        String key = Meta.string(expr, "key");
        String op = Meta.string(expr, "operator");
        List<String> values = Meta.stringList(expr.getOrNull("values"));
        Value actual = labels.getOrNull(key);
        String v = actual instanceof StringValue s ? s.value() : null;
        switch (op) {
          case "In":
            if (v == null || !values.contains(v)) {
              return false;
            }
            break;
          case "NotIn":
            if (v != null && values.contains(v)) {
              return false;
            }
            break;
          case "Exists":
            if (v == null) {
              return false;
            }
            break;
          case "DoesNotExist":
            if (v != null) {
              return false;
            }
            break;
          default:
            return false;
        }
      }
    }
    return true;
  }

  /**
   * The string form of a LabelSelector, as {@code LabelSelectorAsSelector(s).String()} writes
   * it: requirements sorted by key, {@code k=v}, {@code k in (a,b)}, {@code k notin (a,b)},
   * {@code k}, {@code !k}, joined by commas.
   */
  static String formatSelector(MapValue selector) {
    List<String[]> parts = new ArrayList<>();
    if (isLabelSet(selector)) {
      // a ReplicationController's selector is a plain label set: SelectorFromSet(s).String()
      for (int i = 0; i < selector.size(); i++) {
        parts.add(new String[] {selector.keyAt(i), selector.keyAt(i) + "="
            + Meta.string(selector, selector.keyAt(i))});
      }
    }
    if (selector.getOrNull("matchLabels") instanceof MapValue ml) {
      for (int i = 0; i < ml.size(); i++) {
        parts.add(new String[] {ml.keyAt(i), ml.keyAt(i) + "=" + Meta.string(ml, ml.keyAt(i))});
      }
    }
    if (selector.getOrNull("matchExpressions") instanceof ListValue exprs) {
      for (Value e : exprs.items()) {
        if (!(e instanceof MapValue expr)) {
          continue;
        }
        String key = Meta.string(expr, "key");
        List<String> values = new ArrayList<>(new java.util.TreeSet<>(
            Meta.stringList(expr.getOrNull("values"))));
        switch (Meta.string(expr, "operator")) {
          case "In":
            parts.add(new String[] {key, key + " in (" + String.join(",", values) + ")"});
            break;
          case "NotIn":
            parts.add(new String[] {key, key + " notin (" + String.join(",", values) + ")"});
            break;
          case "Exists":
            parts.add(new String[] {key, key});
            break;
          case "DoesNotExist":
            parts.add(new String[] {key, "!" + key});
            break;
          default:
            break;
        }
      }
    }
    parts.sort((a, b) -> io.apiserver4j.core.Values.compareStrings(a[0], b[0]));
    List<String> out = new ArrayList<>();
    parts.forEach(p -> out.add(p[1]));
    return String.join(",", out);
  }
}
