/*
 * Copyright The apiserver4j authors.
 * SPDX-License-Identifier: Apache-2.0
 */
package io.apiserver4j.registry.flowcontrol.prioritylevelconfiguration;

import static io.apiserver4j.apimachinery.validation.GroupRules.present;
import static io.apiserver4j.apimachinery.validation.GroupRules.str;

import io.apiserver4j.apimachinery.validation.GroupRules;
import io.apiserver4j.core.errors.FieldError;
import io.apiserver4j.core.MapValue;
import io.apiserver4j.core.Nested;
import io.apiserver4j.core.Value;
import java.util.ArrayList;
import java.util.List;
import java.util.Optional;

/**
 * kube's {@code ValidatePriorityLevelConfiguration}
 * (pkg/apis/flowcontrol/validation/validation.go): the type matches the name ({@code exempt}),
 * exempt and limited settings, limit responses and queuing (including shuffle sharding's
 * entropy), with kube's paths and messages.
 */
final class PriorityLevelConfigurationValidation {
  private PriorityLevelConfigurationValidation() {}

  private static final int MAX_QUEUES = 10 * 1000 * 1000;
  private static final int MAX_HASH_BITS = 60;

  static List<FieldError> validatePriorityLevel(MapValue o) {
    List<FieldError> errs = new ArrayList<>();
    String name = str(o, "metadata", "name");
    MapValue spec = Nested.map(o, "spec");
    String type = str(spec, "type");
    if (name.equals("exempt") != type.equals("Exempt")) {
      errs.add(FieldError.invalid("spec.type", Value.of(type),
          "type must be 'Exempt' if and only if name is 'exempt'"));
    }
    switch (type) {
      case "Exempt":
        if (present(spec, "limited")) {
          errs.add(FieldError.forbidden("spec.limited", "must be nil if the type is not Limited"));
        }
        if (spec.getOrNull("exempt") instanceof MapValue e) {
          long shares = GroupRules.integer(e, "nominalConcurrencyShares").orElse(0L);
          if (shares < 0) {
            errs.add(FieldError.invalid("spec.exempt.nominalConcurrencyShares",
                Value.of(shares), "must be a non-negative number"));
          }
          lendable(errs, e, "spec.exempt");
        }
        break;
      case "Limited":
        if (present(spec, "exempt")) {
          errs.add(FieldError.forbidden("spec.exempt", "must be nil if the type is Limited"));
        }
        if (!(spec.getOrNull("limited") instanceof MapValue l)) {
          errs.add(FieldError.required("spec.limited", "must not be empty when type is Limited"));
        } else {
          limited(errs, l);
        }
        break;
      default:
        errs.add(FieldError.notSupported("spec.type", Value.of(type),
            List.of("Exempt", "Limited")));
    }
    return errs;
  }

  private static void lendable(List<FieldError> errs, MapValue m, String at) {
    Optional<Long> p = GroupRules.integer(m, "lendablePercent");
    if (p.isPresent() && (p.get() < 0 || p.get() > 100)) {
      errs.add(FieldError.invalid(at + ".lendablePercent", Value.of(p.get()),
          "must be between 0 and 100, inclusive"));
    }
  }

  private static void limited(List<FieldError> errs, MapValue l) {
    // v1 accepts zero shares (kube's AllowZeroLimitedNominalConcurrencyShares for v1)
    long shares = GroupRules.integer(l, "nominalConcurrencyShares").orElse(0L);
    if (shares < 0) {
      errs.add(FieldError.invalid("spec.limited.nominalConcurrencyShares", Value.of(shares),
          "must be a non-negative integer"));
    }
    MapValue response = Nested.map(l, "limitResponse");
    String type = str(response, "type");
    String at = "spec.limited.limitResponse";
    if (type.equals("Reject")) {
      if (present(response, "queuing")) {
        errs.add(FieldError.forbidden(at + ".queuing",
            "must be nil if limited.limitResponse.type is not Limited"));
      }
    } else if (type.equals("Queue")) {
      if (!(response.getOrNull("queuing") instanceof MapValue q)) {
        errs.add(FieldError.required(at + ".queuing",
            "must not be empty if limited.limitResponse.type is Limited"));
      } else {
        queuing(errs, q, at + ".queuing");
      }
    } else {
      errs.add(FieldError.notSupported(at + ".type", Value.of(type), List.of("Queue", "Reject")));
    }
    lendable(errs, l, "spec.limited");
    Optional<Long> borrowing = GroupRules.integer(l, "borrowingLimitPercent");
    if (borrowing.isPresent() && borrowing.get() < 0) {
      errs.add(FieldError.invalid("spec.limited.borrowingLimitPercent",
          Value.of(borrowing.get()), "if specified, must be a non-negative integer"));
    }
  }

  private static void queuing(List<FieldError> errs, MapValue q, String at) {
    long limit = GroupRules.integer(q, "queueLengthLimit").orElse(0L);
    if (limit <= 0) {
      errs.add(FieldError.invalid(at + ".queueLengthLimit", Value.of(limit), "must be positive"));
    }
    long queues = GroupRules.integer(q, "queues").orElse(0L);
    if (queues <= 0) {
      errs.add(FieldError.invalid(at + ".queues", Value.of(queues), "must be positive"));
    } else if (queues > MAX_QUEUES) {
      errs.add(FieldError.invalid(at + ".queues", Value.of(queues),
          "must not be greater than " + MAX_QUEUES));
    }
    long hand = GroupRules.integer(q, "handSize").orElse(0L);
    if (hand <= 0) {
      errs.add(FieldError.invalid(at + ".handSize", Value.of(hand), "must be positive"));
    } else if (hand > queues) {
      errs.add(FieldError.invalid(at + ".handSize", Value.of(hand),
          "should not be greater than queues (" + queues + ")"));
    } else {
      // shuffle sharding draws handSize cards from a deck of queues with one hash
      int entropy = (int) Math.ceil(Math.log(queues) / Math.log(2) * hand);
      if (entropy > MAX_HASH_BITS) {
        errs.add(FieldError.invalid(at + ".handSize", Value.of(hand), "required entropy bits of"
            + " deckSize " + queues + " and handSize " + hand + " should not be greater than "
            + MAX_HASH_BITS));
      }
    }
  }
}
