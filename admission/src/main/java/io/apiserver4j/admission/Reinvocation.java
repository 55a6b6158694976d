/*
 * Copyright The apiserver4j authors.
 * SPDX-License-Identifier: Apache-2.0
 */
package io.apiserver4j.admission;

import static java.util.Objects.requireNonNull;

import io.apiserver4j.core.MapValue;
import java.util.HashSet;
import java.util.Objects;
import java.util.Optional;
import java.util.Set;

/**
 * One plugin's bookkeeping of kube's {@code reinvocationPolicy: IfNeeded} during one request,
 * the same for mutating webhooks and MutatingAdmissionPolicies (kube keeps one such record per
 * plugin, {@code webhookReinvokeContext} and {@code policyReinvokeContext}, in the request's
 * {@code ReinvocationContext}). Get it with {@link AdmissionContext#reinvocation(String)}.
 *
 * <p>A plugin calls, in each round of the mutating phase: {@link #beginRound} with the object it
 * receives; for each hook (a webhook, a policy with one binding and parameter) that matches,
 * {@link #skips} to learn whether the hook sits this round out; {@link #changed} when a hook
 * changed the object; {@link #invokedReinvocable} after running an IfNeeded hook; and
 * {@link #endRound} with the object it returns. Hooks named by the plugin's own keys.
 *
 * <p>The rule, as kube's: an IfNeeded hook runs again in the second round when the object
 * changed after it ran — by a later hook of the same plugin, by a later plugin (seen when the
 * second round starts with another object than the plugin last returned), or by an earlier one
 * in the second round. Thread-safe.
 */
public final class Reinvocation {
  private final AdmissionContext context;
  private MapValue lastOutput;
  private final Set<String> previouslyInvoked = new HashSet<>();
  private final Set<String> reinvoke = new HashSet<>();

  Reinvocation(AdmissionContext context) {
    this.context = context;
  }

  /**
   * Starts the plugin's round on {@code object} (empty for requests without one). In the second
   * round, an object that is not what the plugin returned last means another plugin changed
   * it: every IfNeeded hook invoked since the plugin's last change runs again.
   *
   * @param object the object the plugin receives
   */
  public synchronized void beginRound(Optional<MapValue> object) {
    requireNonNull(object, "object");
    if (context.isReinvoke() && !Objects.equals(lastOutput, object.orElse(null))) {
      requireReinvokingPreviouslyInvoked();
    }
  }

  /**
   * Whether {@code hook}, which matches the request, is skipped: a second round it is not in.
   *
   * @param hook the webhook or policy name
   * @return true when it must not run
   */
  public synchronized boolean skips(String hook) {
    requireNonNull(hook, "hook");
    return context.isReinvoke() && !reinvoke.contains(hook);
  }

  /**
   * Records that an IfNeeded {@code hook} ran: it runs again if a later change happens.
   *
   * @param hook the webhook or policy name
   */
  public synchronized void invokedReinvocable(String hook) {
    previouslyInvoked.add(requireNonNull(hook, "hook"));
  }

  /**
   * Records that a hook changed the object: the IfNeeded hooks invoked before it run again, and
   * the mutating phase is asked for its second round.
   */
  public void changed() {
    synchronized (this) {
      requireReinvokingPreviouslyInvoked();
    }
    context.requestReinvocation();
  }

  /**
   * Ends the plugin's round with the object it returns (empty for requests without one).
   *
   * @param output the plugin's result
   */
  public synchronized void endRound(Optional<MapValue> output) {
    lastOutput = requireNonNull(output, "output").orElse(null);
  }

  private void requireReinvokingPreviouslyInvoked() {
    reinvoke.addAll(previouslyInvoked);
    previouslyInvoked.clear();
  }
}
