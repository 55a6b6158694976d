/*
 * Copyright The apiserver4j authors.
 * SPDX-License-Identifier: Apache-2.0
 */
package io.apiserver4j.apiserver.internal;

import io.apiserver4j.apiserver.strategy.Defaulter;
import io.apiserver4j.apiserver.FieldValidation;
import io.apiserver4j.core.DecodeException;
import io.apiserver4j.core.GoStrings;
import io.apiserver4j.core.GroupVersionKind;
import io.apiserver4j.core.Json;
import io.apiserver4j.core.MapValue;
import io.apiserver4j.core.Meta;
import io.apiserver4j.core.errors.StatusErrors;
import io.apiserver4j.core.errors.StatusException;
import io.apiserver4j.core.StringValue;
import io.apiserver4j.core.Value;
import io.apiserver4j.core.Yaml;
import io.apiserver4j.merge.Schema;
import java.nio.charset.StandardCharsets;
import java.util.ArrayList;
import java.util.List;
import java.util.Optional;
import io.apiserver4j.apimachinery.decoding.NumberLiterals;
import io.apiserver4j.apimachinery.decoding.LenientJson;

/**
 * Request bodies as kube-apiserver decodes them: the size limit (413), the media types (415),
 * malformed bodies (400 with kube's summary of the data), the kind and version the endpoint
 * expects, and unknown or duplicate fields per the request's {@code fieldValidation}.
 */
final class Bodies {
  private final long maxBodyBytes;

  Bodies(long maxBodyBytes) {
    this.maxBodyBytes = maxBodyBytes;
  }

  /** A decoded body, the keys it gave twice and the text of its number literals. */
  private record Body(Value value, List<String> duplicates, byte[] raw, NumberLiterals numbers) {}

  /** The raw bytes of a body (a decoded body is encoded), after the size check. */
  byte[] raw(Scope s) {
    byte[] raw = s.request().rawBody().orElseGet(() -> s.request().body()
        .map(Json::writeBytes).orElse(new byte[0]));
    checkSize(raw);
    return raw;
  }

  private void checkSize(byte[] raw) {
    if (maxBodyBytes > 0 && raw.length > maxBodyBytes) {
      throw StatusErrors.requestEntityTooLarge("limit is " + maxBodyBytes);
    }
  }

  private Body read(Scope s, GroupVersionKind expected, boolean keepOverflows) {
    Optional<Value> decoded = s.request().body();
    if (decoded.isPresent()) {
      return new Body(decoded.get(), List.of(), null, NumberLiterals.NONE);
    }
    byte[] raw = s.request().rawBody().orElse(new byte[0]);
    checkSize(raw);
    String type = baseMediaType(s.request().contentType());
    try {
      if (type.isEmpty() || type.equals("application/json") || type.equals("*/*")) {
        LenientJson.Literal d = LenientJson.read(raw, keepOverflows);
        return new Body(d.value(), d.duplicates(), raw, d.numbers());
      }
      if (type.equals("application/yaml")) {
        // kube converts YAML to JSON first: numbers are then written as Go writes them
        return new Body(Yaml.read(new String(raw, StandardCharsets.UTF_8)), List.of(), raw,
            NumberLiterals.NONE);
      }
    } catch (DecodeException e) {
      throw decodeError(expected, raw, "couldn't get version/kind; json parse error: "
          + e.getMessage());
    }
    throw StatusErrors.unsupportedMediaType(List.of("application/json", "application/yaml"));
  }

  private static String baseMediaType(String contentType) {
    int semi = contentType.indexOf(';');
    return (semi > 0 ? contentType.substring(0, semi) : contentType).trim();
  }

  private static StatusException decodeError(GroupVersionKind expected, byte[] raw,
      String detail) {
    return StatusErrors.badRequest("the object provided is unrecognized (must be of type "
        + expected.kind() + "): " + detail + " (" + summarize(raw) + ")");
  }

  // kube's summarizeData: the start of a JSON object as text, anything else in hex.
  static String summarize(byte[] data) {
    if (data == null || data.length == 0) {
      return "<empty>";
    }
    int max = 30;
    if (data[0] == '{') {
      String s = new String(data, 0, Math.min(data.length, max), StandardCharsets.UTF_8);
      return data.length > max ? s + " ..." : s;
    }
    StringBuilder sb = new StringBuilder();
    for (int i = 0; i < Math.min(data.length, max); i++) {
      sb.append(String.format("%02x", data[i] & 0xff));
    }
    return data.length > max ? sb + " ..." : sb.toString();
  }

  /**
   * Decodes the body of a create or update for a kind: 413/415/400 for bodies that are too
   * large, of an unknown media type or malformed; 400 for another kind or version; unknown
   * fields and duplicate keys dropped and reported per {@code fieldValidation}; then kube's
   * defaulting.
   */
  MapValue decodeObject(Scope s, GroupVersionKind expected, Schema schema, String schemaTypeName,
      Defaulter defaulter) {
    return decodeObject(s, expected, java.util.Set.of(), schema, schemaTypeName, defaulter);
  }

