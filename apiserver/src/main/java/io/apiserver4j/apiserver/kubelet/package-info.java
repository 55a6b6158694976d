/*
 * Copyright The apiserver4j authors.
 * SPDX-License-Identifier: Apache-2.0
 */

/**
 * What the server would ask a kubelet for: container logs ({@code pods/log}) from a pluggable
 * source, which simulated Nodes install.
 */
package io.apiserver4j.apiserver.kubelet;
