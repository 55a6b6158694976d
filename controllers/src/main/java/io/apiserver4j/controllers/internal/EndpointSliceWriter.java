/*
 * Copyright The apiserver4j authors.
 * SPDX-License-Identifier: Apache-2.0
 */
package io.apiserver4j.controllers.internal;

import io.apiserver4j.apiserver.ResourceClient;
import io.apiserver4j.core.MapValue;
import io.apiserver4j.core.Meta;
import io.apiserver4j.core.errors.NotFoundException;
import java.util.function.Function;

/**
 * Where the EndpointSlice controllers' reconcilers write the slices they compute: through the
 * API in a cluster, into a recorder in unit tests.
 */
public interface EndpointSliceWriter {
  /** Creates {@code slice}; returns it as stored. */
  MapValue create(MapValue slice);

  /** Updates {@code slice} (checked against its resourceVersion); returns it as stored. */
  MapValue update(MapValue slice);

  /** Deletes {@code slice}; one already gone is no error. */
  void delete(MapValue slice);

  /**
   * A writer through the API.
   *
   * @param clients the EndpointSlice client of a namespace, acting as the controller's user
   */
  static EndpointSliceWriter through(Function<String, ResourceClient> clients) {
    return new EndpointSliceWriter() {
      @Override
      public MapValue create(MapValue slice) {
        return clients.apply(Meta.metaString(slice, "namespace")).create(slice);
      }

      @Override
      public MapValue update(MapValue slice) {
        return clients.apply(Meta.metaString(slice, "namespace")).update(slice);
      }

      @Override
      public void delete(MapValue slice) {
        try {
          clients.apply(Meta.metaString(slice, "namespace"))
              .delete(Meta.metaString(slice, "name"));
        } catch (NotFoundException e) {
          // already gone
        }
      }
    };
  }
}
