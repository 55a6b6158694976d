/*
 * Copyright The apiserver4j authors.
 * SPDX-License-Identifier: Apache-2.0
 */
package io.apiserver4j.registry.core.validation;

import static io.apiserver4j.apimachinery.validation.KubeValidation.items;
import static io.apiserver4j.apimachinery.validation.KubeValidation.str;

import io.apiserver4j.apimachinery.validation.KubeValidation;
import io.apiserver4j.apimachinery.validation.MetaValidation;
import io.apiserver4j.core.errors.FieldError;
import io.apiserver4j.core.IntegerValue;
import io.apiserver4j.core.MapValue;
import io.apiserver4j.core.Nested;
import io.apiserver4j.core.StringValue;
import io.apiserver4j.core.Value;
import io.apiserver4j.registry.core.validation.ContainerValidation.ContainerContext;
import java.util.List;
import java.util.Set;

/**
 * kube's {@code ValidatePodSpec} and {@code ValidatePodTemplateSpec}
 * ({@code pkg/apis/core/validation}), the entry point Pods and every kind with a pod template call: each concern's rules live in its
 * own class of this package and run here in kube's order, with kube's field paths (their quirks
 * included) and messages, for the feature gates 1.36 enables by default. Stateless.
 */
public final class PodSpecValidation {
  /** kube's {@code supportedPortProtocols}: the protocols of container and service ports. */
  public static final List<String> PROTOCOLS = List.of("SCTP", "TCP", "UDP");
  private static final List<String> RESTART_POLICIES = List.of("Always", "OnFailure", "Never");
  private static final List<String> DNS_POLICIES =
      List.of("ClusterFirstWithHostNet", "ClusterFirst", "Default", "None");

  private PodSpecValidation() {}

