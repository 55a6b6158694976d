/*
 * Copyright The apiserver4j authors.
 * SPDX-License-Identifier: Apache-2.0
 */
package io.apiserver4j.registry.scheduling.priorityclass;

import static java.util.Objects.requireNonNull;

import io.apiserver4j.admission.AdmissionAttributes;
import io.apiserver4j.admission.AdmissionErrors;
import io.apiserver4j.admission.MutatingPlugin;
import io.apiserver4j.admission.Operation;
import io.apiserver4j.admission.SideEffects;
import io.apiserver4j.admission.ValidatingPlugin;
import io.apiserver4j.apiserver.admission.AdmissionPluginContext;
import io.apiserver4j.core.IntegerValue;
import io.apiserver4j.core.MapValue;
import io.apiserver4j.core.Meta;
import io.apiserver4j.core.Nested;
import io.apiserver4j.core.Value;
import io.apiserver4j.registry.internal.Admissions;
import io.apiserver4j.storage.CollectionKey;
import io.apiserver4j.storage.ObjectKey;
import java.util.Optional;

/**
 * kube-apiserver's {@code Priority} plugin ({@code plugin/pkg/admission/priority}):
 *
 * <ul>
 *   <li>a created Pod gets {@code spec.priority} and {@code spec.preemptionPolicy} from its
 *       {@code priorityClassName}, or from the global default PriorityClass (whose name it then
 *       gets too), or {@code 0} and {@code PreemptLowerPriority} when there is none; 403
 *       {@code no PriorityClass with name <n> was found} for a missing class, and 403 when the
 *       Pod brings a different priority or preemption policy than the class gives;
 *   <li>an updated Pod keeps the priority it had;
 *   <li>a PriorityClass with {@code globalDefault: true} is refused (403 {@code PriorityClass <n>
 *       is already marked as default. Only one default can exist}) while another one is default.
 * </ul>
 *
 * <p>Side effects: none. Thread-safe.
 */
public final class PriorityAdmission implements MutatingPlugin, ValidatingPlugin {
  /** The plugin's name in kube-apiserver. */
  public static final String NAME = "Priority";
  static final String PREEMPT_LOWER = "PreemptLowerPriority";
  private static final String GROUP = "scheduling.k8s.io";

  private final AdmissionPluginContext server;

  /**
   * A plugin reading PriorityClasses from {@code server}.
   *
   * @param server the server the plugin runs in
   */
  public PriorityAdmission(AdmissionPluginContext server) {
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
    return Admissions.isMain(a, "", "pods", Operation.CREATE, Operation.UPDATE)
        || Admissions.isMain(a, GROUP, "priorityclasses", Operation.CREATE, Operation.UPDATE);
  }

  @Override
  public MapValue admit(AdmissionAttributes a, MapValue pod) {
    if (!a.resource().resource().equals("pods")) {
      return pod;
    }
    MapValue spec = pod.getOrNull("spec") instanceof MapValue m ? m : MapValue.empty();
    if (a.operation() == Operation.UPDATE) {
      Value old = a.oldObject().map(o -> Nested.getOrNull(o, "spec", "priority")).orElse(null);
      if (!(spec.getOrNull("priority") instanceof IntegerValue) && old instanceof IntegerValue) {
        return pod.with("spec", spec.with("priority", old));
      }
      return pod;
    }
    String className = Admissions.str(spec, "priorityClassName");
    long priority;
    String preemption;
    if (className.isEmpty()) {
      Optional<MapValue> def = defaultClass();
      priority = def.map(c -> Nested.integer(c, "value")).orElse(0L);
      preemption = def.map(PriorityAdmission::preemptionPolicy).orElse(PREEMPT_LOWER);
      if (def.isPresent()) {
        spec = spec.with("priorityClassName", Value.of(Meta.metaString(def.get(), "name")));
      }
    } else {
      MapValue pc = server.get(ObjectKey.clusterScoped(GROUP, "priorityclasses", className))
          .orElseThrow(() -> AdmissionErrors.forbidden(a,
              "no PriorityClass with name " + className + " was found"));
      priority = Nested.integer(pc, "value");
      preemption = preemptionPolicy(pc);
    }
    if (spec.getOrNull("priority") instanceof IntegerValue given && given.value() != priority) {
      throw AdmissionErrors.forbidden(a, "the integer value of priority (" + given.value()
          + ") must not be provided in pod spec; priority admission controller computed "
          + priority + " from the given PriorityClass name");
    }
    String givenPolicy = Admissions.str(spec, "preemptionPolicy");
    if (!givenPolicy.isEmpty() && !givenPolicy.equals(preemption)) {
      throw AdmissionErrors.forbidden(a, "the string value of PreemptionPolicy (" + givenPolicy
          + ") must not be provided in pod spec; priority admission controller computed "
          + preemption + " from the given PriorityClass name");
    }
    MapValue out = pod.with("spec", spec.with("priority", Value.of(priority))
        .with("preemptionPolicy", Value.of(preemption)));
    return out.equals(pod) ? pod : out;
  }

  private static String preemptionPolicy(MapValue pc) {
    String p = Admissions.str(pc, "preemptionPolicy");
    return p.isEmpty() ? PREEMPT_LOWER : p;
  }

  @Override
  public void validate(AdmissionAttributes a) {
    if (!a.resource().resource().equals("priorityclasses")) {
      return;
    }
    MapValue pc = a.object().orElseThrow();
    if (!Nested.bool(pc, "globalDefault")) {
      return;
    }
    Optional<MapValue> def = defaultClass();
    if (def.isPresent()) {
      String defName = Meta.metaString(def.get(), "name");
      if (a.operation() == Operation.CREATE || !defName.equals(Meta.metaString(pc, "name"))) {
        throw AdmissionErrors.forbidden(a, "PriorityClass " + defName
            + " is already marked as default. Only one default can exist");
      }
    }
  }

  /** The global default class; with several (a race), the one with the lowest value, as kube. */
  private Optional<MapValue> defaultClass() {
    MapValue best = null;
    for (MapValue pc : server.list(CollectionKey.all(GROUP, "priorityclasses"))) {
      if (Nested.bool(pc, "globalDefault")
          && (best == null || Nested.integer(best, "value") > Nested.integer(pc, "value"))) {
        best = pc;
      }
    }
    return Optional.ofNullable(best);
  }
}
