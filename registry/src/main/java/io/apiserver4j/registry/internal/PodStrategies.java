/*
 * Copyright The apiserver4j authors.
 * SPDX-License-Identifier: Apache-2.0
 */
package io.apiserver4j.registry.internal;

import static io.apiserver4j.apimachinery.validation.KubeValidation.index;
import static io.apiserver4j.apimachinery.validation.KubeValidation.items;
import static io.apiserver4j.apimachinery.validation.KubeValidation.str;

import io.apiserver4j.apiserver.ResourceStrategy;
import io.apiserver4j.apiserver.strategy.GenerationPolicy;
import io.apiserver4j.core.FieldError;
import io.apiserver4j.core.GroupVersionKind;
import io.apiserver4j.core.IntegerValue;
import io.apiserver4j.core.ListValue;
import io.apiserver4j.core.MapValue;
import io.apiserver4j.core.Nested;
import io.apiserver4j.core.StringValue;
import io.apiserver4j.core.Value;
import java.math.BigDecimal;
import java.util.ArrayList;
import java.util.HashMap;
import java.util.HashSet;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Objects;
import java.util.Optional;
import java.util.OptionalLong;
import java.util.Set;
import io.apiserver4j.apimachinery.validation.MetaValidation;
import io.apiserver4j.apimachinery.validation.KubeValidation;

/**
 * Pod and PodTemplate as kube-apiserver's registries treat them: {@code SetDefaults_Pod},
 * {@code SetDefaults_PodSpec} and the container, probe and volume defaults of core/v1; the
 * pod spec validation of {@code pkg/apis/core/validation} users hit most (containers, ports,
 * resources, volumes and mounts, policies) and {@code ValidatePodUpdate}'s immutable spec. The
 * pod spec parts are shared with the workload kinds' templates.
 */
final class PodStrategies {
  static final List<String> RESTART_POLICIES = List.of("Always", "OnFailure", "Never");
  private static final List<String> DNS_POLICIES =
      List.of("ClusterFirstWithHostNet", "ClusterFirst", "Default", "None");
  private static final List<String> PULL_POLICIES = List.of("Always", "IfNotPresent", "Never");
  private static final List<String> TERMINATION_MESSAGE_POLICIES =
      List.of("File", "FallbackToLogsOnError");
  static final List<String> PROTOCOLS = List.of("SCTP", "TCP", "UDP");
  // validateVolumeSource's order: every source after the first is reported
  private static final List<String> VOLUME_SOURCES = List.of("emptyDir", "hostPath", "gitRepo",
      "gcePersistentDisk", "awsElasticBlockStore", "secret", "nfs", "iscsi", "glusterfs",
      "flocker", "persistentVolumeClaim", "rbd", "cinder", "cephfs", "quobyte", "downwardAPI",
      "fc", "flexVolume", "configMap", "azureFile", "vsphereVolume", "photonPersistentDisk",
      "portworxVolume", "azureDisk", "storageos", "projected", "scaleIO", "csi", "ephemeral",
      "image");
  // the names kube gives two of them in that error
  private static final Map<String, String> VOLUME_SOURCE_PATHS =
      Map.of("downwardAPI", "downwarAPI", "cephfs", "cephFS");
  private static final String POD_UPDATE_FORBIDDEN = "pod updates may not change fields other"
      + " than `spec.containers[*].image`,`spec.initContainers[*].image`,"
      + "`spec.activeDeadlineSeconds`,`spec.tolerations` (only additions to existing"
      + " tolerations),`spec.terminationGracePeriodSeconds` (allow it to be set to 1 if it was"
      + " previously negative)";

  private PodStrategies() {}

  static void register(Map<GroupVersionKind, ResourceStrategy> out) {
    out.put(new GroupVersionKind("", "v1", "Pod"), ResourceStrategy.builder()
        .generationPolicy(GenerationPolicy.SPEC)
        .selectableFields("spec.nodeName", "spec.restartPolicy", "spec.schedulerName",
            "spec.serviceAccountName", "spec.hostNetwork", "status.phase", "status.podIP",
            "status.nominatedNodeName")
        .defaulter(PodStrategies::defaultPod)
        .prepareForCreate((o, old) -> Nested.set(o, MapValue.ofEntries("phase",
            Value.of("Pending"), "qosClass", Value.of(qosClass(Nested.map(o, "spec")))),
            "status"))
        .validator(PodStrategies::validatePod)
        .gracePeriod(PodStrategies::podGracePeriod)
        .returnDeletedObject(true)
        .subresourceCreate("eviction", new PodEviction())
        .subresourceCreate("binding", new PodBinding())
        .subresourceUpdate("ephemeralcontainers", PodUpdateSubresources.ephemeralContainers())
        .subresourceUpdate("resize", PodUpdateSubresources.resize())
        .build());
    // the legacy bindings resource: a create of it binds the pod it names
    out.put(new GroupVersionKind("", "v1", "Binding"), ResourceStrategy.builder()
        .subresourceCreate("", new PodBinding())
        .build());
    out.put(new GroupVersionKind("", "v1", "PodTemplate"), ResourceStrategy.builder()
        .defaulter(o -> Nested.updateMap(o, PodStrategies::defaultPodSpec, "template", "spec"))
        .validator((o, old) -> {
          List<FieldError> errs = new ArrayList<>();
          templateMetadata(Nested.mapOrNull(o, "template"), "template", errs);
          validatePodSpec(Nested.mapOrNull(o, "template", "spec"), "template.spec", errs);
          return errs;
        })
        .build());
  }

