/*
 * Copyright The apiserver4j authors.
 * SPDX-License-Identifier: Apache-2.0
 */
package io.apiserver4j.examples.operator;

import io.fabric8.kubernetes.api.model.ConfigMap;
import io.fabric8.kubernetes.api.model.ConfigMapBuilder;
import io.fabric8.kubernetes.api.model.GenericKubernetesResource;
import io.fabric8.kubernetes.api.model.OwnerReferenceBuilder;
import io.fabric8.kubernetes.client.KubernetesClient;
import io.fabric8.kubernetes.client.informers.ResourceEventHandler;
import io.fabric8.kubernetes.client.informers.SharedIndexInformer;
import java.util.Map;

/**
 * A minimal operator, as an operator author would write it with fabric8: an informer on the
 * {@code Widget} custom resource and a reconcile step that server-side applies a ConfigMap owned
 * by (and garbage-collected with) each Widget, carrying its color.
 */
public final class WidgetOperator implements AutoCloseable {
  static final String MANAGER = "widget-operator";
  private final KubernetesClient client;
  private final SharedIndexInformer<GenericKubernetesResource> informer;

  private WidgetOperator(KubernetesClient client) {
    this.client = client;
    this.informer = client.genericKubernetesResources("example.com/v1", "Widget")
        .inAnyNamespace().inform(new ResourceEventHandler<>() {
          @Override
          public void onAdd(GenericKubernetesResource widget) {
            reconcile(widget);
          }

          @Override
          public void onUpdate(GenericKubernetesResource old, GenericKubernetesResource widget) {
            reconcile(widget);
          }

          @Override
          public void onDelete(GenericKubernetesResource widget, boolean unknownState) {
            // the ConfigMap's ownerReference lets the garbage collector delete it
          }
        });
  }

  /** Starts the informer; {@link #close()} stops it. */
  public static WidgetOperator start(KubernetesClient client) {
    return new WidgetOperator(client);
  }

  void reconcile(GenericKubernetesResource widget) {
    Map<String, Object> spec = widget.get("spec");
    ConfigMap desired = new ConfigMapBuilder().withNewMetadata()
        .withName(widget.getMetadata().getName() + "-config")
        .withNamespace(widget.getMetadata().getNamespace())
        .withOwnerReferences(new OwnerReferenceBuilder().withApiVersion(widget.getApiVersion())
            .withKind(widget.getKind()).withName(widget.getMetadata().getName())
            .withUid(widget.getMetadata().getUid()).withController(true)
            .withBlockOwnerDeletion(true).build())
        .endMetadata()
        .addToData("color", String.valueOf(spec.get("color")))
        .build();
    client.configMaps().resource(desired).fieldManager(MANAGER).forceConflicts()
        .serverSideApply();
  }

  @Override
  public void close() {
    informer.close();
  }
}
