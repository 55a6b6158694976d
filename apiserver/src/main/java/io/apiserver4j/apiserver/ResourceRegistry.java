package io.apiserver4j.apiserver;

import io.apiserver4j.core.GroupVersionKind;
import io.apiserver4j.core.GroupVersionResource;
import java.util.List;
import java.util.Optional;

/**
 * The resources an {@link ApiServer} serves: the built-in kinds, those given to the builder, and
 * custom resources registered while CustomResourceDefinitions exist. Discovery documents are
 * derived from it; {@link #addListener} reports every change so that they can be refreshed.
 *
 * <p>Thread-safe; lookups see a consistent snapshot.
 */
public interface ResourceRegistry {
  /** The definition serving {@code resource}. */
  Optional<ResourceDefinition> find(GroupVersionResource resource);

  /** The definition serving {@code kind}. */
  Optional<ResourceDefinition> findByKind(GroupVersionKind kind);

  /** Every served definition, in registration order. */
  List<ResourceDefinition> all();

  /**
   * Calls {@code listener} after every later change, on the thread that made it (a request
   * creating, updating or deleting a CustomResourceDefinition).
   */
  void addListener(RegistryListener listener);

  void removeListener(RegistryListener listener);
}