  // --- defaulting --------------------------------------------------------------------------

  /** {@code SetDefaults_PodSpec} and the generated defaulters of what a pod spec holds. */
  static MapValue defaultPodSpec(MapValue spec) {
    MapValue s = spec;
    s = Nested.setDefault(s, Value.of("ClusterFirst"), "dnsPolicy");
    s = Nested.setDefault(s, Value.of("Always"), "restartPolicy");
    s = Nested.setDefault(s, Value.of(30L), "terminationGracePeriodSeconds");
    s = Nested.setDefault(s, MapValue.empty(), "securityContext");
    s = Nested.setDefault(s, Value.of("default-scheduler"), "schedulerName");
    s = Nested.updateListItems(s, PodStrategies::defaultContainer, "containers");
    s = Nested.updateListItems(s, PodStrategies::defaultContainer, "initContainers");
    s = Nested.updateListItems(s, PodStrategies::defaultVolume, "volumes");
    return s;
  }

  /**
   * {@code SetDefaults_Pod} on top of the pod spec defaults (only on Pods, not on templates):
   * requests default to limits, service links are enabled, and host-network pods' ports get
   * their container port as host port.
   */
  static MapValue defaultPod(MapValue pod) {
    MapValue r = Nested.updateMap(pod, PodStrategies::defaultPodSpec, "spec");
    if (Nested.mapOrNull(r, "spec") == null) {
      return r;
    }
    boolean hostNetwork = Nested.getOrNull(r, "spec", "hostNetwork")
        instanceof io.apiserver4j.core.BooleanValue b && b.value();
    for (String list : List.of("containers", "initContainers")) {
      r = Nested.updateListItems(r, c -> {
        MapValue out = requestsFromLimits(c);
        if (hostNetwork) {
          out = Nested.updateListItems(out, p -> {
            Value hp = p.getOrNull("hostPort");
            boolean unset = hp == null || (hp instanceof IntegerValue i && i.value() == 0);
            return unset && p.getOrNull("containerPort") != null
                ? p.with("hostPort", p.getOrNull("containerPort")) : p;
          }, "ports");
        }
        return out;
      }, "spec", list);
    }
    return Nested.setDefault(r, Value.of(true), "spec", "enableServiceLinks");
  }

  private static MapValue requestsFromLimits(MapValue c) {
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
  }

  private static MapValue defaultContainer(MapValue c) {
    MapValue r = c;
    if (r.getOrNull("imagePullPolicy") == null) {
      r = r.with("imagePullPolicy", Value.of(pullPolicy(str(r, "image"))));
    }
    r = Nested.setDefault(r, Value.of("/dev/termination-log"), "terminationMessagePath");
    r = Nested.setDefault(r, Value.of("File"), "terminationMessagePolicy");
    r = Nested.updateListItems(r, p -> Nested.setDefault(p, Value.of("TCP"), "protocol"), "ports");
    for (String probe : List.of("livenessProbe", "readinessProbe", "startupProbe")) {
      r = Nested.updateMap(r, PodStrategies::defaultProbe, probe);
    }
    for (String hook : List.of("postStart", "preStop")) {
      r = Nested.updateMap(r, PodStrategies::defaultHttpGet, "lifecycle", hook, "httpGet");
    }
    r = Nested.updateListItems(r, PodStrategies::defaultFieldRef, "env");
    return r;
  }

  // SetDefaults_ObjectFieldSelector: a field reference is to v1 unless it says otherwise.
  private static MapValue defaultFieldRef(MapValue holder) {
    return Nested.updateMap(holder, f -> Nested.setDefault(f, Value.of("v1"), "apiVersion"),
        holder.containsKey("valueFrom") ? new String[] {"valueFrom", "fieldRef"}
            : new String[] {"fieldRef"});
  }

  /**
   * SetDefaults_Container's pull policy: images tagged (or implied) {@code latest} are pulled
   * always, others if not present; an image that does not parse has no tag.
   */
  static String pullPolicy(String image) {
    if (image.isEmpty()) {
      return "IfNotPresent";
    }
    int at = image.indexOf('@');
    String ref = at >= 0 ? image.substring(0, at) : image;
    int slash = ref.lastIndexOf('/');
    int colon = ref.lastIndexOf(':');
    if (colon <= slash) {
      // no tag: "latest" is implied unless a digest pins the image
      return at >= 0 ? "IfNotPresent" : "Always";
    }
    return ref.substring(colon + 1).equals("latest") ? "Always" : "IfNotPresent";
  }

