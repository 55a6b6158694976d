/*
 * Copyright The apiserver4j authors.
 * SPDX-License-Identifier: Apache-2.0
 */
package io.apiserver4j.storage;

import static java.util.Objects.requireNonNull;

import io.apiserver4j.core.MapValue;
import io.apiserver4j.core.fields.FieldSelector;
import io.apiserver4j.core.labels.LabelSelector;
import java.util.ArrayList;
import java.util.List;
import java.util.Optional;

/**
 * The selector side of a watch, for {@link Store} implementations: which objects the watch shows,
 * its synthetic initial events, and kube's cacheWatcher transitions (a change is seen through the
 * selectors before and after it: one that starts matching is ADDED, one that stops matching is
 * DELETED). Immutable and thread-safe.
 */
public final class WatchFilter {
  private static final Optional<WatchEvent.Type> ADDED = Optional.of(WatchEvent.Type.ADDED);
  private static final Optional<WatchEvent.Type> MODIFIED = Optional.of(WatchEvent.Type.MODIFIED);
  private static final Optional<WatchEvent.Type> DELETED = Optional.of(WatchEvent.Type.DELETED);

  private final LabelSelector labels;
  private final FieldSelector fields;
  /** A name the field selector requires, if any; lets a store skip other objects early. */
  private final String requiredName;
  private final boolean endBookmark;

  private WatchFilter(WatchOptions options) {
    this.labels = options.labelSelector();
    this.fields = options.fieldSelector();
    this.requiredName = options.fieldSelector().requiredValue("metadata.name").orElse(null);
    // kube marks the end of the initial events only when they were asked for explicitly
    this.endBookmark = options.allowBookmarks()
        && options.initialEvents() == InitialEvents.SEND;
  }

  /**
   * The filter of a watch with these options.
   *
   * @param options the watch's selectors and initial-event settings
   * @return the filter
   */
  public static WatchFilter of(WatchOptions options) {
    return new WatchFilter(requireNonNull(options, "options"));
  }

  /**
   * Whether every object matches (no selectors): callers can skip decoding objects.
   *
   * @return true when both selectors are empty
   */
  public boolean selectsEverything() {
    return labels.isEverything() && fields.isEverything();
  }

  /**
   * Whether {@code object} matches both selectors.
   *
   * @param object the object
   * @return true when it is selected
   */
  public boolean selects(MapValue object) {
    return labels.matches(object) && fields.matches(object);
  }

  /**
   * Whether an object of this name can ever be shown: false when the field selector requires
   * another {@code metadata.name}. A cheap check before decoding or queueing a change.
   *
   * @param name the object name
   * @return false when no object of this name can match
   */
  public boolean admitsName(String name) {
    return requiredName == null || requiredName.equals(name);
  }

  /**
   * The synthetic initial events of a watch starting at revision {@code at}: ADDED for each
   * selected object of {@code snapshot}, in order, then the bookmark that marks their end when
   * the watch asked for initial events explicitly and allows bookmarks.
   *
   * @param snapshot the collection's objects at {@code at}, in key order
   * @param at the revision of the snapshot
   * @return the events, possibly empty
   */
  public List<WatchEvent> initialEvents(List<StoredObject> snapshot, long at) {
    List<WatchEvent> events = new ArrayList<>();
    // without selectors, nothing is decoded before each event is written
    boolean everything = selectsEverything();
    for (StoredObject o : snapshot) {
      if (everything || selects(o.object())) {
        events.add(new WatchEvent.ObjectChange(WatchEvent.Type.ADDED, o));
      }
    }
    if (endBookmark) {
      events.add(new WatchEvent.Bookmark(at, true));
    }
    return events;
  }

  /**
   * The event type a change shows as, given whether the object matched the selectors before it
   * and matches them after it; empty when the watch does not see the change at all.
   *
   * @param matchedBefore whether the old state matched
   * @param matchesNow whether the new state matches
   * @return ADDED, MODIFIED or DELETED, or empty
   */
  public static Optional<WatchEvent.Type> transition(boolean matchedBefore, boolean matchesNow) {
    if (matchesNow) {
      return matchedBefore ? MODIFIED : ADDED;
    }
    return matchedBefore ? DELETED : Optional.empty();
  }
}
