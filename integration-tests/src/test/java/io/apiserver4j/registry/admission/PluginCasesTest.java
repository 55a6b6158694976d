/*
 * Copyright The apiserver4j authors.
 * SPDX-License-Identifier: Apache-2.0
 */
package io.apiserver4j.registry.admission;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import io.apiserver4j.admission.AdmissionAttributes;
import io.apiserver4j.admission.AdmissionChain;
import io.apiserver4j.admission.AdmissionContext;
import io.apiserver4j.admission.AdmissionPlugin;
import io.apiserver4j.admission.Operation;
import io.apiserver4j.admission.UserInfo;
import io.apiserver4j.admission.plugins.NamespacePhase;
import io.apiserver4j.admission.plugins.NamespaceStore;
import io.apiserver4j.apiserver.admission.AdmissionPluginContext;
import io.apiserver4j.cel.CelAuthorizer;
import io.apiserver4j.core.GroupVersionKind;
import io.apiserver4j.core.GroupVersionResource;
import io.apiserver4j.core.MapValue;
import io.apiserver4j.core.Meta;
import io.apiserver4j.core.Nested;
import io.apiserver4j.core.Value;
import io.apiserver4j.core.Yaml;
import io.apiserver4j.core.errors.StatusException;
import io.apiserver4j.registry.certificates.certificatesigningrequest.CertificateApproval;
import io.apiserver4j.registry.certificates.certificatesigningrequest.CertificateSigning;
import io.apiserver4j.registry.certificates.certificatesigningrequest.CertificateSubjectRestriction;
import io.apiserver4j.registry.certificates.certificatesigningrequest.ClusterTrustBundleAttest;
import io.apiserver4j.registry.core.limitrange.LimitRanger;
import io.apiserver4j.registry.core.node.TaintNodesByCondition;
import io.apiserver4j.registry.core.persistentvolumeclaim.PersistentVolumeClaimResize;
import io.apiserver4j.registry.core.persistentvolumeclaim.StorageObjectInUseProtection;
import io.apiserver4j.registry.core.namespace.NamespaceExists;
import io.apiserver4j.registry.core.pod.AlwaysPullImages;
import io.apiserver4j.registry.core.pod.DefaultTolerationSeconds;
import io.apiserver4j.registry.core.pod.ExtendedResourceToleration;
import io.apiserver4j.registry.core.pod.LimitPodHardAntiAffinityTopology;
import io.apiserver4j.registry.core.pod.NodeDeclaredFeatureValidator;
import io.apiserver4j.registry.core.pod.PodNodeSelector;
import io.apiserver4j.registry.core.pod.PodResizeValidator;
import io.apiserver4j.registry.core.pod.PodTolerationRestriction;
import io.apiserver4j.registry.core.resourcequota.ResourceQuotaAdmission;
import io.apiserver4j.registry.core.pod.PodTopologyLabels;
import io.apiserver4j.registry.core.service.DenyServiceExternalIPs;
import io.apiserver4j.registry.core.serviceaccount.ServiceAccountAdmission;
import io.apiserver4j.registry.networking.ingressclass.DefaultIngressClass;
import io.apiserver4j.registry.node.runtimeclass.RuntimeClassAdmission;
import io.apiserver4j.registry.scheduling.priorityclass.PriorityAdmission;
import io.apiserver4j.registry.storage.storageclass.DefaultStorageClass;
import io.apiserver4j.storage.CollectionKey;
import io.apiserver4j.storage.ObjectKey;
import java.io.IOException;
import java.io.InputStream;
import java.nio.charset.StandardCharsets;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import java.util.Random;
import java.util.Set;
import java.util.function.Function;
import java.util.stream.Stream;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.Arguments;
import org.junit.jupiter.params.provider.MethodSource;

/**
 * The expectations of kube's plugin tests ({@code plugin/pkg/admission/<name>/admission_test.go})
 * as YAML cases in {@code admission/<plugin>.yaml}: each case gives the request (operation,
 * resource, subresource, namespace, object, old object, user, which signer verbs the authorizer
 * allows), the objects the plugin finds in the server, the plugins' entries of the admission
 * configuration file, and either the object after the mutating phase or kube's denial (code and
 * message), from both phases or, with {@code phase: validate}, from the validating one alone.
 */
class PluginCasesTest {
  private static final List<String> FILES = List.of("DefaultTolerationSeconds",
      "TaintNodesByCondition", "Priority", "ServiceAccount", "StorageObjectInUseProtection",
      "DefaultStorageClass", "PersistentVolumeClaimResize", "RuntimeClass", "DefaultIngressClass",
      "Certificates", "LimitRanger", "PodTopologyLabels", "PodResizeValidator",
      "NodeDeclaredFeatureValidator", "AlwaysPullImages", "DenyServiceExternalIPs",
      "ExtendedResourceToleration", "LimitPodHardAntiAffinityTopology", "NamespaceExists",
      "PodNodeSelector", "PodTolerationRestriction", "ResourceQuota");

