/*
 * Copyright The apiserver4j authors.
 * SPDX-License-Identifier: Apache-2.0
 */
/**
 * kube's namespace controller (pkg/controller/namespace): the content of a terminating namespace
 * deleted through the API, its progress in the namespace's status conditions, and the
 * {@code kubernetes} finalizer removed through {@code namespaces/finalize} once it is empty.
 */
package io.apiserver4j.controllers.namespace;
