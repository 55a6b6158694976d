/*
 * Copyright The apiserver4j authors.
 * SPDX-License-Identifier: Apache-2.0
 */
package io.apiserver4j.http.internal;

import io.apiserver4j.admission.UserInfo;
import io.apiserver4j.apiserver.ApiRequest;
import io.apiserver4j.apiserver.ApiResponse;
import io.apiserver4j.apiserver.ResourceDefinition;
import io.apiserver4j.apiserver.ResourceRegistry;
import io.apiserver4j.core.GroupVersionResource;
import io.apiserver4j.core.MapValue;
import io.apiserver4j.core.Nested;
import io.apiserver4j.core.Value;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.concurrent.ConcurrentHashMap;

/**
 * Everything derived from the registry: discovery documents, OpenAPI documents and the printer
 * columns of custom resources. Rebuilt lazily after every registry change, so a custom resource
 * appears in discovery and OpenAPI as soon as its CRD is registered and disappears when it is
 * removed.
 */
final class Metadata {
  private static final GroupVersionResource CRDS =
      new GroupVersionResource("apiextensions.k8s.io", "v1", "customresourcedefinitions");
  private static final UserInfo SYSTEM = UserInfo.of("system:apiserver", "system:masters");

  private record Snapshot(long generation, List<ResourceDefinition> definitions,
      DiscoveryDocuments discovery, OpenApiDocuments openApi) {}

  private final ResourceRegistry registry;
  // the day kube's v1.36.0 staging tags were cut, and the toolchain of its go.mod
  private static final String BUILD_DATE = "2026-04-22T19:03:20Z";
  private static final String GO_VERSION = "go1.26.0";
  private final String gitVersion;
  private final java.util.concurrent.atomic.AtomicLong generation =
      new java.util.concurrent.atomic.AtomicLong();
  private volatile Snapshot snapshot;
  private final Map<GroupVersionResource, List<Tables.PrinterColumn>> printerColumns =
      new ConcurrentHashMap<>();

  private final io.apiserver4j.kubeapi.KubeVersion emulated;

  Metadata(ResourceRegistry registry, String gitVersion,
      io.apiserver4j.kubeapi.KubeVersion emulated) {
    this.registry = registry;
    this.gitVersion = gitVersion;
    this.emulated = emulated;
    registry.addListener((change, definition) -> {
      generation.incrementAndGet();
      printerColumns.clear();
    });
  }

  private Snapshot snapshot() {
    long g = generation.get();
    Snapshot s = snapshot;
    if (s == null || s.generation() != g) {
      // a change racing with this build bumps the generation again, so the next call rebuilds
      List<ResourceDefinition> all = registry.all();
      s = new Snapshot(g, List.copyOf(all), new DiscoveryDocuments(all),
          new OpenApiDocuments(all, gitVersion));
      snapshot = s;
    }
    return s;
  }

  DiscoveryDocuments discovery() {
    return snapshot().discovery();
  }

  OpenApiDocuments openApi() {
    return snapshot().openApi();
  }

  List<ResourceDefinition> definitions() {
    return snapshot().definitions();
  }

  /**
   * The {@code /version} body, shaped as kube-apiserver 1.36's {@code version.Info}
   * (component-base's {@code effectiveVersion.Info}): the binary version's major and minor from
   * {@code gitVersion}; the emulation version, the binary's unless the server emulates an older
   * release ({@code --emulated-version}); the minimum compatibility version, one minor below the
   * emulation version as kube's {@code SetEmulationVersion} defaults it; then the build fields
   * of a 1.36 release build (Go toolchain of kube's go.mod at v1.36.0, the {@code gc} compiler,
   * the host's platform in Go's names).
   */
  MapValue version() {
    String minor = "0";
    String major = "1";
    java.util.regex.Matcher m = java.util.regex.Pattern.compile("v(\\d+)\\.(\\d+).*")
        .matcher(gitVersion);
    if (m.matches()) {
      major = m.group(1);
      minor = m.group(2);
    }
    int minorNumber = Integer.parseInt(minor);
    String emulationMajor = major;
    String emulationMinor = minor;
    if (emulated != io.apiserver4j.kubeapi.KubeVersion.latest()) {
      emulationMajor = Integer.toString(emulated.major());
      emulationMinor = Integer.toString(emulated.minor());
      minorNumber = emulated.minor();
    }
    return MapValue.builder()
        .put("major", Value.of(major))
        .put("minor", Value.of(minor))
        .put("emulationMajor", Value.of(emulationMajor))
        .put("emulationMinor", Value.of(emulationMinor))
        .put("minCompatibilityMajor", Value.of(emulationMajor))
        .put("minCompatibilityMinor", Value.of(Integer.toString(Math.max(0, minorNumber - 1))))
        .put("gitVersion", Value.of(gitVersion))
        .put("gitCommit", Value.of("0000000000000000000000000000000000000000"))
        .put("gitTreeState", Value.of("clean"))
        .put("buildDate", Value.of(BUILD_DATE))
        .put("goVersion", Value.of(GO_VERSION))
        .put("compiler", Value.of("gc"))
        .put("platform", Value.of(goOs() + "/" + arch()))
        .build();
  }

  private static String goOs() {
    String os = System.getProperty("os.name", "").toLowerCase(java.util.Locale.ROOT);
    return os.startsWith("mac") ? "darwin" : os.startsWith("windows") ? "windows" : os;
  }

  private static String arch() {
    String a = System.getProperty("os.arch", "");
    return a.equals("x86_64") ? "amd64" : a.equals("aarch64") ? "arm64" : a;
  }

  /**
   * The {@code additionalPrinterColumns} a custom resource's CRD declares for its version,
   * read from the stored CRD (the registry's definitions do not carry them).
   */
  List<Tables.PrinterColumn> printerColumns(ResourceDefinition def, Backend backend) {
    if (!def.customResource()) {
      return List.of();
    }
    return printerColumns.computeIfAbsent(def.resource(), gvr -> {
      ApiResponse r = backend.execute(ApiRequest.builder(ApiRequest.Verb.GET, CRDS)
          .name(gvr.resource() + "." + gvr.group()).user(SYSTEM).build());
      if (!r.isSuccess()) {
        return List.of();
      }
      List<Tables.PrinterColumn> out = new ArrayList<>();
      for (Value v : Nested.list(r.body(), "spec", "versions")) {
        if (!Nested.str(v, "name").equals(gvr.version())) {
          continue;
        }
        for (Value c : Nested.list(v, "additionalPrinterColumns")) {
          out.add(new Tables.PrinterColumn(Nested.str(c, "name"),
              Nested.str(c, "type").isEmpty() ? "string" : Nested.str(c, "type"),
              Nested.str(c, "format"), Nested.str(c, "description"),
              (int) Nested.integer(c, "priority"), Nested.str(c, "jsonPath")));
        }
      }
      return List.copyOf(out);
    });
  }
}
