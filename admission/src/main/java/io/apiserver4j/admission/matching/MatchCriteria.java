/*
 * Copyright The apiserver4j authors.
 * SPDX-License-Identifier: Apache-2.0
 */
package io.apiserver4j.admission.matching;

import static java.util.Objects.requireNonNull;

import io.apiserver4j.admission.AdmissionAttributes;
import io.apiserver4j.admission.Operation;
import io.apiserver4j.core.GroupResource;
import io.apiserver4j.core.GroupVersionKind;
import io.apiserver4j.core.GroupVersionResource;
import io.apiserver4j.core.MapValue;
import io.apiserver4j.core.Nested;
import io.apiserver4j.core.errors.StatusErrors;
import io.apiserver4j.core.errors.StatusException;
import io.apiserver4j.core.StringValue;
import io.apiserver4j.core.Value;
import io.apiserver4j.core.labels.LabelSelector;
import java.util.ArrayList;
import java.util.List;
import java.util.Optional;

/**
 * Which requests a webhook or an admission policy sees: rules, excluded rules, namespace and
 * object selectors and the match policy, matched as kube-apiserver does (webhooks:
 * {@code generic.Webhook.ShouldCallHook}; policies: {@code matching.Matcher}).
 *
 * <p>Order and errors as kube: a selector that does not match ends matching quietly; a selector
 * that fails (a malformed selector: 500; a namespace that does not exist: its 404) fails the
 * request only if the rules match too. The rules are first compared with the request's own
 * resource, all of them, then, under {@link MatchPolicy#EQUIVALENT}, with each equivalent
 * resource. Match conditions are not part of this (see {@link MatchConditions}): they are
 * evaluated on the object converted to the matched version.
 *
 * <p>Immutable and thread-safe.
 */
public final class MatchCriteria {
  /** What a criteria without rules matches. */
  public enum EmptyRules {
    /** Nothing: a webhook without rules is never called. */
    MATCH_NOTHING,
    /** Everything: a policy's {@code matchConstraints} without {@code resourceRules}. */
    MATCH_EVERYTHING
  }

  private static final String NAMESPACES = "namespaces";

  private final List<Rule> rules;
  private final List<Rule> excludeRules;
  private final Parsed namespaceSelector;
  private final Parsed objectSelector;
  private final MatchPolicy matchPolicy;
  private final EmptyRules emptyRules;

  /** A selector, or why it could not be parsed. */
  private record Parsed(LabelSelector selector, String error) {
    static Parsed of(Value v) {
      try {
        return new Parsed(LabelSelectors.parse(v), null);
      } catch (IllegalArgumentException e) {
        return new Parsed(null, e.getMessage());
      }
    }

    static Parsed of(LabelSelector s) {
      return new Parsed(requireNonNull(s, "selector"), null);
    }

    LabelSelector orThrow() {
      if (selector == null) {
        throw StatusErrors.internal(error);
      }
      return selector;
    }
  }

  private MatchCriteria(Builder b) {
    this.rules = List.copyOf(b.rules);
    this.excludeRules = List.copyOf(b.excludeRules);
    this.namespaceSelector = b.namespaceSelector;
    this.objectSelector = b.objectSelector;
    this.matchPolicy = b.matchPolicy;
    this.emptyRules = b.emptyRules;
  }

  /**
   * A builder whose selectors select everything, with policy Equivalent and no rules.
   *
   * @return a new builder
   */
  public static Builder builder() {
    return new Builder();
  }

  /**
   * The criteria of one webhook of a Validating/MutatingWebhookConfiguration ({@code rules},
   * {@code namespaceSelector}, {@code objectSelector}, {@code matchPolicy}), with kube's
   * defaults for absent fields (selectors select everything, the policy is Equivalent).
   *
   * @param webhook the webhook entry
   * @return the criteria
   */
  public static MatchCriteria forWebhook(Value webhook) {
    requireNonNull(webhook, "webhook");
    Builder b = builder().emptyRules(EmptyRules.MATCH_NOTHING);
    for (Value r : Nested.list(webhook, "rules")) {
      b.rule(Rule.fromValue(r));
    }
    return b.namespaceSelector(Nested.getOrNull(webhook, "namespaceSelector"))
        .objectSelector(Nested.getOrNull(webhook, "objectSelector"))
        .matchPolicy(policy(webhook))
        .build();
  }

