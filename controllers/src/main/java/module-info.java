/*
 * Copyright The apiserver4j authors.
 * SPDX-License-Identifier: Apache-2.0
 */
/**
 * kube-controller-manager's controllers in the server's JVM: {@link
 * io.apiserver4j.controllers.ControllerManager} runs them on one shared informer per resource
 * over the server's store, with rate-limited work queues, on the server's clock, writing through
 * the API as kube's controller users.
 */
module io.apiserver4j.controllers {
  requires transitive io.apiserver4j.apiserver;
  requires io.apiserver4j.apimachinery;
  requires org.slf4j;

  exports io.apiserver4j.controllers;
  exports io.apiserver4j.controllers.metrics;
  exports io.apiserver4j.controllers.internal to io.apiserver4j.cluster;
}
