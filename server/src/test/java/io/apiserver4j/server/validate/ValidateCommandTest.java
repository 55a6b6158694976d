/*
 * Copyright The apiserver4j authors.
 * SPDX-License-Identifier: Apache-2.0
 */
package io.apiserver4j.server.validate;

import static org.assertj.core.api.Assertions.assertThat;

import io.apiserver4j.core.Json;
import io.apiserver4j.core.ListValue;
import io.apiserver4j.core.MapValue;
import java.io.ByteArrayInputStream;
import java.io.ByteArrayOutputStream;
import java.io.IOException;
import java.io.InputStream;
import java.io.PrintStream;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * {@code apiserver4j validate} on a directory as a user has it: a valid and an invalid
 * Deployment, a CRD with a CEL rule and a custom resource that breaks it, a policy with its
 * binding and an object it denies. The expected messages are kube-apiserver 1.36's: apps
 * validation's {@code ValidateNonnegativeField}, apiextensions-apiserver's CEL validator
 * ({@code fieldErrorForReason}: the rule's message, an object's value omitted), the policy
 * dispatcher's denial (wrapped by {@code admission.NewForbidden}, reason Invalid), and kubectl's
 * own lines around them ({@code created (server dry run)}, {@code Error from server (Reason):
 * error when creating "FILE": ...}).
 */
class ValidateCommandTest {
  private static final String DEPLOYMENTS = """
      apiVersion: apps/v1
      kind: Deployment
      metadata:
        name: good
      spec:
        replicas: 2
        selector:
          matchLabels: {app: good}
        template:
          metadata:
            labels: {app: good}
          spec:
            containers:
            - name: web
              image: nginx:1.27
      ---
      # replicas may not be negative
      apiVersion: apps/v1
      kind: Deployment
      metadata:
        name: bad
      spec:
        replicas: -1
        selector:
          matchLabels: {app: bad}
        template:
          metadata:
            labels: {app: bad}
          spec:
            containers:
            - name: web
              image: nginx:1.27
      """;
  private static final String POLICIES = """
      apiVersion: apiextensions.k8s.io/v1
      kind: CustomResourceDefinition
      metadata:
        name: widgets.demo.example.com
      spec:
        group: demo.example.com
        scope: Namespaced
        names: {plural: widgets, singular: widget, kind: Widget, listKind: WidgetList}
        versions:
        - name: v1
          served: true
          storage: true
          schema:
            openAPIV3Schema:
              type: object
              properties:
                spec:
                  type: object
                  properties:
                    replicas: {type: integer}
                  x-kubernetes-validations:
                  - rule: self.replicas <= 10
                    message: replicas must be at most 10
      ---
      apiVersion: admissionregistration.k8s.io/v1
      kind: ValidatingAdmissionPolicy
      metadata:
        name: no-forbidden-data
      spec:
        failurePolicy: Fail
        matchConstraints:
          resourceRules:
          - apiGroups: [""]
            apiVersions: [v1]
            operations: [CREATE, UPDATE]
            resources: [configmaps]
        validations:
        - expression: '!has(object.data) || !("forbidden" in object.data)'
          message: data must not hold the key forbidden
      ---
      apiVersion: admissionregistration.k8s.io/v1
      kind: ValidatingAdmissionPolicyBinding
      metadata:
        name: no-forbidden-data-binding
      spec:
        policyName: no-forbidden-data
        validationActions: [Deny]
      """;
  private static final String OBJECTS = """
      apiVersion: demo.example.com/v1
      kind: Widget
      metadata: {name: big}
      spec: {replicas: 11}
      ---
      apiVersion: v1
      kind: List
      items:
      - apiVersion: v1
        kind: ConfigMap
        metadata: {name: bad}
        data: {forbidden: x}
      - apiVersion: v1
        kind: ConfigMap
        metadata: {name: fine, namespace: team-a}
        data: {allowed: x}
      """;

  private record Run(int code, String out, String err) {}

