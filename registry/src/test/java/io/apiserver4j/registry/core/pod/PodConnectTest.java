/*
 * Copyright The apiserver4j authors.
 * SPDX-License-Identifier: Apache-2.0
 */
package io.apiserver4j.registry.core.pod;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import io.apiserver4j.apiserver.kubelet.PodLogOptions;
import io.apiserver4j.core.Json;
import io.apiserver4j.core.MapValue;
import io.apiserver4j.core.errors.FieldError;
import io.apiserver4j.core.errors.StatusException;
import java.time.Instant;
import java.util.List;
import java.util.Optional;
import java.util.OptionalLong;
import java.util.stream.Stream;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.Arguments;
import org.junit.jupiter.params.provider.MethodSource;

/**
 * The container choice and option validation of the kubelet subresources, with the cases of
 * kube's {@code TestCheckLogLocation} ({@code pkg/registry/core/pod/strategy_test.go}) and
 * {@code TestPodLogValidates} ({@code rest/log_test.go}), and the messages of
 * {@code ValidatePodLogOptions}.
 */
class PodConnectTest {

  static Stream<Arguments> containers() {
    return Stream.of(
        Arguments.of("simple", "{\"containers\":[{\"name\":\"mycontainer\"}]}", "",
            "mycontainer"),
        Arguments.of("missing container", "{}", "",
            "!a container name must be specified for pod test"),
        Arguments.of("choice of two containers",
            "{\"containers\":[{\"name\":\"container1\"},{\"name\":\"container2\"}]}", "",
            "!a container name must be specified for pod test, choose one of: "
                + "[container1 container2]"),
        Arguments.of("initcontainers", "{\"containers\":[{\"name\":\"container1\"},"
                + "{\"name\":\"container2\"}],\"initContainers\":[{\"name\":\"initcontainer1\"}]}",
            "", "!a container name must be specified for pod test, choose one of: "
                + "[initcontainer1 container1 container2]"),
        Arguments.of("ephemeralcontainers", "{\"containers\":[{\"name\":\"container1\"},"
                + "{\"name\":\"container2\"}],\"initContainers\":[{\"name\":\"initcontainer1\"}],"
                + "\"ephemeralContainers\":[{\"name\":\"debugger\"}]}", "",
            "!a container name must be specified for pod test, choose one of: "
                + "[initcontainer1 container1 container2 debugger]"),
        Arguments.of("bad container",
            "{\"containers\":[{\"name\":\"container1\"},{\"name\":\"container2\"}]}", "unknown",
            "!container unknown is not valid for pod test"),
        Arguments.of("good with two containers",
            "{\"containers\":[{\"name\":\"container1\"},{\"name\":\"container2\"}]}",
            "container2", "container2"),
        Arguments.of("an init container by name", "{\"containers\":[{\"name\":\"c\"}],"
            + "\"initContainers\":[{\"name\":\"init\"}]}", "init", "init"));
  }

  @ParameterizedTest(name = "{0}")
  @MethodSource("containers")
  void theContainerIsChosenAsKubeChoosesIt(String name, String spec, String container,
      String expected) {
    MapValue pod = (MapValue) Json.read("{\"metadata\":{\"name\":\"test\"},\"spec\":" + spec
        + "}");
    if (expected.startsWith("!")) {
      assertThatThrownBy(() -> PodConnect.validateContainer(container, pod, "test"))
          .isInstanceOfSatisfying(StatusException.class, e -> {
            assertThat(e.status().code()).isEqualTo(400);
            assertThat(e.status().reason().wireName()).isEqualTo("BadRequest");
            assertThat(e.status().message()).isEqualTo(expected.substring(1));
          });
    } else {
      assertThat(PodConnect.validateContainer(container, pod, "test")).isEqualTo(expected);
    }
  }

  private static PodLogOptions options(Long sinceSeconds, Instant sinceTime, Long tailLines,
      Long limitBytes) {
    return new PodLogOptions("", false, false, false,
        sinceSeconds == null ? OptionalLong.empty() : OptionalLong.of(sinceSeconds),
        Optional.ofNullable(sinceTime),
        tailLines == null ? OptionalLong.empty() : OptionalLong.of(tailLines),
        limitBytes == null ? OptionalLong.empty() : OptionalLong.of(limitBytes));
  }

  static Stream<Arguments> logOptions() {
    Instant t = Instant.parse("2026-01-01T00:00:00Z");
    return Stream.of(
        Arguments.of("none", options(null, null, null, null), false, List.of()),
        // TestPodLogValidates
        Arguments.of("negative sinceSeconds", options(-1L, null, null, null), false,
            List.of("sinceSeconds: Invalid value: -1: must be greater than 0")),
        Arguments.of("negative tailLines", options(null, null, -1L, null), false,
            List.of("tailLines: Invalid value: -1: must be greater than or equal to 0")),
        Arguments.of("zero tailLines", options(null, null, 0L, null), false, List.of()),
        Arguments.of("zero limitBytes", options(null, null, null, 0L), false,
            List.of("limitBytes: Invalid value: 0: must be greater than 0")),
        Arguments.of("sinceSeconds and sinceTime", options(10L, t, null, null), false,
            List.of(": Forbidden: at most one of `sinceTime` or `sinceSeconds` may be "
                + "specified")),
        Arguments.of("stream while PodLogsQuerySplitStreams is off",
            options(null, null, null, null), true,
            List.of("stream: Forbidden: may not be specified")));
  }

  @ParameterizedTest(name = "{0}")
  @MethodSource("logOptions")
  void logOptionsAreValidatedAsKubeValidatesThem(String name, PodLogOptions options,
      boolean stream, List<String> expected) {
    assertThat(PodConnect.validateLogOptions(options, stream).stream().map(FieldError::toString))
        .containsExactlyElementsOf(expected);
  }

  static Stream<Arguments> trims() {
    return Stream.of(
        Arguments.of("a\nb\nc\n", null, null, "a\nb\nc\n"),
        Arguments.of("a\nb\nc\n", 2L, null, "b\nc\n"),
        Arguments.of("a\nb\nc\n", 0L, null, ""),
        Arguments.of("a\nb\nc\n", 10L, null, "a\nb\nc\n"),
        Arguments.of("a\nb\nc", 1L, null, "c"),
        Arguments.of("a\nb\nc\n", null, 3L, "a\nb"),
        Arguments.of("a\nb\nc\n", 2L, 3L, "b\nc"));
  }

  @ParameterizedTest
  @MethodSource("trims")
  void tailLinesThenLimitBytesAsTheKubeletApplies(String log, Long tail, Long limit,
      String expected) {
    assertThat(options(null, null, tail, limit).trim(log)).isEqualTo(expected);
  }
}
