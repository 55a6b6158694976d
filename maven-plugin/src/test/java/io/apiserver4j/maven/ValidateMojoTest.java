/*
 * Copyright The apiserver4j authors.
 * SPDX-License-Identifier: Apache-2.0
 */
package io.apiserver4j.maven;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import java.nio.file.Files;
import java.nio.file.Path;
import java.util.List;
import org.apache.maven.plugin.MojoExecutionException;
import org.apache.maven.plugin.MojoFailureException;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/** The goal as a build runs it; the refusal's message is kube-apiserver's. */
class ValidateMojoTest {
  static final String DEPLOYMENT = """
      apiVersion: apps/v1
      kind: Deployment
      metadata: {name: %s}
      spec:
        replicas: %d
        selector: {matchLabels: {app: web}}
        template:
          metadata: {labels: {app: web}}
          spec: {containers: [{name: main, image: nginx}]}
      """;

  @TempDir
  Path dir;

  ValidateMojo mojo(String... paths) {
    ValidateMojo m = new ValidateMojo();
    m.manifests = List.of(paths);
    m.output = "text";
    return m;
  }

  @Test
  void validManifestsPass() throws Exception {
    Files.writeString(dir.resolve("web.yaml"), DEPLOYMENT.formatted("web", 2));
    mojo(dir.toString()).execute();
  }

  @Test
  void anInvalidManifestFailsTheBuildAndTheReportSaysWhy() throws Exception {
    Files.writeString(dir.resolve("app.yaml"), DEPLOYMENT.formatted("web", 2) + "---\n"
        + DEPLOYMENT.formatted("bad", -1));
    ValidateMojo m = mojo(dir.toString());
    m.output = "junit";
    m.reportFile = dir.resolve("out/report.xml").toFile();
    assertThatThrownBy(m::execute).isInstanceOf(MojoFailureException.class)
        .hasMessage("apiserver4j validate: 1 of 2 manifests refused");
    assertThat(Files.readString(m.reportFile.toPath()))
        .contains("Deployment.apps &quot;bad&quot; is invalid: spec.replicas: Invalid value: -1:"
            + " must be greater than or equal to 0");
  }

  @Test
  void failOnInvalidFalseOnlyWarns() throws Exception {
    Files.writeString(dir.resolve("bad.yaml"), DEPLOYMENT.formatted("bad", -1));
    ValidateMojo m = mojo(dir.toString());
    m.failOnInvalid = false;
    m.execute();
  }

  @Test
  void badInputIsABuildError() {
    assertThatThrownBy(mojo(dir.resolve("missing.yaml").toString())::execute)
        .isInstanceOf(MojoExecutionException.class).hasMessageContaining("could not be read");
    ValidateMojo m = mojo(dir.toString());
    m.output = "xml";
    assertThatThrownBy(m::execute).isInstanceOf(MojoExecutionException.class)
        .hasMessage("unknown output format \"xml\": use text, json or junit");
    assertThatThrownBy(mojo()::execute).isInstanceOf(MojoExecutionException.class)
        .hasMessageContaining("no manifests given");
  }

  @Test
  void skipDoesNothing() throws Exception {
    ValidateMojo m = mojo(dir.resolve("missing.yaml").toString());
    m.skip = true;
    m.execute();
  }
}
