/*
 * Copyright The apiserver4j authors.
 * SPDX-License-Identifier: Apache-2.0
 */
package io.apiserver4j.core.errors;

import static java.util.Objects.requireNonNull;

import java.util.List;
import java.util.Optional;
import java.util.stream.Collectors;
import io.apiserver4j.core.FloatValue;
import io.apiserver4j.core.GoStrings;
import io.apiserver4j.core.StringValue;
import io.apiserver4j.core.Value;

/**
 * A validation error on one field, formatted as apimachinery's {@code field.Error}.
 *
 * @param type what is wrong
 * @param field the field path, e.g. {@code metadata.name}
 * @param badValue the offending value, when the type shows one; empty omits it from the message
 *     (kube's {@code omitValue}), as kube does for object and array values
 * @param detail extra explanation; empty when none
 */
public record FieldError(Type type, String field, Optional<Value> badValue, String detail) {

  /** Error types with their cause reason and message prefix. */
  public enum Type {
    NOT_FOUND("FieldValueNotFound", "Not found", true),
    REQUIRED("FieldValueRequired", "Required value", false),
    DUPLICATE("FieldValueDuplicate", "Duplicate value", true),
    INVALID("FieldValueInvalid", "Invalid value", true),
    NOT_SUPPORTED("FieldValueNotSupported", "Unsupported value", true),
    FORBIDDEN("FieldValueForbidden", "Forbidden", false),
    TOO_LONG("FieldValueTooLong", "Too long", false),
    TOO_MANY("FieldValueTooMany", "Too many", true),
    INTERNAL("InternalError", "Internal error", false),
    TYPE_INVALID("FieldValueTypeInvalid", "Invalid value", true);

    private final String causeType;
    private final String text;
    private final boolean showsValue;

    Type(String causeType, String text, boolean showsValue) {
      this.causeType = causeType;
      this.text = text;
      this.showsValue = showsValue;
    }

    public String causeType() {
      return causeType;
    }
  }

  public FieldError {
    requireNonNull(type, "type");
    requireNonNull(field, "field");
    requireNonNull(badValue, "badValue");
    requireNonNull(detail, "detail");
  }

  public static FieldError required(String field, String detail) {
    return new FieldError(Type.REQUIRED, field, Optional.empty(), detail);
  }

  public static FieldError invalid(String field, Value badValue, String detail) {
    return new FieldError(Type.INVALID, field, Optional.of(badValue), detail);
  }

  /** Invalid value with the value left out of the message (kube's {@code omitValue}). */
  public static FieldError invalidOmitValue(String field, String detail) {
    return new FieldError(Type.INVALID, field, Optional.empty(), detail);
  }

  public static FieldError forbidden(String field, String detail) {
    return new FieldError(Type.FORBIDDEN, field, Optional.empty(), detail);
  }

  public static FieldError duplicate(String field, Value badValue) {
    return new FieldError(Type.DUPLICATE, field, Optional.of(badValue), "");
  }

  public static FieldError notFound(String field, Value badValue) {
    return new FieldError(Type.NOT_FOUND, field, Optional.of(badValue), "");
  }

  public static FieldError tooLong(String field, int maxBytes) {
    return new FieldError(Type.TOO_LONG, field, Optional.empty(),
        "may not be more than " + maxBytes + " bytes");
  }

  public static FieldError internal(String field, String detail) {
    return new FieldError(Type.INTERNAL, field, Optional.empty(), detail);
  }

  public static FieldError notSupported(String field, Value badValue, List<String> supported) {
    String detail = supported.isEmpty() ? ""
        : "supported values: "
            + supported.stream().map(GoStrings::quote).collect(Collectors.joining(", "));
    return new FieldError(Type.NOT_SUPPORTED, field, Optional.of(badValue), detail);
  }

  /** The message without the field, e.g. {@code Invalid value: "x": must be lowercase}. */
  public String body() {
    StringBuilder sb = new StringBuilder(type.text);
    if (type.showsValue && badValue.isPresent()) {
      sb.append(": ").append(formatValue(badValue.get()));
    }
    if (!detail.isEmpty()) {
      sb.append(": ").append(detail);
    }
    return sb.toString();
  }

  /** {@code field: body}, as in kube's aggregated messages (a root error prints {@code ": body"}, as Go's). */
  @Override
  public String toString() {
    return field + ": " + body();
  }

  public StatusCause toCause() {
    return new StatusCause(type.causeType, body(), field);
  }

  // Strings are Go-quoted, numbers and booleans bare, everything else JSON.
  private static String formatValue(Value v) {
    if (v instanceof StringValue s) {
      return GoStrings.quote(s.value());
    }
    if (v instanceof FloatValue f) {
      return GoStrings.formatFloatV(f.value());
    }
    return v.toString();
  }
}
