/*
 * Copyright The apiserver4j authors.
 * SPDX-License-Identifier: Apache-2.0
 */
package io.apiserver4j.core;

import static org.assertj.core.api.Assertions.assertThat;

import java.util.List;
import org.junit.jupiter.api.Test;
import io.apiserver4j.core.errors.AlreadyExistsException;
import io.apiserver4j.core.errors.FieldError;
import io.apiserver4j.core.errors.ForbiddenException;
import io.apiserver4j.core.errors.GoneException;
import io.apiserver4j.core.errors.InvalidException;
import io.apiserver4j.core.errors.Status;
import io.apiserver4j.core.errors.StatusCause;
import io.apiserver4j.core.errors.StatusErrors;
import io.apiserver4j.core.errors.StatusException;

class StatusTest {
  private static final GroupResource CONFIGMAPS = new GroupResource("", "configmaps");
  private static final GroupResource DEPLOYMENTS = new GroupResource("apps", "deployments");

  @Test
  void notFoundSerializesExactlyAsKubeApiserver() {
    assertThat(StatusErrors.notFound(CONFIGMAPS, "x").status().toJson()).isEqualTo(
        "{\"kind\":\"Status\",\"apiVersion\":\"v1\",\"metadata\":{},\"status\":\"Failure\","
            + "\"message\":\"configmaps \\\"x\\\" not found\",\"reason\":\"NotFound\","
            + "\"details\":{\"name\":\"x\",\"kind\":\"configmaps\"},\"code\":404}");
  }

  @Test
  void conflictAndAlreadyExistsMessages() {
    assertThat(StatusErrors.objectModified(DEPLOYMENTS, "web").getMessage()).isEqualTo(
        "Operation cannot be fulfilled on deployments.apps \"web\": the object has been modified;"
            + " please apply your changes to the latest version and try again");
    AlreadyExistsException e = StatusErrors.generatedNameExhausted(CONFIGMAPS, "cm-abcde");
    assertThat(e.code()).isEqualTo(409);
    assertThat(e.status().details().orElseThrow().retryAfterSeconds()).isEqualTo(1);
  }

  @Test
  void invalidAggregatesAndDeduplicatesFieldErrors() {
    InvalidException one = StatusErrors.invalid(new GroupKind("", "ConfigMap"), "Bad",
        List.of(FieldError.invalid("metadata.name", Value.of("Bad"), "must be lowercase")));
    assertThat(one.getMessage()).isEqualTo(
        "ConfigMap \"Bad\" is invalid: metadata.name: Invalid value: \"Bad\": must be lowercase");
    FieldError required = FieldError.required("spec.selector", "");
    InvalidException two = StatusErrors.invalid(new GroupKind("apps", "Deployment"), "d",
        List.of(required, required, FieldError.notSupported("spec.strategy.type",
            Value.of("X"), List.of("Recreate", "RollingUpdate"))));
    assertThat(two.getMessage()).isEqualTo("Deployment.apps \"d\" is invalid: [spec.selector:"
        + " Required value, spec.strategy.type: Unsupported value: \"X\": supported values:"
        + " \"Recreate\", \"RollingUpdate\"]");
    assertThat(two.status().causes()).extracting(StatusCause::type)
        .containsExactly("FieldValueRequired", "FieldValueNotSupported");
    assertThat(two.status().toValue().getOrNull("code")).isEqualTo(Value.of(422));
  }

  @Test
  void statusRoundTripsAndMapsToTypedExceptions() {
    Status s = StatusErrors.forbidden(CONFIGMAPS, "x", "no").status();
    assertThat(Status.fromValue(s.toValue())).isEqualTo(s);
    assertThat(StatusException.of(s)).isInstanceOf(ForbiddenException.class);
    assertThat(StatusException.of(StatusErrors.expired("too old resource version: 1 (5)").status()))
        .isInstanceOf(GoneException.class);
    assertThat(StatusErrors.internal("boom").status().toJson()).contains(
        "\"message\":\"Internal error occurred: boom\"", "\"causes\":[{\"message\":\"boom\"}]");
  }

  @Test
  void groupVersionParsing() {
    assertThat(GroupVersion.parse("v1")).isEqualTo(new GroupVersion("", "v1"));
    assertThat(GroupVersionKind.of("apps/v1", "Deployment").groupKind().toString())
        .isEqualTo("Deployment.apps");
  }
}
