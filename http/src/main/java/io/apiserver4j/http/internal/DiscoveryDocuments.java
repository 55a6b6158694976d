/*
 * Copyright The apiserver4j authors.
 * SPDX-License-Identifier: Apache-2.0
 */
package io.apiserver4j.http.internal;

import io.apiserver4j.apiserver.ResourceDefinition;
import io.apiserver4j.core.GroupVersion;
import io.apiserver4j.core.ListValue;
import io.apiserver4j.core.MapValue;
import io.apiserver4j.core.Value;
import io.apiserver4j.core.Values;
import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import java.util.TreeMap;

/**
 * The discovery documents of one snapshot of the registry, in both of kube-apiserver's forms:
 * the legacy per-group-version {@code APIVersions}/{@code APIGroupList}/{@code APIGroup}/
 * {@code APIResourceList} and the aggregated {@code APIGroupDiscoveryList} (apidiscovery v2 and
 * v2beta1). Groups keep registration order (the core group is served under {@code /api}),
 * versions are in kube's priority order, resources sorted by name as go-restful installs them.
 *
 * <p>Immutable; rebuilt whenever the registry changes.
 */
public final class DiscoveryDocuments {
  /** One group: its name and its versions, most preferred first, each with its definitions. */
  private record Group(String name, Map<String, List<ResourceDefinition>> versions) {}

  private final List<Group> groups;
  private final Group core;

  public DiscoveryDocuments(List<ResourceDefinition> definitions) {
    Map<String, Map<String, List<ResourceDefinition>>> byGroup = new LinkedHashMap<>();
    for (ResourceDefinition d : definitions) {
      byGroup.computeIfAbsent(d.kind().group(), g -> new TreeMap<>(Versions.PRIORITY))
          .computeIfAbsent(d.kind().version(), v -> new ArrayList<>()).add(d);
    }
    List<Group> gs = new ArrayList<>();
    Group c = new Group("", Map.of());
    for (Map.Entry<String, Map<String, List<ResourceDefinition>>> e : byGroup.entrySet()) {
      Map<String, List<ResourceDefinition>> versions = new LinkedHashMap<>();
      e.getValue().forEach((v, defs) -> {
        List<ResourceDefinition> sorted = new ArrayList<>(defs);
        sorted.sort((a, b) -> Values.compareStrings(a.plural(), b.plural()));
        versions.put(v, sorted);
      });
      Group g = new Group(e.getKey(), versions);
      if (e.getKey().isEmpty()) {
        c = g;
      } else {
        gs.add(g);
      }
    }
    this.groups = List.copyOf(gs);
    this.core = c;
  }

  /** Whether {@code group/version} is served ({@code group} empty for the core group). */
  public boolean serves(GroupVersion gv) {
    return find(gv.group()).map(g -> g.versions.containsKey(gv.version())).orElse(false);
  }

  /** Whether any version of {@code group} is served. */
  public boolean servesGroup(String group) {
    return !group.isEmpty() && find(group).isPresent();
  }

  private Optional<Group> find(String group) {
    if (group.isEmpty()) {
      return core.versions.isEmpty() ? Optional.empty() : Optional.of(core);
    }
    return groups.stream().filter(g -> g.name.equals(group)).findFirst();
  }

  /** {@code GET /api}: {@code APIVersions}. */
  public MapValue apiVersions(String serverAddress) {
    ListValue.Builder versions = ListValue.builder();
    core.versions.keySet().forEach(v -> versions.add(Value.of(v)));
    return MapValue.builder()
        .put("kind", Value.of("APIVersions"))
        .put("versions", versions.build())
        .put("serverAddressByClientCIDRs", ListValue.of(List.of(MapValue.builder()
            .put("clientCIDR", Value.of("0.0.0.0/0"))
            .put("serverAddress", Value.of(serverAddress))
            .build())))
        .build();
  }

  /** {@code GET /apis}: {@code APIGroupList}. */
  public MapValue apiGroupList() {
    ListValue.Builder items = ListValue.builder();
    for (Group g : groups) {
      items.add(groupBody(g, false));
    }
    return MapValue.builder()
        .put("kind", Value.of("APIGroupList"))
        .put("apiVersion", Value.of("v1"))
        .put("groups", items.build())
        .build();
  }

  /** {@code GET /apis/{group}}: {@code APIGroup}, if the group is served. */
  public Optional<MapValue> apiGroup(String group) {
    return find(group).filter(g -> !g.name.isEmpty()).map(g -> groupBody(g, true));
  }

  private static MapValue groupBody(Group g, boolean withKind) {
    MapValue.Builder b = MapValue.builder();
    if (withKind) {
      b.put("kind", Value.of("APIGroup")).put("apiVersion", Value.of("v1"));
    }
    ListValue.Builder versions = ListValue.builder();
    for (String v : g.versions.keySet()) {
      versions.add(groupVersionForDiscovery(g.name, v));
    }
    b.put("name", Value.of(g.name))
        .put("versions", versions.build())
        .put("preferredVersion", groupVersionForDiscovery(g.name,
            g.versions.keySet().iterator().next()));
    return b.build();
  }

  private static MapValue groupVersionForDiscovery(String group, String version) {
    return MapValue.builder()
        .put("groupVersion", Value.of(new GroupVersion(group, version).apiVersion()))
        .put("version", Value.of(version))
        .build();
  }

