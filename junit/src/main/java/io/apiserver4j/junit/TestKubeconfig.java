/*
 * Copyright The apiserver4j authors.
 * SPDX-License-Identifier: Apache-2.0
 */
package io.apiserver4j.junit;

import static java.util.Objects.requireNonNull;

import java.nio.file.Path;

/**
 * The kubeconfig of a test server: the file (deleted when the server stops) and its text, for
 * kubectl, client builders or a {@code KUBECONFIG} environment variable of a child process.
 *
 * @param path the file, readable by the owner only where the file system supports it
 * @param yaml its content: one cluster, user and context, current, namespace {@code default}
 */
public record TestKubeconfig(Path path, String yaml) {
  public TestKubeconfig {
    requireNonNull(path, "path");
    requireNonNull(yaml, "yaml");
  }
}
