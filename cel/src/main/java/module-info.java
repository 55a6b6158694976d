/*
 * Copyright The apiserver4j authors.
 * SPDX-License-Identifier: Apache-2.0
 */

/**
 * The Kubernetes CEL environment: compile once, cost estimates and runtime limits, and kube's
 * extension libraries.
 *
 * <p>The CEL library (cel-java) is used only inside {@code io.apiserver4j.cel.internal} and stays
 * on the class path: its artifacts split packages between them ({@code dev.cel.common} is in five
 * of its jars) and have no module names, so they cannot be modules. This module therefore reads
 * the unnamed module; on the module path, run with
 * {@code --add-reads io.apiserver4j.cel=ALL-UNNAMED} and cel-java on the class path.
 */
module io.apiserver4j.cel {
  requires transitive io.apiserver4j.core;

  exports io.apiserver4j.cel;
}
