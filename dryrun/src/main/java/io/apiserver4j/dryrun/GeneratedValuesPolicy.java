/*
 * Copyright The apiserver4j authors.
 * SPDX-License-Identifier: Apache-2.0
 */
package io.apiserver4j.dryrun;

import static java.util.Objects.requireNonNull;

import io.apiserver4j.core.MapValue;
import io.apiserver4j.core.Meta;

/**
 * Which server-generated values a dry-run <em>create</em> response shows. Dry-run updates need
 * no policy: their resourceVersion is the stored one, as both sources agree.
 *
 * <p>The values differ from what the real request would produce, so clients must not rely on
 * them either way.
 */
public enum GeneratedValuesPolicy {
  /**
   * What kube-apiserver does (and the Kubernetes API docs describe): {@code metadata.uid},
   * {@code creationTimestamp} and a name generated from {@code generateName} are filled in as
   * for a real create; {@code resourceVersion} is empty. (kube-apiserver echoes a
   * resourceVersion the client sent, which the real create would reject; here it is always
   * empty, and a non-zero one is rejected exactly as the real create does.) The default.
   */
  KUBE_APISERVER,
  /**
   * What the dry-run design proposal specified: additionally, {@code metadata.uid} and a
   * generated name are left empty. Timestamps are generated as usual.
   */
  DESIGN_PROPOSAL;

  /**
   * kube-apiserver's behaviour.
   *
   * @return {@link #KUBE_APISERVER}
   */
  public static GeneratedValuesPolicy defaultPolicy() {
    return KUBE_APISERVER;
  }

  /**
   * Applies the policy to the response of a dry-run create.
   *
   * @param requested the object as the client sent it (tells whether the name was generated:
   *     no {@code metadata.name} but a {@code metadata.generateName})
   * @param response the object the dry-run create produced
   * @return the object to return to the client
   */
  public MapValue applyToCreate(MapValue requested, MapValue response) {
    requireNonNull(requested, "requested");
    requireNonNull(response, "response");
    MapValue out = Meta.withoutMeta(response, "resourceVersion");
    if (this == DESIGN_PROPOSAL) {
      out = Meta.withoutMeta(out, "uid");
      if (Meta.metaString(requested, "name").isEmpty()
          && !Meta.metaString(requested, "generateName").isEmpty()) {
        out = Meta.withoutMeta(out, "name");
      }
    }
    return out;
  }
}