  /**
   * The criteria of a policy's or a binding's {@code matchResources} ({@code resourceRules},
   * {@code excludeResourceRules}, selectors, {@code matchPolicy}); no resource rules match
   * every resource.
   *
   * @param matchResources the {@code matchResources} value, or null
   * @return the criteria
   */
  public static MatchCriteria forPolicy(Value matchResources) {
    requireNonNull(matchResources, "matchResources");
    Builder b = builder().emptyRules(EmptyRules.MATCH_EVERYTHING);
    for (Value r : Nested.list(matchResources, "resourceRules")) {
      b.rule(Rule.fromValue(r));
    }
    for (Value r : Nested.list(matchResources, "excludeResourceRules")) {
      b.excludeRule(Rule.fromValue(r));
    }
    return b.namespaceSelector(Nested.getOrNull(matchResources, "namespaceSelector"))
        .objectSelector(Nested.getOrNull(matchResources, "objectSelector"))
        .matchPolicy(policy(matchResources))
        .build();
  }

  private static MatchPolicy policy(Value v) {
    Value p = Nested.getOrNull(v, "matchPolicy");
    return p instanceof StringValue s ? MatchPolicy.fromWireName(s.value())
        : MatchPolicy.EQUIVALENT;
  }

  /**
   * The rules a request must match one of.
   *
   * @return the rules
   */
  public List<Rule> rules() {
    return rules;
  }

  /**
   * The rules that exclude a request.
   *
   * @return the exclude rules
   */
  public List<Rule> excludeRules() {
    return excludeRules;
  }

  /**
   * Whether equivalent resources match.
   *
   * @return the match policy
   */
  public MatchPolicy matchPolicy() {
    return matchPolicy;
  }

  /**
   * Matches a request.
   *
   * @param namespaces where namespace labels come from
   * @param equivalents the served resources' equivalents, for {@link MatchPolicy#EQUIVALENT}
   * @param a the request
   * @return how it matched, or empty when it does not
   * @throws StatusException the 404 of a missing namespace or the 500 of a malformed selector
   *     or an equivalent resource without kind, when the request otherwise matches
   */
  public Optional<Match> match(AdmissionAttributes a, NamespaceLookup namespaces,
      EquivalentResources equivalents) {
    requireNonNull(a, "a");
    requireNonNull(namespaces, "namespaces");
    requireNonNull(equivalents, "equivalents");
    StatusException namespaceError = null;
    try {
      if (!namespaceMatches(a, namespaces)) {
        return Optional.empty();
      }
    } catch (StatusException e) {
      namespaceError = e;
    }
    StatusException objectError = null;
    try {
      if (!objectMatches(a)) {
        return Optional.empty();
      }
    } catch (StatusException e) {
      objectError = e;
    }
    if (!excludeRules.isEmpty() && matchRules(excludeRules, a, equivalents).isPresent()) {
      return Optional.empty();
    }
    Optional<Match> match;
    if (rules.isEmpty()) {
      match = emptyRules == EmptyRules.MATCH_EVERYTHING
          ? Optional.of(new Match(a.resource(), a.subresource(), a.kind())) : Optional.empty();
    } else {
      match = matchRules(rules, a, equivalents);
    }
    if (match.isEmpty()) {
      return match;
    }
    if (namespaceError != null) {
      throw namespaceError;
    }
    if (objectError != null) {
      throw objectError;
    }
    return match;
  }

  private Optional<Match> matchRules(List<Rule> list, AdmissionAttributes a,
      EquivalentResources equivalents) {
    for (Rule r : list) {
      if (r.matches(a) && r.namesMatch(a)) {
        return Optional.of(new Match(a.resource(), a.subresource(), a.kind()));
      }
    }
    if (matchPolicy != MatchPolicy.EQUIVALENT) {
      return Optional.empty();
    }
    List<GroupVersionResource> others = null;
    // earlier rules first, as kube, each tried with every equivalent
    for (Rule r : list) {
      if (others == null) {
        others = equivalents.equivalents(a.resource(), a.subresource());
      }
      for (GroupVersionResource eq : others) {
        if (eq.equals(a.resource()) || !r.matches(a, eq)) {
          continue;
        }
        GroupVersionKind kind = equivalents.kindFor(eq, a.subresource())
            .orElseThrow(() -> StatusErrors.internal("unable to convert to " + goGvr(eq)
                + ": unknown kind"));
        return Optional.of(new Match(eq, a.subresource(), kind));
      }
    }
    return Optional.empty();
  }

  /** Go's {@code %v} of a GroupVersionResource struct. */
  private static String goGvr(GroupVersionResource r) {
    return "{" + r.group() + " " + r.version() + " " + r.resource() + "}";
  }

