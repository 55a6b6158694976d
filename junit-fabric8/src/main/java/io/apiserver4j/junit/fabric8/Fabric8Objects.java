/*
 * Copyright The apiserver4j authors.
 * SPDX-License-Identifier: Apache-2.0
 */
package io.apiserver4j.junit.fabric8;

import static java.util.Objects.requireNonNull;

import io.apiserver4j.core.MapValue;
import io.apiserver4j.core.errors.Status;
import io.apiserver4j.core.Value;
import io.apiserver4j.junit.ApiServerAssertions;
import io.apiserver4j.junit.ModelConversions;
import io.apiserver4j.junit.ObjectAssert;
import io.apiserver4j.junit.StatusAssert;
import io.fabric8.kubernetes.api.model.KubernetesResource;
import io.fabric8.kubernetes.client.KubernetesClientException;
import io.fabric8.kubernetes.client.utils.KubernetesSerialization;

/**
 * fabric8 model objects in and out of the in-process API ({@link io.apiserver4j.apiserver.ApiServer}
 * and its {@link io.apiserver4j.apiserver.ResourceClient}), and the assertions of
 * {@link ApiServerAssertions} on them:
 *
 * <pre>{@code
 * ConfigMap cm = Fabric8Objects.toObject(configMaps.create(Fabric8Objects.toValue(desired)),
 *     ConfigMap.class);
 * Fabric8Objects.assertThat(client.apps().deployments().withName("web").get())
 *     .field(".spec.replicas").isOwnedBy("hpa-controller");
 * Fabric8Objects.assertThat(conflict).isConflictOn(".data.a").with("alice");
 * }</pre>
 *
 * <p>Conversions go through JSON with fabric8's own serialization, so they are exactly what the
 * client would send or read. Thread-safe.
 */
public final class Fabric8Objects {
  private static final KubernetesSerialization SERIALIZATION = new KubernetesSerialization();
  private static final ModelConversions<KubernetesResource> MODELS =
      ModelConversions.of(SERIALIZATION::asJson, SERIALIZATION::unmarshal);

  private Fabric8Objects() {}

  /** The object as the in-process API takes it. */
  public static MapValue toValue(KubernetesResource object) {
    return MODELS.toValue(object);
  }

  /** A value the in-process API returned, as a fabric8 model object of {@code type}. */
  public static <T extends KubernetesResource> T toObject(Value value, Class<T> type) {
    return MODELS.toObject(value, type);
  }

  /** {@link ApiServerAssertions#assertThat(MapValue)} on a fabric8 object. */
  public static ObjectAssert assertThat(KubernetesResource object) {
    return MODELS.assertThat(object);
  }

  /**
   * {@link ApiServerAssertions#assertThat(Status)} on the Status a fabric8 call failed with.
   *
   * @throws IllegalArgumentException if the exception carries no Status (a client-side failure)
   */
  public static StatusAssert assertThat(KubernetesClientException failure) {
    requireNonNull(failure, "failure");
    if (failure.getStatus() == null) {
      throw new IllegalArgumentException("the exception carries no Status: " + failure);
    }
    return ModelConversions.assertThatStatus(SERIALIZATION.asJson(failure.getStatus()));
  }
}
