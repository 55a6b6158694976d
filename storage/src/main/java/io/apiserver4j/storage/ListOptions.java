/*
 * Copyright The apiserver4j authors.
 * SPDX-License-Identifier: Apache-2.0
 */
package io.apiserver4j.storage;

import static java.util.Objects.requireNonNull;

import io.apiserver4j.core.fields.FieldSelector;
import io.apiserver4j.core.labels.LabelSelector;
import java.util.Optional;

/**
 * What to list: selectors, page size, continuation and resource version semantics. Immutable;
 * build with {@link #builder()}. {@link #all()} lists everything at the latest revision.
 */
public final class ListOptions {
  private static final ListOptions ALL = builder().build();

  private final LabelSelector labelSelector;
  private final FieldSelector fieldSelector;
  private final long limit;
  private final String continueToken;
  private final ResourceVersionMatch resourceVersionMatch;
  private final long resourceVersion;

  private ListOptions(Builder b) {
    this.labelSelector = b.labelSelector;
    this.fieldSelector = b.fieldSelector;
    this.limit = b.limit;
    this.continueToken = b.continueToken;
    this.resourceVersionMatch = b.resourceVersionMatch;
    this.resourceVersion = b.resourceVersion;
  }

  /**
   * Everything, latest state, no paging.
   *
   * @return the shared default options
   */
  public static ListOptions all() {
    return ALL;
  }

  /**
   * A builder starting from {@link #all()}.
   *
   * @return a new builder
   */
  public static Builder builder() {
    return new Builder();
  }

  /**
   * A builder starting from these options.
   *
   * @return a new builder with every option copied
   */
  public Builder toBuilder() {
    Builder b = new Builder();
    b.labelSelector = labelSelector;
    b.fieldSelector = fieldSelector;
    b.limit = limit;
    b.continueToken = continueToken;
    b.resourceVersionMatch = resourceVersionMatch;
    b.resourceVersion = resourceVersion;
    return b;
  }

  /**
   * The label selector.
   *
   * @return the selector; one that selects everything by default
   */
  public LabelSelector labelSelector() {
    return labelSelector;
  }

  /**
   * The field selector.
   *
   * @return the selector; one that selects everything by default
   */
  public FieldSelector fieldSelector() {
    return fieldSelector;
  }

  /**
   * The page size.
   *
   * @return the limit; 0 means no limit
   */
  public long limit() {
    return limit;
  }

  /**
   * The continue token of a previous page, if this requests a further page.
   *
   * @return the raw token; empty for a first page
   */
  public Optional<String> continueToken() {
    return continueToken.isEmpty() ? Optional.empty() : Optional.of(continueToken);
  }

  /**
   * How {@link #resourceVersion()} is matched, as kube's {@code resourceVersionMatch}.
   *
   * @return the match; {@code MOST_RECENT} by default
   */
  public ResourceVersionMatch resourceVersionMatch() {
    return resourceVersionMatch;
  }

  /**
   * The resource version for {@link ResourceVersionMatch#NOT_OLDER_THAN}/{@code EXACT}.
   *
   * @return the revision; 0 for the latest state
   */
  public long resourceVersion() {
    return resourceVersion;
  }

  /**
   * The decoded continue token of a list that asks for a further page, empty for a first page.
   * Every store reads its further pages through this, so that all of them refuse a token beside a
   * resourceVersion, as etcd3's storage does.
   *
   * @throws io.apiserver4j.core.errors.BadRequestException {@code specifying resource version is not
   *     allowed when using continue} if a resourceVersion (or an exact match) is given too, or
   *     {@code invalid continue token: ...} if the token cannot be decoded
   * @return the decoded token; empty for a first page
   */
  public Optional<ContinueToken> decodedContinueToken() {
    if (continueToken.isEmpty()) {
      return Optional.empty();
    }
    if (resourceVersionMatch == ResourceVersionMatch.EXACT || resourceVersion != 0) {
      throw StoreErrors.badRequest("specifying resource version is not allowed when using continue");
    }
    return Optional.of(ContinueToken.decode(continueToken));
  }

  /**
   * Whether the selectors accept every object (then lists report remainingItemCount).
   *
   * @return true when both selectors are empty
   */
  public boolean selectsEverything() {
    return labelSelector.isEverything() && fieldSelector.isEverything();
  }

  @Override
  public String toString() {
    return "ListOptions{labelSelector=" + labelSelector + ", fieldSelector=" + fieldSelector
        + ", limit=" + limit + ", continue=" + continueToken + ", match=" + resourceVersionMatch
        + ", resourceVersion=" + resourceVersion + "}";
  }

  /** Builder; every setter validates at once. */
  public static final class Builder {
    private LabelSelector labelSelector = LabelSelector.everything();
    private FieldSelector fieldSelector = FieldSelector.everything();
    private long limit;
    private String continueToken = "";
    private ResourceVersionMatch resourceVersionMatch = ResourceVersionMatch.MOST_RECENT;
    private long resourceVersion;

    private Builder() {}

    /**
     * Lists only objects whose labels match.
     *
     * @param selector the label selector
     * @return this builder
     */
    public Builder labelSelector(LabelSelector selector) {
      this.labelSelector = requireNonNull(selector, "selector");
      return this;
    }

    /**
     * Lists only objects whose fields match.
     *
     * @param selector the field selector
     * @return this builder
     */
    public Builder fieldSelector(FieldSelector selector) {
      this.fieldSelector = requireNonNull(selector, "selector");
      return this;
    }

    /**
     * The page size; 0 for no limit.
     *
     * @param limit the most items of a page
     * @return this builder
     * @throws IllegalArgumentException when negative
     */
    public Builder limit(long limit) {
      if (limit < 0) {
        throw new IllegalArgumentException("limit must not be negative: " + limit);
      }
      this.limit = limit;
      return this;
    }

    /**
     * Continue a previous list; an empty string means no continuation.
     *
     * @param token the continue token of the previous page
     * @return this builder
     */
    public Builder continueToken(String token) {
      this.continueToken = requireNonNull(token, "token");
      return this;
    }

    /**
     * Latest state (the default).
     *
     * @return this builder
     */
    public Builder mostRecent() {
      this.resourceVersionMatch = ResourceVersionMatch.MOST_RECENT;
      this.resourceVersion = 0;
      return this;
    }

    /**
     * A state not older than {@code rv} (0 = any).
     *
     * @param rv the oldest acceptable revision
     * @return this builder
     * @throws IllegalArgumentException when negative
     */
    public Builder notOlderThan(long rv) {
      if (rv < 0) {
        throw new IllegalArgumentException("resourceVersion must not be negative: " + rv);
      }
      this.resourceVersionMatch = ResourceVersionMatch.NOT_OLDER_THAN;
      this.resourceVersion = rv;
      return this;
    }

    /**
     * The state at exactly {@code rv}.
     *
     * @param rv the revision
     * @return this builder
     * @throws IllegalArgumentException when not positive
     */
    public Builder exact(long rv) {
      if (rv <= 0) {
        throw new IllegalArgumentException("an exact resourceVersion must be positive: " + rv);
      }
      this.resourceVersionMatch = ResourceVersionMatch.EXACT;
      this.resourceVersion = rv;
      return this;
    }

    /**
     * Builds the options.
     *
     * @return the immutable options
     */
    public ListOptions build() {
      return new ListOptions(this);
    }
  }
}
