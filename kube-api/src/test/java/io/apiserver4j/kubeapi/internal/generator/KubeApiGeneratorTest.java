/*
 * Copyright The apiserver4j authors.
 * SPDX-License-Identifier: Apache-2.0
 */
package io.apiserver4j.kubeapi.internal.generator;

import static org.assertj.core.api.Assertions.assertThat;

import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.Map;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/** The committed data is exactly what the generator makes of ../shared/api. */
class KubeApiGeneratorTest {
  private static final Path COMMITTED = Path.of("src/main/resources/io/apiserver4j/kubeapi");
  private static final Path GO_TYPE_NAMES = Path.of("src/go/go-type-names.txt");

  static Path sharedApi() {
    return Path.of(System.getProperty("apiserver4j.shared", "../../shared")).resolve("api");
  }

  @Test
  void committedOutputIsRegeneratedByteForByte(@TempDir Path tmp) throws IOException {
    KubeApiGenerator.main(new String[] {sharedApi().toString(), tmp.toString(),
        GO_TYPE_NAMES.toString()});
    Map<String, byte[]> expected = KubeApiGenerator.generate(sharedApi(), GO_TYPE_NAMES);
    assertThat(expected).containsOnlyKeys("resources.json", "schema.json.gz", "openapi.json.gz");
    for (String name : expected.keySet()) {
      assertThat(Files.readAllBytes(tmp.resolve(name))).as(name)
          .isEqualTo(expected.get(name));
      assertThat(Files.readAllBytes(COMMITTED.resolve(name)))
          .as("%s is stale: run KubeApiGenerator (see its javadoc)", name)
          .isEqualTo(expected.get(name));
    }
  }
}
