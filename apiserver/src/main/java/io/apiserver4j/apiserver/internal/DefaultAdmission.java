/*
 * Copyright The apiserver4j authors.
 * SPDX-License-Identifier: Apache-2.0
 */
package io.apiserver4j.apiserver.internal;

import io.apiserver4j.admission.AdmissionChain;
import io.apiserver4j.admission.AdmissionPlugin;
import io.apiserver4j.admission.matching.ConfigurationSource;
import io.apiserver4j.admission.matching.ConfigurationSources;
import io.apiserver4j.admission.plugins.NamespaceStore;
import io.apiserver4j.apiserver.ApiRequest;
import io.apiserver4j.apiserver.ApiResponse;
import io.apiserver4j.apiserver.admission.AdmissionPluginContext;
import io.apiserver4j.apiserver.admission.BuiltinAdmissionPlugin;
import io.apiserver4j.core.GroupResource;
import io.apiserver4j.core.MapValue;
import io.apiserver4j.storage.CollectionKey;
import io.apiserver4j.storage.ListOptions;
import io.apiserver4j.storage.ObjectKey;
import io.apiserver4j.storage.StoredObject;
import io.apiserver4j.storage.Store;
import java.util.ArrayList;
import java.util.LinkedHashSet;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import java.util.Random;
import java.util.Set;
import java.util.function.Function;

/**
 * kube-apiserver's admission plugin selection ({@code --enable-admission-plugins},
 * {@code --disable-admission-plugins}) over the built-in API's ordered plugin list: which plugins
 * run, in kube's order, split around the policy and webhook stages the server adds itself.
 *
 * @param head the plugins before the policy and webhook stages, in order
 * @param tail the plugins after them (ResourceQuota), in order
 * @param disabledStages the policy and webhook stages switched off
 * @param enabled every enabled plugin name, stages included
 */
