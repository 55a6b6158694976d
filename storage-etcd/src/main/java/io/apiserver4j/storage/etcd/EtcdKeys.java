/*
 * Copyright The apiserver4j authors.
 * SPDX-License-Identifier: Apache-2.0
 */
package io.apiserver4j.storage.etcd;

import io.apiserver4j.core.errors.StatusErrors;
import io.apiserver4j.storage.CollectionKey;
import io.apiserver4j.storage.ObjectKey;
import com.google.protobuf.ByteString;
import io.etcd.jetcd.ByteSequence;
import java.nio.charset.StandardCharsets;

/**
 * The etcd key layout of an {@link EtcdStore}:
 *
 * <pre>
 *   &lt;prefix&gt;/&lt;group&gt;/&lt;resource&gt;/&lt;namespace&gt;/&lt;name&gt;   namespaced objects
 *   &lt;prefix&gt;/&lt;group&gt;/&lt;resource&gt;/&lt;name&gt;               cluster-scoped objects
 *   &lt;prefix&gt;/compact_rev_key                          compaction coordination
 * </pre>
 *
 * <p>The group segment is always present and empty for the core group
 * ({@code /apiserver4j//configmaps/default/x}); every other group name is non-empty, so a group
 * can never be mistaken for a resource (kube's own layout omits the core group and relies on
 * resource names never equalling group names). Below the resource, the key is
 * {@link ObjectKey#relativeKey()}, exactly as kube lays it out, so continue tokens carry the same
 * start keys and key order is kube's list order. No component contains {@code /}, hence the
 * collection prefix {@code <prefix>/<group>/<resource>/} (plus {@code <namespace>/}) matches
 * exactly the members of that collection and never another resource, group or namespace
 * ({@code .../ns/} cannot match a cluster-scoped name {@code ns}, which has no trailing slash).
 * Keys are UTF-8, whose byte order is code-point order.
 */
final class EtcdKeys {
  static final String COMPACT_KEY_NAME = "compact_rev_key";

  private final String prefix;
  private final ByteSequence compactKey;
  private final ByteString compactKeyBytes;

  EtcdKeys(String prefix) {
    this.prefix = prefix;
    this.compactKey = bytes(prefix + "/" + COMPACT_KEY_NAME);
    this.compactKeyBytes = utf8(prefix + "/" + COMPACT_KEY_NAME);
  }

  /**
   * Checks a key prefix: {@code /} followed by one or more non-empty segments, no trailing
   * {@code /}, no NUL.
   */
  static String checkPrefix(String prefix) {
    if (!prefix.startsWith("/") || prefix.endsWith("/") || prefix.contains("//")
        || prefix.indexOf('\0') >= 0) {
      throw new IllegalArgumentException("keyPrefix must look like /segment[/segment...] without"
          + " a trailing slash: '" + prefix + "'");
    }
    return prefix;
  }

  String prefix() {
    return prefix;
  }

  /** {@code <prefix>/<group>/<resource>/}. */
  String resourcePrefix(String group, String resource) {
    return prefix + "/" + group + "/" + resource + "/";
  }

  String resourcePrefix(CollectionKey c) {
    return resourcePrefix(c.group(), c.resource());
  }

  /** The prefix every member of the collection, and nothing else, starts with. */
  String collectionPrefix(CollectionKey c) {
    return resourcePrefix(c) + c.relativePrefix();
  }

  String key(ObjectKey k) {
    return resourcePrefix(k.group(), k.resource()) + k.relativeKey();
  }

  ByteString keyBytes(ObjectKey k) {
    return utf8(key(k));
  }

  ByteSequence compactKey() {
    return compactKey;
  }

  ByteString compactKeyBytes() {
    return compactKeyBytes;
  }

  /**
   * The object key of an etcd key found under {@code c}'s resource prefix.
   *
   * @throws io.apiserver4j.core.errors.InternalErrorException if the key does not have this layout
   *     (someone else wrote below the prefix)
   */
  ObjectKey objectKey(CollectionKey c, String etcdKey) {
    String resourcePrefix = resourcePrefix(c);
    try {
      if (etcdKey.startsWith(resourcePrefix)) {
        String relative = etcdKey.substring(resourcePrefix.length());
        int slash = relative.indexOf('/');
        return slash < 0 ? new ObjectKey(c.group(), c.resource(), "", relative)
            : new ObjectKey(c.group(), c.resource(), relative.substring(0, slash),
                relative.substring(slash + 1));
      }
    } catch (IllegalArgumentException e) {
      // falls through to the error below
    }
    throw StatusErrors.internal("etcd holds a key outside the object layout: " + etcdKey);
  }

  static ByteSequence bytes(String s) {
    return ByteSequence.from(s, StandardCharsets.UTF_8);
  }

  static ByteString utf8(String s) {
    return ByteString.copyFromUtf8(s);
  }

  static String string(ByteSequence b) {
    return b.toString(StandardCharsets.UTF_8);
  }

  /** The smallest key greater than every key starting with {@code prefix} (etcd's range end). */
  static ByteString prefixEnd(String prefix) {
    byte[] b = prefix.getBytes(StandardCharsets.UTF_8);
    for (int i = b.length - 1; i >= 0; i--) {
      if (b[i] != (byte) 0xff) {
        byte[] end = java.util.Arrays.copyOf(b, i + 1);
        end[i]++;
        return ByteString.copyFrom(end);
      }
    }
    // only reachable for a prefix of 0xff bytes, which UTF-8 never produces
    return ByteString.copyFrom(new byte[] {0});
  }
}
