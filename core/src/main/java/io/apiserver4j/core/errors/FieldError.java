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
    /** {@code Not found}, with the value. */
    NOT_FOUND("FieldValueNotFound", "Not found", true),
    /** {@code Required value}. */
    REQUIRED("FieldValueRequired", "Required value", false),
    /** {@code Duplicate value}, with the value. */
    DUPLICATE("FieldValueDuplicate", "Duplicate value", true),
    /** {@code Invalid value}, with the value. */
    INVALID("FieldValueInvalid", "Invalid value", true),
    /** {@code Unsupported value}, with the value and the supported ones. */
    NOT_SUPPORTED("FieldValueNotSupported", "Unsupported value", true),
    /** {@code Forbidden}. */
    FORBIDDEN("FieldValueForbidden", "Forbidden", false),
    /** {@code Too long}. */
    TOO_LONG("FieldValueTooLong", "Too long", false),
    /** {@code Too many}, with the count. */
    TOO_MANY("FieldValueTooMany", "Too many", true),
    /** {@code Internal error}. */
    INTERNAL("InternalError", "Internal error", false),
    /** A value of the wrong type, worded as {@code Invalid value}. */
    TYPE_INVALID("FieldValueTypeInvalid", "Invalid value", true);

    private final String causeType;
    private final String text;
    private final boolean showsValue;

    Type(String causeType, String text, boolean showsValue) {
      this.causeType = causeType;
      this.text = text;
      this.showsValue = showsValue;
    }

    /**
     * The cause type of a Status cause of this error.
     *
     * @return e.g. {@code FieldValueInvalid}
     */
    public String causeType() {
      return causeType;
    }
  }

  /**
   * Checks that no component is null.
   *
   * @param type see the record component
   * @param field see the record component
   * @param badValue see the record component
   * @param detail see the record component
   * @throws NullPointerException when a component is null
   */
  public FieldError {
    requireNonNull(type, "type");
    requireNonNull(field, "field");
    requireNonNull(badValue, "badValue");
    requireNonNull(detail, "detail");
  }

  /**
   * {@code Required value}.
   *
   * @param field the field path
   * @param detail the explanation, or empty
   * @return the error
   */
  public static FieldError required(String field, String detail) {
    return new FieldError(Type.REQUIRED, field, Optional.empty(), detail);
  }

  /**
   * {@code Invalid value}, showing the value.
   *
   * @param field the field path
   * @param badValue the offending value
   * @param detail the explanation, or empty
   * @return the error
   */
  public static FieldError invalid(String field, Value badValue, String detail) {
    return new FieldError(Type.INVALID, field, Optional.of(badValue), detail);
  }

  /**
   * Invalid value with the value left out of the message (kube's {@code omitValue}).
   *
   * @param field the field path
   * @param detail the explanation, or empty
   * @return the error
   */
  public static FieldError invalidOmitValue(String field, String detail) {
    return new FieldError(Type.INVALID, field, Optional.empty(), detail);
  }

  /**
   * {@code Forbidden}.
   *
   * @param field the field path
   * @param detail the explanation, or empty
   * @return the error
   */
  public static FieldError forbidden(String field, String detail) {
    return new FieldError(Type.FORBIDDEN, field, Optional.empty(), detail);
  }

  /**
   * {@code Duplicate value}.
   *
   * @param field the field path
   * @param badValue the repeated value
   * @return the error
   */
  public static FieldError duplicate(String field, Value badValue) {
    return new FieldError(Type.DUPLICATE, field, Optional.of(badValue), "");
  }

  /**
   * {@code Not found}.
   *
   * @param field the field path
   * @param badValue the value not found
   * @return the error
   */
  public static FieldError notFound(String field, Value badValue) {
    return new FieldError(Type.NOT_FOUND, field, Optional.of(badValue), "");
  }

  /**
   * {@code Too long}, with kube's {@code may not be more than <n> bytes}.
   *
   * @param field the field path
   * @param maxBytes the limit
   * @return the error
   */
  public static FieldError tooLong(String field, int maxBytes) {
    return new FieldError(Type.TOO_LONG, field, Optional.empty(),
        "may not be more than " + maxBytes + " bytes");
  }

  /**
   * {@code Internal error}.
   *
   * @param field the field path
   * @param detail the explanation
   * @return the error
   */
  public static FieldError internal(String field, String detail) {
    return new FieldError(Type.INTERNAL, field, Optional.empty(), detail);
  }

  /**
   * {@code Unsupported value}, listing the supported values as kube does.
   *
   * @param field the field path
   * @param badValue the offending value
   * @param supported the supported values, quoted in the message
   * @return the error
   */
  public static FieldError notSupported(String field, Value badValue, List<String> supported) {
    String detail = supported.isEmpty() ? ""
        : "supported values: "
            + supported.stream().map(GoStrings::quote).collect(Collectors.joining(", "));
    return new FieldError(Type.NOT_SUPPORTED, field, Optional.of(badValue), detail);
  }

  /**
   * The message without the field.
   *
   * @return e.g. {@code Invalid value: "x": must be lowercase}
   */
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

  /**
   * This error as a cause of an Invalid status, as kube-apiserver reports it.
   *
   * @return the cause: type, message without the field, and field
   */
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
