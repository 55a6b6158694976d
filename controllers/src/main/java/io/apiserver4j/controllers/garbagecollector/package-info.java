/*
 * Copyright The apiserver4j authors.
 * SPDX-License-Identifier: Apache-2.0
 */
/**
 * kube-controller-manager's garbage collector (kube's pkg/controller/garbagecollector): the
 * dependency graph of {@code metadata.ownerReferences}, built from the shared informers of
 * every deletable resource and maintained from their events, and the workers that delete
 * dependents whose owners are gone (background), delete dependents before their owner
 * ({@code foregroundDeletion}, {@code blockOwnerDeletion}) and orphan dependents
 * ({@code orphan}). Not exported.
 */
package io.apiserver4j.controllers.garbagecollector;
