/*
 * Copyright The apiserver4j authors.
 * SPDX-License-Identifier: Apache-2.0
 */
package io.apiserver4j.registry.internal;

import static io.apiserver4j.apimachinery.validation.GroupRules.immutable;
import static io.apiserver4j.apimachinery.validation.GroupRules.str;

import io.apiserver4j.apiserver.strategy.GenerationPolicy;
import io.apiserver4j.apiserver.ResourceStrategy;
import io.apiserver4j.cel.CelException;
import io.apiserver4j.cel.CelObjectType;
import io.apiserver4j.cel.CelProgram;
import io.apiserver4j.core.BooleanValue;
import io.apiserver4j.core.FieldError;
import io.apiserver4j.core.GroupVersionKind;
import io.apiserver4j.core.MapValue;
import io.apiserver4j.core.Nested;
import io.apiserver4j.core.StringValue;
import io.apiserver4j.core.Value;
import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Locale;
import java.util.Map;
import java.util.Optional;
import io.apiserver4j.apimachinery.validation.MetaValidation;
import io.apiserver4j.apimachinery.validation.GroupRules;

/**
 * resource.k8s.io/v1, the basic rules of pkg/apis/resource/validation/validation.go: a
 * ResourceSlice's driver, pool and node selection, the immutable specs of ResourceClaims
 * and ResourceClaimTemplates, and DeviceClasses (CEL selectors compiled in the DRA
 * environment, opaque configuration, the extended resource name). Allocation results and
 * selector cost estimates are not validated yet.
 */
final class ResourceStrategies {
  private ResourceStrategies() {}

  private static final String NODE_FIELDS =
      "exactly one of `nodeName`, `nodeSelector`, `allNodes`, `perDeviceNodeSelection` is required";

  static Map<GroupVersionKind, ResourceStrategy> strategies() {
    Map<GroupVersionKind, ResourceStrategy> out = new LinkedHashMap<>();
    out.put(resource("ResourceSlice"), ResourceStrategy.builder()
        .generationPolicy(GenerationPolicy.SPEC)
        .validator(ResourceStrategies::validateSlice)
        .build());
    out.put(resource("DeviceClass"), ResourceStrategy.builder()
        .generationPolicy(GenerationPolicy.SPEC)
        .validator(ResourceStrategies::validateDeviceClass)
        .build());
    out.put(resource("ResourceClaim"), ResourceStrategy.builder()
        .defaulter(o -> Nested.updateMap(o, ResourceStrategies::defaultClaimSpec, "spec"))
        .validator((o, old) -> validateClaim(o, old, "spec"))
        .build());
    out.put(resource("ResourceClaimTemplate"), ResourceStrategy.builder()
        .defaulter(o -> Nested.updateMap(o, ResourceStrategies::defaultClaimSpec, "spec",
            "spec"))
        .validator((o, old) -> validateClaim(o, old, "spec.spec"))
        .build());
    return out;
  }

  private static GroupVersionKind resource(String kind) {
    return new GroupVersionKind("resource.k8s.io", "v1", kind);
  }

