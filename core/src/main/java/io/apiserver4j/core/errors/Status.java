/*
 * Copyright The apiserver4j authors.
 * SPDX-License-Identifier: Apache-2.0
 */
package io.apiserver4j.core.errors;

import static io.apiserver4j.core.Meta.string;
import static java.util.Objects.requireNonNull;

import java.util.ArrayList;
import java.util.List;
import java.util.Optional;
import io.apiserver4j.core.DecodeException;
import io.apiserver4j.core.IntegerValue;
import io.apiserver4j.core.Json;
import io.apiserver4j.core.ListValue;
import io.apiserver4j.core.MapValue;
import io.apiserver4j.core.Value;

/**
 * The Kubernetes {@code Status} object: the body of every error kube-apiserver returns, and of
 * some successful deletes.
 *
 * <p>{@link #toValue()} produces exactly kube-apiserver's JSON field order and omissions:
 * {@code kind, apiVersion, metadata, status, message, reason, details, code}.
 */
public record Status(
    Outcome outcome, int code, StatusReason reason, String message,
    Optional<StatusDetails> details) {

  /** The {@code status} field: {@code Success} or {@code Failure}. */
  public enum Outcome {
    /** The request succeeded. */
    SUCCESS("Success"),
    /** The request failed. */
    FAILURE("Failure");

    private final String wireName;

    Outcome(String wireName) {
      this.wireName = wireName;
    }

    /**
     * The value of the {@code status} field.
     *
     * @return {@code Success} or {@code Failure}
     */
    public String wireName() {
      return wireName;
    }
  }

  /**
   * Checks that no component is null.
   *
   * @param outcome see the record component
   * @param code see the record component
   * @param reason see the record component
   * @param message see the record component
   * @param details see the record component
   * @throws NullPointerException when a component is null
   */
  public Status {
    requireNonNull(outcome, "outcome");
    requireNonNull(reason, "reason");
    requireNonNull(message, "message");
    requireNonNull(details, "details");
  }

  /**
   * A failure with the reason's usual code.
   *
   * @param reason the reason
   * @param message the message
   * @return the status
   */
  public static Status failure(StatusReason reason, String message) {
    return new Status(Outcome.FAILURE, reason.code(), reason, message, Optional.empty());
  }

  /**
   * A failure with the reason's usual code and details.
   *
   * @param reason the reason
   * @param message the message
   * @param details the details
   * @return the status
   */
  public static Status failure(StatusReason reason, String message, StatusDetails details) {
    return new Status(Outcome.FAILURE, reason.code(), reason, message, Optional.of(details));
  }

  /**
   * A success status, as returned by some deletes.
   *
   * @param details the details of the deleted object
   * @return the status, code 200
   */
  public static Status success(StatusDetails details) {
    return new Status(Outcome.SUCCESS, 200, StatusReason.UNKNOWN, "", Optional.of(details));
  }

  /**
   * A copy with other details.
   *
   * @param newDetails the details
   * @return the new status
   */
  public Status withDetails(StatusDetails newDetails) {
    return new Status(outcome, code, reason, message, Optional.of(newDetails));
  }

  /**
   * A copy with another message.
   *
   * @param newMessage the message
   * @return the new status
   */
  public Status withMessage(String newMessage) {
    return new Status(outcome, code, reason, newMessage, details);
  }

  /**
   * The causes in the details.
   *
   * @return the causes; empty without details
   */
  public List<StatusCause> causes() {
    return details.map(StatusDetails::causes).orElse(List.of());
  }

  /**
   * The Status object as kube-apiserver serializes it.
   *
   * @return the object, with {@code kind: Status} and {@code apiVersion: v1}
   */
  public MapValue toValue() {
    MapValue.Builder b = MapValue.builder(8)
        .put("kind", Value.of("Status"))
        .put("apiVersion", Value.of("v1"))
        .put("metadata", MapValue.empty())
        .put("status", Value.of(outcome.wireName()));
    if (!message.isEmpty()) {
      b.put("message", Value.of(message));
    }
    if (!reason.wireName().isEmpty()) {
      b.put("reason", Value.of(reason.wireName()));
    }
    details.filter(d -> !d.isEmpty()).ifPresent(d -> b.put("details", detailsValue(d)));
    if (code != 0) {
      b.put("code", Value.of(code));
    }
    return b.build();
  }

  /**
   * The Status object as compact JSON.
   *
   * @return {@link #toValue()} as JSON text
   */
  public String toJson() {
    return Json.write(toValue());
  }

  private static MapValue detailsValue(StatusDetails d) {
    MapValue.Builder b = MapValue.builder(6);
    putIfSet(b, "name", d.name());
    putIfSet(b, "group", d.group());
    putIfSet(b, "kind", d.kind());
    putIfSet(b, "uid", d.uid());
    if (!d.causes().isEmpty()) {
      ListValue.Builder causes = ListValue.builder(d.causes().size());
      for (StatusCause c : d.causes()) {
        MapValue.Builder cb = MapValue.builder(3);
        putIfSet(cb, "reason", c.type());
        putIfSet(cb, "message", c.message());
        putIfSet(cb, "field", c.field());
        causes.add(cb.build());
      }
      b.put("causes", causes.build());
    }
    if (d.retryAfterSeconds() != 0) {
      b.put("retryAfterSeconds", Value.of(d.retryAfterSeconds()));
    }
    return b.build();
  }

  private static void putIfSet(MapValue.Builder b, String key, String value) {
    if (!value.isEmpty()) {
      b.put(key, Value.of(value));
    }
  }

  /**
   * Reads a Status object (e.g. a response body); unknown fields are ignored.
   *
   * @param v the parsed object
   * @return the status
   */
  public static Status fromValue(Value v) {
    if (!(v instanceof MapValue m)) {
      throw new DecodeException("a Status must be a JSON object");
    }
    Outcome outcome = "Success".equals(string(m, "status")) ? Outcome.SUCCESS : Outcome.FAILURE;
    StatusReason reason = StatusReason.fromWireName(string(m, "reason"));
    int code = m.getOrNull("code") instanceof IntegerValue i ? (int) i.value() : 0;
    Optional<StatusDetails> details = Optional.empty();
    if (m.getOrNull("details") instanceof MapValue d) {
      List<StatusCause> causes = new ArrayList<>();
      if (d.getOrNull("causes") instanceof ListValue l) {
        for (Value c : l.items()) {
          if (c instanceof MapValue cm) {
            causes.add(new StatusCause(string(cm, "reason"), string(cm, "message"),
                string(cm, "field")));
          }
        }
      }
      int retry = d.getOrNull("retryAfterSeconds") instanceof IntegerValue r ? (int) r.value() : 0;
      details = Optional.of(new StatusDetails(string(d, "name"), string(d, "group"),
          string(d, "kind"), string(d, "uid"), causes, retry));
    }
    return new Status(outcome, code, reason, string(m, "message"), details);
  }

}
