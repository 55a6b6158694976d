/*
 * Copyright The apiserver4j authors.
 * SPDX-License-Identifier: Apache-2.0
 */
package io.apiserver4j.dryrun;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import io.apiserver4j.core.errors.BadRequestException;
import io.apiserver4j.core.errors.InvalidException;
import io.apiserver4j.core.errors.StatusCause;
import java.util.List;
import java.util.stream.Stream;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.Arguments;
import org.junit.jupiter.params.provider.EnumSource;
import org.junit.jupiter.params.provider.MethodSource;

class DryRunTest {

  static Stream<Arguments> accepted() {
    return Stream.of(
        Arguments.of(List.of(), DryRun.NONE),
        Arguments.of(List.of("All"), DryRun.ALL),
        Arguments.of(List.of("All", "All"), DryRun.ALL));
  }

  @ParameterizedTest
  @MethodSource("accepted")
  void acceptedValues(List<String> values, DryRun expected) {
    for (OptionsKind kind : OptionsKind.values()) {
      assertThat(DryRun.parse(values, kind)).isEqualTo(expected);
    }
    assertThat(DryRun.validate(values)).isEmpty();
  }

  static Stream<Arguments> rejected() {
    return Stream.of(
        Arguments.of(List.of("foo"), "[\"foo\"]"),
        Arguments.of(List.of(""), "[\"\"]"),
        Arguments.of(List.of("all"), "[\"all\"]"),
        Arguments.of(List.of("All", "foo"), "[\"All\",\"foo\"]"),
        Arguments.of(List.of("<script>"), "[\"\\u003cscript\\u003e\"]"));
  }

  @ParameterizedTest
  @MethodSource("rejected")
  void rejectedValuesGiveKubesInvalid(List<String> values, String rendered) {
    String body = "Unsupported value: " + rendered + ": supported values: \"All\"";
    assertThatThrownBy(() -> DryRun.parse(values, OptionsKind.PATCH_OPTIONS))
        .isInstanceOfSatisfying(InvalidException.class, e -> {
          assertThat(e.code()).isEqualTo(422);
          assertThat(e.getMessage())
              .isEqualTo("PatchOptions.meta.k8s.io \"\" is invalid: dryRun: " + body);
          assertThat(e.status().causes())
              .containsExactly(new StatusCause("FieldValueNotSupported", body, "dryRun"));
        });
    assertThat(DryRun.validate(values)).hasSize(1);
  }

  @ParameterizedTest
  @EnumSource(OptionsKind.class)
  void statusBodyIsExactlyKubes(OptionsKind kind) {
    assertThatThrownBy(() -> DryRun.parse(List.of("foo"), kind))
        .isInstanceOfSatisfying(InvalidException.class, e -> assertThat(e.status().toJson())
            .isEqualTo("{\"kind\":\"Status\",\"apiVersion\":\"v1\",\"metadata\":{},"
                + "\"status\":\"Failure\",\"message\":\"" + kind.kind() + ".meta.k8s.io \\\"\\\""
                + " is invalid: dryRun: Unsupported value: [\\\"foo\\\"]: supported values:"
                + " \\\"All\\\"\",\"reason\":\"Invalid\",\"details\":{\"group\":\"meta.k8s.io\","
                + "\"kind\":\"" + kind.kind() + "\",\"causes\":[{\"reason\":"
                + "\"FieldValueNotSupported\",\"message\":\"Unsupported value: [\\\"foo\\\"]:"
                + " supported values: \\\"All\\\"\",\"field\":\"dryRun\"}]},\"code\":422}"));
  }

  @Test
  void connectRejectsAnyDryRun() {
    DryRun.requireAbsentOnConnect(List.of());
    assertThatThrownBy(() -> DryRun.requireAbsentOnConnect(List.of("All")))
        .isInstanceOf(BadRequestException.class).hasMessage("dryRun is not supported");
  }

  @Test
  void wireValuesRoundTrip() {
    for (DryRun d : DryRun.values()) {
      assertThat(DryRun.parse(d.wireValues(), OptionsKind.CREATE_OPTIONS)).isEqualTo(d);
    }
    assertThat(DryRun.ALL.isDryRun()).isTrue();
    assertThat(DryRun.NONE.isDryRun()).isFalse();
  }
}