  /** {@code GET /api/v1} or {@code /apis/{group}/{version}}: {@code APIResourceList}. */
  public Optional<MapValue> apiResourceList(GroupVersion gv) {
    Optional<Group> group = find(gv.group());
    if (group.isEmpty() || !group.get().versions.containsKey(gv.version())) {
      return Optional.empty();
    }
    ListValue.Builder resources = ListValue.builder();
    for (ResourceDefinition d : group.get().versions.get(gv.version())) {
      resources.add(apiResource(d));
      for (ResourceDefinition.Subresource sub : d.discoverySubresources()) {
        MapValue.Builder s = MapValue.builder()
            .put("name", Value.of(d.plural() + "/" + sub.name()))
            .put("singularName", Value.of(""))
            .put("namespaced", Value.of(d.namespaced()));
        // group and version only when they differ from the parent's, as kube writes them
        if (!sub.kind().groupVersion().equals(d.kind().groupVersion())) {
          s.put("group", Value.of(sub.kind().group()))
              .put("version", Value.of(sub.kind().version()));
        }
        s.put("kind", Value.of(sub.kind().kind()));
        s.put("verbs", strings(sub.verbs()));
        resources.add(s.build());
      }
    }
    MapValue.Builder b = MapValue.builder().put("kind", Value.of("APIResourceList"));
    if (!gv.group().isEmpty()) {
      b.put("apiVersion", Value.of("v1"));
    }
    return Optional.of(b.put("groupVersion", Value.of(gv.apiVersion()))
        .put("resources", resources.build())
        .build());
  }

  private static MapValue apiResource(ResourceDefinition d) {
    MapValue.Builder b = MapValue.builder()
        .put("name", Value.of(d.plural()))
        .put("singularName", Value.of(d.singular()))
        .put("namespaced", Value.of(d.namespaced()))
        .put("kind", Value.of(d.kind().kind()))
        .put("verbs", strings(d.verbs()));
    if (!d.shortNames().isEmpty()) {
      b.put("shortNames", strings(d.shortNames()));
    }
    if (!d.categories().isEmpty()) {
      b.put("categories", strings(d.categories()));
    }
    if (!d.storageVersionHash().isEmpty()) {
      b.put("storageVersionHash", Value.of(d.storageVersionHash()));
    }
    return b.build();
  }

  /**
   * {@code GET /api} or {@code /apis} with an aggregated-discovery Accept:
   * {@code APIGroupDiscoveryList} in apidiscovery {@code version} ({@code v2} or {@code v2beta1}).
   */
  public MapValue aggregated(boolean legacyCore, String version) {
    ListValue.Builder items = ListValue.builder();
    if (legacyCore) {
      if (!core.versions.isEmpty()) {
        items.add(aggregatedGroup(core));
      }
    } else {
      for (Group g : groups) {
        items.add(aggregatedGroup(g));
      }
    }
    return MapValue.builder()
        .put("kind", Value.of("APIGroupDiscoveryList"))
        .put("apiVersion", Value.of("apidiscovery.k8s.io/" + version))
        .put("metadata", MapValue.empty())
        .put("items", items.build())
        .build();
  }

  private static MapValue aggregatedGroup(Group g) {
    MapValue.Builder meta = MapValue.builder();
    if (!g.name.isEmpty()) {
      meta.put("name", Value.of(g.name));
    }
    meta.put("creationTimestamp", Value.nullValue());
    ListValue.Builder versions = ListValue.builder();
    g.versions.forEach((v, defs) -> {
      ListValue.Builder resources = ListValue.builder();
      for (ResourceDefinition d : defs) {
        resources.add(aggregatedResource(d));
      }
      versions.add(MapValue.builder()
          .put("version", Value.of(v))
          .put("resources", resources.build())
          .put("freshness", Value.of("Current"))
          .build());
    });
    return MapValue.builder().put("metadata", meta.build()).put("versions", versions.build())
        .build();
  }

  private static MapValue aggregatedResource(ResourceDefinition d) {
    MapValue.Builder b = MapValue.builder()
        .put("resource", Value.of(d.plural()))
        .put("responseKind", kind("", "", d.kind().kind()))
        .put("scope", Value.of(d.namespaced() ? "Namespaced" : "Cluster"))
        .put("singularResource", Value.of(d.singular()));
    if (!d.shortNames().isEmpty()) {
      b.put("shortNames", strings(d.shortNames()));
    }
    if (!d.categories().isEmpty()) {
      b.put("categories", strings(d.categories()));
    }
    b.put("verbs", strings(d.verbs()));
    if (!d.discoverySubresources().isEmpty()) {
      ListValue.Builder sb = ListValue.builder();
      for (ResourceDefinition.Subresource sub : d.discoverySubresources()) {
        boolean sameGroupVersion = sub.kind().groupVersion().equals(d.kind().groupVersion());
        sb.add(MapValue.builder()
            .put("subresource", Value.of(sub.name()))
            .put("responseKind", sameGroupVersion ? kind("", "", sub.kind().kind())
                : kind(sub.kind().group(), sub.kind().version(), sub.kind().kind()))
            .put("verbs", strings(sub.verbs()))
            .build());
      }
      b.put("subresources", sb.build());
    }
    return b.build();
  }

  private static MapValue kind(String group, String version, String kind) {
    return MapValue.builder().put("group", Value.of(group)).put("version", Value.of(version))
        .put("kind", Value.of(kind)).build();
  }

  private static ListValue strings(List<String> values) {
    ListValue.Builder b = ListValue.builder(values.size());
    values.forEach(v -> b.add(Value.of(v)));
    return b.build();
  }
}
