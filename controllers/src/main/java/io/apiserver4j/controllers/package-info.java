/*
 * Copyright The apiserver4j authors.
 * SPDX-License-Identifier: Apache-2.0
 */
/**
 * kube-controller-manager's controllers for an {@link io.apiserver4j.apiserver.ApiServer}:
 * {@link io.apiserver4j.controllers.ControllerManager}.
 */
package io.apiserver4j.controllers;
