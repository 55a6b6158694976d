/*
 * Copyright The apiserver4j authors.
 * SPDX-License-Identifier: Apache-2.0
 */
package io.apiserver4j.admission;

import static java.util.Objects.requireNonNull;

import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.function.Supplier;

/**
 * What the admission of one request accumulates besides the object: warnings for the client,
 * audit annotations, and the reinvocation state of the mutating phase (kube's
 * {@code ReinvocationContext}). Every {@link AdmissionAttributes} of one request share one
 * context; the request path creates it and reads warnings and annotations afterwards.
 *
 * <p>The only mutable type of the admission API besides builders; thread-safe (validating
 * webhooks are called in parallel).
 */
public final class AdmissionContext {
  private final List<String> warnings = new ArrayList<>();
  private final Map<String, String> auditAnnotations = new LinkedHashMap<>();
  private final Map<String, Object> pluginState = new LinkedHashMap<>();
  private final Map<String, Reinvocation> reinvocations = new LinkedHashMap<>();
  private boolean reinvoking;
  private boolean reinvocationRequested;

  private AdmissionContext() {}

  /**
   * A fresh context for one request.
   *
   * @return a new, empty context
   */
  public static AdmissionContext create() {
    return new AdmissionContext();
  }

  /**
   * Adds a warning for the client (an HTTP {@code Warning} header).
   *
   * @param warning the warning text
   */
  public synchronized void addWarning(String warning) {
    warnings.add(requireNonNull(warning, "warning"));
  }

  /**
   * The warnings added so far.
   *
   * @return a snapshot, in the order added
   */
  public synchronized List<String> warnings() {
    return List.copyOf(warnings);
  }

  /**
   * Adds an audit annotation, as kube's {@code Attributes.AddAnnotation}.
   *
   * @return false (and changes nothing) when {@code key} already has another value
   * @param key the annotation key
   * @param value the value
   */
  public synchronized boolean addAuditAnnotation(String key, String value) {
    requireNonNull(key, "key");
    requireNonNull(value, "value");
    String before = auditAnnotations.putIfAbsent(key, value);
    return before == null || before.equals(value);
  }

  /**
   * The audit annotations added so far.
   *
   * @return a snapshot, in the order added
   */
  public synchronized Map<String, String> auditAnnotations() {
    return java.util.Collections.unmodifiableMap(new LinkedHashMap<>(auditAnnotations));
  }

  /**
   * Whether the mutating phase runs for the second time (reinvocation).
   *
   * @return true in the second round
   */
  public synchronized boolean isReinvoke() {
    return reinvoking;
  }

  /**
   * Asks for the mutating phase to run once more (a plugin changed the object after a plugin
   * that wants to see later changes); has no effect during the second run.
   */
  public synchronized void requestReinvocation() {
    reinvocationRequested = true;
  }

  /**
   * Starts the second run if one was requested and none ran yet.
   *
   * @return whether the phase should run again
   */
  synchronized boolean startReinvocation() {
    if (reinvoking || !reinvocationRequested) {
      return false;
    }
    reinvoking = true;
    return true;
  }

  /**
   * The reinvocation bookkeeping of {@code plugin} for this request, the one mechanism by which
   * webhooks and policies with {@code reinvocationPolicy: IfNeeded} run again.
   *
   * @param plugin the plugin name
   * @return the plugin's bookkeeping, created on first use
   */
  public synchronized Reinvocation reinvocation(String plugin) {
    requireNonNull(plugin, "plugin");
    return reinvocations.computeIfAbsent(plugin, k -> new Reinvocation(this));
  }

  /**
   * A plugin's own state for this request (e.g. which webhooks to reinvoke), created by
   * {@code initial} on first use.
   *
   * @param <T> the state's type
   * @param plugin the plugin name
   * @param initial creates the state
   * @return the plugin's state
   */
  @SuppressWarnings("unchecked")
  public synchronized <T> T pluginState(String plugin, Supplier<T> initial) {
    requireNonNull(plugin, "plugin");
    return (T) pluginState.computeIfAbsent(plugin, k -> requireNonNull(initial.get(), "state"));
  }
}
