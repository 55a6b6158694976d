/*
 * Copyright The apiserver4j authors.
 * SPDX-License-Identifier: Apache-2.0
 */
package io.apiserver4j.podsecurity;

import static java.util.Objects.requireNonNull;

import io.apiserver4j.admission.AdmissionAttributes;
import io.apiserver4j.admission.Operation;
import io.apiserver4j.admission.SideEffects;
import io.apiserver4j.admission.ValidatingPlugin;
import io.apiserver4j.admission.matching.NamespaceLookup;
import io.apiserver4j.core.GroupKind;
import io.apiserver4j.core.GroupResource;
import io.apiserver4j.core.MapValue;
import io.apiserver4j.core.StringValue;
import io.apiserver4j.core.Value;
import io.apiserver4j.core.errors.FieldError;
import io.apiserver4j.core.errors.StatusErrors;
import io.apiserver4j.core.errors.StatusException;
import java.time.Clock;
import java.time.Duration;
import java.time.Instant;
import java.util.ArrayList;
import java.util.HashMap;
import java.util.HashSet;
import java.util.LinkedHashMap;
import java.util.LinkedHashSet;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import java.util.Set;
import java.util.TreeMap;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * kube-apiserver's {@code PodSecurity} admission plugin ({@code plugin/pkg/admission/security/
 * podsecurity} on {@code k8s.io/pod-security-admission/admission}): on CREATE and UPDATE of pods,
 * of the workload resources that embed a pod template (ReplicationControllers, PodTemplates,
 * ReplicaSets, Deployments, StatefulSets, DaemonSets, Jobs, CronJobs) and of namespaces.
 *
 * <ul>
 *   <li>Pods are refused with 403 {@code pods "<name>" is forbidden: violates PodSecurity
 *       "<level>:<version>": <reasons with details>} when they violate the namespace's enforce
 *       level; a violation of the warn level is a warning ({@code would violate PodSecurity
 *       ...}), of the audit level the {@code pod-security.kubernetes.io/audit-violations} audit
 *       annotation. An update that changes no image is not evaluated.</li>
 *   <li>Workload resources are never refused: their pod template gets warnings and audit
 *       annotations only.</li>
 *   <li>Namespaces with invalid policy labels are refused (422) on create and when the labels
 *       change; tightening the enforce level warns about existing pods that violate it (at most
 *       3,000 pods and one second of the injected clock, as kube).</li>
 *   <li>Exempt usernames, namespaces and runtime classes and the default levels come from the
 *       {@link PodSecurityConfiguration}; exemptions are recorded in the
 *       {@code pod-security.kubernetes.io/exempt} audit annotation.</li>
 * </ul>
 *
 * <p>Thread-safe; has no side effects ({@link SideEffects#NONE}).
 */
public final class PodSecurityAdmission implements ValidatingPlugin {
  /** The plugin's name in kube-apiserver's plugin list. */
  public static final String PLUGIN_NAME = "PodSecurity";

  private static final Logger LOG = LoggerFactory.getLogger(PodSecurityAdmission.class);
  private static final int DEFAULT_MAX_PODS_TO_CHECK = 3000;
  private static final Duration DEFAULT_POD_CHECK_TIMEOUT = Duration.ofSeconds(1);

  private static final GroupResource PODS = new GroupResource("", "pods");
  private static final GroupResource NAMESPACES = new GroupResource("", "namespaces");
  // kube's DefaultPodSpecExtractor resources, with the path of their pod template
  private static final Map<GroupResource, List<String>> TEMPLATE_PATHS = Map.of(
      new GroupResource("", "replicationcontrollers"), List.of("spec", "template"),
      new GroupResource("", "podtemplates"), List.of("template"),
      new GroupResource("apps", "replicasets"), List.of("spec", "template"),
      new GroupResource("apps", "deployments"), List.of("spec", "template"),
      new GroupResource("apps", "statefulsets"), List.of("spec", "template"),
      new GroupResource("apps", "daemonsets"), List.of("spec", "template"),
      new GroupResource("batch", "jobs"), List.of("spec", "template"),
      new GroupResource("batch", "cronjobs"), List.of("spec", "jobTemplate", "spec", "template"));
  // pod subresources that cannot change the pod spec; any other is evaluated (fails safe)
  private static final Set<String> IGNORED_POD_SUBRESOURCES = Set.of("exec", "attach", "binding",
      "eviction", "log", "portforward", "proxy", "status");

  private final PodSecurityConfiguration configuration;
  private final Policy defaultPolicy;
  private final Evaluator evaluator;
  private final NamespaceLookup namespaces;
  private final PodLister pods;
  private final Clock clock;
  private final int maxPodsToCheck;
  private final Duration podCheckTimeout;

  PodSecurityAdmission(PodSecurityConfiguration configuration, Evaluator evaluator,
      NamespaceLookup namespaces, PodLister pods, Clock clock, int maxPodsToCheck,
      Duration podCheckTimeout) {
    this.configuration = requireNonNull(configuration, "configuration");
    this.evaluator = requireNonNull(evaluator, "evaluator");
    this.namespaces = requireNonNull(namespaces, "namespaces");
    this.pods = requireNonNull(pods, "pods");
    this.clock = requireNonNull(clock, "clock");
    this.maxPodsToCheck = maxPodsToCheck;
    this.podCheckTimeout = podCheckTimeout;
    List<FieldError> errors = configuration.validate();
    if (!errors.isEmpty()) {
      List<String> messages = errors.stream().map(FieldError::toString).toList();
      throw new IllegalArgumentException(PLUGIN_NAME + " invalid: " + (messages.size() == 1
          ? messages.get(0) : "[" + String.join(", ", messages) + "]"));
    }
    try {
      this.defaultPolicy = configuration.defaultPolicy();
    } catch (IllegalArgumentException e) {
      throw new IllegalArgumentException(PLUGIN_NAME + " configuration error: " + e.getMessage(),
          e);
    }
  }

  /**
   * The plugin with kube's default checks.
   *
   * @param configuration the configuration ({@link PodSecurityConfiguration#defaults()} when
   *     kube-apiserver is given none)
   * @param namespaces reads the namespace of a request (its labels give the policy)
   * @param pods lists a namespace's pods, for the dry run of a tightened enforce level
   * @param clock bounds that dry run (one second, as kube)
   * @return the plugin
   * @throws IllegalArgumentException when the configuration is invalid, with kube's
   *     {@code PodSecurity invalid: ...} message
   */
  public static PodSecurityAdmission create(PodSecurityConfiguration configuration,
      NamespaceLookup namespaces, PodLister pods, Clock clock) {
    return create(configuration, Evaluator.create(), namespaces, pods, clock);
  }

  /**
   * The plugin with another evaluator (e.g. one for an emulated version).
   *
   * @param configuration the configuration
   * @param evaluator evaluates pods
   * @param namespaces reads the namespace of a request
   * @param pods lists a namespace's pods
   * @param clock bounds the dry run of a tightened enforce level
   * @return the plugin
   * @throws IllegalArgumentException when the configuration is invalid
   */
  public static PodSecurityAdmission create(PodSecurityConfiguration configuration,
      Evaluator evaluator, NamespaceLookup namespaces, PodLister pods, Clock clock) {
    return new PodSecurityAdmission(configuration, evaluator, namespaces, pods, clock,
        DEFAULT_MAX_PODS_TO_CHECK, DEFAULT_POD_CHECK_TIMEOUT);
  }

  @Override
  public String name() {
    return PLUGIN_NAME;
  }

  @Override
  public SideEffects sideEffects() {
    return SideEffects.NONE;
  }

  /**
   * Handles CREATE and UPDATE of pods, namespaces and the workload resources with a pod
   * template.
   *
   * @param attributes the request
   * @return whether the plugin evaluates it
   */
  @Override
  public boolean handles(AdmissionAttributes attributes) {
    if (attributes.operation() != Operation.CREATE && attributes.operation() != Operation.UPDATE) {
      return false;
    }
    GroupResource gr = attributes.resource().groupResource();
    return gr.equals(PODS) || gr.equals(NAMESPACES) || TEMPLATE_PATHS.containsKey(gr);
  }

  /**
   * Evaluates the request, adds its warnings to the request's context and its audit annotations
   * (prefixed {@code pod-security.kubernetes.io/}) to the request's audit annotations, and
   * refuses it when {@link #evaluate} does.
   *
   * @param attributes the request
   * @throws StatusException 403 for an enforce violation, 422 for invalid namespace labels, 500
   *     when the pod's namespace cannot be read, 400 for an object that is not one
   */
  @Override
  public void validate(AdmissionAttributes attributes) {
    if (!handles(attributes)) {
      return;
    }
    PodSecurityResponse response = evaluate(attributes);
    response.warnings().forEach(attributes.context()::addWarning);
    new TreeMap<>(response.auditAnnotations()).forEach((k, v) ->
        attributes.auditAnnotations().add(Policy.LABEL_PREFIX + k, v));
    if (response.denial().isPresent()) {
      throw response.denial().get();
    }
  }

  /**
   * The decision on a request, as kube's {@code Admission.Validate}, without applying it.
   *
   * @param attributes the request
   * @return the decision
   */
  public PodSecurityResponse evaluate(AdmissionAttributes attributes) {
    requireNonNull(attributes, "attributes");
    GroupResource gr = attributes.resource().groupResource();
    if (gr.equals(NAMESPACES)) {
      return validateNamespace(attributes);
    }
    if (gr.equals(PODS)) {
      return validatePod(attributes);
    }
    return validatePodController(attributes);
  }

  private PodSecurityResponse validateNamespace(AdmissionAttributes a) {
    if (!a.subresource().isEmpty()) {
      return PodSecurityResponse.allow();
    }
    MapValue namespace = a.object().orElse(null);
    if (namespace == null) {
      return error(StatusErrors.badRequest("failed to decode namespace"));
    }
    Map<String, String> labels = labels(namespace);
    Policy.Evaluation next = Policy.fromLabels(labels, defaultPolicy);
    String name = requestNamespace(a);
    switch (a.operation()) {
      case CREATE -> {
        if (!next.errors().isEmpty()) {
          return invalid(a, next.errors());
        }
        if (exemptNamespace(name)) {
          Optional<String> warning = exemptNamespaceWarning(name, next.policy(), labels);
          if (warning.isPresent()) {
            return PodSecurityResponse.warn(warning.get());
          }
        }
        return PodSecurityResponse.allow();
      }
      case UPDATE -> {
        MapValue old = a.oldObject().orElse(null);
        if (old == null) {
          return error(StatusErrors.badRequest("failed to decode  old namespace"));
        }
        Policy.Evaluation previous = Policy.fromLabels(labels(old), defaultPolicy);
        if (!next.errors().isEmpty() && (previous.errors().isEmpty()
            || !next.errors().equals(previous.errors()))) {
          return invalid(a, next.errors());
        }
        LevelVersion enforce = next.policy().enforce();
        LevelVersion oldEnforce = previous.policy().enforce();
        // nothing to dry-run when enforcement did not get stricter
        if (enforce.equals(oldEnforce) || enforce.level() == Level.PRIVILEGED
            || (enforce.version().equals(oldEnforce.version())
                && enforce.level().compareTo(oldEnforce.level()) <= 0)) {
          return PodSecurityResponse.allow();
        }
        if (exemptNamespace(name)) {
          return exemptNamespaceWarning(nameOf(namespace), next.policy(), labels)
              .map(PodSecurityResponse::warn).orElse(PodSecurityResponse.allow());
        }
        return new PodSecurityResponse(Optional.empty(),
            evaluatePodsInNamespace(nameOf(namespace), enforce), Map.of());
      }
      default -> {
        return PodSecurityResponse.allow();
      }
    }
  }

  private PodSecurityResponse validatePod(AdmissionAttributes a) {
    if (IGNORED_POD_SUBRESOURCES.contains(a.subresource())) {
      return PodSecurityResponse.allow();
    }
    if (exemptNamespace(a.namespace())) {
      return PodSecurityResponse.allow(Map.of("exempt", "namespace"));
    }
    if (exemptUser(a.userInfo().name())) {
      return PodSecurityResponse.allow(Map.of("exempt", "user"));
    }
    Optional<MapValue> namespace = lookupNamespace(a.namespace());
    if (namespace.isEmpty()) {
      String message = "failed to lookup namespace " + quote(a.namespace());
      return new PodSecurityResponse(Optional.of(StatusErrors.internal(message)), List.of(),
          Map.of("error", "Internal error occurred: " + message + ": namespaces "
              + quote(a.namespace()) + " not found"));
    }
    Policy.Evaluation policy = Policy.fromLabels(labels(namespace.get()), defaultPolicy);
    if (policy.errors().isEmpty() && policy.policy().fullyPrivileged()) {
      return PodSecurityResponse.allow(Map.of("enforce-policy",
          LevelVersion.latest(Level.PRIVILEGED).toString()));
    }
    MapValue pod = a.object().orElse(null);
    if (pod == null) {
      return error(StatusErrors.badRequest("failed to decode pod"));
    }
    if (a.operation() == Operation.UPDATE) {
      MapValue old = a.oldObject().orElse(null);
      if (old == null) {
        return error(StatusErrors.badRequest("failed to decode old pod"));
      }
      if (!isSignificantPodUpdate(pod, old)) {
        return PodSecurityResponse.allow();
      }
    }
    return evaluatePod(a, policy, PodFields.map(pod, "metadata"), PodFields.map(pod, "spec"),
        true);
  }

  private PodSecurityResponse validatePodController(AdmissionAttributes a) {
    if (!a.subresource().isEmpty()) {
      return PodSecurityResponse.allow();
    }
    if (exemptNamespace(a.namespace())) {
      return PodSecurityResponse.allow(Map.of("exempt", "namespace"));
    }
    if (exemptUser(a.userInfo().name())) {
      return PodSecurityResponse.allow(Map.of("exempt", "user"));
    }
    Optional<MapValue> namespace = lookupNamespace(a.namespace());
    if (namespace.isEmpty()) {
      return PodSecurityResponse.allow(Map.of("error", "failed to lookup namespace "
          + quote(a.namespace()) + ": namespaces " + quote(a.namespace()) + " not found"));
    }
    Policy.Evaluation policy = Policy.fromLabels(labels(namespace.get()), defaultPolicy);
    if (policy.errors().isEmpty() && policy.policy().warn().level() == Level.PRIVILEGED
        && policy.policy().audit().level() == Level.PRIVILEGED) {
      return PodSecurityResponse.allow();
    }
    MapValue object = a.object().orElse(null);
    List<String> path = TEMPLATE_PATHS.get(a.resource().groupResource());
    if (object == null || path == null) {
      return PodSecurityResponse.allow(Map.of("error", "failed to decode object"));
    }
    Value template = object;
    for (String step : path) {
      template = template instanceof MapValue m ? m.getOrNull(step) : null;
    }
    boolean optionalTemplate = a.resource().groupResource().resource()
        .equals("replicationcontrollers");
    if (optionalTemplate && !(template instanceof MapValue)) {
      // a ReplicationController's template is optional: nothing to evaluate
      return PodSecurityResponse.allow();
    }
    MapValue t = template instanceof MapValue m ? m : MapValue.empty();
    return evaluatePod(a, policy, PodFields.map(t, "metadata"), PodFields.map(t, "spec"),
        false);
  }

  /** kube's {@code EvaluatePod}: enforce (for pods), audit and warn, each evaluated once. */
  private PodSecurityResponse evaluatePod(AdmissionAttributes a, Policy.Evaluation evaluation,
      MapValue podMetadata, MapValue podSpec, boolean enforce) {
    podMetadata = podMetadata == null ? MapValue.empty() : podMetadata;
    podSpec = podSpec == null ? MapValue.empty() : podSpec;
    if (exemptRuntimeClass(PodFields.stringOrNull(podSpec, "runtimeClassName"))) {
      return PodSecurityResponse.allow(Map.of("exempt", "runtimeClass"));
    }
    Policy policy = evaluation.policy();
    Map<String, String> annotations = new LinkedHashMap<>();
    if (!evaluation.errors().isEmpty()) {
      annotations.put("error", "Failed to parse policy: " + aggregate(evaluation.errors()));
    }
    Map<LevelVersion, AggregateCheckResult> cache = new HashMap<>();
    Optional<StatusException> denial = Optional.empty();
    if (enforce) {
      annotations.put("enforce-policy", policy.enforce().toString());
      AggregateCheckResult result = evaluator.aggregate(policy.enforce(), podMetadata, podSpec);
      if (!result.allowed()) {
        denial = Optional.of(StatusErrors.forbidden(a.resource().groupResource(), a.name(),
            "violates PodSecurity " + quote(policy.enforce().toString()) + ": "
                + result.forbiddenDetail()));
      }
      cache.put(policy.enforce(), result);
    }
    final MapValue meta = podMetadata;
    final MapValue spec = podSpec;
    AggregateCheckResult audit = cache.computeIfAbsent(policy.audit(),
        lv -> evaluator.aggregate(lv, meta, spec));
    if (!audit.allowed()) {
      annotations.put("audit-violations", "would violate PodSecurity "
          + quote(policy.audit().toString()) + ": " + audit.forbiddenDetail());
    }
    List<String> warnings = new ArrayList<>();
    // no warnings on a request that is refused anyway
    if (denial.isEmpty()) {
      AggregateCheckResult warn = cache.computeIfAbsent(policy.warn(),
          lv -> evaluator.aggregate(lv, meta, spec));
      if (!warn.allowed()) {
        warnings.add("would violate PodSecurity " + quote(policy.warn().toString()) + ": "
            + warn.forbiddenDetail());
      }
    }
    return new PodSecurityResponse(denial, warnings, annotations);
  }

  /**
   * kube's {@code EvaluatePodsInNamespace}: the warnings of a tightened enforce level for the
   * existing pods, grouped by reasons, bounded in pods and time.
   */
  List<String> evaluatePodsInNamespace(String namespace, LevelVersion enforce) {
    Instant deadline = clock.instant().plus(podCheckTimeout);
    List<MapValue> listed;
    try {
      listed = pods.pods(namespace);
    } catch (RuntimeException e) {
      LOG.error("failed to list pods in namespace {}", namespace, e);
      return List.of("failed to list pods while checking new PodSecurity enforce level");
    }
    if (clock.instant().isAfter(deadline)) {
      return List.of("failed to list pods while checking new PodSecurity enforce level");
    }
    List<MapValue> prioritized = prioritizePods(listed);
    int total = prioritized.size();
    if (prioritized.size() > maxPodsToCheck) {
      prioritized = prioritized.subList(0, maxPodsToCheck);
    }
    int checked = prioritized.size();
    List<String> podWarnings = new ArrayList<>();
    Map<String, String> firstPod = new HashMap<>();
    Map<String, Integer> counts = new HashMap<>();
    for (int i = 0; i < prioritized.size(); i++) {
      MapValue pod = prioritized.get(i);
      AggregateCheckResult r = evaluator.aggregate(enforce, metadata(pod),
          PodFields.map(pod, "spec") == null ? MapValue.empty() : PodFields.map(pod, "spec"));
      if (!r.allowed()) {
        String warning = r.forbiddenReason();
        String name = PodFields.string(metadata(pod), "name");
        String first = firstPod.get(warning);
        if (first == null) {
          firstPod.put(warning, name);
          podWarnings.add(warning);
        } else if (name.compareTo(first) < 0) {
          firstPod.put(warning, name);
        }
        counts.merge(warning, 1, Integer::sum);
      }
      if (clock.instant().isAfter(deadline)) {
        checked = i + 1;
        break;
      }
    }
    List<String> warnings = new ArrayList<>();
    if (checked < total) {
      warnings.add("new PodSecurity enforce level only checked against the first " + checked
          + " of " + total + " existing pods");
    }
    if (!podWarnings.isEmpty()) {
      warnings.add("existing pods in namespace " + quote(namespace)
          + " violate the new PodSecurity enforce level " + quote(enforce.toString()));
    }
    List<String> decorated = new ArrayList<>();
    for (String w : podWarnings) {
      int count = counts.get(w);
      String first = firstPod.get(w);
      decorated.add(switch (count) {
        case 1 -> first + ": " + w;
        case 2 -> first + " (and 1 other pod): " + w;
        default -> first + " (and " + (count - 1) + " other pods): " + w;
      });
    }
    decorated.sort(null);
    warnings.addAll(decorated);
    return warnings;
  }

  /**
   * kube's {@code prioritizePods}: pods with an exempt runtime class left out, the first pod of
   * each controller and the uncontrolled pods first, then the other replicas.
   */
  List<MapValue> prioritizePods(List<MapValue> listed) {
    List<MapValue> prioritized = new ArrayList<>();
    List<MapValue> duplicates = new ArrayList<>();
    Set<String> controllers = new HashSet<>();
    for (MapValue pod : listed) {
      if (exemptRuntimeClass(PodFields.stringOrNull(PodFields.map(pod, "spec"),
          "runtimeClassName"))) {
        continue;
      }
      Optional<String> controller = controllerUid(pod);
      if (controller.isEmpty()) {
        prioritized.add(pod);
      } else if (controllers.add(controller.get())) {
        prioritized.add(pod);
      } else {
        duplicates.add(pod);
      }
    }
    prioritized.addAll(duplicates);
    return prioritized;
  }

  private static Optional<String> controllerUid(MapValue pod) {
    for (MapValue ref : PodFields.maps(metadata(pod), "ownerReferences")) {
      if (Boolean.TRUE.equals(PodFields.bool(ref, "controller"))) {
        return Optional.of(PodFields.string(ref, "uid"));
      }
    }
    return Optional.empty();
  }

  /** kube's {@code isSignificantPodUpdate}: only image changes and added containers count. */
  static boolean isSignificantPodUpdate(MapValue pod, MapValue old) {
    MapValue spec = nonNull(PodFields.map(pod, "spec"));
    MapValue oldSpec = nonNull(PodFields.map(old, "spec"));
    for (String field : List.of("containers", "initContainers")) {
      List<MapValue> now = PodFields.maps(spec, field);
      List<MapValue> before = PodFields.maps(oldSpec, field);
      if (now.size() != before.size()) {
        return true;
      }
      for (int i = 0; i < now.size(); i++) {
        if (!PodFields.string(now.get(i), "image").equals(
            PodFields.string(before.get(i), "image"))) {
          return true;
        }
      }
    }
    List<MapValue> oldEphemeral = PodFields.maps(oldSpec, "ephemeralContainers");
    for (MapValue c : PodFields.maps(spec, "ephemeralContainers")) {
      String name = PodFields.string(c, "name");
      MapValue previous = oldEphemeral.stream()
          .filter(o -> PodFields.string(o, "name").equals(name)).findFirst().orElse(null);
      if (previous == null || !PodFields.string(c, "image").equals(
          PodFields.string(previous, "image"))) {
        return true;
      }
    }
    return false;
  }

  /**
   * kube's {@code exemptNamespaceWarning}: a warning when an exempt namespace sets a policy
   * that is neither fully privileged nor the default, naming the modes set by label.
   */
  Optional<String> exemptNamespaceWarning(String namespace, Policy policy,
      Map<String, String> labels) {
    if (policy.fullyPrivileged() || policy.equivalent(defaultPolicy)) {
      return Optional.empty();
    }
    List<String> parts = new ArrayList<>();
    if (policy.enforce().level() != Level.PRIVILEGED
        && (labels.containsKey(Policy.ENFORCE_LEVEL_LABEL)
            || labels.containsKey(Policy.ENFORCE_VERSION_LABEL))) {
      parts.add("enforce=" + policy.enforce());
    }
    if (policy.audit().level() != Level.PRIVILEGED
        && (labels.containsKey(Policy.AUDIT_LEVEL_LABEL)
            || labels.containsKey(Policy.AUDIT_VERSION_LABEL))) {
      parts.add("audit=" + policy.audit());
    }
    if (policy.warn().level() != Level.PRIVILEGED
        && (labels.containsKey(Policy.WARN_LEVEL_LABEL)
            || labels.containsKey(Policy.WARN_VERSION_LABEL))) {
      parts.add("warn=" + policy.warn());
    }
    return Optional.of("namespace " + quote(namespace) + " is exempt from Pod Security, and the"
        + " policy (" + String.join(", ", parts) + ") will be ignored");
  }

  private Optional<MapValue> lookupNamespace(String name) {
    try {
      return namespaces.namespace(name);
    } catch (RuntimeException e) {
      LOG.error("failed to fetch pod namespace {}", name, e);
      return Optional.empty();
    }
  }

  private boolean exemptNamespace(String namespace) {
    return !namespace.isEmpty() && configuration.exemptNamespaces().contains(namespace);
  }

  private boolean exemptUser(String user) {
    return !user.isEmpty() && configuration.exemptUsernames().contains(user);
  }

  private boolean exemptRuntimeClass(String runtimeClass) {
    return runtimeClass != null && !runtimeClass.isEmpty()
        && configuration.exemptRuntimeClasses().contains(runtimeClass);
  }

  /** The namespace a namespace request is about: the request's, else the object's name. */
  private static String requestNamespace(AdmissionAttributes a) {
    if (!a.namespace().isEmpty()) {
      return a.namespace();
    }
    return a.name().isEmpty() ? a.object().map(PodSecurityAdmission::nameOf).orElse("")
        : a.name();
  }

  private static String nameOf(MapValue object) {
    return PodFields.string(metadata(object), "name");
  }

  private static MapValue metadata(MapValue object) {
    return nonNull(PodFields.map(object, "metadata"));
  }

  private static MapValue nonNull(MapValue m) {
    return m == null ? MapValue.empty() : m;
  }

  private static Map<String, String> labels(MapValue object) {
    Map<String, String> out = new LinkedHashMap<>();
    MapValue labels = PodFields.map(metadata(object), "labels");
    if (labels != null) {
      labels.forEach((k, v) -> out.put(k, v instanceof StringValue s ? s.value() : ""));
    }
    return out;
  }

  private static PodSecurityResponse invalid(AdmissionAttributes a, List<FieldError> errors) {
    return new PodSecurityResponse(Optional.of(StatusErrors.invalid(
        new GroupKind(a.kind().group(), a.kind().kind()), a.name(), errors)), List.of(),
        Map.of());
  }

  private static PodSecurityResponse error(StatusException e) {
    return new PodSecurityResponse(Optional.of(e), List.of(),
        Map.of("error", e.status().message()));
  }

  /** Go's {@code ToAggregate().Error()} of field errors: one message, or several in brackets. */
  private static String aggregate(List<FieldError> errors) {
    Set<String> messages = new LinkedHashSet<>();
    errors.forEach(e -> messages.add(e.toString()));
    return messages.size() == 1 ? messages.iterator().next()
        : "[" + String.join(", ", messages) + "]";
  }

  private static String quote(String s) {
    return io.apiserver4j.core.GoStrings.quote(s);
  }
}
