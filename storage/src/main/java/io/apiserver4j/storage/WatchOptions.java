/*
 * Copyright The apiserver4j authors.
 * SPDX-License-Identifier: Apache-2.0
 */
package io.apiserver4j.storage;

import static java.util.Objects.requireNonNull;

import io.apiserver4j.core.fields.FieldSelector;
import io.apiserver4j.core.labels.LabelSelector;
import java.time.Duration;

/**
 * How to watch: the start revision, initial events, selectors and bookmarks. Immutable; build
 * with {@link #builder()}.
 *
 * <p>{@link #resourceVersion()} 0 means "from now" (kube's unset or {@code "0"}); with
 * {@link InitialEvents#DEFAULT} that watch begins with synthetic ADDED events for the current
 * state. A positive resource version replays every change after it that the store still
 * retains, then streams live changes.
 */
public final class WatchOptions {
  /** kube-apiserver's bookmark frequency. */
  public static final Duration DEFAULT_BOOKMARK_INTERVAL = Duration.ofMinutes(1);

  private static final WatchOptions FROM_NOW = builder().build();

  private final long resourceVersion;
  private final InitialEvents initialEvents;
  private final LabelSelector labelSelector;
  private final FieldSelector fieldSelector;
  private final boolean allowBookmarks;
  private final Duration bookmarkInterval;

  private WatchOptions(Builder b) {
    this.resourceVersion = b.resourceVersion;
    this.initialEvents = b.initialEvents;
    this.labelSelector = b.labelSelector;
    this.fieldSelector = b.fieldSelector;
    this.allowBookmarks = b.allowBookmarks;
    this.bookmarkInterval = b.bookmarkInterval;
  }

  /**
   * From now, with synthetic ADDED events for the current state (kube's default), no bookmarks.
   *
   * @return the shared default options
   */
  public static WatchOptions fromNow() {
    return FROM_NOW;
  }

  /**
   * A builder starting from {@link #fromNow()}.
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
    b.resourceVersion = resourceVersion;
    b.initialEvents = initialEvents;
    b.labelSelector = labelSelector;
    b.fieldSelector = fieldSelector;
    b.allowBookmarks = allowBookmarks;
    b.bookmarkInterval = bookmarkInterval;
    return b;
  }

  /**
   * The revision to start after.
   *
   * @return the revision; 0 = now
   */
  public long resourceVersion() {
    return resourceVersion;
  }

  /**
   * Whether the watch begins with the current state, as kube's {@code sendInitialEvents}.
   *
   * @return the setting
   */
  public InitialEvents initialEvents() {
    return initialEvents;
  }

  /**
   * Whether this watch begins with synthetic ADDED events for the current state.
   *
   * @return true when {@link #initialEvents()} asks for them, or by default from now
   */
  public boolean sendsInitialEvents() {
    return initialEvents == InitialEvents.SEND
        || (initialEvents == InitialEvents.DEFAULT && resourceVersion == 0);
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
   * Whether BOOKMARK events may be sent (kube's {@code allowWatchBookmarks}).
   *
   * @return true when allowed
   */
  public boolean allowBookmarks() {
    return allowBookmarks;
  }

  /**
   * How often an idle watch with bookmarks allowed reports progress.
   *
   * @return the interval, positive
   */
  public Duration bookmarkInterval() {
    return bookmarkInterval;
  }

  @Override
  public String toString() {
    return "WatchOptions{resourceVersion=" + resourceVersion + ", initialEvents=" + initialEvents
        + ", labelSelector=" + labelSelector + ", fieldSelector=" + fieldSelector
        + ", allowBookmarks=" + allowBookmarks + ", bookmarkInterval=" + bookmarkInterval + "}";
  }

  /** Builder; every setter validates at once. */
  public static final class Builder {
    private long resourceVersion;
    private InitialEvents initialEvents = InitialEvents.DEFAULT;
    private LabelSelector labelSelector = LabelSelector.everything();
    private FieldSelector fieldSelector = FieldSelector.everything();
    private boolean allowBookmarks;
    private Duration bookmarkInterval = DEFAULT_BOOKMARK_INTERVAL;

    private Builder() {}

    /**
     * Start after this revision; 0 = now.
     *
     * @param rv the revision
     * @return this builder
     * @throws IllegalArgumentException when negative
     */
    public Builder resourceVersion(long rv) {
      if (rv < 0) {
        throw new IllegalArgumentException("resourceVersion must not be negative: " + rv);
      }
      this.resourceVersion = rv;
      return this;
    }

    /**
     * Whether the watch begins with the current state.
     *
     * @param initial the setting
     * @return this builder
     */
    public Builder initialEvents(InitialEvents initial) {
      this.initialEvents = requireNonNull(initial, "initial");
      return this;
    }

    /**
     * Watches only objects whose labels match.
     *
     * @param selector the label selector
     * @return this builder
     */
    public Builder labelSelector(LabelSelector selector) {
      this.labelSelector = requireNonNull(selector, "selector");
      return this;
    }

    /**
     * Watches only objects whose fields match.
     *
     * @param selector the field selector
     * @return this builder
     */
    public Builder fieldSelector(FieldSelector selector) {
      this.fieldSelector = requireNonNull(selector, "selector");
      return this;
    }

    /**
     * Let the watch emit BOOKMARK events (kube's {@code allowWatchBookmarks=true}).
     *
     * @param allow whether bookmarks are allowed
     * @return this builder
     */
    public Builder allowBookmarks(boolean allow) {
      this.allowBookmarks = allow;
      return this;
    }

    /**
     * How often an idle watch with bookmarks allowed reports progress.
     *
     * @param interval the interval
     * @return this builder
     * @throws IllegalArgumentException when not positive
     */
    public Builder bookmarkInterval(Duration interval) {
      requireNonNull(interval, "interval");
      if (interval.isNegative() || interval.isZero()) {
        throw new IllegalArgumentException("bookmarkInterval must be positive: " + interval);
      }
      this.bookmarkInterval = interval;
      return this;
    }

    /**
     * Builds the options.
     *
     * @return the immutable options
     */
    public WatchOptions build() {
      return new WatchOptions(this);
    }
  }
}
