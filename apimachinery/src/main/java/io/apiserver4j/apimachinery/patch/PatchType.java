/*
 * Copyright The apiserver4j authors.
 * SPDX-License-Identifier: Apache-2.0
 */
package io.apiserver4j.apimachinery.patch;

import static java.util.Objects.requireNonNull;

import io.apiserver4j.core.errors.StatusErrors;
import io.apiserver4j.core.errors.UnsupportedMediaTypeException;
import java.util.ArrayList;
import java.util.List;
import java.util.Optional;

/**
 * The PATCH body formats, by their {@code Content-Type}, and which of them kube-apiserver
 * accepts for a resource.
 */
public enum PatchType {
  /** RFC 6902 JSON patch: {@link io.apiserver4j.apimachinery.patch.JsonPatch}. */
  JSON_PATCH("application/json-patch+json"),
  /** RFC 7386 JSON merge patch: {@link MergePatch}. */
  MERGE_PATCH("application/merge-patch+json"),
  /** Kubernetes strategic merge patch: {@link StrategicMergePatch}. */
  STRATEGIC_MERGE_PATCH("application/strategic-merge-patch+json"),
  /** Server-side apply with a YAML (or JSON) body; handled by the apply machinery. */
  APPLY_YAML("application/apply-patch+yaml"),
  /** Server-side apply with a CBOR body; only with the CBOR serving feature enabled. */
  APPLY_CBOR("application/apply-patch+cbor");

  /** Whether the server accepts CBOR apply bodies (kube's {@code CBORServingAndStorage}). */
  public enum Cbor {
    /** CBOR apply bodies are refused (the default). */
    DISABLED,
    /** CBOR apply bodies are accepted. */
    ENABLED
  }

  private final String mediaType;

  PatchType(String mediaType) {
    this.mediaType = mediaType;
  }

  /**
   * The {@code Content-Type} of this patch type.
   *
   * @return e.g. {@code application/merge-patch+json}
   */
  public String mediaType() {
    return mediaType;
  }

  /**
   * Whether this is a server-side apply format rather than a patch applied here.
   *
   * @return true for the apply types
   */
  public boolean isApply() {
    return this == APPLY_YAML || this == APPLY_CBOR;
  }

  /**
   * The formats kube-apiserver accepts for PATCH on a resource, in its order (which is also the
   * order of the 415 message): JSON patch, merge patch, strategic merge patch (not for custom
   * resources), apply YAML, and apply CBOR when enabled.
   *
   * @param origin whether the resource is built-in or custom
   * @param cbor whether CBOR serving is enabled
   * @return the accepted types, in order
   */
  public static List<PatchType> accepted(ResourceOrigin origin, Cbor cbor) {
    requireNonNull(origin, "origin");
    requireNonNull(cbor, "cbor");
    List<PatchType> types = new ArrayList<>(5);
    types.add(JSON_PATCH);
    types.add(MERGE_PATCH);
    if (origin == ResourceOrigin.BUILT_IN) {
      types.add(STRATEGIC_MERGE_PATCH);
    }
    types.add(APPLY_YAML);
    if (cbor == Cbor.ENABLED) {
      types.add(APPLY_CBOR);
    }
    return List.copyOf(types);
  }

  /**
   * The type whose media type is exactly {@code mediaType}.
   *
   * @param mediaType the media type
   * @return the type; empty when none matches
   */
  public static Optional<PatchType> forMediaType(String mediaType) {
    requireNonNull(mediaType, "mediaType");
    for (PatchType t : values()) {
      if (t.mediaType.equals(mediaType)) {
        return Optional.of(t);
      }
    }
    return Optional.empty();
  }

  /**
   * The patch type of a request's {@code Content-Type} header, as kube-apiserver reads it:
   * everything from the first {@code ;} on (e.g. {@code ; charset=utf-8}) is dropped, the rest
   * must match one of {@code accepted} exactly (case and spaces count).
   *
   * @throws UnsupportedMediaTypeException 415 {@code the body of the request was in an unknown
   *     format - accepted media types include: <accepted, comma separated>}
   * @param contentType the header value
   * @param accepted the types the resource accepts
   * @return the patch type
   */
  public static PatchType fromContentType(String contentType, List<PatchType> accepted) {
    requireNonNull(contentType, "contentType");
    requireNonNull(accepted, "accepted");
    String mediaType = contentType;
    int semicolon = contentType.indexOf(';');
    if (semicolon > 0) {
      mediaType = contentType.substring(0, semicolon);
    }
    for (PatchType t : accepted) {
      if (t.mediaType.equals(mediaType)) {
        return t;
      }
    }
    List<String> names = new ArrayList<>(accepted.size());
    for (PatchType t : accepted) {
      names.add(t.mediaType);
    }
    throw StatusErrors.unsupportedMediaType(names);
  }
}
