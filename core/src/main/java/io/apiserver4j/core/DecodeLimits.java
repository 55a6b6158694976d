/*
 * Copyright The apiserver4j authors.
 * SPDX-License-Identifier: Apache-2.0
 */
package io.apiserver4j.core;

/**
 * Limits applied while decoding untrusted JSON or YAML, in the spirit of jackson-core's
 * {@code StreamReadConstraints}. Exceeding one is a {@link DecodeException} naming the limit.
 *
 * @param maxDepth deepest allowed nesting of lists and maps
 * @param maxDocumentChars largest accepted document, in characters
 * @param maxAliases most YAML alias references per document
 * @param maxNodes most values in a document after YAML alias expansion (guards "billion laughs")
 */
public record DecodeLimits(int maxDepth, long maxDocumentChars, int maxAliases, long maxNodes) {
  /** kube-apiserver's maximum JSON nesting depth (Go's {@code encoding/json} scanner). */
  public static final int MAX_DEPTH = 10_000;

  /**
   * Defaults: depth 10,000 (kube-apiserver's JSON decoder limit, applied to every format so that
   * anything accepted can be read back), 64 Mi characters, 1,000 aliases, 5,000,000 expanded
   * nodes.
   */
  public static final DecodeLimits DEFAULT = new DecodeLimits(MAX_DEPTH, 64L << 20, 1_000, 5_000_000);

  public DecodeLimits {
    if (maxDepth < 1 || maxDocumentChars < 1 || maxAliases < 0 || maxNodes < 1) {
      throw new IllegalArgumentException(
          "decode limits must be positive: depth=" + maxDepth + " chars=" + maxDocumentChars
              + " aliases=" + maxAliases + " nodes=" + maxNodes);
    }
  }

  public DecodeLimits withMaxDepth(int depth) {
    return new DecodeLimits(depth, maxDocumentChars, maxAliases, maxNodes);
  }

  public DecodeLimits withMaxDocumentChars(long chars) {
    return new DecodeLimits(maxDepth, chars, maxAliases, maxNodes);
  }

  public DecodeLimits withMaxAliases(int aliases) {
    return new DecodeLimits(maxDepth, maxDocumentChars, aliases, maxNodes);
  }

  public DecodeLimits withMaxNodes(long nodes) {
    return new DecodeLimits(maxDepth, maxDocumentChars, maxAliases, nodes);
  }
}
