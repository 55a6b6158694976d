/*
 * Copyright The apiserver4j authors.
 * SPDX-License-Identifier: Apache-2.0
 */
package io.apiserver4j.apiserver.admission;

import io.apiserver4j.admission.UserInfo;
import io.apiserver4j.admission.matching.ConfigurationSource;
import io.apiserver4j.admission.plugins.NamespaceStore;
import io.apiserver4j.core.GroupResource;
import io.apiserver4j.core.GroupVersionResource;
import io.apiserver4j.core.MapValue;
import io.apiserver4j.storage.CollectionKey;
import io.apiserver4j.storage.ObjectKey;
import java.util.List;
import java.util.Optional;
import java.util.Random;

/**
 * What a built-in admission plugin reads from the server it runs in: kube's plugins read the
 * objects they need through informer listers (and fall back to live reads); here they read the
 * server's storage, which is current, so an object written just before a request is seen by it.
 * Objects are in their storage version. Implementations are thread-safe.
 */
public interface AdmissionPluginContext {

  /**
   * The stored object at {@code key}.
   *
   * @param key the object's storage key
   * @return the object, or empty when there is none
   * @throws io.apiserver4j.core.errors.StatusException when the storage fails
   */
  Optional<MapValue> get(ObjectKey key);

  /**
   * Every stored object of {@code collection}.
   *
   * @param collection the collection (a namespace, or all namespaces)
   * @return the objects in storage key order
   * @throws io.apiserver4j.core.errors.StatusException when the storage fails
   */
  List<MapValue> list(CollectionKey collection);

  /**
   * The objects of {@code resource} in every namespace as an informer of this server keeps them
   * (kube's plugins read through informer listers): a write through this server is seen by the
   * next request, a write by another server sharing the storage once its watch event arrives. A
   * plugin that must not act on a stale object checks the resourceVersion when it writes.
   *
   * <p>This default reads the storage on every call, for contexts without informers.
   *
   * @param resource the resource
   * @return the source of the objects, in storage version
   */
  default ConfigurationSource informer(GroupResource resource) {
    return () -> new ConfigurationSource.Snapshot(0,
        list(CollectionKey.all(resource.group(), resource.resource())));
  }

  /**
   * The server's namespaces.
   *
   * @return the namespace view the namespace plugins use
   */
  NamespaceStore namespaces();

  /**
   * The server's randomness (the one generated names use), for names a plugin generates.
   *
   * @return the random source; callers synchronize on it as the server does
   */
  Random random();

  /**
   * The server's clock, for what a plugin times or stamps.
   *
   * @return the clock the server stamps objects with
   */
  java.time.Clock clock();

  /**
   * The plugin's configuration from the admission configuration file
   * ({@code --admission-control-config-file}): the {@code configuration} of its entry, or the
   * document its {@code path} names.
   *
   * @param plugin the plugin name
   * @return the configuration object, or empty when the file has none for it
   */
  Optional<MapValue> configuration(String plugin);

  /**
   * Updates the {@code status} subresource of {@code object} (checked against its
   * resourceVersion) through the server the plugin runs in, as kube's plugins write through
   * kube-apiserver's loopback client (the ResourceQuota plugin charging a quota's
   * {@code status.used}): the whole request path, validation, admission and storage included.
   *
   * @return the object as stored
   * @throws io.apiserver4j.core.errors.StatusException as the server answers (409 when
   *     {@code object}'s resourceVersion is stale)
   */
  MapValue updateStatus(GroupVersionResource resource, MapValue object, UserInfo user,
      String fieldManager);
}
