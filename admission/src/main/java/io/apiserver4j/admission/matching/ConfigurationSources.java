/*
 * Copyright The apiserver4j authors.
 * SPDX-License-Identifier: Apache-2.0
 */
package io.apiserver4j.admission.matching;

import io.apiserver4j.core.GroupResource;

/**
 * Gives the {@link ConfigurationSource} of any served resource, and the namespaces and
 * equivalent resources matching needs: what the server hands to admission plugins configured by
 * API objects. Thread-safe.
 */
public interface ConfigurationSources {
  /**
   * The source of {@code resource}'s objects, following them from now on (the first call for a
   * resource lists it).
   *
   * @throws io.apiserver4j.core.errors.StatusException if the objects cannot be listed
   * @param resource the configuration resource
   * @return the source, shared by later calls for the resource
   */
  ConfigurationSource source(GroupResource resource);

  /**
   * Reads namespaces for namespace selectors.
   *
   * @return the namespace lookup
   */
  NamespaceLookup namespaces();

  /**
   * The served resources' equivalents, for {@link MatchPolicy#EQUIVALENT}.
   *
   * @return the equivalents
   */
  EquivalentResources equivalents();

  /**
   * Converts objects to the version an equivalent match names.
   *
   * @return the converter; by default {@link ObjectConverter#API_VERSION}
   */
  default ObjectConverter converter() {
    return ObjectConverter.API_VERSION;
  }
}
