/*
 * Copyright The apiserver4j authors.
 * SPDX-License-Identifier: Apache-2.0
 */
package io.apiserver4j.controllers;

import java.util.LinkedHashMap;
import java.util.Map;

/**
 * kube-controller-manager 1.36's {@code --concurrent-<name>-syncs} flags: per flag name (the
 * part between {@code --concurrent-} and {@code -syncs}) the controller whose workers it counts
 * and kube's default.
 */
final class ConcurrentSyncs {
  /** One {@code --concurrent-*-syncs} flag. */
  record Entry(String controller, int kubeDefault) {}

  private static final Map<String, Entry> ALL = build();

  private ConcurrentSyncs() {}

  private static Map<String, Entry> build() {
    Map<String, Entry> m = new LinkedHashMap<>();
    m.put("gc", new Entry("garbage-collector-controller", 20));
    m.put("replicaset", new Entry("replicaset-controller", 5));
    m.put("rc", new Entry("replicationcontroller-controller", 5));
    m.put("namespace", new Entry("namespace-controller", 10));
    m.put("deployment", new Entry("deployment-controller", 5));
    m.put("statefulset", new Entry("statefulset-controller", 5));
    m.put("daemonset", new Entry("daemonset-controller", 2));
    m.put("job", new Entry("job-controller", 5));
    m.put("cron-job", new Entry("cronjob-controller", 5));
    m.put("endpoint", new Entry("endpoints-controller", 5));
    m.put("service-endpoint", new Entry("endpointslice-controller", 5));
    m.put("resource-quota", new Entry("resourcequota-controller", 5));
    m.put("serviceaccount-token", new Entry("serviceaccount-token-controller", 5));
    m.put("ttl-after-finished", new Entry("ttl-after-finished-controller", 5));
    m.put("ephemeralvolume", new Entry("ephemeral-volume-controller", 5));
    m.put("horizontal-pod-autoscaler", new Entry("horizontal-pod-autoscaler-controller", 5));
    return Map.copyOf(m);
  }

  /** Every flag by name, in no particular order. */
  static Map<String, Entry> all() {
    return ALL;
  }
}
