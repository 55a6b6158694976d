/*
 * Copyright The apiserver4j authors.
 * SPDX-License-Identifier: Apache-2.0
 */
package io.apiserver4j.registry.core.pod;

import io.apiserver4j.apiserver.ResourceStrategy;
import io.apiserver4j.core.errors.FieldError;
import io.apiserver4j.apiserver.CreateCall;
import io.apiserver4j.apiserver.SubresourceCreate;
import io.apiserver4j.core.errors.FieldError;
import io.apiserver4j.core.GroupResource;
import io.apiserver4j.core.ListValue;
import io.apiserver4j.core.MapValue;
import io.apiserver4j.core.Meta;
import io.apiserver4j.core.Nested;
import io.apiserver4j.core.errors.Status;
import io.apiserver4j.core.errors.StatusErrors;
import io.apiserver4j.core.errors.StatusException;
import io.apiserver4j.core.errors.StatusReason;
import io.apiserver4j.core.Value;
import io.apiserver4j.registry.internal.Loopback;
import java.time.temporal.ChronoUnit;
import java.util.ArrayList;
import java.util.List;
import java.util.Optional;
import java.util.stream.Collectors;

/**
 * {@code pods/binding} and the legacy {@code bindings} resource as kube-apiserver's
 * {@code BindingREST}: the pod named by the Binding is assigned to the target node in one
 * storage update (no strategy, no pod admission), with the Binding's annotations, its labels
 * (overwriting the pod's, as kube does while {@code PodTopologyLabelsAdmission} is on) and the
 * {@code PodScheduled} condition; a pod already assigned, being deleted or gated is refused with
 * kube's 409.
 */
final class PodBinding implements SubresourceCreate {
  private static final GroupResource BINDING = new GroupResource("", "pods/binding");

  @Override
  public MapValue create(CreateCall call) {
    MapValue binding = call.object();
    String name = Meta.metaString(binding, "name");
    if (!call.name().equals(name)) {
      throw StatusErrors.badRequest("name in URL does not match name in Binding object");
    }
    List<FieldError> errs = new ArrayList<>();
    String kind = Nested.str(binding, "target", "kind");
    if (!kind.isEmpty() && !kind.equals("Node")) {
      errs.add(FieldError.notSupported("target.kind", Value.of(kind), List.of("Node",
          "<empty>")));
    }
    String node = Nested.str(binding, "target", "name");
    if (node.isEmpty()) {
      errs.add(FieldError.required("target.name", ""));
    }
    if (!errs.isEmpty()) {
      // kube returns the aggregated field errors as a plain error: a 500 without reason
      throw StatusException.of(Status.failure(StatusReason.UNKNOWN, aggregate(errs)));
    }
    call.validation().accept(binding);
    if (name.isEmpty()) {
      // the pod's storage key needs a name: kube's NamespaceKeyFunc
      throw StatusErrors.badRequest("Name parameter required.");
    }
    String uid = Meta.metaString(binding, "uid");
    String rv = Meta.metaString(binding, "resourceVersion");
    MapValue annotations = Nested.mapOrNull(binding, "metadata", "annotations");
    MapValue labels = Nested.mapOrNull(binding, "metadata", "labels");
    String time = call.now().truncatedTo(ChronoUnit.SECONDS).toString();
    call.storage().update(Loopback.PODS, name, uid.isEmpty() ? Optional.empty()
        : Optional.of(uid), rv.isEmpty() ? Optional.empty() : Optional.of(rv), pod -> {
          if (Meta.hasMeta(pod, "deletionTimestamp")) {
            throw refused(name, "pod " + name + " is being deleted, cannot be assigned to a"
                + " host");
          }
          String current = Nested.str(pod, "spec", "nodeName");
          if (!current.isEmpty()) {
            throw refused(name, "pod " + name + " is already assigned to node \"" + current
                + "\"");
          }
          if (!Nested.list(pod, "spec", "schedulingGates").isEmpty()) {
            throw refused(name, "pod " + name + " has non-empty .spec.schedulingGates");
          }
          MapValue bound = Nested.set(pod, Value.of(node), "spec", "nodeName");
          if (annotations != null && !annotations.isEmpty()) {
            MapValue merged = Nested.map(bound, "metadata", "annotations");
            for (int i = 0; i < annotations.size(); i++) {
              merged = merged.with(annotations.keyAt(i), annotations.valueAt(i));
            }
            bound = Nested.set(bound, merged, "metadata", "annotations");
          }
          if (labels != null && !labels.isEmpty()) {
            // the topology labels PodTopologyLabels put on the Binding (its gate is on in 1.36)
            MapValue merged = Nested.map(bound, "metadata", "labels");
            for (int i = 0; i < labels.size(); i++) {
              merged = merged.with(labels.keyAt(i), labels.valueAt(i));
            }
            bound = Nested.set(bound, merged, "metadata", "labels");
          }
          return Nested.set(bound, scheduled(pod, time), "status", "conditions");
        });
    return MapValue.ofEntries("kind", Value.of("Status"), "apiVersion", Value.of("v1"),
        "metadata", MapValue.empty(), "status", Value.of("Success"));
  }

  /**
   * kube's {@code UpdatePodCondition} with {@code PodScheduled=True}; its zero lastProbeTime is
   * written as Go writes a zero metav1.Time, {@code null}.
   */
  private static ListValue scheduled(MapValue pod, String time) {
    MapValue condition = MapValue.ofEntries("type", Value.of("PodScheduled"),
        "status", Value.of("True"), "lastProbeTime", Value.nullValue(),
        "lastTransitionTime", Value.of(time));
    ListValue.Builder out = ListValue.builder(4);
    boolean found = false;
    for (Value c : Nested.list(pod, "status", "conditions")) {
      if (c instanceof MapValue m && Nested.str(m, "type").equals("PodScheduled")) {
        found = true;
        out.add(Nested.str(m, "status").equals("True") && m.getOrNull("lastTransitionTime") != null
            ? condition.with("lastTransitionTime", m.getOrNull("lastTransitionTime"))
            : condition);
      } else {
        out.add(c);
      }
    }
    if (!found) {
      out.add(condition);
    }
    return out.build();
  }

  private static StatusException refused(String name, String reason) {
    return StatusErrors.conflict(BINDING, name, reason);
  }

  /** kube's aggregate of field errors: one error alone, several in brackets. */
  private static String aggregate(List<FieldError> errs) {
    if (errs.size() == 1) {
      return errs.get(0).toString();
    }
    return errs.stream().map(FieldError::toString).collect(Collectors.joining(", ", "[", "]"));
  }
}