  /**
   * The labels and annotations of a pod template's metadata ({@code ValidatePodTemplateSpec}),
   * added to {@code errs}; a null {@code template} has none.
   */
  public static void templateMetadata(MapValue template, String path, List<FieldError> errs) {
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
  public enum SpecOf { POD, TEMPLATE }

  /**
   * {@code ValidatePodSpec} of a template's spec at {@code path}, errors added to {@code errs};
   * a null {@code spec} is validated as an empty one.
   */
  public static void validatePodSpec(MapValue spec, String path, List<FieldError> errs) {
    validatePodSpec(spec, path, SpecOf.TEMPLATE, errs);
  }

  /**
   * {@code ValidatePodSpec} of a Pod's or a template's spec at {@code path}, in kube's order,
   * errors added to {@code errs}; a null {@code spec} is validated as an empty one.
   */
  public static void validatePodSpec(MapValue spec, String path, SpecOf of, List<FieldError> errs) {
    validatePodSpec(spec, path, of, PodValidationOptions.RELAXED, errs);
  }

  /**
   * {@code ValidatePodSpec} with the options of the emulated release's feature gates (see
   * {@link PodValidationOptions#of}).
   */
  public static void validatePodSpec(MapValue spec, String path, SpecOf of,
      PodValidationOptions options, List<FieldError> errs) {
    MapValue s = spec == null ? MapValue.empty() : spec;
    Set<String> volumes = VolumeValidation.validateVolumes(s.getOrNull("volumes"),
        path + ".volumes", of, errs);
    Long grace = s.getOrNull("terminationGracePeriodSeconds") instanceof IntegerValue g
        ? g.value() : null;
    Set<String> claims = ResourceClaimValidation.podResourceClaims(s, path + ".resourceClaims",
        errs);
    ContainerContext ctx = new ContainerContext(volumes, VolumeValidation.volumesByName(s),
        claims, grace, str(s, "restartPolicy"), SecurityContextValidation.hostUsers(s),
        options);
    List<MapValue> containers = items(s.getOrNull("containers"));
    if (containers.isEmpty()) {
      errs.add(FieldError.required(path + ".containers", ""));
    }
    ContainerValidation.validateContainers(containers, path + ".containers", ctx, errs);
    ContainerValidation.validateInitContainers(items(s.getOrNull("initContainers")), containers,
        path + ".initContainers", ctx, errs);
    ResourceValidation.podResources(s, path + ".resources", claims, errs);
    ContainerValidation.hostNetworkPorts(s, path, of == SpecOf.POD, errs);
    KubeValidation.requiredEnum(s, "restartPolicy", path + ".restartPolicy", RESTART_POLICIES,
        errs);
    KubeValidation.requiredEnum(s, "dnsPolicy", path + ".dnsPolicy", DNS_POLICIES, errs);
    errs.addAll(MetaValidation.labels(s.getOrNull("nodeSelector"), path + ".nodeSelector"));
    SecurityContextValidation.podSecurityContext(s, path, errs);
    AffinityValidation.affinity(s.getOrNull("affinity"), path + ".affinity", errs);
    DnsValidation.dnsConfig(s, path + ".dnsConfig", options.relaxedDnsSearch(), errs);
    SchedulingValidation.gates(s, path, errs);
    SchedulingValidation.topologySpread(items(s.getOrNull("topologySpreadConstraints")),
        path + ".topologySpreadConstraints", errs);
    SecurityContextValidation.hostUsers(s, path, errs);
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
    SchedulingValidation.validateTolerations(items(s.getOrNull("tolerations")),
        path + ".tolerations", errs);
    DnsValidation.hostAliases(items(s.getOrNull("hostAliases")), path + ".hostAliases", errs);
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
    OsValidation.os(s, path, errs);
  }

  /**
   * {@code ValidateTolerations} of {@code tolerations} at {@code path} (also RuntimeClasses'
   * scheduling), errors added to {@code errs}.
   */
  public static void validateTolerations(List<MapValue> tolerations, String path,
      List<FieldError> errs) {
    SchedulingValidation.validateTolerations(tolerations, path, errs);
  }

  private static final String SELECTOR_MISMATCH = "`selector` does not match template `labels`";

  /** The labels of {@code spec.template.metadata}; empty when absent. */
  public static MapValue templateLabels(MapValue spec) {
    MapValue l = Nested.mapOrNull(spec, "template", "metadata", "labels");
    return l == null ? MapValue.empty() : l;
  }

  /**
   * kube's {@code ValidatePodTemplateSpecForReplicaSet} (and its ReplicationController twin): the
   * template is required, its labels match the selector (when {@code checkMatch}), its metadata
   * and pod spec are valid, its restart policy is Always and it sets no activeDeadlineSeconds.
   */
  public static void controllerTemplate(MapValue spec, boolean matches, boolean checkMatch,
      String workload, List<FieldError> errs) {
    controllerTemplate(spec, matches, checkMatch, workload, PodValidationOptions.RELAXED, errs);
  }

  /** {@link #controllerTemplate} with the pod validation options of the server's gates. */
  public static void controllerTemplate(MapValue spec, boolean matches, boolean checkMatch,
      String workload, PodValidationOptions options, List<FieldError> errs) {
    MapValue template = Nested.mapOrNull(spec, "template");
    if (template == null) {
      errs.add(FieldError.required("spec.template", ""));
      return;
    }
    if (checkMatch && !matches) {
      errs.add(FieldError.invalid("spec.template.metadata.labels", templateLabels(spec),
          SELECTOR_MISMATCH));
    }
    templateMetadata(template, "spec.template", errs);
    validatePodSpec(Nested.mapOrNull(template, "spec"), "spec.template.spec", SpecOf.TEMPLATE,
        options, errs);
    String rp = str(template, "spec", "restartPolicy");
    if (!rp.equals("Always")) {
      errs.add(FieldError.notSupported("spec.template.spec.restartPolicy", Value.of(rp),
          List.of("Always")));
    }
    Value ads = Nested.getOrNull(template, "spec", "activeDeadlineSeconds");
    if (ads instanceof IntegerValue) {
      errs.add(FieldError.invalid("spec.template.spec.activeDeadlineSeconds", ads,
          "activeDeadlineSeconds in " + workload + " is not Supported"));
    }
  }
}
