/*
 * Copyright The apiserver4j authors.
 * SPDX-License-Identifier: Apache-2.0
 */
package io.apiserver4j.admission;

import static java.util.Objects.requireNonNull;

import io.apiserver4j.core.errors.InternalErrorException;
import io.apiserver4j.core.MapValue;
import io.apiserver4j.core.Meta;
import io.apiserver4j.core.errors.StatusErrors;
import io.apiserver4j.core.errors.StatusException;
import java.util.ArrayList;
import java.util.HashSet;
import java.util.IdentityHashMap;
import java.util.List;
import java.util.Map;
import java.util.Set;
import java.util.function.UnaryOperator;

/**
 * An ordered, immutable list of admission plugins, run the way kube-apiserver runs its
 * admission chain: every {@link MutatingPlugin} in order, each seeing the previous one's
 * output; then the caller's own validation; then every {@link ValidatingPlugin} in order on the
 * final object. The first denial ends the request.
 *
 * <p>Plugins that do not {@linkplain AdmissionPlugin#handles handle} a request are skipped.
 *
 * <p><b>Dry run.</b> On a dry-run request, a handling plugin whose side effects are
 * {@link SideEffects#SOME} or {@link SideEffects#UNKNOWN} is not called and the request fails
 * with 400 BadRequest {@code admission webhook "<name>" does not support dry run}. kube-apiserver
 * applies this rule to webhooks only (its in-tree plugins handle dry runs themselves); here it
 * applies to every plugin, since any plugin may declare side effects. The wording is kube's
 * webhook message, kept so clients see the text they know.
 *
 * <p><b>Errors.</b> A plugin's {@link StatusException} with an error code passes through
 * unchanged: plugins build kube-apiserver's own messages (e.g. via
 * {@link AdmissionErrors#forbidden}), and Invalid errors keep their causes. Everything else is
 * reported as 500 InternalError naming the plugin: a non-status exception, a status exception
 * with a non-error code, and a mutating plugin breaking its contract (returning {@code null}, or
 * changing the object's apiVersion, kind, name or namespace).
 *
 * <p>Thread-safe when its plugins are.
 */
public final class AdmissionChain {
  private static final AdmissionChain EMPTY = new AdmissionChain(List.of());

  private final List<AdmissionPlugin> plugins;
  private final List<MutatingPlugin> mutating;
  private final List<ValidatingPlugin> validating;

  private AdmissionChain(List<AdmissionPlugin> plugins) {
    this.plugins = List.copyOf(plugins);
    List<MutatingPlugin> m = new ArrayList<>();
    List<ValidatingPlugin> v = new ArrayList<>();
    for (AdmissionPlugin p : plugins) {
      if (p instanceof MutatingPlugin mp) {
        m.add(mp);
      }
      if (p instanceof ValidatingPlugin vp) {
        v.add(vp);
      }
    }
    this.mutating = List.copyOf(m);
    this.validating = List.copyOf(v);
  }

  /**
   * The chain with no plugins: admits everything unchanged.
   *
   * @return the empty chain
   */
  public static AdmissionChain empty() {
    return EMPTY;
  }

  /**
   * A builder for a chain, plugins in call order.
   *
   * @return a new, empty builder
   */
  public static Builder builder() {
    return new Builder();
  }

  /**
   * A builder holding this chain's plugins, to add more.
   *
   * @return a new builder; this chain is unchanged
   */
  public Builder newBuilder() {
    Builder b = new Builder();
    plugins.forEach(b::add);
    return b;
  }

  /**
   * All plugins in order.
   *
   * @return the plugins, mutating and validating, as added
   */
  public List<AdmissionPlugin> plugins() {
    return plugins;
  }

