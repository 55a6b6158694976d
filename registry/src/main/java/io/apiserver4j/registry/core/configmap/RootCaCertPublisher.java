/*
 * Copyright The apiserver4j authors.
 * SPDX-License-Identifier: Apache-2.0
 */
package io.apiserver4j.registry.core.configmap;

import static java.util.Objects.requireNonNull;

import io.apiserver4j.apiserver.ApiServer;
import io.apiserver4j.core.GroupVersionResource;
import io.apiserver4j.core.MapValue;
import io.apiserver4j.core.Meta;
import io.apiserver4j.core.Nested;
import io.apiserver4j.core.Value;
import io.apiserver4j.registry.internal.NamespaceDefaults;
import io.apiserver4j.storage.Store;
import java.util.Map;

/**
 * kube-controller-manager's root-ca-cert-publisher: every active namespace has the
 * {@code kube-root-ca.crt} ConfigMap whose {@code ca.crt} is the cluster's CA (what the
 * ServiceAccount plugin's projected volume mounts), created with the namespace, restored when
 * deleted and set back when its CA or description annotation is changed; written as
 * {@code system:serviceaccount:kube-system:root-ca-cert-publisher} (managed by
 * {@code kube-controller-manager}). Thread-safe.
 */
public final class RootCaCertPublisher extends NamespaceDefaults {
  /** The controller's name in kube-controller-manager. */
  public static final String NAME = "root-ca-cert-publisher";
  /** The ConfigMap's name. */
  public static final String CONFIG_MAP = "kube-root-ca.crt";
  /** The key of the CA bundle. */
  public static final String KEY = "ca.crt";
  static final String DESCRIPTION_ANNOTATION = "kubernetes.io/description";
  static final String DESCRIPTION = "Contains a CA bundle that can be used to verify the"
      + " kube-apiserver when using internal endpoints such as the internal service IP or"
      + " kubernetes.default.svc. No other usage is guaranteed across distributions of"
      + " Kubernetes clusters.";

  private final String ca;

  private RootCaCertPublisher(ApiServer server, Store store, String ca) {
    super(server, store, new GroupVersionResource("", "v1", "configmaps"), CONFIG_MAP, NAME);
    this.ca = requireNonNull(ca, "ca");
  }

  /**
   * Starts the publisher on {@code server}: the namespaces that exist now have the ConfigMap
   * when this returns; later ones get it in the background.
   *
   * @param server the server written through
   * @param store its storage, followed by the controller's informers
   * @param caPem the cluster CA's PEM
   * @return the running controller; close it to stop it
   */
  public static RootCaCertPublisher start(ApiServer server, Store store, String caPem) {
    RootCaCertPublisher c = new RootCaCertPublisher(server, store, caPem);
    c.start();
    return c;
  }

  @Override
  protected MapValue desired(String namespace) {
    return MapValue.ofEntries("apiVersion", Value.of("v1"), "kind", Value.of("ConfigMap"),
        "metadata", metadata(namespace, Map.of(DESCRIPTION_ANNOTATION, DESCRIPTION)),
        "data", MapValue.ofEntries(KEY, Value.of(ca)));
  }

  @Override
  protected boolean outdated(MapValue existing, MapValue desired) {
    return !Nested.map(existing, "data").equals(Nested.map(desired, "data"))
        || !DESCRIPTION.equals(Meta.annotations(existing).get(DESCRIPTION_ANNOTATION));
  }

  @Override
  protected MapValue updated(MapValue existing, MapValue desired) {
    // kube's publisher sets the data and the description and keeps the rest of the object
    MapValue annotations = Nested.map(existing, "metadata", "annotations")
        .with(DESCRIPTION_ANNOTATION, Value.of(DESCRIPTION));
    return Nested.set(existing.with("data", Nested.map(desired, "data")).without("binaryData"),
        annotations, "metadata", "annotations");
  }
}
