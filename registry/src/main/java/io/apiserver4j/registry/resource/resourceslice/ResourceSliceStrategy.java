/*
 * Copyright The apiserver4j authors.
 * SPDX-License-Identifier: Apache-2.0
 */
package io.apiserver4j.registry.resource.resourceslice;

import static io.apiserver4j.apimachinery.validation.GroupRules.immutable;
import static io.apiserver4j.apimachinery.validation.GroupRules.str;

import io.apiserver4j.apimachinery.validation.GroupRules;
import io.apiserver4j.apimachinery.validation.MetaValidation;
import io.apiserver4j.apiserver.ResourceStrategy;
import io.apiserver4j.core.BooleanValue;
import io.apiserver4j.core.errors.FieldError;
import io.apiserver4j.core.MapValue;
import io.apiserver4j.core.Nested;
import io.apiserver4j.core.StringValue;
import io.apiserver4j.core.Value;
import java.util.ArrayList;
import java.util.List;
import java.util.Locale;
import java.util.Optional;
import io.apiserver4j.apiserver.strategy.GenerationPolicy;

/**
 * kube's pkg/registry/resource/resourceslice strategy: the generation follows the spec, and
 * the basic rules of kube's {@code ValidateResourceSlice}: driver, pool, exactly one node
 * selection, shared counters or devices; driver, pool name and node name never change.
 */
public final class ResourceSliceStrategy {
  private ResourceSliceStrategy() {}

  private static final String NODE_FIELDS =
      "exactly one of `nodeName`, `nodeSelector`, `allNodes`, `perDeviceNodeSelection` is required";

  /** The ResourceSlice strategy. */
  public static ResourceStrategy strategy() {
    return ResourceStrategy.builder()
        .generationPolicy(GenerationPolicy.SPEC)
        .validator(ResourceSliceStrategy::validateSlice)
        .build();
  }

  private static List<FieldError> validateSlice(MapValue o, Optional<MapValue> old) {
    List<FieldError> errs = new ArrayList<>();
    MapValue spec = Nested.map(o, "spec");
    String driver = str(spec, "driver");
    if (driver.isEmpty()) {
      errs.add(FieldError.required("spec.driver", ""));
    }
    if (driver.length() > 63) {
      errs.add(FieldError.tooLong("spec.driver", 63));
    }
    for (String msg : MetaValidation.dns1123Subdomain(driver.toLowerCase(Locale.ROOT))) {
      errs.add(FieldError.invalid("spec.driver", Value.of(driver), msg));
    }
    String pool = str(spec, "pool", "name");
    if (pool.isEmpty()) {
      errs.add(FieldError.required("spec.pool.name", ""));
    } else {
      for (String part : pool.split("/", -1)) {
        for (String msg : MetaValidation.dns1123Subdomain(part)) {
          errs.add(FieldError.invalid("spec.pool.name", Value.of(part), msg));
        }
      }
    }
    long count = GroupRules.integer(spec, "pool", "resourceSliceCount").orElse(0L);
    if (count <= 0) {
      errs.add(FieldError.invalid("spec.pool.resourceSliceCount", Value.of(count),
          "must be greater than zero"));
    }
    long generation = GroupRules.integer(spec, "pool", "generation").orElse(0L);
    if (generation < 0) {
      errs.add(FieldError.invalid("spec.pool.generation", Value.of(generation),
          "must be greater than or equal to zero"));
    }
    if (old.isPresent()) {
      MapValue was = Nested.map(old.get(), "spec");
      immutable(errs, "spec.pool.name", Value.of(pool), Value.of(str(was, "pool", "name")));
      immutable(errs, "spec.driver", Value.of(driver), Value.of(str(was, "driver")));
      immutable(errs, "spec.nodeName", spec.getOrNull("nodeName"), was.getOrNull("nodeName"));
    }
    List<String> set = new ArrayList<>();
    if (spec.getOrNull("nodeName") instanceof StringValue node) {
      if (node.value().isEmpty()) {
        errs.add(FieldError.invalid("spec.nodeName", node,
            "must be either unset or set to a non-empty string"));
      } else {
        set.add("`nodeName`");
        for (String msg : MetaValidation.dns1123Subdomain(node.value())) {
          errs.add(FieldError.invalid("spec.nodeName", node, msg));
        }
      }
    }
    if (spec.getOrNull("nodeSelector") instanceof MapValue selector) {
      set.add("`nodeSelector`");
      Value terms = selector.getOrNull("nodeSelectorTerms");
      if (GroupRules.list(selector, "nodeSelectorTerms").size() != 1) {
        errs.add(FieldError.invalid("spec.nodeSelector.nodeSelectorTerms",
            terms == null ? Value.nullValue() : terms, "must have exactly one node selector term"));
      }
    }
    for (String flag : List.of("allNodes", "perDeviceNodeSelection")) {
      if (spec.getOrNull(flag) instanceof BooleanValue b) {
        if (b.value()) {
          set.add("`" + flag + "`");
        } else {
          errs.add(FieldError.invalid("spec." + flag, b, "must be either unset or set to true"));
        }
      }
    }
    if (set.isEmpty()) {
      errs.add(FieldError.required("spec", NODE_FIELDS));
    } else if (set.size() > 1) {
      errs.add(FieldError.invalid("spec", Value.of("{" + String.join(", ", set) + "}"),
          NODE_FIELDS + ", but multiple fields are set"));
    }
    if (GroupRules.present(spec, "sharedCounters") && GroupRules.present(spec, "devices")) {
      errs.add(FieldError.invalid("spec", Value.of(""),
          "only one of `sharedCounters` or `devices` is allowed"));
    }
    return errs;
  }
}