  private static final Map<String, Function<AdmissionPluginContext, AdmissionPlugin>> PLUGINS =
      Map.ofEntries(
          Map.entry(DefaultTolerationSeconds.NAME, c -> new DefaultTolerationSeconds()),
          Map.entry(TaintNodesByCondition.NAME, c -> new TaintNodesByCondition()),
          Map.entry(PriorityAdmission.NAME, PriorityAdmission::new),
          Map.entry(ServiceAccountAdmission.NAME, ServiceAccountAdmission::new),
          Map.entry(StorageObjectInUseProtection.NAME, c -> new StorageObjectInUseProtection()),
          Map.entry(DefaultStorageClass.NAME, DefaultStorageClass::new),
          Map.entry(PersistentVolumeClaimResize.NAME, PersistentVolumeClaimResize::new),
          Map.entry(RuntimeClassAdmission.NAME, RuntimeClassAdmission::new),
          Map.entry(DefaultIngressClass.NAME, DefaultIngressClass::new),
          Map.entry(CertificateApproval.NAME, c -> new CertificateApproval()),
          Map.entry(CertificateSigning.NAME, c -> new CertificateSigning()),
          Map.entry(ClusterTrustBundleAttest.NAME, c -> new ClusterTrustBundleAttest()),
          Map.entry(CertificateSubjectRestriction.NAME, c -> new CertificateSubjectRestriction()),
          Map.entry(LimitRanger.NAME, LimitRanger::new),
          Map.entry(PodTopologyLabels.NAME, PodTopologyLabels::new),
          Map.entry(PodResizeValidator.NAME, PodResizeValidator::new),
          Map.entry(NodeDeclaredFeatureValidator.NAME, NodeDeclaredFeatureValidator::new),
          Map.entry(AlwaysPullImages.NAME, c -> new AlwaysPullImages()),
          Map.entry(DenyServiceExternalIPs.NAME, c -> new DenyServiceExternalIPs()),
          Map.entry(ExtendedResourceToleration.NAME, c -> new ExtendedResourceToleration()),
          Map.entry(LimitPodHardAntiAffinityTopology.NAME,
              c -> new LimitPodHardAntiAffinityTopology()),
          Map.entry(NamespaceExists.NAME, NamespaceExists::new),
          Map.entry(PodNodeSelector.NAME, PodNodeSelector::new),
          Map.entry(PodTolerationRestriction.NAME, PodTolerationRestriction::new),
          Map.entry(ResourceQuotaAdmission.NAME, ResourceQuotaAdmission::new));

  static Stream<Arguments> cases() throws IOException {
    List<Arguments> out = new ArrayList<>();
    for (String file : FILES) {
      String text;
      try (InputStream in = PluginCasesTest.class.getResourceAsStream(
          "/admission/" + file + ".yaml")) {
        text = new String(in.readAllBytes(), StandardCharsets.UTF_8);
      }
      for (Value c : Nested.list(Yaml.read(text), "cases")) {
        out.add(Arguments.of(file + ": " + Nested.str(c, "name"), c));
      }
    }
    return out.stream();
  }

  @ParameterizedTest(name = "{0}")
  @MethodSource("cases")
  void plugin(String name, MapValue c) {
    List<MapValue> objects = new ArrayList<>();
    Nested.list(c, "objects").forEach(o -> objects.add((MapValue) o));
    MapValue configuration = Nested.mapOrNull(c, "configuration");
    AdmissionPlugin plugin = PLUGINS.get(Nested.str(c, "plugin")).apply(context(objects,
        configuration == null ? MapValue.empty() : configuration));
    AdmissionChain chain = AdmissionChain.builder().add(plugin).build();
    AdmissionAttributes a = attributes(c);
    MapValue expectError = Nested.mapOrNull(c, "error");
    if (expectError != null) {
      boolean validateOnly = Nested.str(c, "phase").equals("validate");
      assertThatThrownBy(() -> {
        if (validateOnly) {
          chain.validate(a);
        } else {
          run(chain, a);
        }
      }).isInstanceOfSatisfying(StatusException.class,
          e -> {
            assertThat(e.status().code()).isEqualTo(Nested.integer(expectError, "code"));
            assertThat(e.status().message()).isEqualTo(Nested.str(expectError, "message"));
          });
      return;
    }
    MapValue after = run(chain, a);
    if (Nested.mapOrNull(c, "expect") != null) {
      MapValue expected = Nested.map(c, "expect");
      if (expected.containsKey("volumeName")) {
        // the generated part of the token volume's name is random, as in kube's tests
        after = renameTokenVolume(after, Nested.str(expected, "volumeName"));
        expected = expected.without("volumeName");
      }
      assertThat(after).isEqualTo(expected);
    } else {
      assertThat(after).isEqualTo(a.object().orElse(MapValue.empty()));
    }
  }

  private static MapValue run(AdmissionChain chain, AdmissionAttributes a) {
    if (a.object().isEmpty()) {
      chain.admitWithoutObject(a);
      chain.validate(a);
      return MapValue.empty();
    }
    MapValue after = chain.admit(a);
    chain.validate(a.withObject(after));
    return after;
  }

