/*
 * Copyright The apiserver4j authors.
 * SPDX-License-Identifier: Apache-2.0
 */

/**
 * The etcd storage backend, on jetcd.
 *
 * <p>jetcd and gRPC stay on the class path: jetcd's jars have no module names (only names derived
 * from their file names, which a published module must not depend on), so this module reads the
 * unnamed module. {@code EtcdStore.Builder.client} takes a jetcd {@code Client}; on the module
 * path, run with {@code --add-reads io.apiserver4j.storage.etcd=ALL-UNNAMED} and jetcd, gRPC,
 * Netty and protobuf on the class path.
 */
module io.apiserver4j.storage.etcd {
  requires transitive io.apiserver4j.storage;
  requires org.slf4j;

  exports io.apiserver4j.storage.etcd;
}
