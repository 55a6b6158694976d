/*
 * Copyright The apiserver4j authors.
 * SPDX-License-Identifier: Apache-2.0
 */
package io.apiserver4j.registry;

import io.apiserver4j.admission.plugins.NamespaceAutoProvision;
import io.apiserver4j.admission.plugins.NamespaceLifecycle;
import io.apiserver4j.apiserver.admission.AdmissionPluginContext;
import io.apiserver4j.apiserver.admission.BuiltinAdmissionPlugin;
import io.apiserver4j.apiserver.BuiltinController;
import io.apiserver4j.registry.batch.job.JobValidation;
import io.apiserver4j.registry.certificates.certificatesigningrequest.CertificateApproval;
import io.apiserver4j.registry.certificates.certificatesigningrequest.CertificateSigning;
import io.apiserver4j.registry.certificates.certificatesigningrequest.CertificateSubjectRestriction;
import io.apiserver4j.registry.certificates.certificatesigningrequest.ClusterTrustBundleAttest;
import io.apiserver4j.registry.core.configmap.RootCaCertPublisher;
import io.apiserver4j.registry.core.limitrange.LimitRanger;
import io.apiserver4j.registry.core.node.TaintNodesByCondition;
import io.apiserver4j.registry.core.persistentvolumeclaim.PersistentVolumeClaimResize;
import io.apiserver4j.registry.core.persistentvolumeclaim.StorageObjectInUseProtection;
import io.apiserver4j.registry.core.persistentvolumeclaim.StorageProtectionController;
import io.apiserver4j.registry.core.namespace.NamespaceExists;
import io.apiserver4j.registry.core.pod.AlwaysPullImages;
import io.apiserver4j.registry.core.pod.DefaultTolerationSeconds;
import io.apiserver4j.registry.core.pod.ExtendedResourceToleration;
import io.apiserver4j.registry.core.pod.LimitPodHardAntiAffinityTopology;
import io.apiserver4j.registry.core.pod.NodeDeclaredFeatureValidator;
import io.apiserver4j.registry.core.pod.PodNodeSelector;
import io.apiserver4j.registry.core.pod.PodResizeValidator;
import io.apiserver4j.registry.core.pod.PodTolerationRestriction;
import io.apiserver4j.registry.core.pod.PodTopologyLabels;
import io.apiserver4j.registry.core.resourcequota.ResourceQuotaAdmission;
import io.apiserver4j.registry.core.service.DenyServiceExternalIPs;
import io.apiserver4j.registry.core.serviceaccount.DefaultServiceAccountController;
import io.apiserver4j.registry.core.serviceaccount.ServiceAccountAdmission;
import io.apiserver4j.registry.networking.ingressclass.DefaultIngressClass;
import io.apiserver4j.registry.node.runtimeclass.RuntimeClassAdmission;
import io.apiserver4j.registry.scheduling.podgroup.PodGroupProtection;
import io.apiserver4j.registry.scheduling.podgroup.PodGroupWorkloadExists;
import io.apiserver4j.registry.scheduling.priorityclass.PriorityAdmission;
import io.apiserver4j.registry.storage.storageclass.DefaultStorageClass;
import io.apiserver4j.podsecurity.PodSecurityAdmission;
import io.apiserver4j.podsecurity.PodSecurityConfiguration;
import io.apiserver4j.storage.CollectionKey;
import io.apiserver4j.storage.ObjectKey;
import java.util.List;

/**
 * kube-apiserver 1.36's admission plugins in kube's order ({@code AllOrderedPlugins} of
 * {@code pkg/kubeapiserver/options/plugins.go}), each with whether kube enables it by default
 * ({@code DefaultOffAdmissionPlugins}); those this server does not implement (AlwaysAdmit,
 * NodeRestriction, ImagePolicyWebhook, EventRateLimit,
 * OwnerReferencesPermissionEnforcement, AlwaysDeny) are named slots, so that enabling one is
 * refused as having no implementation rather than as unknown; each plugin lives with
 * its kind ({@code PodSecurity} in its own module, as kube's pod-security-admission); the policy and webhook stages
 * are slots the server fills; ResourceQuota runs after them, as in kube.
 */
final class KubeAdmissionPlugins {
  private KubeAdmissionPlugins() {}

  /**
   * PodSecurity over the server's namespaces and pods, configured by its entry of the admission
   * configuration file (kube's defaults without one).
   */
  private static PodSecurityAdmission podSecurity(AdmissionPluginContext ctx) {
    PodSecurityConfiguration config = ctx.configuration(PodSecurityAdmission.PLUGIN_NAME)
        .map(PodSecurityConfiguration::fromObject).orElseGet(PodSecurityConfiguration::defaults);
    return PodSecurityAdmission.create(config,
        name -> ctx.get(ObjectKey.clusterScoped("", "namespaces", name)),
        namespace -> ctx.list(CollectionKey.inNamespace("", "pods", namespace)), ctx.clock());
  }

