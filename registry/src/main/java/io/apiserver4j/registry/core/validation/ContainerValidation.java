/*
 * Copyright The apiserver4j authors.
 * SPDX-License-Identifier: Apache-2.0
 */
package io.apiserver4j.registry.core.validation;

import static io.apiserver4j.apimachinery.validation.KubeValidation.index;
import static io.apiserver4j.apimachinery.validation.KubeValidation.items;
import static io.apiserver4j.apimachinery.validation.KubeValidation.str;

import io.apiserver4j.apimachinery.validation.KubeValidation;
import io.apiserver4j.apimachinery.validation.MetaValidation;
import io.apiserver4j.core.errors.FieldError;
import io.apiserver4j.core.IntegerValue;
import io.apiserver4j.core.MapValue;
import io.apiserver4j.core.Nested;
import io.apiserver4j.core.Value;
import java.util.HashSet;
import java.util.List;
import java.util.Map;
import java.util.Set;

/**
 * kube's {@code validateContainers}, {@code validateInitContainers} (sidecars included) and
 * {@code validateContainerCommon}: names, images, ports, environment, mounts, pull and
 * termination message policies, resources, resize policies, security contexts, and the host
 * port rules of a pod's containers. Stateless.
 */
final class ContainerValidation {
  private static final List<String> PULL_POLICIES = List.of("Always", "IfNotPresent", "Never");
  private static final List<String> TERMINATION_MESSAGE_POLICIES =
      List.of("File", "FallbackToLogsOnError");

  private ContainerValidation() {}

  /** What container validation needs to know of the pod. */
  record ContainerContext(Set<String> volumes, Map<String, MapValue> volumesByName,
      Set<String> podClaims, Long gracePeriod, String restartPolicy, boolean hostUsers,
      PodValidationOptions options) { }

  /** {@code validateContainers}: the common rules, unique names, probes and lifecycle. */
  static void validateContainers(List<MapValue> containers, String path,
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
      ProbeValidation.lifecycle(c.getOrNull("lifecycle"), at + ".lifecycle", ctx.gracePeriod(),
          errs);
      for (String probe : List.of("livenessProbe", "readinessProbe", "startupProbe")) {
        ProbeValidation.probe(c.getOrNull(probe), at + "." + probe, probe, ctx.gracePeriod(), errs);
      }
    }
    hostPortConflicts(containers, path, new HashSet<>(), errs);
  }

  /** {@code validateInitContainers}: sidecars (restartPolicy Always) may probe and hook. */
  static void validateInitContainers(List<MapValue> inits, List<MapValue> regular,
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
      hostPortConflicts(List.of(c), path, new HashSet<>(), errs);
      if (sidecar) {
        ProbeValidation.lifecycle(c.getOrNull("lifecycle"), at + ".lifecycle", ctx.gracePeriod(),
            errs);
        for (String probe : List.of("livenessProbe", "readinessProbe", "startupProbe")) {
          ProbeValidation.probe(c.getOrNull(probe), at + "." + probe, probe, ctx.gracePeriod(),
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
    EnvValidation.env(items(c.getOrNull("env")), at + ".env",
        ctx.options().relaxedEnvVarNames(), errs);
    EnvValidation.envFrom(items(c.getOrNull("envFrom")), at + ".envFrom",
        ctx.options().relaxedEnvVarNames(), errs);
    VolumeMountValidation.validateMounts(c, at + ".volumeMounts", ctx, errs);
    KubeValidation.requiredEnum(c, "imagePullPolicy", at + ".imagePullPolicy", PULL_POLICIES,
        errs);
    ResourceValidation.resources(Nested.map(c, "resources"), at + ".resources", false,
        ctx.podClaims(), errs);
    resizePolicy(items(c.getOrNull("resizePolicy")), at + ".resizePolicy",
        ctx.restartPolicy(), errs);
    SecurityContextValidation.containerSecurityContext(c.getOrNull("securityContext"),
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
      KubeValidation.requiredEnum(p, "protocol", at + ".protocol", PodSpecValidation.PROTOCOLS,
          errs);
    }
  }

  /** {@code validateResizePolicy}. */
  static void resizePolicy(List<MapValue> policies, String path, String podRestartPolicy,
      List<FieldError> errs) {
    Set<String> seen = new HashSet<>();
    for (int i = 0; i < policies.size(); i++) {
      MapValue p = policies.get(i);
      String resource = str(p, "resourceName");
      if (!seen.add(resource)) {
        errs.add(FieldError.duplicate(index(path, i), Value.of(resource)));
      }
      if (resource.isEmpty()) {
        errs.add(FieldError.required(path, ""));
      } else if (!resource.equals("cpu") && !resource.equals("memory")) {
        errs.add(FieldError.notSupported(path, Value.of(resource), List.of("cpu", "memory")));
      }
      String policy = str(p, "restartPolicy");
      if (policy.isEmpty()) {
        errs.add(FieldError.required(path, ""));
      } else if (!policy.equals("NotRequired") && !policy.equals("RestartContainer")) {
        errs.add(FieldError.notSupported(path, Value.of(policy),
            List.of("NotRequired", "RestartContainer")));
      }
      if (podRestartPolicy.equals("Never") && !policy.equals("NotRequired")) {
        errs.add(FieldError.invalid(path, Value.of(policy),
            "must be 'NotRequired' when `restartPolicy` is 'Never'"));
      }
    }
  }

  /** {@code validatePodHostNetworkDeps}: host ports equal container ports on the host network. */
  static void hostNetworkPorts(MapValue spec, String path, boolean resourceIsPod,
      List<FieldError> errs) {
    if (!Nested.bool(spec, "hostNetwork")) {
      return;
    }
    List<MapValue> containers = items(spec.getOrNull("containers"));
    for (int i = 0; i < containers.size(); i++) {
      List<MapValue> ports = items(containers.get(i).getOrNull("ports"));
      for (int p = 0; p < ports.size(); p++) {
        long hp = ports.get(p).getOrNull("hostPort") instanceof IntegerValue h ? h.value() : 0;
        long cp = ports.get(p).getOrNull("containerPort") instanceof IntegerValue c
            ? c.value() : 0;
        if ((resourceIsPod || hp != 0) && hp != cp) {
          errs.add(FieldError.invalid(index(index(path + ".containers", i) + ".ports", p)
              + ".hostPort", Value.of(hp), "must match `containerPort` when `hostNetwork` is true"));
        }
      }
    }
  }

  /**
   * {@code AccumulateUniqueHostPorts} over {@code containers}, indexed within that list (kube
   * checks init containers one at a time, so it names each of them {@code [0]}).
   */
  static void hostPortConflicts(List<MapValue> containers, String path, Set<String> seen,
      List<FieldError> errs) {
    for (int i = 0; i < containers.size(); i++) {
      List<MapValue> ports = items(containers.get(i).getOrNull("ports"));
      for (int p = 0; p < ports.size(); p++) {
        MapValue port = ports.get(p);
        long hp = port.getOrNull("hostPort") instanceof IntegerValue h ? h.value() : 0;
        if (hp == 0) {
          continue;
        }
        String key = str(port, "protocol") + "/" + str(port, "hostIP") + "/" + hp;
        if (!seen.add(key)) {
          errs.add(FieldError.duplicate(index(index(path, i) + ".ports", p)
              + ".hostPort", Value.of(key)));
        }
      }
    }
  }
}
