/*
 * Copyright The apiserver4j authors.
 * SPDX-License-Identifier: Apache-2.0
 */
package io.apiserver4j.examples;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import io.apiserver4j.core.MapValue;
import io.apiserver4j.core.Yaml;
import io.apiserver4j.fieldpath.ManagedFieldsException;
import java.io.ByteArrayOutputStream;
import java.io.IOException;
import java.io.PrintStream;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

class BlameFormatterTest {
  // Two appliers share .spec.replicas (as after a forced co-ownership apply), a controller
  // updated status through the subresource, and kubectl owns labels.
  static final String DEPLOYMENT = """
      apiVersion: apps/v1
      kind: Deployment
      metadata:
        name: web
        namespace: prod
        labels: {app: web}
        managedFields:
        - manager: kube-controller-manager
          operation: Update
          apiVersion: apps/v1
          time: "2024-03-01T10:00:05Z"
          fieldsType: FieldsV1
          fieldsV1: {f:status: {f:replicas: {}}}
          subresource: status
        - manager: alice
          operation: Apply
          apiVersion: apps/v1
          time: "2024-03-01T09:00:00Z"
          fieldsType: FieldsV1
          fieldsV1:
            f:spec:
              f:replicas: {}
              f:template:
                f:spec:
                  f:containers:
                    k:{"name":"nginx"}:
                      .: {}
                      f:image: {}
                      f:name: {}
        - manager: bob
          operation: Apply
          apiVersion: apps/v1
          time: "2024-03-01T09:30:00.75Z"
          fieldsType: FieldsV1
          fieldsV1: {f:spec: {f:replicas: {}}}
        - manager: kubectl-edit
          operation: Update
          apiVersion: apps/v1
          fieldsType: FieldsV1
          fieldsV1: {f:metadata: {f:labels: {.: {}, f:app: {}}}}
      spec:
        replicas: 3
      status:
        replicas: 3
      """;

  @Test
  void formatsSharedOwnershipInPathOrder() {
    String out = new BlameFormatter().format((MapValue) Yaml.read(DEPLOYMENT));
    assertThat(out).isEqualTo("""
        Deployment prod/web (apps/v1)
          FIELD                                               MANAGER                  OPERATION  APIVERSION  SUBRESOURCE  TIME
          .metadata.labels                                    kubectl-edit             Update     apps/v1     -            -
          .metadata.labels.app                                kubectl-edit             Update     apps/v1     -            -
          .spec.replicas                                      alice                    Apply      apps/v1     -            2024-03-01T09:00:00Z
          .spec.replicas                                      bob                      Apply      apps/v1     -            2024-03-01T09:30:00Z
          .spec.template.spec.containers[name="nginx"]        alice                    Apply      apps/v1     -            2024-03-01T09:00:00Z
          .spec.template.spec.containers[name="nginx"].image  alice                    Apply      apps/v1     -            2024-03-01T09:00:00Z
          .spec.template.spec.containers[name="nginx"].name   alice                    Apply      apps/v1     -            2024-03-01T09:00:00Z
          .status.replicas                                    kube-controller-manager  Update     apps/v1     status       2024-03-01T10:00:05Z
        """);
  }

  @Test
  void rowsListEveryOwnerOfAPath() {
    var rows = new BlameFormatter().rows((MapValue) Yaml.read(DEPLOYMENT));
    assertThat(rows).hasSize(8);
    assertThat(rows).filteredOn(r -> r.path().toString().equals(".spec.replicas"))
        .extracting(r -> r.owner().manager()).containsExactly("alice", "bob");
    // nobody owns .spec or .status themselves: no invented rows
    assertThat(rows).noneMatch(r -> r.path().toString().equals(".spec"));
  }

  @Test
  void objectsWithoutManagedFields() {
    String out = new BlameFormatter().format((MapValue) Yaml.read("kind: ConfigMap\nmetadata: {name: c}\n"));
    assertThat(out).isEqualTo("ConfigMap c\n  (no managed fields)\n");
  }