  /** The plugin list, in kube's order. */
  static List<BuiltinAdmissionPlugin> ordered() {
    return List.of(
        BuiltinAdmissionPlugin.slot("AlwaysAdmit", false),
        BuiltinAdmissionPlugin.of(NamespaceAutoProvision.NAME, false,
            ctx -> new NamespaceAutoProvision(ctx.namespaces())),
        BuiltinAdmissionPlugin.of(NamespaceLifecycle.NAME, true,
            ctx -> new NamespaceLifecycle(ctx.namespaces())),
        BuiltinAdmissionPlugin.of(NamespaceExists.NAME, false, NamespaceExists::new),
        BuiltinAdmissionPlugin.of(LimitPodHardAntiAffinityTopology.NAME, false,
            ctx -> new LimitPodHardAntiAffinityTopology()),
        BuiltinAdmissionPlugin.of(LimitRanger.NAME, true, LimitRanger::new),
        BuiltinAdmissionPlugin.of(ServiceAccountAdmission.NAME, true,
            ServiceAccountAdmission::new),
        BuiltinAdmissionPlugin.slot("NodeRestriction", false),
        BuiltinAdmissionPlugin.of(TaintNodesByCondition.NAME, true,
            ctx -> new TaintNodesByCondition()),
        BuiltinAdmissionPlugin.of(AlwaysPullImages.NAME, false, ctx -> new AlwaysPullImages()),
        BuiltinAdmissionPlugin.slot("ImagePolicyWebhook", false),
        BuiltinAdmissionPlugin.of(PodSecurityAdmission.PLUGIN_NAME, true,
            KubeAdmissionPlugins::podSecurity),
        BuiltinAdmissionPlugin.of(PodNodeSelector.NAME, false, PodNodeSelector::new),
        BuiltinAdmissionPlugin.of(PriorityAdmission.NAME, true, PriorityAdmission::new),
        BuiltinAdmissionPlugin.of(DefaultTolerationSeconds.NAME, true,
            ctx -> new DefaultTolerationSeconds()),
        BuiltinAdmissionPlugin.of(PodTolerationRestriction.NAME, false,
            PodTolerationRestriction::new),
        BuiltinAdmissionPlugin.slot("EventRateLimit", false),
        BuiltinAdmissionPlugin.of(ExtendedResourceToleration.NAME, false,
            ctx -> new ExtendedResourceToleration()),
        BuiltinAdmissionPlugin.of(DefaultStorageClass.NAME, true, DefaultStorageClass::new),
        BuiltinAdmissionPlugin.of(StorageObjectInUseProtection.NAME, true,
            ctx -> new StorageObjectInUseProtection()),
        BuiltinAdmissionPlugin.of(PodGroupProtection.NAME, true,
            ctx -> new PodGroupProtection()),
        BuiltinAdmissionPlugin.slot("OwnerReferencesPermissionEnforcement", false),
        BuiltinAdmissionPlugin.of(PersistentVolumeClaimResize.NAME, true,
            PersistentVolumeClaimResize::new),
        BuiltinAdmissionPlugin.of(RuntimeClassAdmission.NAME, true, RuntimeClassAdmission::new),
        BuiltinAdmissionPlugin.of(CertificateApproval.NAME, true,
            ctx -> new CertificateApproval()),
        BuiltinAdmissionPlugin.of(CertificateSigning.NAME, true, ctx -> new CertificateSigning()),
        BuiltinAdmissionPlugin.of(ClusterTrustBundleAttest.NAME, true,
            ctx -> new ClusterTrustBundleAttest()),
        BuiltinAdmissionPlugin.of(CertificateSubjectRestriction.NAME, true,
            ctx -> new CertificateSubjectRestriction()),
        BuiltinAdmissionPlugin.of(DefaultIngressClass.NAME, true, DefaultIngressClass::new),
        BuiltinAdmissionPlugin.of(DenyServiceExternalIPs.NAME, false,
            ctx -> new DenyServiceExternalIPs()),
        BuiltinAdmissionPlugin.of(PodTopologyLabels.NAME, true, PodTopologyLabels::new),
        BuiltinAdmissionPlugin.of(PodGroupWorkloadExists.NAME, true,
            ctx -> new PodGroupWorkloadExists()),
        BuiltinAdmissionPlugin.of(NodeDeclaredFeatureValidator.NAME, true,
            NodeDeclaredFeatureValidator::new),
        BuiltinAdmissionPlugin.of(JobValidation.NAME, true, ctx -> new JobValidation()),
        BuiltinAdmissionPlugin.of(PodResizeValidator.NAME, true, PodResizeValidator::new),
        BuiltinAdmissionPlugin.slot("MutatingAdmissionPolicy", true),
        BuiltinAdmissionPlugin.slot("MutatingAdmissionWebhook", true),
        BuiltinAdmissionPlugin.slot("ValidatingAdmissionPolicy", true),
        BuiltinAdmissionPlugin.slot("ValidatingAdmissionWebhook", true),
        BuiltinAdmissionPlugin.of(ResourceQuotaAdmission.NAME, true, ResourceQuotaAdmission::new),
        BuiltinAdmissionPlugin.slot("AlwaysDeny", false));
  }

  /** The controllers that ship with the plugins. */
  static List<BuiltinController> controllers() {
    return List.of(
        new BuiltinController(DefaultServiceAccountController.NAME, ServiceAccountAdmission.NAME,
            ctx -> DefaultServiceAccountController.start(ctx.server(), ctx.store())),
        new BuiltinController(RootCaCertPublisher.NAME, ServiceAccountAdmission.NAME,
            ctx -> RootCaCertPublisher.start(ctx.server(), ctx.store(),
                ctx.rootCaCertificate())),
        new BuiltinController(StorageProtectionController.PVC_NAME,
            StorageObjectInUseProtection.NAME,
            ctx -> StorageProtectionController.startForClaims(ctx.server(), ctx.store())),
        new BuiltinController(StorageProtectionController.PV_NAME,
            StorageObjectInUseProtection.NAME,
            ctx -> StorageProtectionController.startForVolumes(ctx.server(), ctx.store())));
  }
}
