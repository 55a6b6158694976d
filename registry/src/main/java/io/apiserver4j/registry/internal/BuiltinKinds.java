/*
 * Copyright The apiserver4j authors.
 * SPDX-License-Identifier: Apache-2.0
 */
package io.apiserver4j.registry.internal;

import io.apiserver4j.apiextensions.CustomResourceDefinitionValidation;
import io.apiserver4j.apiserver.BuiltinResources;
import io.apiserver4j.apiserver.ResourceDefinition;
import io.apiserver4j.apiserver.ResourceStrategy;
import io.apiserver4j.apiserver.strategy.GenerationPolicy;
import io.apiserver4j.apimachinery.validation.NameValidation;
import io.apiserver4j.apiserver.ScaleSubresource;
import io.apiserver4j.core.FieldError;
import io.apiserver4j.core.GroupVersionKind;
import io.apiserver4j.core.ListValue;
import io.apiserver4j.core.MapValue;
import io.apiserver4j.core.Meta;
import io.apiserver4j.core.Nested;
import io.apiserver4j.core.StringValue;
import io.apiserver4j.core.Value;
import io.apiserver4j.kubeapi.KubeApi;
import io.apiserver4j.kubeapi.KubeResource;
import io.apiserver4j.kubeapi.KubeSchema;
import io.apiserver4j.kubeapi.KubeSubresource;
import io.apiserver4j.merge.Schema;
import io.apiserver4j.registry.admissionregistration.AdmissionregistrationGroup;
import io.apiserver4j.registry.apiextensions.ApiextensionsGroup;
import io.apiserver4j.registry.apiregistration.ApiregistrationGroup;
import io.apiserver4j.registry.apps.AppsGroup;
import io.apiserver4j.registry.autoscaling.AutoscalingGroup;
import io.apiserver4j.registry.batch.BatchGroup;
import io.apiserver4j.registry.certificates.CertificatesGroup;
import io.apiserver4j.registry.coordination.CoordinationGroup;
import io.apiserver4j.registry.core.CoreGroup;
import io.apiserver4j.registry.discovery.DiscoveryGroup;
import io.apiserver4j.registry.events.EventsGroup;
import io.apiserver4j.registry.flowcontrol.FlowcontrolGroup;
import io.apiserver4j.registry.networking.NetworkingGroup;
import io.apiserver4j.registry.node.NodeGroup;
import io.apiserver4j.registry.policy.PolicyGroup;
import io.apiserver4j.registry.rbac.RbacGroup;
import io.apiserver4j.registry.resource.ResourceGroup;
import io.apiserver4j.registry.scheduling.SchedulingGroup;
import io.apiserver4j.registry.storage.StorageGroup;
import java.util.HashMap;
import java.util.function.Supplier;
import java.nio.charset.StandardCharsets;
import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import io.apiserver4j.apimachinery.validation.KubeValidation;

/**
 * The resources a Kubernetes 1.36 kube-apiserver serves by default ({@link KubeApi}), with the
 * generated schema of their kinds and strategies modelled on their kube-apiserver registries:
 * scope, names, verbs, status and scale subresources, generation, create-on-update, graceful
 * deletion, defaulting ({@code SetDefaults_*}) and the essential validation of their own fields
 * for the kinds that have them so far; the others get the default strategy.
 */
public final class BuiltinKinds {
  /** Every group's registry, in kube-apiserver's group order. */
  private static final List<Supplier<List<BuiltinKind>>> GROUPS = List.of(
      CoreGroup::kinds, AppsGroup::kinds, BatchGroup::kinds, AutoscalingGroup::kinds,
      PolicyGroup::kinds, NetworkingGroup::kinds, RbacGroup::kinds, StorageGroup::kinds,
      CertificatesGroup::kinds, FlowcontrolGroup::kinds, ResourceGroup::kinds,
      CoordinationGroup::kinds, SchedulingGroup::kinds, NodeGroup::kinds,
      DiscoveryGroup::kinds, EventsGroup::kinds, AdmissionregistrationGroup::kinds,
      ApiregistrationGroup::kinds, ApiextensionsGroup::kinds);

  private static final Schema SCHEMA = BuiltinResources.schema();
  private static final List<ResourceDefinition> DEFINITIONS = build();

  private BuiltinKinds() {}

  /** The built-in definitions, in registration order (kube-apiserver's group order). */
  public static List<ResourceDefinition> definitions() {
    return DEFINITIONS;
  }

