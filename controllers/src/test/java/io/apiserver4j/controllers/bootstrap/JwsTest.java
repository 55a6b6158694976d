/*
 * Copyright The apiserver4j authors.
 * SPDX-License-Identifier: Apache-2.0
 */
package io.apiserver4j.controllers.bootstrap;

import static org.assertj.core.api.Assertions.assertThat;

import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.CsvSource;

/** kube's pkg/controller/bootstrap/jws_test.go {@code TestComputeDetachedSig}, its values. */
class JwsTest {
  @ParameterizedTest
  @CsvSource(delimiter = '|', value = {
      "Hello from the other side. I must have called a thousand times.|my voice is my passcode"
          + "|eyJhbGciOiJIUzI1NiIsImtpZCI6Impvc2h1YSJ9..VShe2taLd-YTrmWuRkcL_8QTNDHYxQIEBsAYYiIj1_8",
      "''|my voice is my passcode"
          + "|eyJhbGciOiJIUzI1NiIsImtpZCI6Impvc2h1YSJ9..7Ui1ALizW4jXphVUB7xUqC9vLYLL9RZeOFfVLoB7Tgk",
      "Hello from the other side. I must have called a thousand times.|''"
          + "|eyJhbGciOiJIUzI1NiIsImtpZCI6Impvc2h1YSJ9..UfkqvDGiIFxrMnFseDj9LYJOLNrvjW8aHhF71mvvAs8"})
  void detachedSignaturesAreKubes(String content, String secret, String expected) {
    assertThat(Jws.detachedSignature(content, "joshua", secret)).isEqualTo(expected);
  }
}
