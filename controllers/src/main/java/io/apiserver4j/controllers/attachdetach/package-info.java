/*
 * Copyright The apiserver4j authors.
 * SPDX-License-Identifier: Apache-2.0
 */
/**
 * kube's attach/detach controller (pkg/controller/volume/attachdetach) for CSI volumes, with a
 * simulated external attacher beside it. Not exported.
 */
package io.apiserver4j.controllers.attachdetach;
