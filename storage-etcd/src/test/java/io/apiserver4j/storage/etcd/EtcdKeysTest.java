/*
 * Copyright The apiserver4j authors.
 * SPDX-License-Identifier: Apache-2.0
 */
package io.apiserver4j.storage.etcd;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import io.apiserver4j.core.errors.InternalErrorException;
import io.apiserver4j.storage.CollectionKey;
import io.apiserver4j.storage.ObjectKey;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.CsvSource;
import org.junit.jupiter.params.provider.ValueSource;

class EtcdKeysTest {
  private final EtcdKeys keys = new EtcdKeys("/p");

  @ParameterizedTest
  @CsvSource({
      "'', configmaps, default, a, /p//configmaps/default/a",
      "apps, deployments, ns, d, /p/apps/deployments/ns/d",
      "'', nodes, '', n1, /p//nodes/n1",
      "example.com, widgets, '', w, /p/example.com/widgets/w"})
  void objectKeysRoundTrip(String group, String resource, String namespace, String name,
      String etcdKey) {
    ObjectKey key = new ObjectKey(group, resource, namespace, name);
    assertThat(keys.key(key)).isEqualTo(etcdKey);
    assertThat(keys.objectKey(key.collection().allNamespaces(), etcdKey)).isEqualTo(key);
    assertThat(etcdKey).startsWith(keys.collectionPrefix(key.collection()));
  }

  @Test
  void collectionPrefixes() {
    assertThat(keys.collectionPrefix(CollectionKey.all("", "configmaps")))
        .isEqualTo("/p//configmaps/");
    assertThat(keys.collectionPrefix(CollectionKey.inNamespace("apps", "deployments", "ns")))
        .isEqualTo("/p/apps/deployments/ns/");
    assertThat(keys.compactKey().toString()).isEqualTo("/p/compact_rev_key");
  }

  @Test
  void keysOutsideTheLayoutAreInternalErrors() {
    CollectionKey c = CollectionKey.all("", "configmaps");
    for (String bad : new String[] {"/p//configmaps/a/b/c", "/p//secrets/a/b", "/p//configmaps/"}) {
      assertThatThrownBy(() -> keys.objectKey(c, bad)).as(bad)
          .isInstanceOf(InternalErrorException.class);
    }
  }

  @Test
  void prefixEndIsTheFirstKeyAfterThePrefix() {
    assertThat(EtcdKeys.prefixEnd("/p/a/").toStringUtf8()).isEqualTo("/p/a0");
    assertThat(EtcdKeys.prefixEnd("a\u00ff").toByteArray())
        .containsExactly('a', (byte) 0xc3, (byte) 0xc0);
  }

  @ParameterizedTest
  @ValueSource(strings = {"", "/", "p", "/p/", "/a//b", "/a\u0000"})
  void badPrefixesAreRejected(String prefix) {
    assertThatThrownBy(() -> EtcdKeys.checkPrefix(prefix))
        .isInstanceOf(IllegalArgumentException.class).hasMessageContaining("keyPrefix");
  }

  @ParameterizedTest
  @ValueSource(strings = {"/p", "/registry", "/a/b.c/d-e"})
  void goodPrefixesAreAccepted(String prefix) {
    assertThat(EtcdKeys.checkPrefix(prefix)).isEqualTo(prefix);
  }
}
