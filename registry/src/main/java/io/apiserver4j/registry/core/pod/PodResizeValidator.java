/*
 * Copyright The apiserver4j authors.
 * SPDX-License-Identifier: Apache-2.0
 */
package io.apiserver4j.registry.core.pod;

import static java.util.Objects.requireNonNull;

import io.apiserver4j.admission.AdmissionAttributes;
import io.apiserver4j.admission.AdmissionErrors;
import io.apiserver4j.admission.Operation;
import io.apiserver4j.admission.SideEffects;
import io.apiserver4j.admission.ValidatingPlugin;
import io.apiserver4j.apimachinery.validation.GroupRules.Quantity;
import io.apiserver4j.apimachinery.validation.KubeValidation;
import io.apiserver4j.apiserver.admission.AdmissionPluginContext;
import io.apiserver4j.core.MapValue;
import io.apiserver4j.core.Meta;
import io.apiserver4j.core.Nested;
import io.apiserver4j.core.Value;
import io.apiserver4j.core.errors.ForbiddenException;
import io.apiserver4j.core.errors.StatusCause;
import io.apiserver4j.core.errors.StatusDetails;
import io.apiserver4j.storage.ObjectKey;
import java.math.BigDecimal;
import java.math.RoundingMode;
import java.util.ArrayList;
import java.util.List;

/**
 * kube-apiserver's {@code PodResizeValidator} plugin ({@code plugin/pkg/admission/podresize}, new
 * in 1.36 and on while {@code InPlacePodVerticalScaling} is, GA since 1.35): an update through
 * {@code pods/resize} of a Pod bound to a node whose generation the update changed is refused
 * (403) when the node is missing ({@code node "<n>" not found}), when the Pod's CPU or memory
 * requests after the resize exceed the node's allocatable ({@code Node didn't have enough
 * allocatable resources: cpu, requested: <milli>, allocatable: <milli>; memory, ...}, with a
 * {@code NodeCapacity} cause), or when the node is not labelled {@code kubernetes.io/os: linux}
 * ({@code pod resize is only supported on linux nodes, node "<n>" is "<os>"}, with an
 * {@code UnsupportedPlatform} cause). Requests are counted as kube's {@code GetResourceRequest}:
 * pod-level requests when set, else the containers' sum with restartable init containers and
 * the largest init container, plus the overhead when non-zero. Side effects: none. Thread-safe.
 */
public final class PodResizeValidator implements ValidatingPlugin {
  /** The plugin's name in kube-apiserver. */
  public static final String NAME = "PodResizeValidator";
  static final String NODE_CAPACITY = "NodeCapacity";
  static final String UNSUPPORTED_PLATFORM = "UnsupportedPlatform";

  private final AdmissionPluginContext server;

  /**
   * A plugin reading Nodes from {@code server}.
   *
   * @param server the server the plugin runs in
   */
  public PodResizeValidator(AdmissionPluginContext server) {
    this.server = requireNonNull(server, "server");
  }

  @Override
  public String name() {
    return NAME;
  }

  @Override
  public SideEffects sideEffects() {
    return SideEffects.NONE;
  }

  @Override
  public boolean handles(AdmissionAttributes a) {
    return a.operation() == Operation.UPDATE && a.resource().group().isEmpty()
        && a.resource().resource().equals("pods") && a.subresource().equals("resize");
  }

  @Override
  public void validate(AdmissionAttributes a) {
    MapValue pod = a.object().orElse(null);
    MapValue old = a.oldObject().orElse(null);
    if (pod == null || old == null) {
      return;
    }
    String nodeName = Nested.str(pod, "spec", "nodeName");
    // the generation moves only with the spec: an unchanged one resizes nothing
    if (nodeName.isEmpty() || Meta.generation(old) == Meta.generation(pod)) {
      return;
    }
    MapValue node = server.get(ObjectKey.clusterScoped("", "nodes", nodeName)).orElseThrow(
        () -> AdmissionErrors.forbidden(a, "node \"" + nodeName + "\" not found"));
    long cpuAllocatable = milli(Nested.getOrNull(node, "status", "allocatable", "cpu"));
    long memAllocatable = units(Nested.getOrNull(node, "status", "allocatable", "memory"));
    long cpuRequests = ceil(podRequest(pod, "cpu").movePointRight(3));
    long memRequests = ceil(podRequest(pod, "memory"));
    List<String> msg = new ArrayList<>();
    if (cpuRequests > cpuAllocatable) {
      msg.add("cpu, requested: " + cpuRequests + ", allocatable: " + cpuAllocatable);
    }
    if (memRequests > memAllocatable) {
      msg.add("memory, requested: " + memRequests + ", allocatable: " + memAllocatable);
    }
    if (!msg.isEmpty()) {
      throw withCause(AdmissionErrors.forbidden(a,
          "Node didn't have enough allocatable resources: " + String.join("; ", msg)),
          NODE_CAPACITY);
    }
    String os = Meta.labels(node).getOrDefault("kubernetes.io/os", "");
    if (!os.equals("linux")) {
      throw withCause(AdmissionErrors.forbidden(a, "pod resize is only supported on linux nodes,"
          + " node \"" + nodeName + "\" is \"" + os + "\""), UNSUPPORTED_PLATFORM);
    }
  }