  private static MapValue defaultProbe(MapValue p) {
    MapValue r = p;
    r = Nested.setDefault(r, Value.of(1L), "timeoutSeconds");
    r = Nested.setDefault(r, Value.of(10L), "periodSeconds");
    r = Nested.setDefault(r, Value.of(1L), "successThreshold");
    r = Nested.setDefault(r, Value.of(3L), "failureThreshold");
    return Nested.updateMap(r, PodStrategies::defaultHttpGet, "httpGet");
  }

  private static MapValue defaultHttpGet(MapValue h) {
    return Nested.setDefault(Nested.setDefault(h, Value.of("/"), "path"), Value.of("HTTP"),
        "scheme");
  }

  private static MapValue defaultVolume(MapValue v) {
    MapValue r = v;
    for (String source : List.of("secret", "configMap", "downwardAPI", "projected")) {
      r = Nested.updateMap(r, s -> Nested.setDefault(s, Value.of(420L), "defaultMode"), source);
    }
    r = Nested.updateListItems(r, PodStrategies::defaultFieldRef, "downwardAPI", "items");
    r = Nested.updateListItems(r, src -> Nested.updateListItems(src,
        PodStrategies::defaultFieldRef, "downwardAPI", "items"), "projected", "sources");
    r = Nested.updateMap(r, h -> Nested.setDefault(h, Value.of(""), "type"), "hostPath");
    r = Nested.updateMap(r, i -> Nested.setDefault(i, Value.of("default"), "iscsiInterface"),
        "iscsi");
    r = Nested.updateMap(r, rbd -> Nested.setDefault(Nested.setDefault(Nested.setDefault(rbd,
        Value.of("rbd"), "pool"), Value.of("admin"), "user"), Value.of("/etc/ceph/keyring"),
        "keyring"), "rbd");
    r = Nested.updateMap(r, spec -> Nested.setDefault(spec, Value.of("Filesystem"), "volumeMode"),
        "ephemeral", "volumeClaimTemplate", "spec");
    boolean hasSource = false;
    for (int i = 0; i < r.size(); i++) {
      hasSource |= !r.keyAt(i).equals("name");
    }
    return hasSource ? r : r.with("emptyDir", MapValue.empty());
  }

  // --- registry hooks ----------------------------------------------------------------------

  // kube deletes pods that never reached a node (or finished) immediately.
  private static long podGracePeriod(MapValue pod, OptionalLong requested) {
    String node = str(pod, "spec", "nodeName");
    String phase = str(pod, "status", "phase");
    if (node.isEmpty() || phase.equals("Failed") || phase.equals("Succeeded")) {
      return 0;
    }
    if (requested.isPresent()) {
      return requested.getAsLong();
    }
    return Nested.getOrNull(pod, "spec", "terminationGracePeriodSeconds") instanceof IntegerValue i
        ? i.value() : 0;
  }

  /**
   * kube's {@code qos.GetPodQOS}: BestEffort without cpu or memory requests and limits,
   * Guaranteed when every container limits both and requests equal limits, else Burstable.
   */
  static String qosClass(MapValue spec) {
    Map<String, BigDecimal> requests = new HashMap<>();
    Map<String, BigDecimal> limits = new HashMap<>();
    boolean guaranteed = true;
    List<MapValue> all = new ArrayList<>(items(spec.getOrNull("containers")));
    all.addAll(items(spec.getOrNull("initContainers")));
    for (MapValue c : all) {
      sumPositive(Nested.map(c, "resources", "requests"), requests);
      Set<String> found = sumPositive(Nested.map(c, "resources", "limits"), limits);
      if (!found.containsAll(List.of("cpu", "memory"))) {
        guaranteed = false;
      }
    }
    if (requests.isEmpty() && limits.isEmpty()) {
      return "BestEffort";
    }
    if (guaranteed) {
      for (Map.Entry<String, BigDecimal> e : requests.entrySet()) {
        BigDecimal lim = limits.get(e.getKey());
        if (lim == null || lim.compareTo(e.getValue()) != 0) {
          guaranteed = false;
          break;
        }
      }
    }
    return guaranteed && requests.size() == limits.size() ? "Guaranteed" : "Burstable";
  }

  private static Set<String> sumPositive(MapValue list, Map<String, BigDecimal> into) {
    Set<String> found = new HashSet<>();
    for (String name : List.of("cpu", "memory")) {
      Optional<BigDecimal> q = KubeValidation.quantity(
          KubeValidation.quantityString(list.getOrNull(name)));
      if (q.isPresent() && q.get().signum() > 0) {
        into.merge(name, q.get(), BigDecimal::add);
        found.add(name);
      }
    }
    return found;
  }