  private static MapValue renameTokenVolume(MapValue pod, String name) {
    String text = Yaml.write(pod);
    java.util.regex.Matcher m = java.util.regex.Pattern
        .compile("kube-api-access-[bcdfghjklmnpqrstvwxz2456789]{5}").matcher(text);
    return (MapValue) Yaml.read(m.replaceAll(name));
  }

  private static AdmissionAttributes attributes(MapValue c) {
    String[] gvr = Nested.str(c, "resource").split("/");
    GroupVersionResource resource = gvr.length == 3
        ? new GroupVersionResource(gvr[0], gvr[1], gvr[2])
        : new GroupVersionResource("", gvr[0], gvr[1]);
    MapValue object = Nested.mapOrNull(c, "object");
    MapValue old = Nested.mapOrNull(c, "oldObject");
    MapValue named = object != null ? object : old;
    String kind = named == null ? "" : Nested.str(named, "kind");
    Set<String> allowed = new java.util.HashSet<>();
    Nested.list(c, "allow").forEach(v -> allowed.add(((io.apiserver4j.core.StringValue) v)
        .value()));
    CelAuthorizer authorizer = check -> allowed.contains(check.verb() + " " + check.name())
        ? CelAuthorizer.Decision.ALLOW : new CelAuthorizer.Decision(false, "", "");
    AdmissionAttributes.Builder b = AdmissionAttributes.builder()
        .context(AdmissionContext.create())
        .operation(Operation.valueOf(Nested.str(c, "operation")))
        .resource(resource)
        .subresource(Nested.str(c, "subresource"))
        .kind(new GroupVersionKind(resource.group(), resource.version(), kind))
        .name(named == null ? "" : Meta.metaString(named, "name"))
        .namespace(Nested.str(c, "namespace"))
        .userInfo(UserInfo.of(Nested.str(c, "user").isEmpty() ? "someone"
            : Nested.str(c, "user")))
        .authorizer(authorizer);
    if (object != null) {
      b.object(object);
    } else {
      b.noObject();
    }
    if (old != null) {
      b.oldObject(old);
    }
    return b.build();
  }

  /** A server holding {@code objects} (with their {@code kind} telling the resource). */
  static AdmissionPluginContext context(List<MapValue> objects) {
    return context(objects, MapValue.empty());
  }

  /**
   * A server holding {@code objects}, whose admission configuration file gives
   * {@code configuration} (plugin name to its configuration).
   */
  static AdmissionPluginContext context(List<MapValue> objects, MapValue configuration) {
    return new AdmissionPluginContext() {
      private ObjectKey key(MapValue o) {
        String apiVersion = Nested.str(o, "apiVersion");
        String group = apiVersion.contains("/") ? apiVersion.substring(0, apiVersion.indexOf('/'))
            : "";
        String plural = plural(Nested.str(o, "kind"));
        return new ObjectKey(group, plural, Meta.metaString(o, "namespace"),
            Meta.metaString(o, "name"));
      }

      @Override
      public Optional<MapValue> get(ObjectKey key) {
        return objects.stream().filter(o -> key(o).equals(key)).findFirst();
      }

      @Override
      public List<MapValue> list(CollectionKey collection) {
        return objects.stream().filter(o -> {
          ObjectKey k = key(o);
          return k.group().equals(collection.group())
              && k.resource().equals(collection.resource())
              && (collection.namespace().isEmpty()
                  || k.namespace().equals(collection.namespace()));
        }).toList();
      }

      @Override
      public NamespaceStore namespaces() {
        return new NamespaceStore() {
          @Override
          public Optional<NamespacePhase> phase(String namespace) {
            return Optional.of(NamespacePhase.ACTIVE);
          }

          @Override
          public void create(String namespace) {}
        };
      }

      @Override
      public Random random() {
        return new Random(1);
      }

      @Override
      public java.time.Clock clock() {
        return java.time.Clock.fixed(java.time.Instant.parse("2026-01-01T00:00:00Z"),
            java.time.ZoneOffset.UTC);
      }

      @Override
      public Optional<MapValue> configuration(String plugin) {
        return Optional.ofNullable(Nested.mapOrNull(configuration, plugin));
      }

      @Override
      public MapValue updateStatus(io.apiserver4j.core.GroupVersionResource resource,
          MapValue object, io.apiserver4j.admission.UserInfo user, String fieldManager) {
        // only the ResourceQuota plugin writes (a quota's charged usage): the server accepts it
        if (!resource.resource().equals("resourcequotas")) {
          throw new IllegalStateException("no other plugin of these cases writes: " + resource);
        }
        return object;
      }
    };
  }

  static String plural(String kind) {
    String lower = kind.toLowerCase(java.util.Locale.ROOT);
    return lower.endsWith("s") ? lower + "es" : lower.endsWith("y") ? lower.substring(0,
        lower.length() - 1) + "ies" : lower + "s";
  }
}
