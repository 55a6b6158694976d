/*
 * Copyright The apiserver4j authors.
 * SPDX-License-Identifier: Apache-2.0
 */
package io.apiserver4j.junit;

import io.apiserver4j.junit.internal.ApiServerExtension;
import java.lang.annotation.Documented;
import java.lang.annotation.ElementType;
import java.lang.annotation.Inherited;
import java.lang.annotation.Retention;
import java.lang.annotation.RetentionPolicy;
import java.lang.annotation.Target;
import org.junit.jupiter.api.extension.ExtendWith;

/**
 * Runs the annotated test class against an in-process API server: an
 * {@link io.apiserver4j.apiserver.ApiServer} over a new in-memory store, served by an
 * {@link io.apiserver4j.http.HttpApiServer} on a free loopback port, with a kubeconfig written
 * to a temporary file.
 *
 * <p>Fields and parameters of these types are injected: {@link TestApiServer} (everything
 * below, plus {@link TestApiServer#reset()}), {@link io.apiserver4j.apiserver.ApiServer},
 * {@link io.apiserver4j.http.HttpApiServer}, {@link TestClock}, {@link TestKubeconfig}, and
 * any client type a {@link ClientFactory} on the class path provides (the
 * {@code apiserver4j-junit-fabric8} module adds fabric8's {@code KubernetesClient}, the
 * {@code apiserver4j-junit-client-java} module the official client's {@code ApiClient}).
 * Static fields are injected before {@code @BeforeAll} methods when the server is per class.
 *
 * <p>Like kube-apiserver, a new server has the namespaces {@code default}, {@code kube-system},
 * {@code kube-public} and {@code kube-node-lease}. Timestamps come from a {@link TestClock}
 * starting at {@link TestClock#DEFAULT_START}, uids are
 * {@code 00000000-0000-4000-8000-000000000001}, {@code ...0002}, ..., and names generated from
 * {@code generateName} use a fixed random seed, so a test sees the same values on every run.
 * Manifests of {@link WithManifests} are loaded after the namespaces.
 *
 * <p>Servers are held in the JUnit extension context, never in static state, so test classes
 * (and, with {@link Lifecycle#PER_METHOD}, test methods) may run in parallel.
 */
@Target({ElementType.TYPE, ElementType.ANNOTATION_TYPE})
@Retention(RetentionPolicy.RUNTIME)
@Documented
@Inherited
@ExtendWith(ApiServerExtension.class)
public @interface ApiServerTest {
  /** When servers are started and how tests are isolated; default {@link Lifecycle#PER_CLASS}. */
  Lifecycle lifecycle() default Lifecycle.PER_CLASS;

  /**
   * kube-controller-manager's controllers to run beside the server, as its {@code --controllers}
   * flag values: {@code "*"} for those kube runs by default, a name or alias to enable one
   * ({@code "garbagecollector"}, {@code "replicaset"}), {@code "-name"} to disable one; the first
   * value naming a controller decides (see {@code ControllerManager.knownControllers()}).
   * They run on the server's {@link TestClock}, writing as kube's controller users. Default: none
   * (a bare kube-apiserver runs no controllers: a ReplicaSet gets no Pods). A name this project
   * does not implement fails the server's start.
   */
  String[] controllers() default {};

  /**
   * An alias of {@code controllers = "garbagecollector"}, kept for existing tests: runs
   * kube-controller-manager's garbage collector ({@code apiserver4j-controllers}'
   * {@code garbage-collector-controller}) beside the server, besides {@link #controllers()}: the
   * dependents of a deleted owner (by {@code metadata.ownerReferences}) are deleted, and the
   * {@code Orphan} and {@code Foreground} propagation policies complete (dependents orphaned, or
   * deleted first while they have {@code blockOwnerDeletion}). Default off, as a bare
   * kube-apiserver has no garbage collector: there, owners deleted with those policies keep their
   * {@code orphan} or {@code foregroundDeletion} finalizer forever.
   */
  boolean garbageCollection() default false;

  /**
   * How many simulated Nodes run beside the server ({@code apiserver4j-cluster}'s
   * {@code SimulatedCluster}, as {@code ./scripts/serve --simulated-nodes}): a default scheduler
   * binds Pods to them and their kubelets run the Pods (Running, Ready, Jobs' Pods complete) on
   * the {@link TestClock}, and {@code pods/log} answers from them. With {@link #controllers()}
   * a Deployment's Pods become Ready. Default 0: none, as a bare kube-apiserver has no nodes and
   * Pods stay {@code Pending}. {@link TestApiServer#awaitControllersIdle} waits for them too.
   */
  int nodes() default 0;

  /**
   * Admission plugins to enable besides kube-apiserver 1.36's default ones, as kube-apiserver's
   * {@code --enable-admission-plugins} (e.g. {@code NamespaceAutoProvision}). Default: none; the
   * default plugins (NamespaceLifecycle, LimitRanger, Priority, DefaultTolerationSeconds, ...)
   * run as in a cluster, all but those of {@link #disableAdmissionPlugins}.
   */
  String[] enableAdmissionPlugins() default {};

  /**
   * Default admission plugins to switch off, as kube-apiserver's
   * {@code --disable-admission-plugins}. Default: {@code ServiceAccount}, whose controllers write
   * the {@code default} ServiceAccount and the {@code kube-root-ca.crt} ConfigMap into every
   * namespace at their own time, which would make the kit's sequential uids and a namespace's
   * objects depend on timing; set {@code {}} to run it as a cluster does (Pods then get their
   * ServiceAccount token volume).
   */
  String[] disableAdmissionPlugins() default {"ServiceAccount"};

  /**
   * An {@code AdmissionConfiguration} with the plugins' configurations, as kube-apiserver's
   * {@code --admission-control-config-file}: a class path resource, else a file path. Default:
   * none.
   */
  String admissionControlConfigFile() default "";

  /**
   * The Kubernetes release whose API the server serves, as kube-apiserver's
   * {@code --emulated-version}: {@code major.minor}, {@code 1.33} to {@code 1.36}. An older
   * release serves only its resources, with its schemas (pruning, unknown-field warnings and
   * strict field validation follow its types), its discovery and OpenAPI documents, and
   * {@code /version} reports it as the emulation version. Default: {@code ""}, the newest
   * release. A value out of range fails the class with kube's message.
   */
  String kubernetesVersion() default "";

  /**
   * Feature gates to set, as kube-apiserver's {@code --feature-gates}: {@code A=true,B=false},
   * checked at the {@link #kubernetesVersion() emulated release}; kinds drop the fields of
   * disabled gates from what they store, as kube does. Default: {@code ""}, the release's
   * defaults. A bad value fails the class with kube's message.
   */
  String featureGates() default "";

  /** When servers are started and how the tests of a class are isolated from each other. */
  enum Lifecycle {
    /** One server for the class; what a test writes is seen by the next. */
    PER_CLASS,
    /**
     * One server for the class, its storage restored before each test to what it held once the
     * manifests were loaded; the port, the kubeconfig and injected clients stay the same. The
     * clock and the uid and name sequences are reset too.
     */
    RESET_PER_METHOD,
    /** A new server (and port, kubeconfig and clients) for each test. */
    PER_METHOD
  }
}
