/*
 * Copyright The apiserver4j authors.
 * SPDX-License-Identifier: Apache-2.0
 */
/**
 * kube's ttl-after-finished controller (pkg/controller/ttlafterfinished): finished Jobs with
 * {@code spec.ttlSecondsAfterFinished} deleted, in the foreground, once that many seconds of
 * the server clock have passed since they finished.
 */
package io.apiserver4j.controllers.ttlafterfinished;