  // --- validation --------------------------------------------------------------------------

  private static List<FieldError> validatePod(MapValue pod, Optional<MapValue> old) {
    List<FieldError> errs = new ArrayList<>();
    validatePodSpec(Nested.mapOrNull(pod, "spec"), "spec", SpecOf.POD, errs);
    // validateContainersOnlyForPod: templates may keep padded images, pods may not
    for (String list : List.of("containers", "initContainers")) {
      List<MapValue> cs = items(Nested.getOrNull(pod, "spec", list));
      for (int i = 0; i < cs.size(); i++) {
        String image = str(cs.get(i), "image");
        if (!image.strip().equals(image)) {
          errs.add(FieldError.invalid("spec." + list + "[" + i + "].image", Value.of(image),
              "must not have leading or trailing whitespace"));
        }
      }
    }
    if (old.isEmpty() && Nested.getOrNull(pod, "spec", "ephemeralContainers")
        instanceof ListValue l && !l.isEmpty()) {
      errs.add(FieldError.forbidden("spec.ephemeralContainers", "cannot be set on create"));
    }
    if (old.isEmpty() && !str(pod, "spec", "nodeName").isEmpty()
        && Nested.getOrNull(pod, "spec", "schedulingGates") instanceof ListValue g
        && !g.isEmpty()) {
      errs.add(FieldError.forbidden("spec.nodeName",
          "cannot be set until all schedulingGates have been cleared"));
    }
    old.ifPresent(o -> validatePodSpecUpdate(Nested.map(pod, "spec"), Nested.map(o, "spec"),
        errs));
    return errs;
  }

  /** The labels and annotations of a pod template's metadata ({@code ValidatePodTemplateSpec}). */
  static void templateMetadata(MapValue template, String path, List<FieldError> errs) {
    if (template == null) {
      return;
    }
    // kube's ValidatePodTemplateSpec names the embedded ObjectMeta's fields without "metadata"
    errs.addAll(MetaValidation.labels(Nested.getOrNull(template, "metadata", "labels"),
        path + ".labels"));
    errs.addAll(MetaValidation.annotations(Nested.getOrNull(template, "metadata",
        "annotations"), path + ".annotations"));
  }

  /** Whether a spec is a Pod's or a template's ({@code PodValidationOptions.ResourceIsPod}). */
  enum SpecOf { POD, TEMPLATE }

  /** {@code ValidatePodSpec} of a template. */
  static void validatePodSpec(MapValue spec, String path, List<FieldError> errs) {
    validatePodSpec(spec, path, SpecOf.TEMPLATE, errs);
  }

