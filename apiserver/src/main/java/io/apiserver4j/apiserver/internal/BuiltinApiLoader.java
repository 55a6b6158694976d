/*
 * Copyright The apiserver4j authors.
 * SPDX-License-Identifier: Apache-2.0
 */
package io.apiserver4j.apiserver.internal;

import io.apiserver4j.apiserver.BuiltinApi;
import java.util.Iterator;
import java.util.ServiceLoader;

/** Finds the one {@link BuiltinApi} implementation once, on first use. */
public final class BuiltinApiLoader {
  private BuiltinApiLoader() {}

  /** The implementation; see {@link BuiltinApi#load()} for the failures. */
  public static BuiltinApi instance() {
    return Holder.INSTANCE;
  }

  private static final class Holder {
    static final BuiltinApi INSTANCE = find();
  }

  private static BuiltinApi find() {
    Iterator<BuiltinApi> found =
        ServiceLoader.load(BuiltinApi.class, BuiltinApi.class.getClassLoader()).iterator();
    if (!found.hasNext()) {
      throw new IllegalStateException("no built-in API on the class path: add the"
          + " io.apiserver4j:apiserver4j-registry artifact, or build the server with"
          + " builtins(false)");
    }
    BuiltinApi api = found.next();
    if (found.hasNext()) {
      throw new IllegalStateException("more than one built-in API on the class path: "
          + api.getClass().getName() + " and " + found.next().getClass().getName());
    }
    return api;
  }
}