  /**
   * Runs the mutating phase on a request that carries an object. When a plugin asks for it
   * through the request's {@link AdmissionContext#requestReinvocation() context} (a webhook or
   * a MutatingAdmissionPolicy changed the object, see {@link Reinvocation}), the phase runs a
   * second and last time, as kube-apiserver's reinvocation: every in-JVM plugin again, webhooks
   * and policies only where their {@code reinvocationPolicy} asks.
   *
   * @return the object after the last mutating plugin; {@code attributes.object()} itself when
   *     no plugin changed it
   * @throws StatusException the first denial, or 500 for a plugin that broke its contract
   * @throws IllegalArgumentException when the attributes carry no object (use
   *     {@link #admitWithoutObject})
   * @param attributes the request, with its object
   */
  public MapValue admit(AdmissionAttributes attributes) {
    requireNonNull(attributes, "attributes");
    MapValue object = attributes.object().orElseThrow(() -> new IllegalArgumentException(
        "admit: " + attributes + " carries no object; use admitWithoutObject"));
    MapValue out = admitOnce(attributes, object);
    if (attributes.context().startReinvocation()) {
      // kube's reinvocation: every plugin again, webhooks and policies only where they ask
      out = admitOnce(attributes.withObject(out), out);
    }
    return out;
  }

  private MapValue admitOnce(AdmissionAttributes attributes, MapValue object) {
    AdmissionAttributes current = attributes;
    for (MutatingPlugin plugin : mutating) {
      if (!handles(plugin, current)) {
        continue;
      }
      MapValue out;
      try {
        out = plugin.admit(current, object);
      } catch (RuntimeException e) {
        throw translate(plugin, e);
      }
      checkMutation(plugin, object, out);
      if (out != object) {
        object = out;
        current = current.withObject(out);
      }
    }
    return object;
  }

  /**
   * Runs the mutating phase on a request without an object (DELETE, CONNECT): plugins can only
   * deny.
   *
   * @throws IllegalArgumentException when the attributes carry an object (use {@link #admit})
   * @param attributes the request, without an object
   * @throws StatusException the first denial, or 500 for a plugin that broke its contract
   */
  public void admitWithoutObject(AdmissionAttributes attributes) {
    requireNonNull(attributes, "attributes");
    if (attributes.object().isPresent()) {
      throw new IllegalArgumentException(
          "admitWithoutObject: " + attributes + " carries an object; use admit");
    }
    for (MutatingPlugin plugin : mutating) {
      if (!handles(plugin, attributes)) {
        continue;
      }
      try {
        plugin.admitWithoutObject(attributes);
      } catch (RuntimeException e) {
        throw translate(plugin, e);
      }
    }
  }

  /**
   * Runs the validating phase. Call it with the attributes of the final object (after the
   * mutating phase and schema validation).
   *
   * @param attributes the request with its final object
   * @throws StatusException the first denial, or 500 for a plugin that broke its contract
   */
  public void validate(AdmissionAttributes attributes) {
    requireNonNull(attributes, "attributes");
    for (ValidatingPlugin plugin : validating) {
      if (!handles(plugin, attributes)) {
        continue;
      }
      try {
        plugin.validate(attributes);
      } catch (RuntimeException e) {
        throw translate(plugin, e);
      }
    }
  }

  /**
   * The whole admission of a request with an object: {@link #admit}, then {@code validation} on
   * the mutated object (the caller's schema and strategy validation, which may throw), then
   * {@link #validate} on the attributes updated with the validated object.
   *
   * @param attributes the request, with its object
   * @param validation validates the mutated object and returns the object to validate against
   * @return the final object
   * @throws StatusException the first denial or validation error
   */
  public MapValue run(AdmissionAttributes attributes, UnaryOperator<MapValue> validation) {
    requireNonNull(validation, "validation");
    MapValue mutated = admit(attributes);
    MapValue validated = requireNonNull(validation.apply(mutated), "validation result");
    validate(attributes.withObject(validated));
    return validated;
  }

  private static boolean handles(AdmissionPlugin plugin, AdmissionAttributes attributes) {
    boolean handles;
    try {
      handles = plugin.handles(attributes);
    } catch (RuntimeException e) {
      throw translate(plugin, e);
    }
    if (handles && attributes.isDryRun()) {
      SideEffects sideEffects = plugin.sideEffects();
      if (sideEffects == null) {
        throw broken(plugin, "declares no side-effect class");
      }
      if (!sideEffects.supportsDryRun()) {
        throw AdmissionErrors.dryRunUnsupported(plugin.name());
      }
    }
    return handles;
  }