  /** {@code ValidatePodSpec}, in kube's order. */
  static void validatePodSpec(MapValue spec, String path, SpecOf of, List<FieldError> errs) {
    MapValue s = spec == null ? MapValue.empty() : spec;
    Set<String> volumes = validateVolumes(s.getOrNull("volumes"), path + ".volumes", of, errs);
    Long grace = s.getOrNull("terminationGracePeriodSeconds") instanceof IntegerValue g
        ? g.value() : null;
    Set<String> claims = PodSpecRules.podResourceClaims(s, path + ".resourceClaims", errs);
    ContainerContext ctx = new ContainerContext(volumes, PodSpecRules.volumesByName(s), claims,
        grace, str(s, "restartPolicy"), PodSpecRules.hostUsers(s));
    List<MapValue> containers = items(s.getOrNull("containers"));
    if (containers.isEmpty()) {
      errs.add(FieldError.required(path + ".containers", ""));
    }
    validateContainers(containers, path + ".containers", ctx, errs);
    validateInitContainers(items(s.getOrNull("initContainers")), containers,
        path + ".initContainers", ctx, errs);
    PodSpecRules.podResources(s, path + ".resources", claims, errs);
    PodSpecRules.hostNetworkPorts(s, path, of == SpecOf.POD, errs);
    KubeValidation.requiredEnum(s, "restartPolicy", path + ".restartPolicy", RESTART_POLICIES,
        errs);
    KubeValidation.requiredEnum(s, "dnsPolicy", path + ".dnsPolicy", DNS_POLICIES, errs);
    errs.addAll(MetaValidation.labels(s.getOrNull("nodeSelector"), path + ".nodeSelector"));
    PodSpecRules.podSecurityContext(s, path, errs);
    PodSpecRules.affinity(s.getOrNull("affinity"), path + ".affinity", errs);
    PodSpecRules.dnsConfig(s, path + ".dnsConfig", errs);
    PodSpecRules.gates(s, path, errs);
    PodSpecRules.topologySpread(items(s.getOrNull("topologySpreadConstraints")),
        path + ".topologySpreadConstraints", errs);
    PodSpecRules.hostUsers(s, path, errs);
    String sa = str(s, "serviceAccountName");
    if (!sa.isEmpty()) {
      for (String msg : MetaValidation.dns1123Subdomain(sa)) {
        errs.add(FieldError.invalid(path + ".serviceAccountName", Value.of(sa), msg));
      }
    }
    String node = str(s, "nodeName");
    if (!node.isEmpty()) {
      for (String msg : MetaValidation.dns1123Subdomain(node)) {
        errs.add(FieldError.invalid(path + ".nodeName", Value.of(node), msg));
      }
    }
    if (s.getOrNull("activeDeadlineSeconds") instanceof IntegerValue ads
        && (ads.value() < 1 || ads.value() > Integer.MAX_VALUE)) {
      errs.add(FieldError.invalid(path + ".activeDeadlineSeconds", ads,
          "must be between 1 and 2147483647, inclusive"));
    }
    for (String key : List.of("hostname", "subdomain")) {
      String v = str(s, key);
      if (!v.isEmpty()) {
        for (String msg : MetaValidation.dns1123Label(v)) {
          errs.add(FieldError.invalid(path + "." + key, Value.of(v), msg));
        }
      }
    }
    validateTolerations(items(s.getOrNull("tolerations")), path + ".tolerations", errs);
    PodSpecRules.hostAliases(items(s.getOrNull("hostAliases")), path + ".hostAliases", errs);
    String priorityClass = str(s, "priorityClassName");
    if (!priorityClass.isEmpty()) {
      for (String msg : MetaValidation.dns1123Subdomain(priorityClass)) {
        errs.add(FieldError.invalid(path + ".priorityClassName", Value.of(priorityClass), msg));
      }
    }
    if (s.getOrNull("runtimeClassName") instanceof StringValue rc) {
      for (String msg : MetaValidation.dns1123Subdomain(rc.value())) {
        errs.add(FieldError.invalid(path + ".runtimeClassName", rc, msg));
      }
    }
    KubeValidation.optionalEnum(s, "preemptionPolicy", path + ".preemptionPolicy",
        List.of("PreemptLowerPriority", "Never"), errs);
    PodSpecRules.os(s, path, errs);
  }

  /** {@code ValidateTolerations}: keys, operators and their values, effects. */
  static void validateTolerations(List<MapValue> tolerations, String path,
      List<FieldError> errs) {
    for (int i = 0; i < tolerations.size(); i++) {
      MapValue t = tolerations.get(i);
      String at = index(path, i);
      String key = str(t, "key");
      String op = str(t, "operator");
      String effect = str(t, "effect");
      if (!key.isEmpty()) {
        for (String msg : MetaValidation.qualifiedName(key)) {
          errs.add(FieldError.invalid(at + ".key", Value.of(key), msg));
        }
      }
      if (key.isEmpty() && !op.equals("Exists")) {
        errs.add(FieldError.invalid(at + ".operator", Value.of(op), "operator must be Exists"
            + " when `key` is empty, which means \"match all values and all keys\""));
      }
      if (t.getOrNull("tolerationSeconds") instanceof IntegerValue && !effect.equals("NoExecute")) {
        errs.add(FieldError.invalid(at + ".effect", Value.of(effect),
            "effect must be 'NoExecute' when `tolerationSeconds` is set"));
      }
      switch (op) {
        case "Equal", "" -> {
          List<String> msgs = MetaValidation.labelValue(str(t, "value"));
          if (!msgs.isEmpty()) {
            errs.add(FieldError.invalid(at + ".operator", Value.of(str(t, "value")),
                String.join(";", msgs)));
          }
        }
        case "Exists" -> {
          if (!str(t, "value").isEmpty()) {
            errs.add(FieldError.invalid(at + ".operator", Value.of(str(t, "value")),
                "value must be empty when `operator` is 'Exists'"));
          }
        }
        default -> errs.add(FieldError.notSupported(at + ".operator", Value.of(op),
            List.of("Equal", "Exists")));
      }
      if (!effect.isEmpty() && !List.of("NoSchedule", "PreferNoSchedule", "NoExecute")
          .contains(effect)) {
        errs.add(FieldError.notSupported(at + ".effect", Value.of(effect),
            List.of("NoSchedule", "PreferNoSchedule", "NoExecute")));
      }
    }
  }

