/*
 * Copyright The apiserver4j authors.
 * SPDX-License-Identifier: Apache-2.0
 */
/**
 * The runnable API server with kube-apiserver's flag names: {@link io.apiserver4j.server.Serve}.
 *
 * <p>On the module path it runs as
 * {@code java -p MODULES -cp CLASS_PATH --add-modules ALL-MODULE-PATH
 * --add-reads io.apiserver4j.apiextensions=ALL-UNNAMED
 * --add-reads io.apiserver4j.storage.etcd=ALL-UNNAMED -m io.apiserver4j.server/io.apiserver4j.server.Serve},
 * with the libraries that cannot be modules (RE2/J, jetcd with gRPC and Netty) on the class path
 * and the built-in kinds' module {@code io.apiserver4j.registry} on the module path (cel-java is
 * inside {@code io.apiserver4j.cel}, relocated). {@code validate} as the first argument checks
 * manifests instead of serving (see {@code io.apiserver4j.server.validate.ValidateCommand}).
 */
module io.apiserver4j.server {
  requires io.apiserver4j.admission;
  requires io.apiserver4j.apiserver;
  requires io.apiserver4j.auth;
  requires io.apiserver4j.cluster;
  requires io.apiserver4j.authz;
  requires io.apiserver4j.controllers;
  requires io.apiserver4j.core;
  requires io.apiserver4j.http;
  requires io.apiserver4j.storage;
  requires io.apiserver4j.storage.etcd;
  requires io.apiserver4j.validate;
  requires org.slf4j;

  exports io.apiserver4j.server;
}
