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

  /**
   * Checks that the limits are positive (aliases may be 0).
   *
   * @param maxDepth see the record component
   * @param maxDocumentChars see the record component
   * @param maxAliases see the record component
   * @param maxNodes see the record component
   * @throws IllegalArgumentException naming every limit when one is out of range
   */
  public DecodeLimits {
    if (maxDepth < 1 || maxDocumentChars < 1 || maxAliases < 0 || maxNodes < 1) {
      throw new IllegalArgumentException(
          "decode limits must be positive: depth=" + maxDepth + " chars=" + maxDocumentChars
              + " aliases=" + maxAliases + " nodes=" + maxNodes);
    }
  }

  /**
   * A copy with another nesting limit.
   *
   * @param depth the deepest nesting accepted
   * @return the new limits
   * @throws IllegalArgumentException when below 1
   */
  public DecodeLimits withMaxDepth(int depth) {
    return new DecodeLimits(depth, maxDocumentChars, maxAliases, maxNodes);
  }

  /**
   * A copy with another document size limit.
   *
   * @param chars the most characters of a document
   * @return the new limits
   * @throws IllegalArgumentException when below 1
   */
  public DecodeLimits withMaxDocumentChars(long chars) {
    return new DecodeLimits(maxDepth, chars, maxAliases, maxNodes);
  }

  /**
   * A copy with another YAML alias limit.
   *
   * @param aliases the most aliases of a YAML document
   * @return the new limits
   * @throws IllegalArgumentException when negative
   */
  public DecodeLimits withMaxAliases(int aliases) {
    return new DecodeLimits(maxDepth, maxDocumentChars, aliases, maxNodes);
  }

  /**
   * A copy with another limit on expanded YAML nodes.
   *
   * @param nodes the most nodes after alias expansion
   * @return the new limits
   * @throws IllegalArgumentException when below 1
   */
  public DecodeLimits withMaxNodes(long nodes) {
    return new DecodeLimits(maxDepth, maxDocumentChars, maxAliases, nodes);
  }
}