  @Test
  void invalidManagedFieldsAreReported() {
    MapValue bad = (MapValue) Yaml.read("kind: Pod\nmetadata:\n  name: p\n  managedFields:\n"
        + "  - {manager: m, operation: Patch, apiVersion: v1, fieldsType: FieldsV1}\n");
    assertThatThrownBy(() -> new BlameFormatter().format(bad))
        .isInstanceOf(ManagedFieldsException.class)
        .hasMessage("operation must be `Apply` or `Update`");
  }

  // ---- the command

  @TempDir
  Path dir;

  private record Result(int status, String out, String err) {}

  private static Result blame(String... args) {
    ByteArrayOutputStream out = new ByteArrayOutputStream();
    ByteArrayOutputStream err = new ByteArrayOutputStream();
    int status = Blame.run(args, new PrintStream(out, true, StandardCharsets.UTF_8),
        new PrintStream(err, true, StandardCharsets.UTF_8));
    return new Result(status, out.toString(StandardCharsets.UTF_8),
        err.toString(StandardCharsets.UTF_8));
  }

  @Test
  void commandExpandsListsAndReadsJson() throws IOException {
    Path list = dir.resolve("list.yaml");
    Files.writeString(list, "apiVersion: v1\nkind: List\nitems:\n- kind: ConfigMap\n  metadata:\n"
        + "    name: a\n    managedFields:\n    - {manager: m, operation: Apply, apiVersion: v1,"
        + " fieldsType: FieldsV1, fieldsV1: {f:data: {f:k: {}}}}\n- kind: ConfigMap\n"
        + "  metadata: {name: b}\n");
    Result r = blame(list.toString());
    assertThat(r.status()).isZero();
    assertThat(r.out()).isEqualTo("ConfigMap a\n  FIELD    MANAGER  OPERATION  APIVERSION  SUBRESOURCE  TIME\n"
        + "  .data.k  m        Apply      v1          -            -\n\nConfigMap b\n  (no managed fields)\n");
    Path json = dir.resolve("obj.json");
    Files.writeString(json, "{\"kind\":\"Secret\",\"metadata\":{\"name\":\"s\",\"managedFields\":"
        + "[{\"manager\":\"x\",\"operation\":\"Update\",\"apiVersion\":\"v1\",\"fieldsType\":"
        + "\"FieldsV1\",\"fieldsV1\":{\"f:type\":{}}}]}}");
    assertThat(blame(json.toString()).out()).contains(".type  x        Update");
  }

  @Test
  void commandErrors() throws IOException {
    Result missing = blame(dir.resolve("missing.yaml").toString());
    assertThat(missing.status()).isEqualTo(1);
    assertThat(missing.err()).contains("missing.yaml: no such file");
    Path bad = dir.resolve("bad.yaml");
    Files.writeString(bad, "kind: Pod\nmetadata:\n  name: p\n  managedFields:\n"
        + "  - {manager: m, operation: Apply, apiVersion: v1, fieldsType: FieldsV2}\n");
    Result invalid = blame(bad.toString());
    assertThat(invalid.status()).isEqualTo(1);
    assertThat(invalid.out()).isEmpty();
    assertThat(invalid.err()).isEqualTo("error: " + bad + ": Pod p: invalid managedFields: "
        + "invalid fieldsType \"FieldsV2\" in managed fields entry 0\n");
    Path garbage = dir.resolve("garbage.yaml");
    Files.writeString(garbage, "a: [\n");
    assertThat(blame(garbage.toString()).status()).isEqualTo(1);
    Path scalar = dir.resolve("scalar.yaml");
    Files.writeString(scalar, "42\n");
    assertThat(blame(scalar.toString()).err()).contains("expected an object");
    assertThat(blame().status()).isEqualTo(2);
  }
}
