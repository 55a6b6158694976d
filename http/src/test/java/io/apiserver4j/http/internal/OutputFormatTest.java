/*
 * Copyright The apiserver4j authors.
 * SPDX-License-Identifier: Apache-2.0
 */
package io.apiserver4j.http.internal;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import io.apiserver4j.core.errors.NotAcceptableException;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.CsvSource;

class OutputFormatTest {

  @ParameterizedTest
  @CsvSource(delimiter = '|', value = {
      // kubectl get (table)
      "application/json;as=Table;v=v1;g=meta.k8s.io,application/json;as=Table;v=v1beta1;g=meta.k8s.io,application/json"
          + " | application/json;as=Table;v=v1;g=meta.k8s.io",
      // typed clients ask for protobuf first: JSON is the fallback
      "application/vnd.kubernetes.protobuf,application/json | application/json",
      "application/json, */* | application/json",
      "*/* | application/json",
      "application/yaml | application/yaml",
      "application/* | application/json",
      "application/json;as=Table;v=v1beta1;g=meta.k8s.io | application/json;as=Table;v=v1beta1;g=meta.k8s.io",
      // unsupported conversions are skipped, not fatal
      "application/json;as=Table;v=v2;g=meta.k8s.io,application/json | application/json",
      "application/json;as=Foo;v=v1;g=meta.k8s.io,application/yaml | application/yaml",
      "application/json;as=PartialObjectMetadataList;v=v1;g=meta.k8s.io | application/json;as=PartialObjectMetadataList;v=v1;g=meta.k8s.io",
      // quality ordering
      "application/json;q=0.5,application/yaml | application/yaml",
      // unknown parameters are ignored
      "application/json;charset=utf-8 | application/json",
  })
  void negotiatesLikeKube(String accept, String contentType) {
    assertThat(OutputFormat.negotiate(accept).contentType()).isEqualTo(contentType);
  }

  @Test
  void emptyAcceptIsJson() {
    assertThat(OutputFormat.negotiate("")).isEqualTo(OutputFormat.JSON);
  }

  @Test
  void nothingAcceptableIs406() {
    assertThatThrownBy(() -> OutputFormat.negotiate("application/vnd.kubernetes.protobuf"))
        .isInstanceOf(NotAcceptableException.class)
        .hasMessage("only the following media types are accepted: application/json,"
            + " application/yaml");
  }

  @ParameterizedTest
  @CsvSource(delimiter = '|', value = {
      // client-go and kubectl's typed clients
      "application/vnd.kubernetes.protobuf,application/json | application/vnd.kubernetes.protobuf",
      "application/vnd.kubernetes.protobuf | application/vnd.kubernetes.protobuf",
      "application/json,application/vnd.kubernetes.protobuf | application/json",
      // no Table or metadata conversion in protobuf: the clause is skipped
      "application/vnd.kubernetes.protobuf;as=Table;v=v1;g=meta.k8s.io,application/json | application/json",
      "*/* | application/json",
  })
  void builtInKindsNegotiateProtobuf(String accept, String contentType) {
    assertThat(OutputFormat.negotiate(accept, OutputFormat.Protobuf.OFFERED).contentType())
        .isEqualTo(contentType);
  }

  @Test
  void protobufWhereItIsNotOfferedIs406() {
    assertThatThrownBy(() -> OutputFormat.negotiate("application/vnd.kubernetes.protobuf",
        OutputFormat.Protobuf.NOT_OFFERED))
        .isInstanceOf(NotAcceptableException.class)
        .hasMessage("only the following media types are accepted: application/json,"
            + " application/yaml");
    assertThatThrownBy(() -> OutputFormat.negotiate("text/plain",
        OutputFormat.Protobuf.OFFERED))
        .isInstanceOf(NotAcceptableException.class)
        .hasMessage("only the following media types are accepted: application/json,"
            + " application/yaml, application/vnd.kubernetes.protobuf");
  }
}
