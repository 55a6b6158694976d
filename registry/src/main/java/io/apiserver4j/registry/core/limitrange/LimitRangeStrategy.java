/*
 * Copyright The apiserver4j authors.
 * SPDX-License-Identifier: Apache-2.0
 */
package io.apiserver4j.registry.core.limitrange;

import static io.apiserver4j.apimachinery.validation.GroupRules.maps;
import static io.apiserver4j.apimachinery.validation.GroupRules.str;

import io.apiserver4j.apimachinery.validation.GroupRules;
import io.apiserver4j.apimachinery.validation.GroupRules.Quantity;
import io.apiserver4j.apimachinery.validation.MetaValidation;
import io.apiserver4j.apiserver.ResourceStrategy;
import io.apiserver4j.core.errors.FieldError;
import io.apiserver4j.core.MapValue;
import io.apiserver4j.core.Nested;
import io.apiserver4j.core.Value;
import java.math.BigDecimal;
import java.math.RoundingMode;
import java.util.ArrayList;
import java.util.HashSet;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Set;
import java.util.TreeMap;

/**
 * core/v1 LimitRange (kube's pkg/registry/core/limitrange): {@code SetDefaults_LimitRangeItem}
 * and {@code ValidateLimitRange} (types, resource names, quantities and how min, max, defaults
 * and the limit/request ratio relate), with kube's field paths and messages.
 */
public final class LimitRangeStrategy {
  private static final List<String> LIMIT_FIELDS =
      List.of("max", "min", "default", "defaultRequest", "maxLimitRequestRatio");

  private LimitRangeStrategy() {}

  /** The LimitRange strategy. */
  public static ResourceStrategy strategy() {
    return ResourceStrategy.builder()
        .defaulter(o -> Nested.updateListItems(o, LimitRangeStrategy::defaultItem,
            "spec", "limits"))
        .validator((o, old) -> validate(o))
        .build();
  }

  /** kube's {@code SetDefaults_LimitRangeItem}: container defaults from max, default and min. */
  static MapValue defaultItem(MapValue item) {
    if (!str(item, "type").equals("Container")) {
      return item;
    }
    Map<String, Value> defaults = entries(item, "default");
    Map<String, Value> requests = entries(item, "defaultRequest");
    entries(item, "max").forEach(defaults::putIfAbsent);
    defaults.forEach(requests::putIfAbsent);
    entries(item, "min").forEach(requests::putIfAbsent);
    MapValue r = item;
    if (!defaults.isEmpty()) {
      r = r.with("default", toMap(defaults));
    }
    if (!requests.isEmpty()) {
      r = r.with("defaultRequest", toMap(requests));
    }
    return r;
  }

  private static Map<String, Value> entries(MapValue m, String field) {
    MapValue v = Nested.map(m, field);
    Map<String, Value> out = new LinkedHashMap<>();
    for (int i = 0; i < v.size(); i++) {
      out.put(v.keyAt(i), v.valueAt(i));
    }
    return out;
  }

  private static MapValue toMap(Map<String, Value> entries) {
    MapValue.Builder b = MapValue.empty().toBuilder();
    entries.forEach(b::put);
    return b.build();
  }

  private static boolean standardContainerResource(String name) {
    return name.equals("cpu") || name.equals("memory") || name.equals("ephemeral-storage")
        || name.startsWith("hugepages-");
  }

