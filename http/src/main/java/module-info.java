/*
 * Copyright The apiserver4j authors.
 * SPDX-License-Identifier: Apache-2.0
 */
/**
 * The Kubernetes REST API of an API server over HTTP, on Jetty 12: routing, discovery, OpenAPI,
 * content negotiation, watches, authentication and authorization at the door.
 *
 * <p>The built-in kinds come from module {@code io.apiserver4j.registry}, which this module does
 * not read: the API server finds it as its {@link io.apiserver4j.apiserver.BuiltinApi} service
 * provider. It must be on the module path (Maven puts it there, as the runtime dependency of
 * {@code apiserver4j-http}); {@code java --module-path} then resolves it by service binding. A
 * launch that resolves without binding services (a {@code ModuleLayer} built with
 * {@code Configuration.resolve}, {@code jlink} without {@code --bind-services}) must name it:
 * {@code --add-modules io.apiserver4j.registry}.
 *
 * <p>CEL and RE2/J, which the API server uses through {@code io.apiserver4j.cel} and
 * {@code io.apiserver4j.apiextensions}, cannot be modules: on the module path, run with
 * {@code --add-reads io.apiserver4j.cel=ALL-UNNAMED},
 * {@code --add-reads io.apiserver4j.apiextensions=ALL-UNNAMED} and cel-java with its
 * dependencies on the class path (see those modules' descriptors).
 */
module io.apiserver4j.http {
  requires transitive io.apiserver4j.core;
  requires transitive io.apiserver4j.admission;
  requires transitive io.apiserver4j.authz;
  requires transitive io.apiserver4j.apiserver;
  requires io.apiserver4j.apimachinery;
  requires io.apiserver4j.cel;
  requires io.apiserver4j.kubeapi;
  requires io.apiserver4j.merge;
  requires io.apiserver4j.storage;
  requires com.fasterxml.jackson.core;
  requires org.eclipse.jetty.alpn.server;
  requires org.eclipse.jetty.http;
  requires org.eclipse.jetty.http2.common;
  requires org.eclipse.jetty.http2.server;
  requires org.eclipse.jetty.io;
  requires org.eclipse.jetty.server;
  requires org.eclipse.jetty.util;
  requires org.eclipse.jetty.websocket.api;
  requires org.eclipse.jetty.websocket.server;
  requires org.slf4j;

  exports io.apiserver4j.http;

  // Jetty binds a watch's WebSocket endpoint (WatchStreamer.WatchSocket) through
  // MethodHandles.publicLookup(), which reaches only packages exported or opened to everyone: a
  // qualified opens is not enough. Opening is not exporting: nothing compiles against it.
  opens io.apiserver4j.http.internal;
}