  /**
   * As {@link #decodeObject(Scope, GroupVersionKind, Schema, String, Defaulter)},
   * also accepting the kind at the API versions {@code alsoAccepted}, decoded as
   * {@code expected} (kube's {@code GroupVersionAcceptor}, e.g. policy/v1beta1 Evictions).
   */
  MapValue decodeObject(Scope s, GroupVersionKind expected, java.util.Set<String> alsoAccepted,
      Schema schema, String schemaTypeName, Defaulter defaulter) {
    boolean builtin = GoDecoding.applies(schema);
    Body body = read(s, expected, builtin);
    if (!(body.value() instanceof MapValue m)) {
      throw decodeError(expected, body.raw(), "couldn't get version/kind; json parse error: json:"
          + " cannot unmarshal " + GoStrings.jsonKind(body.value()) + " into Go value of type"
          + " struct { APIVersion string \"json:\\\"apiVersion,omitempty\\\"\"; Kind string"
          + " \"json:\\\"kind,omitempty\\\"\" }");
    }
    for (String typeField : List.of("apiVersion", "kind")) {
      // kube reads them first into a struct of two strings (runtime's SimpleMetaFactory)
      Value v = m.getOrNull(typeField);
      if (v != null && !v.isNull() && !(v instanceof StringValue)) {
        throw decodeError(expected, body.raw(), "couldn't get version/kind; json parse error:"
            + " json: cannot unmarshal " + GoStrings.jsonKind(v) + " into Go struct field ."
            + typeField + " of type string");
      }
    }
    String apiVersion = Meta.string(m, "apiVersion");
    String kind = Meta.string(m, "kind");
    if (!kind.isEmpty() && !kind.equals(expected.kind())) {
      String version = apiVersion.isEmpty() ? expected.version()
          : GroupVersionKind.of(apiVersion, kind).version();
      throw StatusErrors.badRequest(kind + " in version " + GoStrings.quote(version)
          + " cannot be handled as a " + expected.kind() + ": converting (" + version + "."
          + kind + ") to (" + internalPackage(expected.group()) + "." + expected.kind()
          + "): unknown conversion");
    }
    if (!apiVersion.isEmpty() && !apiVersion.equals(expected.apiVersion())
        && !alsoAccepted.contains(apiVersion)) {
      throw StatusErrors.badRequest("the API version in the data (" + apiVersion
          + ") does not match the expected API version (" + expected.apiVersion() + ")");
    }
    MapValue obj = StorageForm.withTypeMeta(m, expected);
    if (builtin) {
      obj = GoDecoding.body(expected, schema, schemaTypeName, obj, body.numbers());
    }
    SchemaChecker.Result checked = SchemaChecker.check(schema, schemaTypeName, obj);
    if (body.numbers().hasOverflow()) {
      GoDecoding.rejectOverflows(checked.object(), body.numbers());
    }
    String cannotHandle = expected.kind() + " in version " + GoStrings.quote(expected.version())
        + " cannot be handled as a " + expected.kind() + ": ";
    if (!checked.typeErrors().isEmpty()) {
      throw StatusErrors.badRequest(cannotHandle + checked.typeErrors().get(0));
    }
    List<String> strict = new ArrayList<>();
    checked.unknownFields().forEach(p -> strict.add("unknown field " + GoStrings.quote(p)));
    body.duplicates().forEach(p -> strict.add("duplicate field " + GoStrings.quote(p)));
    if (!strict.isEmpty() && s.validation() == FieldValidation.STRICT) {
      throw StatusErrors.badRequest(cannotHandle + "strict decoding error: "
          + String.join(", ", strict));
    }
    warnPerValidation(s, strict);
    return StorageForm.typed(schema, schemaTypeName, defaulter.apply(checked.object()));
  }

  /** Raises {@code problems} as warnings when the request asked for {@code Warn}. */
  static void warnPerValidation(Scope s, List<String> problems) {
    if (s.validation() == FieldValidation.WARN) {
      problems.forEach(s::warn);
    }
  }

  private static String internalPackage(String group) {
    if (group.isEmpty()) {
      return "core";
    }
    int dot = group.indexOf('.');
    return dot < 0 ? group : group.substring(0, dot);
  }

  /**
   * The body of an apply: YAML, read as Go's yaml.v2 reads it. Most clients (kubectl among them)
   * send JSON, which is YAML too: it is read with the JSON reader when it parses as JSON.
   */
  static MapValue readApplyBody(byte[] raw) {
    Value v = readYamlOrJson(raw);
    if (v.isNull()) {
      return MapValue.empty();
    }
    if (!(v instanceof MapValue m)) {
      throw StatusErrors.badRequest("error decoding patch: json: cannot unmarshal "
          + GoStrings.jsonKind(v) + " into Go value of type map[string]interface {}");
    }
    return m;
  }

  private static Value readYamlOrJson(byte[] raw) {
    int i = 0;
    while (i < raw.length && (raw[i] == ' ' || raw[i] == '\n' || raw[i] == '\r' || raw[i] == '\t')) {
      i++;
    }
    if (i < raw.length && raw[i] == '{') {
      try {
        return Json.read(raw);
      } catch (DecodeException e) {
        // not plain JSON (duplicate keys, YAML-only syntax): YAML decides
      }
    }
    try {
      return Yaml.read(new String(raw, StandardCharsets.UTF_8));
    } catch (DecodeException e) {
      // kube transcodes the body to JSON before decoding it: YAML errors surface there
      throw StatusErrors.badRequest("error encoding patch: error converting YAML to JSON: "
          + e.getMessage());
    }
  }
}