  /** {@code ValidateVolumes}: names, one source each; returns the names of the valid ones. */
  private static Set<String> validateVolumes(Value volumes, String path, SpecOf of,
      List<FieldError> errs) {
    Set<String> names = new HashSet<>();
    List<MapValue> list = items(volumes);
    for (int i = 0; i < list.size(); i++) {
      MapValue v = list.get(i);
      String at = index(path, i);
      List<FieldError> el = new ArrayList<>();
      String first = null;
      for (String source : VOLUME_SOURCES) {
        if (v.getOrNull(source) == null || v.getOrNull(source).isNull()) {
          continue;
        }
        if (first == null) {
          first = source;
          PodSpecRules.volumeSource(source, v.getOrNull(source), at + "." + source,
              of == SpecOf.POD, el);
        } else {
          el.add(FieldError.forbidden(at + "." + VOLUME_SOURCE_PATHS.getOrDefault(source,
              source), "may not specify more than 1 volume type"));
        }
      }
      if (first == null) {
        el.add(FieldError.required(at, "must specify a volume type"));
      }
      String name = str(v, "name");
      if (name.isEmpty()) {
        el.add(FieldError.required(at + ".name", ""));
      } else {
        for (String msg : MetaValidation.dns1123Label(name)) {
          el.add(FieldError.invalid(at + ".name", Value.of(name), msg));
        }
      }
      if (names.contains(name)) {
        el.add(FieldError.duplicate(at + ".name", Value.of(name)));
      }
      if (el.isEmpty()) {
        names.add(name);
      } else {
        errs.addAll(el);
      }
    }
    return names;
  }


  /** What container validation needs to know of the pod. */
  private record ContainerContext(Set<String> volumes, Map<String, MapValue> volumesByName,
      Set<String> podClaims, Long gracePeriod, String restartPolicy, boolean hostUsers) { }

  /** {@code validateContainers}: the common rules, unique names, probes and lifecycle. */
  private static void validateContainers(List<MapValue> containers, String path,
      ContainerContext ctx, List<FieldError> errs) {
    Set<String> names = new HashSet<>();
    for (int i = 0; i < containers.size(); i++) {
      MapValue c = containers.get(i);
      String at = index(path, i);
      validateContainerCommon(c, at, ctx, errs);
      String name = str(c, "name");
      if (!names.add(name)) {
        errs.add(FieldError.duplicate(at + ".name", Value.of(name)));
      }
      PodSpecRules.lifecycle(c.getOrNull("lifecycle"), at + ".lifecycle", ctx.gracePeriod(),
          errs);
      for (String probe : List.of("livenessProbe", "readinessProbe", "startupProbe")) {
        PodSpecRules.probe(c.getOrNull(probe), at + "." + probe, probe, ctx.gracePeriod(), errs);
      }
    }
    PodSpecRules.hostPortConflicts(containers, path, new HashSet<>(), errs);
  }

  /** {@code validateInitContainers}: sidecars (restartPolicy Always) may probe and hook. */
  private static void validateInitContainers(List<MapValue> inits, List<MapValue> regular,
      String path, ContainerContext ctx, List<FieldError> errs) {
    Set<String> names = new HashSet<>();
    regular.forEach(c -> names.add(str(c, "name")));
    for (int i = 0; i < inits.size(); i++) {
      MapValue c = inits.get(i);
      String at = index(path, i);
      validateContainerCommon(c, at, ctx, errs);
      // container restart rules (beta since 1.35) allow other policies; Always makes a sidecar
      boolean sidecar = str(c, "restartPolicy").equals("Always");
      String name = str(c, "name");
      if (names.contains(name)) {
        errs.add(FieldError.duplicate(at + ".name", Value.of(name)));
      } else if (!name.isEmpty()) {
        names.add(name);
      }
      PodSpecRules.hostPortConflicts(List.of(c), path, new HashSet<>(), errs);
      if (sidecar) {
        PodSpecRules.lifecycle(c.getOrNull("lifecycle"), at + ".lifecycle", ctx.gracePeriod(),
            errs);
        for (String probe : List.of("livenessProbe", "readinessProbe", "startupProbe")) {
          PodSpecRules.probe(c.getOrNull(probe), at + "." + probe, probe, ctx.gracePeriod(),
              errs);
        }
      } else {
        for (String f : List.of("lifecycle", "livenessProbe", "readinessProbe",
            "startupProbe")) {
          if (c.getOrNull(f) instanceof MapValue) {
            errs.add(FieldError.forbidden(at + "." + f,
                "may not be set for init containers without restartPolicy=Always"));
          }
        }
      }
    }
  }

