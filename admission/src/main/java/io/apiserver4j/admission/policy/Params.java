/*
 * Copyright The apiserver4j authors.
 * SPDX-License-Identifier: Apache-2.0
 */
package io.apiserver4j.admission.policy;

import io.apiserver4j.core.MapValue;
import io.apiserver4j.core.Meta;
import io.apiserver4j.core.NullValue;
import io.apiserver4j.core.errors.StatusException;
import io.apiserver4j.core.Value;
import java.util.ArrayList;
import java.util.List;
import java.util.Optional;

/** kube's {@code CollectParams}, with its error texts, for both kinds of policy. */
final class Params {
  private Params() {}

  /**
   * The parameter objects a binding selects for a request in {@code requestNamespace}: a single
   * null when the policy or binding names none.
   *
   * @throws ParamException with kube's text when they cannot be resolved
   */
  static List<Value> collect(Optional<CompiledValidatingPolicy.ParamKind> kind,
      MapValue bindingSpec, String requestNamespace, PolicyContext context) {
    Value refValue = bindingSpec.getOrNull("paramRef");
    if (kind.isEmpty() || !(refValue instanceof MapValue ref)) {
      return List.of(Value.nullValue());
    }
    ParamSource source = context.params(kind.get().apiVersion(), kind.get().kind())
        .orElseThrow(() -> new ParamException("paramKind kind `" + kind.get()
            + "` not known"));
    String refNamespace = Meta.string(ref, "namespace");
    String namespace = "";
    if (source.namespaced()) {
      namespace = !refNamespace.isEmpty() ? refNamespace : requestNamespace;
      if (namespace.isEmpty()) {
        throw new ParamException("cannot use namespaced paramRef in policy binding that"
            + " matches cluster-scoped resources");
      }
    } else if (!refNamespace.isEmpty()) {
      throw new ParamException(
          "paramRef.namespace must not be provided for a cluster-scoped `paramKind`");
    }
    String name = Meta.string(ref, "name");
    Value selector = ref.getOrNull("selector");
    boolean hasSelector = selector != null && !(selector instanceof NullValue);
    List<Value> params = new ArrayList<>();
    if (!name.isEmpty()) {
      if (hasSelector) {
        throw new ParamException("paramRef.name and paramRef.selector are mutually exclusive");
      }
      source.get(namespace, name).ifPresent(params::add);
    } else if (hasSelector) {
      try {
        params.addAll(source.list(namespace, CompiledValidatingPolicy.map(selector)));
      } catch (StatusException e) {
        throw new ParamException(e.getMessage());
      }
    } else {
      throw new ParamException("one of name or selector must be provided");
    }
    if (params.isEmpty() && "Deny".equals(
        Meta.string(ref, "parameterNotFoundAction"))) {
      throw new ParamException(
          "no params found for policy binding with `Deny` parameterNotFoundAction");
    }
    return params;
  }

  /** A binding whose parameters cannot be resolved. */
  static final class ParamException extends RuntimeException {
    private static final long serialVersionUID = 1L;

    ParamException(String message) {
      super(message, null, false, false);
    }
  }
}
