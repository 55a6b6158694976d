/*
 * Copyright The apiserver4j authors.
 * SPDX-License-Identifier: Apache-2.0
 */
package io.apiserver4j.dryrun;

import static org.assertj.core.api.Assertions.assertThat;

import io.apiserver4j.core.Json;
import io.apiserver4j.core.MapValue;
import org.junit.jupiter.api.Test;

class GeneratedValuesPolicyTest {
  private static MapValue json(String s) {
    return (MapValue) Json.read(s);
  }

  private final MapValue generatedRequest = json(
      "{\"metadata\":{\"generateName\":\"web-\",\"namespace\":\"ns\"}}");
  private final MapValue generatedResponse = json("{\"metadata\":{\"generateName\":\"web-\","
      + "\"name\":\"web-x7k2p\",\"namespace\":\"ns\",\"uid\":\"6f1c\","
      + "\"creationTimestamp\":\"2024-01-02T03:04:05Z\"}}");

  @Test
  void kubeApiserverKeepsGeneratedValues() {
    assertThat(GeneratedValuesPolicy.defaultPolicy()).isEqualTo(GeneratedValuesPolicy.KUBE_APISERVER);
    assertThat(GeneratedValuesPolicy.KUBE_APISERVER.applyToCreate(generatedRequest,
        generatedResponse)).isEqualTo(generatedResponse);
  }

  @Test
  void designProposalEmptiesUidAndGeneratedName() {
    assertThat(GeneratedValuesPolicy.DESIGN_PROPOSAL.applyToCreate(generatedRequest,
        generatedResponse)).isEqualTo(json("{\"metadata\":{\"generateName\":\"web-\","
            + "\"namespace\":\"ns\",\"creationTimestamp\":\"2024-01-02T03:04:05Z\"}}"));
  }

  @Test
  void designProposalKeepsAClientChosenName() {
    MapValue request = json("{\"metadata\":{\"name\":\"fixed\",\"generateName\":\"web-\"}}");
    MapValue response = json("{\"metadata\":{\"name\":\"fixed\",\"generateName\":\"web-\","
        + "\"uid\":\"6f1c\"}}");
    assertThat(GeneratedValuesPolicy.DESIGN_PROPOSAL.applyToCreate(request, response))
        .isEqualTo(json("{\"metadata\":{\"name\":\"fixed\",\"generateName\":\"web-\"}}"));
  }

  @Test
  void resourceVersionIsAlwaysEmptyOnCreate() {
    MapValue response = json("{\"metadata\":{\"name\":\"a\",\"resourceVersion\":\"0\"}}");
    for (GeneratedValuesPolicy p : GeneratedValuesPolicy.values()) {
      assertThat(p.applyToCreate(response, response)).isEqualTo(json("{\"metadata\":{\"name\":\"a\"}}"));
    }
  }
}