public record DefaultAdmission(List<BuiltinAdmissionPlugin> head,
    List<BuiltinAdmissionPlugin> tail, Set<String> disabledStages, Set<String> enabled) {

  /**
   * Selects the plugins as kube-apiserver does: the default-on ones plus {@code enable}, minus
   * {@code disable}.
   *
   * @param ordered the built-in API's plugins in kube's order
   * @param enable names to enable besides the defaults
   * @param disable names to switch off
   * @param implementations the slots the embedder fills, by name
   * @throws IllegalArgumentException with kube's message for an unknown name or a name in both
   *     lists, or when an explicitly enabled plugin has no implementation here
   */
  public static DefaultAdmission select(List<BuiltinAdmissionPlugin> ordered, Set<String> enable,
      Set<String> disable, Map<String, Function<AdmissionPluginContext, AdmissionPlugin>>
          implementations) {
    Set<String> known = new LinkedHashSet<>();
    ordered.forEach(p -> known.add(p.name()));
    for (String name : enable) {
      if (!known.contains(name)) {
        throw new IllegalArgumentException("enable-admission-plugins plugin \"" + name
            + "\" is unknown");
      }
    }
    for (String name : disable) {
      if (!known.contains(name)) {
        throw new IllegalArgumentException("disable-admission-plugins plugin \"" + name
            + "\" is unknown");
      }
    }
    for (String name : implementations.keySet()) {
      if (!known.contains(name)) {
        throw new IllegalArgumentException("admission plugin \"" + name
            + "\" is not in kube-apiserver's plugin order");
      }
    }
    Set<String> overlap = new LinkedHashSet<>(enable);
    overlap.retainAll(disable);
    if (!overlap.isEmpty()) {
      throw new IllegalArgumentException(List.copyOf(overlap)
          + " in enable-admission-plugins and disable-admission-plugins overlapped");
    }
    List<BuiltinAdmissionPlugin> head = new ArrayList<>();
    List<BuiltinAdmissionPlugin> tail = new ArrayList<>();
    Set<String> disabledStages = new LinkedHashSet<>();
    Set<String> enabled = new LinkedHashSet<>();
    boolean afterStages = false;
    for (BuiltinAdmissionPlugin p : ordered) {
      boolean on = (p.enabledByDefault() || enable.contains(p.name()))
          && !disable.contains(p.name());
      if (ConfiguredAdmission.STAGES.contains(p.name())) {
        afterStages = true;
        if (on) {
          enabled.add(p.name());
        } else {
          disabledStages.add(p.name());
        }
        continue;
      }
      if (!on) {
        continue;
      }
      Function<AdmissionPluginContext, AdmissionPlugin> impl = implementations.get(p.name());
      BuiltinAdmissionPlugin resolved = impl != null
          ? BuiltinAdmissionPlugin.of(p.name(), true, impl) : p;
      if (resolved.factory().isEmpty()) {
        if (enable.contains(p.name())) {
          throw new IllegalArgumentException("admission plugin \"" + p.name()
              + "\" has no implementation on this server");
        }
        // a default-on slot nobody filled (PodSecurity without its module): not run
        continue;
      }
      enabled.add(p.name());
      (afterStages ? tail : head).add(resolved);
    }
    return new DefaultAdmission(List.copyOf(head), List.copyOf(tail), Set.copyOf(disabledStages),
        Set.copyOf(enabled));
  }

  /**
   * The chain of {@code plugins} after the embedder's {@code chain}, skipping a plugin whose
   * name the embedder's chain already has (the embedder's wins).
   */
  public static AdmissionChain chain(AdmissionChain embedder, List<BuiltinAdmissionPlugin> plugins,
      AdmissionPluginContext context) {
    Set<String> taken = new LinkedHashSet<>();
    embedder.plugins().forEach(p -> taken.add(p.name()));
    AdmissionChain.Builder b = embedder.newBuilder();
    for (BuiltinAdmissionPlugin p : plugins) {
      if (!taken.contains(p.name())) {
        b.add(p.factory().orElseThrow().apply(context));
      }
    }
    return b.build();
  }

  /**
   * The chain of {@code plugins} that run after the policy and webhook stages, skipping a plugin
   * whose name the chain before them ({@code before}: the embedder's and the built-in head)
   * already has, so an embedder's plugin of that name (a {@code ResourceQuota} of its own)
   * replaces the built-in one there too.
   */
  public static AdmissionChain chainAfter(AdmissionChain before,
      List<BuiltinAdmissionPlugin> plugins, AdmissionPluginContext context) {
    Set<String> taken = new LinkedHashSet<>();
    before.plugins().forEach(p -> taken.add(p.name()));
    AdmissionChain.Builder b = AdmissionChain.builder();
    for (BuiltinAdmissionPlugin p : plugins) {
      if (!taken.contains(p.name())) {
        b.add(p.factory().orElseThrow().apply(context));
      }
    }
    return b.build();
  }

  /** The context built-in plugins read a server through. */
  public static AdmissionPluginContext context(Store store, NamespaceStore namespaces,
      ConfigurationSources sources, Random random, java.time.Clock clock,
      Map<String, MapValue> configuration, Function<ApiRequest, ApiResponse> loopback) {
    return new AdmissionPluginContext() {
      @Override
      public ConfigurationSource informer(GroupResource resource) {
        return sources.source(resource);
      }

      @Override
      public Optional<MapValue> get(ObjectKey key) {
        return store.get(key).map(StoredObject::object);
      }

      @Override
      public List<MapValue> list(CollectionKey collection) {
        List<MapValue> out = new ArrayList<>();
        store.list(collection, ListOptions.all()).items().forEach(o -> out.add(o.object()));
        return out;
      }

      @Override
      public NamespaceStore namespaces() {
        return namespaces;
      }

      @Override
      public Random random() {
        return random;
      }

      @Override
      public java.time.Clock clock() {
        return clock;
      }

      @Override
      public Optional<MapValue> configuration(String plugin) {
        return Optional.ofNullable(configuration.get(plugin));
      }

      @Override
      public MapValue updateStatus(io.apiserver4j.core.GroupVersionResource resource,
          MapValue object, io.apiserver4j.admission.UserInfo user, String fieldManager) {
        return loopback.apply(ApiRequest.builder(ApiRequest.Verb.UPDATE, resource)
            .namespace(io.apiserver4j.core.Meta.metaString(object, "namespace"))
            .name(io.apiserver4j.core.Meta.metaString(object, "name")).subresource("status")
            .options(io.apiserver4j.apiserver.UpdateOptions.defaults()).fieldManager(fieldManager)
            .user(user).body(object).build()).orThrow();
      }
    };
  }
}
