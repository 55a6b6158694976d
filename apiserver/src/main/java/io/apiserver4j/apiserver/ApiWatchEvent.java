/*
 * Copyright The apiserver4j authors.
 * SPDX-License-Identifier: Apache-2.0
 */
package io.apiserver4j.apiserver;

import static java.util.Objects.requireNonNull;

import io.apiserver4j.core.MapValue;

/**
 * One watch event as kube-apiserver sends it: {@code type} is {@code ADDED}, {@code MODIFIED},
 * {@code DELETED}, {@code BOOKMARK} or {@code ERROR}; {@code object} is the object (for a
 * bookmark, an object carrying only its kind and {@code metadata.resourceVersion}; for an error,
 * a {@code Status}).
 *
 * @param type the event type
 * @param object the event's object
 */
public record ApiWatchEvent(String type, MapValue object) {
  public ApiWatchEvent {
    requireNonNull(type, "type");
    requireNonNull(object, "object");
  }
}
