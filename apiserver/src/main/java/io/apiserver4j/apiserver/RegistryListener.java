package io.apiserver4j.apiserver;

/**
 * Told about changes of a {@link ResourceRegistry}: definitions added when a
 * CustomResourceDefinition becomes established, removed when it is deleted, replaced when it
 * changes. Implementations must be fast and must not call back into the server.
 */
@FunctionalInterface
public interface RegistryListener {
  /** One change. */
  enum Change { ADDED, REMOVED, REPLACED }

  void onChange(Change change, ResourceDefinition definition);
}