  static List<FieldError> validateSlice(MapValue o, Optional<MapValue> old) {
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

  /** kube's {@code SetDefaults_ExactDeviceRequest} and {@code SetDefaults_DeviceSubRequest}. */
  static MapValue defaultClaimSpec(MapValue spec) {
    return Nested.updateListItems(spec, request -> {
      MapValue r = Nested.updateMap(request, ResourceStrategies::defaultAllocation, "exactly");
      return Nested.updateListItems(r, ResourceStrategies::defaultAllocation, "firstAvailable");
    }, "devices", "requests");
  }

  private static MapValue defaultAllocation(MapValue request) {
    MapValue r = Nested.setDefault(request, Value.of("ExactCount"), "allocationMode");
    if (str(r, "allocationMode").equals("ExactCount")
        && GroupRules.integer(r, "count").orElse(0L) == 0) {
      r = r.with("count", Value.of(1L));
    }
    return r;
  }

  /**
   * kube's claim spec rules: each request is exactly one of {@code exactly} or
   * {@code firstAvailable}, names a device class, a supported allocation mode and count, and
   * selectors with a CEL expression; the spec never changes after create.
   */
  static List<FieldError> validateClaim(MapValue o, Optional<MapValue> old, String path) {
    List<FieldError> errs = new ArrayList<>();
    if (old.isPresent()) {
      // kube only checks immutability on update (of a template's whole spec, metadata too)
      immutable(errs, "spec", Nested.map(o, "spec"), Nested.map(old.get(), "spec"));
      return errs;
    }
    MapValue spec = Nested.map(o, path.split("\\."));
    List<MapValue> requests = GroupRules.maps(spec, "devices", "requests");
    for (int i = 0; i < requests.size(); i++) {
      MapValue r = requests.get(i);
      String rp = path + ".devices.requests[" + i + "]";
      requestName(errs, rp + ".name", str(r, "name"));
      boolean first = !GroupRules.list(r, "firstAvailable").isEmpty();
      boolean exactly = r.getOrNull("exactly") instanceof MapValue;
      if (!first && !exactly) {
        errs.add(FieldError.required(rp, "exactly one of `exactly` or `firstAvailable` is"
            + " required"));
      } else if (first && exactly) {
        errs.add(FieldError.invalid(rp, Value.nullValue(), "exactly one of `exactly` or"
            + " `firstAvailable` is required, but multiple fields are set"));
      } else if (exactly) {
        exactRequest(errs, Nested.map(r, "exactly"), rp + ".exactly");
      } else {
        List<MapValue> subs = GroupRules.maps(r, "firstAvailable");
        for (int j = 0; j < subs.size(); j++) {
          String sp = rp + ".firstAvailable[" + j + "]";
          requestName(errs, sp + ".name", str(subs.get(j), "name"));
          exactRequest(errs, subs.get(j), sp);
        }
      }
    }
    return errs;
  }

  private static void requestName(List<FieldError> errs, String path, String name) {
    if (name.isEmpty()) {
      errs.add(FieldError.required(path, ""));
      return;
    }
    for (String msg : MetaValidation.dns1123Label(name)) {
      errs.add(FieldError.invalid(path, Value.of(name), msg));
    }
  }

  private static void exactRequest(List<FieldError> errs, MapValue r, String path) {
    String deviceClass = str(r, "deviceClassName");
    if (deviceClass.isEmpty()) {
      errs.add(FieldError.required(path + ".deviceClassName", ""));
    } else {
      for (String msg : MetaValidation.dns1123Subdomain(deviceClass)) {
        errs.add(FieldError.invalid(path + ".deviceClassName", Value.of(deviceClass), msg));
      }
    }
    List<MapValue> selectors = GroupRules.maps(r, "selectors");
    for (int i = 0; i < selectors.size(); i++) {
      if (!(selectors.get(i).getOrNull("cel") instanceof MapValue cel)) {
        errs.add(FieldError.required(path + ".selectors[" + i + "].cel", ""));
      } else if (str(cel, "expression").isEmpty()) {
        errs.add(FieldError.required(path + ".selectors[" + i + "].cel.expression",
            "expression is required"));
      }
    }
    long count = GroupRules.integer(r, "count").orElse(0L);
    String mode = str(r, "allocationMode");
    if (mode.equals("All")) {
      if (count != 0) {
        errs.add(FieldError.invalid(path + ".count", Value.of(count),
            "must not be specified when allocationMode is 'All'"));
      }
    } else if (mode.equals("ExactCount")) {
      if (count <= 0) {
        errs.add(FieldError.invalid(path + ".count", Value.of(count), "must be greater than zero"));
      }
    } else {
      errs.add(FieldError.notSupported(path + ".allocationMode", Value.of(mode),
          List.of("All", "ExactCount")));
    }
  }

  // --- DeviceClass -----------------------------------------------------------------------------

  private static final int MAX_SELECTORS = 32;
  private static final int MAX_CONFIGS = 32;
  private static final int MAX_EXPRESSION_LENGTH = 10 * 1024;
  private static final int MAX_OPAQUE_PARAMETERS = 10 * 1024;

  /** The {@code device} variable of kube's DRA CEL environment, with its fields. */
  private static final CelObjectType DEVICE = new CelObjectType() {
    @Override
    public Optional<CelObjectType> field(String name) {
      return List.of("driver", "attributes", "capacity", "allowMultipleAllocations")
          .contains(name) ? Optional.of(CelObjectType.dynamic()) : Optional.empty();
    }

    @Override
    public boolean open() {
      return false;
    }
  };

  /**
   * {@code ValidateDeviceClass} and {@code ValidateDeviceClassUpdate}: selectors and configs
   * unchanged since the stored class are not checked again (kube's stored expressions).
   */
  static List<FieldError> validateDeviceClass(MapValue o, Optional<MapValue> old) {
    List<FieldError> errs = new ArrayList<>();
    MapValue spec = Nested.map(o, "spec");
    Optional<MapValue> oldSpec = old.map(x -> Nested.map(x, "spec"));
    boolean storedSelectors = oldSpec.map(x -> java.util.Objects.equals(
        x.getOrNull("selectors"), spec.getOrNull("selectors"))).orElse(false);
    List<MapValue> selectors = GroupRules.maps(spec, "selectors");
    if (selectors.size() > MAX_SELECTORS) {
      errs.add(tooMany("spec.selectors", selectors.size(), MAX_SELECTORS));
    } else if (!storedSelectors) {
      for (int i = 0; i < selectors.size(); i++) {
        celSelector(errs, selectors.get(i), "spec.selectors[" + i + "]");
      }
    }
    boolean storedConfig = oldSpec.map(x -> java.util.Objects.equals(
        x.getOrNull("config"), spec.getOrNull("config"))).orElse(false);
    List<MapValue> configs = GroupRules.maps(spec, "config");
    if (configs.size() > MAX_CONFIGS) {
      errs.add(tooMany("spec.config", configs.size(), MAX_CONFIGS));
    } else {
      for (int i = 0; i < configs.size(); i++) {
        String at = "spec.config[" + i + "]";
        if (!(configs.get(i).getOrNull("opaque") instanceof MapValue opaque)) {
          errs.add(FieldError.required(at + ".opaque", ""));
          continue;
        }
        driverName(errs, str(opaque, "driver"), at + ".opaque.driver");
        rawObject(errs, opaque.getOrNull("parameters"), at + ".opaque.parameters",
            storedConfig);
      }
    }
    if (spec.getOrNull("extendedResourceName") instanceof StringValue ext
        && !isExtendedResourceName(ext.value())) {
      errs.add(FieldError.invalid("spec.extendedResourceName", ext,
          "must be a valid extended resource name"));
    }
    return errs;
  }

  private static FieldError tooMany(String path, int actual, int max) {
    return new FieldError(FieldError.Type.TOO_MANY, path, Optional.of(Value.of(actual)),
        "must have at most " + max + " items");
  }

  /** {@code validateSelector} and {@code validateCELSelector} in the DRA environment. */
  private static void celSelector(List<FieldError> errs, MapValue selector, String path) {
    if (!(selector.getOrNull("cel") instanceof MapValue cel)) {
      errs.add(FieldError.required(path + ".cel", ""));
      return;
    }
    String expression = str(cel, "expression");
    String at = path + ".cel.expression";
    if (expression.isEmpty()) {
      errs.add(FieldError.required(at, "expression is required"));
      return;
    }
    if (expression.length() > MAX_EXPRESSION_LENGTH) {
      errs.add(FieldError.tooLong(at, MAX_EXPRESSION_LENGTH));
      return;
    }
    try {
      CelProgram program = CelProgram.compile(expression, List.of("device"), List.of(),
          Map.of("device", DEVICE));
      if (!program.mayEvaluateTo("bool")) {
        errs.add(FieldError.invalid(at, Value.of(expression), "must evaluate to bool"));
      }
    } catch (CelException e) {
      errs.add(FieldError.invalid(at, Value.of(expression), "compilation failed: "
          + e.getMessage()));
    }
  }

  /** {@code validateDriverName}. */
  private static void driverName(List<FieldError> errs, String driver, String path) {
    if (driver.isEmpty()) {
      errs.add(FieldError.required(path, ""));
      return;
    }
    if (driver.length() > 63) {
      errs.add(FieldError.tooLong(path, 63));
    }
    for (String msg : MetaValidation.dns1123Subdomain(driver)) {
      errs.add(FieldError.invalid(path, Value.of(driver), msg));
    }
  }

  /** {@code validateRawExtension}: a JSON object, at most 10 KiB unless already stored. */
  private static void rawObject(List<FieldError> errs, Value raw, String path, boolean stored) {
    if (raw == null || raw.isNull()) {
      errs.add(FieldError.required(path, ""));
      return;
    }
    int size = io.apiserver4j.core.Json.write(raw).length();
    if (!stored && size > MAX_OPAQUE_PARAMETERS) {
      errs.add(FieldError.tooLong(path, MAX_OPAQUE_PARAMETERS));
    } else if (!(raw instanceof MapValue)) {
      errs.add(FieldError.invalid(path, Value.of("<value omitted>"),
          "must be a valid JSON object"));
    }
  }

  // v1helper.IsExtendedResourceName
  private static boolean isExtendedResourceName(String name) {
    if (!name.contains("/") || name.contains("kubernetes.io/") || name.startsWith("requests.")) {
      return false;
    }
    return MetaValidation.qualifiedName("requests." + name).isEmpty();
  }
}
