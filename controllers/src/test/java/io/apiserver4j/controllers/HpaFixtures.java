/*
 * Copyright The apiserver4j authors.
 * SPDX-License-Identifier: Apache-2.0
 */
package io.apiserver4j.controllers;

import io.apiserver4j.core.Json;
import io.apiserver4j.core.MapValue;

/** Objects the autoscaler scenario tests share. */
final class HpaFixtures {
  private HpaFixtures() {}

  /** Deployment {@code web} ({@code app: web}), its container requesting 200m of CPU. */
  static MapValue webDeployment(int replicas) {
    return (MapValue) Json.read("{\"apiVersion\":\"apps/v1\","
        + "\"kind\":\"Deployment\",\"metadata\":{\"name\":\"web\"},\"spec\":{\"replicas\":"
        + replicas + ",\"selector\":{\"matchLabels\":{\"app\":\"web\"}},\"template\":{"
        + "\"metadata\":{\"labels\":{\"app\":\"web\"}},\"spec\":{\"containers\":[{\"name\":"
        + "\"c\",\"image\":\"nginx\",\"resources\":{\"requests\":{\"cpu\":\"200m\"}}}]}}}}");
  }
}
