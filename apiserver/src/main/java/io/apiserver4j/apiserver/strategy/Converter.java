/*
 * Copyright The apiserver4j authors.
 * SPDX-License-Identifier: Apache-2.0
 */
package io.apiserver4j.apiserver.strategy;

import io.apiserver4j.core.ListValue;
import io.apiserver4j.core.MapValue;
import io.apiserver4j.core.Meta;
import io.apiserver4j.core.Nested;
import io.apiserver4j.core.Value;
import java.util.List;

/**
 * Converts an object to another served version of its resource ({@code apiVersion}), as a
 * CRD's conversion strategy does. The default is kube's strategy None: only apiVersion
 * changes.
 */
@FunctionalInterface
public interface Converter {
  /**
   * @throws io.apiserver4j.core.errors.StatusException with kube's error when the conversion fails
   */
  MapValue convert(MapValue object, String apiVersion);

  /**
   * Converts the {@code items} of a list object to {@code apiVersion} (items already there
   * stay as they are) and gives the list that apiVersion, as kube converts an
   * {@code UnstructuredList}. The default converts item by item.
   *
   * @throws io.apiserver4j.core.errors.StatusException with kube's error when the conversion fails
   */
  default MapValue convertList(MapValue list, String apiVersion) {
    List<Value> items = Nested.list(list, "items");
    ListValue.Builder b = ListValue.builder(items.size());
    for (Value item : items) {
      MapValue m = (MapValue) item;
      b.add(Meta.string(m, "apiVersion").equals(apiVersion) ? m : convert(m, apiVersion));
    }
    return list.with("apiVersion", Value.of(apiVersion)).with("items", b.build());
  }

  /**
   * Whether a list answer is converted with one {@link #convertList} before it is written
   * (kube's webhook converter: one ConversionReview per list) rather than item by item as it
   * is streamed.
   */
  default boolean convertsWholeLists() {
    return false;
  }

  /** kube's strategy None: only {@code apiVersion} changes. */
  Converter NONE = (o, apiVersion) -> o.with("apiVersion", Value.of(apiVersion));
}