  private static Run run(InputStream stdin, String... args) {
    ByteArrayOutputStream out = new ByteArrayOutputStream();
    ByteArrayOutputStream err = new ByteArrayOutputStream();
    int code = ValidateCommand.run(args, stdin,
        new PrintStream(out, true, StandardCharsets.UTF_8),
        new PrintStream(err, true, StandardCharsets.UTF_8));
    return new Run(code, out.toString(StandardCharsets.UTF_8), err.toString(StandardCharsets.UTF_8));
  }

  private static Run run(String... args) {
    return run(InputStream.nullInputStream(), args);
  }

  private static Path project(Path dir) throws IOException {
    Files.writeString(dir.resolve("deployments.yaml"), DEPLOYMENTS);
    Files.writeString(dir.resolve("policies.yaml"), POLICIES);
    Files.writeString(dir.resolve("objects.yml"), OBJECTS);
    Files.writeString(dir.resolve("README.md"), "not a manifest");
    return dir;
  }

  @Test
  void aDirectoryGetsKubesMessagesPerDocumentAndExitsOne(@TempDir Path dir) throws IOException {
    Path p = project(dir);
    String d = p.resolve("deployments.yaml").toString();
    String o = p.resolve("objects.yml").toString();
    String pol = p.resolve("policies.yaml").toString();

    Run run = run(p.toString());

    assertThat(run.code()).as(run.out() + run.err()).isEqualTo(1);
    assertThat(run.out()).isEqualTo(String.join("\n",
        d + ":1: deployment.apps/good created (server dry run)",
        d + ":18: Error from server (Invalid): error when creating \"" + d + "\": Deployment.apps"
            + " \"bad\" is invalid: spec.replicas: Invalid value: -1: must be greater than or"
            + " equal to 0",
        o + ":1: Error from server (Invalid): error when creating \"" + o + "\":"
            + " Widget.demo.example.com \"big\" is invalid: spec: Invalid value: replicas must be"
            + " at most 10",
        o + ":6: Error from server (Invalid): error when creating \"" + o + "\": configmaps"
            + " \"bad\" is forbidden: ValidatingAdmissionPolicy 'no-forbidden-data' with binding"
            + " 'no-forbidden-data-binding' denied request: data must not hold the key forbidden",
        o + ":6: configmap/fine created (server dry run)",
        pol + ":1: customresourcedefinition.apiextensions.k8s.io/widgets.demo.example.com created"
            + " (server dry run)",
        pol + ":25: validatingadmissionpolicy.admissionregistration.k8s.io/no-forbidden-data"
            + " created (server dry run)",
        pol + ":41: validatingadmissionpolicybinding.admissionregistration.k8s.io/"
            + "no-forbidden-data-binding created (server dry run)",
        ""));
  }

  @Test
  void validManifestsExitZero(@TempDir Path dir) throws IOException {
    Path good = dir.resolve("good.yaml");
    Files.writeString(good, DEPLOYMENTS.substring(0, DEPLOYMENTS.indexOf("---")));
    Run run = run(good.toString());
    assertThat(run.code()).as(run.out()).isZero();
    assertThat(run.out()).isEqualTo(good + ":1: deployment.apps/good created (server dry run)\n");
  }

  @Test
  void stdinIsNamedAsKubectlNamesIt() {
    Run run = run(new ByteArrayInputStream("""
        apiVersion: v1
        kind: ConfigMap
        metadata: {name: "Bad_Name"}
        """.getBytes(StandardCharsets.UTF_8)), "-f", "-");
    assertThat(run.code()).isEqualTo(1);
    // apimachinery's NameIsDNSSubdomain message
    assertThat(run.out()).startsWith("STDIN:1: Error from server (Invalid): error when creating"
        + " \"STDIN\": ConfigMap \"Bad_Name\" is invalid: metadata.name: Invalid value:"
        + " \"Bad_Name\": a lowercase RFC 1123 subdomain must consist of");
  }