  private boolean namespaceMatches(AdmissionAttributes a, NamespaceLookup namespaces) {
    boolean namespaceRequest = a.resource().resource().equals(NAMESPACES);
    if (a.namespace().isEmpty() && !namespaceRequest) {
      // cluster-scoped objects other than namespaces are never excluded by namespace
      return true;
    }
    LabelSelector selector = namespaceSelector.orThrow();
    if (selector.isEverything()) {
      return true;
    }
    return selector.matches(namespaceLabelsHolder(a, namespaces, namespaceRequest));
  }

  /** The object whose labels stand for the request's namespace. */
  private static MapValue namespaceLabelsHolder(AdmissionAttributes a,
      NamespaceLookup namespaces, boolean namespaceRequest) {
    if (namespaceRequest && a.subresource().isEmpty()
        && (a.operation() == Operation.CREATE || a.operation() == Operation.UPDATE)) {
      // the namespace being written is not stored yet: its own labels decide
      return a.object().orElse(MapValue.empty());
    }
    // requests for a namespace itself may carry its name only as the name
    String name = a.namespace().isEmpty() && namespaceRequest ? a.name() : a.namespace();
    return namespaces.namespace(name).orElseThrow(
        () -> StatusErrors.notFound(new GroupResource("", NAMESPACES), name));
  }

  private boolean objectMatches(AdmissionAttributes a) {
    LabelSelector selector = objectSelector.orThrow();
    if (selector.isEverything()) {
      return true;
    }
    return a.object().map(selector::matches).orElse(false)
        || a.oldObject().map(selector::matches).orElse(false);
  }

  /** Builds {@link MatchCriteria}; by default no rules, every selector everything, Equivalent. */
  public static final class Builder {
    private final List<Rule> rules = new ArrayList<>();
    private final List<Rule> excludeRules = new ArrayList<>();
    private Parsed namespaceSelector = Parsed.of(LabelSelector.everything());
    private Parsed objectSelector = Parsed.of(LabelSelector.everything());
    private MatchPolicy matchPolicy = MatchPolicy.EQUIVALENT;
    private EmptyRules emptyRules = EmptyRules.MATCH_NOTHING;

    private Builder() {}

    /**
     * Adds a rule a request may match.
     *
     * @param rule the rule
     * @return this builder
     */
    public Builder rule(Rule rule) {
      rules.add(requireNonNull(rule, "rule"));
      return this;
    }

    /**
     * Adds a rule that excludes the requests it matches.
     *
     * @param rule the rule
     * @return this builder
     */
    public Builder excludeRule(Rule rule) {
      excludeRules.add(requireNonNull(rule, "rule"));
      return this;
    }

    /**
     * Matches only requests in namespaces whose labels match.
     *
     * @param selector the parsed selector
     * @return this builder
     */
    public Builder namespaceSelector(LabelSelector selector) {
      this.namespaceSelector = Parsed.of(selector);
      return this;
    }

    /**
     * A {@code metav1.LabelSelector} object (null: everything). A malformed one fails matching
     * requests with 500, as kube.
     *
     * @param selector the selector value, or null
     * @return this builder
     */
    public Builder namespaceSelector(Value selector) {
      this.namespaceSelector = Parsed.of(selector);
      return this;
    }

    /**
     * Matches only requests whose object or old object has matching labels.
     *
     * @param selector the parsed selector
     * @return this builder
     */
    public Builder objectSelector(LabelSelector selector) {
      this.objectSelector = Parsed.of(selector);
      return this;
    }

    /**
     * Like {@link #namespaceSelector(Value)}, for the object's labels.
     *
     * @param selector the selector value, or null
     * @return this builder
     */
    public Builder objectSelector(Value selector) {
      this.objectSelector = Parsed.of(selector);
      return this;
    }

    /**
     * Whether equivalent resources match; Equivalent by default.
     *
     * @param matchPolicy the policy
     * @return this builder
     */
    public Builder matchPolicy(MatchPolicy matchPolicy) {
      this.matchPolicy = requireNonNull(matchPolicy, "matchPolicy");
      return this;
    }

    /**
     * What having no rules means.
     *
     * @param emptyRules match everything or nothing
     * @return this builder
     */
    public Builder emptyRules(EmptyRules emptyRules) {
      this.emptyRules = requireNonNull(emptyRules, "emptyRules");
      return this;
    }

    /**
     * Builds the criteria.
     *
     * @return the immutable criteria
     */
    public MatchCriteria build() {
      return new MatchCriteria(this);
    }
  }
}
