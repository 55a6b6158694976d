/*
 * Copyright The apiserver4j authors.
 * SPDX-License-Identifier: Apache-2.0
 */
package io.apiserver4j.http.internal;

import io.apiserver4j.core.errors.StatusErrors;
import java.util.List;

/**
 * The negotiated representation of a resource response: the encoding and an optional server-side
 * conversion ({@code as=Table}, {@code as=PartialObjectMetadata[List]}), following
 * kube-apiserver's {@code NegotiateOutputMediaType}: clauses in preference order, wildcards
 * allowed, unknown parameters ignored, unsupported conversions skipped, 406 when nothing fits.
 *
 * @param encoding JSON, YAML or (for built-in kinds) protobuf
 * @param conversion the conversion asked for with {@code as=}
 * @param metaVersion the {@code meta.k8s.io} version of the conversion ({@code v1} or
 *     {@code v1beta1}); empty without a conversion
 */
public record OutputFormat(Encoding encoding, Conversion conversion, String metaVersion) {

  /**
   * Wire encodings this server writes. Protobuf only for built-in kinds, as kube-apiserver
   * (custom resources have no protobuf serializer).
   */
  public enum Encoding {
    JSON("application/json"),
    YAML("application/yaml"),
    PROTOBUF(ProtobufBodies.MEDIA_TYPE);

    private final String mediaType;

    Encoding(String mediaType) {
      this.mediaType = mediaType;
    }

    public String mediaType() {
      return mediaType;
    }
  }

  /** Server-side conversions of the response object. */
  public enum Conversion {
    NONE(""),
    TABLE("Table"),
    PARTIAL_OBJECT_METADATA("PartialObjectMetadata"),
    PARTIAL_OBJECT_METADATA_LIST("PartialObjectMetadataList");

    private final String kind;

    Conversion(String kind) {
      this.kind = kind;
    }

    public String kind() {
      return kind;
    }
  }

  public static final OutputFormat JSON = new OutputFormat(Encoding.JSON, Conversion.NONE, "");

  /** The media types named in a 406 answer, as kube-apiserver lists its serializers. */
  public static final List<String> SUPPORTED = List.of("application/json", "application/yaml");
  /** The same for built-in kinds, which kube-apiserver also serves in protobuf. */
  public static final List<String> SUPPORTED_WITH_PROTOBUF = List.of("application/json",
      "application/yaml", ProtobufBodies.MEDIA_TYPE);

  /** Whether protobuf is among the encodings to negotiate. */
  public enum Protobuf { OFFERED, NOT_OFFERED }

  /** The {@code Content-Type} of a response in this format. */
  public String contentType() {
    if (conversion == Conversion.NONE) {
      return encoding.mediaType();
    }
    return encoding.mediaType() + ";as=" + conversion.kind() + ";v=" + metaVersion
        + ";g=meta.k8s.io";
  }

  /**
   * Negotiates the response format of a resource endpoint.
   *
   * @param accept the {@code Accept} header (may be empty)
   * @throws io.apiserver4j.core.errors.NotAcceptableException (406) when no clause is acceptable
   */
  public static OutputFormat negotiate(String accept) {
    return negotiate(accept, Protobuf.NOT_OFFERED);
  }

  /**
   * Negotiates the response format of a resource endpoint, protobuf included when offered (the
   * built-in kinds). A protobuf clause is taken only without a conversion ({@code as=}).
   *
   * @param accept the {@code Accept} header (may be empty)
   * @throws io.apiserver4j.core.errors.NotAcceptableException (406) when no clause is acceptable
   */
  public static OutputFormat negotiate(String accept, Protobuf protobuf) {
    if (accept == null || accept.isBlank()) {
      return JSON;
    }
    for (MediaRange r : MediaRange.parseAccept(accept)) {
      Encoding enc = null;
      if (r.covers("application", "json")) {
        enc = Encoding.JSON;
      } else if (r.covers("application", "yaml")) {
        enc = Encoding.YAML;
      } else if (protobuf == Protobuf.OFFERED
          && r.baseType().equals(ProtobufBodies.MEDIA_TYPE)) {
        if (r.param("as").isEmpty() && r.param("g").isEmpty() && r.param("v").isEmpty()) {
          return new OutputFormat(Encoding.PROTOBUF, Conversion.NONE, "");
        }
        continue;
      }
      if (enc == null) {
        continue;
      }
      String as = r.param("as");
      String g = r.param("g");
      String v = r.param("v");
      if (as.isEmpty() && g.isEmpty() && v.isEmpty()) {
        return new OutputFormat(enc, Conversion.NONE, "");
      }
      if (!g.equals("meta.k8s.io") || !(v.equals("v1") || v.equals("v1beta1"))) {
        continue;
      }
      for (Conversion c : Conversion.values()) {
        if (c != Conversion.NONE && c.kind().equals(as)) {
          return new OutputFormat(enc, c, v);
        }
      }
    }
    throw StatusErrors.notAcceptable(protobuf == Protobuf.OFFERED ? SUPPORTED_WITH_PROTOBUF
        : SUPPORTED);
  }
}
