/*
 * Copyright The apiserver4j authors.
 * SPDX-License-Identifier: Apache-2.0
 */
/**
 * Who is asking and may they: the authenticator and authorizer SPI of the server (requests,
 * results, attributes, decisions) and its audit hooks, free of any HTTP server, so that RBAC and
 * the token authenticators build on it alone.
 */
module io.apiserver4j.authz {
  requires transitive io.apiserver4j.core;
  requires transitive io.apiserver4j.admission;
  requires java.naming;

  exports io.apiserver4j.authz;
}