  private static ForbiddenException withCause(ForbiddenException e, String type) {
    StatusDetails details = e.status().details().orElseThrow();
    List<StatusCause> causes = new ArrayList<>(details.causes());
    causes.add(new StatusCause(type, "", ""));
    return new ForbiddenException(e.status().withDetails(details.withCauses(causes)));
  }

  /**
   * kube's {@code GetResourceRequestQuantity} for CPU or memory: the pod-level request when the
   * Pod sets pod-level resources, else the containers' aggregate; the overhead is added to a
   * non-zero total.
   */
  static BigDecimal podRequest(MapValue pod, String resource) {
    MapValue spec = Nested.map(pod, "spec");
    BigDecimal total;
    if (podLevelSet(spec)) {
      total = quantity(Nested.getOrNull(spec, "resources", "requests", resource));
    } else {
      total = containerRequests(spec, resource);
    }
    if (total.signum() != 0) {
      total = total.add(quantity(Nested.getOrNull(spec, "overhead", resource)));
    }
    return total;
  }

  /** kube's {@code IsPodLevelResourcesSet}: a CPU, memory or hugepages pod-level entry. */
  private static boolean podLevelSet(MapValue spec) {
    for (String list : List.of("requests", "limits")) {
      MapValue m = Nested.mapOrNull(spec, "resources", list);
      if (m != null) {
        for (int i = 0; i < m.size(); i++) {
          String name = m.keyAt(i);
          if (name.equals("cpu") || name.equals("memory") || name.startsWith("hugepages-")) {
            return true;
          }
        }
      }
    }
    return false;
  }

  /** kube's {@code AggregateContainerRequests} for one resource, without status resources. */
  private static BigDecimal containerRequests(MapValue spec, String resource) {
    BigDecimal sum = BigDecimal.ZERO;
    for (Value c : Nested.list(spec, "containers")) {
      sum = sum.add(request(c, resource));
    }
    BigDecimal sidecars = BigDecimal.ZERO;
    BigDecimal inits = null;
    for (Value c : Nested.list(spec, "initContainers")) {
      BigDecimal r = request(c, resource);
      BigDecimal effective;
      if (Nested.str(c, "restartPolicy").equals("Always")) {
        sum = sum.add(r);
        sidecars = sidecars.add(r);
        effective = sidecars;
      } else {
        effective = r.add(sidecars);
      }
      if (inits == null || effective.compareTo(inits) > 0) {
        inits = effective;
      }
    }
    return inits != null && inits.compareTo(sum) > 0 ? inits : sum;
  }

  private static BigDecimal request(Value container, String resource) {
    return quantity(Nested.getOrNull(container, "resources", "requests", resource));
  }

  private static BigDecimal quantity(Value v) {
    if (v == null) {
      return BigDecimal.ZERO;
    }
    return Quantity.parse(KubeValidation.quantityString(v)).map(Quantity::value)
        .orElse(BigDecimal.ZERO);
  }

  /** Go's {@code Quantity.MilliValue}: rounded up. */
  private static long milli(Value v) {
    return ceil(quantity(v).movePointRight(3));
  }

  /** Go's {@code Quantity.Value}: rounded up. */
  private static long units(Value v) {
    return ceil(quantity(v));
  }

  private static long ceil(BigDecimal d) {
    return d.setScale(0, RoundingMode.CEILING).longValue();
  }
}