  private static List<ResourceDefinition> build() {
    Map<GroupVersionKind, ResourceStrategy> strategies = strategies();
    Map<String, io.apiserver4j.apiserver.TablePrinter> printers = BuiltinPrinters.all();
    Map<GroupVersionKind, BuiltinKind> declared = new HashMap<>();
    for (Supplier<List<BuiltinKind>> group : GROUPS) {
      for (BuiltinKind k : group.get()) {
        if (declared.put(k.kind(), k) != null) {
          throw new IllegalStateException("kind declared twice: " + k.kind());
        }
      }
    }
    List<ResourceDefinition> out = new ArrayList<>();
    for (KubeResource r : KubeApi.resources()) {
      BuiltinKind kind = declared.get(r.kind());
      ResourceDefinition.Builder b = ResourceDefinition.builder(r.kind(), r.plural())
          .singular(r.singular())
          .listKind(r.listKind())
          .namespaced(r.namespaced())
          .shortNames(r.shortNames())
          .categories(r.categories())
          .verbs(r.verbs())
          .storageVersionHash(r.storageVersionHash())
          .schema(SCHEMA, r.schemaType())
          .status(r.subresource("status").isPresent())
          .strategy(kind != null ? kind.strategy()
              : strategies.getOrDefault(r.kind(), ResourceStrategy.defaults()));
      if (r.subresource("scale").isPresent()) {
        b.scale(ScaleSubresource.builtinWorkload());
      }
      io.apiserver4j.apiserver.TablePrinter printer = kind != null
          ? kind.printer().orElse(null) : printers.get(r.kind().group() + "/" + r.plural());
      if (printer != null) {
        b.printer(printer);
      }
      List<ResourceDefinition.Subresource> subs = new ArrayList<>();
      for (KubeSubresource s : r.subresources()) {
        subs.add(new ResourceDefinition.Subresource(s.name(), s.kind(), s.verbs()));
      }
      out.add(b.discoverySubresources(subs).build());
    }
    return List.copyOf(out);
  }

  // The kinds whose kube-apiserver registry rules are implemented so far, by kind.
  private static Map<GroupVersionKind, ResourceStrategy> strategies() {
    Map<GroupVersionKind, ResourceStrategy> out = new LinkedHashMap<>();
    out.putAll(CoreOtherStrategies.strategies());
    out.putAll(RbacStrategies.strategies());
    out.putAll(StorageStrategies.strategies());
    out.putAll(CertificatesStrategies.strategies());
    out.putAll(FlowcontrolStrategies.strategies());
    out.putAll(ResourceStrategies.strategies());
    out.put(core("Namespace"), ResourceStrategy.builder()
        .nameValidation(NameValidation.DNS1123_LABEL)
        // kube's SetDefaults_Namespace: the immutable label selectors can rely on
        .defaulter(BuiltinKinds::labelNamespaceName)
        .selectableFields("status.phase")
        .prepareForCreate((o, old) -> {
          MapValue r = Nested.set(o, MapValue.ofEntries("phase", Value.of("Active")), "status");
          List<String> fin = Meta.stringList(Nested.getOrNull(r, "spec", "finalizers"));
          if (!fin.contains("kubernetes")) {
            fin.add("kubernetes");
            r = Nested.set(r, ListValue.ofStrings(fin), "spec", "finalizers");
          }
          return r;
        })
        .prepareForUpdate((o, old) -> {
          Value fin = Nested.getOrNull(old.orElseThrow(), "spec", "finalizers");
          return fin == null ? Nested.remove(o, "spec", "finalizers")
              : Nested.set(o, fin, "spec", "finalizers");
        })
        .build());
    out.put(core("Event"), ResourceStrategy.builder()
        .allowCreateOnUpdate(true)
        .selectableFields("involvedObject.kind", "involvedObject.namespace",
            "involvedObject.name", "involvedObject.uid", "involvedObject.apiVersion",
            "involvedObject.resourceVersion", "involvedObject.fieldPath", "reason",
            "reportingComponent", "source", "type")
        .build());
    out.put(new GroupVersionKind("events.k8s.io", "v1", "Event"), ResourceStrategy.builder()
        .allowCreateOnUpdate(true)
        .build());
    PodStrategies.register(out);
    ServiceStrategies.register(out);
    WorkloadStrategies.register(out);
    BatchStrategies.register(out);
    // kube-aggregator's ValidateAPIService: the name is a path segment equal to version.group
    // ("v1." for the core group)
    out.put(new GroupVersionKind("apiregistration.k8s.io", "v1", "APIService"),
        ResourceStrategy.builder()
            .nameValidation(NameValidation.PATH_SEGMENT)
            .validator((o, old) -> validateApiService(o))
            .build());
    for (boolean mutating : new boolean[] {false, true}) {
      out.put(new GroupVersionKind("admissionregistration.k8s.io", "v1",
          (mutating ? "Mutating" : "Validating") + "WebhookConfiguration"),
          ResourceStrategy.builder()
              .defaulter(o -> WebhookConfigurationRules.defaults(o, mutating))
              .validator((o, old) -> WebhookConfigurationRules.validate(o, old, mutating))
              .build());
    }
    out.put(new GroupVersionKind("apiextensions.k8s.io", "v1", "CustomResourceDefinition"),
        ResourceStrategy.builder()
            .generationPolicy(GenerationPolicy.NON_METADATA)
            .allowUnconditionalUpdate(false)
            .defaulter(BuiltinKinds::defaultCrd)
            .validator((o, old) -> CustomResourceDefinitionValidation.validate(o, old))
            .build());
    out.putAll(NetworkingStrategies.strategies());
    out.putAll(PolicyStrategies.strategies());
    out.putAll(AutoscalingStrategies.strategies());
    out.putAll(CoordinationStrategies.strategies());
    out.putAll(SchedulingStrategies.strategies());
    out.putAll(NodeStrategies.strategies());
    out.putAll(DiscoveryStrategies.strategies());
    out.putAll(EventsStrategies.strategies());
    return out;
  }