  private static RuntimeException translate(AdmissionPlugin plugin, RuntimeException e) {
    if (e instanceof StatusException se) {
      if (se.code() >= 400) {
        return se;
      }
      return broken(plugin, "denied the request with non-error status code " + se.code()
          + ": " + se.getMessage());
    }
    // The status model carries no Java cause; the message keeps the exception's type and text.
    return broken(plugin, "failed: " + e);
  }

  private static void checkMutation(MutatingPlugin plugin, MapValue in, MapValue out) {
    if (out == null) {
      throw broken(plugin, "returned null instead of an object");
    }
    if (out == in) {
      return;
    }
    checkUnchanged(plugin, "apiVersion", Meta.string(in, "apiVersion"),
        Meta.string(out, "apiVersion"));
    checkUnchanged(plugin, "kind", Meta.string(in, "kind"), Meta.string(out, "kind"));
    checkUnchanged(plugin, "metadata.name", Meta.metaString(in, "name"),
        Meta.metaString(out, "name"));
    checkUnchanged(plugin, "metadata.namespace", Meta.metaString(in, "namespace"),
        Meta.metaString(out, "namespace"));
  }

  private static void checkUnchanged(
      MutatingPlugin plugin, String field, String before, String after) {
    if (!before.equals(after)) {
      throw broken(plugin, "changed " + field + " from \"" + before + "\" to \"" + after + "\"");
    }
  }

  private static InternalErrorException broken(AdmissionPlugin plugin, String what) {
    return StatusErrors.internal("admission plugin \"" + plugin.name() + "\" " + what);
  }

  /**
   * Collects plugins in order. A plugin implementing both {@link MutatingPlugin} and
   * {@link ValidatingPlugin} takes part in both phases.
   */
  public static final class Builder {
    private final List<AdmissionPlugin> plugins = new ArrayList<>();
    private final Set<String> names = new HashSet<>();
    private final Map<AdmissionPlugin, Boolean> seen = new IdentityHashMap<>();

    private Builder() {}

    /**
     * Appends a plugin.
     *
     * @throws IllegalArgumentException when the plugin is neither mutating nor validating, its
     *     name is empty or already used, its side-effect class is missing, or it was already
     *     added
     * @param plugin the plugin
     * @return this builder
     */
    public Builder add(AdmissionPlugin plugin) {
      requireNonNull(plugin, "plugin");
      if (!(plugin instanceof MutatingPlugin) && !(plugin instanceof ValidatingPlugin)) {
        throw new IllegalArgumentException("admission plugin " + plugin.getClass().getName()
            + " implements neither MutatingPlugin nor ValidatingPlugin");
      }
      if (seen.put(plugin, Boolean.TRUE) != null) {
        throw new IllegalArgumentException(
            "admission plugin \"" + plugin.name() + "\" added twice");
      }
      String name = plugin.name();
      if (name == null || name.isEmpty()) {
        throw new IllegalArgumentException(
            "admission plugin " + plugin.getClass().getName() + " has no name");
      }
      if (plugin.sideEffects() == null) {
        throw new IllegalArgumentException(
            "admission plugin \"" + name + "\" declares no side-effect class");
      }
      if (!names.add(name)) {
        throw new IllegalArgumentException("duplicate admission plugin name \"" + name + "\"");
      }
      plugins.add(plugin);
      return this;
    }

    /**
     * Appends plugins in order, as {@link #add} each.
     *
     * @param more the plugins
     * @return this builder
     * @throws IllegalArgumentException as {@link #add}
     */
    public Builder addAll(List<? extends AdmissionPlugin> more) {
      more.forEach(this::add);
      return this;
    }

    /**
     * Builds the chain.
     *
     * @return the immutable chain
     */
    public AdmissionChain build() {
      return new AdmissionChain(plugins);
    }
  }
}
