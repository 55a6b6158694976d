/*
 * Copyright The apiserver4j authors.
 * SPDX-License-Identifier: Apache-2.0
 */
package io.apiserver4j.cel;

import static org.assertj.core.api.Assertions.assertThat;

import io.apiserver4j.core.Json;
import io.apiserver4j.core.Value;
import java.util.List;
import java.util.Map;
import org.junit.jupiter.api.Test;

/** MutatingAdmissionPolicy expressions: object constructions and jsonpatch.escapeKey. */
class MutationExpressionTest {
  private static Value eval(String expression, String objectJson) {
    return CelProgram.compileMutation(expression, List.of("object"))
        .evaluate(Map.of("object", Json.read(objectJson)));
  }

  @Test
  void applyConfigurationBuildsNestedMaps() {
    // the ApplyConfiguration example of kube's MutatingAdmissionPolicy documentation
    Value v = eval("Object{spec: Object.spec{replicas: object.spec.replicas + 1,"
        + " template: Object.spec.template{metadata: Object.spec.template.metadata{"
        + "labels: {'app': 'x'}}}}}", "{\"spec\":{\"replicas\":2}}");
    assertThat(Json.write(v)).isEqualTo(
        "{\"spec\":{\"replicas\":3,\"template\":{\"metadata\":{\"labels\":{\"app\":\"x\"}}}}}");
  }

  @Test
  void jsonPatchBuildsOperationsWithEscapedKeys() {
    Value v = eval("[JSONPatch{op: 'add', path: '/metadata/labels/' +"
        + " jsonpatch.escapeKey('example.com/team'), value: 'a~b'}]", "{}");
    assertThat(Json.write(v)).isEqualTo(
        "[{\"op\":\"add\",\"path\":\"/metadata/labels/example.com~1team\",\"value\":\"a~b\"}]");
  }

  @Test
  void constructionsInsideComprehensions() {
    Value v = eval("object.items.map(i, JSONPatch{op: 'remove', path: '/x/' + string(i)})",
        "{\"items\":[0,1]}");
    assertThat(Json.write(v)).isEqualTo(
        "[{\"op\":\"remove\",\"path\":\"/x/0\"},{\"op\":\"remove\",\"path\":\"/x/1\"}]");
  }
}
