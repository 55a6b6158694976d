/*
 * Copyright The apiserver4j authors.
 * SPDX-License-Identifier: Apache-2.0
 */
package io.apiserver4j.http.internal;

import io.apiserver4j.apiserver.ResourceDefinition;
import io.apiserver4j.core.GroupVersionKind;
import io.apiserver4j.core.Json;
import io.apiserver4j.core.ListValue;
import io.apiserver4j.core.MapValue;
import io.apiserver4j.core.Value;
import java.io.ByteArrayOutputStream;
import java.nio.charset.StandardCharsets;
import java.util.List;

/**
 * {@code /openapi/v2}: a Swagger 2.0 document with the PATCH operation of every resource
 * (its {@code x-kubernetes-group-version-kind} and its {@code dryRun}, {@code fieldManager},
 * {@code fieldValidation} and {@code force} query parameters); the JSON form also has kube's
 * definitions of the built-in kinds and their lists.
 *
 * <p>kubectl up to 1.28 (Debian ships 1.20) knows only v2, fetched as gnostic protobuf: it
 * checks there that a kind's PATCH accepts {@code dryRun} before any {@code --dry-run=server}
 * or {@code diff}, and it validates objects client-side against the definitions. The protobuf
 * form has no definitions, so such a kubectl skips that validation (it only validates kinds the
 * document defines) and leaves it to the server, and client-side apply falls back to its
 * compiled-in types for strategic merge patches. kubectl 1.29 and later use
 * {@code /openapi/v3}, which has the full schemas.
 */
final class OpenApiV2 {
  /**
   * The response type. Clients ask for {@code ...spec.v2@v1.0+protobuf}, but Go's
   * {@code mime.ParseMediaType} (which client-go runs on every response) rejects the {@code @},
   * so kube-apiserver answers with the dotted form, and so do we.
   */
  static final String PROTOBUF = "application/com.github.proto-openapi.spec.v2.v1.0+protobuf";

  private static final List<String> PATCH_PARAMETERS =
      List.of("dryRun", "fieldManager", "fieldValidation", "force");

  private OpenApiV2() {}

  private static String patchPath(ResourceDefinition d) {
    GroupVersionKind gvk = d.kind();
    String prefix = gvk.group().isEmpty() ? "/api/" + gvk.version()
        : "/apis/" + gvk.group() + "/" + gvk.version();
    return prefix + (d.namespaced() ? "/namespaces/{namespace}/" : "/") + d.plural() + "/{name}";
  }

  /** The JSON form. */
  static byte[] json(List<ResourceDefinition> definitions, String version) {
    MapValue.Builder paths = MapValue.builder();
    for (ResourceDefinition d : definitions) {
      ListValue.Builder params = ListValue.builder();
      for (String p : PATCH_PARAMETERS) {
        params.add(MapValue.builder().put("type", Value.of(p.equals("force") ? "boolean"
            : "string")).put("name", Value.of(p)).put("in", Value.of("query")).build());
      }
      paths.put(patchPath(d), MapValue.builder().put("patch", MapValue.builder()
          .put("parameters", params.build())
          .put("x-kubernetes-group-version-kind", MapValue.builder()
              .put("group", Value.of(d.kind().group()))
              .put("kind", Value.of(d.kind().kind()))
              .put("version", Value.of(d.kind().version())).build())
          .build()).build());
    }
    java.util.Map<String, MapValue> defs = new java.util.TreeMap<>();
    for (ResourceDefinition d : definitions) {
      if (KubeDefinitions.covers(d)) {
        String t = d.schemaType();
        io.apiserver4j.kubeapi.KubeVersion release = KubeDefinitions.release(d).orElseThrow();
        defs.putAll(KubeDefinitions.closureV2(release, t));
        defs.putAll(KubeDefinitions.closureV2(release, t.substring(0, t.lastIndexOf('.') + 1)
            + d.listKind()));
      }
    }
    MapValue.Builder definitionsOut = MapValue.builder(defs.size());
    defs.forEach(definitionsOut::put);
    return Json.writeBytes(MapValue.builder()
        .put("swagger", Value.of("2.0"))
        .put("info", MapValue.builder().put("title", Value.of("Kubernetes"))
            .put("version", Value.of(version)).build())
        .put("paths", paths.build())
        .put("definitions", definitionsOut.build())
        .build());
  }

  /**
   * The gnostic {@code openapi.v2.Document} message: swagger (1), info (2: title 1,
   * version 2), paths (8: repeated NamedPathItem 2 of name 1 and PathItem 2, whose patch is
   * field 8: an Operation with parameters 8 and vendor extensions 13).
   */
  static byte[] protobuf(List<ResourceDefinition> definitions, String version) {
    Proto info = new Proto().string(1, "Kubernetes").string(2, version);
    Proto paths = new Proto();
    for (ResourceDefinition d : definitions) {
      Proto operation = new Proto();
      for (String p : PATCH_PARAMETERS) {
        Proto query = new Proto().string(2, "query").string(4, p)
            .string(6, p.equals("force") ? "boolean" : "string");
        Proto nonBody = new Proto().message(3, query);
        Proto parameter = new Proto().message(2, nonBody);
        operation.message(8, new Proto().message(1, parameter));
      }
      String gvk = "group: \"" + d.kind().group() + "\"\nkind: " + d.kind().kind()
          + "\nversion: " + d.kind().version() + "\n";
      operation.message(13, new Proto().string(1, "x-kubernetes-group-version-kind")
          .message(2, new Proto().string(2, gvk)));
      Proto item = new Proto().message(8, operation);
      paths.message(2, new Proto().string(1, patchPath(d)).message(2, item));
    }
    return new Proto().string(1, "2.0").message(2, info).message(8, paths).bytes();
  }

  /** Just enough of the protobuf wire format: length-delimited fields. */
  private static final class Proto {
    private final ByteArrayOutputStream out = new ByteArrayOutputStream();

    Proto string(int field, String s) {
      return raw(field, s.getBytes(StandardCharsets.UTF_8));
    }

    Proto message(int field, Proto m) {
      return raw(field, m.bytes());
    }

    private Proto raw(int field, byte[] bytes) {
      varint((field << 3) | 2);
      varint(bytes.length);
      out.writeBytes(bytes);
      return this;
    }

    byte[] bytes() {
      return out.toByteArray();
    }

    private void varint(int v) {
      while ((v & ~0x7f) != 0) {
        out.write((v & 0x7f) | 0x80);
        v >>>= 7;
      }
      out.write(v);
    }
  }
}
