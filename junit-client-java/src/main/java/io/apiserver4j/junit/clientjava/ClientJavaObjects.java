/*
 * Copyright The apiserver4j authors.
 * SPDX-License-Identifier: Apache-2.0
 */
package io.apiserver4j.junit.clientjava;

import static java.util.Objects.requireNonNull;

import io.apiserver4j.core.MapValue;
import io.apiserver4j.core.errors.Status;
import io.apiserver4j.core.Value;
import io.apiserver4j.junit.ApiServerAssertions;
import io.apiserver4j.junit.ModelConversions;
import io.apiserver4j.junit.StatusAssert;
import io.kubernetes.client.common.KubernetesObject;
import io.kubernetes.client.openapi.ApiException;
import io.kubernetes.client.openapi.JSON;

/**
 * Official-client model objects ({@code V1ConfigMap}, ...) in and out of the in-process API
 * ({@link io.apiserver4j.apiserver.ApiServer} and its
 * {@link io.apiserver4j.apiserver.ResourceClient}), and the assertions of
 * {@link ApiServerAssertions} on {@link ApiException}s. Conversions go through the client's own
 * JSON, which (in client-java 24) reads and writes no {@code metadata.managedFields}: to assert
 * who owns a field, read the object in process ({@code server.resources(...).get(name)}) and use
 * {@link ApiServerAssertions#assertThat(MapValue)}. Thread-safe.
 */
public final class ClientJavaObjects {
  private static final ModelConversions<KubernetesObject> MODELS =
      ModelConversions.of(JSON::serialize, JSON::deserialize);

  private ClientJavaObjects() {}

  /** The object as the in-process API takes it. */
  public static MapValue toValue(KubernetesObject object) {
    return MODELS.toValue(object);
  }

  /** A value the in-process API returned, as a model object of {@code type}. */
  public static <T extends KubernetesObject> T toObject(Value value, Class<T> type) {
    return MODELS.toObject(value, type);
  }

  /**
   * {@link ApiServerAssertions#assertThat(Status)} on the Status body of a failed call.
   *
   * @throws IllegalArgumentException if the response body is not a Status
   */
  public static StatusAssert assertThat(ApiException failure) {
    requireNonNull(failure, "failure");
    String body = failure.getResponseBody();
    if (body == null || body.isEmpty()) {
      throw new IllegalArgumentException("the exception carries no response body: " + failure);
    }
    return ModelConversions.assertThatStatus(body);
  }
}
