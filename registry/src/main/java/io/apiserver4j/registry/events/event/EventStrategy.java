/*
 * Copyright The apiserver4j authors.
 * SPDX-License-Identifier: Apache-2.0
 */
package io.apiserver4j.registry.events.event;

import static io.apiserver4j.apimachinery.validation.GroupValidation.has;
import static io.apiserver4j.apimachinery.validation.GroupValidation.str;

import io.apiserver4j.apimachinery.validation.GroupValidation;
import io.apiserver4j.apimachinery.validation.KubeValidation;
import io.apiserver4j.apimachinery.validation.MetaValidation;
import io.apiserver4j.apiserver.ResourceStrategy;
import io.apiserver4j.core.errors.FieldError;
import io.apiserver4j.core.IntegerValue;
import io.apiserver4j.core.MapValue;
import io.apiserver4j.core.Meta;
import io.apiserver4j.core.Nested;
import io.apiserver4j.core.Value;
import java.util.ArrayList;
import java.util.List;
import java.util.Objects;
import java.util.Optional;

/**
 * events.k8s.io/v1 Event, as kube's {@code pkg/registry/core/event} serving that API version:
 * created by an update too, with {@code ValidateEventCreate}/{@code ValidateEventUpdate} for
 * that API version (the legacy checks plus the strict ones). Fields are named as kube's internal
 * Event names them ({@code regarding} is {@code involvedObject}, {@code note} is
 * {@code message}, {@code deprecatedCount} is {@code count}, ...), since kube validates that type.
 */
public final class EventStrategy {
  private EventStrategy() {}

  /** The events.k8s.io/v1 Event's strategy. */
  public static ResourceStrategy strategy() {
    return ResourceStrategy.builder()
        .allowCreateOnUpdate(true)
        .validator(EventStrategy::validate)
        .build();
  }

  private static boolean set(MapValue e, String field) {
    Value v = e.getOrNull(field);
    return v != null && !v.isNull() && !(v instanceof MapValue m && m.isEmpty())
        && !(v instanceof IntegerValue i && i.value() == 0)
        && !(v instanceof io.apiserver4j.core.StringValue s && s.value().isEmpty());
  }

  static List<FieldError> validate(MapValue e, Optional<MapValue> old) {
    List<FieldError> errs = legacy(e);
    if (old.isEmpty()) {
      series(errs, e);
      if (!set(e, "eventTime")) {
        errs.add(FieldError.required("eventTime", ""));
      }
      String type = str(e, "type");
      if (!type.equals("Normal") && !type.equals("Warning")) {
        errs.add(FieldError.invalid("type", Value.of(""), "has invalid value: " + type));
      }
      if (set(e, "deprecatedFirstTimestamp")) {
        errs.add(FieldError.invalid("firstTimestamp", Value.of(""), "needs to be unset"));
      }
      if (set(e, "deprecatedLastTimestamp")) {
        errs.add(FieldError.invalid("lastTimestamp", Value.of(""), "needs to be unset"));
      }
      if (set(e, "deprecatedCount")) {
        errs.add(FieldError.invalid("count", Value.of(""), "needs to be unset"));
      }
      MapValue source = Nested.mapOrNull(e, "deprecatedSource");
      if (!str(source, "component").isEmpty() || !str(source, "host").isEmpty()) {
        errs.add(FieldError.invalid("source", Value.of(""), "needs to be unset"));
      }
      return errs;
    }
    MapValue o = old.get();
    if (!Objects.equals(e.getOrNull("series"), o.getOrNull("series"))) {
      series(errs, e);
    }
    // kube's order, reason twice included
    String[][] immutables = {{"regarding", "involvedObject"}, {"reason", "reason"},
        {"note", "message"}, {"deprecatedSource", "source"},
        {"deprecatedFirstTimestamp", "firstTimestamp"},
        {"deprecatedLastTimestamp", "lastTimestamp"}, {"deprecatedCount", "count"},
        {"reason", "reason"}, {"type", "type"}, {"eventTime", "eventTime"},
        {"action", "action"}, {"related", "related"},
        {"reportingController", "reportingController"},
        {"reportingInstance", "reportingInstance"}};
    for (String[] f : immutables) {
      Value now = set(e, f[0]) ? e.getOrNull(f[0]) : null;
      Value before = set(o, f[0]) ? o.getOrNull(f[0]) : null;
      if (!Objects.equals(now, before)) {
        errs.add(FieldError.invalid(f[1], now == null ? zero(f[0]) : now,
            KubeValidation.IMMUTABLE));
      }
    }
    return errs;
  }

  // Go's zero value of an unset field, as kube prints it
  private static Value zero(String field) {
    return switch (field) {
      case "deprecatedCount" -> Value.of(0L);
      case "reason", "note", "type", "action", "reportingController", "reportingInstance" ->
          Value.of("");
      default -> Value.nullValue();
    };
  }

  private static void series(List<FieldError> errs, MapValue e) {
    MapValue series = Nested.mapOrNull(e, "series");
    if (series == null) {
      return;
    }
    Long count = GroupValidation.integer(series, "count");
    if (count == null || count < 2) {
      errs.add(FieldError.invalid("series.count", Value.of(""), "should be at least 2"));
    }
    if (!has(series, "lastObservedTime")) {
      errs.add(FieldError.required("series.lastObservedTime", ""));
    }
  }

  private static List<FieldError> legacy(MapValue e) {
    List<FieldError> errs = new ArrayList<>();
    String ns = Meta.metaString(e, "namespace");
    String regardingNs = str(Nested.mapOrNull(e, "regarding"), "namespace");
    if (!set(e, "eventTime")) {
      boolean ok = regardingNs.isEmpty() ? ns.isEmpty() || ns.equals("default")
          : ns.equals(regardingNs);
      if (!ok) {
        errs.add(FieldError.invalid("involvedObject.namespace", Value.of(regardingNs),
            "does not match event.namespace"));
      }
    } else {
      if (regardingNs.isEmpty() && !ns.equals("default") && !ns.equals("kube-system")) {
        errs.add(FieldError.invalid("involvedObject.namespace", Value.of(regardingNs),
            "does not match event.namespace"));
      }
      String controller = str(e, "reportingController");
      if (controller.isEmpty()) {
        errs.add(FieldError.required("reportingController", ""));
      }
      for (String msg : MetaValidation.qualifiedName(controller)) {
        errs.add(FieldError.invalid("reportingController", Value.of(controller), msg));
      }
      limit(errs, e, "reportingInstance", "reportingInstance", 128, true);
      limit(errs, e, "action", "action", 128, true);
      limit(errs, e, "reason", "reason", 128, true);
      limit(errs, e, "note", "message", 1024, false);
    }
    for (String msg : MetaValidation.dns1123Subdomain(ns)) {
      errs.add(FieldError.invalid("namespace", Value.of(ns), msg));
    }
    return errs;
  }

  private static void limit(List<FieldError> errs, MapValue e, String field, String path,
      int max, boolean required) {
    String v = str(e, field);
    if (required && v.isEmpty()) {
      errs.add(FieldError.required(path, ""));
    }
    if (v.getBytes(java.nio.charset.StandardCharsets.UTF_8).length > max) {
      errs.add(FieldError.invalid(path, Value.of(""), "can have at most " + max + " characters"));
    }
  }
}