  static List<FieldError> validateApiService(MapValue apiService) {
    List<FieldError> errs = new ArrayList<>();
    String version = Nested.str(apiService, "spec", "version");
    String required = version + "." + Nested.str(apiService, "spec", "group");
    String name = Meta.metaString(apiService, "name");
    if (!name.isEmpty() && !name.equals(required)) {
      errs.add(FieldError.invalid("metadata.name", Value.of(name),
          "must be `spec.version+\".\"+spec.group`: \"" + required + "\""));
    }
    long groupPriority = Nested.integer(apiService, "spec", "groupPriorityMinimum");
    if (groupPriority <= 0 || groupPriority > 20000) {
      errs.add(FieldError.invalid("spec.groupPriorityMinimum", Value.of(groupPriority),
          "must be positive and less than 20000"));
    }
    long versionPriority = Nested.integer(apiService, "spec", "versionPriority");
    if (versionPriority <= 0 || versionPriority > 1000) {
      errs.add(FieldError.invalid("spec.versionPriority", Value.of(versionPriority),
          "must be positive and less than 1000"));
    }
    if (version.isEmpty()) {
      errs.add(FieldError.required("spec.version", ""));
    }
    return errs;
  }

  /** Labels a named Namespace {@code kubernetes.io/metadata.name: <name>}, as kube does. */
  static MapValue labelNamespaceName(MapValue ns) {
    String name = Meta.metaString(ns, "name");
    return name.isEmpty() ? ns
        : Nested.set(ns, Value.of(name), "metadata", "labels", "kubernetes.io/metadata.name");
  }

  private static GroupVersionKind core(String kind) {
    return new GroupVersionKind("", "v1", kind);
  }


  // --- defaulting --------------------------------------------------------------------------

  static MapValue defaultCrd(MapValue o) {
    MapValue r = o;
    if (Nested.mapOrNull(r, "spec") == null) {
      return r;
    }
    if (Nested.getOrNull(r, "spec", "names", "kind") instanceof StringValue k && !k.value().isEmpty()) {
      r = Nested.setDefault(r, Value.of(k.value().toLowerCase(java.util.Locale.ROOT)), "spec",
          "names", "singular");
      r = Nested.setDefault(r, Value.of(k.value() + "List"), "spec", "names", "listKind");
    }
    r = Nested.setDefault(r, Value.of("None"), "spec", "conversion", "strategy");
    return r;
  }

  /** The string form of a LabelSelector (see {@link KubeValidation#formatSelector}). */
  static String formatSelector(MapValue selector) {
    return KubeValidation.formatSelector(selector);
  }
}