  /** {@code validateContainerCommon}, in kube's order. */
  private static void validateContainerCommon(MapValue c, String at, ContainerContext ctx,
      List<FieldError> errs) {
    String name = str(c, "name");
    if (name.isEmpty()) {
      errs.add(FieldError.required(at + ".name", ""));
    } else {
      for (String msg : MetaValidation.dns1123Label(name)) {
        errs.add(FieldError.invalid(at + ".name", Value.of(name), msg));
      }
    }
    if (str(c, "image").isEmpty()) {
      errs.add(FieldError.required(at + ".image", ""));
    }
    KubeValidation.requiredEnum(c, "terminationMessagePolicy", at + ".terminationMessagePolicy",
        TERMINATION_MESSAGE_POLICIES, errs);
    validatePorts(items(c.getOrNull("ports")), at + ".ports", errs);
    PodSpecRules.env(items(c.getOrNull("env")), at + ".env", errs);
    PodSpecRules.envFrom(items(c.getOrNull("envFrom")), at + ".envFrom", errs);
    validateMounts(c, at + ".volumeMounts", ctx, errs);
    KubeValidation.requiredEnum(c, "imagePullPolicy", at + ".imagePullPolicy", PULL_POLICIES,
        errs);
    PodSpecRules.resources(Nested.map(c, "resources"), at + ".resources", false,
        ctx.podClaims(), errs);
    PodSpecRules.resizePolicy(items(c.getOrNull("resizePolicy")), at + ".resizePolicy",
        ctx.restartPolicy(), errs);
    PodSpecRules.containerSecurityContext(c.getOrNull("securityContext"),
        at + ".securityContext", ctx.hostUsers(), errs);
  }

  private static void validatePorts(List<MapValue> ports, String path, List<FieldError> errs) {
    Set<String> names = new HashSet<>();
    for (int i = 0; i < ports.size(); i++) {
      MapValue p = ports.get(i);
      String at = index(path, i);
      String name = str(p, "name");
      if (!name.isEmpty()) {
        List<String> msgs = KubeValidation.portName(name);
        if (!msgs.isEmpty()) {
          msgs.forEach(m -> errs.add(FieldError.invalid(at + ".name", Value.of(name), m)));
        } else if (!names.add(name)) {
          errs.add(FieldError.duplicate(at + ".name", Value.of(name)));
        }
      }
      Value cp = p.getOrNull("containerPort");
      if (cp == null || (cp instanceof IntegerValue z && z.value() == 0)) {
        errs.add(FieldError.required(at + ".containerPort", ""));
      } else {
        KubeValidation.portNumber(cp, at + ".containerPort", errs);
      }
      if (p.getOrNull("hostPort") instanceof IntegerValue hp && hp.value() != 0) {
        KubeValidation.portNumber(hp, at + ".hostPort", errs);
      }
      KubeValidation.requiredEnum(p, "protocol", at + ".protocol", PROTOCOLS, errs);
    }
  }

  /** {@code ValidateVolumeMounts}. */
  private static void validateMounts(MapValue container, String path, ContainerContext ctx,
      List<FieldError> errs) {
    List<MapValue> mounts = items(container.getOrNull("volumeMounts"));
    Set<String> points = new HashSet<>();
    for (int i = 0; i < mounts.size(); i++) {
      MapValue m = mounts.get(i);
      String at = index(path, i);
      String name = str(m, "name");
      if (name.isEmpty()) {
        errs.add(FieldError.required(at + ".name", ""));
      }
      if (!ctx.volumes().contains(name)) {
        errs.add(FieldError.notFound(at + ".name", Value.of(name)));
      }
      String mountPath = str(m, "mountPath");
      if (mountPath.isEmpty()) {
        errs.add(FieldError.required(at + ".mountPath", ""));
      }
      if (!points.add(mountPath)) {
        errs.add(FieldError.invalid(at + ".mountPath", Value.of(mountPath), "must be unique"));
      }
      PodSpecRules.mount(m, path, at, container, ctx.volumesByName(), errs);
    }
  }

