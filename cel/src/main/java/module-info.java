/*
 * Copyright The apiserver4j authors.
 * SPDX-License-Identifier: Apache-2.0
 */

/**
 * The Kubernetes CEL environment: compile once, cost estimates and runtime limits, and kube's
 * extension libraries.
 *
 * <p>The CEL library (cel-java) is used only inside {@code io.apiserver4j.cel.internal}. The
 * published jar carries it, with protobuf-java, Guava and the rest of what it needs at exact
 * versions, relocated under {@code io.apiserver4j.cel.internal.shaded}: concealed packages of
 * this module that no other version of those libraries on a user's path can replace. The
 * {@code requires} below are what those libraries link against. This module's own build compiles
 * against the unrelocated cel-java on the class path (its artifacts split packages and have no
 * module names), so it reads the unnamed module there.
 */
module io.apiserver4j.cel {
  requires transitive io.apiserver4j.core;
  // protobuf-java and Guava log through java.util.logging and use sun.misc.Unsafe when present
  requires java.logging;
  requires jdk.unsupported;
  // SnakeYAML's bean introspection, which CEL never reaches
  requires static java.desktop;

  exports io.apiserver4j.cel;
}
