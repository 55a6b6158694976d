/*
 * Copyright The apiserver4j authors.
 * SPDX-License-Identifier: Apache-2.0
 */
package io.apiserver4j.apiserver;

import static java.util.Objects.requireNonNull;

import io.apiserver4j.apiserver.ApiRequest.Verb;
import io.apiserver4j.core.fields.FieldSelector;
import io.apiserver4j.core.labels.LabelSelector;
import io.apiserver4j.merge.Force;
import io.apiserver4j.storage.ResourceVersionMatch;
import java.util.Optional;

/**
 * The option setters of {@link ApiRequest.Builder}, named after the query parameters: each may
 * be called whatever the verb (as a query string may carry any parameter), and the builder keeps
 * the ones its verb takes, as that verb's {@link VerbOptions}. Not thread-safe; not meant to be
 * extended outside this package.
 *
 * @param <B> the builder type the setters return
 */
public abstract class VerbOptionsBuilder<B extends VerbOptionsBuilder<B>> {
  private DryRun dryRun = DryRun.NONE;
  private String fieldManager = "";
  private FieldValidation fieldValidation = FieldValidation.WARN;
  private Optional<Force> force = Optional.empty();
  private String resourceVersion = "";
  private DeleteOptions.Builder delete = DeleteOptions.builder();
  private CollectionOptions.Builder list = CollectionOptions.builder();

  VerbOptionsBuilder() {}

  @SuppressWarnings("unchecked")
  private B self() {
    return (B) this;
  }

  /** All the options of {@code o} at once, replacing those of its kind set earlier. */
  public B options(VerbOptions o) {
    requireNonNull(o, "options");
    if (o instanceof GetOptions g) {
      resourceVersion = g.resourceVersion();
    } else if (o instanceof CollectionOptions c) {
      list = c.toBuilder();
      resourceVersion = c.resourceVersion();
    } else if (o instanceof DeleteOptions d) {
      delete = d.toBuilder();
      dryRun = d.dryRun();
    } else if (o instanceof DeleteCollectionOptions dc) {
      options(dc.list());
      options(dc.delete());
    } else {
      dryRun = o.dryRun();
      fieldManager = o.fieldManager();
      fieldValidation = o.fieldValidation();
      force = o instanceof PatchOptions p ? p.force() : Optional.empty();
    }
    return self();
  }

  /** Whether the write is a dry run. */
  public B dryRun(DryRun d) {
    this.dryRun = requireNonNull(d, "dryRun");
    return self();
  }

  /** Shorthand for {@code dryRun(DryRun.ALL)} or {@code dryRun(DryRun.NONE)}. */
  public B dryRun(boolean dry) {
    return dryRun(dry ? DryRun.ALL : DryRun.NONE);
  }

  /** The {@code fieldManager} of a create, update or patch. */
  public B fieldManager(String m) {
    this.fieldManager = requireNonNull(m, "fieldManager");
    return self();
  }

  /** The {@code force} of an apply. */
  public B force(Force f) {
    this.force = Optional.of(requireNonNull(f, "force"));
    return self();
  }

  /** The {@code force} of an apply, as the query's boolean. */
  public B force(boolean f) {
    return force(f ? Force.YES : Force.NO);
  }

  /** No {@code force} at all. */
  public B noForce() {
    this.force = Optional.empty();
    return self();
  }

  /** The {@code fieldValidation} of a create, update or patch. */
  public B fieldValidation(FieldValidation v) {
    this.fieldValidation = requireNonNull(v, "fieldValidation");
    return self();
  }

  /** The {@code resourceVersion} of a get, list or watch, as sent. */
  public B resourceVersion(String rv) {
    this.resourceVersion = requireNonNull(rv, "resourceVersion");
    return self();
  }

  /** {@link ResourceVersionMatch#EXACT} or {@link ResourceVersionMatch#NOT_OLDER_THAN}. */
  public B resourceVersionMatch(ResourceVersionMatch m) {
    list.resourceVersionMatch(m);
    return self();
  }

  /** The label selector of a list, watch or delete-collection. */
  public B labelSelector(LabelSelector s) {
    list.labelSelector(s);
    return self();
  }

  /** The field selector of a list, watch or delete-collection. */
  public B fieldSelector(FieldSelector s) {
    list.fieldSelector(s);
    return self();
  }

  /** The {@code limit} of a list; 0 for none. */
  public B limit(long l) {
    list.limit(l);
    return self();
  }

  /** The {@code continue} token of a list. */
  public B continueToken(String c) {
    list.continueToken(c);
    return self();
  }

  /** The {@code propagationPolicy} of a delete. */
  public B propagationPolicy(PropagationPolicy p) {
    delete.propagationPolicy(p);
    return self();
  }

  /** The {@code gracePeriodSeconds} of a delete. */
  public B gracePeriodSeconds(long seconds) {
    delete.gracePeriodSeconds(seconds);
    return self();
  }

  /** The {@code orphanDependents} of a delete. */
  public B orphanDependents(boolean orphan) {
    delete.orphanDependents(orphan);
    return self();
  }

  /** The {@code preconditions.uid} of a delete. */
  public B preconditionUid(String uid) {
    delete.preconditionUid(uid);
    return self();
  }

  /** The {@code preconditions.resourceVersion} of a delete. */
  public B preconditionResourceVersion(String rv) {
    delete.preconditionResourceVersion(rv);
    return self();
  }

  /** The {@code allowWatchBookmarks} of a watch. */
  public B allowWatchBookmarks(boolean allow) {
    list.allowWatchBookmarks(allow);
    return self();
  }

  /** The {@code sendInitialEvents} of a watch. */
  public B sendInitialEvents(boolean send) {
    list.sendInitialEvents(send);
    return self();
  }

  /** The options a request of {@code verb} takes, from what was set. */
  final VerbOptions options(Verb verb) {
    switch (verb) {
      case GET:
        return GetOptions.of(resourceVersion);
      case LIST:
      case WATCH:
        return list.resourceVersion(resourceVersion).build();
      case CREATE:
        return new CreateOptions(dryRun, fieldManager, fieldValidation);
      case UPDATE:
        return new UpdateOptions(dryRun, fieldManager, fieldValidation);
      case PATCH:
        return new PatchOptions(dryRun, fieldManager, fieldValidation, force);
      case DELETE:
        return delete.dryRun(dryRun).build();
      default:
        return new DeleteCollectionOptions(delete.dryRun(dryRun).build(),
            list.resourceVersion(resourceVersion).build());
    }
  }
}
