/*
 * Copyright The apiserver4j authors.
 * SPDX-License-Identifier: Apache-2.0
 */
package io.apiserver4j.junit;

import io.apiserver4j.apiserver.ApiServer;
import io.apiserver4j.validate.Manifest;
import io.apiserver4j.validate.ManifestValidator;
import io.apiserver4j.validate.Verdict;
import java.util.List;
import java.util.stream.Collectors;

/**
 * Assertions on manifests as a server answers {@code kubectl apply --dry-run=server} for them:
 * each object is a server-side dry-run create with strict field validation, so it meets kube's
 * decoding, defaulting, validation, CRD schemas and CEL rules, and the server's admission.
 *
 * <p>As {@code kubectl apply -f} of the same file would, the CustomResourceDefinitions,
 * Namespaces and admission policies with their bindings among the documents are created for real
 * first, so the other documents meet them; every other object is only dry-run.
 */
public final class ManifestAssert {
  private final String description;
  private final List<Manifest> manifests;

  ManifestAssert(String description, List<Manifest> manifests) {
    this.description = description;
    this.manifests = List.copyOf(manifests);
  }

  /**
   * Asserts the server accepts every document.
   *
   * @param server the server that judges (its kinds, CRDs, admission and stored objects)
   * @return this
   */
  public ManifestAssert isAcceptedBy(ApiServer server) {
    List<Verdict> refused = verdicts(server).stream()
        .filter(v -> v.result() != Verdict.Result.VALID).toList();
    if (!refused.isEmpty()) {
      throw new AssertionError("expected " + description + " to be accepted but:\n"
          + refused.stream().map(v -> "  " + v.manifest().location() + ": " + v.message())
              .collect(Collectors.joining("\n")));
    }
    return this;
  }

  /** Asserts the test server accepts every document. */
  public ManifestAssert isAcceptedBy(TestApiServer server) {
    return isAcceptedBy(server.api());
  }

  /**
   * Asserts the server refuses a document; the returned assertions are on the first refusal's
   * {@code Status}.
   *
   * @param server the server that judges
   * @return assertions on the Status of the first document refused
   */
  public StatusAssert isRejectedBy(ApiServer server) {
    Verdict refused = verdicts(server).stream()
        .filter(v -> v.result() != Verdict.Result.VALID).findFirst()
        .orElseThrow(() -> new AssertionError(
            "expected " + description + " to be refused but the server accepted it"));
    if (refused.status().isEmpty()) {
      // refused before the server was asked (kubectl's own checks, an unreadable document)
      throw new AssertionError("expected " + description + " to be refused by the server but "
          + refused.manifest().location() + " was refused before it: " + refused.message());
    }
    return new StatusAssert(refused.status(), refused.status().get().code(),
        refused.manifest().location());
  }

  /** Asserts the test server refuses a document; assertions on the first refusal's Status. */
  public StatusAssert isRejectedBy(TestApiServer server) {
    return isRejectedBy(server.api());
  }

  /**
   * Asserts the server refuses a document with exactly {@code message} as its Status message.
   *
   * @param server the server that judges
   * @param message kube's message, e.g. {@code Deployment.apps "web" is invalid: ...}
   * @return this
   */
  public ManifestAssert isRejectedWith(ApiServer server, String message) {
    isRejectedBy(server).hasMessage(message);
    return this;
  }

  /** Asserts the test server refuses a document with exactly {@code message}. */
  public ManifestAssert isRejectedWith(TestApiServer server, String message) {
    return isRejectedWith(server.api(), message);
  }

  private List<Verdict> verdicts(ApiServer server) {
    if (manifests.isEmpty()) {
      throw new AssertionError(description + " holds no object");
    }
    try (ManifestValidator validator = ManifestValidator.on(server)) {
      return validator.validate(manifests);
    }
  }
}
