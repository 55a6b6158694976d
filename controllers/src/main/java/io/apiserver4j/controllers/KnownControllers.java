/*
 * Copyright The apiserver4j authors.
 * SPDX-License-Identifier: Apache-2.0
 */
package io.apiserver4j.controllers;

import io.apiserver4j.controllers.attachdetach.AttachDetachController;
import io.apiserver4j.controllers.bootstrap.BootstrapSigner;
import io.apiserver4j.controllers.bootstrap.TokenCleaner;
import io.apiserver4j.controllers.certificates.approver.CsrApprovingController;
import io.apiserver4j.controllers.certificates.cleaner.CsrCleanerController;
import io.apiserver4j.controllers.certificates.signer.CsrSigningController;
import io.apiserver4j.controllers.cronjob.CronJobController;
import io.apiserver4j.controllers.internal.Controller;
import io.apiserver4j.controllers.internal.ControllerContext;
import io.apiserver4j.controllers.internal.ControllerDescriptor;
import io.apiserver4j.controllers.internal.ServerImplementedController;
import io.apiserver4j.controllers.deployment.DeploymentController;
import io.apiserver4j.controllers.daemon.DaemonSetController;
import io.apiserver4j.controllers.disruption.DisruptionController;
import io.apiserver4j.controllers.endpoint.EndpointsController;
import io.apiserver4j.controllers.endpointslice.EndpointSliceController;
import io.apiserver4j.controllers.endpointslicemirroring.MirroringController;
import io.apiserver4j.controllers.expand.ExpandController;
import io.apiserver4j.controllers.garbagecollector.GarbageCollector;
import io.apiserver4j.controllers.job.JobController;
import io.apiserver4j.controllers.namespace.NamespaceController;
import io.apiserver4j.controllers.nodelifecycle.NodeLifecycleController;
import io.apiserver4j.controllers.persistentvolume.PersistentVolumeController;
import io.apiserver4j.controllers.podautoscaler.HorizontalController;
import io.apiserver4j.controllers.podgc.PodGcController;
import io.apiserver4j.controllers.replicaset.ReplicaSetController;
import io.apiserver4j.controllers.resourcequota.ResourceQuotaController;
import io.apiserver4j.controllers.serviceaccount.TokensController;
import io.apiserver4j.controllers.statefulset.StatefulSetController;
import io.apiserver4j.controllers.tainteviction.TaintEvictionController;
import io.apiserver4j.controllers.ttl.TtlController;
import io.apiserver4j.controllers.ttlafterfinished.TtlAfterFinishedController;
import io.apiserver4j.controllers.volume.ephemeral.EphemeralVolumeController;
import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import java.util.function.Function;

/**
 * The controllers kube-controller-manager 1.36 knows, by their canonical names
 * (cmd/kube-controller-manager/names) and the aliases its {@code --controllers} flag also
 * accepts, and kube's rule for that flag.
 */
final class KnownControllers {
  private static final List<ControllerDescriptor> ALL = build();

  private KnownControllers() {}

  private static List<ControllerDescriptor> build() {
    Map<String, ControllerDescriptor> out = new LinkedHashMap<>();
    implemented(out, "serviceaccount-token-controller", "serviceaccount-token",
        TokensController::create);
    implemented(out, "endpoints-controller", "endpoint", EndpointsController::new);
    implemented(out, "endpointslice-controller", "endpointslice",
        EndpointSliceController::new);
    implemented(out, "endpointslice-mirroring-controller", "endpointslicemirroring",
        MirroringController::new);
    implemented(out, "replicationcontroller-controller", "replicationcontroller",
        ReplicaSetController::replicationControllers);
    implemented(out, "pod-garbage-collector-controller", "podgc", PodGcController::create);
    implemented(out, "resourcequota-controller", "resourcequota",
        ResourceQuotaController::create);
    implemented(out, "namespace-controller", "namespace", NamespaceController::create);
    // one implementation each, shared with servers that run no manager (see below)
    implemented(out, "serviceaccount-controller", "serviceaccount",
        ServerImplementedController.of("serviceaccount"));
    implemented(out, "garbage-collector-controller", "garbagecollector", GarbageCollector::new);
    implemented(out, "daemonset-controller", "daemonset", DaemonSetController::create);
    implemented(out, "job-controller", "job", JobController::create);
    implemented(out, "deployment-controller", "deployment", DeploymentController::create);
    implemented(out, "replicaset-controller", "replicaset", ReplicaSetController::replicaSets);
    implemented(out, "horizontal-pod-autoscaler-controller", "horizontalpodautoscaling",
        HorizontalController::create);
    implemented(out, "disruption-controller", "disruption", DisruptionController::new);
    implemented(out, "statefulset-controller", "statefulset", StatefulSetController::create);
    implemented(out, "cronjob-controller", "cronjob", CronJobController::create);
    implemented(out, "certificatesigningrequest-signing-controller", "csrsigning",
        CsrSigningController::create);
    implemented(out, "certificatesigningrequest-approving-controller", "csrapproving",
        CsrApprovingController::create);
    implemented(out, "certificatesigningrequest-cleaner-controller", "csrcleaner",
        CsrCleanerController::create);
    implemented(out, "ttl-controller", "ttl", TtlController::create);
    disabledByDefault(out, "bootstrap-signer-controller", "bootstrapsigner",
        BootstrapSigner::create);
    disabledByDefault(out, "token-cleaner-controller", "tokencleaner", TokenCleaner::create);
    known(out, "node-ipam-controller", "nodeipam");
    implemented(out, "node-lifecycle-controller", "nodelifecycle",
        NodeLifecycleController::create);
    implemented(out, "taint-eviction-controller", TaintEvictionController::create);
    implemented(out, "persistentvolume-binder-controller", "persistentvolume-binder",
        PersistentVolumeController::create);
    implemented(out, "persistentvolume-attach-detach-controller", "attachdetach",
        AttachDetachController::create);
    implemented(out, "persistentvolume-expander-controller", "persistentvolume-expander",
        ExpandController::create);
    implemented(out, "clusterrole-aggregation-controller", "clusterrole-aggregation",
        ServerImplementedController.of("clusterrole-aggregation"));
    // one implementation each, shared with servers that run no manager
    implemented(out, "persistentvolumeclaim-protection-controller", "pvc-protection",
        ServerImplementedController.of("pvc-protection"));
    implemented(out, "persistentvolume-protection-controller", "pv-protection",
        ServerImplementedController.of("pv-protection"));
    implemented(out, "ttl-after-finished-controller", "ttl-after-finished",
        TtlAfterFinishedController::create);
    implemented(out, "root-ca-certificate-publisher-controller", "root-ca-cert-publisher",
        ServerImplementedController.of("root-ca-cert-publisher"));
    implemented(out, "ephemeral-volume-controller", "ephemeral-volume",
        EphemeralVolumeController::create);
    known(out, "storageversion-garbage-collector-controller", "storage-version-gc");
    known(out, "resourceclaim-controller", "resource-claim-controller");
    known(out, "legacy-serviceaccount-token-cleaner-controller",
        "legacy-service-account-token-cleaner");
    known(out, "validatingadmissionpolicy-status-controller");
    known(out, "service-cidr-controller");
    known(out, "storage-version-migrator-controller");
    known(out, "cloud-node-lifecycle-controller", "cloud-node-lifecycle");
    known(out, "service-lb-controller", "service");
    known(out, "node-route-controller", "route");
    return List.copyOf(out.values());
  }

