/*
 * Copyright The apiserver4j authors.
 * SPDX-License-Identifier: Apache-2.0
 */
package io.apiserver4j.apiserver;

import static java.util.Objects.requireNonNull;

import io.apiserver4j.core.fields.FieldSelector;
import io.apiserver4j.core.labels.LabelSelector;
import io.apiserver4j.storage.ListOptions;
import io.apiserver4j.storage.ResourceVersionMatch;
import java.util.Optional;

/**
 * kube's {@code ListOptions} as a LIST, a WATCH or a DELETE of a collection carries it: which
 * objects (label and field selectors), how many ({@code limit}, {@code continue}), as of which
 * state ({@code resourceVersion}, {@code resourceVersionMatch}) and, for watches, bookmarks and
 * initial events.
 *
 * <p>The selection is the storage's own {@link ListOptions} (its resource version left at the
 * latest); the {@code resourceVersion} stays the string the client sent, because the server
 * answers a bad one differently per verb (a 400 for a list, kube's 500 for a watch).
 *
 * @param selection the selectors, the page size and the continue token
 * @param resourceVersion the {@code resourceVersion} as sent; empty when absent
 * @param resourceVersionMatch {@link ResourceVersionMatch#EXACT} or
 *     {@link ResourceVersionMatch#NOT_OLDER_THAN}, if given
 * @param allowWatchBookmarks whether a watch may send BOOKMARK events
 * @param sendInitialEvents a watch's {@code sendInitialEvents}, if given
 */
public record CollectionOptions(ListOptions selection, String resourceVersion,
    Optional<ResourceVersionMatch> resourceVersionMatch, boolean allowWatchBookmarks,
    Optional<Boolean> sendInitialEvents) implements VerbOptions {
  private static final CollectionOptions ALL = builder().build();

  /**
   * Checks the components.
   *
   * @throws IllegalArgumentException for a match of {@code MOST_RECENT} (kube has no such value)
   */
  public CollectionOptions {
    requireNonNull(selection, "selection");
    requireNonNull(resourceVersion, "resourceVersion");
    requireNonNull(resourceVersionMatch, "resourceVersionMatch");
    requireNonNull(sendInitialEvents, "sendInitialEvents");
    if (resourceVersionMatch.orElse(null) == ResourceVersionMatch.MOST_RECENT) {
      throw new IllegalArgumentException("resourceVersionMatch is Exact or NotOlderThan");
    }
  }

  /** Every object, latest state, no paging. */
  public static CollectionOptions all() {
    return ALL;
  }

  /** The objects {@code selector} selects (kubectl's {@code -l}), latest state. */
  public static CollectionOptions of(LabelSelector selector) {
    return builder().labelSelector(selector).build();
  }

  /** A builder of every object, latest state, no paging. */
  public static Builder builder() {
    return new Builder();
  }

  /** A builder initialised with these options. */
  public Builder toBuilder() {
    Builder b = new Builder();
    b.selection = selection.toBuilder();
    b.resourceVersion = resourceVersion;
    b.resourceVersionMatch = resourceVersionMatch;
    b.allowWatchBookmarks = allowWatchBookmarks;
    b.sendInitialEvents = sendInitialEvents;
    return b;
  }

  /** The label selector. */
  public LabelSelector labelSelector() {
    return selection.labelSelector();
  }

  /** The field selector. */
  public FieldSelector fieldSelector() {
    return selection.fieldSelector();
  }

  /** The {@code limit}; 0 means no limit. */
  public long limit() {
    return selection.limit();
  }

  /** The {@code continue} token; empty for a first page. */
  public String continueToken() {
    return selection.continueToken().orElse("");
  }

  /** Mutable builder of {@link CollectionOptions}; not thread-safe. */
  public static final class Builder {
    private ListOptions.Builder selection = ListOptions.builder();
    private String resourceVersion = "";
    private Optional<ResourceVersionMatch> resourceVersionMatch = Optional.empty();
    private boolean allowWatchBookmarks;
    private Optional<Boolean> sendInitialEvents = Optional.empty();

    private Builder() {}

    /** The label selector (kubectl's {@code -l}). */
    public Builder labelSelector(LabelSelector s) {
      selection.labelSelector(requireNonNull(s, "labelSelector"));
      return this;
    }

    /** The field selector (kubectl's {@code --field-selector}). */
    public Builder fieldSelector(FieldSelector s) {
      selection.fieldSelector(requireNonNull(s, "fieldSelector"));
      return this;
    }

    /**
     * The page size; 0 for no limit.
     *
     * @throws IllegalArgumentException if negative
     */
    public Builder limit(long l) {
      selection.limit(l);
      return this;
    }

    /** The {@code continue} token of the previous page; empty for a first page. */
    public Builder continueToken(String c) {
      selection.continueToken(requireNonNull(c, "continueToken"));
      return this;
    }

    /** The {@code resourceVersion}, as kube's clients send it. */
    public Builder resourceVersion(String rv) {
      this.resourceVersion = requireNonNull(rv, "resourceVersion");
      return this;
    }

    /**
     * {@link ResourceVersionMatch#EXACT} or {@link ResourceVersionMatch#NOT_OLDER_THAN}.
     *
     * @throws IllegalArgumentException for {@code MOST_RECENT}
     */
    public Builder resourceVersionMatch(ResourceVersionMatch m) {
      if (requireNonNull(m, "resourceVersionMatch") == ResourceVersionMatch.MOST_RECENT) {
        throw new IllegalArgumentException("resourceVersionMatch is Exact or NotOlderThan");
      }
      this.resourceVersionMatch = Optional.of(m);
      return this;
    }

    /** Whether a watch may send BOOKMARK events. */
    public Builder allowWatchBookmarks(boolean allow) {
      this.allowWatchBookmarks = allow;
      return this;
    }

    /** A watch's {@code sendInitialEvents}. */
    public Builder sendInitialEvents(boolean send) {
      this.sendInitialEvents = Optional.of(send);
      return this;
    }

    /** The options. */
    public CollectionOptions build() {
      return new CollectionOptions(selection.build(), resourceVersion, resourceVersionMatch,
          allowWatchBookmarks, sendInitialEvents);
    }
  }
}
