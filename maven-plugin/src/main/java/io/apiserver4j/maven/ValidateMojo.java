/*
 * Copyright The apiserver4j authors.
 * SPDX-License-Identifier: Apache-2.0
 */
package io.apiserver4j.maven;

import io.apiserver4j.validate.ManifestValidator;
import io.apiserver4j.validate.Reports;
import io.apiserver4j.validate.Verdict;
import java.io.File;
import java.io.IOException;
import java.io.InputStream;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.util.List;
import org.apache.maven.plugin.AbstractMojo;
import org.apache.maven.plugin.MojoExecutionException;
import org.apache.maven.plugin.MojoFailureException;
import org.apache.maven.plugins.annotations.LifecyclePhase;
import org.apache.maven.plugins.annotations.Mojo;
import org.apache.maven.plugins.annotations.Parameter;

/**
 * {@code apiserver4j:validate}: each manifest a server-side dry-run create through an in-process
 * API server, as {@code apiserver4j validate} (and {@code kubectl apply --dry-run=server} against
 * a fresh cluster) answers. An invalid manifest fails the build; a manifest that cannot be read
 * is a build error.
 */
@Mojo(name = "validate", defaultPhase = LifecyclePhase.VERIFY, requiresProject = false,
    threadSafe = true)
public class ValidateMojo extends AbstractMojo {
  /** Files or directories of manifests (their .yaml, .yml and .json files, recursively). */
  @Parameter(property = "apiserver4j.manifests", required = true)
  List<String> manifests;

  /** Objects that already exist in the cluster the manifests are validated against. */
  @Parameter(property = "apiserver4j.cluster")
  List<String> cluster;

  /** The report's format: {@code text}, {@code json} or {@code junit}. */
  @Parameter(property = "apiserver4j.output", defaultValue = "text")
  String output;

  /** Where to write the report as well (e.g. a JUnit XML file for CI); none by default. */
  @Parameter(property = "apiserver4j.reportFile")
  File reportFile;

  /** Whether an invalid manifest fails the build. */
  @Parameter(property = "apiserver4j.failOnInvalid", defaultValue = "true")
  boolean failOnInvalid = true;

  /** Skips the validation. */
  @Parameter(property = "apiserver4j.skip", defaultValue = "false")
  boolean skip;

  /** Creates the goal; Maven sets its parameters. */
  public ValidateMojo() {}

  @Override
  public void execute() throws MojoExecutionException, MojoFailureException {
    if (skip) {
      getLog().info("apiserver4j validate: skipped");
      return;
    }
    if (!Reports.FORMATS.contains(output)) {
      throw new MojoExecutionException("unknown output format \"" + output
          + "\": use text, json or junit");
    }
    if (manifests == null || manifests.isEmpty()) {
      throw new MojoExecutionException("no manifests given (apiserver4j.manifests)");
    }
    List<Verdict> verdicts = ManifestValidator.validatePaths(manifests,
        cluster == null ? List.of() : cluster, InputStream.nullInputStream());
    for (Verdict v : verdicts) {
      String line = v.manifest().location() + ": " + v.message();
      if (v.result() == Verdict.Result.VALID) {
        getLog().info(line);
      } else {
        getLog().error(line);
      }
    }
    if (reportFile != null) {
      write(Reports.format(output, verdicts));
    }
    long refused = verdicts.stream().filter(v -> v.result() == Verdict.Result.INVALID).count();
    switch (Verdict.worst(verdicts)) {
      case BAD_INPUT -> throw new MojoExecutionException("apiserver4j validate: a manifest could"
          + " not be read (see the errors above)");
      case INVALID -> {
        String message = "apiserver4j validate: " + refused + " of " + verdicts.size()
            + " manifests refused";
        if (failOnInvalid) {
          throw new MojoFailureException(message);
        }
        getLog().warn(message);
      }
      case VALID -> getLog().info("apiserver4j validate: " + verdicts.size()
          + " manifests valid");
    }
  }

  private void write(String report) throws MojoExecutionException {
    try {
      File parent = reportFile.getAbsoluteFile().getParentFile();
      if (parent != null) {
        Files.createDirectories(parent.toPath());
      }
      Files.writeString(reportFile.toPath(), report, StandardCharsets.UTF_8);
    } catch (IOException e) {
      throw new MojoExecutionException("cannot write the report " + reportFile + ": " + e, e);
    }
  }
}