  private static void known(Map<String, ControllerDescriptor> out, String name,
      String... aliases) {
    out.put(name, new ControllerDescriptor(name, List.of(aliases), true, Optional.empty()));
  }

  /** An implemented controller kube runs only when named. */
  private static void disabledByDefault(Map<String, ControllerDescriptor> out, String name,
      String alias, Function<ControllerContext, Controller> factory) {
    out.put(name, new ControllerDescriptor(name, List.of(alias), false, Optional.of(factory)));
  }

  private static void implemented(Map<String, ControllerDescriptor> out, String name,
      String alias, Function<ControllerContext, Controller> factory) {
    out.put(name, new ControllerDescriptor(name, List.of(alias), true, Optional.of(factory)));
  }

  /** An implemented controller that kube names without an alias. */
  private static void implemented(Map<String, ControllerDescriptor> out, String name,
      Function<ControllerContext, Controller> factory) {
    out.put(name, new ControllerDescriptor(name, List.of(), true, Optional.of(factory)));
  }

  /** Every known controller, in kube's order. */
  public static List<ControllerDescriptor> all() {
    return ALL;
  }

  /**
   * The controllers {@code flags} (kube's {@code --controllers} values: {@code *} for those on
   * by default, {@code name} to enable, {@code -name} to disable; the first that names a
   * controller decides) enable, that this project implements. Explicitly naming a known
   * controller it does not implement is an error, so that no one waits for one that never runs.
   *
   * @throws IllegalArgumentException for an unknown name, with kube's message, or an explicitly
   *     enabled controller that is not implemented
   */
  public static List<ControllerDescriptor> select(List<String> flags) {
    for (String f : flags) {
      String n = f.startsWith("-") ? f.substring(1) : f;
      if (!f.equals("*") && ALL.stream().noneMatch(d -> d.named(n))) {
        throw new IllegalArgumentException("\"" + n + "\" is not in the list of known controllers");
      }
    }
    List<ControllerDescriptor> out = new ArrayList<>();
    for (ControllerDescriptor d : ALL) {
      Decision decision = decide(d, flags);
      if (decision == Decision.OFF) {
        continue;
      }
      if (d.factory().isEmpty()) {
        if (decision == Decision.EXPLICIT) {
          throw new IllegalArgumentException("the controller \"" + d.name()
              + "\" is not implemented by apiserver4j yet");
        }
        continue;
      }
      out.add(d);
    }
    return List.copyOf(out);
  }

  /**
   * The names and aliases of the known controllers {@code flags} switch off by name
   * ({@code -name}, deciding before any other value naming them): a manager stops the server's
   * own instance of such a controller too, as kube-controller-manager's flag stops the only one
   * there is (without a manager the server runs them, as a cluster would).
   */
  public static List<String> explicitlyDisabled(List<String> flags) {
    List<String> out = new ArrayList<>();
    for (ControllerDescriptor d : ALL) {
      for (String f : flags) {
        if (d.named(f)) {
          break;
        }
        if (f.startsWith("-") && d.named(f.substring(1))) {
          out.addAll(d.namesAndAliases());
          break;
        }
      }
    }
    return List.copyOf(out);
  }

  private enum Decision { OFF, DEFAULT, EXPLICIT }

  /** kube's {@code IsControllerEnabled}. */
  private static Decision decide(ControllerDescriptor d, List<String> flags) {
    boolean star = false;
    for (String f : flags) {
      if (d.named(f)) {
        return Decision.EXPLICIT;
      }
      if (f.startsWith("-") && d.named(f.substring(1))) {
        return Decision.OFF;
      }
      if (f.equals("*")) {
        star = true;
      }
    }
    return star && d.enabledByDefault() ? Decision.DEFAULT : Decision.OFF;
  }
}
