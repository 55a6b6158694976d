/*
 * Copyright The apiserver4j authors.
 * SPDX-License-Identifier: Apache-2.0
 */
/**
 * {@code dryRun=All} as the server runs it: the option ({@link io.apiserver4j.dryrun.DryRun}),
 * the store that checks every write and performs none ({@link io.apiserver4j.dryrun.DryRunStore}),
 * what a delete does to an object ({@link io.apiserver4j.dryrun.DeletionPreview}), what a dry
 * create answers ({@link io.apiserver4j.dryrun.GeneratedValuesPolicy}); and, for client-side
 * tools only, kubectl's {@code --dry-run} flag ({@link io.apiserver4j.dryrun.ClientDryRun}),
 * which the server never parses: kubectl resolves it before it sends a request (as
 * {@code dryRun=All} for {@code server}, and sends no write for {@code client}).
 */
package io.apiserver4j.dryrun;