  @Test
  void jsonReportCarriesTheStatus(@TempDir Path dir) throws IOException {
    Path p = project(dir);
    Run run = run("-o", "json", p.toString());
    assertThat(run.code()).isEqualTo(1);
    ListValue items = (ListValue) Json.read(run.out());
    assertThat(items.size()).isEqualTo(8);
    MapValue widget = (MapValue) items.items().get(2);
    assertThat(Json.write(widget.getOrNull("file"))).contains("objects.yml");
    assertThat(Json.write(widget.getOrNull("line"))).isEqualTo("1");
    assertThat(Json.write(widget.getOrNull("result"))).isEqualTo("\"invalid\"");
    MapValue status = (MapValue) widget.getOrNull("status");
    assertThat(Json.write(status.getOrNull("reason"))).isEqualTo("\"Invalid\"");
    assertThat(Json.write(status.getOrNull("code"))).isEqualTo("422");
  }

  @Test
  void junitReportHasOneCasePerDocument(@TempDir Path dir) throws IOException {
    Path p = project(dir);
    Run run = run("--output=junit", p.toString());
    assertThat(run.code()).isEqualTo(1);
    assertThat(run.out()).startsWith("<?xml version=\"1.0\" encoding=\"UTF-8\"?>\n"
            + "<testsuite name=\"apiserver4j validate\" tests=\"8\" failures=\"3\" errors=\"0\"")
        .contains("<testcase classname=\"" + p.resolve("deployments.yaml")
            + "\" name=\"line 1 Deployment good\"/>")
        .contains("<failure message=\"Error from server (Invalid): error when creating &quot;");
  }

  @Test
  void badInputExitsTwo(@TempDir Path dir) throws IOException {
    Path broken = dir.resolve("broken.yaml");
    Files.writeString(broken, "apiVersion: v1\nkind: ConfigMap\nmetadata: {name: [\n");
    Run run = run(broken.toString());
    assertThat(run.code()).isEqualTo(2);
    assertThat(run.out()).startsWith(broken + ":1: error: error parsing " + broken + ": ");

    Run missing = run(dir.resolve("missing.yaml").toString());
    assertThat(missing.code()).isEqualTo(2);
    assertThat(missing.out()).isEqualTo(dir.resolve("missing.yaml") + ":1: error: the path \""
        + dir.resolve("missing.yaml") + "\" does not exist\n");

    assertThat(run("-o", "yaml", dir.toString()).code()).isEqualTo(2);
    assertThat(run().code()).isEqualTo(2);
  }

  @Test
  void anUnknownKindIsKubectlsMappingError(@TempDir Path dir) throws IOException {
    Path f = dir.resolve("f.yaml");
    Files.writeString(f, "apiVersion: v1\nkind: Widget\nmetadata: {name: w}\n");
    Run run = run(f.toString());
    assertThat(run.code()).isEqualTo(1);
    assertThat(run.out()).isEqualTo(f + ":1: error: resource mapping not found for name: \"w\""
        + " namespace: \"\" from \"" + f + "\": no matches for kind \"Widget\" in version \"v1\"\n"
        + "ensure CRDs are installed first\n");
  }

  @Test
  void theClusterSnapshotHoldsWhatExists(@TempDir Path dir) throws IOException {
    Path cluster = dir.resolve("cluster");
    Files.createDirectories(cluster);
    Files.writeString(cluster.resolve("policies.yaml"), POLICIES);
    Path objects = dir.resolve("objects.yaml");
    Files.writeString(objects, OBJECTS);
    Run run = run("--cluster", cluster.toString(), objects.toString());
    assertThat(run.code()).isEqualTo(1);
    // the snapshot's objects are not reported; its CRD and policy apply
    assertThat(run.out().lines()).hasSize(3);
    assertThat(run.out()).contains("Widget.demo.example.com \"big\" is invalid",
        "denied request: data must not hold the key forbidden",
        "configmap/fine created (server dry run)");
  }
}