  static List<FieldError> validate(MapValue o) {
    List<FieldError> errs = new ArrayList<>();
    Set<String> types = new HashSet<>();
    List<MapValue> limits = maps(o, "spec", "limits");
    for (int i = 0; i < limits.size(); i++) {
      MapValue limit = limits.get(i);
      String at = "spec.limits[" + i + "]";
      String type = str(limit, "type");
      List<String> typeMsgs = MetaValidation.qualifiedName(type);
      typeMsgs.forEach(m -> errs.add(FieldError.invalid(at + ".type", Value.of(type), m)));
      if (typeMsgs.isEmpty() && !type.contains("/")
          && !List.of("Pod", "Container", "PersistentVolumeClaim").contains(type)) {
        errs.add(FieldError.invalid(at + ".type", Value.of(type),
            "must be a standard limit type or fully qualified"));
      }
      if (!types.add(type)) {
        errs.add(FieldError.duplicate(at + ".type", Value.of(type)));
      }
      Map<String, Map<String, Quantity>> q = new LinkedHashMap<>();
      Set<String> keys = new java.util.TreeSet<>();
      for (String f : LIMIT_FIELDS) {
        Map<String, Quantity> parsed = new TreeMap<>();
        MapValue m = Nested.map(limit, f);
        for (int k = 0; k < m.size(); k++) {
          String name = m.keyAt(k);
          String kp = at + "." + f + "[" + name + "]";
          List<String> nameMsgs = MetaValidation.qualifiedName(name);
          nameMsgs.forEach(msg -> errs.add(FieldError.invalid(kp, Value.of(name), msg)));
          if (nameMsgs.isEmpty() && !name.contains("/")
              && (type.equals("Pod") || type.equals("Container"))
              && !standardContainerResource(name)) {
            errs.add(FieldError.invalid(kp, Value.of(name),
                "must be a standard resource for containers"));
          }
          GroupRules.quantity(errs, kp, m.valueAt(k)).ifPresent(v -> parsed.put(name, v));
          keys.add(name);
        }
        q.put(f, parsed);
      }
      if (type.equals("Pod")) {
        for (String f : List.of("default", "defaultRequest")) {
          if (!Nested.map(limit, f).isEmpty()) {
            errs.add(FieldError.forbidden(at + "." + f,
                "may not be specified when `type` is 'Pod'"));
          }
        }
      } else {
        q.get("maxLimitRequestRatio").forEach((k, v) -> GroupRules.nonNegative(errs,
            at + ".maxLimitRequestRatio[" + k + "]", v));
      }
      if (type.equals("PersistentVolumeClaim") && !q.get("min").containsKey("storage")
          && !q.get("max").containsKey("storage")) {
        errs.add(FieldError.required(at + ".limits",
            "either minimum or maximum storage value is required, but neither was provided"));
      }
      for (String k : keys) {
        compareLimits(errs, at, k, q);
      }
    }
    return errs;
  }

  private static void compareLimits(List<FieldError> errs, String at, String k,
      Map<String, Map<String, Quantity>> q) {
    Quantity min = q.get("min").get(k);
    Quantity max = q.get("max").get(k);
    Quantity def = q.get("default").get(k);
    Quantity req = q.get("defaultRequest").get(k);
    Quantity ratio = q.get("maxLimitRequestRatio").get(k);
    if (min != null && max != null && min.compareTo(max) > 0) {
      errs.add(FieldError.invalid(at + ".min[" + k + "]", Value.of(min.toString()),
          "min value " + min + " is greater than max value " + max));
    }
    if (req != null && min != null && min.compareTo(req) > 0) {
      errs.add(FieldError.invalid(at + ".defaultRequest[" + k + "]", Value.of(req.toString()),
          "min value " + min + " is greater than default request value " + req));
    }
    if (req != null && max != null && req.compareTo(max) > 0) {
      errs.add(FieldError.invalid(at + ".defaultRequest[" + k + "]", Value.of(req.toString()),
          "default request value " + req + " is greater than max value " + max));
    }
    if (req != null && def != null && req.compareTo(def) > 0) {
      errs.add(FieldError.invalid(at + ".defaultRequest[" + k + "]", Value.of(req.toString()),
          "default request value " + req + " is greater than default limit value " + def));
    }
    if (def != null && min != null && min.compareTo(def) > 0) {
      errs.add(FieldError.invalid(at + ".default[" + k + "]", Value.of(min.toString()),
          "min value " + min + " is greater than default value " + def));
    }
    if (def != null && max != null && def.compareTo(max) > 0) {
      errs.add(FieldError.invalid(at + ".default[" + k + "]", Value.of(max.toString()),
          "default value " + def + " is greater than max value " + max));
    }
    if (ratio != null && ratio.value().compareTo(BigDecimal.ONE) < 0) {
      errs.add(FieldError.invalid(at + ".maxLimitRequestRatio[" + k + "]",
          Value.of(ratio.toString()), "ratio " + ratio + " is less than 1"));
    }
    if (ratio != null && min != null && max != null && min.value().signum() != 0) {
      // kube compares in milli units: the ratio against max/min
      BigDecimal minMilli = min.value().movePointRight(3).setScale(0, RoundingMode.UP);
      BigDecimal maxMilli = max.value().movePointRight(3).setScale(0, RoundingMode.UP);
      double limit = maxMilli.doubleValue() / minMilli.doubleValue();
      double value = ratio.value().movePointRight(3).setScale(0, RoundingMode.UP).doubleValue()
          / 1000;
      if (value > limit) {
        errs.add(FieldError.invalid(at + ".maxLimitRequestRatio[" + k + "]",
            Value.of(ratio.toString()), "ratio " + ratio + " is greater than max/min = "
                + String.format(java.util.Locale.ROOT, "%f", limit)));
      }
    }
  }
}
