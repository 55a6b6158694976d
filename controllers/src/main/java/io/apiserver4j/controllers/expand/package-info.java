/*
 * Copyright The apiserver4j authors.
 * SPDX-License-Identifier: Apache-2.0
 */
/**
 * kube's volume expand controller (pkg/controller/volume/expand) and, beside it, a simulated
 * CSI external-resizer that carries out the controller side of an expansion.
 */
package io.apiserver4j.controllers.expand;
