/*
 * Copyright The apiserver4j authors.
 * SPDX-License-Identifier: Apache-2.0
 */
/**
 * The controller runtime, shared by the controllers of this module and not exported: shared
 * informers over the store, rate-limited work queues, timers on the server clock, and the
 * activity count behind {@code ControllerManager.awaitIdle}.
 */
package io.apiserver4j.controllers.internal;
