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

  /** From now, with synthetic ADDED events for the current state (kube's default), no bookmarks. */
  public static WatchOptions fromNow() {
    return FROM_NOW;
  }

  public static Builder builder() {
    return new Builder();
  }

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

  /** The revision to start after; 0 = now. */
  public long resourceVersion() {
    return resourceVersion;
  }

  public InitialEvents initialEvents() {
    return initialEvents;
  }

  /** Whether this watch begins with synthetic ADDED events for the current state. */
  public boolean sendsInitialEvents() {
    return initialEvents == InitialEvents.SEND
        || (initialEvents == InitialEvents.DEFAULT && resourceVersion == 0);
  }

  public LabelSelector labelSelector() {
    return labelSelector;
  }

  public FieldSelector fieldSelector() {
    return fieldSelector;
  }

  public boolean allowBookmarks() {
    return allowBookmarks;
  }

  /** How often an idle watch with bookmarks allowed reports progress. */
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

    /** Start after this revision; 0 = now. */
    public Builder resourceVersion(long rv) {
      if (rv < 0) {
        throw new IllegalArgumentException("resourceVersion must not be negative: " + rv);
      }
      this.resourceVersion = rv;
      return this;
    }

    public Builder initialEvents(InitialEvents initial) {
      this.initialEvents = requireNonNull(initial, "initial");
      return this;
    }

    public Builder labelSelector(LabelSelector selector) {
      this.labelSelector = requireNonNull(selector, "selector");
      return this;
    }

    public Builder fieldSelector(FieldSelector selector) {
      this.fieldSelector = requireNonNull(selector, "selector");
      return this;
    }

    /** Let the watch emit BOOKMARK events (kube's {@code allowWatchBookmarks=true}). */
    public Builder allowBookmarks(boolean allow) {
      this.allowBookmarks = allow;
      return this;
    }

    public Builder bookmarkInterval(Duration interval) {
      requireNonNull(interval, "interval");
      if (interval.isNegative() || interval.isZero()) {
        throw new IllegalArgumentException("bookmarkInterval must be positive: " + interval);
      }
      this.bookmarkInterval = interval;
      return this;
    }

    public WatchOptions build() {
      return new WatchOptions(this);
    }
  }
}
