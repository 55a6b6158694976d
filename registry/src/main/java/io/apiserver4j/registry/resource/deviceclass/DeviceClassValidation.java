/*
 * Copyright The apiserver4j authors.
 * SPDX-License-Identifier: Apache-2.0
 */
package io.apiserver4j.registry.resource.deviceclass;

import static io.apiserver4j.apimachinery.validation.GroupRules.str;

import io.apiserver4j.apimachinery.validation.GroupRules;
import io.apiserver4j.apimachinery.validation.MetaValidation;
import io.apiserver4j.cel.CelException;
import io.apiserver4j.cel.CelObjectType;
import io.apiserver4j.cel.CelProgram;
import io.apiserver4j.core.errors.FieldError;
import io.apiserver4j.core.MapValue;
import io.apiserver4j.core.Nested;
import io.apiserver4j.core.StringValue;
import io.apiserver4j.core.Value;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.Optional;

/**
 * kube's {@code ValidateDeviceClass} and {@code ValidateDeviceClassUpdate}
 * (pkg/apis/resource/validation/validation.go): CEL selectors compiled in the DRA environment,
 * opaque configuration, the extended resource name. Selector cost estimates are not validated
 * yet.
 */
final class DeviceClassValidation {
  private DeviceClassValidation() {}

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
