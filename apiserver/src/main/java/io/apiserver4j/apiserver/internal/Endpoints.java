/*
 * Copyright The apiserver4j authors.
 * SPDX-License-Identifier: Apache-2.0
 */
package io.apiserver4j.apiserver.internal;

import io.apiserver4j.apiserver.ApiRequest;
import io.apiserver4j.apiserver.ApiRequest.Verb;
import io.apiserver4j.apiserver.ResourceDefinition;
import io.apiserver4j.apiserver.SubresourceHandler;
import io.apiserver4j.core.GoStrings;
import io.apiserver4j.core.errors.Status;
import io.apiserver4j.core.errors.StatusDetails;
import io.apiserver4j.core.errors.StatusErrors;
import io.apiserver4j.core.errors.StatusException;
import io.apiserver4j.core.errors.StatusReason;
import java.util.ArrayList;
import java.util.List;
import io.apiserver4j.apimachinery.validation.MetaValidation;

/**
 * Resolves a request to its endpoint as kube-apiserver's router does: the served resource, the
 * subresource it has, the scope (namespaced or not) and the URL parts the verb needs; 404 and
 * 405 with kube's texts otherwise.
 */
final class Endpoints {
  private final Registry registry;

  Endpoints(Registry registry) {
    this.registry = registry;
  }

  static StatusException resourceNotFound() {
    return StatusException.of(Status.failure(StatusReason.NOT_FOUND,
        "the server could not find the requested resource", StatusDetails.of("", "", "")));
  }

  static StatusException methodNotAllowed() {
    return StatusException.of(Status.failure(StatusReason.METHOD_NOT_ALLOWED,
        "the server does not allow this method on the requested resource",
        StatusDetails.of("", "", "")));
  }

  /** The definition serving {@code r}, after checking its URL parts. */
  ResourceDefinition resolve(ApiRequest r) {
    ResourceDefinition def = registry.find(r.resource()).orElseThrow(Endpoints::resourceNotFound);
    Verb verb = r.verb();
    String sub = r.subresource();
    if (sub.isEmpty() && !def.verbs().contains(kubeVerb(verb))) {
      // kube registers no handler for a verb the resource's storage lacks
      throw methodNotAllowed();
    }
    if (!sub.isEmpty()) {
      SubresourceHandler handler = def.subresource(sub).orElseThrow(Endpoints::resourceNotFound);
      if (!handler.verbs().contains(verb)) {
        throw methodNotAllowed();
      }
    }
    boolean collectionWide = verb == Verb.LIST || verb == Verb.WATCH;
    if (def.namespaced() ? r.namespace().isEmpty() && !collectionWide
        : !r.namespace().isEmpty()) {
      throw resourceNotFound();
    }
    boolean named = verb == Verb.GET || verb == Verb.UPDATE || verb == Verb.PATCH
        || verb == Verb.DELETE || (verb == Verb.CREATE && !sub.isEmpty());
    if (named ? r.name().isEmpty() : !r.name().isEmpty() && verb != Verb.WATCH) {
      throw methodNotAllowed();
    }
    checkPathSegment("resource name", r.name());
    checkPathSegment("namespace", r.namespace());
    return def;
  }

  /** The verb as discovery and authorization name it. */
  static String kubeVerb(Verb verb) {
    return verb == Verb.DELETE_COLLECTION ? "deletecollection"
        : verb.name().toLowerCase(java.util.Locale.ROOT);
  }

  private static void checkPathSegment(String what, String value) {
    if (value.isEmpty()) {
      return;
    }
    List<String> errs = MetaValidation.pathSegment(value, false);
    if (value.indexOf('\0') >= 0) {
      errs = new ArrayList<>(errs);
      errs.add("may not contain NUL");
    }
    if (!errs.isEmpty()) {
      throw StatusErrors.badRequest("invalid " + what + " " + GoStrings.quote(value) + ": "
          + errs);
    }
  }
}