  /**
   * {@code ValidatePodUpdate}'s spec rules: only images, a shorter active deadline, added
   * tolerations and a negative grace period raised to 1 may change. Ephemeral containers are
   * left to their own subresource.
   */
  static void validatePodSpecUpdate(MapValue spec, MapValue old, List<FieldError> errs) {
    // ValidateContainerUpdates: the lists keep their length
    for (String list : List.of("containers", "initContainers")) {
      if (items(spec.getOrNull(list)).size() != items(old.getOrNull(list)).size()) {
        errs.add(FieldError.forbidden("spec." + list,
            "pod updates may not add or remove containers"));
        return;
      }
    }
    Value ads = spec.getOrNull("activeDeadlineSeconds");
    Value oldAds = old.getOrNull("activeDeadlineSeconds");
    if (ads instanceof IntegerValue n) {
      if (n.value() < 0 || n.value() > Integer.MAX_VALUE) {
        errs.add(FieldError.invalid("spec.activeDeadlineSeconds", n,
            "must be between 0 and 2147483647, inclusive"));
        return;
      }
      if (oldAds instanceof IntegerValue o && o.value() < n.value()) {
        errs.add(FieldError.invalid("spec.activeDeadlineSeconds", n,
            "must be less than or equal to previous value"));
        return;
      }
    } else if (oldAds instanceof IntegerValue) {
      errs.add(FieldError.invalid("spec.activeDeadlineSeconds", Value.nullValue(),
          "must not update from a positive integer to nil value"));
    }
    onlyAddedTolerations(items(spec.getOrNull("tolerations")),
        items(old.getOrNull("tolerations")), errs);
    onlyDeletedSchedulingGates(items(spec.getOrNull("schedulingGates")),
        items(old.getOrNull("schedulingGates")), errs);
    MapValue munged = spec;
    for (String list : List.of("containers", "initContainers")) {
      List<MapValue> now = items(spec.getOrNull(list));
      List<MapValue> before = items(old.getOrNull(list));
      if (now.size() == before.size()) {
        ListValue.Builder b = ListValue.builder(now.size());
        for (int i = 0; i < now.size(); i++) {
          Value img = before.get(i).getOrNull("image");
          b.add(img == null ? now.get(i).without("image") : now.get(i).with("image", img));
        }
        munged = munged.with(list, b.build());
      }
    }
    munged = copyField(munged, old, "activeDeadlineSeconds");
    munged = copyField(munged, old, "tolerations");
    munged = copyField(munged, old, "ephemeralContainers");
    munged = copyField(munged, old, "schedulingGates");
    if (!items(old.getOrNull("schedulingGates")).isEmpty()) {
      // a gated pod may gain node selector labels, nothing else
      MapValue now = Nested.map(spec, "nodeSelector");
      MapValue before = Nested.map(old, "nodeSelector");
      for (int i = 0; i < before.size(); i++) {
        if (!before.valueAt(i).equals(now.getOrNull(before.keyAt(i)))) {
          errs.add(FieldError.invalid("spec.nodeSelector", now, "only additions to"
              + " spec.nodeSelector are allowed (no mutations or deletions)"));
          break;
        }
      }
      munged = copyField(munged, old, "nodeSelector");
    }
    if (old.getOrNull("terminationGracePeriodSeconds") instanceof IntegerValue g && g.value() < 0
        && spec.getOrNull("terminationGracePeriodSeconds") instanceof IntegerValue n
        && n.value() == 1) {
      munged = copyField(munged, old, "terminationGracePeriodSeconds");
    }
    munged = withoutEmpty(munged);
    MapValue before = withoutEmpty(old);
    if (!munged.equals(before)) {
      errs.add(FieldError.forbidden("spec", POD_UPDATE_FORBIDDEN + "\n" + diff(munged, before)));
    }
  }

  /** {@code validateOnlyAddedTolerations}: existing ones stay but for their seconds. */
  private static void onlyAddedTolerations(List<MapValue> now, List<MapValue> old,
      List<FieldError> errs) {
    for (MapValue o : old) {
      boolean found = false;
      for (MapValue n : now) {
        MapValue clone = copyField(o, n, "tolerationSeconds");
        if (withoutEmpty(clone).equals(withoutEmpty(n))) {
          found = true;
          break;
        }
      }
      if (!found) {
        errs.add(FieldError.forbidden("spec.tolerations",
            "existing toleration can not be modified except its tolerationSeconds"));
        return;
      }
    }
  }

  /** {@code validateOnlyDeletedSchedulingGates}. */
  private static void onlyDeletedSchedulingGates(List<MapValue> now, List<MapValue> old,
      List<FieldError> errs) {
    Set<String> before = new HashSet<>();
    old.forEach(g -> before.add(str(g, "name")));
    Map<String, Integer> added = new LinkedHashMap<>();
    for (int i = 0; i < now.size(); i++) {
      added.put(str(now.get(i), "name"), i);
    }
    before.forEach(added::remove);
    added.forEach((gate, i) -> errs.add(FieldError.forbidden("spec.schedulingGates[" + i
        + "].name", "only deletion is allowed, but found new scheduling gate '" + gate + "'")));
  }

  private static MapValue copyField(MapValue into, MapValue from, String key) {
    Value v = from.getOrNull(key);
    return v == null ? into.without(key) : into.with(key, v);
  }

  // Go's zero values and absent fields compare equal in the typed struct.
  private static MapValue withoutEmpty(MapValue m) {
    MapValue r = m;
    for (int i = 0; i < m.size(); i++) {
      Value v = m.valueAt(i);
      if (v.isNull() || (v instanceof ListValue l && l.isEmpty())) {
        r = r.without(m.keyAt(i));
      }
    }
    return r;
  }

  // The changed top-level fields of the spec, Go's cmp.Diff cannot be reproduced exactly.
  private static String diff(MapValue now, MapValue old) {
    Map<String, String> lines = new LinkedHashMap<>();
    Set<String> keys = new java.util.TreeSet<>();
    for (int i = 0; i < now.size(); i++) {
      keys.add(now.keyAt(i));
    }
    for (int i = 0; i < old.size(); i++) {
      keys.add(old.keyAt(i));
    }
    for (String k : keys) {
      if (!Objects.equals(now.getOrNull(k), old.getOrNull(k))) {
        lines.put(k, "- " + k + ": " + old.getOrNull(k) + "\n+ " + k + ": " + now.getOrNull(k));
      }
    }
    return String.join("\n", lines.values());
  }
}
